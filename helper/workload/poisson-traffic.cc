/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "poisson-traffic.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <memory>

namespace ns3
{

PoissonTraffic::PoissonTraffic(const FlowSizeDistribution& sizes, double load, DataRate hostRate)
    : m_sizes(sizes),
      m_load(load),
      m_hostRate(hostRate),
      m_start(Time(0)),
      m_stop(MilliSeconds(10))
{
    NS_ABORT_MSG_UNLESS(load > 0 && load <= 1, "PoissonTraffic: load " << load << " not in (0, 1]");
    NS_ABORT_MSG_UNLESS(sizes.Mean() > 0, "PoissonTraffic: empty size distribution");
}

void
PoissonTraffic::SetWindow(Time start, Time stop)
{
    m_start = start;
    m_stop = stop;
}

double
PoissonTraffic::GetArrivalRate() const
{
    return m_load * m_hostRate.GetBitRate() / (8 * m_sizes.Mean());
}

PoissonTraffic::Arrivals::Arrivals(const PoissonTraffic& traffic, uint32_t hosts, int64_t stream)
    : m_sizes(traffic.m_sizes),
      m_hosts(hosts),
      m_t(traffic.m_start.GetSeconds()),
      m_stop(traffic.m_stop.GetSeconds()),
      m_gap(CreateObject<ExponentialRandomVariable>()),
      m_size(CreateObject<UniformRandomVariable>()),
      m_source(CreateObject<UniformRandomVariable>()),
      m_peer(CreateObject<UniformRandomVariable>())
{
    NS_ABORT_MSG_UNLESS(hosts >= 2, "PoissonTraffic: needs at least two hosts");
    m_gap->SetAttribute("Mean", DoubleValue(1.0 / (traffic.GetArrivalRate() * hosts)));
    m_gap->SetStream(stream);
    m_size->SetStream(stream + 1);
    m_peer->SetStream(stream + 2);
    m_source->SetStream(stream + 3);
}

bool
PoissonTraffic::Arrivals::Next(FlowSpec* flow)
{
    const double t = m_t + m_gap->GetValue();
    if (!(t < m_stop))
    {
        m_t = m_stop; // the window is over: no later draw can fall inside it
        return false;
    }
    m_t = t;
    const uint32_t src = m_source->GetInteger(0, m_hosts - 1);
    uint32_t dst = m_peer->GetInteger(0, m_hosts - 2);
    dst += dst >= src ? 1 : 0; // any host but the source
    *flow = FlowSpec{src, dst, m_sizes.Sample(m_size->GetValue()), Seconds(t)};
    return true;
}

std::vector<FlowSpec>
PoissonTraffic::Generate(uint32_t hosts, int64_t stream) const
{
    Arrivals arrivals(*this, hosts, stream);
    std::vector<FlowSpec> flows;
    FlowSpec f;
    while (arrivals.Next(&f))
    {
        flows.push_back(f);
    }
    return flows;
}

void
PoissonTraffic::Schedule(uint32_t hosts, int64_t stream, PostCallback post) const
{
    struct Pending
    {
        Arrivals arrivals; //!< the draws
        FlowSpec next;     //!< the flow drawn ahead
        PostCallback post; //!< where flows go
    };

    auto pending = std::make_shared<Pending>(Pending{Arrivals(*this, hosts, stream), {}, post});
    if (!pending->arrivals.Next(&pending->next))
    {
        return;
    }
    // Each arrival's event posts its flow and schedules the next arrival's.
    auto step = std::make_shared<std::function<void()>>();
    std::weak_ptr<std::function<void()>> self = step;
    *step = [pending, self]() {
        pending->post(pending->next);
        if (pending->arrivals.Next(&pending->next))
        {
            auto again = self.lock();
            Simulator::Schedule(std::max(Time(0), pending->next.start - Simulator::Now()),
                                [again]() { (*again)(); });
        }
    };
    Simulator::Schedule(std::max(Time(0), pending->next.start - Simulator::Now()),
                        [step]() { (*step)(); });
}

} // namespace ns3
