/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-bth-header.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <cstdio>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbBthHeader");

NS_OBJECT_ENSURE_REGISTERED(IbBthHeader);

namespace
{

// Bit positions of the one-bit fields (IBTA Vol. 1, 9.2; RoCEv2 annex A17 for F and B).
constexpr uint8_t SE_BIT = 0x80;     // byte 1, bit 7
constexpr uint8_t MIGREQ_BIT = 0x40; // byte 1, bit 6
constexpr uint8_t FECN_BIT = 0x80;   // byte 4, bit 7
constexpr uint8_t BECN_BIT = 0x40;   // byte 4, bit 6
constexpr uint8_t ACKREQ_BIT = 0x80; // byte 8, bit 7
} // namespace

TypeId
IbBthHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbBthHeader")
                            .SetParent<Header>()
                            .SetGroupName("Interconnect")
                            .AddConstructor<IbBthHeader>();
    return tid;
}

TypeId
IbBthHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

IbBthHeader::IbBthHeader()
{
}

IbBthHeader::IbBthHeader(const IbBth& fields)
    : IbBth(fields)
{
}

void
IbBth::SetOpcode(uint8_t opcode)
{
    NS_LOG_FUNCTION(this << static_cast<uint32_t>(opcode));
    m_opcode = opcode;
}

void
IbBth::SetSolicitedEvent(bool se)
{
    NS_LOG_FUNCTION(this << se);
    m_se = se;
}

void
IbBth::SetMigReq(bool migReq)
{
    NS_LOG_FUNCTION(this << migReq);
    m_migReq = migReq;
}

void
IbBth::SetPadCount(uint8_t padCount)
{
    NS_LOG_FUNCTION(this << static_cast<uint32_t>(padCount));
    NS_ASSERT_MSG(padCount <= 3, "BTH PadCnt is 2 bits: " << static_cast<uint32_t>(padCount));
    m_padCount = padCount;
}

void
IbBth::SetTver(uint8_t tver)
{
    NS_LOG_FUNCTION(this << static_cast<uint32_t>(tver));
    NS_ASSERT_MSG(tver <= 15, "BTH TVer is 4 bits: " << static_cast<uint32_t>(tver));
    m_tver = tver;
}

void
IbBth::SetPkey(uint16_t pkey)
{
    NS_LOG_FUNCTION(this << pkey);
    m_pkey = pkey;
}

void
IbBth::SetFecn(bool fecn)
{
    NS_LOG_FUNCTION(this << fecn);
    m_fecn = fecn;
}

void
IbBth::SetBecn(bool becn)
{
    NS_LOG_FUNCTION(this << becn);
    m_becn = becn;
}

void
IbBth::SetDestQp(uint32_t destQp)
{
    NS_LOG_FUNCTION(this << destQp);
    NS_ASSERT_MSG(destQp <= MAX_24BIT, "BTH DestQP is 24 bits: " << destQp);
    m_destQp = destQp;
}

void
IbBth::SetAckRequest(bool ackRequest)
{
    NS_LOG_FUNCTION(this << ackRequest);
    m_ackRequest = ackRequest;
}

void
IbBth::SetPsn(uint32_t psn)
{
    NS_LOG_FUNCTION(this << psn);
    NS_ASSERT_MSG(psn <= MAX_24BIT, "BTH PSN is 24 bits: " << psn);
    m_psn = psn;
}

bool
IbBth::HasReth(uint8_t opcode)
{
    return opcode == RC_WRITE_FIRST || opcode == RC_WRITE_ONLY || opcode == RC_WRITE_ONLY_IMM ||
           opcode == RC_READ_REQUEST;
}

bool
IbBth::HasAeth(uint8_t opcode)
{
    return opcode == RC_ACKNOWLEDGE || opcode == RC_READ_RESPONSE_FIRST ||
           opcode == RC_READ_RESPONSE_LAST || opcode == RC_READ_RESPONSE_ONLY;
}

bool
IbBth::HasImmediate(uint8_t opcode)
{
    return opcode == RC_SEND_LAST_IMM || opcode == RC_SEND_ONLY_IMM ||
           opcode == RC_WRITE_LAST_IMM || opcode == RC_WRITE_ONLY_IMM;
}

bool
IbBth::IsFirst(uint8_t opcode)
{
    switch (opcode)
    {
    case RC_SEND_FIRST:
    case RC_SEND_ONLY:
    case RC_SEND_ONLY_IMM:
    case RC_WRITE_FIRST:
    case RC_WRITE_ONLY:
    case RC_WRITE_ONLY_IMM:
    case RC_READ_RESPONSE_FIRST:
    case RC_READ_RESPONSE_ONLY:
        return true;
    default:
        return false;
    }
}

bool
IbBth::IsLast(uint8_t opcode)
{
    switch (opcode)
    {
    case RC_SEND_LAST:
    case RC_SEND_LAST_IMM:
    case RC_SEND_ONLY:
    case RC_SEND_ONLY_IMM:
    case RC_WRITE_LAST:
    case RC_WRITE_LAST_IMM:
    case RC_WRITE_ONLY:
    case RC_WRITE_ONLY_IMM:
    case RC_READ_RESPONSE_LAST:
    case RC_READ_RESPONSE_ONLY:
        return true;
    default:
        return false;
    }
}

bool
IbBth::IsSend(uint8_t opcode)
{
    return opcode <= RC_SEND_ONLY_IMM;
}

bool
IbBth::IsWrite(uint8_t opcode)
{
    return opcode >= RC_WRITE_FIRST && opcode <= RC_WRITE_ONLY_IMM;
}

bool
IbBth::CarriesData(uint8_t opcode)
{
    return IsSend(opcode) || IsWrite(opcode) || IsReadResponse(opcode);
}

bool
IbBth::IsReadResponse(uint8_t opcode)
{
    return opcode >= RC_READ_RESPONSE_FIRST && opcode <= RC_READ_RESPONSE_ONLY;
}

std::string
IbBth::OpcodeName(uint8_t opcode)
{
    switch (opcode)
    {
    case RC_SEND_FIRST:
        return "RC_SEND_FIRST";
    case RC_SEND_MIDDLE:
        return "RC_SEND_MIDDLE";
    case RC_SEND_LAST:
        return "RC_SEND_LAST";
    case RC_SEND_LAST_IMM:
        return "RC_SEND_LAST_IMM";
    case RC_SEND_ONLY:
        return "RC_SEND_ONLY";
    case RC_SEND_ONLY_IMM:
        return "RC_SEND_ONLY_IMM";
    case RC_WRITE_FIRST:
        return "RC_WRITE_FIRST";
    case RC_WRITE_MIDDLE:
        return "RC_WRITE_MIDDLE";
    case RC_WRITE_LAST:
        return "RC_WRITE_LAST";
    case RC_WRITE_LAST_IMM:
        return "RC_WRITE_LAST_IMM";
    case RC_WRITE_ONLY:
        return "RC_WRITE_ONLY";
    case RC_WRITE_ONLY_IMM:
        return "RC_WRITE_ONLY_IMM";
    case RC_READ_REQUEST:
        return "RC_READ_REQUEST";
    case RC_READ_RESPONSE_FIRST:
        return "RC_READ_RESPONSE_FIRST";
    case RC_READ_RESPONSE_MIDDLE:
        return "RC_READ_RESPONSE_MIDDLE";
    case RC_READ_RESPONSE_LAST:
        return "RC_READ_RESPONSE_LAST";
    case RC_READ_RESPONSE_ONLY:
        return "RC_READ_RESPONSE_ONLY";
    case RC_ACKNOWLEDGE:
        return "RC_ACKNOWLEDGE";
    case ROCE_CNP:
        return "ROCE_CNP";
    case IB_CNP:
        return "IB_CNP";
    default: {
        char name[32];
        std::snprintf(name, sizeof(name), "UNKNOWN_0x%02X", static_cast<unsigned>(opcode));
        return name;
    }
    }
}

void
IbBthHeader::Print(std::ostream& os) const
{
    char opcode[16];
    char pkey[16];
    std::snprintf(opcode, sizeof(opcode), "0x%02X", static_cast<unsigned>(GetOpcode()));
    std::snprintf(pkey, sizeof(pkey), "0x%04X", static_cast<unsigned>(GetPkey()));
    os << "opcode=" << OpcodeName(GetOpcode()) << "(" << opcode << ") se=" << GetSolicitedEvent()
       << " m=" << GetMigReq() << " pad=" << static_cast<uint32_t>(GetPadCount())
       << " tver=" << static_cast<uint32_t>(GetTver()) << " pkey=" << pkey << " fecn=" << GetFecn()
       << " becn=" << GetBecn() << " dqp=" << GetDestQp() << " ackreq=" << GetAckRequest()
       << " psn=" << GetPsn();
}

uint32_t
IbBthHeader::GetSerializedSize() const
{
    return SIZE;
}

void
IbBth::Write(uint8_t* b) const
{
    b[0] = m_opcode;
    b[1] = static_cast<uint8_t>((m_se ? SE_BIT : 0) | (m_migReq ? MIGREQ_BIT : 0) |
                                (m_padCount << 4) | m_tver);
    b[2] = static_cast<uint8_t>(m_pkey >> 8);
    b[3] = static_cast<uint8_t>(m_pkey);
    b[4] = static_cast<uint8_t>((m_fecn ? FECN_BIT : 0) | (m_becn ? BECN_BIT : 0)); // resv6: 0
    b[5] = static_cast<uint8_t>(m_destQp >> 16);
    b[6] = static_cast<uint8_t>(m_destQp >> 8);
    b[7] = static_cast<uint8_t>(m_destQp);
    b[8] = m_ackRequest ? ACKREQ_BIT : 0; // 7 reserved bits: 0
    b[9] = static_cast<uint8_t>(m_psn >> 16);
    b[10] = static_cast<uint8_t>(m_psn >> 8);
    b[11] = static_cast<uint8_t>(m_psn);
}

void
IbBth::Read(const uint8_t* b)
{
    m_opcode = b[0];
    m_se = (b[1] & SE_BIT) != 0;
    m_migReq = (b[1] & MIGREQ_BIT) != 0;
    m_padCount = (b[1] >> 4) & 0x3;
    m_tver = b[1] & 0xF;
    m_pkey = static_cast<uint16_t>((b[2] << 8) | b[3]);
    m_fecn = (b[4] & FECN_BIT) != 0; // reserved bits ignored on receive
    m_becn = (b[4] & BECN_BIT) != 0;
    m_destQp = (uint32_t(b[5]) << 16) | (uint32_t(b[6]) << 8) | b[7];
    m_ackRequest = (b[8] & ACKREQ_BIT) != 0;
    m_psn = (uint32_t(b[9]) << 16) | (uint32_t(b[10]) << 8) | b[11];
}

void
IbBthHeader::Serialize(Buffer::Iterator start) const
{
    uint8_t b[SIZE];
    Write(b);
    start.Write(b, SIZE);
}

uint32_t
IbBthHeader::Deserialize(Buffer::Iterator start)
{
    uint8_t b[SIZE];
    start.Read(b, SIZE);
    Read(b);
    return SIZE;
}

} // namespace ns3
