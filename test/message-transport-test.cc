/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// How messages map onto queue pairs (nic.queuePairs), and what the flow records say of them.

#include "ns3/core-module.h"
#include "ns3/interconnect-module.h"

#include <cstdio>
#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// Slowdown of a completed flow.
double
Slowdown(const FlowRecord& f)
{
    EXPECT_FALSE(f.end.IsZero()) << "flow " << f.id << " did not complete";
    return (f.end - f.start).GetDouble() / f.idealFct.GetDouble();
}

/// What became of the short flow.
struct ShortFlow
{
    double slowdown;    //!< its slowdown
    bool finishedFirst; //!< before the long one
};

/**
 * A 10 MB WRITE, then 2 us later a 10 KB WRITE between the same two hosts of a k=4 fat-tree,
 * on RoCEv2 or InfiniBand.
 * @return what became of the short flow
 */
ShortFlow
ShortBehindLong(MessageTransport& network)
{
    network.Post(0, 15, RdmaVerb::WRITE, 10000000, MicroSeconds(1), network.GetDefaultPriority());
    network.Post(0, 15, RdmaVerb::WRITE, 10000, MicroSeconds(3), network.GetDefaultPriority());
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    const auto& f = network.GetFlows();
    return ShortFlow{Slowdown(f[1]), f[1].end < f[0].end};
}

/// RoCEv2 on a k=4 fat-tree.
ShortFlow
RoceShortBehindLong(const QueuePairMapping& mapping)
{
    RoceHelper roce;
    roce.Build(FatTreeHelper(4));
    RoceTransport rdma(roce);
    rdma.SetQueuePairMapping(mapping);
    const ShortFlow s = ShortBehindLong(rdma);
    Simulator::Destroy();
    return s;
}

/// InfiniBand on a k=4 fat-tree.
ShortFlow
IbShortBehindLong(const QueuePairMapping& mapping)
{
    IbRcTransport ib(IbSubnetHelper().Build(FatTreeHelper(4)));
    ib.SetQueuePairMapping(mapping);
    const ShortFlow s = ShortBehindLong(ib);
    Simulator::Destroy();
    return s;
}

/// The short flow finishes first and near its ideal FCT with a queue pair per flow, and waits
/// for the long one with one per host pair.
void
ExpectOwnQueuePairHelps(ShortFlow (*run)(const QueuePairMapping&))
{
    const ShortFlow perFlow = run(QueuePairMapping());
    const ShortFlow shared = run(QueuePairMapping::PerHostPair());
    EXPECT_LT(perFlow.slowdown, 2.5);
    EXPECT_TRUE(perFlow.finishedFirst);
    EXPECT_GT(shared.slowdown, 30);
    EXPECT_FALSE(shared.finishedFirst);
}

} // namespace

TEST(QueuePairMappingTest, ParsesTheScenarioForms)
{
    QueuePairMapping m = QueuePairMapping::PerHostPair();
    ASSERT_TRUE(QueuePairMapping::Parse("per-flow", &m));
    EXPECT_EQ(m.GetMode(), QueuePairMapping::PER_FLOW);
    ASSERT_TRUE(QueuePairMapping::Parse("per-host-pair", &m));
    EXPECT_EQ(m.GetMode(), QueuePairMapping::PER_HOST_PAIR);
    ASSERT_TRUE(QueuePairMapping::Parse("8", &m));
    EXPECT_EQ(m.GetMode(), QueuePairMapping::POOL);
    EXPECT_EQ(m.GetCount(), 8u);
    EXPECT_EQ(m.ToString(), "8");
    for (const char* bad : {"", "0", "-1", "65537", "99999999999", "4x", "perflow", " 4"})
    {
        EXPECT_FALSE(QueuePairMapping::Parse(bad, &m)) << "'" << bad << "'";
    }
    EXPECT_EQ(QueuePairMapping().GetMode(), QueuePairMapping::PER_FLOW);
}

TEST(QueuePairMappingTest, AShortFlowDoesNotWaitBehindALongOneWithPerFlowQueuePairs)
{
    // Per flow (the default), the short message has its own queue pair: the NIC serves the two
    // in turn, so the short one's packets take every other slot of the host link and it
    // finishes within about twice its ideal FCT (about 12 us across the fat-tree), long before
    // the long one. On one queue pair per host pair it waits for the 10 MB ahead of it: about
    // 10e6 x 8 / 100e9 = 800 us, a slowdown above 30.
    ExpectOwnQueuePairHelps(&RoceShortBehindLong);
}

TEST(QueuePairMappingTest, TheSameOnInfiniBand)
{
    ExpectOwnQueuePairHelps(&IbShortBehindLong);
}

TEST(QueuePairMappingTest, APoolIsTakenInTurn)
{
    // Pool of 2: messages 0..3 between hosts 0 and 1 alternate between two queue pairs, and a
    // message the other way takes the same connections' other ends (slots are per direction).
    RoceHelper roce;
    roce.Build(FatTreeHelper(4));
    RoceTransport rdma(roce);
    rdma.SetQueuePairMapping(QueuePairMapping::Pool(2));
    std::vector<uint64_t> ids;
    for (int i = 0; i < 4; ++i)
    {
        ids.push_back(rdma.Post(0, 1, RdmaVerb::WRITE, 5000, MicroSeconds(1), 3));
    }
    const auto& f = rdma.GetFlows();
    EXPECT_NE(f[0].queuePair, f[1].queuePair);
    EXPECT_EQ(f[0].queuePair, f[2].queuePair);
    EXPECT_EQ(f[1].queuePair, f[3].queuePair);
    EXPECT_EQ(rdma.GetFlowQueuePair(ids[0]), rdma.GetQueuePair(0, 1, 3)); // slot 0: the pair's own
    const uint64_t back = rdma.Post(1, 0, RdmaVerb::WRITE, 5000, MicroSeconds(1), 3);
    EXPECT_EQ(rdma.GetFlowQueuePair(back), rdma.GetFlowQueuePair(ids[0], true));
    Simulator::Run();
    EXPECT_EQ(rdma.CollectStatistics().messagesCompleted, 5u);
    Simulator::Destroy();
}

TEST(QueuePairMappingTest, PerFlowGivesEveryMessageItsOwnQueuePair)
{
    RoceHelper roce;
    roce.Build(FatTreeHelper(4));
    RoceTransport rdma(roce);
    std::vector<uint64_t> ids;
    for (int i = 0; i < 3; ++i)
    {
        ids.push_back(rdma.Post(2, 9, RdmaVerb::WRITE, 5000, MicroSeconds(1), 3));
    }
    const auto& f = rdma.GetFlows();
    EXPECT_NE(f[0].queuePair, f[1].queuePair);
    EXPECT_NE(f[1].queuePair, f[2].queuePair);
    EXPECT_EQ(rdma.GetFlowQueuePair(ids[2])->GetQpn(), f[2].queuePair);
    Simulator::Run();
    for (uint64_t id : ids)
    {
        EXPECT_EQ(rdma.GetFlowQueuePair(id, true)->GetBytesDelivered(), 5000u);
    }
    Simulator::Destroy();
}

TEST(FlowRecordTest, WorkloadAndQueuePairGoThroughTheCsv)
{
    RoceHelper roce;
    roce.Build(FatTreeHelper(4));
    RoceTransport rdma(roce);
    rdma.SetWorkload(rdma.AddWorkload("0:incast"));
    rdma.Post(1, 0, RdmaVerb::WRITE, 2000, MicroSeconds(1), 3);
    const uint32_t background = rdma.AddWorkload("1:poisson");
    rdma.SetWorkload(background);
    rdma.Post(4, 5, RdmaVerb::READ, 3000, MicroSeconds(2), 3);
    Simulator::Run();
    const std::string path = "message-transport-test-flows.csv";
    ASSERT_TRUE(WriteFlowsCsv(path, rdma.GetFlows(), rdma.GetWorkloadNames()));
    std::vector<FlowRecord> read;
    std::vector<std::string> names;
    std::string error;
    ASSERT_TRUE(ReadFlowsCsv(path, &read, &names, &error)) << error;
    ASSERT_EQ(read.size(), 2u);
    ASSERT_EQ(names.size(), 2u);
    EXPECT_EQ(names[read[0].workload], "0:incast");
    EXPECT_EQ(names[read[1].workload], "1:poisson");
    EXPECT_EQ(rdma.GetFlows()[1].workload, background);
    for (std::size_t i = 0; i < 2; ++i)
    {
        EXPECT_EQ(read[i].queuePair, rdma.GetFlows()[i].queuePair);
        EXPECT_EQ(read[i].end, rdma.GetFlows()[i].end);
        EXPECT_EQ(read[i].idealFct, rdma.GetFlows()[i].idealFct);
    }
    std::remove(path.c_str());
    Simulator::Destroy();
}
