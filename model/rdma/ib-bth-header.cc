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
    : m_opcode(RC_SEND_FIRST),
      m_se(false),
      m_migReq(false),
      m_padCount(0),
      m_tver(0),
      m_pkey(DEFAULT_PKEY),
      m_fecn(false),
      m_becn(false),
      m_destQp(0),
      m_ackRequest(false),
      m_psn(0)
{
}

void
IbBthHeader::SetOpcode(uint8_t opcode)
{
    NS_LOG_FUNCTION(this << static_cast<uint32_t>(opcode));
    m_opcode = opcode;
}

uint8_t
IbBthHeader::GetOpcode() const
{
    return m_opcode;
}

void
IbBthHeader::SetSolicitedEvent(bool se)
{
    NS_LOG_FUNCTION(this << se);
    m_se = se;
}

bool
IbBthHeader::GetSolicitedEvent() const
{
    return m_se;
}

void
IbBthHeader::SetMigReq(bool migReq)
{
    NS_LOG_FUNCTION(this << migReq);
    m_migReq = migReq;
}

bool
IbBthHeader::GetMigReq() const
{
    return m_migReq;
}

void
IbBthHeader::SetPadCount(uint8_t padCount)
{
    NS_LOG_FUNCTION(this << static_cast<uint32_t>(padCount));
    NS_ASSERT_MSG(padCount <= 3, "BTH PadCnt is 2 bits: " << static_cast<uint32_t>(padCount));
    m_padCount = padCount;
}

uint8_t
IbBthHeader::GetPadCount() const
{
    return m_padCount;
}

void
IbBthHeader::SetTver(uint8_t tver)
{
    NS_LOG_FUNCTION(this << static_cast<uint32_t>(tver));
    NS_ASSERT_MSG(tver <= 15, "BTH TVer is 4 bits: " << static_cast<uint32_t>(tver));
    m_tver = tver;
}

uint8_t
IbBthHeader::GetTver() const
{
    return m_tver;
}

void
IbBthHeader::SetPkey(uint16_t pkey)
{
    NS_LOG_FUNCTION(this << pkey);
    m_pkey = pkey;
}

uint16_t
IbBthHeader::GetPkey() const
{
    return m_pkey;
}

void
IbBthHeader::SetFecn(bool fecn)
{
    NS_LOG_FUNCTION(this << fecn);
    m_fecn = fecn;
}

bool
IbBthHeader::GetFecn() const
{
    return m_fecn;
}

void
IbBthHeader::SetBecn(bool becn)
{
    NS_LOG_FUNCTION(this << becn);
    m_becn = becn;
}

bool
IbBthHeader::GetBecn() const
{
    return m_becn;
}

void
IbBthHeader::SetDestQp(uint32_t destQp)
{
    NS_LOG_FUNCTION(this << destQp);
    NS_ASSERT_MSG(destQp <= MAX_24BIT, "BTH DestQP is 24 bits: " << destQp);
    m_destQp = destQp;
}

uint32_t
IbBthHeader::GetDestQp() const
{
    return m_destQp;
}

void
IbBthHeader::SetAckRequest(bool ackRequest)
{
    NS_LOG_FUNCTION(this << ackRequest);
    m_ackRequest = ackRequest;
}

bool
IbBthHeader::GetAckRequest() const
{
    return m_ackRequest;
}

void
IbBthHeader::SetPsn(uint32_t psn)
{
    NS_LOG_FUNCTION(this << psn);
    NS_ASSERT_MSG(psn <= MAX_24BIT, "BTH PSN is 24 bits: " << psn);
    m_psn = psn;
}

uint32_t
IbBthHeader::GetPsn() const
{
    return m_psn;
}

bool
IbBthHeader::HasReth(uint8_t opcode)
{
    return opcode == RC_WRITE_FIRST || opcode == RC_WRITE_ONLY || opcode == RC_WRITE_ONLY_IMM ||
           opcode == RC_READ_REQUEST;
}

bool
IbBthHeader::HasAeth(uint8_t opcode)
{
    return opcode == RC_ACKNOWLEDGE || opcode == RC_READ_RESPONSE_FIRST ||
           opcode == RC_READ_RESPONSE_LAST || opcode == RC_READ_RESPONSE_ONLY;
}

bool
IbBthHeader::HasImmediate(uint8_t opcode)
{
    return opcode == RC_SEND_LAST_IMM || opcode == RC_SEND_ONLY_IMM ||
           opcode == RC_WRITE_LAST_IMM || opcode == RC_WRITE_ONLY_IMM;
}

bool
IbBthHeader::IsFirst(uint8_t opcode)
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
IbBthHeader::IsLast(uint8_t opcode)
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
IbBthHeader::IsSend(uint8_t opcode)
{
    return opcode <= RC_SEND_ONLY_IMM;
}

bool
IbBthHeader::IsWrite(uint8_t opcode)
{
    return opcode >= RC_WRITE_FIRST && opcode <= RC_WRITE_ONLY_IMM;
}

bool
IbBthHeader::CarriesData(uint8_t opcode)
{
    return IsSend(opcode) || IsWrite(opcode) || IsReadResponse(opcode);
}

bool
IbBthHeader::IsReadResponse(uint8_t opcode)
{
    return opcode >= RC_READ_RESPONSE_FIRST && opcode <= RC_READ_RESPONSE_ONLY;
}

std::string
IbBthHeader::OpcodeName(uint8_t opcode)
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
    std::snprintf(opcode, sizeof(opcode), "0x%02X", static_cast<unsigned>(m_opcode));
    std::snprintf(pkey, sizeof(pkey), "0x%04X", static_cast<unsigned>(m_pkey));
    os << "opcode=" << OpcodeName(m_opcode) << "(" << opcode << ") se=" << m_se << " m=" << m_migReq
       << " pad=" << static_cast<uint32_t>(m_padCount) << " tver=" << static_cast<uint32_t>(m_tver)
       << " pkey=" << pkey << " fecn=" << m_fecn << " becn=" << m_becn << " dqp=" << m_destQp
       << " ackreq=" << m_ackRequest << " psn=" << m_psn;
}

uint32_t
IbBthHeader::GetSerializedSize() const
{
    return SIZE;
}

void
IbBthHeader::Write(uint8_t* b) const
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
IbBthHeader::Read(const uint8_t* b)
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
