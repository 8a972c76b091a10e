/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PFC deadlocks found while simulating: on a 4x4 torus without the dateline, traffic two hops
// along every row closes each row ring's pauses into a cycle (deadlock-check-test.cc's
// WhatTheCheckPredictsHappens), which the monitor reports with its four links; with the
// dateline, and in an incast whose pauses spread up a fat-tree without a cycle, it reports none.

#include "run-scenario-test.h"

#include "ns3/core-module.h"
#include "ns3/pfc-deadlock-monitor.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-transport.h"
#include "ns3/torus-helper.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// @return the deadlocks found on the torus, with or without the dateline
std::vector<PfcDeadlockMonitor::Deadlock>
TorusDeadlocks(bool dateline, uint32_t* completed)
{
    RoceHelper roce;
    roce.SetMmuAttribute("BufferSize", UintegerValue(1000000));
    TorusHelper torus({4, 4});
    torus.SetDateline(dateline);
    const Fabric f = roce.Build(torus);
    RoceTransport rdma(roce);
    for (uint32_t h = 0; h < 16; ++h)
    {
        rdma.Post(h, (h % 4 + 2) % 4 + h / 4 * 4, RdmaVerb::WRITE, 1000000, Time(0), 3);
    }
    std::vector<Ptr<RoceSwitch>> switches;
    for (uint32_t s = 0; s < f.GetNSwitches(); ++s)
    {
        switches.push_back(roce.GetSwitch(s));
    }
    PfcDeadlockMonitor monitor(switches);
    monitor.Start(MicroSeconds(100), MilliSeconds(5));
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    *completed = rdma.CollectStatistics().messagesCompleted;
    const auto found = monitor.GetDeadlocks();
    Simulator::Destroy();
    return found;
}

} // namespace

TEST(PfcDeadlockMonitor, FindsEachRowRingsCycleWithoutTheDateline)
{
    uint32_t completed = 0;
    const auto found = TorusDeadlocks(false, &completed);
    EXPECT_EQ(completed, 0u); // it is a deadlock: nothing moves
    ASSERT_GE(found.size(), 1u);
    EXPECT_LE(found.size(), 4u); // one per row ring at most
    for (const auto& d : found)
    {
        EXPECT_EQ(d.cycle.size(), 4u) << d.cycle[0]; // the ring's four links, one way
        EXPECT_GT(d.time, MicroSeconds(100));        // held since the check before
        EXPECT_LT(d.time, MilliSeconds(5));
    }
    // Reported once each, however long it lasts.
    std::set<std::vector<std::string>> distinct;
    for (const auto& d : found)
    {
        distinct.insert(d.cycle);
    }
    EXPECT_EQ(distinct.size(), found.size());
}

TEST(PfcDeadlockMonitor, FindsNoneWithTheDateline)
{
    uint32_t completed = 0;
    EXPECT_TRUE(TorusDeadlocks(true, &completed).empty());
    EXPECT_EQ(completed, 16u);
}

TEST(PfcDeadlockMonitor, PausesBothWaysOnALinkAreNoCycleWhenHostsFillTheQueues)
{
    // Two switches, three hosts each; an incast into a host of each side across the link:
    // each switch pauses the other, and both link queues hold frames, but frames that came
    // from hosts, which wait for nothing paused: no cycle (and everything completes).
    RoceHelper roce;
    roce.SetNicAttribute("CongestionControl", StringValue("none"));
    roce.SetMmuAttribute("BufferSize", UintegerValue(600000));
    Ptr<Node> h[6];
    for (auto& n : h)
    {
        n = roce.AddHost();
    }
    Ptr<Node> s0 = roce.AddSwitch();
    Ptr<Node> s1 = roce.AddSwitch();
    for (int i : {0, 1, 4})
    {
        roce.Link(h[i], s0);
    }
    for (int i : {2, 3, 5})
    {
        roce.Link(h[i], s1);
    }
    roce.Link(s0, s1);
    roce.Finalize();
    RoceTransport rdma(roce);
    for (auto [src, dst] : {std::pair{0, 2}, {5, 2}, {3, 1}, {4, 1}})
    {
        rdma.Post(src, dst, RdmaVerb::WRITE, 4000000, Time(0), 3);
    }
    PfcDeadlockMonitor monitor({roce.GetSwitch(0), roce.GetSwitch(1)});
    monitor.Start(NanoSeconds(500), MilliSeconds(3)); // often: a pause held between two checks
    uint32_t bothWays = 0; // checks that saw both link queues paused and holding frames
    std::function<void()> look = [&]() {
        bool both = true;
        for (uint32_t sw : {0u, 1u})
        {
            Ptr<PfcNetDevice> link = roce.GetSwitch(sw)->GetPort(3);
            both = both && link->IsEgressPaused(3) && link->GetQueueBytes(3) > 0;
        }
        bothWays += both ? 1 : 0;
        Simulator::Schedule(MicroSeconds(10), look);
    };
    Simulator::Schedule(MicroSeconds(5), look);
    Simulator::Stop(MilliSeconds(3));
    Simulator::Run();
    EXPECT_GT(bothWays, 10u); // the situation the test is about did arise
    EXPECT_TRUE(monitor.GetDeadlocks().empty());
    EXPECT_EQ(rdma.CollectStatistics().messagesCompleted, 4u);
    Simulator::Destroy();
}

TEST(PfcDeadlockMonitor, AnIncastsSpreadingPausesAreNoDeadlock)
{
    // 15 hosts into one, no congestion control: pauses go up the fat-tree and stay for
    // hundreds of microseconds, but they form a tree, not a cycle.
    const char* const incast = R"({
      "name": "incast-deadlock-check",
      "stopTime": "3ms",
      "fabric": {"kind": "fat-tree", "k": 4},
      "switch": {"bufferSize": "2MB"},
      "nic": {"cc": "none"},
      "workloads": [{"kind": "incast", "fanIn": 15, "size": "256KB", "destination": 0,
                     "rounds": 4, "period": "300us"}],
      "output": {"queues": "none", "deadlockCheck": "20us"}
    })";
    const ScenarioRunRecords r = RunScenario(incast, {}, "incast-deadlock-check");
    const nlohmann::json s = ReadSummary(r);
    EXPECT_GT(s["pfc"]["pausedTimeNs"].get<uint64_t>(), 0u);
    EXPECT_EQ(s["pfc"]["deadlocks"].get<uint64_t>(), 0u);
}
