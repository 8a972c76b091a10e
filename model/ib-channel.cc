/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-channel.h"

#include "canonical-scheduler.h"
#include "ib-lrh-header.h"
#include "ib-net-device.h"

#include "ns3/abort.h"
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
    const std::size_t from = (src == m_device[0]) ? 0 : 1;
    Ptr<IbNetDevice> dst = m_device[1 - from];
    // A cut-through switch takes a data packet in once its LRH has arrived.
    const Time arrival =
        dst->IsCutThrough() && !flowControl
            ? std::min(txTime, src->GetDataRate().CalculateBytesTxTime(IbLrhHeader::SIZE))
            : txTime;
    CanonicalScheduler::KeyNextEvent(dst->GetIfIndex(), m_sent[from]++);
    Simulator::ScheduleWithContext(dst->GetNode()->GetId(),
                                   arrival + m_delay,
                                   &IbNetDevice::Receive,
                                   dst,
                                   packet,
                                   vl,
                                   flowControl);
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
