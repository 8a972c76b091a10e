/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "iwarp-read-request-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(IwarpReadRequestHeader);

TypeId
IwarpReadRequestHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IwarpReadRequestHeader")
                            .SetParent<Header>()
                            .SetGroupName("Interconnect")
                            .AddConstructor<IwarpReadRequestHeader>();
    return tid;
}

TypeId
IwarpReadRequestHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

IwarpReadRequestHeader::IwarpReadRequestHeader()
    : m_sinkStag(0),
      m_sinkTo(0),
      m_size(0),
      m_sourceStag(0),
      m_sourceTo(0)
{
}

void
IwarpReadRequestHeader::SetSinkStag(uint32_t stag)
{
    m_sinkStag = stag;
}

uint32_t
IwarpReadRequestHeader::GetSinkStag() const
{
    return m_sinkStag;
}

void
IwarpReadRequestHeader::SetSinkOffset(uint64_t to)
{
    m_sinkTo = to;
}

uint64_t
IwarpReadRequestHeader::GetSinkOffset() const
{
    return m_sinkTo;
}

void
IwarpReadRequestHeader::SetSize(uint32_t size)
{
    m_size = size;
}

uint32_t
IwarpReadRequestHeader::GetSize() const
{
    return m_size;
}

void
IwarpReadRequestHeader::SetSourceStag(uint32_t stag)
{
    m_sourceStag = stag;
}

uint32_t
IwarpReadRequestHeader::GetSourceStag() const
{
    return m_sourceStag;
}

void
IwarpReadRequestHeader::SetSourceOffset(uint64_t to)
{
    m_sourceTo = to;
}

uint64_t
IwarpReadRequestHeader::GetSourceOffset() const
{
    return m_sourceTo;
}

uint32_t
IwarpReadRequestHeader::GetSerializedSize() const
{
    return SIZE;
}

void
IwarpReadRequestHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU32(m_sinkStag);
    start.WriteHtonU64(m_sinkTo);
    start.WriteHtonU32(m_size);
    start.WriteHtonU32(m_sourceStag);
    start.WriteHtonU64(m_sourceTo);
}

uint32_t
IwarpReadRequestHeader::Deserialize(Buffer::Iterator start)
{
    m_sinkStag = start.ReadNtohU32();
    m_sinkTo = start.ReadNtohU64();
    m_size = start.ReadNtohU32();
    m_sourceStag = start.ReadNtohU32();
    m_sourceTo = start.ReadNtohU64();
    return SIZE;
}

void
IwarpReadRequestHeader::Print(std::ostream& os) const
{
    os << "RDMA Read Request sink=" << m_sinkStag << "@" << m_sinkTo << " size=" << m_size
       << " source=" << m_sourceStag << "@" << m_sourceTo;
}

} // namespace ns3
