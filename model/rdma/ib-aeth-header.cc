/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-aeth-header.h"

#include "ns3/assert.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbAethHeader");

NS_OBJECT_ENSURE_REGISTERED(IbAethHeader);

namespace
{

// Syndrome fields (IBTA Vol. 1, 9.7.5.1).
constexpr uint8_t RESERVED_BIT = 0x80;
constexpr uint8_t TYPE_MASK = 0x60;
constexpr uint8_t TYPE_ACK = 0x00;
constexpr uint8_t TYPE_RNR_NAK = 0x20;
constexpr uint8_t TYPE_NAK = 0x60;
constexpr uint8_t VALUE_MASK = 0x1F;

} // namespace

TypeId
IbAethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbAethHeader")
                            .SetParent<Header>()
                            .SetGroupName("Interconnect")
                            .AddConstructor<IbAethHeader>();
    return tid;
}

TypeId
IbAethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

IbAethHeader::IbAethHeader()
{
}

IbAethHeader::IbAethHeader(const IbAeth& fields)
    : IbAeth(fields)
{
}

void
IbAeth::SetSyndrome(uint8_t syndrome)
{
    NS_LOG_FUNCTION(this << static_cast<uint32_t>(syndrome));
    NS_ASSERT_MSG((syndrome & RESERVED_BIT) == 0,
                  "AETH syndrome bit 7 is reserved: " << static_cast<uint32_t>(syndrome));
    m_syndrome = syndrome;
}

void
IbAeth::SetMsn(uint32_t msn)
{
    NS_LOG_FUNCTION(this << msn);
    NS_ASSERT_MSG(msn <= MAX_MSN, "AETH MSN is 24 bits: " << msn);
    m_msn = msn;
}

void
IbAeth::SetAck(uint8_t credits)
{
    NS_LOG_FUNCTION(this << static_cast<uint32_t>(credits));
    NS_ASSERT_MSG(credits <= VALUE_MASK,
                  "AETH credit count is 5 bits: " << static_cast<uint32_t>(credits));
    m_syndrome = static_cast<uint8_t>(TYPE_ACK | credits);
}

void
IbAeth::SetNak(NakCode code)
{
    NS_LOG_FUNCTION(this << static_cast<uint32_t>(code));
    NS_ASSERT_MSG(code <= VALUE_MASK, "AETH NAK code is 5 bits: " << static_cast<uint32_t>(code));
    m_syndrome = static_cast<uint8_t>(TYPE_NAK | code);
}

void
IbAeth::SetRnrNak(uint8_t timerCode)
{
    NS_LOG_FUNCTION(this << static_cast<uint32_t>(timerCode));
    NS_ASSERT_MSG(timerCode <= VALUE_MASK,
                  "AETH RNR timer is 5 bits: " << static_cast<uint32_t>(timerCode));
    m_syndrome = static_cast<uint8_t>(TYPE_RNR_NAK | timerCode);
}

bool
IbAeth::IsAck() const
{
    return (m_syndrome & TYPE_MASK) == TYPE_ACK;
}

bool
IbAeth::IsNak() const
{
    return (m_syndrome & TYPE_MASK) == TYPE_NAK;
}

bool
IbAeth::IsRnrNak() const
{
    return (m_syndrome & TYPE_MASK) == TYPE_RNR_NAK;
}

IbAethHeader::NakCode
IbAeth::GetNakCode() const
{
    NS_ASSERT_MSG(IsNak(), "AETH syndrome " << static_cast<uint32_t>(m_syndrome) << " is no NAK");
    return static_cast<NakCode>(m_syndrome & VALUE_MASK);
}

uint8_t
IbAeth::GetCreditCount() const
{
    NS_ASSERT_MSG(IsAck(), "AETH syndrome " << static_cast<uint32_t>(m_syndrome) << " is no ACK");
    return m_syndrome & VALUE_MASK;
}

uint8_t
IbAeth::GetRnrTimer() const
{
    NS_ASSERT_MSG(IsRnrNak(),
                  "AETH syndrome " << static_cast<uint32_t>(m_syndrome) << " is no RNR NAK");
    return m_syndrome & VALUE_MASK;
}

void
IbAethHeader::Print(std::ostream& os) const
{
    const uint32_t value = GetSyndrome() & VALUE_MASK;
    if (IsAck())
    {
        os << "ACK credits=" << value;
    }
    else if (IsNak())
    {
        static const char* const names[] = {"PSN_SEQUENCE_ERROR",
                                            "INVALID_REQUEST",
                                            "REMOTE_ACCESS_ERROR",
                                            "REMOTE_OPERATIONAL_ERROR",
                                            "INVALID_RD_REQUEST",
                                            "IRN_SELECTIVE_NAK",
                                            "TRIMMED_NAK"};
        os << "NAK code=" << value;
        if (value <= TRIMMED_NAK)
        {
            os << "(" << names[value] << ")";
        }
    }
    else if (IsRnrNak())
    {
        os << "RNR_NAK timer=" << value;
    }
    else
    {
        os << "RESERVED syndrome=" << static_cast<uint32_t>(GetSyndrome());
    }
    os << " msn=" << GetMsn();
}

uint32_t
IbAethHeader::GetSerializedSize() const
{
    return SIZE;
}

void
IbAeth::Write(uint8_t* b) const
{
    b[0] = m_syndrome;
    b[1] = static_cast<uint8_t>(m_msn >> 16);
    b[2] = static_cast<uint8_t>(m_msn >> 8);
    b[3] = static_cast<uint8_t>(m_msn);
}

void
IbAeth::Read(const uint8_t* b)
{
    m_syndrome = b[0];
    m_msn = (uint32_t(b[1]) << 16) | (uint32_t(b[2]) << 8) | b[3];
}

void
IbAethHeader::Serialize(Buffer::Iterator start) const
{
    uint8_t b[SIZE];
    Write(b);
    start.Write(b, SIZE);
}

uint32_t
IbAethHeader::Deserialize(Buffer::Iterator start)
{
    uint8_t b[SIZE];
    start.Read(b, SIZE);
    Read(b);
    return SIZE;
}

} // namespace ns3
