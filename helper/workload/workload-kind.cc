/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "workload-kind.h"

#include "flow-size-distribution.h"
#include "moe-traffic.h"
#include "poisson-traffic.h"

#include "ns3/abort.h"
#include "ns3/interconnect-config-error.h"
#include "ns3/random-variable-stream.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace ns3
{

namespace
{

/// The most flows a workload may post in a run (each keeps a record and a queue pair to the
/// end: about 1 KB).
constexpr uint64_t MAX_FLOWS = 4000000;

/// The keys of a collective's group and algorithm.
ScenarioKey
HostsKey()
{
    return ScenarioKey::Int("hosts", 0, 0, 1 << 20).Help("the group: its first N hosts (0: all)");
}

ScenarioKey
AlgorithmKey()
{
    return ScenarioKey::Choice("algorithm", "direct", {"direct", "hierarchical"})
        .Help("direct, or hierarchical through the servers' NVLink (GPU servers only)");
}

/// @return the collective algorithm a key names
CollectiveHelper::Algorithm
AlgorithmOf(const WorkloadContext& c)
{
    return c.scenario.String(c.prefix + "algorithm") == "hierarchical"
               ? CollectiveHelper::HIERARCHICAL
               : CollectiveHelper::DIRECT;
}

/// A workload between hosts needs two of them.
void
RequireTwoHosts(const WorkloadContext& c, const std::string& kind)
{
    if (c.hosts < 2)
    {
        InterconnectConfigError(c.prefix + "kind",
                                kind,
                                "a workload between at least two hosts: this fabric has " +
                                    std::to_string(c.hosts));
    }
}

/// Open-loop flows between random host pairs, arriving as a Poisson process per host at a
/// load of the host links, sizes from a flow-size CDF.
class PoissonKind : public WorkloadKind
{
  public:
    std::string GetName() const override
    {
        return "poisson";
    }

    std::vector<ScenarioKey> GetKeys() const override
    {
        return {ScenarioKey::Text("cdf", "websearch")
                    .Help("flow sizes: websearch, fb_hadoop, alistorage2019, googlerpc2008 or a "
                          "CDF file"),
                ScenarioKey::Number("load", 0.3, 0.001, 1)
                    .Help("fraction of each host link's rate the flows offer"),
                ScenarioKey::Duration("stop", "5ms").Help("no arrival at or after this")};
    }

    void Post(const WorkloadContext& c) const override
    {
        RequireTwoHosts(c, GetName());
        const Scenario& s = c.scenario;
        const std::string& w = c.prefix;
        PoissonTraffic traffic(FlowSizeDistribution::Read(w + "cdf", s.String(w + "cdf")),
                               s.Double(w + "load"),
                               s.Rate("fabric.hostRate"));
        traffic.SetWindow(c.start, s.Duration(w + "stop"));
        if (s.Duration(w + "stop") > c.stop && c.start < c.stop)
        {
            // As for an incast's late rounds: the run never reaches those arrivals.
            std::fprintf(stderr,
                         "warning: %sstop = %s is after stopTime = %s: arrivals after stopTime "
                         "are not drawn\n",
                         w.c_str(),
                         s.String(w + "stop").c_str(),
                         s.String("stopTime").c_str());
        }
        // Flows are drawn as the simulation reaches them, but each keeps its record (and, with
        // a queue pair per flow, its queue pair) to the end: refuse a workload of more flows
        // than memory holds before spending simulation time on it.
        const double expected = traffic.GetArrivalRate() * c.hosts *
                                (std::min(s.Duration(w + "stop"), c.stop) - c.start).GetSeconds();
        if (expected > MAX_FLOWS)
        {
            InterconnectConfigError(w + "load",
                                    std::to_string(s.Double(w + "load")) + " (about " +
                                        std::to_string(static_cast<uint64_t>(expected)) +
                                        " flows with this cdf, fabric and window)",
                                    "a load, flow-size CDF and window that make at most " +
                                        std::to_string(MAX_FLOWS) + " flows");
        }
        MessageTransport* network = &c.network;
        const uint32_t workload = network->GetWorkload();
        traffic.Schedule(c.hosts, c.stream, [network, workload](const FlowSpec& f) {
            const uint32_t outer = network->GetWorkload();
            network->SetWorkload(workload);
            network->Post(f.src,
                          f.dst,
                          RdmaVerb::WRITE,
                          f.bytes,
                          f.start,
                          network->GetDefaultPriority());
            network->SetWorkload(outer);
        });
    }
};

/// fanIn hosts write to one, in rounds a period apart.
class IncastKind : public WorkloadKind
{
  public:
    std::string GetName() const override
    {
        return "incast";
    }

    std::vector<ScenarioKey> GetKeys() const override
    {
        return {ScenarioKey::Int("fanIn", 8, 1, 1 << 20)
                    .Help("senders: the hosts after the destination"),
                ScenarioKey::Bytes("size", "64KB", 1).Help("bytes each sender writes"),
                ScenarioKey::Int("destination", 0, 0, 1 << 20).Help("the receiving host"),
                ScenarioKey::Int("rounds", 1, 1, 1 << 20).Help("rounds of the incast"),
                ScenarioKey::Duration("period", "1ms").Help("between rounds")};
    }

    void Post(const WorkloadContext& c) const override
    {
        const Scenario& s = c.scenario;
        const std::string& w = c.prefix;
        const uint32_t hosts = c.hosts;
        const uint32_t dst = static_cast<uint32_t>(s.Int(w + "destination"));
        const uint32_t fanIn = static_cast<uint32_t>(s.Int(w + "fanIn"));
        if (static_cast<double>(fanIn) * s.Int(w + "rounds") > MAX_FLOWS)
        {
            InterconnectConfigError(w + "rounds",
                                    std::to_string(s.Int(w + "rounds")),
                                    "at most " + std::to_string(MAX_FLOWS) +
                                        " flows in all: rounds x fanIn");
        }
        if (dst >= hosts || fanIn >= hosts)
        {
            InterconnectConfigError(w + (dst >= hosts ? "destination" : "fanIn"),
                                    std::to_string(dst >= hosts ? dst : fanIn),
                                    "below the fabric's " + std::to_string(hosts) + " hosts");
        }
        // Rounds that start at or after the stop time are not posted: the stop time bounds the
        // work done before the simulation starts, however many rounds are asked for.
        const Time period = s.Duration(w + "period");
        const int64_t rounds = s.Int(w + "rounds");
        int64_t posted = 0;
        for (int64_t r = 0; r < rounds && c.start + period * r < c.stop; ++r, ++posted)
        {
            for (uint32_t k = 1; k <= fanIn; ++k)
            {
                c.network.Post((dst + k) % hosts,
                               dst,
                               RdmaVerb::WRITE,
                               s.Bytes(w + "size"),
                               c.start + period * r,
                               c.network.GetDefaultPriority());
            }
        }
        if (posted < rounds && c.start < c.stop)
        {
            std::fprintf(stderr,
                         "warning: %srounds = %lld: rounds from %lld on start at or after "
                         "stopTime and are not posted\n",
                         w.c_str(),
                         static_cast<long long>(rounds),
                         static_cast<long long>(posted));
        }
    }
};

/// Every host writes to another, a random permutation without fixed points.
class PermutationKind : public WorkloadKind
{
  public:
    std::string GetName() const override
    {
        return "permutation";
    }

    std::vector<ScenarioKey> GetKeys() const override
    {
        return {ScenarioKey::Bytes("size", "1MB", 1)
                    .Help("bytes each host writes to its partner (no fixed point)")};
    }

    void Post(const WorkloadContext& c) const override
    {
        RequireTwoHosts(c, GetName());
        const uint32_t hosts = c.hosts;
        Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
        u->SetStream(c.stream);
        std::vector<uint32_t> perm(hosts);
        std::iota(perm.begin(), perm.end(), 0);
        for (uint32_t k = hosts - 1; k > 0; --k)
        {
            std::swap(perm[k], perm[u->GetInteger(0, k)]);
        }
        for (uint32_t k = 0; k < hosts; ++k)
        {
            if (perm[k] == k)
            {
                std::swap(perm[k], perm[(k + 1) % hosts]);
            }
        }
        for (uint32_t k = 0; k < hosts; ++k)
        {
            c.network.Post(k,
                           perm[k],
                           RdmaVerb::WRITE,
                           c.scenario.Bytes(c.prefix + "size"),
                           c.start,
                           c.network.GetDefaultPriority());
        }
    }
};

/// An all-to-all among a group (direct, or hierarchical through the servers' NVLink).
class AllToAllKind : public WorkloadKind
{
  public:
    std::string GetName() const override
    {
        return "all-to-all";
    }

    std::vector<ScenarioKey> GetKeys() const override
    {
        return {ScenarioKey::Bytes("bytesPerPair", "32KiB", 1)
                    .Help("bytes from each member to each other"),
                HostsKey(),
                AlgorithmKey()};
    }

    void Post(const WorkloadContext& c) const override
    {
        c.collectives.AllToAll(c.group(c.prefix + "hosts"),
                               c.scenario.Bytes(c.prefix + "bytesPerPair"),
                               AlgorithmOf(c),
                               c.start);
    }
};

/// A ring all-reduce among a group: 2 (N - 1) synchronous steps.
class RingAllReduceKind : public WorkloadKind
{
  public:
    std::string GetName() const override
    {
        return "ring-allreduce";
    }

    std::vector<ScenarioKey> GetKeys() const override
    {
        return {ScenarioKey::Bytes("bytes", "16MB", 1)
                    .Help("the vector each member reduces: 2 (N - 1) synchronous steps"),
                HostsKey()};
    }

    void Post(const WorkloadContext& c) const override
    {
        c.collectives.RingAllReduce(c.group(c.prefix + "hosts"),
                                    c.scenario.Bytes(c.prefix + "bytes"),
                                    c.start);
    }
};

/// An all-reduce among a group, as one operation: the ring, or SHARP in the switches.
class AllReduceKind : public WorkloadKind
{
  public:
    std::string GetName() const override
    {
        return "allreduce";
    }

    std::vector<ScenarioKey> GetKeys() const override
    {
        return {
            ScenarioKey::Bytes("bytes", "16MB", 1).Help("the vector each member reduces"),
            HostsKey(),
            ScenarioKey::Choice("algorithm",
                                "ring",
                                {"ring", "sharp", "hierarchical", "nvls", "nvls-sharp"})
                .Help("ring: 2 (N - 1) steps; sharp: in the switches, InfiniBand or RoCE (the ring "
                      "when their resources are short); hierarchical: within domains, "
                      "across, within; nvls: in the servers' NVSwitches (whole dgx-h100 "
                      "or nvl72 servers), the ring between them; nvls-sharp: SHARP "
                      "between them"),
            ScenarioKey::Int("domains", 2, 2, 1 << 16)
                .Help("hierarchical: the group's equal blocks of consecutive hosts (a "
                      "two-dc fabric's data centres: 2)")};
    }

    void Post(const WorkloadContext& c) const override
    {
        const std::vector<uint32_t> group = c.group(c.prefix + "hosts");
        if (group.size() < 2)
        {
            InterconnectConfigError(c.prefix + "hosts",
                                    std::to_string(group.size()) + " member",
                                    "a group of at least two");
        }
        const uint64_t bytes = c.scenario.Bytes(c.prefix + "bytes");
        if (bytes > (uint64_t(1) << 40))
        {
            InterconnectConfigError(c.prefix + "bytes",
                                    std::to_string(bytes),
                                    "a vector of at most 1 TiB");
        }
        const std::string algorithm = c.scenario.String(c.prefix + "algorithm");
        // SHARP numbers a job's chunks in 32 bits: chunks of the path MTU less its 8-byte header.
        const uint64_t chunk = static_cast<uint64_t>(c.scenario.Int("link.mtu")) - 8;
        if ((algorithm == "sharp" || algorithm == "nvls-sharp") && bytes / chunk >= 0xFFFFFFFFULL)
        {
            InterconnectConfigError(c.prefix + "bytes",
                                    std::to_string(bytes),
                                    "at most 2^32 - 1 SHARP chunks of link.mtu - 8 bytes (" +
                                        std::to_string((0xFFFFFFFFULL - 1) * chunk) + " bytes)");
        }
        const auto domains = static_cast<uint32_t>(c.scenario.Int(c.prefix + "domains"));
        if (algorithm == "hierarchical" && group.size() % domains != 0)
        {
            InterconnectConfigError(c.prefix + "domains",
                                    std::to_string(domains),
                                    "a divisor of the group's " + std::to_string(group.size()) +
                                        " members (hierarchical: equal domains)");
        }
        const uint32_t perServer = c.collectives.GetGpusPerServer();
        if (algorithm.rfind("nvls", 0) == 0 && (perServer == 0 || group.size() % perServer != 0))
        {
            InterconnectConfigError(c.prefix + "hosts",
                                    std::to_string(group.size()) + " GPUs",
                                    "whole servers for nvls: a multiple of " +
                                        std::to_string(perServer) + " GPUs");
        }
        CollectiveHelper::AllReduceAlgorithm how = CollectiveHelper::RING;
        if (algorithm == "sharp")
        {
            how = CollectiveHelper::IN_NETWORK;
        }
        else if (algorithm == "hierarchical")
        {
            how = CollectiveHelper::HIERARCHICAL_DOMAINS;
        }
        else if (algorithm == "nvls")
        {
            how = CollectiveHelper::NVLS;
        }
        else if (algorithm == "nvls-sharp")
        {
            how = CollectiveHelper::NVLS_IN_NETWORK;
        }
        c.collectives.AllReduce(group, bytes, how, c.start, {}, domains);
    }
};

/// Mixture-of-experts layers: dispatch, compute gap, combine, compute gap per layer.
class MoeKind : public WorkloadKind
{
  public:
    std::string GetName() const override
    {
        return "moe";
    }

    std::vector<ScenarioKey> GetKeys() const override
    {
        return {HostsKey(),
                ScenarioKey::Int("tokensPerGpu", 4096, 1, 1 << 24).Help("tokens per GPU a layer"),
                ScenarioKey::Int("hidden", 4096, 1, 1 << 20).Help("hidden size: elements a token"),
                ScenarioKey::Int("bytesPerElement", 2, 1, 8).Help("bytes an element"),
                ScenarioKey::Int("topK", 2, 1, 1024).Help("experts each token goes to"),
                ScenarioKey::Int("expertsPerGpu", 2, 1, 1024).Help("experts on each GPU"),
                ScenarioKey::Text("popularity", "uniform")
                    .Help("expert popularity: uniform, zipf:S or gini:G"),
                ScenarioKey::Int("layers", 1, 1, 1 << 16).Help("MoE layers an iteration"),
                ScenarioKey::Int("iterations", 1, 1, 1 << 16).Help("iterations"),
                ScenarioKey::Duration("computeGap", "20us")
                    .Help("compute after each dispatch and combine"),
                AlgorithmKey()};
    }

    void Post(const WorkloadContext& c) const override
    {
        const Scenario& s = c.scenario;
        const std::string& w = c.prefix;
        const std::vector<uint32_t> gpus = c.group(w + "hosts");
        const MoeTraffic::Popularity popularity =
            MoeTraffic::ParsePopularity(w + "popularity", s.String(w + "popularity"));
        MoeTraffic moe(gpus.size(),
                       s.Int(w + "tokensPerGpu"),
                       s.Int(w + "hidden"),
                       s.Int(w + "bytesPerElement"),
                       s.Int(w + "topK"),
                       s.Int(w + "expertsPerGpu"),
                       popularity,
                       w.substr(0, w.size() - 1));
        c.collectives.MoeLayers(gpus,
                                moe,
                                s.Int(w + "layers"),
                                s.Int(w + "iterations"),
                                s.Duration(w + "computeGap"),
                                c.start,
                                c.stream,
                                AlgorithmOf(c));
    }
};

/// The registered kinds, the built-in ones first.
std::vector<std::shared_ptr<const WorkloadKind>>&
Kinds()
{
    static std::vector<std::shared_ptr<const WorkloadKind>> kinds = {
        std::make_shared<PoissonKind>(),
        std::make_shared<IncastKind>(),
        std::make_shared<PermutationKind>(),
        std::make_shared<AllToAllKind>(),
        std::make_shared<RingAllReduceKind>(),
        std::make_shared<MoeKind>(),
        std::make_shared<AllReduceKind>(),
    };
    return kinds;
}

} // namespace

WorkloadKind::~WorkloadKind() = default;

void
WorkloadKind::Register(std::shared_ptr<const WorkloadKind> kind)
{
    NS_ABORT_MSG_UNLESS(kind, "WorkloadKind::Register: no kind");
    NS_ABORT_MSG_IF(Find(kind->GetName()),
                    "WorkloadKind::Register: a kind named " << kind->GetName() << " exists");
    Kinds().push_back(std::move(kind));
}

const WorkloadKind*
WorkloadKind::Find(const std::string& name)
{
    for (const auto& kind : Kinds())
    {
        if (kind->GetName() == name)
        {
            return kind.get();
        }
    }
    return nullptr;
}

std::vector<std::string>
WorkloadKind::GetNames()
{
    std::vector<std::string> names;
    for (const auto& kind : Kinds())
    {
        names.push_back(kind->GetName());
    }
    return names;
}

} // namespace ns3
