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
{
}

IbRethHeader::IbRethHeader(const IbReth& fields)
    : IbReth(fields)
{
}

void
IbReth::SetVirtualAddress(uint64_t va)
{
    NS_LOG_FUNCTION(this << va);
    m_virtualAddress = va;
}

void
IbReth::SetRkey(uint32_t rkey)
{
    NS_LOG_FUNCTION(this << rkey);
    m_rkey = rkey;
}

void
IbReth::SetDmaLength(uint32_t length)
{
    NS_LOG_FUNCTION(this << length);
    m_dmaLength = length;
}

void
IbRethHeader::Print(std::ostream& os) const
{
    char text[64];
    std::snprintf(text,
                  sizeof(text),
                  "va=0x%016llX rkey=0x%08lX",
                  static_cast<unsigned long long>(GetVirtualAddress()),
                  static_cast<unsigned long>(GetRkey()));
    os << text << " len=" << GetDmaLength();
}

uint32_t
IbRethHeader::GetSerializedSize() const
{
    return SIZE;
}

void
IbReth::Write(uint8_t* b) const
{
    for (int k = 0; k < 8; ++k)
    {
        b[k] = static_cast<uint8_t>(m_virtualAddress >> (56 - 8 * k));
    }
    for (int k = 0; k < 4; ++k)
    {
        b[8 + k] = static_cast<uint8_t>(m_rkey >> (24 - 8 * k));
        b[12 + k] = static_cast<uint8_t>(m_dmaLength >> (24 - 8 * k));
    }
}

void
IbReth::Read(const uint8_t* b)
{
    m_virtualAddress = 0;
    for (int k = 0; k < 8; ++k)
    {
        m_virtualAddress = (m_virtualAddress << 8) | b[k];
    }
    m_rkey = 0;
    m_dmaLength = 0;
    for (int k = 0; k < 4; ++k)
    {
        m_rkey = (m_rkey << 8) | b[8 + k];
        m_dmaLength = (m_dmaLength << 8) | b[12 + k];
    }
}

void
IbRethHeader::Serialize(Buffer::Iterator start) const
{
    uint8_t b[SIZE];
    Write(b);
    start.Write(b, SIZE);
}

uint32_t
IbRethHeader::Deserialize(Buffer::Iterator start)
{
    uint8_t b[SIZE];
    start.Read(b, SIZE);
    Read(b);
    return SIZE;
}

} // namespace ns3
