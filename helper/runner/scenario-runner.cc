/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-runner.h"

#include "congestion-state-recorder.h"
#include "flow-statistics.h"
#include "port-recorder.h"
#include "run-record.h"

#include "ns3/attribute-defaults.h"
#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/dcqcn-congestion-control.h"
#include "ns3/double.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/flow-size-distribution.h"
#include "ns3/global-value.h"
#include "ns3/ib-subnet-helper.h"
#include "ns3/interconnect-compat.h"
#include "ns3/interconnect-config-error.h"
#include "ns3/intra-host-helper.h"
#include "ns3/iwarp-transport.h"
#include "ns3/local-rank.h"
#include "ns3/moe-traffic.h"
#include "ns3/pfc-deadlock-monitor.h"
#include "ns3/poisson-traffic.h"
#include "ns3/rail-optimized-helper.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-transport.h"
#include "ns3/simulator.h"
#include "ns3/spine-leaf-helper.h"
#include "ns3/string.h"
#include "ns3/three-tier-helper.h"
#include "ns3/torus-helper.h"
#include "ns3/two-dc-helper.h"
#include "ns3/uinteger.h"
#include "ns3/workload-kind.h"

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"

#include <mpi.h>
#endif

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <numeric>
#include <sstream>
#include <sys/resource.h>

namespace ns3
{

namespace
{

/**
 * What the process holds of its anonymous memory on transparent huge pages now
 * (AnonHugePages in /proc/self/smaps_rollup): the heap is on them when the program started with
 * GLIBC_TUNABLES=glibc.malloc.hugetlb=1, as ./interconnect starts it (doc/interconnect.rst,
 * Performance).
 * @return megabytes, or -1 where the kernel does not tell
 */
double
HugePagesMegabytes()
{
    std::ifstream smaps("/proc/self/smaps_rollup");
    std::string key;
    while (smaps >> key)
    {
        if (key == "AnonHugePages:")
        {
            double kb = 0;
            return smaps >> kb ? kb / 1024.0 : -1.0;
        }
        smaps.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
    }
    return -1.0;
}

const char* const USAGE =
    "usage: interconnect-run SCENARIO.json [--set path.to.key=value ...] [--out DIR]\n"
    "                        [--ns3::Class::Attribute=value ...]\n"
    "       interconnect-run --keys   (the scenario keys, as the manual's table)\n"
    "       interconnect-run --attributes   (the module's attributes and trace sources, as the "
    "manual's reference)\n"
    "       interconnect-run --PrintHelp | --PrintAttributes=ns3::Class | --PrintTypeIds | ...\n";

void
Usage()
{
    std::cerr << USAGE << std::flush;
}

/**
 * ns-3's own options (--PrintHelp, --PrintAttributes=ns3::RdmaNic, --PrintTypeIds,
 * --PrintVersion, ...), handled as in every ns-3 program: ns-3's CommandLine prints and exits.
 * @param program the program's name
 * @param args the options
 */
void
PrintAsNs3(const std::string& program, const std::vector<std::string>& args)
{
    CommandLine cmd(program.substr(program.rfind('/') + 1)); // (the name --PrintHelp shows)
    cmd.Usage(std::string(USAGE) +
              "\nRuns the experiment a scenario file describes and writes its records "
              "(doc/interconnect.rst, \"The scenario runner\"). --set overrides a key (repeat it "
              "for more); --ns3::Class::Attribute=value sets an attribute's default, as the "
              "scenario's attributes section does, and is recorded with it in config.json.");
    std::string unused;
    cmd.AddValue("set", "path.to.key=value: override a scenario key (repeatable)", unused);
    cmd.AddValue("out", "the output directory (default results/<name>)", unused);
    cmd.AddValue("keys", "print the scenario keys, as the manual's table", unused);
    cmd.AddValue("attributes",
                 "print the module's attributes and trace sources, as the manual's reference",
                 unused);
    for (const std::string& arg : args)
    {
        if (arg == "--PrintAttributes" || arg == "--PrintGroup")
        {
            InterconnectConfigError(arg.substr(2),
                                    "(no value)",
                                    arg + "=NAME, e.g. --PrintAttributes=ns3::RdmaNic");
        }
        // ns-3 aborts on a TypeId it does not know: say so as for any other bad value.
        const std::string option = "--PrintAttributes=";
        TypeId tid;
        if (arg.rfind(option, 0) == 0 &&
            !TypeId::LookupByNameFailSafe(arg.substr(option.size()), &tid))
        {
            InterconnectConfigError(option.substr(2, option.size() - 3),
                                    arg.substr(option.size()),
                                    "a registered TypeId, e.g. ns3::RdmaNic (--PrintTypeIds "
                                    "lists them)");
        }
    }
    std::vector<std::string> all{program};
    all.insert(all.end(), args.begin(), args.end());
    cmd.Parse(all);
}

/// Hosts 0..n-1 (n = 0: all): a group of at least two.
std::vector<uint32_t>
FirstHosts(uint32_t n, uint32_t total, const std::string& key)
{
    if (n > total || n == 1 || total < 2)
    {
        InterconnectConfigError(key,
                                std::to_string(n),
                                "0 (all hosts) or 2 up to the fabric's " + std::to_string(total) +
                                    " hosts: a group of at least two");
    }
    std::vector<uint32_t> hosts(n == 0 ? total : n);
    std::iota(hosts.begin(), hosts.end(), 0);
    return hosts;
}

std::unique_ptr<FabricHelper>
MakeFabricHelper(const Scenario& s)
{
    const std::string kind = s.String("fabric.kind");
    const DataRate hostRate = s.Rate("fabric.hostRate");
    const DataRate fabricRate = s.Rate("fabric.fabricRate");
    const Time delay = s.Duration("fabric.delay");
    std::unique_ptr<FabricHelper> helper;
    if (kind == "spine-leaf")
    {
        helper = std::make_unique<SpineLeafHelper>(s.Int("fabric.leaves"),
                                                   s.Int("fabric.spines"),
                                                   s.Int("fabric.hostsPerLeaf"));
    }
    else if (kind == "three-tier")
    {
        auto t = std::make_unique<ThreeTierHelper>(s.Int("fabric.pods"),
                                                   s.Int("fabric.accessPerPod"),
                                                   s.Int("fabric.aggregationPerPod"),
                                                   s.Int("fabric.cores"),
                                                   s.Int("fabric.hostsPerAccess"));
        t->SetAccessOversubscription(s.Double("fabric.accessOversubscription"));
        t->SetAggregationOversubscription(s.Double("fabric.aggregationOversubscription"));
        helper = std::move(t);
    }
    else if (kind == "fat-tree")
    {
        helper = std::make_unique<FatTreeHelper>(s.Int("fabric.k"));
    }
    else if (kind == "two-dc")
    {
        auto t = std::make_unique<TwoDcHelper>(s.Int("fabric.k"), s.Int("fabric.dciLinks"));
        t->SetLongHaulRate(s.Rate("fabric.longHaulRate"));
        t->SetLongHaulDelay(s.Duration("fabric.longHaulDelay"));
        helper = std::move(t);
    }
    else if (kind == "rail-optimized")
    {
        helper = std::make_unique<RailOptimizedHelper>(s.Int("fabric.servers"),
                                                       s.Int("fabric.nicsPerServer"),
                                                       s.Int("fabric.spines"));
    }
    else
    {
        std::vector<uint32_t> dims;
        for (const auto& d : s.At("fabric.dimensions"))
        {
            dims.push_back(d.get<uint32_t>());
        }
        auto t = std::make_unique<TorusHelper>(dims);
        t->SetHostsPerSwitch(s.Int("fabric.hostsPerSwitch"));
        t->SetDateline(s.Bool("fabric.dateline"));
        helper = std::move(t);
    }
    helper->SetHostRate(hostRate);
    helper->SetFabricRate(fabricRate);
    helper->SetDelay(delay);
    std::vector<uint32_t> given;
    for (const auto& r : s.At("parallel.given"))
    {
        given.push_back(r.get<uint32_t>());
    }
    helper->SetPartition(s.String("parallel.partition"),
                         static_cast<uint32_t>(s.Int("parallel.ranks")),
                         given);
    return helper;
}

/// Set by SIGINT or SIGTERM: the run stops at the next progress check and writes what it has.
volatile std::sig_atomic_t g_interrupted = 0;

void
Interrupt(int signal)
{
    g_interrupted = signal;
}

/// Progress on stderr for long runs.
struct Progress
{
    std::chrono::steady_clock::time_point start; //!< wall clock at the start
    std::chrono::steady_clock::time_point last;  //!< wall clock at the last report
    Time stop;                                   //!< end of the run
    Time step;                                   //!< simulated time between checks
    Time lastNow{0};                             //!< simulated time at the last report
    uint64_t lastEvents{0};                      //!< events at the last report
    double speed{0};                             //!< simulated s per wall s, smoothed
};

/**
 * Report every 2 s of wall time: progress, the event rate of the last interval, and an ETA
 * from the recent pace (simulated seconds per wall second, smoothed over the last few
 * intervals), not from the average since the start: a run slows down as flows pile up, and
 * the average pace promised too early an end (websearch-dcqcn-vs-hpcc: 79 s shown, 243 s
 * taken).
 */
void
ReportProgress(Progress* p)
{
    const auto now = std::chrono::steady_clock::now();
    const double interval = std::chrono::duration<double>(now - p->last).count();
    if (interval >= 2.0)
    {
        const double wall = std::chrono::duration<double>(now - p->start).count();
        const double simulated = (Simulator::Now() - p->lastNow).GetSeconds();
        const double recent = simulated / interval;
        p->speed = p->speed == 0 ? recent : 0.5 * p->speed + 0.5 * recent;
        const uint64_t events = Simulator::GetEventCount();
        const double remaining = (p->stop - Simulator::Now()).GetSeconds();
        std::fprintf(stderr,
                     "[%5.1f%%] simulated %.3f ms, wall %.1f s, %.0f events/s, ETA %.0f s\n",
                     100 * Simulator::Now().GetSeconds() / p->stop.GetSeconds(),
                     Simulator::Now().GetSeconds() * 1e3,
                     wall,
                     (events - p->lastEvents) / interval,
                     p->speed > 0 ? remaining / p->speed : 0.0);
        p->last = now;
        p->lastNow = Simulator::Now();
        p->lastEvents = events;
    }
    if (g_interrupted)
    {
        Simulator::Stop();
        return;
    }
    if (Simulator::Now() + p->step < p->stop)
    {
        Simulator::Schedule(p->step, &ReportProgress, p);
    }
}

#ifdef NS3_MPI
/// Sort key of a CSV row.
using RowKey = std::function<std::vector<int64_t>(const std::vector<std::string>& cells)>;

/**
 * Stack the rows of per-rank CSVs with one header into one CSV, stably ordered by a key (rows
 * with equal keys come from one rank, in its order).
 */
bool
MergeCsv(const std::vector<std::string>& inputs,
         const std::string& output,
         const RowKey& key,
         std::string* error)
{
    std::string header;
    std::vector<std::pair<std::vector<int64_t>, std::string>> rows;
    for (const auto& path : inputs)
    {
        std::ifstream in(path);
        if (!in || !std::getline(in, header))
        {
            *error = "cannot read " + path;
            return false;
        }
        std::string line;
        while (std::getline(in, line))
        {
            std::vector<std::string> cells;
            std::istringstream split(line);
            std::string cell;
            while (std::getline(split, cell, ','))
            {
                cells.push_back(cell);
            }
            try
            {
                rows.emplace_back(key(cells), line);
            }
            catch (const std::exception&)
            {
                *error = path + ": not a row of this file: " + line;
                return false;
            }
        }
    }
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return a.first < b.first;
    });
    FILE* f = std::fopen(output.c_str(), "w");
    if (!f)
    {
        *error = "cannot write " + output;
        return false;
    }
    std::fprintf(f, "%s\n", header.c_str());
    for (const auto& r : rows)
    {
        std::fprintf(f, "%s\n", r.second.c_str());
    }
    return std::fclose(f) == 0;
}

/// Integer columns of a row, in order.
RowKey
Columns(std::vector<std::size_t> columns)
{
    return [columns](const std::vector<std::string>& cells) {
        std::vector<int64_t> k;
        for (std::size_t c : columns)
        {
            k.push_back(std::stoll(cells.at(c)));
        }
        return k;
    };
}
#endif

} // namespace

/// What a run records as it goes, and what it measured.
struct ScenarioRunner::Monitors
{
    std::unique_ptr<PortRecorder> ports;           //!< queues, PFC frames, credit stalls, links
    std::unique_ptr<CongestionStateRecorder> cc;   //!< output.ccState: cc.csv
    std::unique_ptr<PfcDeadlockMonitor> deadlocks; //!< output.deadlockCheck
    Progress progress;                             //!< progress reports
    std::vector<FlowRecord> flows;                 //!< the flows (this rank's, or all merged)
    TransportStatistics st;                        //!< counters
    uint64_t events{0};                            //!< events
    std::unique_ptr<FlowStatistics> stats;         //!< the flows' figures
    uint64_t phasesDone{0};                        //!< collective phases completed
    Time end;                                      //!< when the run ended
};

int
ScenarioRunner::Main(int argc, char* argv[], const std::string& plotScript)
{
    std::string path;
    std::vector<std::string> sets;
    std::vector<std::string> ns3Options;
    std::string out;
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        if (arg.rfind("--ns3::", 0) == 0)
        {
            // An attribute's default, as ns-3's CommandLine takes it: the scenario's attributes
            // section says the same (checked, applied after the presets, recorded).
            const std::size_t equal = arg.find('=');
            if (equal == std::string::npos)
            {
                InterconnectConfigError(arg.substr(2),
                                        "(no value)",
                                        "--ns3::Class::Attribute=value");
            }
            sets.push_back("attributes." + arg.substr(2, equal - 2) + "=" +
                           nlohmann::json(arg.substr(equal + 1)).dump());
        }
        else if (arg.rfind("--Print", 0) == 0 || arg == "--help" || arg == "-h")
        {
            ns3Options.push_back(arg == "-h" ? "--help" : arg);
        }
        else if (arg == "--set" && i + 1 < argc)
        {
            sets.emplace_back(argv[++i]);
        }
        else if (arg.rfind("--set=", 0) == 0)
        {
            sets.push_back(arg.substr(6));
        }
        else if (arg == "--out" && i + 1 < argc)
        {
            out = argv[++i];
        }
        else if (arg.rfind("--out=", 0) == 0)
        {
            out = arg.substr(6);
        }
        else if (arg == "--keys")
        {
            std::cout << Scenario::KeyTable();
            return 0;
        }
        else if (arg == "--attributes")
        {
            std::cout << AttributeDefaults::ReferenceTable("Interconnect");
            return 0;
        }
        else if (arg.rfind("--", 0) == 0 || !path.empty())
        {
            std::cerr << "error: unknown argument '" << arg << "'" << std::endl;
            Usage();
            return 2;
        }
        else
        {
            path = arg;
        }
    }
    if (!ns3Options.empty())
    {
        PrintAsNs3(argv[0], ns3Options); // prints and exits
    }
    if (path.empty())
    {
        Usage();
        return 2;
    }
    ScenarioRunner runner(Scenario::Load(path, sets), out);
    runner.Execute(&argc, &argv);
    return runner.Report(plotScript);
}

void
ScenarioRunner::Execute(int* argc, char*** argv)
{
    try
    {
        Start(argc, argv);
        BuildNetwork();
        AddWorkloads();
        AddMonitors();
        PrepareOutputs();
        Run();
        WriteRecords();
    }
    catch (const InterconnectConfigException& e)
    {
        const bool deepBorder =
            m_s.String("fabric.kind") == "two-dc" && m_s.Bytes("fabric.dciBufferSize") > 0;
        if (deepBorder && e.GetParameter() == "ns3::RoceSwitchMmu::BufferSize")
        {
            // The border switches have a buffer of their own: either key may be the one short.
            const std::string message = e.what();
            throw InterconnectConfigException(
                "fabric.dciBufferSize",
                "error: fabric.dciBufferSize or switch.bufferSize: " +
                    (message.rfind("error: ", 0) == 0 ? message.substr(7) : message));
        }
        throw InScenarioTerms(e);
    }
}

InterconnectConfigException
ScenarioRunner::InScenarioTerms(const InterconnectConfigException& e)
{
    // The attributes the scenario sets, by the key that sets them (ScenarioKey::Sets): a value
    // the model refuses once it sees the whole network (a buffer below the headroom of a
    // switch's ports, an MTU a port cannot carry) is the key's to fix.
    static const std::map<std::string, std::string> KEYS = []() {
        std::map<std::string, std::string> keys;
        for (const auto& [path, key] : Scenario::AllKeys())
        {
            for (const auto& attribute : key.attributes)
            {
                std::string& by = keys[attribute.first];
                by += (by.empty() ? "" : " or ") + path;
            }
        }
        return keys;
    }();
    const auto it = KEYS.find(e.GetParameter());
    if (it == KEYS.end())
    {
        return e;
    }
    const std::string message = e.what();
    const std::string detail = message.rfind("error: ", 0) == 0 ? message.substr(7) : message;
    return InterconnectConfigException(it->second, "error: " + it->second + ": " + detail);
}

ScenarioRunner::ScenarioRunner(const Scenario& scenario, const std::string& out)
    : m_s(scenario),
      m_out(out.empty() ? "results/" + scenario.String("name") : out),
      m_ranks(static_cast<uint32_t>(scenario.Int("parallel.ranks"))),
      m_rank(0),
      m_stop(scenario.Duration("stopTime")),
      m_infiniband(scenario.String("link.technology") == "infiniband"),
      m_autoMapping(scenario.String("nic.queuePairs") == "auto"),
      m_hosts(0),
      m_nicsPerServer(0),
      m_gpusPerServer(0),
      m_network(nullptr),
      m_monitors(std::make_unique<Monitors>()),
      m_partial(false),
      m_wall(0)
{
}

ScenarioRunner::~ScenarioRunner() = default;

void
ScenarioRunner::Start(int* argc, char*** argv)
{
    const Scenario& s = m_s;
    // One rank, or ns-3's distributed simulator over the MPI processes mpirun started. Either
    // way events of the same time run in an order that does not depend on the split
    // (CanonicalScheduler), so the records are the same on any number of ranks.
    const uint32_t ranks = m_ranks;
    if (ranks > 1)
    {
#ifdef NS3_MPI
        GlobalValue::Bind("SimulatorImplementationType",
                          StringValue(s.String("parallel.simulator") == "null-message"
                                          ? "ns3::NullMessageSimulatorImpl"
                                          : "ns3::DistributedSimulatorImpl"));
        MpiInterface::Enable(argc, argv);
        if (MpiInterface::GetSize() != ranks)
        {
            InterconnectConfigError("parallel.ranks",
                                    std::to_string(ranks),
                                    "the number of MPI processes, " +
                                        std::to_string(MpiInterface::GetSize()) +
                                        " here: start it with mpirun -np " + std::to_string(ranks) +
                                        " (./interconnect run SCENARIO --ranks=N does)");
        }
#else
        (void)argc;
        (void)argv;
        InterconnectConfigError(
            "parallel.ranks",
            std::to_string(ranks),
            "1 with this ns-3, which has no MPI (Debian's ns-3 packages are built without it); "
            "`./interconnect setup-mpi` builds an MPI-enabled ns-3.37 with this module, then "
            "`./interconnect run SCENARIO --ranks=N` runs the scenario under mpirun");
#endif
    }
    m_rank = GetLocalRank();
    // The attribute defaults set outside the scenario (NS_ATTRIBUTE_DEFAULT, a program's
    // Config::SetDefault before the run): config.json records those that still hold once the
    // network is built, so that a rerun needs neither (PrepareOutputs).
    m_external = AttributeDefaults::Changed();
    const nlohmann::ordered_json& recorded = m_s.Recorded();
    const std::string ns3 = interconnect::Ns3Version();
    const std::string commit = interconnect::ModuleCommit();
    const auto differs = [&recorded](const char* key, const std::string& ours) {
        return recorded.contains(key) && recorded[key] != ours; // (strings: Scenario::Parse)
    };
    if (m_rank == 0 && (differs("ns3Version", ns3) || differs("moduleCommit", commit)))
    {
        std::cerr << "interconnect-run: warning: the scenario was recorded by ns-3 "
                  << recorded.value("ns3Version", "?") << " and module commit "
                  << recorded.value("moduleCommit", "?") << "; this is ns-3 " << ns3
                  << " and module commit " << commit << ": its records may differ" << std::endl;
    }
    StringValue implementation;
    GlobalValue::GetValueByName("SimulatorImplementationType", implementation);
    if (ranks == 1 && implementation.Get() == "ns3::DefaultSimulatorImpl")
    {
        // The same events in the same order as ns-3's default implementation, for less per event
        // (one chosen on the command line or with NS_GLOBAL_VALUE stays).
        GlobalValue::Bind("SimulatorImplementationType",
                          StringValue("ns3::InterconnectSimulatorImpl"));
    }
    GlobalValue::Bind("SchedulerType", StringValue("ns3::CanonicalScheduler"));
    RngSeedManager::SetSeed(static_cast<uint32_t>(s.Int("seed")));
    RngSeedManager::SetRun(static_cast<uint64_t>(s.Int("run")));
}

bool
ScenarioRunner::SetsCnpInterval(const std::string& cc) const
{
    // The hpcc-sim preset sets the notification point's pacing itself (a CNP per marked packet).
    return !(cc == "ns3::DcqcnCongestionControl" && m_s.String("nic.dcqcnPreset") == "hpcc-sim");
}

void
ScenarioRunner::ConfigureEthernet(const std::string& cc)
{
    const Scenario& s = m_s;
    RoceHelper& roce = m_roce;
    const uint32_t mtu = static_cast<uint32_t>(s.Int("link.mtu"));
    const uint32_t linkMtu = s.Int("link.linkMtu") ? static_cast<uint32_t>(s.Int("link.linkMtu"))
                                                   : std::max<uint32_t>(1500, mtu + 100);
    roce.SetDeviceAttribute("Mtu", UintegerValue(linkMtu));
    roce.SetQueuePairAttribute("Mtu", UintegerValue(mtu));
    // iWARP runs on ns-3's TCP: the hosts get the Internet stack.
    roce.SetInternetStack(s.String("link.technology") == "iwarp");
    roce.SetQueuePairAttribute("AckInterval", UintegerValue(s.Int("nic.ackInterval")));
    roce.SetQueuePairAttribute("RetransmitTimeout", TimeValue(s.Duration("nic.retransmitTimeout")));
    roce.SetQueuePairAttribute("OutOfOrderReceive", BooleanValue(s.Bool("nic.outOfOrderReceive")));
    roce.SetQueuePairAttribute("Transport", StringValue(s.String("nic.transport")));
    roce.SetQueuePairAttribute("IrnRtoLow", TimeValue(s.Duration("nic.irnRtoLow")));
    roce.SetQueuePairAttribute("IrnRtoLowPackets", UintegerValue(s.Int("nic.irnRtoLowPackets")));
    roce.SetQueuePairAttribute("SprayEntropies", UintegerValue(s.Int("nic.sprayEntropies")));
    roce.SetQueuePairAttribute("UetLossThreshold", UintegerValue(s.Int("nic.uetLossThreshold")));
    roce.SetNicAttribute("CongestionControl", StringValue(cc));
    roce.SetNicAttribute("AckDscp", UintegerValue(s.Int("nic.ackDscp")));
    if (SetsCnpInterval(cc))
    {
        roce.SetNicAttribute("CnpInterval", TimeValue(s.Duration("nic.cnpInterval")));
    }
    roce.SetMmuAttribute("BufferSize", UintegerValue(s.Bytes("switch.bufferSize")));
    if (s.String("fabric.kind") == "two-dc" && s.Bytes("fabric.dciBufferSize") > 0)
    {
        // Deep-buffer border routers: their buffer, and the headroom of their long hauls in it.
        roce.SetLayerMmuAttribute("dci",
                                  "BufferSize",
                                  UintegerValue(s.Bytes("fabric.dciBufferSize")));
    }
    roce.SetMmuAttribute("PfcEnabled", BooleanValue(s.Bool("switch.pfc")));
    roce.SetMmuAttribute("PfcAlpha", DoubleValue(s.Double("switch.pfcAlpha")));
    roce.SetMmuAttribute("EcnEnabled", BooleanValue(s.Bool("switch.ecn")));
    roce.SetMmuAttribute("EcnKmin", UintegerValue(s.Bytes("switch.ecnKmin")));
    roce.SetMmuAttribute("EcnKmax", UintegerValue(s.Bytes("switch.ecnKmax")));
    roce.SetMmuAttribute("EcnPmax", DoubleValue(s.Double("switch.ecnPmax")));
    roce.SetSwitchAttribute(
        "EcmpMode",
        StringValue(s.String("switch.ecmp") == "flow-hash" ? "FlowHash" : "PacketSpray"));
    roce.SetSwitchAttribute("ForwardingLatency", TimeValue(s.Duration("switch.latency")));
    roce.SetSwitchAttribute("Trimming", BooleanValue(s.Bool("switch.trimming")));
    roce.SetSwitchAttribute("TrimThreshold", UintegerValue(s.Bytes("switch.trimThreshold")));
}

void
ScenarioRunner::BuildInfiniBand(const std::string& cc)
{
    const Scenario& s = m_s;
    IbSubnetHelper subnetManager;
    subnetManager.SetLinkRatesFromFabric(true);
    subnetManager.SetDeviceAttribute("Mtu", UintegerValue(s.Int("link.mtu")));
    subnetManager.SetDeviceAttribute("ReceiveBufferBlocks",
                                     UintegerValue(s.Int("ib.bufferBlocks")));
    subnetManager.SetSwitchAttribute("ForwardingLatency", TimeValue(s.Duration("switch.latency")));
    subnetManager.SetSwitchAttribute("CutThrough", BooleanValue(s.Bool("ib.cutThrough")));
    subnetManager.SetRouting(s.String("ib.routing") == "up-down" ? IbSubnetHelper::UP_DOWN
                                                                 : IbSubnetHelper::AUTO);
    subnetManager.SetSwitchAttribute("FecnThreshold", UintegerValue(s.Bytes("ib.fecnThreshold")));
    subnetManager.SetLmc(static_cast<uint8_t>(s.Int("ib.lmc")));
    if (s.Bool("ib.longHaulExtenders"))
    {
        // The extenders' buffer covers the long haul's round trip at its rate, the flow-control
        // packets' period on the way (a few us) and two packets.
        const double rate = s.Rate("fabric.longHaulRate").GetBitRate() / 8.0;
        const double trip = 2 * s.Duration("fabric.longHaulDelay").GetSeconds() + 4e-6;
        const auto blocks = static_cast<uint64_t>(std::ceil(rate * trip / 64)) +
                            2 * IbNetDevice::Blocks(static_cast<uint32_t>(s.Int("link.mtu")) + 64);
        subnetManager.SetLayerLinkDeviceAttribute("dci", "Extender", BooleanValue(true));
        subnetManager.SetLayerLinkDeviceAttribute(
            "dci",
            "ReceiveBufferBlocks",
            UintegerValue(std::min<uint64_t>(blocks, std::numeric_limits<uint32_t>::max())));
    }
    m_ib = std::make_unique<IbRcTransport>(subnetManager.Build(*m_fabricHelper));
    for (const auto& adapter : m_ib->GetSubnet().adapters)
    {
        // Any RDMA congestion control, on the switches' FECN marks (and HPCC on their INT).
        adapter->SetAttribute("CongestionControl", StringValue(cc));
        if (SetsCnpInterval(cc))
        {
            adapter->SetAttribute("CnpInterval", TimeValue(s.Duration("nic.cnpInterval")));
        }
    }
    m_ib->SetDefaultServiceLevel(static_cast<uint8_t>(s.Int("ib.sl")));
    m_ib->SetQueuePairAttribute("AckInterval", UintegerValue(s.Int("nic.ackInterval")));
    m_ib->SetQueuePairAttribute("RetransmitTimeout",
                                TimeValue(s.Duration("nic.retransmitTimeout")));
    m_ib->SetQueuePairAttribute("Transport", StringValue(s.String("nic.transport")));
    m_ib->SetQueuePairAttribute("IrnRtoLow", TimeValue(s.Duration("nic.irnRtoLow")));
    m_ib->SetQueuePairAttribute("IrnRtoLowPackets", UintegerValue(s.Int("nic.irnRtoLowPackets")));
}

void
ScenarioRunner::InstallSharp()
{
    // SHARP's aggregation nodes, when a workload asks for them (none otherwise: runs without
    // SHARP build the same network as before it existed).
    const Scenario& s = m_s;
    bool sharp = false;
    for (std::size_t i = 0; i < s.NumWorkloads(); ++i)
    {
        const std::string w = "workloads." + std::to_string(i) + ".";
        const bool asks =
            s.String(w + "kind") == "allreduce" &&
            (s.String(w + "algorithm") == "sharp" || s.String(w + "algorithm") == "nvls-sharp");
        sharp = sharp || asks;
    }
    if (!sharp)
    {
        return;
    }
    m_sharp = m_ib ? std::make_unique<SharpAggregationManager>(m_ib->GetSubnet())
                   : std::make_unique<SharpAggregationManager>(m_roce, m_fabric);
    m_sharp->SetNodeAttribute("Units", UintegerValue(s.Int("sharp.units")));
    m_sharp->SetNodeAttribute("BufferSize", UintegerValue(s.Bytes("sharp.bufferSize")));
    const std::string rate = s.String("sharp.aggregationRate");
    const DataRate line =
        std::max(DataRate(s.String("fabric.hostRate")), DataRate(s.String("fabric.fabricRate")));
    m_sharp->SetNodeAttribute("AggregationRate",
                              DataRateValue(rate == "line" ? line : DataRate(rate)));
    m_sharp->SetWindow(static_cast<uint32_t>(s.Int("sharp.window")));
    m_sharp->SetServiceLevel(m_network->GetDefaultPriority());
    m_sharp->Install();
}

void
ScenarioRunner::ArmPfcFaults()
{
    const Scenario& s = m_s;
    if (m_infiniband)
    {
        return; // no PFC (the parser refuses a storm there)
    }
    const Time watchdog = s.Duration("switch.pfcWatchdog");
    if (watchdog.IsStrictlyPositive())
    {
        for (uint32_t i = 0; i < m_roce.GetSwitches().GetN(); ++i)
        {
            Ptr<RoceSwitch> sw = m_roce.GetSwitch(i);
            for (uint32_t port = 0; port < sw->GetNPorts(); ++port)
            {
                sw->GetPort(port)->SetAttribute("PfcWatchdogTime", TimeValue(watchdog));
                sw->GetPort(port)->SetAttribute("PfcWatchdogRestoreTime",
                                                TimeValue(s.Duration("switch.pfcWatchdogRestore")));
            }
        }
    }
    const int64_t host = s.Int("faults.pauseStormHost");
    if (host < 0)
    {
        return;
    }
    if (static_cast<uint64_t>(host) >= m_fabric.GetNHosts())
    {
        InterconnectConfigError("faults.pauseStormHost",
                                std::to_string(host),
                                "-1 or a host of the fabric, 0.." +
                                    std::to_string(m_fabric.GetNHosts() - 1));
    }
    Ptr<PfcNetDevice> port = m_roce.GetNic(static_cast<uint32_t>(host))->GetDevice();
    const auto priority = static_cast<uint8_t>(s.Int("faults.pauseStormPriority"));
    Simulator::Schedule(s.Duration("faults.pauseStormStart"),
                        &PfcNetDevice::SetPauseStorm,
                        port,
                        priority,
                        true);
    const Time stop = s.Duration("faults.pauseStormStop");
    if (stop.IsStrictlyPositive())
    {
        Simulator::Schedule(stop, &PfcNetDevice::SetPauseStorm, port, priority, false);
    }
}

void
ScenarioRunner::LimitOutstandingPackets()
{
    const Scenario& s = m_s;
    int64_t cap = Scenario::ParseMaxOutstanding(s.String("nic.maxOutstanding"));
    if (cap == -2)
    {
        cap = s.String("nic.transport") == "irn" ? -1 : 0; // IRN's design includes BDP-FC
    }
    if (cap == 0 || s.String("link.technology") == "iwarp")
    {
        return; // no cap; iWARP's window is TCP's
    }
    uint64_t packets = static_cast<uint64_t>(cap);
    if (cap < 0)
    {
        // IRN's BDP-FC (Mittal et al., section 3.2): the bandwidth-delay product of the longest
        // path, in packets.
        const double bps = static_cast<double>(s.Rate("fabric.hostRate").GetBitRate());
        const uint32_t frame =
            PfcNetDevice::WireBytes(static_cast<uint32_t>(s.Int("link.mtu")) +
                                    RdmaNic::ROCE_HEADERS + PfcNetDevice::ETHERNET_HEADER);
        const double rtt = LongestPathRtt();
        packets = static_cast<uint64_t>(std::ceil(bps * rtt / (8.0 * frame)));
        std::cerr << "interconnect-run: " << s.String("name")
                  << ": nic.maxOutstanding bdp: " << packets << " packets ("
                  << m_fabric.GetDiameter() << " hops, base RTT " << rtt * 1e6 << " us)"
                  << std::endl;
    }
    if (m_infiniband)
    {
        m_ib->SetQueuePairAttribute("MaxOutstandingPackets", UintegerValue(packets));
        return;
    }
    for (uint32_t h = 0; h < m_roce.GetNHosts(); ++h)
    {
        m_roce.GetNic(h)->SetQueuePairAttribute("MaxOutstandingPackets", UintegerValue(packets));
    }
}

double
ScenarioRunner::LongestPathRtt() const
{
    // Each of the diameter's links paid twice its propagation delay and the store-and-forward
    // serialization of the frame and of its ACK.
    const Scenario& s = m_s;
    const double bps = static_cast<double>(s.Rate("fabric.hostRate").GetBitRate());
    const uint32_t frame =
        PfcNetDevice::WireBytes(static_cast<uint32_t>(s.Int("link.mtu")) + RdmaNic::ROCE_HEADERS +
                                PfcNetDevice::ETHERNET_HEADER);
    const uint32_t ack =
        PfcNetDevice::WireBytes(RdmaNic::ROCE_HEADERS + 4 + PfcNetDevice::ETHERNET_HEADER);
    const double hops = m_fabric.GetDiameter();
    return hops * (2 * s.Duration("fabric.delay").GetSeconds() + 8.0 * (frame + ack) / bps);
}

void
ScenarioRunner::SetNsccBaseRtt(const std::string& cc)
{
    if (cc != "ns3::NsccCongestionControl")
    {
        return;
    }
    // One base round trip for the whole fabric, as UEC's config_base_rtt (the longest path's):
    // every queue pair then aims at the same queueing delay, whatever its own path's length.
    Time rtt = m_s.Duration("nic.nsccBaseRtt");
    if (rtt.IsZero())
    {
        rtt = NanoSeconds(static_cast<int64_t>(std::ceil(LongestPathRtt() * 1e9)));
        std::cerr << "interconnect-run: " << m_s.String("name") << ": nic.nsccBaseRtt "
                  << rtt.GetNanoSeconds() << " ns (the longest path's)" << std::endl;
    }
    Config::SetDefault("ns3::NsccCongestionControl::BaseRtt", TimeValue(rtt));
}

void
ScenarioRunner::BuildNetwork()
{
    const Scenario& s = m_s;
    // The congestion control of every technology but iWARP's (TCP's own, tcp.cc).
    const std::string cc = RdmaCongestionControl::ResolveName("nic.cc", s.String("nic.cc"));
    if (cc == "ns3::DcqcnCongestionControl")
    {
        DcqcnCongestionControl::ApplyPreset(s.String("nic.dcqcnPreset"), s.Rate("fabric.hostRate"));
    }
    // The scenario's attribute defaults, after the preset's (checked when it was loaded).
    if (s.Has("attributes"))
    {
        for (auto it = s.At("attributes").begin(); it != s.At("attributes").end(); ++it)
        {
            Config::SetDefault(it.key(), StringValue(it.value().get<std::string>()));
        }
    }
    // The fabric, on Ethernet (RoCEv2 or iWARP) or as an InfiniBand subnet.
    m_fabricHelper = MakeFabricHelper(s);
    if (m_infiniband)
    {
        BuildInfiniBand(cc);
        m_fabric = m_ib->GetSubnet().fabric;
        m_network = m_ib.get();
    }
    else
    {
        ConfigureEthernet(cc);
        m_fabric = m_roce.Build(*m_fabricHelper);
        m_roce.AssignStreams(1);
        if (s.String("link.technology") == "iwarp")
        {
            // The same fabric and messages over iWARP: RDMAP/DDP/MPA on ns-3 TCP.
            auto iwarp = std::make_unique<IwarpTransport>(m_roce);
            iwarp->SetTcpCongestionControl(
                ResolveTcpCongestionControl("tcp.cc", s.String("tcp.cc")));
            iwarp->SetTcpAttribute("SegmentSize", UintegerValue(s.Int("tcp.segmentSize")));
            iwarp->SetTcpAttribute("SndBufSize", UintegerValue(s.Bytes("tcp.sendBuffer")));
            iwarp->SetTcpAttribute("RcvBufSize", UintegerValue(s.Bytes("tcp.receiveBuffer")));
            iwarp->SetTcpAttribute("MinRto", TimeValue(s.Duration("tcp.minRto")));
            iwarp->SetIwarpAttribute("Markers", BooleanValue(s.Bool("tcp.markers")));
            iwarp->SetIwarpAttribute("Crc", BooleanValue(s.Bool("tcp.crc")));
            iwarp->SetDefaultPriority(static_cast<uint8_t>(s.Int("tcp.priority")));
            m_ethernet = std::move(iwarp);
        }
        else
        {
            m_ethernet = std::make_unique<RoceTransport>(m_roce);
        }
        m_network = m_ethernet.get();
    }
    // Queue pairs: "auto" gives every message of the open-loop workloads its own (as the
    // published RDMA simulators do) and the collectives one connection per endpoint pair (as
    // NCCL and MPI keep theirs); any other value holds for every workload.
    QueuePairMapping mapping;
    if (!m_autoMapping)
    {
        QueuePairMapping::Parse(s.String("nic.queuePairs"), &mapping); // checked already
    }
    m_network->SetQueuePairMapping(mapping);
    m_hosts = m_fabric.GetNHosts();
    LimitOutstandingPackets();
    SetNsccBaseRtt(cc);
    ArmPfcFaults();
    if (m_rank == 0)
    {
        std::cerr << "interconnect-run: " << s.String("name") << ": " << m_fabric.Describe()
                  << std::endl;
        if (m_ranks > 1)
        {
            std::cerr << "interconnect-run: " << m_fabric.GetPartition().Describe() << std::endl;
        }
    }
    InstallSharp();
    m_collectives = std::make_unique<CollectiveHelper>(*m_network);
    m_collectives->SetInNetworkReduction(m_sharp.get());
    if (!m_autoMapping)
    {
        m_collectives->SetQueuePairMapping(mapping);
    }
    AddServers();
}

void
ScenarioRunner::AddServers()
{
    const Scenario& s = m_s;
    const uint32_t hosts = m_hosts;
    if (s.String("server.preset") == "none")
    {
        return;
    }
    // GPU servers: every `nics` consecutive hosts are the compute NICs of one server, whose GPUs
    // become the endpoints of the collectives and MoE layers.
    IntraHostParameters p = IntraHostHelper::Preset(s.String("server.preset"), "server.preset");
    p.gpuDirect = s.Bool("server.gpuDirect");
    p.nicRate = s.Rate("fabric.hostRate");
    if (s.Int("server.pcieGeneration") > 0)
    {
        p.pcieGeneration = static_cast<uint32_t>(s.Int("server.pcieGeneration"));
    }
    if (s.Int("server.nvlinksPerGpu") >= 0)
    {
        p.nvlinksPerGpu = static_cast<uint32_t>(s.Int("server.nvlinksPerGpu"));
    }
    const IntraHostServer first = IntraHostHelper::Build(p);
    std::vector<uint32_t> rails = first.railNic;
    std::sort(rails.begin(), rails.end());
    rails.erase(std::unique(rails.begin(), rails.end()), rails.end());
    m_nicsPerServer = static_cast<uint32_t>(rails.size());
    m_gpusPerServer = static_cast<uint32_t>(first.gpus.size());
    if (s.String("fabric.kind") == "rail-optimized" &&
        s.Int("fabric.nicsPerServer") != static_cast<int64_t>(m_nicsPerServer))
    {
        // Otherwise the fabric's servers and the preset's would not line up: hosts of one
        // fabric server would become NICs of two GPU servers.
        InterconnectConfigError("fabric.nicsPerServer",
                                std::to_string(s.Int("fabric.nicsPerServer")),
                                std::to_string(m_nicsPerServer) + ", the compute NICs of a " +
                                    s.String("server.preset") + " server (server.preset)");
    }
    if (hosts % m_nicsPerServer != 0)
    {
        InterconnectConfigError("server.preset",
                                s.String("server.preset"),
                                "a server whose " + std::to_string(m_nicsPerServer) +
                                    " compute NICs divide the fabric's " + std::to_string(hosts) +
                                    " hosts");
    }
    std::vector<IntraHostServer> servers;
    std::vector<std::vector<uint32_t>> nicHost;
    for (uint32_t sv = 0; sv < hosts / m_nicsPerServer; ++sv)
    {
        servers.push_back(sv == 0 ? first : IntraHostHelper::Build(p));
        nicHost.emplace_back();
        std::vector<DataRate> limit(m_nicsPerServer, p.nicRate);
        for (uint32_t g = 0; g < m_gpusPerServer; ++g)
        {
            const uint32_t k = static_cast<uint32_t>(
                std::lower_bound(rails.begin(), rails.end(), first.railNic[g]) - rails.begin());
            nicHost.back().push_back(sv * m_nicsPerServer + k);
            const DataRate r = IntraHostHelper::NicSendingRate(first, g, first.railNic[g]);
            limit[k] = std::min(limit[k], r);
        }
        for (uint32_t k = 0; k < m_nicsPerServer; ++k)
        {
            if (limit[k] < p.nicRate)
            {
                const uint32_t host = sv * m_nicsPerServer + k;
                Ptr<RdmaChannelAdapter> nic =
                    m_ib ? Ptr<RdmaChannelAdapter>(m_ib->GetSubnet().adapters[host])
                         : Ptr<RdmaChannelAdapter>(m_roce.GetNic(host));
                nic->SetAttribute("HostReadRate", DataRateValue(limit[k]));
            }
        }
    }
    std::cerr << "interconnect-run: " << servers.size() << " " << s.String("server.preset")
              << " servers, " << servers.size() * m_gpusPerServer << " GPUs (" << m_nicsPerServer
              << " NICs each, GPU-to-NIC "
              << IntraHostHelper::NicSendingRate(first, 0, first.railNic[0]).GetBitRate() / 1e9
              << " Gb/s" << (p.gpuDirect ? " with GPUDirect" : " staged") << ")" << std::endl;
    m_collectives->SetGpuServers(servers, nicHost);
}

std::vector<uint32_t>
ScenarioRunner::Group(const std::string& key) const
{
    // The group of a collective: hosts, or with GPU servers the GPUs of the servers of those
    // hosts.
    const Scenario& s = m_s;
    std::vector<uint32_t> g = FirstHosts(s.Int(key), m_hosts, key);
    if (m_nicsPerServer == 0)
    {
        return g;
    }
    if (g.size() % m_nicsPerServer != 0)
    {
        InterconnectConfigError(key,
                                std::to_string(s.Int(key)),
                                "0 or a multiple of the " + std::to_string(m_nicsPerServer) +
                                    " NICs of a server");
    }
    std::vector<uint32_t> gpus(g.size() / m_nicsPerServer * m_gpusPerServer);
    std::iota(gpus.begin(), gpus.end(), 0);
    return gpus;
}

void
ScenarioRunner::AddWorkloads()
{
    const Scenario& s = m_s;
    for (std::size_t i = 0; i < s.NumWorkloads(); ++i)
    {
        const std::string w = "workloads." + std::to_string(i) + ".";
        const std::string kind = s.String(w + "kind");
        const Time start = s.Duration(w + "start");
        if (start >= m_stop)
        {
            std::fprintf(stderr,
                         "warning: %sstart = %s is not before stopTime = %s: this workload "
                         "posts nothing\n",
                         w.c_str(),
                         s.String(w + "start").c_str(),
                         s.String("stopTime").c_str());
        }
        // The flows CSV names each flow's workload by its place in the list and its kind.
        m_network->SetWorkload(m_network->AddWorkload(std::to_string(i) + ":" + kind));
        const WorkloadContext context{s,
                                      w,
                                      *m_network,
                                      *m_collectives,
                                      m_hosts,
                                      start,
                                      m_stop,
                                      1000 + 10 * static_cast<int64_t>(i),
                                      [this](const std::string& key) { return Group(key); }};
        WorkloadKind::Find(kind)->Post(context); // a kind Scenario accepted
    }
}

void
ScenarioRunner::AddMonitors()
{
    const Scenario& s = m_s;
    const Time stop = m_stop;
    const uint32_t rank = m_rank;
    // Switch queues on the priority (Ethernet) or per VL (InfiniBand) the workloads use, PFC
    // frames, InfiniBand credit stalls, link bytes.
    m_monitors->ports = std::make_unique<PortRecorder>(s.Duration("output.queueInterval"),
                                                       s.String("output.queues"),
                                                       m_network->GetDefaultPriority());
    m_monitors->ports->Watch();
    m_monitors->ports->Start(stop);
    const Time deadlockCheck = s.Duration("output.deadlockCheck");
    if (deadlockCheck.IsStrictlyPositive() && !m_infiniband)
    {
        std::vector<Ptr<RoceSwitch>> switches;
        for (uint32_t i = 0; i < m_roce.GetSwitches().GetN(); ++i)
        {
            switches.push_back(m_roce.GetSwitch(i));
        }
        m_monitors->deadlocks = std::make_unique<PfcDeadlockMonitor>(switches);
        m_monitors->deadlocks->Start(deadlockCheck, stop);
    }
    m_monitors->progress = Progress{std::chrono::steady_clock::now(),
                                    std::chrono::steady_clock::now(),
                                    stop,
                                    stop / 1000};
    if (rank == 0)
    {
        Simulator::Schedule(m_monitors->progress.step, &ReportProgress, &m_monitors->progress);
    }
}

void
ScenarioRunner::PrepareOutputs()
{
    // The outputs must be writable before any simulated time is spent: create the directory
    // and write config.json (the resolved scenario itself, so that it can be run again) now.
    std::string error;
    const std::string dir = m_ranks > 1 ? m_out + "/ranks/" + std::to_string(m_rank) : m_out;
    if (!CreateOutputDirectory(dir, &error))
    {
        InterconnectConfigError("--out", m_out, "a directory that can be created (" + error + ")");
    }
    if (m_s.Bool("output.ccState"))
    {
        m_monitors->cc = std::make_unique<CongestionStateRecorder>(*m_network, dir + "/cc.csv");
    }
    if (m_rank == 0)
    {
        FILE* cf = OpenOutputFile(m_out + "/config.json");
        const std::string json = ResolvedConfiguration().dump(2) + "\n";
        std::fwrite(json.data(), 1, json.size(), cf);
        CloseOutputFile(cf, m_out + "/config.json");
    }
}

nlohmann::ordered_json
ScenarioRunner::ResolvedConfiguration() const
{
    // The defaults the objects get now that the network is built, however they were set.
    const std::map<std::string, std::string> used = AttributeDefaults::Changed();
    nlohmann::ordered_json config = m_s.Json();
    // What a rerun must set: the scenario's attributes and those set outside it that held;
    // NS_ATTRIBUTE_DEFAULT wins over an attributes entry, as it does in ns-3.
    std::map<std::string, std::string> replay;
    if (m_s.Has("attributes"))
    {
        for (auto it = m_s.At("attributes").begin(); it != m_s.At("attributes").end(); ++it)
        {
            replay[it.key()] = it.value().get<std::string>();
        }
    }
    // A program's Config::SetDefault before the run: recorded when it still holds (a preset,
    // a key or the scenario's attributes may have set the attribute since).
    const std::map<std::string, std::string> environment = AttributeDefaults::FromEnvironment();
    for (const auto& [name, value] : m_external)
    {
        const auto now = used.find(name);
        if (environment.count(name) == 0 && replay.count(name) == 0 && now != used.end() &&
            now->second == value)
        {
            replay[name] = value;
        }
    }
    // Every NS_ATTRIBUTE_DEFAULT entry, as the user wrote it: it wins over any default.
    for (const auto& [name, value] : environment)
    {
        const auto given = replay.find(name);
        if (given != replay.end() && m_rank == 0 &&
            AttributeDefaults::Normalized(name, given->second) !=
                AttributeDefaults::Normalized(name, value))
        {
            std::cerr << "interconnect-run: warning: NS_ATTRIBUTE_DEFAULT's " << name << "="
                      << value << " overrides the scenario's attributes." << name << " ("
                      << given->second << "), as ns-3 gives the environment precedence"
                      << std::endl;
        }
        replay[name] = value;
    }
    config.erase("attributes");
    if (!replay.empty())
    {
        config["attributes"] = replay;
    }
    nlohmann::ordered_json recorded = nlohmann::ordered_json::object();
    recorded["ns3Version"] = interconnect::Ns3Version();
    recorded["moduleCommit"] = interconnect::ModuleCommit();
    recorded["attributeDefaults"] = used;
    config["recorded"] = recorded;
    return config;
}

void
ScenarioRunner::Run()
{
    const Time stop = m_stop;
    // SIGINT or SIGTERM (Ctrl-C, a batch system's time limit) ends the run cleanly at the next
    // progress check: what was measured is written, marked partial, and the exit status says so.
    if (m_ranks == 1)
    {
        std::signal(SIGINT, &Interrupt);
        std::signal(SIGTERM, &Interrupt);
    }
    const auto wall0 = std::chrono::steady_clock::now();
    Simulator::Stop(stop);
    Simulator::Run();
    m_partial = g_interrupted != 0;
    if (m_partial)
    {
        std::fprintf(stderr,
                     "interconnect-run: interrupted (%s) at %.6f ms of %.6f simulated: writing "
                     "what was measured so far, marked partial\n",
                     g_interrupted == SIGINT ? "SIGINT" : "SIGTERM",
                     Simulator::Now().GetSeconds() * 1e3,
                     stop.GetSeconds() * 1e3);
    }
    m_wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
}

void
ScenarioRunner::WriteRecords()
{
    const uint32_t rank = m_rank;
    const uint32_t ranks = m_ranks;
    const std::string& out = m_out;
    [[maybe_unused]] const bool infiniband = m_infiniband; // (merging credits.csv)
    MessageTransport& network = *m_network;
    std::vector<FlowRecord>& flows = m_monitors->flows;
    TransportStatistics& st = m_monitors->st;
    uint64_t& events = m_monitors->events;
    // Outputs. Each rank writes its own nodes' records (all of them on one rank), then rank 0
    // merges the ranks' files.
    const std::string dir = ranks > 1 ? out + "/ranks/" + std::to_string(rank) : out;
    for (const auto& fl : network.GetFlows())
    {
        if (network.IsLocalHost(fl.src))
        {
            flows.push_back(fl);
        }
    }
    st = network.CollectStatistics();
    events = Simulator::GetEventCount();
    {
        std::string error;
        if (!CreateOutputDirectory(dir, &error))
        {
            InterconnectOutputError(dir, error);
        }
        if (!WriteFlowsCsv(dir + "/flows.csv", flows, network.GetWorkloadNames()))
        {
            InterconnectOutputError(dir + "/flows.csv", "the file could not be written");
        }
    }
    m_monitors->ports->Write(dir);
    if (m_monitors->cc)
    {
        m_monitors->cc->Close();
    }
    if (ranks > 1)
    {
#ifdef NS3_MPI
        if (!st.WriteJson(dir + "/counters.json", events))
        {
            InterconnectOutputError(dir + "/counters.json", "the file could not be written");
        }
        MPI_Barrier(MpiInterface::GetCommunicator());
        if (rank != 0)
        {
            return; // rank 0 merges
        }
        // Rank 0: the ranks' files into the usual ones, in the order one rank writes them.
        std::vector<std::string> parts(ranks);
        for (uint32_t r = 0; r < ranks; ++r)
        {
            parts[r] = out + "/ranks/" + std::to_string(r);
        }
        auto files = [&parts](const std::string& name) {
            std::vector<std::string> paths;
            for (const auto& p : parts)
            {
                paths.push_back(p + "/" + name);
            }
            return paths;
        };
        flows.clear();
        st = TransportStatistics();
        events = 0;
        std::string error;
        bool ok = true;
        std::vector<std::string> workloads = network.GetWorkloadNames();
        for (const auto& p : parts)
        {
            TransportStatistics part;
            uint64_t partEvents = 0;
            ok = ok && ReadFlowsCsv(p + "/flows.csv", &flows, &workloads, &error) &&
                 part.ReadJson(p + "/counters.json", &partEvents, &error);
            st += part;
            events += partEvents;
        }
        std::sort(flows.begin(), flows.end(), [](const FlowRecord& a, const FlowRecord& b) {
            return a.id < b.id;
        });
        // Queues are named n<node>p<port>.
        const RowKey queueKey = [](const std::vector<std::string>& c) {
            const std::string& q = c.at(1);
            const std::size_t port = q.find('p');
            return std::vector<int64_t>{std::stoll(c.at(0)),
                                        std::stoll(q.substr(1, port - 1)),
                                        std::stoll(q.substr(port + 1))};
        };
        ok = ok && WriteFlowsCsv(out + "/flows.csv", flows, workloads) &&
             MergeCsv(files("pfc.csv"), out + "/pfc.csv", Columns({0, 1}), &error) &&
             (!infiniband ||
              MergeCsv(files("credits.csv"), out + "/credits.csv", Columns({0, 1}), &error)) &&
             MergeCsv(files("links.csv"), out + "/links.csv", Columns({0, 1}), &error) &&
             MergeCsv(files("queue.csv"), out + "/queue.csv", queueKey, &error) &&
             (!m_monitors->cc ||
              MergeCsv(files("cc.csv"), out + "/cc.csv", Columns({0, 1, 2}), &error));
        if (!ok)
        {
            InterconnectOutputError(out, "merging the ranks' outputs: " + error);
        }
#endif
    }
    if (!m_collectives->WriteCsv(out + "/collectives.csv"))
    {
        InterconnectOutputError(out + "/collectives.csv", "the file could not be written");
    }
    WriteSummaries();
}

void
ScenarioRunner::WriteSummaries()
{
    const Scenario& s = m_s;
    const std::string& out = m_out;
    const uint32_t ranks = m_ranks;
    const Fabric& fabric = m_fabric;
    const bool partial = m_partial;
    const double wall = m_wall;
    const std::vector<FlowRecord>& flows = m_monitors->flows;
    const TransportStatistics& st = m_monitors->st;
    const uint64_t events = m_monitors->events;
    // summary.json: headline figures (deterministic), timing.json: wall time. Every figure of
    // flows comes from one FlowStatistics, which counts unfinished flows at their lower bound;
    // slowdown.csv carries the same per-bucket figures to the plots.
    std::vector<uint64_t> edges;
    for (const auto& e : s.At("output.sizeBuckets"))
    {
        edges.push_back(e.get<uint64_t>());
    }
    const Time end = Simulator::Now();
    m_monitors->end = end;
    m_monitors->stats = std::make_unique<FlowStatistics>(flows, end, edges);
    const FlowStatistics& stats = *m_monitors->stats;
    const SlowdownFigures& all = stats.GetOverall();
    if (!stats.WriteCsv(out + "/slowdown.csv"))
    {
        InterconnectOutputError(out + "/slowdown.csv", "the file could not be written");
    }
    FILE* f = OpenOutputFile(out + "/summary.json");
    std::fprintf(f, "{\n  \"name\": %s,\n", RunRecord::JsonQuote(s.String("name")).c_str());
    std::fprintf(f, "  \"fabric\": %s,\n", RunRecord::JsonQuote(fabric.Describe()).c_str());
    std::fprintf(f, "  \"queuePairs\": \"%s\",\n", s.String("nic.queuePairs").c_str());
    std::fprintf(f, "%s,\n", stats.ToJsonMembers("  ").c_str());
    {
        // Drops by cause, and per priority with the lossless ones named: "lossless" must be 0
        // (their frames are never dropped for buffer; headroomOverflows says if PFC was late).
        std::string byPriority;
        std::string lossless;
        uint64_t losslessDrops = 0;
        for (uint8_t p = 0; p < st.dropsByPriority.size(); ++p)
        {
            byPriority += (p ? ", " : "") + std::to_string(st.dropsByPriority[p]);
            if ((st.losslessPriorities >> p) & 1)
            {
                lossless += (lossless.empty() ? "" : ", ") + std::to_string(p);
                losslessDrops += st.dropsByPriority[p];
            }
        }
        std::fprintf(f,
                     "  \"drops\": {\"buffer\": %" PRIu64 ", \"noRoute\": %" PRIu64
                     ", \"notIpv4\": %" PRIu64 ", \"link\": %" PRIu64
                     ", \"byPriority\": [%s], \"losslessPriorities\": [%s], \"lossless\": %" PRIu64
                     "},\n",
                     st.dropsBuffer,
                     st.dropsNoRoute,
                     st.dropsNotIpv4,
                     st.dropsLink,
                     byPriority.c_str(),
                     lossless.c_str(),
                     losslessDrops);
    }
    std::fprintf(f, "  \"headroomOverflows\": %" PRIu64 ",\n", st.headroomOverflows);
    // What an operator watches of the switches' buffers: the most any switch held, and the most
    // headroom one (port, lossless priority) took, also as a share of what was reserved.
    std::fprintf(f,
                 "  \"buffer\": {\"peakBytes\": %" PRIu64 ", \"peakHeadroomBytes\": %" PRIu64
                 ", \"peakHeadroomPercent\": %.1f},\n",
                 st.peakBufferBytes,
                 st.peakHeadroomBytes,
                 st.peakHeadroomPermille / 10.0);
    // With output.deadlockCheck: the PFC deadlocks found while the run went.
    const std::string deadlocks =
        m_monitors->deadlocks
            ? ", \"deadlocks\": " + std::to_string(m_monitors->deadlocks->GetDeadlocks().size())
            : "";
    std::fprintf(f,
                 "  \"pfc\": {\"framesSent\": %" PRIu64 ", \"pausedTimeNs\": %" PRIu64
                 ", \"pausedPorts\": %" PRIu64 ", \"watchdogTrips\": %" PRIu64
                 ", \"watchdogDrops\": %" PRIu64 "%s},\n",
                 st.pfcSent,
                 st.pausedTimeNs,
                 st.pausedPorts,
                 st.watchdogTrips,
                 st.dropsWatchdog,
                 deadlocks.c_str());
    std::fprintf(f, "  \"creditStallNs\": %" PRIu64 ",\n", st.creditStallNs);
    if (m_sharp)
    {
        // SHARP's jobs, and what its switches held (only in runs that use it).
        uint64_t reductions = 0;
        uint64_t peakHeld = 0;
        uint64_t overflows = 0;
        uint64_t dropped = 0; // RoCE: frames an egress dropped (their jobs cannot complete)
        for (uint32_t i = 0; i < m_fabric.GetNSwitches(); ++i)
        {
            reductions += m_sharp->GetNode(i)->GetReductions();
            peakHeld = std::max(peakHeld, m_sharp->GetNode(i)->GetPeakHeld());
            overflows += m_sharp->GetNode(i)->GetOverflows();
            dropped += m_ib ? 0 : m_roce.GetSwitch(i)->GetAggregationDrops();
        }
        std::fprintf(f,
                     "  \"sharp\": {\"jobsStarted\": %" PRIu64 ", \"jobsCompleted\": %" PRIu64
                     ", \"jobsRefused\": %" PRIu64 ", \"fallbacksToRing\": %" PRIu64
                     ", \"chunksReduced\": %" PRIu64 ", \"peakHeldBytes\": %" PRIu64
                     ", \"overflows\": %" PRIu64 ", \"framesDropped\": %" PRIu64 "},\n",
                     m_sharp->GetJobsStarted(),
                     m_sharp->GetJobsCompleted(),
                     m_sharp->GetJobsRefused(),
                     m_collectives->GetInNetworkFallbacks(),
                     reductions,
                     peakHeld,
                     overflows,
                     dropped);
    }
    std::fprintf(f,
                 "  \"ecnMarks\": %" PRIu64 ",\n  \"cnps\": %" PRIu64
                 ",\n  \"retransmittedPackets\": %" PRIu64 ",\n  \"retransmittedBytes\": %" PRIu64
                 ",\n  \"spuriousRetransmissions\": %" PRIu64 ",\n  \"timeouts\": %" PRIu64
                 ",\n  \"naksReceived\": %" PRIu64 ",\n  \"trimmedPackets\": %" PRIu64 ",\n",
                 st.ecnMarks,
                 st.cnpsSent,
                 st.retransmitted,
                 st.retransmittedBytes,
                 st.spurious,
                 st.timeouts,
                 st.naks,
                 st.trimmed);
    std::fprintf(f,
                 "  \"packetHops\": %" PRIu64 ",\n  \"events\": %" PRIu64 ",\n",
                 st.packetHops,
                 events);
    std::fprintf(f,
                 "  \"simulatedNs\": %" PRId64 ",\n  \"partial\": %s\n}\n",
                 Simulator::Now().GetNanoSeconds(),
                 partial ? "true" : "false");
    CloseOutputFile(f, out + "/summary.json");
    // summary.csv: the same headline figures as one CSV row, for sweeps to stack into a table.
    // Collective phases: a phase still running counts at its lower bound, max(time so far,
    // lower bound) over the lower bound, as unfinished flows do.
    double worstPhase = 0;
    uint64_t& phasesDone = m_monitors->phasesDone;
    uint64_t phasesUnfinished = 0;
    for (const auto& r : m_collectives->GetRecords())
    {
        if (!r.lowerBound.IsStrictlyPositive())
        {
            continue;
        }
        if (r.end.IsZero())
        {
            ++phasesUnfinished;
        }
        else
        {
            ++phasesDone;
        }
        const Time taken = r.end.IsZero() ? std::max(end - r.start, r.lowerBound) : r.end - r.start;
        worstPhase = std::max(worstPhase, taken.GetDouble() / r.lowerBound.GetDouble());
    }
    // The collectives' span, from the first one's start to the last one's end: an all-reduce's
    // or an iteration's time, for sweeps to plot (empty without collectives or with one
    // unfinished: it is then not known).
    std::string collectiveSpan;
    if (!m_collectives->GetRecords().empty())
    {
        Time first = Time::Max();
        Time last;
        bool finished = true;
        for (const auto& r : m_collectives->GetRecords())
        {
            first = std::min(first, r.start);
            last = std::max(last, r.end);
            finished = finished && !r.end.IsZero();
        }
        collectiveSpan = finished ? std::to_string((last - first).GetNanoSeconds()) : "";
    }
    // A percentile, or n/a when no flow started.
    auto figure = [&all](double v) {
        char text[32];
        std::snprintf(text, sizeof(text), "%.4f", v);
        return all.HasFigures() ? std::string(text) : std::string("n/a");
    };
    f = OpenOutputFile(out + "/summary.csv");
    std::fprintf(f,
                 "name,seed,run,flows_posted,flows_completed,flows_unfinished,slowdown_p50,"
                 "slowdown_p95,"
                 "slowdown_p99,collective_phases,collective_phases_unfinished,"
                 "collective_ratio_max,drops,pfc_frames,"
                 "paused_ns,ecn_marks,cnps,retransmitted,retransmitted_bytes,packet_hops,events,"
                 "simulated_ns,spurious_retransmissions,timeouts,trimmed,watchdog_trips,"
                 "collective_time_ns\n");
    std::fprintf(f,
                 "%s,%" PRId64 ",%" PRId64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%s,%s,%s,%" PRIu64
                 ",%" PRIu64 ",%.4f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
                 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRId64 ",%" PRIu64 ",%" PRIu64
                 ",%" PRIu64 ",%" PRIu64 ",%s\n",
                 CsvQuote(s.String("name")).c_str(),
                 s.Int("seed"),
                 s.Int("run"),
                 all.posted,
                 all.completed,
                 all.unfinished,
                 figure(all.p50).c_str(),
                 figure(all.p95).c_str(),
                 figure(all.p99).c_str(),
                 phasesDone,
                 phasesUnfinished,
                 worstPhase,
                 st.dropsBuffer + st.dropsNoRoute + st.dropsNotIpv4 + st.dropsLink +
                     st.dropsWatchdog,
                 st.pfcSent,
                 st.pausedTimeNs,
                 st.ecnMarks,
                 st.cnpsSent,
                 st.retransmitted,
                 st.retransmittedBytes,
                 st.packetHops,
                 events,
                 Simulator::Now().GetNanoSeconds(),
                 st.spurious,
                 st.timeouts,
                 st.trimmed,
                 st.watchdogTrips,
                 collectiveSpan.c_str());
    CloseOutputFile(f, out + "/summary.csv");
    f = OpenOutputFile(out + "/timing.json");
    struct rusage usage = {};
    getrusage(RUSAGE_SELF, &usage);
    std::fprintf(f,
                 "{\n  \"wallSeconds\": %.3f,\n  \"eventsPerSecond\": %.0f,\n  "
                 "\"packetHopsPerSecond\": %.0f,\n  \"ranks\": %u,\n  \"lookaheadNs\": %" PRId64
                 ",\n  \"peakRssMB\": %.1f,\n  \"hugePagesMB\": %.1f,\n  \"machine\": %s\n}\n",
                 wall,
                 events / std::max(wall, 1e-9),
                 st.packetHops / std::max(wall, 1e-9),
                 ranks,
                 fabric.GetPartition().lookahead.GetNanoSeconds(),
                 usage.ru_maxrss / 1024.0,
                 HugePagesMegabytes(),
                 RunRecord::JsonQuote(interconnect::MachineDescription()).c_str());
    CloseOutputFile(f, out + "/timing.json");
}

int
ScenarioRunner::Report(const std::string& plotScript)
{
    Simulator::Destroy();
#ifdef NS3_MPI
    if (m_ranks > 1)
    {
        MpiInterface::Disable();
    }
#endif
    if (m_rank != 0)
    {
        return 0; // rank 0 reports
    }
    const Scenario& s = m_s;
    const std::string& out = m_out;
    const double wall = m_wall;
    const FlowStatistics& stats = *m_monitors->stats;
    const SlowdownFigures& all = stats.GetOverall();
    const uint64_t phasesDone = m_monitors->phasesDone;
    const Time end = m_monitors->end;
    // A percentile, or n/a when no flow started.
    auto figure = [&all](double v) {
        char text[32];
        std::snprintf(text, sizeof(text), "%.4f", v);
        return all.HasFigures() ? std::string(text) : std::string("n/a");
    };
    std::printf("interconnect-run: %s: %" PRIu64 "/%" PRIu64
                " flows completed, FCT slowdown p50 %s p99 %s (unfinished flows at their lower "
                "bound); %zu/%zu collective phases completed\n%s",
                s.String("name").c_str(),
                all.completed,
                all.posted,
                figure(all.p50).c_str(),
                figure(all.p99).c_str(),
                static_cast<std::size_t>(phasesDone),
                m_collectives->GetRecords().size(),
                all.posted ? stats.Report().c_str() : "");
    if (m_monitors->deadlocks)
    {
        for (const auto& d : m_monitors->deadlocks->GetDeadlocks())
        {
            std::string cycle;
            for (const std::string& channel : d.cycle)
            {
                cycle += (cycle.empty() ? "" : "; ") + channel;
            }
            std::fprintf(stderr,
                         "warning: PFC deadlock found at %.3f us: %zu paused queues wait for "
                         "each other: %s\n",
                         d.time.ToDouble(Time::US),
                         d.cycle.size(),
                         cycle.c_str());
        }
    }
    if (all.posted > 0 && (all.posted - all.completed) * 100 > all.posted)
    {
        std::fprintf(stderr,
                     "warning: %" PRIu64 " of %" PRIu64 " flows (%.1f%%) did not complete by "
                     "the end of the run at %.6f ms (%" PRIu64 " of them never started): the "
                     "slowdown percentiles count each started one at its lower bound (time so "
                     "far over its ideal FCT); slowdown.csv lists them per size bucket\n",
                     all.posted - all.completed,
                     all.posted,
                     100.0 * (all.posted - all.completed) / all.posted,
                     end.GetSeconds() * 1e3,
                     all.notStarted);
    }
    if (all.posted == 0 && m_collectives->GetRecords().empty())
    {
        std::fprintf(stderr,
                     "warning: no workload posted a message before the end of the run: "
                     "nothing was measured\n");
    }
    std::printf("  wrote %s/ (config.json, flows.csv, slowdown.csv, collectives.csv, queue.csv, "
                "pfc.csv, %slinks.csv, %ssummary.json, summary.csv, timing.json) in %.1f s\n",
                out.c_str(),
                m_infiniband ? "credits.csv, " : "",
                s.Bool("output.ccState") ? "cc.csv, " : "",
                wall);
    std::fflush(stdout);
    if (s.Bool("output.plots") && !plotScript.empty())
    {
        // An argument vector, never a shell: the output directory is data, not a command.
        const int status = RunProgram({"bash", plotScript, out}, true);
        if (status != 0)
        {
            std::cerr << "warning: the plot step (scripts/plot-run.sh) "
                      << (status == 127 ? "could not be started (is bash installed?)"
                                        : "failed with status " + std::to_string(status) +
                                              " (its message is above)")
                      << "; the CSVs are complete" << std::endl;
        }
    }
    return m_partial ? 128 + static_cast<int>(g_interrupted) : 0;
}

} // namespace ns3
