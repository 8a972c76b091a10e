/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-reth-header.h"

#include "ns3/log.h"

#include <cstdio>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbRethHeader");

NS_OBJECT_ENSURE_REGISTERED(IbRethHeader);

TypeId
IbRethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbRethHeader")
                            .SetParent<Header>()
                            .SetGroupName("Interconnect")
                            .AddConstructor<IbRethHeader>();
    return tid;
}

TypeId
IbRethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

IbRethHeader::IbRethHeader()
    : m_virtualAddress(0),
      m_rkey(0),
      m_dmaLength(0)
{
}

void
IbRethHeader::SetVirtualAddress(uint64_t va)
{
    NS_LOG_FUNCTION(this << va);
    m_virtualAddress = va;
}

uint64_t
IbRethHeader::GetVirtualAddress() const
{
    return m_virtualAddress;
}

void
IbRethHeader::SetRkey(uint32_t rkey)
{
    NS_LOG_FUNCTION(this << rkey);
    m_rkey = rkey;
}

uint32_t
IbRethHeader::GetRkey() const
{
    return m_rkey;
}

void
IbRethHeader::SetDmaLength(uint32_t length)
{
    NS_LOG_FUNCTION(this << length);
    m_dmaLength = length;
}

uint32_t
IbRethHeader::GetDmaLength() const
{
    return m_dmaLength;
}

void
IbRethHeader::Print(std::ostream& os) const
{
    char text[64];
    std::snprintf(text,
                  sizeof(text),
                  "va=0x%016llX rkey=0x%08lX",
                  static_cast<unsigned long long>(m_virtualAddress),
                  static_cast<unsigned long>(m_rkey));
    os << text << " len=" << m_dmaLength;
}

uint32_t
IbRethHeader::GetSerializedSize() const
{
    return SIZE;
}

void
IbRethHeader::Serialize(Buffer::Iterator start) const
{
    NS_LOG_FUNCTION(this);
    Buffer::Iterator i = start;
    i.WriteHtonU64(m_virtualAddress);
    i.WriteHtonU32(m_rkey);
    i.WriteHtonU32(m_dmaLength);
}

uint32_t
IbRethHeader::Deserialize(Buffer::Iterator start)
{
    NS_LOG_FUNCTION(this);
    Buffer::Iterator i = start;
    m_virtualAddress = i.ReadNtohU64();
    m_rkey = i.ReadNtohU32();
    m_dmaLength = i.ReadNtohU32();
    return SIZE;
}

} // namespace ns3
