/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Benchmarks of the RoCEv2 data path: fixed, seeded cases, one line each.
//
//   interconnect-bench [--csv=FILE] [--scheduler=NAME] [CASE ...]   (no case: all of them)
//
// --scheduler picks ns-3's event scheduler: priority-queue (default), map (ns-3's default),
// heap, calendar or list.
//
// Cases (fat-trees of 100 Gb/s links with 1 us of delay, path MTU 4096, DCQCN, PFC, ECMP):
//   incast64   k=8 fat-tree, 64 senders -> 1 host, 1 MB WRITE each
//   perm128    k=8 fat-tree, a random permutation of the 128 hosts, 2 MB each
//   a2a128     k=8 fat-tree, all-to-all of the 128 hosts, 32 KiB per pair, all at once
//   perm1024   k=16 fat-tree (1024 hosts), a random permutation, 2 MB each
//   moe        k=8 fat-tree, one MoE dispatch + combine layer on 128 GPUs (512 tokens of
//              hidden 4096 in bf16 per GPU, top-2 of 256 experts)
//
// Columns: case, simulated time (s), wall time (s), CPU time of the event loop (s), events,
// events per CPU second, packet-hops (every frame put on a link: data, ACK, CNP, PFC),
// packet-hops per CPU second, peak resident memory (MB).

#include "ns3/core-module.h"
#include "ns3/interconnect-module.h"
#include "ns3/object-factory.h"

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <ctime>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <sys/resource.h>

using namespace ns3;

namespace
{

struct Result
{
    std::string name;
    double simSeconds;
    double wallSeconds;
    double cpuSeconds;
    uint64_t events;
    uint64_t hops;
    double peakRssMb;
    uint64_t completed;
    uint64_t posted;
};

/// Keeps a case's helpers alive while the simulation runs.
typedef std::shared_ptr<void> KeepAlive;

/// The fabric of the cases: k-ary fat-tree, 100 Gb/s, 1 us, path MTU 4096, DCQCN.
Fabric
FatTree(RoceHelper& h, uint32_t k)
{
    h.SetDeviceAttribute("Mtu", UintegerValue(4200));
    h.SetQueuePairAttribute("Mtu", UintegerValue(4096));
    h.SetNicAttribute("CongestionControl", StringValue("dcqcn"));
    return FatTreeHelper(k).Build(h);
}

/// A fixed random permutation of n hosts without fixed points.
std::vector<uint32_t>
Permutation(uint32_t n)
{
    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    u->SetStream(42);
    std::vector<uint32_t> perm(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        perm[i] = i;
    }
    for (uint32_t i = n - 1; i > 0; --i)
    {
        std::swap(perm[i], perm[u->GetInteger(0, i)]);
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        if (perm[i] == i)
        {
            std::swap(perm[i], perm[(i + 1) % n]);
        }
    }
    return perm;
}

KeepAlive
Incast64(RoceHelper& h)
{
    FatTree(h, 8);
    for (uint32_t i = 1; i <= 64; ++i)
    {
        h.Post(i, 0, RdmaVerb::WRITE, 1000000, MicroSeconds(1), 3);
    }
    return nullptr;
}

KeepAlive
PermutationCase(RoceHelper& h, uint32_t k)
{
    const Fabric f = FatTree(h, k);
    const std::vector<uint32_t> perm = Permutation(f.GetNHosts());
    for (uint32_t i = 0; i < perm.size(); ++i)
    {
        h.Post(i, perm[i], RdmaVerb::WRITE, 2000000, MicroSeconds(1), 3);
    }
    return nullptr;
}

KeepAlive
AllToAll128(RoceHelper& h)
{
    const Fabric f = FatTree(h, 8);
    auto collectives = std::make_shared<CollectiveHelper>(h);
    std::vector<uint32_t> hosts(f.GetNHosts());
    for (uint32_t i = 0; i < hosts.size(); ++i)
    {
        hosts[i] = i;
    }
    collectives->AllToAll(hosts, 32 * 1024, MicroSeconds(1));
    return collectives;
}

KeepAlive
Moe128(RoceHelper& h)
{
    const Fabric f = FatTree(h, 8);
    auto collectives = std::make_shared<CollectiveHelper>(h);
    std::vector<uint32_t> gpus(f.GetNHosts());
    for (uint32_t i = 0; i < gpus.size(); ++i)
    {
        gpus[i] = i;
    }
    // 512 tokens per GPU, hidden 4096 in bf16, top-2 of 256 experts (2 per GPU), uniform:
    // one dispatch and one combine of 4 MiB per GPU each.
    MoeTraffic moe(gpus.size(), 512, 4096, 2, 2, 2, {"uniform", 0});
    collectives->MoeLayers(gpus, moe, 1, 1, MicroSeconds(20), MicroSeconds(1), 7);
    return collectives;
}

double
CpuSeconds()
{
    return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

Result
RunCase(const std::string& name,
        const std::function<KeepAlive(RoceHelper&)>& build,
        const std::string& scheduler)
{
    ObjectFactory schedulerFactory;
    schedulerFactory.SetTypeId(scheduler);
    Simulator::SetScheduler(schedulerFactory);
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(1);
    RoceHelper h;
    h.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
    h.SetChannelAttribute("Delay", StringValue("1us"));
    const KeepAlive keep = build(h);
    h.AssignStreams(1);
    const auto wall0 = std::chrono::steady_clock::now();
    const double cpu0 = CpuSeconds();
    const uint64_t events0 = Simulator::GetEventCount();
    Simulator::Run();
    const double cpu = CpuSeconds() - cpu0;
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    const RoceStatistics st = h.CollectStatistics();
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    Result r{name,
             Simulator::Now().GetSeconds(),
             wall,
             cpu,
             Simulator::GetEventCount() - events0,
             st.packetHops,
             usage.ru_maxrss / 1024.0,
             st.messagesCompleted,
             st.messagesPosted};
    Simulator::Destroy();
    return r;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string csv;
    std::string scheduler = "ns3::PriorityQueueScheduler";
    const std::map<std::string, std::string> schedulers = {
        {"map", "ns3::MapScheduler"},
        {"heap", "ns3::HeapScheduler"},
        {"priority-queue", "ns3::PriorityQueueScheduler"},
        {"calendar", "ns3::CalendarScheduler"},
        {"list", "ns3::ListScheduler"},
    };
    const std::map<std::string, std::function<KeepAlive(RoceHelper&)>> cases = {
        {"incast64", Incast64},
        {"perm128", [](RoceHelper& h) { return PermutationCase(h, 8); }},
        {"a2a128", AllToAll128},
        {"perm1024", [](RoceHelper& h) { return PermutationCase(h, 16); }},
        {"moe", Moe128},
    };
    std::vector<std::string> chosen;
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        if (arg.rfind("--csv=", 0) == 0)
        {
            csv = arg.substr(6);
        }
        else if (arg.rfind("--scheduler=", 0) == 0)
        {
            const auto it = schedulers.find(arg.substr(12));
            if (it == schedulers.end())
            {
                std::cerr << "error: --scheduler = " << arg.substr(12)
                          << ": accepted: map, heap, priority-queue, calendar, list" << std::endl;
                return 2;
            }
            scheduler = it->second;
        }
        else if (cases.count(arg))
        {
            chosen.push_back(arg);
        }
        else
        {
            std::string known;
            for (const auto& c : cases)
            {
                known += " " + c.first;
            }
            std::cerr << "error: unknown benchmark case or option '" << arg
                      << "'; accepted: --csv=FILE, --scheduler=NAME and the cases" << known
                      << std::endl;
            return 2;
        }
    }
    if (chosen.empty())
    {
        for (const auto& c : cases)
        {
            chosen.push_back(c.first);
        }
    }
    FILE* out = csv.empty() ? nullptr : std::fopen(csv.c_str(), "w");
    if (!csv.empty() && !out)
    {
        std::cerr << "error: --csv=" << csv << ": cannot write" << std::endl;
        return 1;
    }
    const char* header = "case,sim_s,wall_s,cpu_s,events,events_per_cpu_s,packet_hops,"
                         "hops_per_cpu_s,peak_rss_mb,completed,posted";
    std::printf("%s\n", header);
    if (out)
    {
        std::fprintf(out, "%s\n", header);
    }
    int status = 0;
    for (const auto& name : chosen)
    {
        const Result r = RunCase(name, cases.at(name), scheduler);
        char line[512];
        std::snprintf(line,
                      sizeof(line),
                      "%s,%.6f,%.3f,%.3f,%" PRIu64 ",%.0f,%" PRIu64 ",%.0f,%.1f,%" PRIu64
                      ",%" PRIu64,
                      r.name.c_str(),
                      r.simSeconds,
                      r.wallSeconds,
                      r.cpuSeconds,
                      r.events,
                      r.events / r.cpuSeconds,
                      r.hops,
                      r.hops / r.cpuSeconds,
                      r.peakRssMb,
                      r.completed,
                      r.posted);
        std::printf("%s\n", line);
        std::fflush(stdout);
        if (out)
        {
            std::fprintf(out, "%s\n", line);
        }
        status |= r.completed == r.posted ? 0 : 1;
    }
    if (out)
    {
        std::fclose(out);
    }
    return status;
}
