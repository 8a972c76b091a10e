/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// HPCC's inputs and its estimate: switches stamp one INT hop per egress, the ACK echoes the
// stack, and a lone flow's estimated utilization converges to eta.

#include "ns3/core-module.h"
#include "ns3/interconnect-module.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

class HpccTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }
};

} // namespace

TEST_F(HpccTest, SwitchesStampOneHopEachAndAcksEchoTheStack)
{
    RoceHelper roce;
    roce.SetDeviceAttribute("DataRate", StringValue("25Gbps"));
    roce.SetNicAttribute("CongestionControl", StringValue("hpcc"));
    Ptr<Node> a = roce.AddHost();
    Ptr<Node> b = roce.AddHost();
    Ptr<Node> s1 = roce.AddSwitch();
    Ptr<Node> s2 = roce.AddSwitch();
    roce.Link(a, s1);
    roce.SetDeviceAttribute("DataRate", StringValue("40Gbps"));
    roce.Link(s1, s2);
    roce.SetDeviceAttribute("DataRate", StringValue("25Gbps"));
    roce.Link(s2, b);
    roce.Finalize();
    roce.Post(0, 1, RdmaVerb::WRITE, 200000, Time(0), 3);

    struct Seen
    {
        uint32_t dataWithInt{0};
        uint32_t acksWithInt{0};
        bool ratesRight{true};
        bool timesOrdered{true};
        uint64_t lastTx{0};
        bool txGrows{true};
    } seen;

    roce.GetNic(1)->GetDevice()->TraceConnectWithoutContext(
        "MacRx",
        MakeCallback(+[](Seen* s, Ptr<const Packet> p) {
            RdmaIntTag tag;
            if (!p->PeekPacketTag(tag))
            {
                return;
            }
            ++s->dataWithInt;
            s->ratesRight = s->ratesRight && tag.GetNHops() == 2 &&
                            tag.GetHop(0).rateBps == 40000000000ULL &&
                            tag.GetHop(1).rateBps == 25000000000ULL;
            s->timesOrdered = s->timesOrdered && tag.GetHop(0).timestamp < tag.GetHop(1).timestamp;
            s->txGrows = s->txGrows && tag.GetHop(1).txBytes >= s->lastTx;
            s->lastTx = tag.GetHop(1).txBytes;
        }).Bind(&seen));
    roce.GetNic(0)->GetDevice()->TraceConnectWithoutContext(
        "MacRx",
        MakeCallback(+[](Seen* s, Ptr<const Packet> p) {
            RdmaIntTag tag;
            if (p->PeekPacketTag(tag) && tag.GetNHops() == 2)
            {
                ++s->acksWithInt;
            }
        }).Bind(&seen));
    Simulator::Run();
    const uint32_t packets = 200000 / 1024 + 1;
    EXPECT_EQ(seen.dataWithInt, packets);
    EXPECT_EQ(seen.acksWithInt, packets);
    EXPECT_TRUE(seen.ratesRight);
    EXPECT_TRUE(seen.timesOrdered);
    EXPECT_TRUE(seen.txGrows);
}

TEST_F(HpccTest, LoneFlowUtilizationEstimateSettlesAtEta)
{
    RoceHelper roce;
    roce.SetDeviceAttribute("DataRate", StringValue("25Gbps"));
    roce.SetNicAttribute("CongestionControl", StringValue("hpcc"));
    Ptr<Node> a = roce.AddHost();
    Ptr<Node> b = roce.AddHost();
    Ptr<Node> sw = roce.AddSwitch();
    roce.Link(a, sw);
    roce.Link(b, sw);
    roce.Finalize();
    roce.Post(0, 1, RdmaVerb::WRITE, 20000000, Time(0), 3);
    Simulator::Stop(MilliSeconds(3));
    Simulator::Run();
    Ptr<HpccCongestionControl> cc = DynamicCast<HpccCongestionControl>(
        roce.GetNic(0)->GetQueuePair(0x100)->GetCongestionControl());
    ASSERT_TRUE(cc);
    EXPECT_NEAR(cc->GetUtilization(), 0.95, 0.03);
    EXPECT_GT(cc->GetWindow(), 0u);
}
