/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "remote-link-tag.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RemoteLinkTag);

TypeId
RemoteLinkTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RemoteLinkTag")
                            .SetParent<Tag>()
                            .SetGroupName("Interconnect")
                            .AddConstructor<RemoteLinkTag>();
    return tid;
}

TypeId
RemoteLinkTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RemoteLinkTag::GetSerializedSize() const
{
    return 2 + 8 + 8;
}

void
RemoteLinkTag::Serialize(TagBuffer i) const
{
    i.WriteU16(info);
    i.WriteU64(sequence);
    i.WriteU64(static_cast<uint64_t>(remaining));
}

void
RemoteLinkTag::Deserialize(TagBuffer i)
{
    info = i.ReadU16();
    sequence = i.ReadU64();
    remaining = static_cast<int64_t>(i.ReadU64());
}

void
RemoteLinkTag::Print(std::ostream& os) const
{
    os << "info=0x" << std::hex << info << std::dec << " sequence=" << sequence
       << " remaining=" << remaining;
}

} // namespace ns3
