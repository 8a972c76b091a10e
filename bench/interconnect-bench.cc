/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Benchmarks of the data paths (RoCEv2, iWARP, InfiniBand): fixed, seeded cases, one line each.
//
//   interconnect-bench [--csv=FILE] [--scheduler=NAME] [--simulator=NAME] [--repeat=N]
//                      [--compare=FILE] [--timeline=US] [CASE ...]
//   (no case: all of them; a case given twice is refused)
//
// --repeat=N runs every case N times, in rounds (each round runs every case once, so that the
// machine's noise spreads over all of them), and ends with the min, median and max of each
// case's packet-hops and events per CPU second and its largest peak RSS, then, for two cases or
// more, each case's cost per packet-hop over perm128's (or the first case's), the ratio of the
// two speeds in one round, its median and range over the rounds, and the same per event (a case
// that runs more events a packet-hop costs more per packet-hop, not per event). --compare=FILE
// reads a CSV an earlier run wrote (--csv) and prints each case's median packet-hops per CPU
// second over the baseline's median: on a noisy machine a regression shows as a ratio below 1.
//
// --timeline=US prints on stderr, for every US microseconds of simulated time of each run, what
// that stretch took: its events, packet-hops, CPU seconds, CPU nanoseconds per packet-hop and the
// heap in use at its end (glibc's count), as CSV lines after a header line for each run. Where a
// run's time goes: perm1024's burst of its first few hundred microseconds against its steady state.
// The stretches add up to the run's line, which then counts the timeline's own events (one a
// stretch) and ends at the end of the stretch that holds the case's last event (the timeline's
// event is the last one), not at that event: a diagnostic, not a run to compare.
//
// --scheduler picks the event scheduler: canonical (default: interconnect-run's, the module's
// CanonicalScheduler), or one of ns-3's: priority-queue, map (ns-3's default), heap, calendar
// or list. --simulator picks the simulator implementation: interconnect (default:
// interconnect-run's on one rank, InterconnectSimulatorImpl) or default (ns-3's
// DefaultSimulatorImpl).
//
// Cases (fat-trees of 100 Gb/s links with 1 us of delay, path MTU 4096, DCQCN, PFC, ECMP):
//   incast64   k=8 fat-tree, 64 senders -> 1 host, 1 MB WRITE each
//   perm128    k=8 fat-tree, a random permutation of the 128 hosts, 2 MB each
//   a2a64      k=8 fat-tree, all-to-all of its first 64 hosts, 32 KiB per pair, all at once
//   a2a128     k=8 fat-tree, all-to-all of the 128 hosts, 32 KiB per pair, all at once
//   perm1024   k=16 fat-tree (1024 hosts), a random permutation, 2 MB each
//   moe        k=8 fat-tree, one MoE dispatch + combine layer on 128 GPUs (512 tokens of
//              hidden 4096 in bf16 per GPU, top-2 of 256 experts)
//   perm128-iwarp  perm128 over iWARP (ns-3 TCP with DCTCP, 1448-byte segments, priority 0)
//   perm128-ib     perm128 on InfiniBand (EDR 4x, IB MTU 4096, RC queue pairs, credits)
//   perm128-uet    perm128 as spray-uet-vs-ecmp runs it: the Ultra Ethernet-style transport
//                  (per-packet spraying, selective ACKs), NSCC, trimming, no PFC
//   perm128-k16    128 flows on perm1024's fabric: perm128's traffic among every eighth host
//                  of the k=16 fat-tree (one per edge switch), a random permutation of them
//   perm1024-k8    1024 flows on perm128's fabric: eight random permutations of its 128 hosts
//                  (each host sends and receives eight flows)
//   (The last two set apart what perm1024 adds to perm128: a larger fabric, and more flows.)
//
// As it starts the bench names the machine on stderr (interconnect::MachineDescription: the CPU,
// the CPUs online, the caches, the kernel), which the figures belong to.
//
// Columns: case, simulated time (s), wall time (s), CPU time of the event loop (s), events,
// events per CPU second, packet-hops (every frame put on a link: data, ACK, CNP, PFC),
// packet-hops per CPU second, peak resident memory (MB) of the case's own child process, forked
// once the libraries are loaded (./interconnect bench runs it with LD_BIND_NOW=1, so that their
// calls are bound then too, not by symbol look-ups in the case), messages completed and posted,
// then two diagnostics of the loop: the part of its CPU time spent in the kernel (s, included in
// the CPU time; getrusage's, which a kernel with tick-based accounting, as this project's machine
// has, samples at its tick: 4 ms there) and its minor page faults. In perm1024 that kernel time is
// most likely the kernel handing the heap the pages it grows into as frames pile up (at their
// first touch), which costs more in some runs than in others on this project's virtual machine
// (doc/interconnect.rst, Performance).

#include "ns3/core-module.h"
#include "ns3/interconnect-module.h"
#include "ns3/object-factory.h"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstddef>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

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
    double loopSystemSeconds; //!< the kernel's part of cpuSeconds
    long loopMinorFaults;     //!< the loop's minor page faults
};

/// Keeps a case's helpers alive while the simulation runs.
typedef std::shared_ptr<void> KeepAlive;

/// What a case built: its helpers, and the transport its messages run on.
struct Built
{
    KeepAlive keep;                     //!< helpers to keep
    MessageTransport* network{nullptr}; //!< the transport
    bool endless{false};                //!< periodic events: stop once every message is done
};

/// Keep two helpers alive.
KeepAlive
Keep(KeepAlive a, KeepAlive b)
{
    return std::make_shared<std::pair<KeepAlive, KeepAlive>>(std::move(a), std::move(b));
}

/// The fabric of the cases: k-ary fat-tree, 100 Gb/s, 1 us, path MTU 4096, DCQCN (or `cc`).
Fabric
FatTree(RoceHelper& h, uint32_t k, const std::string& cc = "dcqcn")
{
    h.SetDeviceAttribute("Mtu", UintegerValue(4200));
    h.SetQueuePairAttribute("Mtu", UintegerValue(4096));
    h.SetNicAttribute("CongestionControl", StringValue(cc));
    return h.Build(FatTreeHelper(k));
}

/// A fixed random permutation of n hosts without fixed points (stream: the random stream).
std::vector<uint32_t>
Permutation(uint32_t n, int64_t stream = 42)
{
    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    u->SetStream(stream);
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

/// perm128 over iWARP: the same fat-tree and permutation on ns-3 TCP (DCTCP), lossy priority 0.
Built
PermutationIwarp(RoceHelper& h)
{
    h.SetInternetStack(true);
    const Fabric f = FatTree(h, 8);
    auto iwarp = std::make_shared<IwarpTransport>(h);
    iwarp->SetTcpCongestionControl("ns3::TcpDctcp");
    const std::vector<uint32_t> perm = Permutation(f.GetNHosts());
    for (uint32_t i = 0; i < perm.size(); ++i)
    {
        iwarp->Post(i,
                    perm[i],
                    RdmaVerb::WRITE,
                    2000000,
                    MicroSeconds(1),
                    iwarp->GetDefaultPriority());
    }
    return {iwarp, iwarp.get()};
}

/// perm128 on InfiniBand: EDR 4x (100 Gb/s), 1 us, IB MTU 4096, RC queue pairs.
Built
PermutationIb(RoceHelper& /* unused */)
{
    FatTreeHelper fatTree(8);
    fatTree.SetDelay(MicroSeconds(1));
    auto ib = std::make_shared<IbRcTransport>(IbSubnetHelper().Build(fatTree));
    const std::vector<uint32_t> perm = Permutation(128);
    for (uint32_t i = 0; i < perm.size(); ++i)
    {
        ib->Post(i, perm[i], RdmaVerb::WRITE, 2000000, MicroSeconds(1), 0);
    }
    return {ib, ib.get(), true};
}

Built
Incast64(RoceHelper& h)
{
    FatTree(h, 8);
    auto rdma = std::make_shared<RoceTransport>(h);
    for (uint32_t i = 1; i <= 64; ++i)
    {
        rdma->Post(i, 0, RdmaVerb::WRITE, 1000000, MicroSeconds(1), 3);
    }
    return {rdma, rdma.get()};
}

Built
PermutationCase(RoceHelper& h, uint32_t k, const std::string& cc = "dcqcn")
{
    const Fabric f = FatTree(h, k, cc);
    auto rdma = std::make_shared<RoceTransport>(h);
    const std::vector<uint32_t> perm = Permutation(f.GetNHosts());
    for (uint32_t i = 0; i < perm.size(); ++i)
    {
        rdma->Post(i, perm[i], RdmaVerb::WRITE, 2000000, MicroSeconds(1), 3);
    }
    return {rdma, rdma.get()};
}

/**
 * Permutation traffic that sets the fabric's size and the flows' count apart: 2 MB WRITEs, as
 * perm128's, among `senders` hosts spread evenly over a k-ary fat-tree (every k^3/4/senders-th
 * host), in `rounds` random permutations of them, each host sending one flow and receiving one
 * in each. Round r draws its permutation from stream 42 + r: round 0's is perm128's.
 * @param h the helper
 * @param k the fat-tree's radix
 * @param senders the hosts that take part (a divisor of k^3/4)
 * @param rounds the permutations
 * @return the case
 */
Built
PermutationSpread(RoceHelper& h, uint32_t k, uint32_t senders, uint32_t rounds)
{
    const Fabric f = FatTree(h, k);
    NS_ABORT_MSG_UNLESS(senders > 0 && f.GetNHosts() % senders == 0,
                        "PermutationSpread: " << senders << " senders do not divide "
                                              << f.GetNHosts() << " hosts");
    auto rdma = std::make_shared<RoceTransport>(h);
    const uint32_t stride = f.GetNHosts() / senders;
    for (uint32_t r = 0; r < rounds; ++r)
    {
        const std::vector<uint32_t> perm = Permutation(senders, 42 + r);
        for (uint32_t i = 0; i < perm.size(); ++i)
        {
            rdma->Post(i * stride, perm[i] * stride, RdmaVerb::WRITE, 2000000, MicroSeconds(1), 3);
        }
    }
    return {rdma, rdma.get()};
}

/// perm128 on the Ultra Ethernet-style transport, as examples/scenarios/spray-uet-vs-ecmp.json.
Built
PermutationUet(RoceHelper& h)
{
    // The base round trip the runner computes for this fabric (nic.nsccBaseRtt 0s).
    Config::SetDefault("ns3::NsccCongestionControl::BaseRtt", TimeValue(NanoSeconds(14047)));
    h.SetQueuePairAttribute("Transport", StringValue("uet"));
    h.SetNicAttribute("AckDscp", UintegerValue(48));
    h.SetMmuAttribute("PfcEnabled", BooleanValue(false));
    h.SetMmuAttribute("EcnKmin", UintegerValue(20000));
    h.SetMmuAttribute("EcnKmax", UintegerValue(80000));
    h.SetMmuAttribute("EcnPmax", DoubleValue(1.0));
    h.SetSwitchAttribute("Trimming", BooleanValue(true));
    return PermutationCase(h, 8, "nscc");
}

Built
AllToAll(RoceHelper& h, uint32_t n)
{
    FatTree(h, 8);
    auto rdma = std::make_shared<RoceTransport>(h);
    auto collectives = std::make_shared<CollectiveHelper>(*rdma);
    std::vector<uint32_t> hosts(n);
    for (uint32_t i = 0; i < hosts.size(); ++i)
    {
        hosts[i] = i;
    }
    collectives->AllToAll(hosts, 32 * 1024, MicroSeconds(1));
    return {Keep(rdma, collectives), rdma.get()};
}

Built
Moe128(RoceHelper& h)
{
    const Fabric f = FatTree(h, 8);
    auto rdma = std::make_shared<RoceTransport>(h);
    auto collectives = std::make_shared<CollectiveHelper>(*rdma);
    std::vector<uint32_t> gpus(f.GetNHosts());
    for (uint32_t i = 0; i < gpus.size(); ++i)
    {
        gpus[i] = i;
    }
    // 512 tokens per GPU, hidden 4096 in bf16, top-2 of 256 experts (2 per GPU), uniform:
    // one dispatch and one combine of 4 MiB per GPU each.
    MoeTraffic moe(gpus.size(), 512, 4096, 2, 2, 2, {"uniform", 0});
    collectives->MoeLayers(gpus, moe, 1, 1, MicroSeconds(20), MicroSeconds(1), 7);
    return {Keep(rdma, collectives), rdma.get()};
}

/// @return a getrusage time in seconds @param t the time
double
RusageSeconds(const timeval& t)
{
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
}

double
CpuSeconds()
{
    return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

/// Stop once every message of the network has completed (for networks with periodic events).
void
StopWhenDone(MessageTransport* network)
{
    const TransportStatistics st = network->CollectStatistics();
    if (st.messagesCompleted == st.messagesPosted)
    {
        Simulator::Stop();
        return;
    }
    Simulator::Schedule(MicroSeconds(10), &StopWhenDone, network);
}

/**
 * Read an option's whole number, 1 to max (decimal digits only: no sign, no exponent).
 * @param text the option's value
 * @param max the largest accepted (below 10^9)
 * @param value set to it if accepted
 * @return whether it is accepted
 */
bool
WholeNumber(const std::string& text, uint32_t max, uint32_t& value)
{
    if (text.empty() || text.size() > 9 ||
        text.find_first_not_of("0123456789") != std::string::npos)
    {
        return false;
    }
    const unsigned long n = std::stoul(text);
    if (n < 1 || n > max)
    {
        return false;
    }
    value = static_cast<uint32_t>(n);
    return true;
}

/// What --timeline counts from one line to the next.
struct Timeline
{
    std::string name;          //!< the case
    MessageTransport* network; //!< its transport
    Time interval;             //!< a stretch of simulated time
    double cpu;                //!< CPU seconds at the last line
    uint64_t events;           //!< events at the last line
    uint64_t hops;             //!< packet-hops at the last line
};

/// @return megabytes of heap in use (glibc's count; 0 elsewhere)
double
HeapInUseMb()
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    const struct mallinfo2 info = mallinfo2();
    return static_cast<double>(info.uordblks + info.hblkhd) / 1e6;
#else
    return 0;
#endif
}

/// Print what the stretch since the last line took, as of now (stderr).
void
TimelineLine(Timeline& t)
{
    const double cpu = CpuSeconds();
    const uint64_t events = Simulator::GetEventCount();
    const uint64_t hops = t.network->CollectStatistics().packetHops;
    const double dcpu = cpu - t.cpu;
    std::fprintf(stderr,
                 "timeline,%s,%.3f,%" PRIu64 ",%" PRIu64 ",%.6f,%.0f,%.2f\n",
                 t.name.c_str(),
                 Simulator::Now().GetNanoSeconds() / 1e3,
                 events - t.events,
                 hops - t.hops,
                 dcpu,
                 hops > t.hops ? dcpu * 1e9 / static_cast<double>(hops - t.hops) : 0.0,
                 HeapInUseMb());
    t.cpu = cpu;
    t.events = events;
    t.hops = hops;
}

/// A --timeline stretch ends: its line, and the next stretch while anything else is pending.
void
TimelineStep(Timeline* t)
{
    TimelineLine(*t);
    if (!Simulator::IsFinished()) // (this event is not pending any more: the others are)
    {
        Simulator::Schedule(t->interval, &TimelineStep, t);
    }
}

Result
RunCase(const std::string& name,
        const std::function<Built(RoceHelper&)>& build,
        const std::string& scheduler,
        const std::string& simulator,
        uint32_t timelineUs)
{
    GlobalValue::Bind("SimulatorImplementationType", StringValue(simulator));
    ObjectFactory schedulerFactory;
    schedulerFactory.SetTypeId(scheduler);
    Simulator::SetScheduler(schedulerFactory);
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(1);
    RoceHelper h;
    h.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
    h.SetChannelAttribute("Delay", StringValue("1us"));
    const Built built = build(h);
    MessageTransport* network = built.network;
    if (h.IsFinalized())
    {
        h.AssignStreams(1); // an Ethernet case
    }
    if (built.endless)
    {
        Simulator::Schedule(MicroSeconds(10), &StopWhenDone, network);
    }
    const auto wall0 = std::chrono::steady_clock::now();
    const double cpu0 = CpuSeconds();
    struct rusage usage0;
    getrusage(RUSAGE_SELF, &usage0);
    const uint64_t events0 = Simulator::GetEventCount();
    Timeline timeline{name, network, MicroSeconds(timelineUs), cpu0, events0, 0};
    if (timelineUs > 0)
    {
        std::fprintf(stderr,
                     "timeline,case,until_us,events,packet_hops,cpu_s,ns_per_packet_hop,"
                     "heap_in_use_mb\n");
        timeline.hops = network->CollectStatistics().packetHops;
        Simulator::Schedule(timeline.interval, &TimelineStep, &timeline);
    }
    Simulator::Run();
    if (timelineUs > 0 && Simulator::GetEventCount() > timeline.events)
    {
        TimelineLine(timeline); // (the last stretch, to a Stop: the last line was the end else)
    }
    struct rusage usage1; // (the kernel's part is read within the CPU time's span)
    getrusage(RUSAGE_SELF, &usage1);
    const double cpu = CpuSeconds() - cpu0;
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    const TransportStatistics st = network->CollectStatistics();
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
             st.messagesPosted,
             RusageSeconds(usage1.ru_stime) - RusageSeconds(usage0.ru_stime),
             usage1.ru_minflt - usage0.ru_minflt};
    Simulator::Destroy();
    return r;
}

/// A run's figures, read back from its CSV line.
struct Figures
{
    double eventsPerCpu;
    double hopsPerCpu;
    double rssMb;
};

/// @param line a CSV line of the bench @param[out] f its figures @return its case, "" if none
std::string
ParseLine(const std::string& line, Figures* f)
{
    std::vector<std::string> cells;
    std::stringstream in(line);
    std::string cell;
    while (std::getline(in, cell, ','))
    {
        cells.push_back(cell);
    }
    if (cells.size() < 9 || cells[0] == "case")
    {
        return "";
    }
    try
    {
        *f = Figures{std::stod(cells[5]), std::stod(cells[7]), std::stod(cells[8])};
    }
    catch (const std::exception&)
    {
        return "";
    }
    return cells[0];
}

/// @param v values (not empty) @return their median
double
Median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

} // namespace

/// The program; main() reports the configuration errors it throws.
static int
Main(int argc, char* argv[])
{
    std::string csv;
    std::string scheduler = "ns3::CanonicalScheduler";        // as interconnect-run
    std::string simulator = "ns3::InterconnectSimulatorImpl"; // as interconnect-run on one rank
    const std::map<std::string, std::string> schedulers = {
        {"map", "ns3::MapScheduler"},
        {"heap", "ns3::HeapScheduler"},
        {"priority-queue", "ns3::PriorityQueueScheduler"},
        {"calendar", "ns3::CalendarScheduler"},
        {"list", "ns3::ListScheduler"},
        {"canonical", "ns3::CanonicalScheduler"}, // interconnect-run's
    };
    const std::map<std::string, std::function<Built(RoceHelper&)>> cases = {
        {"incast64", Incast64},
        {"perm128", [](RoceHelper& h) { return PermutationCase(h, 8); }},
        {"a2a64", [](RoceHelper& h) { return AllToAll(h, 64); }},
        {"a2a128", [](RoceHelper& h) { return AllToAll(h, 128); }},
        {"perm1024", [](RoceHelper& h) { return PermutationCase(h, 16); }},
        {"moe", Moe128},
        {"perm128-iwarp", PermutationIwarp},
        {"perm128-ib", PermutationIb},
        {"perm128-uet", PermutationUet},
        {"perm128-k16", [](RoceHelper& h) { return PermutationSpread(h, 16, 128, 1); }},
        {"perm1024-k8", [](RoceHelper& h) { return PermutationSpread(h, 8, 128, 8); }},
    };
    std::vector<std::string> chosen;
    uint32_t repeat = 1;
    uint32_t timelineUs = 0;
    std::string compare;
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        if (arg.rfind("--csv=", 0) == 0)
        {
            csv = arg.substr(6);
        }
        else if (arg.rfind("--repeat=", 0) == 0)
        {
            const std::string n = arg.substr(9);
            if (!WholeNumber(n, 1000, repeat))
            {
                std::cerr << "error: --repeat = " << n << ": accepted: a whole number 1..1000"
                          << std::endl;
                return 2;
            }
        }
        else if (arg.rfind("--timeline=", 0) == 0)
        {
            const std::string n = arg.substr(11);
            if (!WholeNumber(n, 1000000, timelineUs))
            {
                std::cerr << "error: --timeline = " << n
                          << ": accepted: a whole number of microseconds 1..1000000" << std::endl;
                return 2;
            }
        }
        else if (arg.rfind("--compare=", 0) == 0)
        {
            compare = arg.substr(10);
        }
        else if (arg.rfind("--scheduler=", 0) == 0)
        {
            const auto it = schedulers.find(arg.substr(12));
            if (it == schedulers.end())
            {
                std::cerr << "error: --scheduler = " << arg.substr(12)
                          << ": accepted: map, heap, priority-queue, calendar, list, canonical"
                          << std::endl;
                return 2;
            }
            scheduler = it->second;
        }
        else if (arg.rfind("--simulator=", 0) == 0)
        {
            const std::string name = arg.substr(12);
            if (name != "interconnect" && name != "default")
            {
                std::cerr << "error: --simulator = " << name << ": accepted: interconnect, default"
                          << std::endl;
                return 2;
            }
            simulator =
                name == "default" ? "ns3::DefaultSimulatorImpl" : "ns3::InterconnectSimulatorImpl";
        }
        else if (cases.count(arg))
        {
            if (std::find(chosen.begin(), chosen.end(), arg) != chosen.end())
            {
                std::cerr << "error: case " << arg
                          << " given twice; accepted: each case once (--repeat=N runs every case "
                             "N times)"
                          << std::endl;
                return 2;
            }
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
                      << "'; accepted: --csv=FILE, --scheduler=NAME, --simulator=NAME, --repeat=N, "
                         "--compare=FILE, --timeline=US "
                         "and the cases"
                      << known << std::endl;
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
    // The baseline first: a file that cannot be read is said before any case runs.
    std::map<std::string, std::vector<double>> baseline;
    if (!compare.empty())
    {
        std::ifstream in(compare);
        if (!in)
        {
            std::cerr << "error: --compare=" << compare << ": cannot read" << std::endl;
            return 1;
        }
        std::string line;
        while (std::getline(in, line))
        {
            Figures f{};
            const std::string name = ParseLine(line, &f);
            if (!name.empty())
            {
                baseline[name].push_back(f.hopsPerCpu);
            }
        }
        if (baseline.empty())
        {
            std::cerr << "error: --compare=" << compare
                      << ": no case lines (a CSV written by interconnect-bench --csv)" << std::endl;
            return 1;
        }
    }
    FILE* out = csv.empty() ? nullptr : std::fopen(csv.c_str(), "w");
    if (!csv.empty() && !out)
    {
        std::cerr << "error: --csv=" << csv << ": cannot write" << std::endl;
        return 1;
    }
    // The machine the figures belong to, on stderr (stdout and the CSV file hold the runs'
    // lines alone): the same build's speeds differ from machine to machine, not in proportion
    // (doc/interconnect.rst, Performance).
    std::cerr << "interconnect-bench: machine: " << interconnect::MachineDescription() << std::endl;
    const char* header = "case,sim_s,wall_s,cpu_s,events,events_per_cpu_s,packet_hops,"
                         "hops_per_cpu_s,peak_rss_mb,completed,posted,sys_s,minor_faults";
    std::printf("%s\n", header);
    if (out)
    {
        std::fprintf(out, "%s\n", header);
    }
    int status = 0;
    std::map<std::string, std::vector<Figures>> runs;
    std::vector<std::string> rounds;
    for (uint32_t round = 0; round < repeat; ++round)
    {
        rounds.insert(rounds.end(), chosen.begin(), chosen.end());
    }
    // Each chosen case's packet-hops and events per CPU-second by round, for its cost per
    // packet-hop and per event over the reference case's in the same round.
    std::vector<std::map<std::size_t, double>> hopsByRound(chosen.size());
    std::vector<std::map<std::size_t, double>> eventsByRound(chosen.size());
    for (std::size_t run = 0; run < rounds.size(); ++run)
    {
        const std::string& name = rounds[run];
        // Each case runs in a child process of its own, so that its peak RSS is its own; the
        // child sends its CSV line back through a pipe and exits 1 if a message did not complete.
        int fds[2];
        if (pipe(fds) != 0)
        {
            std::perror("pipe");
            return 1;
        }
        std::fflush(stdout);
        const pid_t child = fork();
        if (child < 0)
        {
            std::perror("fork");
            return 1;
        }
        if (child == 0)
        {
            close(fds[0]);
            const Result r = RunCase(name, cases.at(name), scheduler, simulator, timelineUs);
            char line[512];
            const int n = std::snprintf(line,
                                        sizeof(line),
                                        "%s,%.6f,%.3f,%.3f,%" PRIu64 ",%.0f,%" PRIu64
                                        ",%.0f,%.1f,%" PRIu64 ",%" PRIu64 ",%.3f,%ld",
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
                                        r.posted,
                                        r.loopSystemSeconds,
                                        r.loopMinorFaults);
            const bool written = write(fds[1], line, n) == n;
            _exit(!written ? 3 : (r.completed == r.posted ? 0 : 1));
        }
        close(fds[1]);
        std::string line;
        char buffer[512];
        ssize_t got;
        while ((got = read(fds[0], buffer, sizeof(buffer))) > 0)
        {
            line.append(buffer, got);
        }
        close(fds[0]);
        int childStatus = 0;
        waitpid(child, &childStatus, 0);
        if (line.empty() || !WIFEXITED(childStatus) || WEXITSTATUS(childStatus) > 1)
        {
            std::cerr << "error: case " << name << " failed" << std::endl;
            status |= 1;
            continue;
        }
        std::printf("%s\n", line.c_str());
        std::fflush(stdout);
        Figures f{};
        if (!ParseLine(line, &f).empty())
        {
            runs[name].push_back(f);
            hopsByRound[run % chosen.size()][run / chosen.size()] = f.hopsPerCpu;
            eventsByRound[run % chosen.size()][run / chosen.size()] = f.eventsPerCpu;
        }
        if (out)
        {
            std::fprintf(out, "%s\n", line.c_str());
        }
        status |= WEXITSTATUS(childStatus);
    }
    if (out)
    {
        std::fclose(out);
    }
    if (repeat > 1 || !compare.empty())
    {
        std::printf("\ncase,runs,hops_per_cpu_s_min,median,max,events_per_cpu_s_min,median,max,"
                    "peak_rss_mb_max%s\n",
                    compare.empty() ? "" : ",baseline_hops_median,ratio");
        for (const auto& name : chosen)
        {
            const std::vector<Figures>& r = runs[name];
            if (r.empty())
            {
                continue;
            }
            std::vector<double> hops;
            std::vector<double> events;
            double rss = 0;
            for (const Figures& f : r)
            {
                hops.push_back(f.hopsPerCpu);
                events.push_back(f.eventsPerCpu);
                rss = std::max(rss, f.rssMb);
            }
            std::printf("%s,%zu,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.1f",
                        name.c_str(),
                        r.size(),
                        *std::min_element(hops.begin(), hops.end()),
                        Median(hops),
                        *std::max_element(hops.begin(), hops.end()),
                        *std::min_element(events.begin(), events.end()),
                        Median(events),
                        *std::max_element(events.begin(), events.end()),
                        rss);
            if (!compare.empty())
            {
                const auto b = baseline.find(name);
                if (b == baseline.end())
                {
                    std::printf(",,(not in the baseline)");
                }
                else
                {
                    const double base = Median(b->second);
                    std::printf(",%.0f,%.3f", base, Median(hops) / base);
                }
            }
            std::printf("\n");
        }
    }
    if (repeat > 1 && chosen.size() > 1)
    {
        // The cost per packet-hop of each other case over the reference case's (perm128 if it
        // was given, else the first case given), as the ratio of the two cases' speeds in one
        // round (perm1024 over perm128: the growth the speed targets bound), its median and
        // range over the rounds in which both ran; then the same per event, which tells a case
        // that does more a packet-hop (more events) from one whose events take longer. (A case's
        // events and packet-hops are the same every run: its cost per event is its cost per
        // packet-hop times the ratio of events a packet-hop, with the same noise, not a second
        // measurement.)
        const auto perm128 = std::find(chosen.begin(), chosen.end(), "perm128");
        const std::size_t ref = perm128 != chosen.end() ? perm128 - chosen.begin() : 0;
        const auto costs = [&](const char* what,
                               const std::vector<std::map<std::size_t, double>>& byRound) {
            std::printf("\n%s,rounds,median,min,max\n", what);
            for (std::size_t c = 0; c < chosen.size(); ++c)
            {
                std::vector<double> ratios;
                for (const auto& [round, speed] : byRound[c])
                {
                    const auto r = byRound[ref].find(round);
                    if (c != ref && r != byRound[ref].end() && speed > 0)
                    {
                        ratios.push_back(r->second / speed);
                    }
                }
                if (ratios.empty())
                {
                    continue;
                }
                std::printf("%s/%s,%zu,%.3f,%.3f,%.3f\n",
                            chosen[c].c_str(),
                            chosen[ref].c_str(),
                            ratios.size(),
                            Median(ratios),
                            *std::min_element(ratios.begin(), ratios.end()),
                            *std::max_element(ratios.begin(), ratios.end()));
            }
        };
        costs("cost_per_hop", hopsByRound);
        costs("cost_per_event", eventsByRound);
    }
    return status;
}

int
main(int argc, char* argv[])
{
    return ns3::ReportConfigErrors([&]() { return Main(argc, argv); });
}
