/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The trace sources as an ns-3 user reaches them, by Config path: every path of the manual's
// table resolves, on a network the runner built, to objects that have its trace source (as
// Config::Connect resolves it); a sink on a queue pair's
// Rate sees the rate changes cc.csv records; DCQCN's Alpha and TargetRate, HPCC's U and IB
// congestion control's CctIndex move as their algorithms act; a port's QueueBytes ends where
// its queue is and its EgressPaused intervals sum to the pause time it reports.

#include "ns3/config.h"
#include "ns3/core-module.h"
#include "ns3/interconnect-module.h"

#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <map>
#include <regex>
#include <set>
#include <sstream>

using namespace ns3;

namespace
{

const char* INCAST = R"({"stopTime": "1ms", "output": {"plots": false, "ccState": true},
    "link": {"mtu": 4096, "linkMtu": 4200},
    "switch": {"bufferSize": "2MB"},
    "ib": {"fecnThreshold": "32KB"},
    "fabric": {"kind": "spine-leaf", "leaves": 2, "spines": 1, "hostsPerLeaf": 4},
    "workloads": [{"kind": "incast", "fanIn": 7, "size": "256KB", "destination": 0}]})";

/// A run of the incast through the runner's steps, with the test's sinks connected once the
/// queue pairs exist (after the workloads are posted).
class TracedRun
{
  public:
    TracedRun(const std::vector<std::string>& sets, const std::string& name)
        : m_dir(std::string(::testing::TempDir()) + "/trace-paths-" + name),
          m_runner(Scenario::Parse(INCAST, name + ".json", sets),
                   (std::filesystem::remove_all(m_dir), m_dir))
    {
        m_runner.Start(nullptr, nullptr);
        m_runner.BuildNetwork();
        m_runner.AddWorkloads();
        m_runner.AddMonitors();
        m_runner.PrepareOutputs();
    }

    /// Run to the stop time, then `atEnd` (the network still there), then the records.
    void Finish(const std::function<void()>& atEnd = {})
    {
        m_runner.Run();
        if (atEnd)
        {
            atEnd();
        }
        m_runner.WriteRecords();
        EXPECT_EQ(m_runner.Report(""), 0);
    }

    ~TracedRun()
    {
        Simulator::Destroy();
    }

    std::string m_dir;       //!< output directory
    ScenarioRunner m_runner; //!< the runner
};

/// @return the objects a path to a trace source matches now that have that trace source (as
///         Config::Connect resolves it: the objects of the path, then the source by name)
std::size_t
Matches(const std::string& path)
{
    const std::size_t split = path.rfind('/');
    const std::string source = path.substr(split + 1);
    const Config::MatchContainer m = Config::LookupMatches(path.substr(0, split));
    std::size_t n = 0;
    for (std::size_t i = 0; i < m.GetN(); ++i)
    {
        n += m.Get(i)->GetInstanceTypeId().LookupTraceSourceByName(source) != nullptr;
    }
    return n;
}

/// The Config paths of the manual's trace table (doc/interconnect.rst, between its markers).
std::vector<std::string>
DocumentedPaths()
{
    std::ifstream in(std::string(INTERCONNECT_SOURCE_DIR) + "/doc/interconnect.rst");
    std::string line;
    bool inTable = false;
    std::vector<std::string> paths;
    const std::regex path("``(/NodeList/[^`]+)``");
    while (std::getline(in, line))
    {
        inTable = inTable ? line != ".. trace-paths-end" : line == ".. trace-paths-begin";
        std::smatch m;
        if (inTable && std::regex_search(line, m, path))
        {
            paths.push_back(m[1]);
        }
    }
    return paths;
}

/// Call `f(path, port)` for every PfcNetDevice, its Config path without a trailing '/'.
void
ForEachPort(const std::function<void(const std::string&, Ptr<PfcNetDevice>)>& f)
{
    const Config::MatchContainer m =
        Config::LookupMatches("/NodeList/*/DeviceList/*/$ns3::PfcNetDevice");
    for (std::size_t i = 0; i < m.GetN(); ++i)
    {
        const std::string path = m.GetMatchedPath(i);
        f(path.substr(0, path.find_last_not_of('/') + 1), DynamicCast<PfcNetDevice>(m.Get(i)));
    }
}

/// Rate changes per (node, QPN), from a Config context ".../NodeList/N/.../QueuePairList/Q/Rate".
struct RateSink
{
    std::map<std::pair<uint32_t, uint32_t>, std::vector<uint64_t>> rates;

    void Changed(std::string context, DataRate, DataRate now)
    {
        static const std::regex ids("/NodeList/([0-9]+)/.*/QueuePairList/([0-9]+)/");
        std::smatch m;
        ASSERT_TRUE(std::regex_search(context, m, ids)) << context;
        rates[{std::stoul(m[1]), std::stoul(m[2])}].push_back(now.GetBitRate());
    }
};

} // namespace

TEST(TracePaths, EveryDocumentedPathConnects)
{
    const std::vector<std::string> paths = DocumentedPaths();
    ASSERT_GE(paths.size(), 10U) << "the manual's trace table was not found";
    // Each path matches objects on the technology it names: RoCEv2 with DCQCN, HPCC, or
    // InfiniBand with IB congestion control.
    const std::vector<std::pair<std::string, std::vector<std::string>>> networks = {
        {"roce-dcqcn", {"nic.cc=dcqcn"}},
        {"roce-hpcc", {"nic.cc=hpcc"}},
        {"ib", {"link.technology=infiniband", "nic.cc=ib-cc"}}};
    std::set<std::string> connected;
    for (const auto& [name, sets] : networks)
    {
        TracedRun run(sets, "all-" + name);
        for (const std::string& path : paths)
        {
            if (Matches(path) > 0)
            {
                connected.insert(path);
            }
        }
    }
    for (const std::string& path : paths)
    {
        EXPECT_EQ(connected.count(path), 1U) << path << " matches nothing on any network";
    }
}

TEST(TracePaths, ARateSinkSeesWhatCcCsvRecords)
{
    TracedRun run({"nic.cc=dcqcn"}, "rate");
    RateSink sink;
    const std::string path = "/NodeList/*/$ns3::RdmaNic/QueuePairList/*/Rate";
    ASSERT_GE(Matches(path), 7U);
    Config::Connect(path, MakeCallback(&RateSink::Changed, &sink));
    uint64_t alphaChanges = 0;
    double minAlpha = 1;
    Config::ConnectWithoutContext(
        "/NodeList/*/$ns3::RdmaNic/QueuePairList/*/CongestionControl/"
        "$ns3::DcqcnCongestionControl/Alpha",
        MakeCallback(+[](uint64_t* n, double* lowest, double, double now) {
            ++*n;
            *lowest = std::min(*lowest, now);
        }).Bind(&alphaChanges, &minAlpha));
    run.Finish();
    // cc.csv: a row at every change of rate, window or gap; its rate changes are the trace's.
    std::ifstream in(run.m_dir + "/cc.csv");
    std::string line;
    std::getline(in, line);
    std::map<std::pair<uint32_t, uint32_t>, std::vector<uint64_t>> recorded;
    while (std::getline(in, line))
    {
        std::replace(line.begin(), line.end(), ',', ' ');
        std::istringstream cells(line);
        uint64_t ns;
        uint32_t host;
        uint32_t qp;
        uint64_t rate;
        cells >> ns >> host >> qp >> rate;
        auto& seq = recorded[{host, qp}];
        if (seq.empty() || seq.back() != rate)
        {
            seq.push_back(rate);
        }
    }
    ASSERT_FALSE(recorded.empty());
    uint64_t changes = 0;
    for (const auto& [key, seq] : recorded)
    {
        // (cc.csv starts with the line rate a queue pair starts at; the trace with its first
        // change from the rate it had before.)
        auto traced = sink.rates[key];
        ASSERT_FALSE(traced.empty()) << "host " << key.first << " QP " << key.second;
        std::vector<uint64_t> t;
        for (uint64_t r : traced)
        {
            if (t.empty() || t.back() != r)
            {
                t.push_back(r);
            }
        }
        EXPECT_EQ(std::vector<uint64_t>(seq.end() - std::min(seq.size(), t.size()), seq.end()), t)
            << "host " << key.first << " QP " << key.second;
        changes += t.size();
    }
    EXPECT_GT(changes, 20U);
    EXPECT_GT(alphaChanges, 7U);
    EXPECT_LT(minAlpha, 1.0);
}

TEST(TracePaths, QueueBytesAndPauseTraceWhatThePortsReport)
{
    TracedRun run({"nic.cc=none"}, "ports");
    std::map<std::string, std::array<uint32_t, 8>> current;
    std::map<std::string, std::array<int64_t, 8>> pausedNs;
    std::map<std::string, std::array<int64_t, 8>> pausedSince;
    uint32_t peak = 0;
    Config::Connect("/NodeList/*/DeviceList/*/$ns3::PfcNetDevice/QueueBytes",
                    MakeCallback(+[](decltype(current)* c,
                                     uint32_t* top,
                                     std::string context,
                                     uint8_t priority,
                                     uint32_t bytes) {
                        (*c)[context.substr(0, context.rfind('/'))][priority] = bytes;
                        *top = std::max(*top, bytes);
                    }).Bind(&current, &peak));
    Config::Connect("/NodeList/*/DeviceList/*/$ns3::PfcNetDevice/EgressPaused",
                    MakeCallback(+[](decltype(pausedNs)* total,
                                     decltype(pausedSince)* since,
                                     std::string context,
                                     uint8_t priority,
                                     bool paused) {
                        const std::string port = context.substr(0, context.rfind('/'));
                        const int64_t now = Simulator::Now().GetNanoSeconds();
                        if (paused)
                        {
                            (*since)[port][priority] = now;
                        }
                        else
                        {
                            (*total)[port][priority] += now - (*since)[port][priority];
                        }
                    }).Bind(&pausedNs, &pausedSince));
    // Every 20 us, the traced queues are the ports' queues (GetQueueBytes, what queue.csv samples).
    uint64_t checked = 0;
    uint64_t nonEmpty = 0;
    std::function<void()> check = [&]() {
        ForEachPort([&](const std::string& port, Ptr<PfcNetDevice> d) {
            for (uint8_t p = 0; p < 8; ++p)
            {
                EXPECT_EQ(current[port][p], d->GetQueueBytes(p)) << port << " priority " << +p;
                ++checked;
                nonEmpty += d->GetQueueBytes(p) > 0;
            }
        });
        Simulator::Schedule(MicroSeconds(20), check);
    };
    Simulator::Schedule(MicroSeconds(20), check);
    uint32_t ports = 0;
    int64_t paused = 0;
    run.Finish([&]() {
        // At the end every port's queues are where the trace left them, and the pause time it
        // reports is the sum of the traced intervals (pauses still running at the end excepted).
        ForEachPort([&](const std::string& port, Ptr<PfcNetDevice> d) {
            for (uint8_t p = 0; p < 8; ++p)
            {
                EXPECT_EQ(current[port][p], d->GetQueueBytes(p)) << port << " priority " << +p;
                if (!d->IsEgressPaused(p))
                {
                    EXPECT_EQ(pausedNs[port][p], d->GetEgressPausedTime(p).GetNanoSeconds())
                        << port << " priority " << +p;
                    paused += pausedNs[port][p];
                }
            }
            ++ports;
        });
    });
    EXPECT_GT(peak, 100000U) << "the incast's queue";
    EXPECT_GT(checked, 1000U);
    EXPECT_GT(nonEmpty, 20U);
    EXPECT_GT(ports, 10U);
    EXPECT_GT(paused, 0) << "the incast without congestion control pauses";
}

TEST(TracePaths, HpccUAndIbCctIndexMove)
{
    double maxU = 0;
    {
        TracedRun run({"nic.cc=hpcc"}, "hpcc");
        Config::ConnectWithoutContext("/NodeList/*/$ns3::RdmaNic/QueuePairList/*/CongestionControl/"
                                      "$ns3::HpccCongestionControl/U",
                                      MakeCallback(+[](double* top, double, double u) {
                                          *top = std::max(*top, u);
                                      }).Bind(&maxU));
        run.Finish();
    }
    EXPECT_GT(maxU, 0.5) << "seven senders into one link: the busiest hop's U";
    uint32_t maxIndex = 0;
    {
        TracedRun run({"link.technology=infiniband", "nic.cc=ib-cc"}, "ib");
        Config::ConnectWithoutContext(
            "/NodeList/*/$ns3::IbHostAdapter/QueuePairList/*/CongestionControl/"
            "$ns3::IbCongestionControl/CctIndex",
            MakeCallback(+[](uint32_t* top, uint32_t, uint32_t i) {
                *top = std::max(*top, i);
            }).Bind(&maxIndex));
        run.Finish();
    }
    EXPECT_GT(maxIndex, 0U) << "FECN marks raise the CCT index";
}
