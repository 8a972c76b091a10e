/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-channel.h"

#include "pfc-net-device.h"

#include "ns3/canonical-scheduler.h"
#include "ns3/interconnect-config-error.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <string>
#include <typeinfo>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcChannel");

NS_OBJECT_ENSURE_REGISTERED(PfcChannel);

TypeId
PfcChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcChannel")
            .SetParent<Channel>()
            .SetGroupName("Interconnect")
            .AddConstructor<PfcChannel>()
            .AddAttribute("Delay",
                          "Propagation delay of the cable, each direction (>= 0). "
                          "Default: 1 us, about 200 m of fibre.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&PfcChannel::SetDelay, &PfcChannel::GetDelay),
                          MakeTimeChecker(Time(0)));
    return tid;
}

PfcChannel::PfcChannel()
    : m_nDevices(0),
      m_sent{0, 0}
{
    NS_LOG_FUNCTION(this);
}

void
PfcChannel::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (std::size_t end = 0; end < m_nDevices; ++end)
    {
        m_device[end]->UseCable(nullptr, m_delay); // (they no longer hold each other)
    }
    m_device[0] = nullptr;
    m_device[1] = nullptr;
    m_nDevices = 0;
    Channel::DoDispose();
}

void
PfcChannel::Attach(Ptr<PfcNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(m_nDevices >= 2, "PfcChannel: a cable joins exactly two devices");
    m_device[m_nDevices++] = device;
    if (m_nDevices == 2)
    {
        TellEnds();
    }
}

void
PfcChannel::SetDelay(Time delay)
{
    NS_LOG_FUNCTION(this << delay);
    if (delay.IsStrictlyNegative())
    {
        InterconnectConfigError("ns3::PfcChannel::Delay",
                                std::to_string(delay.GetNanoSeconds()) + "ns",
                                "a delay of 0 or more");
    }
    m_delay = delay;
    if (m_nDevices == 2)
    {
        TellEnds();
    }
}

void
PfcChannel::TellEnds()
{
    const bool plain = typeid(*this) == typeid(PfcChannel);
    for (std::size_t end = 0; end < 2; ++end)
    {
        m_device[end]->UseCable(plain ? PeekPointer(m_device[1 - end]) : nullptr, m_delay);
    }
}

void
PfcChannel::TransmitStart(const Ptr<Packet>& packet,
                          const Ptr<PfcNetDevice>& src,
                          int64_t now,
                          Time txTime,
                          uint16_t etherType,
                          const PfcFrameInfo& info)
{
    NS_LOG_FUNCTION(this << packet << src << txTime << etherType);
    NS_ASSERT_MSG(m_nDevices == 2, "PfcChannel: transmitting on a cable with one end");
    const std::size_t from = DirectionFrom(src);
    src->ScheduleDeparture(PeekPointer(m_device[1 - from]),
                           now,
                           (OnWire(txTime) + m_delay).GetTimeStep(),
                           m_sent[from]++,
                           packet,
                           etherType,
                           info);
}

void
PfcChannel::ScheduleArrival(const Ptr<PfcNetDevice>& dst,
                            int64_t now,
                            Time delay,
                            uint64_t sequence,
                            const Ptr<Packet>& packet,
                            uint16_t etherType,
                            const PfcFrameInfo& info)
{
    dst->ScheduleReceive(now, delay, sequence, packet, etherType, info);
}

Time
PfcChannel::OnWire(Time txTime)
{
    return TimeStep(OnWireSteps(txTime.GetTimeStep()));
}

std::size_t
PfcChannel::DirectionFrom(Ptr<const PfcNetDevice> src) const
{
    return src == m_device[0] ? 0 : 1;
}

Time
PfcChannel::GetDelay() const
{
    return m_delay;
}

Ptr<PfcNetDevice>
PfcChannel::GetPeer(Ptr<const PfcNetDevice> src) const
{
    if (m_nDevices < 2)
    {
        return nullptr;
    }
    return (src == m_device[0]) ? m_device[1] : m_device[0];
}

std::size_t
PfcChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
PfcChannel::GetDevice(std::size_t i) const
{
    NS_ASSERT(i < m_nDevices);
    return m_device[i];
}

} // namespace ns3
