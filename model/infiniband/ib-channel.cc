/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-channel.h"

#include "ib-lrh-header.h"
#include "ib-net-device.h"

#include "ns3/abort.h"
#include "ns3/canonical-scheduler.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(IbChannel);

TypeId
IbChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbChannel")
                            .SetParent<Channel>()
                            .SetGroupName("Interconnect")
                            .AddConstructor<IbChannel>()
                            .AddAttribute("Delay",
                                          "Propagation delay of the cable (>= 0)",
                                          TimeValue(NanoSeconds(100)),
                                          MakeTimeAccessor(&IbChannel::m_delay),
                                          MakeTimeChecker(Time(0)));
    return tid;
}

IbChannel::IbChannel()
    : m_nDevices(0),
      m_sent{0, 0}
{
}

void
IbChannel::DoDispose()
{
    m_device[0] = nullptr;
    m_device[1] = nullptr;
    Channel::DoDispose();
}

void
IbChannel::Attach(Ptr<IbNetDevice> device)
{
    NS_ABORT_MSG_IF(m_nDevices == 2, "IbChannel: a link has two ends");
    m_device[m_nDevices++] = device;
}

void
IbChannel::TransmitStart(Ptr<Packet> packet,
                         Ptr<IbNetDevice> src,
                         Time txTime,
                         uint8_t vl,
                         bool flowControl)
{
    NS_ABORT_MSG_UNLESS(m_nDevices == 2, "IbChannel: transmitting on a link with one end");
    const std::size_t from = DirectionFrom(src);
    ScheduleArrival(m_device[1 - from],
                    TakenAfter(src, txTime, flowControl) + m_delay,
                    m_sent[from]++,
                    packet,
                    vl,
                    flowControl);
}

Time
IbChannel::TakenAfter(Ptr<const IbNetDevice> src, Time txTime, bool flowControl) const
{
    Ptr<IbNetDevice> dst = m_device[1 - DirectionFrom(src)];
    // A cut-through switch takes a data packet in once its LRH has arrived.
    const Time taken =
        dst->IsCutThrough() && !flowControl
            ? std::min(txTime, src->GetDataRate().CalculateBytesTxTime(IbLrhHeader::SIZE))
            : txTime;
    // At least one time step: an 8-byte flow-control packet (0.64 ns at EDR 4x) would otherwise
    // arrive with its first bit, and a packet from another rank is handed over at its first bit.
    return std::max(taken, TimeStep(1));
}

void
IbChannel::ScheduleArrival(Ptr<IbNetDevice> dst,
                           Time delay,
                           uint64_t sequence,
                           Ptr<Packet> packet,
                           uint8_t vl,
                           bool flowControl)
{
    dst->ScheduleReceive(delay, sequence, std::move(packet), vl, flowControl);
}

std::size_t
IbChannel::DirectionFrom(Ptr<const IbNetDevice> src) const
{
    return src == m_device[0] ? 0 : 1;
}

Time
IbChannel::GetDelay() const
{
    return m_delay;
}

Ptr<IbNetDevice>
IbChannel::GetPeer(Ptr<const IbNetDevice> src) const
{
    if (m_nDevices < 2)
    {
        return nullptr;
    }
    return (src == m_device[0]) ? m_device[1] : m_device[0];
}

std::size_t
IbChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
IbChannel::GetDevice(std::size_t i) const
{
    return i < m_nDevices ? m_device[i] : nullptr;
}

} // namespace ns3
