/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Collectives and MoE traffic: exact byte accounting of the routing, completion against the
// link-capacity lower bound on an idle non-blocking fabric.

#include "ns3/collective-helper.h"
#include "ns3/core-module.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/moe-traffic.h"
#include "ns3/roce-helper.h"

#include <gtest/gtest.h>
#include <numeric>

using namespace ns3;

namespace
{

/// N hosts on one switch: a non-blocking fabric.
std::vector<uint32_t>
Star(RoceHelper& roce, uint32_t n)
{
    roce.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
    std::vector<Ptr<Node>> hosts;
    for (uint32_t i = 0; i < n; ++i)
    {
        hosts.push_back(roce.AddHost());
    }
    Ptr<Node> sw = roce.AddSwitch();
    for (auto& h : hosts)
    {
        roce.Link(h, sw);
    }
    roce.Finalize();
    std::vector<uint32_t> group(n);
    std::iota(group.begin(), group.end(), 0);
    return group;
}

class CollectiveHelperTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }
};

} // namespace

TEST(MoeTraffic, DispatchMovesExactlyTokensTimesTopKTimesBytesPerToken)
{
    const uint32_t gpus = 8;
    const uint32_t tokens = 512;
    const uint32_t hidden = 4096;
    const uint32_t topK = 2;
    MoeTraffic moe(gpus, tokens, hidden, 2, topK, 4, {"zipf", 1.0});
    const auto m = moe.DispatchMatrix(7);
    uint64_t total = 0;
    std::vector<uint64_t> toGpu(gpus, 0);
    for (uint32_t i = 0; i < gpus; ++i)
    {
        uint64_t fromGpu = 0;
        for (uint32_t j = 0; j < gpus; ++j)
        {
            total += m[i][j];
            fromGpu += m[i][j];
            toGpu[j] += m[i][j];
            EXPECT_EQ(m[i][j] % (hidden * 2), 0u); // whole tokens
        }
        EXPECT_EQ(fromGpu, uint64_t{tokens} * topK * hidden * 2); // every token, K experts
    }
    EXPECT_EQ(total, uint64_t{gpus} * tokens * topK * hidden * 2);
    // Zipf popularity: the GPU holding the most popular experts receives the most.
    EXPECT_EQ(std::max_element(toGpu.begin(), toGpu.end()) - toGpu.begin(), 0);
    EXPECT_GT(toGpu[0], 2 * toGpu[gpus - 1]);
}

TEST(MoeTraffic, PopularityMatchesAGiniTargetAndUniformIsFlat)
{
    MoeTraffic skewed(16, 64, 1024, 2, 2, 2, {"gini", 0.4});
    EXPECT_NEAR(MoeTraffic::Gini(skewed.ExpertWeights()), 0.4, 1e-6);
    MoeTraffic flat(16, 64, 1024, 2, 2, 2, {"uniform", 0});
    EXPECT_NEAR(MoeTraffic::Gini(flat.ExpertWeights()), 0, 1e-12);
    EXPECT_EXIT(MoeTraffic(16, 64, 1024, 2, 40, 2, {"uniform", 0}),
                ::testing::ExitedWithCode(1),
                "moe.topK = 40: accepted: 1..32");
}

TEST_F(CollectiveHelperTest, AllToAllOnAnIdleNonBlockingFabricIsNearItsLowerBound)
{
    RoceHelper roce;
    const auto group = Star(roce, 8);
    CollectiveHelper collectives(roce);
    collectives.AllToAll(group, 1024 * 1024, MicroSeconds(1));
    Simulator::Run();
    const CollectiveRecord& r = collectives.GetRecords().at(0);
    ASSERT_FALSE(r.end.IsZero());
    EXPECT_EQ(r.bytes, 8u * 7 * 1024 * 1024);
    const double ratio = (r.end - r.start).GetDouble() / r.lowerBound.GetDouble();
    EXPECT_GE(ratio, 1.0);
    EXPECT_LT(ratio, 1.10);
}

TEST_F(CollectiveHelperTest, RingAllReduceRunsItsPhasesInOrder)
{
    RoceHelper roce;
    const auto group = Star(roce, 4);
    CollectiveHelper collectives(roce);
    bool done = false;
    collectives.RingAllReduce(group, 1 << 20, MicroSeconds(1), [&done]() { done = true; });
    Simulator::Run();
    EXPECT_TRUE(done);
    const auto& records = collectives.GetRecords();
    ASSERT_EQ(records.size(), 6u); // 2 (N - 1)
    Time lowerBound(0);
    for (std::size_t i = 0; i < records.size(); ++i)
    {
        EXPECT_EQ(records[i].bytes, 4u * (1 << 20) / 4);
        EXPECT_FALSE(records[i].end.IsZero());
        if (i > 0)
        {
            EXPECT_GE(records[i].start, records[i - 1].end);
        }
        lowerBound += records[i].lowerBound;
    }
    const Time total = records.back().end - records.front().start;
    EXPECT_GE(total, lowerBound);
    EXPECT_LT(total.GetDouble(), 1.25 * lowerBound.GetDouble()); // plus six round trips
}

TEST_F(CollectiveHelperTest, MoeLayersAlternateDispatchAndCombine)
{
    RoceHelper roce;
    const auto group = Star(roce, 4);
    CollectiveHelper collectives(roce);
    MoeTraffic moe(4, 128, 1024, 2, 2, 2, {"uniform", 0});
    collectives.MoeLayers(group, moe, 2, 1, MicroSeconds(5), MicroSeconds(1), 100);
    Simulator::Run();
    const auto& records = collectives.GetRecords();
    ASSERT_EQ(records.size(), 4u);
    EXPECT_EQ(records[0].kind, "moe-dispatch");
    EXPECT_EQ(records[1].kind, "moe-combine");
    EXPECT_EQ(records[0].bytes, records[1].bytes); // the combine returns what was dispatched
    EXPECT_GE(records[1].start - records[0].end, MicroSeconds(5));
    EXPECT_GE(records[2].start - records[1].end, MicroSeconds(5));
    for (const auto& r : records)
    {
        EXPECT_FALSE(r.end.IsZero());
    }
}

TEST_F(CollectiveHelperTest, LoneFlowAcrossAFatTreeHasSlowdownOne)
{
    // One 1 MB WRITE between pods of an idle k=4 fat-tree (5 hops): its FCT is the ideal one.
    RoceHelper roce;
    FatTreeHelper fatTree(4);
    fatTree.Build(roce);
    roce.Post(0, 15, RdmaVerb::WRITE, 1000000, MicroSeconds(1), 3);
    Simulator::Run();
    const FlowRecord& f = roce.GetFlows().at(0);
    ASSERT_FALSE(f.end.IsZero());
    EXPECT_NEAR((f.end - f.start).GetDouble() / f.idealFct.GetDouble(), 1.0, 0.01);
}
