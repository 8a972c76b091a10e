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
// Cases:
//   incast32      32 senders -> 1 receiver through one switch, 100 Gb/s, 1 us cables,
//                 1 MB WRITE each, PFC on, no congestion control
//   leafspine128  2-tier Clos: 8 leaves x 16 hosts, 8 spines (non-blocking), 100 Gb/s,
//                 1 us cables, a random permutation of the 128 hosts, 2 MB WRITE each, ECMP
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

void
Incast32(RoceHelper& h)
{
    const uint32_t senders = 32;
    std::vector<Ptr<Node>> hosts;
    for (uint32_t i = 0; i <= senders; ++i)
    {
        hosts.push_back(h.AddHost());
    }
    Ptr<Node> sw = h.AddSwitch();
    for (auto& host : hosts)
    {
        h.Link(host, sw);
    }
    h.Finalize();
    for (uint32_t i = 0; i < senders; ++i)
    {
        h.Post(i, senders, RdmaVerb::WRITE, 1000000, MicroSeconds(1), 3);
    }
}

void
LeafSpine128(RoceHelper& h)
{
    const uint32_t leaves = 8;
    const uint32_t perLeaf = 16;
    const uint32_t spines = 8;
    std::vector<Ptr<Node>> hosts;
    for (uint32_t i = 0; i < leaves * perLeaf; ++i)
    {
        hosts.push_back(h.AddHost());
    }
    std::vector<Ptr<Node>> leafNodes;
    for (uint32_t l = 0; l < leaves; ++l)
    {
        leafNodes.push_back(h.AddSwitch());
    }
    std::vector<Ptr<Node>> spineNodes;
    for (uint32_t s = 0; s < spines; ++s)
    {
        spineNodes.push_back(h.AddSwitch());
    }
    for (uint32_t i = 0; i < hosts.size(); ++i)
    {
        h.Link(hosts[i], leafNodes[i / perLeaf]);
    }
    // Non-blocking: 16 x 100G down, 8 x 2 x 100G up would need 2 links per spine; use 200G.
    h.SetDeviceAttribute("DataRate", StringValue("200Gbps"));
    for (auto& leaf : leafNodes)
    {
        for (auto& spine : spineNodes)
        {
            h.Link(leaf, spine);
        }
    }
    h.Finalize();
    // A fixed random permutation without fixed points (seeded by the RNG run).
    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    u->SetStream(42);
    std::vector<uint32_t> perm(hosts.size());
    for (uint32_t i = 0; i < perm.size(); ++i)
    {
        perm[i] = i;
    }
    for (uint32_t i = perm.size() - 1; i > 0; --i)
    {
        std::swap(perm[i], perm[u->GetInteger(0, i)]);
    }
    for (uint32_t i = 0; i < perm.size(); ++i)
    {
        if (perm[i] == i)
        {
            std::swap(perm[i], perm[(i + 1) % perm.size()]);
        }
    }
    for (uint32_t i = 0; i < perm.size(); ++i)
    {
        h.Post(i, perm[i], RdmaVerb::WRITE, 2000000, MicroSeconds(1), 3);
    }
}

double
CpuSeconds()
{
    return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

Result
RunCase(const std::string& name,
        const std::function<void(RoceHelper&)>& build,
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
    build(h);
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
    const std::map<std::string, std::function<void(RoceHelper&)>> cases = {
        {"incast32", Incast32},
        {"leafspine128", LeafSpine128},
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
