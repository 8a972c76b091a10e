/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-remote-channel.h"

#ifdef NS3_MPI

#include "local-rank.h"
#include "remote-link-tag.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/pfc-net-device.h"
#include "ns3/rdma-int-tag.h"
#include "ns3/rdma-packet-pool.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcRemoteChannel");

NS_OBJECT_ENSURE_REGISTERED(PfcRemoteChannel);

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
PfcRemoteChannel::TransmitStart(const Ptr<Packet>& packet,
                                const Ptr<PfcNetDevice>& src,
                                int64_t now,
                                Time txTime,
                                uint16_t etherType,
                                const PfcFrameInfo& info)
{
    NS_LOG_FUNCTION(this << packet << src << txTime << etherType);
    NS_ASSERT_MSG(m_nDevices == 2, "PfcRemoteChannel: transmitting on a cable with one end");
    NS_ABORT_MSG_UNLESS(IsOnThisRank(src->GetNode()),
                        "PfcRemoteChannel: the copy of another rank's device "
                            << src->GetNode()->GetId() << " transmitted");
    const std::size_t from = DirectionFrom(src);
    Ptr<PfcNetDevice> dst = m_device[1 - from];
    const uint64_t sequence = m_sent[from]++;
    const Time onWire = OnWire(txTime);
    if (IsOnThisRank(dst->GetNode()))
    {
        ScheduleArrival(dst, now, onWire + m_delay, sequence, packet, etherType, info);
        return;
    }
    // (A frame to another rank goes without its fields: the receiver reads its bytes.)
    RemoteLinkTag tag;
    tag.info = etherType;
    tag.sequence = sequence;
    tag.remaining = onWire.GetTimeStep();
    SendToRank(packet, tag, dst, TimeStep(now) + m_delay);
}

void
PfcRemoteChannel::Receive(Ptr<PfcNetDevice> device, Ptr<Packet> packet)
{
    const RemoteLinkTag tag = TakeRemoteLinkTag(packet);
    RdmaPacketPool::NoteStampedTails(); // (another rank's NICs may stamp their ICRCs)
    RdmaPacketPool::NoteOtherRanks();   // (and the frames are not this rank's packets)
    RdmaIntTag::NoteMayBeCarried();     // (and add INT to their packets)
    ScheduleArrival(device,
                    Simulator::Now().GetTimeStep(),
                    TimeStep(tag.remaining),
                    tag.sequence,
                    packet,
                    tag.info,
                    PfcFrameInfo());
}

void
PfcRemoteChannel::ConnectReceiver(Ptr<PfcNetDevice> device)
{
    ConnectMpiReceiver(device, MakeBoundCallback(&PfcRemoteChannel::Receive, device));
}

} // namespace ns3

#endif // NS3_MPI
