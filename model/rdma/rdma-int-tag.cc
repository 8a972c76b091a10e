/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-int-tag.h"

#include "ns3/abort.h"

namespace ns3
{

bool RdmaIntTag::s_mayBeCarried = false;

NS_OBJECT_ENSURE_REGISTERED(RdmaIntTag);

TypeId
RdmaIntTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaIntTag")
                            .SetParent<Tag>()
                            .SetGroupName("Interconnect")
                            .AddConstructor<RdmaIntTag>();
    return tid;
}

TypeId
RdmaIntTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

RdmaIntTag::RdmaIntTag()
    : m_nHops(0),
      m_echo(false)
{
    // m_hops stays uninitialized: only the first m_nHops entries are ever read, and a tag is
    // built on every received packet (PeekPacketTag) whether or not it carries INT.
}

void
RdmaIntTag::Push(const RdmaIntHop& hop)
{
    if (m_nHops < MAX_HOPS)
    {
        m_hops[m_nHops++] = hop;
    }
}

uint32_t
RdmaIntTag::GetNHops() const
{
    return m_nHops;
}

void
RdmaIntTag::SetEcho()
{
    m_echo = true;
}

bool
RdmaIntTag::IsEcho() const
{
    return m_echo;
}

const RdmaIntHop&
RdmaIntTag::GetHop(uint32_t i) const
{
    NS_ABORT_MSG_UNLESS(i < m_nHops, "RdmaIntTag: no hop " << i);
    return m_hops[i];
}

uint32_t
RdmaIntTag::GetSerializedSize() const
{
    return 2 + m_nHops * (8 + 4 + 8 + 8);
}

void
RdmaIntTag::Serialize(TagBuffer i) const
{
    s_mayBeCarried = true; // (a packet is taking the tag)
    i.WriteU8(static_cast<uint8_t>(m_nHops));
    i.WriteU8(m_echo ? 1 : 0);
    for (uint32_t h = 0; h < m_nHops; ++h)
    {
        i.WriteU64(m_hops[h].txBytes);
        i.WriteU32(m_hops[h].qlen);
        i.WriteU64(static_cast<uint64_t>(m_hops[h].timestamp));
        i.WriteU64(m_hops[h].rateBps);
    }
}

void
RdmaIntTag::Deserialize(TagBuffer i)
{
    m_nHops = i.ReadU8();
    m_echo = i.ReadU8() != 0;
    for (uint32_t h = 0; h < m_nHops; ++h)
    {
        m_hops[h].txBytes = i.ReadU64();
        m_hops[h].qlen = i.ReadU32();
        m_hops[h].timestamp = static_cast<int64_t>(i.ReadU64());
        m_hops[h].rateBps = i.ReadU64();
    }
}

void
RdmaIntTag::Print(std::ostream& os) const
{
    os << "INT hops=" << m_nHops << (m_echo ? " echo" : "");
    for (uint32_t h = 0; h < m_nHops; ++h)
    {
        os << " [tx=" << m_hops[h].txBytes << " q=" << m_hops[h].qlen
           << " ts=" << m_hops[h].timestamp << " B=" << m_hops[h].rateBps << "]";
    }
}

} // namespace ns3
