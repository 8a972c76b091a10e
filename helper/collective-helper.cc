/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-helper.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"

#include <cinttypes>
#include <cstdio>
#include <memory>

namespace ns3
{

CollectiveHelper::CollectiveHelper(RoceHelper& roce)
    : m_roce(roce)
{
}

Time
CollectiveHelper::LowerBound(const std::vector<uint32_t>& hosts, const Matrix& bytes) const
{
    Time bound(0);
    for (std::size_t i = 0; i < hosts.size(); ++i)
    {
        uint64_t out = 0;
        uint64_t in = 0;
        for (std::size_t j = 0; j < hosts.size(); ++j)
        {
            if (i != j)
            {
                out += bytes[i][j] ? m_roce.WireBytes(RdmaVerb::WRITE, bytes[i][j]) : 0;
                in += bytes[j][i] ? m_roce.WireBytes(RdmaVerb::WRITE, bytes[j][i]) : 0;
            }
        }
        const DataRate rate = m_roce.GetNic(hosts[i])->GetDevice()->GetDataRate();
        bound = std::max(bound, rate.CalculateBytesTxTime(std::max(out, in)));
    }
    return bound;
}

void
CollectiveHelper::RunMatrix(const std::string& kind,
                            const std::vector<uint32_t>& hosts,
                            const Matrix& bytes,
                            Time start,
                            std::function<void()> done)
{
    NS_ABORT_MSG_UNLESS(bytes.size() == hosts.size(), "CollectiveHelper: matrix size");
    const std::size_t index = m_records.size();
    uint64_t total = 0;
    auto outstanding = std::make_shared<uint32_t>(0);
    for (std::size_t i = 0; i < hosts.size(); ++i)
    {
        for (std::size_t j = 0; j < hosts.size(); ++j)
        {
            if (i != j && bytes[i][j] > 0)
            {
                total += bytes[i][j];
                ++*outstanding;
            }
        }
    }
    const std::string group =
        hosts.empty() ? "" : std::to_string(hosts.front()) + "-" + std::to_string(hosts.back());
    m_records.push_back(
        CollectiveRecord{kind, group, total, start, Time(0), LowerBound(hosts, bytes)});
    // One shared closure for all the phase's transfers: `done` may hold large state (the next
    // phase's matrix), which must not be copied into every completion callback.
    auto finish = std::make_shared<std::function<void()>>([this, index, done]() {
        m_records[index].end = Simulator::Now();
        if (done)
        {
            done();
        }
    });
    if (*outstanding == 0)
    {
        Simulator::Schedule(start - Simulator::Now(), [finish]() { (*finish)(); });
        return;
    }
    for (std::size_t i = 0; i < hosts.size(); ++i)
    {
        for (std::size_t j = 0; j < hosts.size(); ++j)
        {
            if (i == j || bytes[i][j] == 0)
            {
                continue;
            }
            m_roce.Post(
                hosts[i],
                hosts[j],
                RdmaVerb::WRITE,
                bytes[i][j],
                start,
                3,
                RdmaQueuePair::CompletionCallback([outstanding, finish](const RdmaCompletion&) {
                    if (--*outstanding == 0)
                    {
                        (*finish)();
                    }
                }));
        }
    }
}

void
CollectiveHelper::AllToAll(const std::vector<uint32_t>& hosts,
                           uint64_t bytesPerPair,
                           Time start,
                           std::function<void()> done)
{
    Matrix m(hosts.size(), std::vector<uint64_t>(hosts.size(), bytesPerPair));
    for (std::size_t i = 0; i < hosts.size(); ++i)
    {
        m[i][i] = 0;
    }
    RunMatrix("all-to-all", hosts, m, start, done);
}

void
CollectiveHelper::RingAllReduce(const std::vector<uint32_t>& hosts,
                                uint64_t bytes,
                                Time start,
                                std::function<void()> done)
{
    const std::size_t n = hosts.size();
    NS_ABORT_MSG_UNLESS(n >= 2, "CollectiveHelper::RingAllReduce: at least two hosts");
    Matrix step(n, std::vector<uint64_t>(n, 0));
    const uint64_t chunk = (bytes + n - 1) / n;
    for (std::size_t i = 0; i < n; ++i)
    {
        step[i][(i + 1) % n] = chunk;
    }
    // 2 (n - 1) phases, each posted when the previous one completes.
    auto phases = std::make_shared<uint32_t>(2 * (n - 1));
    auto next = std::make_shared<std::function<void()>>();
    *next = [this, hosts, step, phases, next, done]() {
        if (*phases == 0)
        {
            if (done)
            {
                done();
            }
            *next = nullptr; // break the self-reference
            return;
        }
        --*phases;
        RunMatrix("ring-allreduce-step", hosts, step, Simulator::Now(), *next);
    };
    Simulator::Schedule(start - Simulator::Now(), [next]() { (*next)(); });
}

void
CollectiveHelper::MoeLayers(const std::vector<uint32_t>& hosts,
                            const MoeTraffic& moe,
                            uint32_t layers,
                            uint32_t iterations,
                            Time computeGap,
                            Time start,
                            int64_t stream)
{
    Simulator::Schedule(start - Simulator::Now(),
                        &CollectiveHelper::MoeStep,
                        this,
                        hosts,
                        moe,
                        0,
                        layers * iterations,
                        computeGap,
                        stream);
}

void
CollectiveHelper::MoeStep(std::vector<uint32_t> hosts,
                          const MoeTraffic& moe,
                          uint32_t index,
                          uint32_t total,
                          Time gap,
                          int64_t stream)
{
    if (index == total)
    {
        return;
    }
    const Matrix dispatch = moe.DispatchMatrix(stream + index);
    Matrix combine(dispatch.size(), std::vector<uint64_t>(dispatch.size(), 0));
    for (std::size_t i = 0; i < dispatch.size(); ++i)
    {
        for (std::size_t j = 0; j < dispatch.size(); ++j)
        {
            combine[j][i] = dispatch[i][j];
        }
    }
    RunMatrix("moe-dispatch", hosts, dispatch, Simulator::Now(), [=]() {
        RunMatrix("moe-combine", hosts, combine, Simulator::Now() + gap, [=]() {
            Simulator::Schedule(gap,
                                &CollectiveHelper::MoeStep,
                                this,
                                hosts,
                                moe,
                                index + 1,
                                total,
                                gap,
                                stream);
        });
    });
}

const std::vector<CollectiveRecord>&
CollectiveHelper::GetRecords() const
{
    return m_records;
}

bool
CollectiveHelper::WriteCsv(const std::string& path) const
{
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f)
    {
        return false;
    }
    std::fprintf(f, "kind,group,bytes,start_ns,end_ns,time_ns,lower_bound_ns,ratio\n");
    for (const auto& r : m_records)
    {
        if (r.end.IsZero())
        {
            std::fprintf(f,
                         "%s,%s,%" PRIu64 ",%" PRId64 ",,,%" PRId64 ",\n",
                         r.kind.c_str(),
                         r.group.c_str(),
                         r.bytes,
                         r.start.GetNanoSeconds(),
                         r.lowerBound.GetNanoSeconds());
            continue;
        }
        const Time t = r.end - r.start;
        std::fprintf(f,
                     "%s,%s,%" PRIu64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%.6f\n",
                     r.kind.c_str(),
                     r.group.c_str(),
                     r.bytes,
                     r.start.GetNanoSeconds(),
                     r.end.GetNanoSeconds(),
                     t.GetNanoSeconds(),
                     r.lowerBound.GetNanoSeconds(),
                     r.lowerBound.IsZero() ? 0.0 : t.GetDouble() / r.lowerBound.GetDouble());
    }
    return std::fclose(f) == 0;
}

} // namespace ns3
