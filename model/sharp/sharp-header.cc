/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sharp-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(SharpHeader);

TypeId
SharpHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SharpHeader")
                            .SetParent<Header>()
                            .SetGroupName("Interconnect")
                            .AddConstructor<SharpHeader>();
    return tid;
}

TypeId
SharpHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

SharpHeader::SharpHeader()
    : m_opcode(REDUCE),
      m_operation(0),
      m_job(0),
      m_sequence(0)
{
}

void
SharpHeader::SetOpcode(Opcode opcode)
{
    m_opcode = opcode;
}

uint8_t
SharpHeader::GetOpcode() const
{
    return m_opcode;
}

void
SharpHeader::SetJob(uint16_t job)
{
    m_job = job;
}

uint16_t
SharpHeader::GetJob() const
{
    return m_job;
}

void
SharpHeader::SetSequence(uint32_t sequence)
{
    m_sequence = sequence;
}

uint32_t
SharpHeader::GetSequence() const
{
    return m_sequence;
}

uint32_t
SharpHeader::GetSerializedSize() const
{
    return SIZE;
}

void
SharpHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteU8(m_opcode);
    start.WriteU8(m_operation);
    start.WriteHtonU16(m_job);
    start.WriteHtonU32(m_sequence);
}

uint32_t
SharpHeader::Deserialize(Buffer::Iterator start)
{
    m_opcode = start.ReadU8();
    m_operation = start.ReadU8();
    m_job = start.ReadNtohU16();
    m_sequence = start.ReadNtohU32();
    return SIZE;
}

void
SharpHeader::Print(std::ostream& os) const
{
    os << (m_opcode == REDUCE ? "reduce" : (m_opcode == RESULT ? "result" : "opcode "))
       << (m_opcode == REDUCE || m_opcode == RESULT ? "" : std::to_string(m_opcode))
       << " job=" << m_job << " seq=" << m_sequence;
}

} // namespace ns3
