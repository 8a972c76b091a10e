/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RoceSwitch::SetPriorityRemap: frames move to another priority at a switch, the next hop sees
// the new class in the DSCP, PFC still pauses the upstream on the priority it sends on, and
// the buffer accounting returns to zero.

#include "ns3/core-module.h"
#include "ns3/ipv4-header.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-transport.h"

#include <gtest/gtest.h>
#include <map>

using namespace ns3;

namespace
{

class RoceSwitchRemapTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }
};

/// Counts the DSCP class selectors of the IPv4 frames a port receives.
void
CountClass(std::map<uint8_t, uint32_t>* classes, Ptr<const Packet> p)
{
    Ipv4Header ip;
    p->Copy()->RemoveHeader(ip);
    ++(*classes)[static_cast<uint8_t>(ip.GetTos() >> 5)];
}

} // namespace

TEST(RoceSwitchRemap, RulesAreIdentityUntilSet)
{
    Ptr<RoceSwitch> sw = CreateObject<RoceSwitch>();
    for (int i = 0; i < 3; ++i)
    {
        sw->AddPort(CreateObject<PfcNetDevice>());
    }
    sw->Initialize();
    for (uint8_t p = 0; p < 8; ++p)
    {
        EXPECT_EQ(sw->GetPriorityRemap(0, 1, p), p);
    }
    sw->SetPriorityRemap(0, 1, 3, 4);
    EXPECT_EQ(sw->GetPriorityRemap(0, 1, 3), 4);
    EXPECT_EQ(sw->GetPriorityRemap(0, 2, 3), 3); // another egress port
    EXPECT_EQ(sw->GetPriorityRemap(1, 0, 3), 3); // the other direction
    EXPECT_EQ(sw->GetPriorityRemap(0, 1, 2), 2); // another priority
}

TEST_F(RoceSwitchRemapTest, IncastThroughARemapIsLosslessAndPausesTheArrivalPriority)
{
    // h0..h3 -- S1 == S2 -- h4 (a 25 Gb/s link, the bottleneck). S2 moves frames from the
    // trunk to h4 from priority 3 to 4 (lossless too). S2 must pause S1 on priority 3, the
    // priority S1 sends on, never on 4.
    RoceHelper h;
    h.SetMmuAttribute("BufferSize", UintegerValue(600000));
    h.SetMmuAttribute("LosslessPriorities", UintegerValue(0x18));
    std::vector<Ptr<Node>> hosts;
    for (int i = 0; i < 5; ++i)
    {
        hosts.push_back(h.AddHost());
    }
    Ptr<Node> s1 = h.AddSwitch();
    Ptr<Node> s2 = h.AddSwitch();
    for (int i = 0; i < 4; ++i)
    {
        h.Link(hosts[i], s1);
    }
    auto trunk = h.Link(s1, s2);                                           // S2 port 0
    auto last = h.Link(hosts[4], s2, DataRate("25Gbps"), MicroSeconds(1)); // S2 port 1
    h.Finalize();
    RoceTransport rdma(h);
    Ptr<RoceSwitch> sw2 = h.GetSwitch(1);
    sw2->SetPriorityRemap(0, 1, 3, 4);
    std::map<uint8_t, uint32_t> classesAtReceiver;
    last.first->TraceConnectWithoutContext("MacRx",
                                           MakeBoundCallback(&CountClass, &classesAtReceiver));
    for (uint32_t i = 0; i < 4; ++i)
    {
        rdma.Post(i, 4, RdmaVerb::WRITE, 500000, MicroSeconds(1), 3);
    }
    Simulator::Run();
    const RoceStatistics st = rdma.CollectStatistics();
    EXPECT_EQ(st.messagesCompleted, 4u);
    EXPECT_EQ(st.dropsBuffer, 0u);
    EXPECT_EQ(st.headroomOverflows, 0u);
    EXPECT_EQ(st.retransmitted, 0u);
    // The data reached h4 as class 4 (the rule), the ACKs went back as class 3 (no rule).
    EXPECT_GE(classesAtReceiver[4], 4u * 500000 / 1024);
    EXPECT_EQ(classesAtReceiver[3], 0u);
    EXPECT_GE(sw2->GetRemapped(), 4u * 500000 / 1024);
    // S2 paused the trunk on priority 3 and never on 4.
    EXPECT_GT(trunk.second->GetPfcFramesSent(3), 0u);
    EXPECT_EQ(trunk.second->GetPfcFramesSent(4), 0u);
    // Every byte released under the priority it was charged to.
    for (uint32_t s = 0; s < 2; ++s)
    {
        Ptr<RoceSwitchMmu> mmu = h.GetSwitch(s)->GetMmu();
        EXPECT_EQ(mmu->GetSharedUsed(), 0u) << "switch " << s;
        for (uint32_t port = 0; port < h.GetSwitch(s)->GetNPorts(); ++port)
        {
            for (uint8_t p = 0; p < 8; ++p)
            {
                EXPECT_EQ(mmu->GetEgressBytes(port, p), 0u);
                EXPECT_EQ(mmu->GetIngressSharedBytes(port, p), 0u);
                EXPECT_FALSE(mmu->IsPaused(port, p));
            }
        }
    }
}
