/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "poisson-traffic.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/random-variable-stream.h"

#include <algorithm>

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

std::vector<FlowSpec>
PoissonTraffic::Generate(uint32_t hosts, int64_t stream) const
{
    NS_ABORT_MSG_UNLESS(hosts >= 2, "PoissonTraffic: needs at least two hosts");
    Ptr<ExponentialRandomVariable> gap = CreateObject<ExponentialRandomVariable>();
    gap->SetAttribute("Mean", DoubleValue(1.0 / GetArrivalRate()));
    gap->SetStream(stream);
    Ptr<UniformRandomVariable> size = CreateObject<UniformRandomVariable>();
    size->SetStream(stream + 1);
    Ptr<UniformRandomVariable> peer = CreateObject<UniformRandomVariable>();
    peer->SetStream(stream + 2);
    std::vector<FlowSpec> flows;
    const double stop = m_stop.GetSeconds();
    for (uint32_t h = 0; h < hosts; ++h)
    {
        double t = m_start.GetSeconds() + gap->GetValue();
        while (t < stop)
        {
            uint32_t dst = peer->GetInteger(0, hosts - 2);
            dst += dst >= h ? 1 : 0; // any host but h
            flows.push_back(FlowSpec{h, dst, m_sizes.Sample(size->GetValue()), Seconds(t)});
            t += gap->GetValue();
        }
    }
    std::stable_sort(flows.begin(), flows.end(), [](const FlowSpec& a, const FlowSpec& b) {
        return a.start < b.start;
    });
    return flows;
}

} // namespace ns3
