/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "iwarp-ddp-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(IwarpDdpHeader);

namespace
{
/// DDP version (RFC 5041) and RDMAP version (RFC 5040).
constexpr uint8_t DDP_VERSION = 1;
constexpr uint8_t RDMAP_VERSION = 1;
} // namespace

TypeId
IwarpDdpHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IwarpDdpHeader")
                            .SetParent<Header>()
                            .SetGroupName("Interconnect")
                            .AddConstructor<IwarpDdpHeader>();
    return tid;
}

TypeId
IwarpDdpHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

IwarpDdpHeader::IwarpDdpHeader()
    : m_tagged(false),
      m_last(false),
      m_opcode(SEND),
      m_stag(0),
      m_to(0),
      m_invalidate(0),
      m_qn(0),
      m_msn(0),
      m_mo(0)
{
}

void
IwarpDdpHeader::SetTagged(bool tagged)
{
    m_tagged = tagged;
}

bool
IwarpDdpHeader::IsTagged() const
{
    return m_tagged;
}

void
IwarpDdpHeader::SetLast(bool last)
{
    m_last = last;
}

bool
IwarpDdpHeader::IsLast() const
{
    return m_last;
}

void
IwarpDdpHeader::SetOpcode(Opcode opcode)
{
    m_opcode = opcode;
}

IwarpDdpHeader::Opcode
IwarpDdpHeader::GetOpcode() const
{
    return m_opcode;
}

void
IwarpDdpHeader::SetStag(uint32_t stag)
{
    m_stag = stag;
}

uint32_t
IwarpDdpHeader::GetStag() const
{
    return m_stag;
}

void
IwarpDdpHeader::SetTaggedOffset(uint64_t to)
{
    m_to = to;
}

uint64_t
IwarpDdpHeader::GetTaggedOffset() const
{
    return m_to;
}

void
IwarpDdpHeader::SetInvalidateStag(uint32_t stag)
{
    m_invalidate = stag;
}

uint32_t
IwarpDdpHeader::GetInvalidateStag() const
{
    return m_invalidate;
}

void
IwarpDdpHeader::SetQueueNumber(uint32_t qn)
{
    m_qn = qn;
}

uint32_t
IwarpDdpHeader::GetQueueNumber() const
{
    return m_qn;
}

void
IwarpDdpHeader::SetMsn(uint32_t msn)
{
    m_msn = msn;
}

uint32_t
IwarpDdpHeader::GetMsn() const
{
    return m_msn;
}

void
IwarpDdpHeader::SetMessageOffset(uint32_t mo)
{
    m_mo = mo;
}

uint32_t
IwarpDdpHeader::GetMessageOffset() const
{
    return m_mo;
}

uint32_t
IwarpDdpHeader::GetSerializedSize() const
{
    return m_tagged ? TAGGED_SIZE : UNTAGGED_SIZE;
}

void
IwarpDdpHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteU8(static_cast<uint8_t>((m_tagged ? 0x80 : 0) | (m_last ? 0x40 : 0) | DDP_VERSION));
    start.WriteU8(static_cast<uint8_t>((RDMAP_VERSION << 6) | (m_opcode & 0x0F)));
    if (m_tagged)
    {
        start.WriteHtonU32(m_stag);
        start.WriteHtonU64(m_to);
    }
    else
    {
        start.WriteHtonU32(m_invalidate);
        start.WriteHtonU32(m_qn);
        start.WriteHtonU32(m_msn);
        start.WriteHtonU32(m_mo);
    }
}

uint32_t
IwarpDdpHeader::Deserialize(Buffer::Iterator start)
{
    const uint8_t control = start.ReadU8();
    const uint8_t rdmap = start.ReadU8();
    m_tagged = (control & 0x80) != 0;
    m_last = (control & 0x40) != 0;
    m_opcode = static_cast<Opcode>(rdmap & 0x0F);
    if (m_tagged)
    {
        m_stag = start.ReadNtohU32();
        m_to = start.ReadNtohU64();
        return TAGGED_SIZE;
    }
    m_invalidate = start.ReadNtohU32();
    m_qn = start.ReadNtohU32();
    m_msn = start.ReadNtohU32();
    m_mo = start.ReadNtohU32();
    return UNTAGGED_SIZE;
}

void
IwarpDdpHeader::Print(std::ostream& os) const
{
    os << "DDP " << (m_tagged ? "tagged" : "untagged") << (m_last ? " last" : "")
       << " rdmap-op=" << +m_opcode;
    if (m_tagged)
    {
        os << " stag=" << m_stag << " to=" << m_to;
    }
    else
    {
        os << " qn=" << m_qn << " msn=" << m_msn << " mo=" << m_mo;
    }
}

} // namespace ns3
