/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// cc.csv, the congestion-control record, on every link technology: a 7-to-1 incast makes each
// algorithm act (DCQCN cuts rates on RoCEv2, IB CC spaces packets, TCP's window moves under
// iWARP), and every row names a flow's connection; without congestion control there is none.

#include "run-scenario-test.h"

#include "ns3/core-module.h"
#include "ns3/interconnect-module.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <set>
#include <sstream>

using namespace ns3;

namespace
{

/// One row of cc.csv.
struct Row
{
    int64_t ns;
    uint32_t host;
    uint32_t qp;
    uint64_t rate;
    uint64_t window;
    int64_t gap;
};

/// Run the incast with output.ccState on; return cc.csv's rows and the flows.
std::pair<std::vector<Row>, std::vector<FlowRecord>>
RunIncast(const std::string& name, const std::vector<std::string>& sets)
{
    std::vector<std::string> all = {"output.ccState=true"};
    all.insert(all.end(), sets.begin(), sets.end());
    const ScenarioRunRecords run = RunScenario(
        R"({"stopTime": "1ms", "output": {"plots": false},
            "link": {"mtu": 4096, "linkMtu": 4200},
            "switch": {"bufferSize": "2MB"},
            "ib": {"fecnThreshold": "32KB"},
            "fabric": {"kind": "spine-leaf", "leaves": 2, "spines": 1, "hostsPerLeaf": 4},
            "workloads": [{"kind": "incast", "fanIn": 7, "size": "256KB", "destination": 0}]})",
        all,
        "cc-state-" + name);
    std::ifstream in(run.dir + "/cc.csv");
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "time_ns,host,queue_pair,rate_bps,window_bytes,gap_ns");
    std::vector<Row> rows;
    while (std::getline(in, line))
    {
        std::replace(line.begin(), line.end(), ',', ' ');
        std::istringstream cells(line);
        Row r{};
        cells >> r.ns >> r.host >> r.qp >> r.rate >> r.window >> r.gap;
        EXPECT_FALSE(cells.fail()) << line;
        rows.push_back(r);
    }
    return {rows, run.flows};
}

/// Every row is a flow's connection at its source, in time order.
void
ExpectRowsOfTheFlows(const std::vector<Row>& rows, const std::vector<FlowRecord>& flows)
{
    std::set<std::pair<uint32_t, uint32_t>> connections;
    for (const auto& f : flows)
    {
        connections.emplace(f.src, f.queuePair);
    }
    std::set<std::pair<uint32_t, uint32_t>> seen;
    for (std::size_t i = 0; i < rows.size(); ++i)
    {
        EXPECT_TRUE(connections.count({rows[i].host, rows[i].qp}))
            << "host " << rows[i].host << " connection " << rows[i].qp << " posted no flow";
        EXPECT_LE(rows[i].rate, 100000000000u);
        if (i > 0)
        {
            EXPECT_GE(rows[i].ns, rows[i - 1].ns);
        }
        seen.emplace(rows[i].host, rows[i].qp);
    }
    EXPECT_EQ(seen.size(), connections.size()) << "every sender's congestion control acted";
}

} // namespace

TEST(CongestionStateRecorder, DcqcnCutsTheIncastSendersRatesOnRoce)
{
    const auto [rows, flows] = RunIncast("roce", {"nic.cc=dcqcn"});
    ASSERT_EQ(flows.size(), 7u);
    ExpectRowsOfTheFlows(rows, flows);
    uint64_t lowest = UINT64_MAX;
    for (const Row& r : rows)
    {
        lowest = std::min(lowest, r.rate);
        EXPECT_EQ(r.window, 0u);
        EXPECT_EQ(r.gap, 0);
    }
    // Seven senders into one 100 Gb/s link: DCQCN's first cut halves the rate (alpha = 1), and
    // the CNPs keep coming while the queue stands.
    EXPECT_LE(lowest, 50000000000u);
}

TEST(CongestionStateRecorder, IbCongestionControlSpacesTheIncastSendersPackets)
{
    const auto [rows, flows] = RunIncast("infiniband", {"link.technology=infiniband"});
    ASSERT_EQ(flows.size(), 7u);
    ExpectRowsOfTheFlows(rows, flows);
    int64_t widest = 0;
    for (const Row& r : rows)
    {
        widest = std::max(widest, r.gap);
        EXPECT_EQ(r.rate, 100000000000u) << "IB CC acts by the gap, not the rate";
    }
    EXPECT_GT(widest, 0);
}

TEST(CongestionStateRecorder, TcpWindowsMoveUnderIwarp)
{
    const auto [rows, flows] = RunIncast("iwarp", {"link.technology=iwarp"});
    ASSERT_EQ(flows.size(), 7u);
    ExpectRowsOfTheFlows(rows, flows);
    uint64_t smallest = UINT64_MAX;
    uint64_t largest = 0;
    for (const Row& r : rows)
    {
        EXPECT_EQ(r.rate, 0u);
        smallest = std::min(smallest, r.window);
        largest = std::max(largest, r.window);
    }
    EXPECT_GT(largest, smallest) << "the window grew or was cut";
}

TEST(CongestionStateRecorder, WithoutCongestionControlNothingChanges)
{
    const auto [rows, flows] = RunIncast("none", {"nic.cc=none"});
    ASSERT_EQ(flows.size(), 7u);
    EXPECT_TRUE(rows.empty()) << rows.size() << " rows";
}
