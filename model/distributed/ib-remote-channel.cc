/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-remote-channel.h"

#ifdef NS3_MPI

#include "local-rank.h"
#include "remote-link-tag.h"

#include "ns3/abort.h"
#include "ns3/ib-net-device.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/rdma-int-tag.h"
#include "ns3/rdma-packet-pool.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbRemoteChannel");

NS_OBJECT_ENSURE_REGISTERED(IbRemoteChannel);

namespace
{
constexpr uint16_t FLOW_CONTROL_BIT = 0x100; //!< RemoteLinkTag::info: a flow-control packet
} // namespace

TypeId
IbRemoteChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbRemoteChannel")
                            .SetParent<IbChannel>()
                            .SetGroupName("Interconnect")
                            .AddConstructor<IbRemoteChannel>();
    return tid;
}

void
IbRemoteChannel::TransmitStart(Ptr<Packet> packet,
                               Ptr<IbNetDevice> src,
                               Time txTime,
                               uint8_t vl,
                               bool flowControl)
{
    NS_LOG_FUNCTION(this << packet << src << txTime << +vl << flowControl);
    NS_ABORT_MSG_UNLESS(m_nDevices == 2, "IbRemoteChannel: transmitting on a link with one end");
    NS_ABORT_MSG_UNLESS(IsOnThisRank(src->GetNode()),
                        "IbRemoteChannel: the copy of another rank's device "
                            << src->GetNode()->GetId() << " transmitted");
    const std::size_t from = DirectionFrom(src);
    Ptr<IbNetDevice> dst = m_device[1 - from];
    const uint64_t sequence = m_sent[from]++;
    const Time taken = TakenAfter(src, txTime, flowControl);
    if (IsOnThisRank(dst->GetNode()))
    {
        ScheduleArrival(dst, taken + m_delay, sequence, packet, vl, flowControl);
        return;
    }
    RemoteLinkTag tag;
    tag.info = vl | (flowControl ? FLOW_CONTROL_BIT : 0);
    tag.sequence = sequence;
    tag.remaining = taken.GetTimeStep();
    SendToRank(packet, tag, dst, Simulator::Now() + m_delay);
}

void
IbRemoteChannel::Receive(Ptr<IbNetDevice> device, Ptr<Packet> packet)
{
    const RemoteLinkTag tag = TakeRemoteLinkTag(packet);
    RdmaIntTag::NoteMayBeCarried();   // (another rank's adapters may add INT to their packets)
    RdmaPacketPool::NoteOtherRanks(); // (its flow-control packets are not this rank's)
    ScheduleArrival(device,
                    TimeStep(tag.remaining),
                    tag.sequence,
                    packet,
                    static_cast<uint8_t>(tag.info & 0xff),
                    (tag.info & FLOW_CONTROL_BIT) != 0);
}

void
IbRemoteChannel::ConnectReceiver(Ptr<IbNetDevice> device)
{
    ConnectMpiReceiver(device, MakeBoundCallback(&IbRemoteChannel::Receive, device));
}

} // namespace ns3

#endif // NS3_MPI
