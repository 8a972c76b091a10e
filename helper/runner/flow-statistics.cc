/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-statistics.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace ns3
{

namespace
{

/// A size for names: 3000 -> "3KB", 10000000 -> "10MB" (decimal units).
std::string
SizeName(uint64_t bytes)
{
    if (bytes >= 1000000 && bytes % 1000000 == 0)
    {
        return std::to_string(bytes / 1000000) + "MB";
    }
    if (bytes >= 1000 && bytes % 1000 == 0)
    {
        return std::to_string(bytes / 1000) + "KB";
    }
    return std::to_string(bytes) + "B";
}

/// Fill a group's percentiles and median size from its started flows.
void
Finish(SlowdownFigures& g, std::vector<double>& slowdowns, std::vector<uint64_t>& sizes)
{
    if (slowdowns.empty())
    {
        return;
    }
    std::sort(slowdowns.begin(), slowdowns.end());
    std::sort(sizes.begin(), sizes.end());
    g.p50 = FlowStatistics::Percentile(slowdowns, 50);
    g.p95 = FlowStatistics::Percentile(slowdowns, 95);
    g.p99 = FlowStatistics::Percentile(slowdowns, 99);
    g.medianBytes = sizes[(sizes.size() + 1) / 2 - 1];
}

/// A percentile for a CSV or the terminal.
std::string
Figure(const SlowdownFigures& g, double value)
{
    if (!g.HasFigures())
    {
        return "n/a";
    }
    char text[32];
    std::snprintf(text, sizeof(text), "%.4f", value);
    return text;
}

} // namespace

bool
SlowdownFigures::HasFigures() const
{
    return posted > notStarted;
}

FlowStatistics::FlowStatistics(const std::vector<FlowRecord>& flows,
                               Time end,
                               std::vector<uint64_t> edges)
{
    if (edges.empty())
    {
        edges = DefaultEdges();
    }
    for (std::size_t i = 1; i < edges.size(); ++i)
    {
        NS_ABORT_MSG_UNLESS(edges[i - 1] < edges[i], "FlowStatistics: edges must increase");
    }
    NS_ABORT_MSG_IF(edges.front() == 0, "FlowStatistics: edges must be positive");
    m_buckets.resize(edges.size() + 1);
    for (std::size_t b = 0; b <= edges.size(); ++b)
    {
        SlowdownFigures& g = m_buckets[b];
        g.minBytes = b == 0 ? 0 : edges[b - 1];
        g.maxBytes = b == edges.size() ? 0 : edges[b];
        g.name = b == 0 ? "<" + SizeName(g.maxBytes)
                        : (g.maxBytes == 0 ? ">=" + SizeName(g.minBytes)
                                           : SizeName(g.minBytes) + "-" + SizeName(g.maxBytes));
    }
    m_overall.name = "all";
    std::vector<std::vector<double>> slowdowns(m_buckets.size());
    std::vector<std::vector<uint64_t>> sizes(m_buckets.size());
    std::vector<double> all;
    std::vector<uint64_t> allSizes;
    for (const auto& f : flows)
    {
        const std::size_t b = std::upper_bound(edges.begin(), edges.end(), f.bytes) - edges.begin();
        for (SlowdownFigures* g : {&m_buckets[b], &m_overall})
        {
            ++g->posted;
            if (!f.end.IsZero())
            {
                ++g->completed;
            }
            else if (f.start >= end)
            {
                ++g->notStarted;
            }
            else
            {
                ++g->unfinished;
            }
        }
        const double s = Slowdown(f, end);
        if (s >= 0)
        {
            slowdowns[b].push_back(s);
            sizes[b].push_back(f.bytes);
            all.push_back(s);
            allSizes.push_back(f.bytes);
        }
    }
    for (std::size_t b = 0; b < m_buckets.size(); ++b)
    {
        Finish(m_buckets[b], slowdowns[b], sizes[b]);
    }
    Finish(m_overall, all, allSizes);
}

std::vector<uint64_t>
FlowStatistics::DefaultEdges()
{
    return {1000, 3000, 10000, 30000, 100000, 300000, 1000000, 3000000, 10000000, 30000000};
}

double
FlowStatistics::Percentile(const std::vector<double>& sorted, double p)
{
    NS_ABORT_MSG_IF(sorted.empty() || p <= 0 || p > 100,
                    "FlowStatistics::Percentile: values and 0 < p <= 100");
    // Rank ceil(p n / 100), computed in integers so that 99 x 100 / 100 is exactly 99.
    const uint64_t n = sorted.size();
    const uint64_t scaled = static_cast<uint64_t>(std::llround(p * 1000)); // p in 1/1000 %
    const uint64_t rank = (scaled * n + 100000 - 1) / 100000;
    return sorted[std::max<uint64_t>(rank, 1) - 1];
}

double
FlowStatistics::Slowdown(const FlowRecord& f, Time end)
{
    const double ideal = f.idealFct.GetDouble();
    if (!f.end.IsZero())
    {
        return (f.end - f.start).GetDouble() / ideal;
    }
    if (f.start >= end)
    {
        return -1;
    }
    // Not done yet: its FCT is more than the time so far, and never less than the ideal one.
    return std::max((end - f.start).GetDouble(), ideal) / ideal;
}

const SlowdownFigures&
FlowStatistics::GetOverall() const
{
    return m_overall;
}

const std::vector<SlowdownFigures>&
FlowStatistics::GetBuckets() const
{
    return m_buckets;
}

bool
FlowStatistics::WriteCsv(const std::string& path) const
{
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f)
    {
        return false;
    }
    std::fprintf(f,
                 "bucket,min_bytes,max_bytes,posted,completed,unfinished,not_started,"
                 "median_bytes,p50,p95,p99\n");
    std::vector<const SlowdownFigures*> rows;
    for (const auto& b : m_buckets)
    {
        rows.push_back(&b);
    }
    rows.push_back(&m_overall);
    for (const SlowdownFigures* g : rows)
    {
        const std::string max = g->maxBytes ? std::to_string(g->maxBytes) : "";
        std::fprintf(f,
                     "%s,%" PRIu64 ",%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
                     ",%s,%s,%s\n",
                     g->name.c_str(),
                     g->minBytes,
                     g == &m_overall ? "" : max.c_str(),
                     g->posted,
                     g->completed,
                     g->unfinished,
                     g->notStarted,
                     g->medianBytes,
                     Figure(*g, g->p50).c_str(),
                     Figure(*g, g->p95).c_str(),
                     Figure(*g, g->p99).c_str());
    }
    return std::fclose(f) == 0;
}

std::string
FlowStatistics::ToJsonMembers(const std::string& indent) const
{
    auto percentiles = [](const SlowdownFigures& g) {
        if (!g.HasFigures())
        {
            return std::string("\"p50\": null, \"p95\": null, \"p99\": null");
        }
        char text[128];
        std::snprintf(text,
                      sizeof(text),
                      "\"p50\": %.4f, \"p95\": %.4f, \"p99\": %.4f",
                      g.p50,
                      g.p95,
                      g.p99);
        return std::string(text);
    };
    auto counts = [](const SlowdownFigures& g) {
        return "\"posted\": " + std::to_string(g.posted) +
               ", \"completed\": " + std::to_string(g.completed) +
               ", \"unfinished\": " + std::to_string(g.unfinished) +
               ", \"notStarted\": " + std::to_string(g.notStarted);
    };
    std::ostringstream os;
    os << indent << "\"flows\": {" << counts(m_overall) << "},\n";
    os << indent << "\"slowdown\": {" << percentiles(m_overall)
       << ", \"unfinishedAtLowerBound\": true},\n";
    os << indent << "\"slowdownBySize\": [\n";
    for (std::size_t b = 0; b < m_buckets.size(); ++b)
    {
        const SlowdownFigures& g = m_buckets[b];
        os << indent << "  {\"bucket\": \"" << g.name << "\", \"minBytes\": " << g.minBytes
           << ", \"maxBytes\": " << (g.maxBytes ? std::to_string(g.maxBytes) : "null") << ", "
           << counts(g) << ", \"medianBytes\": " << g.medianBytes << ", " << percentiles(g) << "}"
           << (b + 1 < m_buckets.size() ? "," : "") << "\n";
    }
    os << indent << "]";
    return os.str();
}

std::string
FlowStatistics::Report() const
{
    std::ostringstream os;
    char line[160];
    std::snprintf(line,
                  sizeof(line),
                  "  %-12s %9s %9s %10s %10s %10s\n",
                  "flow size",
                  "completed",
                  "posted",
                  "slowdown50",
                  "p95",
                  "p99");
    os << line;
    std::vector<const SlowdownFigures*> rows;
    for (const auto& b : m_buckets)
    {
        rows.push_back(&b);
    }
    rows.push_back(&m_overall);
    for (const SlowdownFigures* g : rows)
    {
        std::snprintf(line,
                      sizeof(line),
                      "  %-12s %9" PRIu64 " %9" PRIu64 " %10s %10s %10s\n",
                      g->name.c_str(),
                      g->completed,
                      g->posted,
                      Figure(*g, g->p50).c_str(),
                      Figure(*g, g->p95).c_str(),
                      Figure(*g, g->p99).c_str());
        os << line;
    }
    return os.str();
}

} // namespace ns3
