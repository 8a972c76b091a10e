/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// DeadlockCheck: the channel-dependency graph of the installed routes has the cycles of every
// torus ring without the dateline rule and none with it, none in Clos fabrics with shortest
// (up/down) routes; a hand-made one-way ring is found with its links; a dateline torus carries
// traffic to completion with frames moved to the second priority.

#include "ns3/core-module.h"
#include "ns3/deadlock-check.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/rail-optimized-helper.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-transport.h"
#include "ns3/spine-leaf-helper.h"
#include "ns3/three-tier-helper.h"
#include "ns3/torus-helper.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

class DeadlockCheckTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }
};

/// Build a torus and check it.
DeadlockCheck
CheckTorus(const std::vector<uint32_t>& dims, bool dateline, Fabric* out = nullptr)
{
    RoceHelper roce;
    TorusHelper torus(dims);
    torus.SetDateline(dateline);
    Fabric f = roce.Build(torus);
    DeadlockCheck check = DeadlockCheck::ForFabric(f);
    if (out)
    {
        *out = f;
    }
    return check;
}

} // namespace

TEST_F(DeadlockCheckTest, TorusWithoutDatelineHasTheCycleOfEveryRing)
{
    Fabric f;
    const DeadlockCheck check = CheckTorus({4, 4}, false, &f);
    EXPECT_FALSE(check.IsDeadlockFree());
    // 4 rows and 4 columns, each a cycle the + way. (Not the - way: a tie of two hops goes
    // the + way, so no route takes two hops the - way around a ring of 4.)
    ASSERT_EQ(check.GetCycles().size(), 8u);
    for (const DeadlockCheck::Cycle& cycle : check.GetCycles())
    {
        ASSERT_EQ(cycle.size(), 4u); // the four links of a ring
        for (std::size_t i = 0; i < cycle.size(); ++i)
        {
            EXPECT_EQ(cycle[i].priority, 3);
            EXPECT_EQ(cycle[i].to, cycle[(i + 1) % cycle.size()].from); // consecutive links
        }
    }
    EXPECT_EQ(check.GetPriorities(), std::vector<uint8_t>{3});
    const std::string text = check.Describe();
    EXPECT_NE(text.find("8 cycles, DEADLOCK-PRONE"), std::string::npos) << text;
    // Named by the fabric: the first cycle is the + way around the first row.
    EXPECT_NE(text.find("cycle 1: sw3-0 -> sw0-0 (3) -> sw1-0 (3) -> sw2-0 (3) -> sw3-0 (3)"),
              std::string::npos)
        << text;
    Simulator::Destroy();
    // In three dimensions: 3 x 16 rings.
    EXPECT_EQ(CheckTorus({4, 4, 4}, false).GetCycles().size(), 48u);
}

TEST_F(DeadlockCheckTest, TorusWithDatelineIsDeadlockFree)
{
    for (const std::vector<uint32_t>& dims :
         std::vector<std::vector<uint32_t>>{{4, 4}, {5, 6}, {4, 4, 4}, {2, 3, 5}})
    {
        const DeadlockCheck check = CheckTorus(dims, true);
        EXPECT_TRUE(check.IsDeadlockFree()) << check.Describe();
        // Both priorities carry traffic: 3 before a dateline, 4 after.
        EXPECT_GT(check.GetNChannels(3), 0u);
        EXPECT_GT(check.GetNChannels(4), 0u);
        EXPECT_EQ(check.GetNoRoute(), 0u);
        Simulator::Destroy();
    }
}

TEST_F(DeadlockCheckTest, ShortRingsNeedNoDateline)
{
    // With 3 switches per ring a shortest route takes at most one hop per dimension, so no
    // channel of a ring waits for another channel of the same ring.
    EXPECT_TRUE(CheckTorus({3, 3}, false).IsDeadlockFree());
    Simulator::Destroy();
    // With 5 it takes up to two, either way: both ways of all 10 rings are cycles.
    EXPECT_EQ(CheckTorus({5, 5}, false).GetCycles().size(), 20u);
}

TEST_F(DeadlockCheckTest, DatelineWithoutTheResetAtTurnsDeadlocks)
{
    // Keep frames on priority 4 when they turn into the next dimension (override the reset
    // rules): the second dimension's rings then close on priority 4.
    RoceHelper roce;
    TorusHelper torus({4, 4});
    Fabric f = roce.Build(torus);
    for (const FabricPriorityRemap& rule : f.GetPriorityRemaps())
    {
        if (rule.fromPriority == 4)
        {
            roce.GetSwitch(f.GetNode(rule.node).index)
                ->SetPriorityRemap(f.GetPort(rule.inLink, rule.node),
                                   f.GetPort(rule.outLink, rule.node),
                                   4,
                                   4);
        }
    }
    const DeadlockCheck check = DeadlockCheck::ForFabric(f);
    ASSERT_FALSE(check.IsDeadlockFree());
    for (const DeadlockCheck::Cycle& cycle : check.GetCycles())
    {
        for (const DeadlockCheck::Channel& channel : cycle)
        {
            EXPECT_EQ(channel.priority, 4);
        }
    }
}

TEST_F(DeadlockCheckTest, ClosFabricsWithShortestRoutesAreDeadlockFree)
{
    ThreeTierHelper threeTier(2, 4, 2, 2, 8);
    threeTier.SetAccessOversubscription(2);
    RailOptimizedHelper rail(8, 4, 2);
    rail.SetServersPerLeaf(4);
    FatTreeHelper fatTree(4);
    SpineLeafHelper spineLeaf(4, 2, 8);
    for (const FabricHelper* helper :
         std::vector<const FabricHelper*>{&fatTree, &spineLeaf, &threeTier, &rail})
    {
        RoceHelper roce;
        const Fabric f = roce.Build(*helper);
        const DeadlockCheck check = DeadlockCheck::ForFabric(f);
        EXPECT_TRUE(check.IsDeadlockFree()) << f.GetKind() << "\n" << check.Describe();
        EXPECT_GT(check.GetNDependencies(), 0u) << f.GetKind();
        // Every switch-bound channel direction carries priority 3 traffic.
        EXPECT_EQ(check.GetPriorities(), std::vector<uint8_t>{3});
        EXPECT_EQ(check.GetNoRoute(), 0u);
        Simulator::Destroy();
    }
}

TEST_F(DeadlockCheckTest, HandMadeOneWayRingIsFound)
{
    // Three switches in a ring, one host each, routes only clockwise: h0 -> h2 goes
    // A -> B -> C, h1 -> h0 goes B -> C -> A, h2 -> h1 goes C -> A -> B.
    for (bool pfc : {true, false})
    {
        RoceHelper roce;
        roce.SetMmuAttribute("PfcEnabled", BooleanValue(pfc));
        Ptr<Node> h[3];
        Ptr<Node> s[3];
        for (auto& n : h)
        {
            n = roce.AddHost();
        }
        for (auto& n : s)
        {
            n = roce.AddSwitch();
        }
        for (int i = 0; i < 3; ++i)
        {
            roce.Link(h[i], s[i]); // port 0 of each switch
        }
        roce.Link(s[0], s[1]); // A1 - B1
        roce.Link(s[1], s[2]); // B2 - C1
        roce.Link(s[2], s[0]); // C2 - A2
        roce.Finalize(false, false);
        const uint32_t clockwise[3] = {1, 2, 2}; // A -> B on A1, B -> C on B2, C -> A on C2
        for (uint32_t i = 0; i < 3; ++i)
        {
            for (uint32_t dst = 0; dst < 3; ++dst)
            {
                roce.GetSwitch(i)->SetRoute(roce.GetAddress(dst), {dst == i ? 0u : clockwise[i]});
            }
        }
        DeadlockCheck check;
        check.SetNodeNamer([&](Ptr<Node> n) {
            for (int i = 0; i < 3; ++i)
            {
                if (n == s[i])
                {
                    return std::string(1, static_cast<char>('A' + i));
                }
            }
            return std::string("host");
        });
        check.Run(NodeContainer(roce.GetHosts(), roce.GetSwitches()));
        if (pfc)
        {
            ASSERT_EQ(check.GetCycles().size(), 1u);
            EXPECT_EQ(check.DescribeCycle(check.GetCycles()[0]), "C -> A (3) -> B (3) -> C (3)");
            EXPECT_EQ(check.GetNChannels(), 3u + 3); // host -> switch and switch -> switch
        }
        else
        {
            // Nothing is lossless: frames are dropped, never held.
            EXPECT_TRUE(check.IsDeadlockFree());
            EXPECT_EQ(check.GetNChannels(), 0u);
        }
        // Shortest routes instead: one switch hop at most, no cycle.
        Simulator::Destroy();
    }
}

TEST_F(DeadlockCheckTest, MissingRoutesAreCounted)
{
    RoceHelper roce;
    Ptr<Node> a = roce.AddHost();
    Ptr<Node> b = roce.AddHost();
    Ptr<Node> sw = roce.AddSwitch();
    roce.Link(a, sw);
    roce.Link(b, sw);
    roce.Finalize(false, false);
    roce.GetSwitch(0)->SetRoute(roce.GetAddress(1), {1});
    DeadlockCheck check;
    check.Run(NodeContainer(roce.GetHosts(), roce.GetSwitches()));
    EXPECT_TRUE(check.IsDeadlockFree());
    EXPECT_EQ(check.GetNoRoute(), 1u); // towards host 0
    EXPECT_NE(check.Describe().find("1 (switch, destination) pairs without a route"),
              std::string::npos);
}

TEST_F(DeadlockCheckTest, DatelineTorusCarriesTrafficLosslessly)
{
    // Every host writes to the host two hops away in both dimensions, so most frames cross a
    // dateline: they move to priority 4, nothing is dropped, every message completes and every
    // buffer is empty at the end.
    RoceHelper roce;
    roce.SetMmuAttribute("BufferSize", UintegerValue(1000000));
    TorusHelper torus({4, 4});
    const Fabric f = roce.Build(torus);
    RoceTransport rdma(roce);
    for (uint32_t h = 0; h < f.GetNHosts(); ++h)
    {
        const uint32_t x = h % 4;
        const uint32_t y = h / 4;
        rdma.Post(h, (x + 2) % 4 + 4 * ((y + 2) % 4), RdmaVerb::WRITE, 300000, Time(0), 3);
    }
    Simulator::Run();
    const RoceStatistics st = rdma.CollectStatistics();
    EXPECT_EQ(st.messagesCompleted, f.GetNHosts());
    EXPECT_EQ(st.dropsBuffer + st.dropsNoRoute, 0u);
    EXPECT_EQ(st.headroomOverflows, 0u);
    uint64_t remapped = 0;
    for (uint32_t s = 0; s < f.GetNSwitches(); ++s)
    {
        Ptr<RoceSwitch> sw = roce.GetSwitch(s);
        remapped += sw->GetRemapped();
        EXPECT_TRUE(sw->GetMmu()->IsLossless(4));
        EXPECT_EQ(sw->GetMmu()->GetSharedUsed(), 0u);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            EXPECT_EQ(sw->GetMmu()->GetIngressSharedBytes(p, 3), 0u);
            EXPECT_EQ(sw->GetMmu()->GetIngressSharedBytes(p, 4), 0u);
        }
    }
    EXPECT_GT(remapped, 0u);
}

TEST_F(DeadlockCheckTest, WhatTheCheckPredictsHappens)
{
    // Every host of a 4x4 torus writes 1 MB to the host two switches further along its row
    // (the + way): each row link carries two flows, every switch pauses its upstream. Without
    // the dateline the pauses close the rings and nothing moves again (a PFC deadlock: after
    // 5 ms no message has completed and the rings' ingresses are still paused); with it,
    // everything completes. (With 200 KB messages the 1 MB buffers absorb it all and no
    // deadlock forms: the check finds what can happen, the simulation what does.)
    for (bool dateline : {false, true})
    {
        RoceHelper roce;
        roce.SetMmuAttribute("BufferSize", UintegerValue(1000000));
        TorusHelper torus({4, 4});
        torus.SetDateline(dateline);
        const Fabric f = roce.Build(torus);
        RoceTransport rdma(roce);
        EXPECT_EQ(DeadlockCheck::ForFabric(f).IsDeadlockFree(), dateline);
        for (uint32_t h = 0; h < 16; ++h)
        {
            rdma.Post(h, (h % 4 + 2) % 4 + h / 4 * 4, RdmaVerb::WRITE, 1000000, Time(0), 3);
        }
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        uint32_t paused = 0;
        for (uint32_t s = 0; s < f.GetNSwitches(); ++s)
        {
            for (uint32_t p = 0; p < roce.GetSwitch(s)->GetNPorts(); ++p)
            {
                paused += roce.GetSwitch(s)->GetMmu()->IsPaused(p, 3) ? 1 : 0;
            }
        }
        const RoceStatistics st = rdma.CollectStatistics();
        if (dateline)
        {
            EXPECT_EQ(st.messagesCompleted, 16u);
            EXPECT_EQ(paused, 0u);
        }
        else
        {
            EXPECT_EQ(st.messagesCompleted, 0u);
            EXPECT_GE(paused, 16u); // each row ring: its four links, and the hosts' ingresses
        }
        EXPECT_EQ(st.dropsBuffer, 0u);
        Simulator::Destroy();
    }
}
