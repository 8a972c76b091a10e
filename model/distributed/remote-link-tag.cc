/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "remote-link-tag.h"

#include "ns3/abort.h"

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#endif

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

#ifdef NS3_MPI
void
SendToRank(Ptr<const Packet> packet,
           const RemoteLinkTag& tag,
           Ptr<const NetDevice> dst,
           Time firstBit)
{
    Ptr<Packet> copy = packet->Copy();
    copy->AddPacketTag(tag);
    MpiInterface::SendPacket(copy, firstBit, dst->GetNode()->GetId(), dst->GetIfIndex());
}

RemoteLinkTag
TakeRemoteLinkTag(Ptr<Packet> packet)
{
    RemoteLinkTag tag;
    const bool tagged = packet->RemovePacketTag(tag);
    NS_ABORT_MSG_UNLESS(tagged, "a frame from another rank without its RemoteLinkTag");
    return tag;
}

void
ConnectMpiReceiver(Ptr<NetDevice> device, Callback<void, Ptr<Packet>> receive)
{
    if (device->GetObject<MpiReceiver>())
    {
        return;
    }
    Ptr<MpiReceiver> receiver = CreateObject<MpiReceiver>();
    receiver->SetReceiveCallback(receive);
    device->AggregateObject(receiver);
}
#endif

} // namespace ns3
