/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Collectives and MoE traffic: exact byte accounting of the routing, completion against the
// link-capacity lower bound on an idle non-blocking fabric.

#include "config-error-test.h"

#include "ns3/collective-helper.h"
#include "ns3/core-module.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/intra-host-helper.h"
#include "ns3/moe-traffic.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-transport.h"

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
    EXPECT_CONFIG_ERROR(MoeTraffic(16, 64, 1024, 2, 40, 2, {"uniform", 0}),
                        "moe.topK = 40: accepted: 1..32");
}

TEST_F(CollectiveHelperTest, AllToAllOnAnIdleNonBlockingFabricIsNearItsLowerBound)
{
    RoceHelper roce;
    const auto group = Star(roce, 8);
    RoceTransport rdma(roce);
    CollectiveHelper collectives(rdma);
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
    RoceTransport rdma(roce);
    CollectiveHelper collectives(rdma);
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
    // Each phase takes at most its bound (the data's wire bytes), the ACKs a host sends on the
    // same link for the data it receives (one 86-byte frame per 1106-byte frame, 256 in all),
    // and a round trip through the switch: four cables of 1 us, the first frame (1122 bytes)
    // and the ACK once more.
    const Time phaseExtra =
        DataRate("100Gbps").CalculateBytesTxTime(256 * 86 + 1122 + 86) + MicroSeconds(4);
    EXPECT_LE(total, lowerBound + 6 * phaseExtra);
}

TEST_F(CollectiveHelperTest, HierarchicalAllReduceOverFourDomainsRingsTheShardAcross)
{
    // 8 hosts in 4 domains of 2: a reduce-scatter step of S/2 inside, 2 (4 - 1) = 6 ring steps
    // of S/8 between the counterparts, an all-gather step of S/2 inside: 1.75 S from each host,
    // the flat ring's 2 (N - 1) / N S, with only the 6 middle steps leaving a domain.
    RoceHelper roce;
    const auto group = Star(roce, 8);
    RoceTransport rdma(roce);
    CollectiveHelper collectives(rdma);
    const uint64_t s = 1 << 20;
    collectives.AllReduce(group, s, CollectiveHelper::HIERARCHICAL_DOMAINS, MicroSeconds(1), {}, 4);
    Simulator::Run();
    const auto& r = collectives.GetRecords();
    ASSERT_EQ(r.size(), 1u + 1 + 6 + 1);
    EXPECT_EQ(r[0].kind, "allreduce:hierarchical");
    EXPECT_EQ(r[1].kind, "hierarchical:reduce-scatter");
    EXPECT_EQ(r[8].kind, "hierarchical:all-gather");
    uint64_t across = 0;
    uint64_t inside = 0;
    for (const auto& f : rdma.GetFlows())
    {
        ASSERT_FALSE(f.end.IsZero());
        if (f.src / 2 == f.dst / 2)
        {
            inside += f.bytes;
        }
        else
        {
            EXPECT_EQ(f.src % 2, f.dst % 2);           // counterparts only
            EXPECT_EQ(f.dst / 2, (f.src / 2 + 1) % 4); // the next domain's
            across += f.bytes;
        }
    }
    EXPECT_EQ(inside, 8 * 2 * (s / 2));
    EXPECT_EQ(across, 8 * 6 * (s / 2 / 4));
    EXPECT_EQ(r[0].bytes, inside + across);
}

TEST_F(CollectiveHelperTest, MoeLayersAlternateDispatchAndCombine)
{
    RoceHelper roce;
    const auto group = Star(roce, 4);
    RoceTransport rdma(roce);
    CollectiveHelper collectives(rdma);
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

TEST_F(CollectiveHelperTest, APhaseKeepsOneConnectionPerPairBothWays)
{
    // Two all-to-all phases among 4 hosts: by default one connection per pair of hosts carries
    // both directions and both phases, 6 connections and 12 queue pairs in all, as NCCL keeps
    // its peers' connections; a queue pair per message makes 2 x 12 pairs, 48 queue pairs.
    for (const bool perFlow : {false, true})
    {
        RoceHelper roce;
        roce.Build(FatTreeHelper(4));
        RoceTransport rdma(roce);
        CollectiveHelper collectives(rdma);
        if (perFlow)
        {
            collectives.SetQueuePairMapping(QueuePairMapping::PerFlow());
        }
        const std::vector<uint32_t> hosts = {0, 1, 4, 9};
        collectives.AllToAll(hosts, 20000, MicroSeconds(1), [&]() {
            collectives.AllToAll(hosts, 20000, Simulator::Now());
        });
        Simulator::Run();
        uint32_t qps = 0;
        for (uint32_t h = 0; h < 16; ++h)
        {
            qps += roce.GetNic(h)->GetNQueuePairs();
        }
        EXPECT_EQ(qps, perFlow ? 48u : 12u);
        ASSERT_EQ(collectives.GetRecords().size(), 2u);
        EXPECT_FALSE(collectives.GetRecords()[1].end.IsZero());
        Simulator::Destroy();
    }
}

TEST_F(CollectiveHelperTest, LoneFlowAcrossAFatTreeHasSlowdownOne)
{
    // One 1 MB WRITE between pods of an idle k=4 fat-tree (5 hops): its FCT is the ideal one.
    RoceHelper roce;
    FatTreeHelper fatTree(4);
    roce.Build(fatTree);
    RoceTransport rdma(roce);
    rdma.Post(0, 15, RdmaVerb::WRITE, 1000000, MicroSeconds(1), 3);
    Simulator::Run();
    const FlowRecord& f = rdma.GetFlows().at(0);
    ASSERT_FALSE(f.end.IsZero());
    EXPECT_NEAR((f.end - f.start).GetDouble() / f.idealFct.GetDouble(), 1.0, 0.01);
}

namespace
{

/// The fabric of `servers` DGX H100s: 8 compute NICs at 400 Gb/s each, every NIC on one switch
/// (a non-blocking fabric).
void
GpuFabric(RoceHelper& roce, uint32_t servers)
{
    roce.SetDeviceAttribute("DataRate", StringValue("400Gbps"));
    roce.SetDeviceAttribute("Mtu", UintegerValue(4200));
    roce.SetQueuePairAttribute("Mtu", UintegerValue(4096));
    Star(roce, servers * 8);
}

/// The servers' GPUs behind those NICs: NIC k of server s is host s x 8 + k, GPU g's NIC its
/// rail NIC. @return the GPUs
std::vector<uint32_t>
GpuServers(CollectiveHelper& collectives, uint32_t servers)
{
    std::vector<IntraHostServer> built;
    std::vector<std::vector<uint32_t>> nicHost;
    for (uint32_t s = 0; s < servers; ++s)
    {
        built.push_back(IntraHostHelper::Build(IntraHostHelper::Preset("dgx-h100")));
        nicHost.emplace_back();
        for (uint32_t g = 0; g < 8; ++g)
        {
            nicHost.back().push_back(s * 8 + g); // rail g
        }
    }
    collectives.SetGpuServers(built, nicHost);
    std::vector<uint32_t> gpus(servers * 8);
    std::iota(gpus.begin(), gpus.end(), 0);
    return gpus;
}

} // namespace

TEST_F(CollectiveHelperTest, EightServerMoeDispatchIsNearItsLowerBound)
{
    // 64 GPUs in 8 DGX H100s: the dispatch of one MoE layer (uniform experts, top-2, 256 tokens
    // of 4096 bf16 values per GPU) over NVLink inside each server and 400 Gb/s NICs between
    // them, on an idle non-blocking fabric, ends within 15% of its lower bound.
    RoceHelper roce;
    GpuFabric(roce, 8);
    RoceTransport rdma(roce);
    CollectiveHelper collectives(rdma);
    const auto gpus = GpuServers(collectives, 8);
    MoeTraffic moe(64, 256, 4096, 2, 2, 2, {"uniform", 0});
    collectives.MoeLayers(gpus, moe, 1, 1, MicroSeconds(20), Time(0), 1);
    Simulator::Run();
    const auto& r = collectives.GetRecords();
    ASSERT_EQ(r.size(), 2u);
    for (const auto& phase : r)
    {
        ASSERT_FALSE(phase.end.IsZero()) << phase.kind;
        const double ratio = (phase.end - phase.start).GetDouble() / phase.lowerBound.GetDouble();
        EXPECT_GE(ratio, 1.0) << phase.kind;
        EXPECT_LE(ratio, 1.15) << phase.kind;
    }
    // Inter-server bytes crossed the fabric; the rest stayed on NVLink.
    const auto dispatch = moe.DispatchMatrix(1);
    uint64_t remote = 0;
    for (uint32_t i = 0; i < 64; ++i)
    {
        for (uint32_t j = 0; j < 64; ++j)
        {
            remote += i / 8 != j / 8 ? dispatch[i][j] : 0;
        }
    }
    uint64_t posted = 0;
    for (const auto& f : rdma.GetFlows())
    {
        posted += f.start == Time(0) ? f.bytes : 0;
    }
    EXPECT_EQ(posted, remote);
}

TEST_F(CollectiveHelperTest, HierarchicalAllToAllStaysOnRails)
{
    // 4 servers: the hierarchical all-to-all gathers over NVLink, then sends only between NICs
    // of the same rail, 8 x bytesPerPair per GPU pair of the rail.
    RoceHelper roce;
    GpuFabric(roce, 4);
    RoceTransport rdma(roce);
    CollectiveHelper collectives(rdma);
    const auto gpus = GpuServers(collectives, 4);
    const uint64_t bytes = 64 * 1024;
    collectives.AllToAll(gpus, bytes, CollectiveHelper::HIERARCHICAL, Time(0));
    Simulator::Run();
    const auto& r = collectives.GetRecords();
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r[0].kind, "all-to-all:nvlink");
    EXPECT_EQ(r[1].kind, "all-to-all:rail");
    EXPECT_GE(r[1].start, r[0].end);
    // NVLink stage: each GPU hands 7 local GPUs 4 x bytes (one per server, its own included).
    EXPECT_EQ(r[0].bytes, 32u * 7 * 4 * bytes);
    ASSERT_EQ(rdma.GetFlows().size(), 32u * 3); // each GPU to its rail peer in 3 other servers
    for (const auto& f : rdma.GetFlows())
    {
        EXPECT_EQ(f.src % 8, f.dst % 8) << "flow across rails " << f.src << " -> " << f.dst;
        EXPECT_EQ(f.bytes, 8 * bytes);
        EXPECT_FALSE(f.end.IsZero());
    }
    // Every byte of the all-to-all: 32 x 31 pairs, intra-server ones on NVLink only.
    EXPECT_EQ(r[1].bytes, 32u * 3 * 8 * bytes);
}

TEST_F(CollectiveHelperTest, NvlsInsideAServerTakesItsClosedFormAndBeatsTheRing)
{
    // One DGX H100: each GPU sends (1 + 1/8) S to the NVSwitch and receives as much, both ways
    // at once over its 18 NVLinks; the down direction starts one NVLink latency after the up.
    // The ring moves 2 x 7/8 S each way in 14 steps. 64 MiB.
    const IntraHostParameters p = IntraHostHelper::Preset("dgx-h100");
    const double link = p.nvlinksPerGpu * p.nvlinkBandwidth; // bytes/s each way
    const uint64_t s = 64 << 20;
    double nvls = 0;
    double ring = 0;
    for (const bool inSwitch : {true, false})
    {
        RoceHelper roce;
        GpuFabric(roce, 1);
        RoceTransport rdma(roce);
        CollectiveHelper collectives(rdma);
        const auto gpus = GpuServers(collectives, 1);
        ASSERT_TRUE(collectives.NvlsCapable(0));
        collectives.AllReduce(gpus,
                              s,
                              inSwitch ? CollectiveHelper::NVLS : CollectiveHelper::RING,
                              MicroSeconds(1));
        Simulator::Run();
        const auto& r = collectives.GetRecords().front();
        ASSERT_GT(r.end, r.start) << r.kind;
        (inSwitch ? nvls : ring) = (r.end - r.start).GetSeconds();
        EXPECT_TRUE(rdma.GetFlows().empty()); // nothing left the server
        Simulator::Destroy();
    }
    const double closed = 9.0 / 8 * s / link + 2 * p.nvlinkLatency.GetSeconds();
    EXPECT_NEAR(nvls, closed, 3e-9) << nvls; // to the nanoseconds of rounding
    // The ring's 14 steps of S/8, each GPU to the next through the NVSwitch (two NVLink hops).
    const double ringClosed = 14 * (s / 8.0 / link + 2 * p.nvlinkLatency.GetSeconds());
    EXPECT_NEAR(ring / ringClosed, 1.0, 0.01) << ring;
    EXPECT_GT(ring / nvls, 14.0 / 9); // 14/9 for the bytes, and the ring's 14 steps' latency
}

TEST_F(CollectiveHelperTest, NvlsAcrossServersSendsEachRailsShardBetweenThem)
{
    // Two DGX H100s: the reduce-scatter half inside each, a ring all-reduce of each GPU's 1/8
    // between the two servers over its rail NIC (2 steps of S/16 each way), the all-gather half
    // inside. The NICs carry 16 x 2 x S/16 = 2 S in all, rail to rail.
    RoceHelper roce;
    GpuFabric(roce, 2);
    RoceTransport rdma(roce);
    CollectiveHelper collectives(rdma);
    const auto gpus = GpuServers(collectives, 2);
    const uint64_t s = 16 << 20;
    collectives.AllReduce(gpus, s, CollectiveHelper::NVLS, MicroSeconds(1));
    Simulator::Run();
    const auto& r = collectives.GetRecords();
    ASSERT_EQ(r.front().kind, "allreduce:nvls-ring");
    std::vector<std::string> kinds;
    for (const auto& x : r)
    {
        ASSERT_GT(x.end, Time(0)) << x.kind;
        if (kinds.empty() || kinds.back() != x.kind)
        {
            kinds.push_back(x.kind);
        }
    }
    EXPECT_EQ(kinds,
              (std::vector<std::string>{"allreduce:nvls-ring",
                                        "nvls:reduce-scatter",
                                        "ring-allreduce-step",
                                        "nvls:all-gather"}));
    uint64_t posted = 0;
    for (const auto& f : rdma.GetFlows())
    {
        posted += f.bytes;
        EXPECT_EQ(f.src % 8, f.dst % 8); // rail-aligned
    }
    EXPECT_EQ(posted, 2 * s);
    // The GPUs send S + S/8 each to their NVSwitch; the whole counts that and the NICs' bytes.
    EXPECT_EQ(r.front().bytes, (s + s / 8) * 16 + posted);
    // The whole is its phases, one after another: reduce-scatter, the rails' rings, all-gather.
    const CollectiveRecord& scatter = r[1];
    const CollectiveRecord& gather = r.back();
    ASSERT_EQ(gather.kind, "nvls:all-gather");
    EXPECT_EQ(scatter.start, r.front().start);
    EXPECT_EQ(gather.end, r.front().end);
    for (std::size_t i = 2; i + 1 < r.size(); ++i)
    {
        EXPECT_GE(r[i].start, scatter.end) << i;
        EXPECT_LE(r[i].end, gather.start) << i;
    }
    EXPECT_GE((r.front().end - r.front().start).GetDouble(), r.front().lowerBound.GetDouble());
}
