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
#include <limits>
#include <map>
#include <memory>
#include <numeric>

namespace ns3
{

CollectiveHelper::CollectiveHelper(MessageTransport& network)
    : m_network(network),
      m_mapping(QueuePairMapping::PerHostPair())
{
}

void
CollectiveHelper::SetQueuePairMapping(const QueuePairMapping& mapping)
{
    m_mapping = mapping;
}

uint64_t
CollectiveHelper::Post(uint32_t src,
                       uint32_t dst,
                       uint64_t bytes,
                       Time at,
                       RdmaQueuePair::CompletionCallback done)
{
    // The collectives' own mapping for this message, the transport's for the others.
    const QueuePairMapping outer = m_network.GetQueuePairMapping();
    m_network.SetQueuePairMapping(m_mapping);
    const uint64_t id =
        m_network.Post(src, dst, RdmaVerb::WRITE, bytes, at, m_network.GetDefaultPriority(), done);
    m_network.SetQueuePairMapping(outer);
    return id;
}

Time
CollectiveHelper::LowerBound(const std::vector<uint32_t>& hosts, const Matrix& bytes) const
{
    if (!m_servers.empty())
    {
        return GpuLowerBound(hosts, bytes);
    }
    Time bound(0);
    for (std::size_t i = 0; i < hosts.size(); ++i)
    {
        uint64_t out = 0;
        uint64_t in = 0;
        for (std::size_t j = 0; j < hosts.size(); ++j)
        {
            if (i != j)
            {
                out += bytes[i][j] ? m_network.WireBytes(RdmaVerb::WRITE, bytes[i][j]) : 0;
                in += bytes[j][i] ? m_network.WireBytes(RdmaVerb::WRITE, bytes[j][i]) : 0;
            }
        }
        const DataRate rate = m_network.GetHostRate(hosts[i]);
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
    // The next phase, started by `done`, belongs to this phase's workload.
    auto finish =
        std::make_shared<std::function<void()>>(InCurrentWorkload(EndRecord(index, done)));
    if (*outstanding == 0)
    {
        Simulator::Schedule(start - Simulator::Now(), [finish]() { (*finish)(); });
        return;
    }
    if (!m_servers.empty())
    {
        RunGpuMatrix(hosts, bytes, start, finish);
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
            Post(hosts[i],
                 hosts[j],
                 bytes[i][j],
                 start,
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
    // 2 (n - 1) phases, each posted when the previous one completes. The step holds itself
    // weakly; whoever waits to call it (the pending phase, the first event) holds it, so a run
    // that stops mid-way frees it with those events.
    auto phases = std::make_shared<uint32_t>(2 * (n - 1));
    auto next = std::make_shared<std::function<void()>>();
    std::weak_ptr<std::function<void()>> self = next;
    *next = [this, hosts, step, phases, self, done]() {
        if (*phases == 0)
        {
            if (done)
            {
                done();
            }
            return;
        }
        --*phases;
        auto again = self.lock();
        RunMatrix("ring-allreduce-step", hosts, step, Simulator::Now(), [again]() { (*again)(); });
    };
    Simulator::Schedule(start - Simulator::Now(), InCurrentWorkload([next]() { (*next)(); }));
}

CollectiveHelper::PhaseList
CollectiveHelper::HierarchicalPhases(std::size_t members, uint64_t bytes, uint32_t domains)
{
    NS_ABORT_MSG_IF(domains < 2 || members % domains != 0,
                    "CollectiveHelper::HierarchicalAllReduce: " << members << " members in "
                                                                << domains << " domains");
    const std::size_t m = members / domains; // members a domain
    const uint64_t shard = (bytes + m - 1) / m;
    // Inside a domain: ring steps of a shard to the next member. Across: for two domains one
    // exchange of the shards between counterparts (each gets what it lacks at once); for more,
    // a ring all-reduce of the shard among the D counterparts, 2 (D - 1) steps of shard / D,
    // which sends 2 (D - 1) / D of it where an exchange would send D - 1 times it.
    const uint64_t piece = domains == 2 ? shard : (shard + domains - 1) / domains;
    auto ring = std::make_shared<Matrix>(members, std::vector<uint64_t>(members, 0));
    auto cross = std::make_shared<Matrix>(members, std::vector<uint64_t>(members, 0));
    for (std::size_t d = 0; d < domains; ++d)
    {
        for (std::size_t k = 0; k < m; ++k)
        {
            const std::size_t i = d * m + k;
            if (m > 1)
            {
                (*ring)[i][d * m + (k + 1) % m] = shard;
            }
            (*cross)[i][((d + 1) % domains) * m + k] = piece;
        }
    }
    PhaseList phases;
    for (std::size_t step = 0; step + 1 < m; ++step)
    {
        phases.emplace_back("hierarchical:reduce-scatter", ring);
    }
    for (std::size_t step = 0; step < (domains == 2 ? 1 : 2 * (domains - 1)); ++step)
    {
        phases.emplace_back("hierarchical:cross", cross);
    }
    for (std::size_t step = 0; step + 1 < m; ++step)
    {
        phases.emplace_back("hierarchical:all-gather", ring);
    }
    return phases;
}

void
CollectiveHelper::RunPhases(const std::vector<uint32_t>& hosts,
                            std::shared_ptr<const PhaseList> phases,
                            Time start,
                            std::function<void()> done)
{
    // As RingAllReduce: the step holds itself weakly; the pending phase holds it.
    auto index = std::make_shared<std::size_t>(0);
    auto next = std::make_shared<std::function<void()>>();
    std::weak_ptr<std::function<void()>> self = next;
    *next = [this, hosts, phases, index, self, done]() {
        if (*index == phases->size())
        {
            if (done)
            {
                done();
            }
            return;
        }
        const auto& [kind, matrix] = (*phases)[(*index)++];
        auto again = self.lock();
        RunMatrix(kind, hosts, *matrix, Simulator::Now(), [again]() { (*again)(); });
    };
    Simulator::Schedule(start - Simulator::Now(), InCurrentWorkload([next]() { (*next)(); }));
}

void
CollectiveHelper::HierarchicalAllReduce(const std::vector<uint32_t>& hosts,
                                        uint64_t bytes,
                                        uint32_t domains,
                                        Time start,
                                        std::function<void()> done)
{
    RunPhases(hosts,
              std::make_shared<const PhaseList>(HierarchicalPhases(hosts.size(), bytes, domains)),
              start,
              std::move(done));
}

uint32_t
CollectiveHelper::NvSwitchOf(uint32_t server) const
{
    const Ptr<IntraHostFabric> f = m_servers.at(server).fabric;
    for (uint32_t c = 0; c < f->GetNComponents(); ++c)
    {
        if (f->GetKind(c) == IntraHostFabric::NVSWITCH)
        {
            return c;
        }
    }
    return std::numeric_limits<uint32_t>::max();
}

bool
CollectiveHelper::NvlsCapable(uint32_t server) const
{
    const std::string& layout = m_servers.at(server).parameters.layout;
    return (layout == "dgx-h100" || layout == "nvl72") &&
           NvSwitchOf(server) != std::numeric_limits<uint32_t>::max();
}

Time
CollectiveHelper::NvlsBound(uint32_t server, uint64_t up, uint64_t down) const
{
    const IntraHostServer& srv = m_servers.at(server);
    Time bound;
    for (uint32_t gpu : srv.gpus)
    {
        const double rate = srv.fabric->Bottleneck(srv.fabric->Path(gpu, NvSwitchOf(server)));
        bound = std::max(bound, Seconds(double(std::max(up, down)) / rate));
    }
    return bound;
}

void
CollectiveHelper::NvlsPhase(const std::string& kind,
                            const std::vector<uint32_t>& servers,
                            uint64_t up,
                            uint64_t down,
                            Time start,
                            std::function<void()> done)
{
    const uint32_t g = GetGpusPerServer();
    const std::size_t index = m_records.size();
    Time bound;
    for (uint32_t s : servers)
    {
        bound = std::max(bound, NvlsBound(s, up, down));
    }
    m_records.push_back(CollectiveRecord{kind,
                                         std::to_string(servers.front() * g) + "-" +
                                             std::to_string(servers.back() * g + g - 1),
                                         up * g * servers.size(),
                                         start,
                                         Time(0),
                                         bound});
    auto outstanding = std::make_shared<uint32_t>(0);
    auto finish =
        std::make_shared<std::function<void()>>(InCurrentWorkload(EndRecord(index, done)));
    auto one = [outstanding, finish]() {
        if (--*outstanding == 0)
        {
            (*finish)();
        }
    };
    for (uint32_t s : servers)
    {
        const IntraHostServer& srv = m_servers[s];
        const uint32_t nvs = NvSwitchOf(s);
        for (uint32_t gpu : srv.gpus)
        {
            const Time latency = srv.fabric->Latency(srv.fabric->Path(gpu, nvs));
            Ptr<IntraHostFabric> fabric = srv.fabric;
            for (const bool toSwitch : {true, false})
            {
                const uint64_t n = toSwitch ? up : down;
                if (n == 0)
                {
                    continue;
                }
                ++*outstanding;
                const uint32_t a = toSwitch ? gpu : nvs;
                const uint32_t b = toSwitch ? nvs : gpu;
                Simulator::Schedule(
                    start + (toSwitch ? Time(0) : latency) - Simulator::Now(),
                    [fabric, a, b, n, one]() { fabric->StartTransfer(a, b, n, one); });
            }
        }
    }
}

void
CollectiveHelper::NvlsAllReduce(const std::vector<uint32_t>& gpus,
                                uint64_t bytes,
                                bool inNetwork,
                                Time start,
                                std::function<void()> done)
{
    const uint32_t g = GetGpusPerServer();
    NS_ABORT_MSG_IF(g == 0 || gpus.empty() || gpus.size() % g != 0,
                    "CollectiveHelper::NvlsAllReduce: whole servers' GPUs");
    std::vector<uint32_t> servers;
    for (std::size_t i = 0; i < gpus.size(); ++i)
    {
        NS_ABORT_MSG_IF(gpus[i] != gpus[i - i % g] + i % g || gpus[i - i % g] % g != 0,
                        "CollectiveHelper::NvlsAllReduce: whole servers' GPUs, in order");
        if (i % g == 0)
        {
            servers.push_back(gpus[i] / g);
            NS_ABORT_MSG_UNLESS(NvlsCapable(servers.back()),
                                "CollectiveHelper::NvlsAllReduce: server "
                                    << servers.back() << " ("
                                    << m_servers[servers.back()].parameters.layout
                                    << ") has no NVSwitch that reduces");
        }
    }
    NS_ABORT_MSG_IF(inNetwork && !m_inNetwork,
                    "CollectiveHelper::NvlsAllReduce: no in-network reduction on this network");
    NS_ABORT_MSG_IF(bytes == 0, "CollectiveHelper::NvlsAllReduce: an empty vector");
    const std::string group = std::to_string(gpus.front()) + "-" + std::to_string(gpus.back());
    const uint64_t slice = (bytes + g - 1) / g;
    if (servers.size() == 1)
    {
        const std::size_t index = m_records.size();
        m_records.push_back(CollectiveRecord{"allreduce:nvls",
                                             group,
                                             (bytes + slice) * g,
                                             start,
                                             Time(0),
                                             NvlsBound(servers[0], bytes + slice, bytes + slice)});
        NvlsPhase("nvls:allreduce",
                  servers,
                  bytes + slice,
                  bytes + slice,
                  start,
                  EndRecord(index, done));
        return;
    }
    // Two levels: reduce-scatter inside, every rail's shard between servers, all-gather inside.
    const std::size_t index = m_records.size();
    const std::string name =
        inNetwork ? "allreduce:nvls-" + m_inNetwork->GetName() : "allreduce:nvls-ring";
    std::vector<std::vector<uint32_t>> rails(g);
    std::vector<std::vector<uint32_t>> railHosts(g);
    for (uint32_t s : servers)
    {
        for (uint32_t k = 0; k < g; ++k)
        {
            rails[k].push_back(s * g + k);
            railHosts[k].push_back(m_nicHost[s][k]);
        }
    }
    Time bound = NvlsBound(servers[0], bytes, slice) * 2;
    Time across;
    for (uint32_t k = 0; k < g; ++k)
    {
        across = std::max(across,
                          inNetwork ? m_inNetwork->LowerBound(railHosts[k], slice)
                                    : RingLowerBound(rails[k], slice));
    }
    // What the GPUs send to their NVSwitches, and the NICs between servers (the ring's steps,
    // or each NIC's shard once for the in-network reduction).
    const uint64_t ns = servers.size();
    const uint64_t sent =
        (bytes + slice) * gpus.size() +
        (inNetwork ? slice * gpus.size() : g * ns * 2 * (ns - 1) * ((slice + ns - 1) / ns));
    m_records.push_back(CollectiveRecord{name, group, sent, start, Time(0), bound + across});
    auto finish = EndRecord(index, done);
    auto gather = [this, servers, bytes, slice, finish]() {
        NvlsPhase("nvls:all-gather", servers, slice, bytes, Simulator::Now(), finish);
    };
    auto between = [this, rails, railHosts, slice, inNetwork, gather]() {
        auto left = std::make_shared<uint32_t>(static_cast<uint32_t>(rails.size()));
        auto railDone = InCurrentWorkload([left, gather]() {
            if (--*left == 0)
            {
                gather();
            }
        });
        for (std::size_t k = 0; k < rails.size(); ++k)
        {
            if (inNetwork && m_inNetwork->TryStart(railHosts[k], slice, railDone))
            {
                continue;
            }
            if (inNetwork)
            {
                ++m_fallbacks;
            }
            RingAllReduce(rails[k], slice, Simulator::Now(), railDone);
        }
    };
    NvlsPhase("nvls:reduce-scatter", servers, bytes, slice, start, InCurrentWorkload(between));
}

void
CollectiveHelper::SetInNetworkReduction(InNetworkReduction* reduction)
{
    m_inNetwork = reduction;
}

uint64_t
CollectiveHelper::GetInNetworkFallbacks() const
{
    return m_fallbacks;
}

Time
CollectiveHelper::RingLowerBound(const std::vector<uint32_t>& hosts, uint64_t bytes) const
{
    const std::size_t n = hosts.size();
    Matrix step(n, std::vector<uint64_t>(n, 0));
    for (std::size_t i = 0; i < n; ++i)
    {
        step[i][(i + 1) % n] = (bytes + n - 1) / n;
    }
    return LowerBound(hosts, step) * static_cast<int64_t>(2 * (n - 1));
}

void
CollectiveHelper::AllReduce(const std::vector<uint32_t>& hosts,
                            uint64_t bytes,
                            AllReduceAlgorithm algorithm,
                            Time start,
                            std::function<void()> done,
                            uint32_t domains)
{
    const std::size_t n = hosts.size();
    NS_ABORT_MSG_UNLESS(n >= 2, "CollectiveHelper::AllReduce: at least two hosts");
    NS_ABORT_MSG_IF(bytes == 0, "CollectiveHelper::AllReduce: an empty vector");
    NS_ABORT_MSG_IF(algorithm == IN_NETWORK && !m_inNetwork,
                    "CollectiveHelper::AllReduce: no in-network reduction on this network");
    NS_ABORT_MSG_IF(algorithm == IN_NETWORK && !m_servers.empty(),
                    "CollectiveHelper::AllReduce: in-network reduction among hosts only");
    if (algorithm == NVLS || algorithm == NVLS_IN_NETWORK)
    {
        NvlsAllReduce(hosts, bytes, algorithm == NVLS_IN_NETWORK, start, std::move(done));
        return;
    }
    const std::size_t index = m_records.size();
    const std::string group = std::to_string(hosts.front()) + "-" + std::to_string(hosts.back());
    const uint64_t ringBytes = 2 * (n - 1) * n * ((bytes + n - 1) / n); // all members send
    if (algorithm == HIERARCHICAL_DOMAINS)
    {
        const PhaseList phases = HierarchicalPhases(n, bytes, domains);
        uint64_t sent = 0;
        Time bound;
        for (const auto& [kind, matrix] : phases)
        {
            for (const auto& row : *matrix)
            {
                sent += std::accumulate(row.begin(), row.end(), uint64_t(0));
            }
            bound += LowerBound(hosts, *matrix);
        }
        m_records.push_back(
            CollectiveRecord{"allreduce:hierarchical", group, sent, start, Time(0), bound});
    }
    else if (algorithm == RING)
    {
        m_records.push_back(CollectiveRecord{"allreduce:ring",
                                             group,
                                             ringBytes,
                                             start,
                                             Time(0),
                                             RingLowerBound(hosts, bytes)});
    }
    else
    {
        m_records.push_back(CollectiveRecord{"allreduce:" + m_inNetwork->GetName(),
                                             group,
                                             n * bytes,
                                             start,
                                             Time(0),
                                             m_inNetwork->LowerBound(hosts, bytes)});
    }
    auto finish = EndRecord(index, done);
    if (algorithm == RING)
    {
        RingAllReduce(hosts, bytes, start, finish);
        return;
    }
    if (algorithm == HIERARCHICAL_DOMAINS)
    {
        HierarchicalAllReduce(hosts, bytes, domains, start, finish);
        return;
    }
    // The aggregation manager decides when the job starts, with the resources free then.
    Simulator::Schedule(start - Simulator::Now(),
                        InCurrentWorkload([this, hosts, bytes, index, ringBytes, finish]() {
                            if (m_inNetwork->TryStart(hosts, bytes, InCurrentWorkload(finish)))
                            {
                                return;
                            }
                            ++m_fallbacks;
                            CollectiveRecord& r = m_records[index];
                            r.kind += "-fallback-ring";
                            r.bytes = ringBytes;
                            r.lowerBound = RingLowerBound(hosts, bytes);
                            RingAllReduce(hosts, bytes, Simulator::Now(), finish);
                        }));
}

std::function<void()>
CollectiveHelper::EndRecord(std::size_t index, std::function<void()> done)
{
    return [this, index, done]() {
        m_records[index].end = Simulator::Now();
        if (done)
        {
            done();
        }
    };
}

std::function<void()>
CollectiveHelper::InCurrentWorkload(std::function<void()> f) const
{
    const uint32_t workload = m_network.GetWorkload();
    MessageTransport* network = &m_network;
    return [network, workload, f]() {
        const uint32_t outer = network->GetWorkload();
        network->SetWorkload(workload);
        f();
        network->SetWorkload(outer);
    };
}

void
CollectiveHelper::MoeLayers(const std::vector<uint32_t>& hosts,
                            const MoeTraffic& moe,
                            uint32_t layers,
                            uint32_t iterations,
                            Time computeGap,
                            Time start,
                            int64_t stream,
                            Algorithm algorithm)
{
    const uint32_t total = layers * iterations;
    Simulator::Schedule(
        start - Simulator::Now(),
        InCurrentWorkload([this, hosts, moe, total, computeGap, stream, algorithm]() {
            MoeStep(hosts, moe, 0, total, computeGap, stream, algorithm);
        }));
}

void
CollectiveHelper::MoeStep(std::vector<uint32_t> hosts,
                          const MoeTraffic& moe,
                          uint32_t index,
                          uint32_t total,
                          Time gap,
                          int64_t stream,
                          Algorithm algorithm)
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
    // (Explicit captures: C++20 deprecates the implicit capture of this by [=].)
    RunPhase("moe-dispatch",
             hosts,
             dispatch,
             algorithm,
             Simulator::Now(),
             [this, hosts, combine, algorithm, gap, moe, index, total, stream]() {
                 RunPhase(
                     "moe-combine",
                     hosts,
                     combine,
                     algorithm,
                     Simulator::Now() + gap,
                     [this, hosts, moe, index, total, gap, stream, algorithm]() {
                         Simulator::Schedule(
                             gap,
                             InCurrentWorkload(
                                 [this, hosts, moe, index, total, gap, stream, algorithm]() {
                                     MoeStep(hosts, moe, index + 1, total, gap, stream, algorithm);
                                 }));
                     });
             });
}

void
CollectiveHelper::SetGpuServers(std::vector<IntraHostServer> servers,
                                std::vector<std::vector<uint32_t>> nicHost)
{
    NS_ABORT_MSG_IF(servers.empty() || servers.size() != nicHost.size(),
                    "CollectiveHelper::SetGpuServers: one NIC map per server");
    for (std::size_t s = 0; s < servers.size(); ++s)
    {
        NS_ABORT_MSG_UNLESS(servers[s].gpus.size() == servers[0].gpus.size() &&
                                nicHost[s].size() == servers[s].gpus.size(),
                            "CollectiveHelper::SetGpuServers: servers of different sizes");
    }
    m_servers = std::move(servers);
    m_nicHost = std::move(nicHost);
}

uint32_t
CollectiveHelper::GetGpusPerServer() const
{
    return m_servers.empty() ? 0 : static_cast<uint32_t>(m_servers[0].gpus.size());
}

void
CollectiveHelper::AllToAll(const std::vector<uint32_t>& gpus,
                           uint64_t bytesPerPair,
                           Algorithm algorithm,
                           Time start,
                           std::function<void()> done)
{
    Matrix m(gpus.size(), std::vector<uint64_t>(gpus.size(), bytesPerPair));
    for (std::size_t i = 0; i < gpus.size(); ++i)
    {
        m[i][i] = 0;
    }
    RunPhase("all-to-all", gpus, m, algorithm, start, done);
}

void
CollectiveHelper::RunPhase(const std::string& kind,
                           const std::vector<uint32_t>& group,
                           const Matrix& bytes,
                           Algorithm algorithm,
                           Time start,
                           std::function<void()> done)
{
    if (algorithm == DIRECT)
    {
        RunMatrix(kind, group, bytes, start, done);
        return;
    }
    const uint32_t g = GetGpusPerServer();
    NS_ABORT_MSG_IF(g == 0, "CollectiveHelper: a hierarchical phase needs GPU servers");
    NS_ABORT_MSG_UNLESS(group.size() % g == 0, "CollectiveHelper: hierarchical: whole servers");
    for (std::size_t i = 0; i < group.size(); ++i)
    {
        NS_ABORT_MSG_UNLESS(group[i] % g == i % g && group[i] / g == group[i - i % g] / g,
                            "CollectiveHelper: hierarchical: whole servers, GPUs in order");
    }
    // Stage 1 (NVLink): GPU (s, a) hands GPU (s, b) everything bound for GPU b of any server,
    // its own server's GPU b included. Stage 2 (rails): GPU (s, b) sends GPU (t, b) what the
    // GPUs of server s have for it.
    const std::size_t n = group.size();
    Matrix nvlink(n, std::vector<uint64_t>(n, 0));
    Matrix rail(n, std::vector<uint64_t>(n, 0));
    for (std::size_t i = 0; i < n; ++i)
    {
        const std::size_t serverBase = i - i % g;
        for (std::size_t j = 0; j < n; ++j)
        {
            const std::size_t viaLocal = serverBase + j % g; // on the destination's rail
            if (viaLocal != i)
            {
                nvlink[i][viaLocal] += bytes[i][j];
            }
            if (viaLocal != j)
            {
                rail[viaLocal][j] += bytes[i][j];
            }
        }
    }
    RunMatrix(kind + ":nvlink", group, nvlink, start, [this, kind, group, rail, done]() {
        RunMatrix(kind + ":rail", group, rail, Simulator::Now(), done);
    });
}

void
CollectiveHelper::RunGpuMatrix(const std::vector<uint32_t>& gpus,
                               const Matrix& bytes,
                               Time start,
                               std::shared_ptr<std::function<void()>> finish)
{
    const uint32_t g = GetGpusPerServer();
    auto outstanding = std::make_shared<uint32_t>(0);
    for (std::size_t i = 0; i < gpus.size(); ++i)
    {
        for (std::size_t j = 0; j < gpus.size(); ++j)
        {
            *outstanding += (i != j && bytes[i][j] > 0) ? 1 : 0;
        }
    }
    auto one = [outstanding, finish]() {
        if (--*outstanding == 0)
        {
            (*finish)();
        }
    };
    for (std::size_t i = 0; i < gpus.size(); ++i)
    {
        for (std::size_t j = 0; j < gpus.size(); ++j)
        {
            if (i == j || bytes[i][j] == 0)
            {
                continue;
            }
            const uint32_t si = gpus[i] / g;
            const uint32_t sj = gpus[j] / g;
            NS_ABORT_MSG_UNLESS(si < m_servers.size() && sj < m_servers.size(),
                                "CollectiveHelper: GPU " << std::max(gpus[i], gpus[j])
                                                         << " beyond the servers");
            if (si == sj)
            {
                Ptr<IntraHostFabric> fabric = m_servers[si].fabric;
                const uint32_t a = m_servers[si].gpus[gpus[i] % g];
                const uint32_t b = m_servers[si].gpus[gpus[j] % g];
                const uint64_t n = bytes[i][j];
                Simulator::Schedule(start - Simulator::Now(), [fabric, a, b, n, one]() {
                    fabric->StartTransfer(a, b, n, one);
                });
            }
            else
            {
                Post(m_nicHost[si][gpus[i] % g],
                     m_nicHost[sj][gpus[j] % g],
                     bytes[i][j],
                     start,
                     RdmaQueuePair::CompletionCallback([one](const RdmaCompletion&) { one(); }));
            }
        }
    }
}

Time
CollectiveHelper::GpuLowerBound(const std::vector<uint32_t>& gpus, const Matrix& bytes) const
{
    // Wire bytes out of and into every NIC; bytes over the first (last) link of every GPU's
    // paths inside its server.
    const uint32_t g = GetGpusPerServer();
    std::map<uint32_t, std::pair<uint64_t, uint64_t>> nic; // host -> (out, in)
    std::map<std::pair<uint32_t, uint32_t>, double> link;  // (server, directed link) -> bytes
    for (std::size_t i = 0; i < gpus.size(); ++i)
    {
        for (std::size_t j = 0; j < gpus.size(); ++j)
        {
            if (i == j || bytes[i][j] == 0)
            {
                continue;
            }
            const uint32_t si = gpus[i] / g;
            const uint32_t sj = gpus[j] / g;
            if (si == sj)
            {
                const IntraHostServer& server = m_servers[si];
                const auto path =
                    server.fabric->Path(server.gpus[gpus[i] % g], server.gpus[gpus[j] % g]);
                link[{si, path.front()}] += bytes[i][j];
                link[{si, path.back()}] += bytes[i][j];
                continue;
            }
            const uint64_t wire = m_network.WireBytes(RdmaVerb::WRITE, bytes[i][j]);
            nic[m_nicHost[si][gpus[i] % g]].first += wire;
            nic[m_nicHost[sj][gpus[j] % g]].second += wire;
        }
    }
    double bound = 0;
    for (const auto& [host, io] : nic)
    {
        const double line = m_network.GetHostRate(host).GetBitRate();
        const double out = m_network.GetHostSendRate(host).GetBitRate();
        bound = std::max({bound, io.first * 8.0 / out, io.second * 8.0 / line});
    }
    for (const auto& [key, b] : link)
    {
        bound = std::max(bound, b / m_servers[key.first].fabric->Bottleneck({key.second}));
    }
    return Seconds(bound);
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
