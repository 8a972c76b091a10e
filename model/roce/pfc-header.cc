/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-header.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <cmath>
#include <cstdio>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcHeader");

NS_OBJECT_ENSURE_REGISTERED(PfcHeader);

namespace
{

/// Bytes of opcode, enable vector and the eight times; the rest of the payload is padding.
constexpr uint32_t FIELDS_SIZE = 2 + 2 + 2 * PfcHeader::N_PRIORITIES;

} // namespace

TypeId
PfcHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcHeader")
                            .SetParent<Header>()
                            .SetGroupName("Interconnect")
                            .AddConstructor<PfcHeader>();
    return tid;
}

TypeId
PfcHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

PfcHeader::PfcHeader()
    : m_opcode(OPCODE),
      m_enable(0)
{
}

Mac48Address
PfcHeader::GetMulticastAddress()
{
    // IEEE 802.3 annex 31B: the reserved multicast address of MAC Control PAUSE (and PFC).
    return Mac48Address("01:80:c2:00:00:01");
}

void
PfcHeader::SetPause(uint8_t priority, uint16_t quanta)
{
    NS_LOG_FUNCTION(this << static_cast<uint32_t>(priority) << quanta);
    NS_ASSERT_MSG(priority < N_PRIORITIES, "PFC priority is 0..7: " << +priority);
    m_enable = static_cast<uint8_t>(m_enable | (1u << priority));
    m_quanta[priority] = quanta;
}

bool
PfcHeader::IsEnabled(uint8_t priority) const
{
    NS_ASSERT_MSG(priority < N_PRIORITIES, "PFC priority is 0..7: " << +priority);
    return (m_enable >> priority) & 1u;
}

uint16_t
PfcHeader::GetQuanta(uint8_t priority) const
{
    NS_ASSERT_MSG(priority < N_PRIORITIES, "PFC priority is 0..7: " << +priority);
    return IsEnabled(priority) ? m_quanta[priority] : 0;
}

uint8_t
PfcHeader::GetEnableVector() const
{
    return m_enable;
}

uint16_t
PfcHeader::GetOpcode() const
{
    return m_opcode;
}

bool
PfcHeader::IsValid() const
{
    return m_opcode == OPCODE;
}

Time
PfcHeader::QuantaToTime(uint16_t quanta, DataRate linkRate)
{
    NS_LOG_FUNCTION(quanta << linkRate);
    NS_ASSERT_MSG(linkRate.GetBitRate() > 0, "PFC quanta need a link rate above 0");
    // 512 bit times = 64 byte times; at most 65535 * 64 * 8 bits, well within uint32_t.
    return linkRate.CalculateBytesTxTime(static_cast<uint32_t>(quanta) * (QUANTUM_BITS / 8));
}

uint16_t
PfcHeader::TimeToQuanta(Time t, DataRate linkRate)
{
    NS_LOG_FUNCTION(t << linkRate);
    NS_ASSERT_MSG(linkRate.GetBitRate() > 0, "PFC quanta need a link rate above 0");
    if (!t.IsStrictlyPositive())
    {
        return 0;
    }
    if (QuantaToTime(MAX_QUANTA, linkRate) < t)
    {
        return MAX_QUANTA;
    }
    // A floating-point first guess, within a quantum or two of the answer; the loops below then
    // settle on the exact answer with QuantaToTime alone, so the result does not depend on the
    // rounding of the guess.
    const double guess =
        std::ceil(t.GetSeconds() * static_cast<double>(linkRate.GetBitRate()) / QUANTUM_BITS);
    uint32_t quanta =
        guess < 1.0 ? 1 : (guess > MAX_QUANTA ? MAX_QUANTA : static_cast<uint32_t>(guess));
    while (quanta < MAX_QUANTA && QuantaToTime(static_cast<uint16_t>(quanta), linkRate) < t)
    {
        ++quanta;
    }
    while (quanta > 1 && QuantaToTime(static_cast<uint16_t>(quanta - 1), linkRate) >= t)
    {
        --quanta;
    }
    return static_cast<uint16_t>(quanta);
}

void
PfcHeader::Print(std::ostream& os) const
{
    char opcode[16];
    std::snprintf(opcode, sizeof(opcode), "0x%04X", static_cast<unsigned>(m_opcode));
    os << "opcode=" << opcode;
    if (!IsValid())
    {
        os << "(not PFC)";
    }
    os << " pause=[";
    bool first = true;
    for (uint8_t p = 0; p < N_PRIORITIES; ++p)
    {
        if (IsEnabled(p))
        {
            os << (first ? "" : " ") << static_cast<uint32_t>(p) << ":" << m_quanta[p];
            first = false;
        }
    }
    os << "]";
}

uint32_t
PfcHeader::GetSerializedSize() const
{
    return SIZE;
}

void
PfcHeader::Serialize(Buffer::Iterator start) const
{
    NS_LOG_FUNCTION(this);
    Buffer::Iterator i = start;
    i.WriteHtonU16(m_opcode);
    i.WriteHtonU16(m_enable); // upper octet reserved: 0
    for (uint8_t p = 0; p < N_PRIORITIES; ++p)
    {
        // A disabled priority's time is transmitted as 0.
        i.WriteHtonU16(IsEnabled(p) ? m_quanta[p] : 0);
    }
    i.WriteU8(0, SIZE - FIELDS_SIZE);
}

uint32_t
PfcHeader::Deserialize(Buffer::Iterator start)
{
    NS_LOG_FUNCTION(this);
    Buffer::Iterator i = start;
    m_opcode = i.ReadNtohU16();
    m_enable = static_cast<uint8_t>(i.ReadNtohU16() & 0xFF); // upper octet ignored
    for (uint8_t p = 0; p < N_PRIORITIES; ++p)
    {
        m_quanta[p] = i.ReadNtohU16();
    }
    i.Next(SIZE - FIELDS_SIZE);
    return SIZE;
}

} // namespace ns3
