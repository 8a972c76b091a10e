/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-time-series.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"

#include <cinttypes>
#include <cstdio>

namespace ns3
{

RoceTimeSeries::RoceTimeSeries(Time interval)
    : m_interval(interval),
      m_baseline(true)
{
    NS_ABORT_MSG_UNLESS(interval.IsStrictlyPositive(), "RoceTimeSeries: interval must be > 0");
}

void
RoceTimeSeries::AddFlow(const std::string& name, Ptr<RdmaQueuePair> responder)
{
    m_flows.push_back(Flow{name, responder, 0});
}

void
RoceTimeSeries::AddQueue(const std::string& name,
                         Ptr<RoceSwitch> sw,
                         uint32_t port,
                         uint8_t priority)
{
    Ptr<RoceSwitchMmu> mmu = sw->GetMmu();
    AddQueue(name, [mmu, port, priority]() { return mmu->GetEgressBytes(port, priority); });
}

void
RoceTimeSeries::AddQueue(const std::string& name,
                         std::function<uint64_t()> length,
                         std::function<bool()> keep)
{
    m_queues.push_back(Queue{name, std::move(length), std::move(keep)});
}

void
RoceTimeSeries::Start(Time start, Time stop)
{
    m_stop = stop;
    Simulator::Schedule(start - Simulator::Now(), &RoceTimeSeries::Sample, this);
}

void
RoceTimeSeries::Sample()
{
    std::vector<double> rates;
    for (auto& f : m_flows)
    {
        const uint64_t bytes = f.responder->GetBytesDelivered();
        rates.push_back((bytes - f.lastBytes) * 8.0 / m_interval.GetSeconds());
        f.lastBytes = bytes;
    }
    if (!m_baseline)
    {
        std::vector<uint64_t> lengths;
        for (const auto& q : m_queues)
        {
            lengths.push_back(q.length());
        }
        m_times.push_back(Simulator::Now().GetNanoSeconds());
        m_rates.push_back(rates);
        m_lengths.push_back(lengths);
    }
    m_baseline = false;
    if (Simulator::Now() + m_interval <= m_stop)
    {
        Simulator::Schedule(m_interval, &RoceTimeSeries::Sample, this);
    }
}

double
RoceTimeSeries::MeanRate(std::size_t flow, Time from, Time to) const
{
    double sum = 0;
    uint32_t n = 0;
    for (std::size_t i = 0; i < m_times.size(); ++i)
    {
        if (m_times[i] >= from.GetNanoSeconds() && m_times[i] <= to.GetNanoSeconds())
        {
            sum += m_rates[i].at(flow);
            ++n;
        }
    }
    return n ? sum / n : 0;
}

double
RoceTimeSeries::MeanQueue(std::size_t queue, Time from, Time to) const
{
    double sum = 0;
    uint32_t n = 0;
    for (std::size_t i = 0; i < m_times.size(); ++i)
    {
        if (m_times[i] >= from.GetNanoSeconds() && m_times[i] <= to.GetNanoSeconds())
        {
            sum += m_lengths[i].at(queue);
            ++n;
        }
    }
    return n ? sum / n : 0;
}

double
RoceTimeSeries::JainIndex(const std::vector<double>& x)
{
    double sum = 0;
    double squares = 0;
    for (double v : x)
    {
        sum += v;
        squares += v * v;
    }
    return squares > 0 ? sum * sum / (x.size() * squares) : 0;
}

bool
RoceTimeSeries::WriteRatesCsv(const std::string& path) const
{
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f)
    {
        return false;
    }
    std::fprintf(f, "time_ns,flow,rate_bps\n");
    for (std::size_t i = 0; i < m_times.size(); ++i)
    {
        for (std::size_t j = 0; j < m_flows.size(); ++j)
        {
            std::fprintf(f,
                         "%" PRId64 ",%s,%.0f\n",
                         m_times[i],
                         m_flows[j].name.c_str(),
                         m_rates[i][j]);
        }
    }
    return std::fclose(f) == 0;
}

bool
RoceTimeSeries::WriteQueuesCsv(const std::string& path) const
{
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f)
    {
        return false;
    }
    std::fprintf(f, "time_ns,queue,bytes\n");
    std::vector<bool> keep;
    for (const auto& q : m_queues)
    {
        keep.push_back(!q.keep || q.keep());
    }
    for (std::size_t i = 0; i < m_times.size(); ++i)
    {
        for (std::size_t j = 0; j < m_queues.size(); ++j)
        {
            if (!keep[j])
            {
                continue;
            }
            std::fprintf(f,
                         "%" PRId64 ",%s,%" PRIu64 "\n",
                         m_times[i],
                         m_queues[j].name.c_str(),
                         m_lengths[i][j]);
        }
    }
    return std::fclose(f) == 0;
}

} // namespace ns3
