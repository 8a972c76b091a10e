/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-remote-channel.h"

#ifdef NS3_MPI

#include "pfc-net-device.h"

#include "ns3/log.h"
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcRemoteChannel");

NS_OBJECT_ENSURE_REGISTERED(PfcRemoteChannel);
NS_OBJECT_ENSURE_REGISTERED(PfcRemoteTag);

TypeId
PfcRemoteChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcRemoteChannel")
                            .SetParent<PfcChannel>()
                            .SetGroupName("Interconnect")
                            .AddConstructor<PfcRemoteChannel>();
    return tid;
}

void
PfcRemoteChannel::TransmitStart(Ptr<Packet> packet,
                                Ptr<PfcNetDevice> src,
                                Time txTime,
                                uint16_t etherType)
{
    NS_LOG_FUNCTION(this << packet << src << txTime << etherType);
    NS_ASSERT_MSG(m_nDevices == 2, "PfcRemoteChannel: transmitting on a cable with one end");
    const std::size_t from = DirectionFrom(src);
    Ptr<PfcNetDevice> dst = m_device[1 - from];
    const uint64_t sequence = m_sent[from]++;
    if (dst->GetNode()->GetSystemId() == MpiInterface::GetSystemId())
    {
        ScheduleArrival(dst, txTime + m_delay, sequence, packet, etherType);
        return;
    }
    Ptr<Packet> frame = packet->Copy();
    PfcRemoteTag tag;
    tag.etherType = etherType;
    tag.sequence = sequence;
    tag.txTime = txTime.GetTimeStep();
    frame->AddPacketTag(tag);
    MpiInterface::SendPacket(frame,
                             Simulator::Now() + m_delay,
                             dst->GetNode()->GetId(),
                             dst->GetIfIndex());
}

void
PfcRemoteChannel::Receive(Ptr<PfcNetDevice> device, Ptr<Packet> packet)
{
    PfcRemoteTag tag;
    const bool tagged = packet->RemovePacketTag(tag);
    NS_ABORT_MSG_UNLESS(tagged, "PfcRemoteChannel: a frame from another rank without its tag");
    ScheduleArrival(device, Time(tag.txTime), tag.sequence, packet, tag.etherType);
}

void
PfcRemoteChannel::ConnectReceiver(Ptr<PfcNetDevice> device)
{
    if (device->GetObject<MpiReceiver>())
    {
        return;
    }
    Ptr<MpiReceiver> receiver = CreateObject<MpiReceiver>();
    receiver->SetReceiveCallback(MakeBoundCallback(&PfcRemoteChannel::Receive, device));
    device->AggregateObject(receiver);
}

TypeId
PfcRemoteTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcRemoteTag")
                            .SetParent<Tag>()
                            .SetGroupName("Interconnect")
                            .AddConstructor<PfcRemoteTag>();
    return tid;
}

TypeId
PfcRemoteTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
PfcRemoteTag::GetSerializedSize() const
{
    return 2 + 8 + 8;
}

void
PfcRemoteTag::Serialize(TagBuffer i) const
{
    i.WriteU16(etherType);
    i.WriteU64(sequence);
    i.WriteU64(static_cast<uint64_t>(txTime));
}

void
PfcRemoteTag::Deserialize(TagBuffer i)
{
    etherType = i.ReadU16();
    sequence = i.ReadU64();
    txTime = static_cast<int64_t>(i.ReadU64());
}

void
PfcRemoteTag::Print(std::ostream& os) const
{
    os << "etherType=0x" << std::hex << etherType << std::dec << " sequence=" << sequence
       << " txTime=" << txTime;
}

} // namespace ns3

#endif // NS3_MPI
