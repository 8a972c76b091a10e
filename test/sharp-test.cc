/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// SHARP on InfiniBand: the aggregation tree, the streaming all-reduce in the switches against
// its closed form, the bytes on the members' links against the ring's, and the fallback when
// the switches' aggregation units or buffer run out.

#include "config-error-test.h"
#include "packet-bytes.h"
#include "run-scenario-test.h"

#include "ns3/collective-helper.h"
#include "ns3/core-module.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/ib-host-adapter.h"
#include "ns3/ib-rc-transport.h"
#include "ns3/ib-subnet-helper.h"
#include "ns3/network-module.h"
#include "ns3/rdma-nic.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-transport.h"
#include "ns3/sharp-aggregation-manager.h"
#include "ns3/sharp-header.h"
#include "ns3/spine-leaf-helper.h"

#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <memory>
#include <numeric>
#include <vector>

using namespace ns3;

namespace
{

/// Bytes around a chunk's data on the wire: LRH 8, BTH 12, SharpHeader 8, ICRC 4, VCRC 2.
constexpr uint64_t CHUNK_WIRE_OVERHEAD = 8 + 12 + 8 + 4 + 2;
/// Data bytes of a chunk at the 4096-byte IB MTU: the MTU less the 8-byte SharpHeader.
constexpr uint64_t CHUNK = 4096 - 8;

/// A spine-leaf InfiniBand subnet (EDR 4x everywhere, 1 us cables) with SHARP installed.
struct SharpNetwork
{
    /// @param leaves leaves @param spines spines @param hostsPerLeaf hosts per leaf
    /// @param configure sets the manager's attributes before Install
    SharpNetwork(uint32_t leaves,
                 uint32_t spines,
                 uint32_t hostsPerLeaf,
                 const std::function<void(SharpAggregationManager&)>& configure = {},
                 bool cutThrough = false)
    {
        SpineLeafHelper fabric(leaves, spines, hostsPerLeaf);
        fabric.SetDelay(MicroSeconds(1));
        IbSubnetHelper subnet;
        subnet.SetSwitchAttribute("CutThrough", BooleanValue(cutThrough));
        ib = std::make_unique<IbRcTransport>(subnet.Build(fabric));
        sharp = std::make_unique<SharpAggregationManager>(ib->GetSubnet());
        if (configure)
        {
            configure(*sharp);
        }
        sharp->Install();
        collectives = std::make_unique<CollectiveHelper>(*ib);
        collectives->SetInNetworkReduction(sharp.get());
    }

    ~SharpNetwork()
    {
        Simulator::Destroy();
    }

    /// @return the hosts 0..n-1
    static std::vector<uint32_t> Hosts(uint32_t n, uint32_t first = 0)
    {
        std::vector<uint32_t> h(n);
        std::iota(h.begin(), h.end(), first);
        return h;
    }

    /// @return the record of the one all-reduce run
    const CollectiveRecord& Only(const std::string& kind) const
    {
        for (const auto& r : collectives->GetRecords())
        {
            if (r.kind == kind)
            {
                return r;
            }
        }
        ADD_FAILURE() << "no record " << kind;
        static CollectiveRecord none{};
        return none;
    }

    std::unique_ptr<IbRcTransport> ib;              //!< the network
    std::unique_ptr<SharpAggregationManager> sharp; //!< SHARP
    std::unique_ptr<CollectiveHelper> collectives;  //!< collectives
};

} // namespace

TEST(SharpHeaderTest, RoundTripsItsFields)
{
    SharpHeader h;
    h.SetOpcode(SharpHeader::RESULT);
    h.SetJob(0xBEEF);
    h.SetSequence(0x01020304);
    Ptr<Packet> p = Create<Packet>(10);
    p->AddHeader(h);
    EXPECT_EQ(p->GetSize(), 10u + SharpHeader::SIZE);
    uint8_t b[SharpHeader::SIZE];
    p->CopyData(b, sizeof(b));
    EXPECT_EQ(b[0], SharpHeader::RESULT);
    EXPECT_EQ(b[2], 0xBE); // network byte order
    EXPECT_EQ(b[7], 0x04);
    SharpHeader r;
    p->RemoveHeader(r);
    EXPECT_EQ(r.GetOpcode(), SharpHeader::RESULT);
    EXPECT_EQ(r.GetJob(), 0xBEEF);
    EXPECT_EQ(r.GetSequence(), 0x01020304u);
}

TEST(SharpTree, ItsRootIsTheSwitchNearestToAllTheMembersSwitches)
{
    {
        SharpNetwork n(4, 2, 4);
        // Two leaves: the root is a spine (one hop from each), the first of the two.
        const auto t = n.sharp->BuildTree({0, 5});
        EXPECT_EQ(n.ib->GetSubnet()
                      .fabric.GetNode(n.ib->GetSubnet().fabric.GetSwitchNodeId(t.root))
                      .layer,
                  "spine");
        EXPECT_EQ(t.height, 2u);
        EXPECT_EQ(t.switches.size(), 3u); // two leaves and the spine
        // One leaf: the tree is that leaf alone.
        const auto one = n.sharp->BuildTree({4, 5, 6});
        EXPECT_EQ(one.height, 1u);
        EXPECT_EQ(one.switches.size(), 1u);
    }
    {
        const IbSubnet s = IbSubnetHelper().Build(FatTreeHelper(4));
        SharpAggregationManager sharp(s);
        // Hosts of two pods: root at a core switch, height 3, 7 switches (4 edges, 2
        // aggregation switches, the core): k = 4, 2 hosts per edge, 4 per pod.
        const auto across = sharp.BuildTree({0, 2, 4, 6});
        EXPECT_EQ(s.fabric.GetNode(s.fabric.GetSwitchNodeId(across.root)).layer, "core");
        EXPECT_EQ(across.height, 3u);
        EXPECT_EQ(across.switches.size(), 7u);
        // One pod: its aggregation layer is the root.
        const auto pod = sharp.BuildTree({0, 1, 2, 3});
        EXPECT_EQ(s.fabric.GetNode(s.fabric.GetSwitchNodeId(pod.root)).layer, "aggregation");
        EXPECT_EQ(pod.height, 2u);
        EXPECT_EQ(pod.switches.size(), 3u);
        Simulator::Destroy();
    }
}

TEST(Sharp, EveryMemberLinkCarriesTheVectorOnceEachWayTheRingAlmostTwice)
{
    // 8 members on 2 leaves: SHARP sends S up and S down each member link; the ring sends
    // 2 (N - 1) / N S = 1.75 S each way.
    const uint64_t bytes = 64 * CHUNK;
    const uint64_t wire = bytes + 64 * CHUNK_WIRE_OVERHEAD;
    uint64_t ringSent = 0;
    {
        SharpNetwork n(2, 1, 4);
        n.collectives->AllReduce(SharpNetwork::Hosts(8),
                                 bytes,
                                 CollectiveHelper::IN_NETWORK,
                                 MicroSeconds(1));
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        EXPECT_GT(n.Only("allreduce:sharp").end, Time(0));
        const IbSubnet& s = n.ib->GetSubnet();
        for (uint32_t h = 0; h < 8; ++h)
        {
            // The member's port sent its chunks; its switch's port to it, the results.
            EXPECT_EQ(s.adapters[h]->GetDevice()->GetBytesSent(0), wire) << "host " << h;
            const uint32_t link = s.fabric.GetHostLink(h);
            const uint32_t v = s.fabric.GetPeer(link, s.fabric.GetHostNodeId(h));
            Ptr<IbNetDevice> down =
                s.switches[s.fabric.GetNode(v).index]->GetPort(s.fabric.GetPort(link, v));
            EXPECT_EQ(down->GetBytesSent(0), wire) << "host " << h;
        }
        EXPECT_EQ(n.sharp->GetJobsCompleted(), 1u);
    }
    {
        SharpNetwork n(2, 1, 4);
        n.collectives->AllReduce(SharpNetwork::Hosts(8),
                                 bytes,
                                 CollectiveHelper::RING,
                                 MicroSeconds(1));
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        EXPECT_GT(n.Only("allreduce:ring").end, Time(0));
        for (uint32_t h = 0; h < 8; ++h)
        {
            ringSent = n.ib->GetSubnet().adapters[h]->GetDevice()->GetBytesSent(0);
            EXPECT_GT(double(ringSent) / double(bytes), 1.75) << "host " << h;
            EXPECT_LT(double(ringSent) / double(bytes), 1.85) << "host " << h;
        }
    }
}

namespace
{

/**
 * The closed form of a streaming all-reduce over one leaf-spine-leaf tree (height 2), store and
 * forward: a chunk alone goes up two links and down two, each its packet time and the cable; the
 * leaf and the spine each take the forwarding latency and reduce it (its data at the
 * aggregation rate), and the leaf on the way down takes the forwarding latency again. The
 * chunks follow one per period, the slower of the packet time and the reduction.
 */
double
TreeOfTwoClosedForm(uint64_t chunks, double link, double aggregation, double window)
{
    const double packet = double(CHUNK + CHUNK_WIRE_OVERHEAD) * 8 / link;
    const double reduce = double(CHUNK) * 8 / aggregation;
    const double cable = 1e-6;
    const double latency = 100e-9; // IbSwitch's default ForwardingLatency
    const double alone = 4 * (packet + cable) + 3 * latency + 2 * reduce;
    const double period = std::max(packet, reduce);
    if (window * period >= alone)
    {
        return alone + double(chunks - 1) * period;
    }
    // A window below the round trip: rounds of `window` chunks, each a round trip apart.
    const auto w = static_cast<uint64_t>(window);
    return double((chunks - 1) / w) * alone + double((chunks - 1) % w) * period + alone;
}

/// Run one SHARP all-reduce of `chunks` chunks on 2 leaves x 4 hosts; @return its time, s
double
SharpTime(uint64_t chunks, const std::string& aggregation, uint32_t window, bool cutThrough = false)
{
    SharpNetwork n(
        2,
        1,
        4,
        [&](SharpAggregationManager& m) {
            m.SetNodeAttribute("AggregationRate", DataRateValue(DataRate(aggregation)));
            m.SetWindow(window);
        },
        cutThrough);
    n.collectives->AllReduce(SharpNetwork::Hosts(8),
                             chunks * CHUNK,
                             CollectiveHelper::IN_NETWORK,
                             MicroSeconds(1));
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    const CollectiveRecord& r = n.Only("allreduce:sharp");
    EXPECT_GT(r.end, Time(0));
    for (uint32_t s = 0; s < n.ib->GetSubnet().switches.size(); ++s)
    {
        // Within the job's reservation throughout, and all of it given back.
        EXPECT_EQ(n.sharp->GetNode(s)->GetOverflows(), 0u);
        EXPECT_LE(n.sharp->GetNode(s)->GetPeakHeld(), window * CHUNK);
        EXPECT_EQ(n.sharp->GetNode(s)->GetUnitsInUse(), 0u);
        EXPECT_EQ(n.sharp->GetNode(s)->GetMisdelivered(), 0u);
    }
    return (r.end - r.start).GetSeconds();
}

} // namespace

TEST(Sharp, AnAllReduceTakesThePipelineOfItsChunksUpAndDownTheTree)
{
    const double edr = 100e9; // EDR 4x data rate
    // Aggregation faster than the links: the links set the pace.
    const double fast = SharpTime(256, "200Gbps", 64);
    EXPECT_NEAR(fast / TreeOfTwoClosedForm(256, edr, 200e9, 64), 1.0, 0.002) << fast;
    // About the vector's wire time: S = 1 MB in 86 us at 100 Gb/s, far from the ring's 1.75x.
    EXPECT_LT(fast, 1.1 * double(256 * (CHUNK + CHUNK_WIRE_OVERHEAD)) * 8 / edr);
    // Aggregation at half the links' rate: the switches' units set the pace.
    const double slow = SharpTime(256, "50Gbps", 64);
    EXPECT_NEAR(slow / TreeOfTwoClosedForm(256, edr, 50e9, 64), 1.0, 0.002) << slow;
}

TEST(Sharp, CutThroughSwitchesStillTakeAChunkWholeBeforeReducingIt)
{
    // A cut-through port hands a packet over at its LRH; the aggregation node reduces it only
    // once its tail is in, which takes longer than the forwarding latency (330 ns against
    // 100 ns). So cut-through saves exactly the latency at each of the 3 nodes a chunk visits
    // (leaf, spine, leaf on the way down), no more: the last chunk's result arrives 300 ns
    // sooner.
    const double storeAndForward = SharpTime(64, "200Gbps", 64);
    const double cutThrough = SharpTime(64, "200Gbps", 64, true);
    EXPECT_NEAR(storeAndForward - cutThrough, 3 * 100e-9, 2e-9);
}

TEST(Sharp, AWindowBelowTheRoundTripHoldsTheMembersToItsRate)
{
    const double edr = 100e9;
    const double t = SharpTime(64, "200Gbps", 4);
    EXPECT_NEAR(t / TreeOfTwoClosedForm(64, edr, 200e9, 4), 1.0, 0.005) << t;
    EXPECT_GT(t, 2.5 * SharpTime(64, "200Gbps", 64));
}

TEST(Sharp, AJobBeyondTheSwitchesUnitsFallsBackToTheRingAndIsCounted)
{
    // One unit per switch: of two jobs at once on the same spine, the second runs as the ring.
    SharpNetwork n(2, 1, 4, [](SharpAggregationManager& m) {
        m.SetNodeAttribute("Units", UintegerValue(1));
    });
    n.collectives->AllReduce({0, 4}, 16 * CHUNK, CollectiveHelper::IN_NETWORK, MicroSeconds(1));
    n.collectives->AllReduce({1, 5}, 16 * CHUNK, CollectiveHelper::IN_NETWORK, MicroSeconds(1));
    // Later, with the units free again, a third is in-network.
    n.collectives->AllReduce({2, 6}, 16 * CHUNK, CollectiveHelper::IN_NETWORK, MicroSeconds(500));
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    EXPECT_EQ(n.collectives->GetInNetworkFallbacks(), 1u);
    EXPECT_EQ(n.sharp->GetJobsRefused(), 1u);
    EXPECT_EQ(n.sharp->GetJobsCompleted(), 2u);
    const auto& r = n.collectives->GetRecords();
    ASSERT_GE(r.size(), 3u);
    EXPECT_EQ(r[0].kind, "allreduce:sharp");
    EXPECT_EQ(r[1].kind, "allreduce:sharp-fallback-ring");
    EXPECT_EQ(r[2].kind, "allreduce:sharp");
    for (std::size_t i = 0; i < 3; ++i)
    {
        EXPECT_GT(r[i].end, r[i].start) << r[i].kind;
    }
    EXPECT_EQ(r[1].bytes, 2u * 16 * CHUNK); // the ring's: 2 (N - 1) S / N from each of 2
}

TEST(Sharp, AJobRefusedPartWayUpItsTreeGivesBackWhatItHadTaken)
{
    // One unit per switch. Job A, on two hosts of leaf 1, holds leaf 1's unit; job B, across
    // both leaves, takes leaf 0's, finds leaf 1's taken, and must give leaf 0's back.
    SharpNetwork n(2, 1, 4, [](SharpAggregationManager& m) {
        m.SetNodeAttribute("Units", UintegerValue(1));
    });
    const uint32_t leaf0 = n.sharp->BuildTree({0}).root;
    const uint32_t leaf1 = n.sharp->BuildTree({4}).root;
    ASSERT_LT(leaf0, leaf1); // B's tree is reserved in switch order: leaf 0 first
    n.collectives->AllReduce({4, 5}, 256 * CHUNK, CollectiveHelper::IN_NETWORK, MicroSeconds(1));
    n.collectives->AllReduce({0, 4}, 16 * CHUNK, CollectiveHelper::IN_NETWORK, MicroSeconds(1));
    bool checked = false;
    Simulator::Schedule(MicroSeconds(2), [&]() {
        EXPECT_EQ(n.sharp->GetNode(leaf1)->GetUnitsInUse(), 1u); // A's
        EXPECT_EQ(n.sharp->GetNode(leaf0)->GetUnitsInUse(), 0u); // B's, given back
        EXPECT_EQ(n.sharp->GetNode(leaf0)->GetBufferInUse(), 0u);
        checked = true;
    });
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    EXPECT_TRUE(checked);
    EXPECT_EQ(n.collectives->GetInNetworkFallbacks(), 1u);
    EXPECT_EQ(n.collectives->GetRecords()[1].kind, "allreduce:sharp-fallback-ring");
}

TEST(Sharp, AJobWhoseWindowExceedsTheBufferFallsBack)
{
    // 64 chunks of window need 64 x 4088 bytes; a 128 KiB buffer has not.
    SharpNetwork n(2, 1, 4, [](SharpAggregationManager& m) {
        m.SetNodeAttribute("BufferSize", UintegerValue(128 * 1024));
    });
    n.collectives->AllReduce(SharpNetwork::Hosts(8),
                             8 * CHUNK,
                             CollectiveHelper::IN_NETWORK,
                             MicroSeconds(1));
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    EXPECT_EQ(n.collectives->GetInNetworkFallbacks(), 1u);
    EXPECT_EQ(n.collectives->GetRecords().front().kind, "allreduce:sharp-fallback-ring");
    EXPECT_GT(n.collectives->GetRecords().front().end, Time(0));
    for (uint32_t s = 0; s < n.ib->GetSubnet().switches.size(); ++s)
    {
        EXPECT_EQ(n.sharp->GetNode(s)->GetBufferInUse(), 0u); // nothing kept of a refusal
    }
}

TEST(SharpScenario, AScenarioRunsSharpAndItsRecordsCountJobsAndFallbacks)
{
    // Two all-reduces at once on one unit per switch: the first in the switches, the second on
    // the ring; both in collectives.csv and in the summary.
    const ScenarioRunRecords r = RunScenario(
        R"({"stopTime": "2ms",
            "fabric": {"kind": "fat-tree", "k": 4, "hostRate": "200Gbps", "fabricRate": "200Gbps"},
            "link": {"technology": "infiniband", "mtu": 4096, "linkMtu": 4200},
            "sharp": {"units": 1},
            "workloads": [{"kind": "allreduce", "algorithm": "sharp", "bytes": "256KB"},
                          {"kind": "allreduce", "algorithm": "sharp", "bytes": "256KB",
                           "hosts": 8}]})",
        {},
        "sharp-scenario");
    const nlohmann::json summary = ReadSummary(r);
    ASSERT_TRUE(summary.contains("sharp"));
    EXPECT_EQ(summary["sharp"]["jobsStarted"], 1);
    EXPECT_EQ(summary["sharp"]["jobsCompleted"], 1);
    EXPECT_EQ(summary["sharp"]["jobsRefused"], 1);
    EXPECT_EQ(summary["sharp"]["fallbacksToRing"], 1);
    EXPECT_EQ(summary["sharp"]["overflows"], 0);
    // 256 KB in 63 chunks, reduced on each of the 13 switches of the 16 hosts' tree.
    EXPECT_EQ(summary["sharp"]["chunksReduced"], 63 * 13);
    std::ifstream in(r.dir + "/collectives.csv");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("\nallreduce:sharp,0-15,4096000,0,"), std::string::npos) << text;
    EXPECT_NE(text.find("\nallreduce:sharp-fallback-ring,0-7,"), std::string::npos) << text;
    // Without SHARP in the run, no such record.
    const ScenarioRunRecords ring = RunScenario(
        R"({"stopTime": "2ms",
            "fabric": {"kind": "fat-tree", "k": 4, "hostRate": "200Gbps", "fabricRate": "200Gbps"},
            "link": {"technology": "infiniband", "mtu": 4096, "linkMtu": 4200},
            "workloads": [{"kind": "allreduce", "bytes": "256KB"}]})",
        {},
        "sharp-scenario-ring");
    EXPECT_FALSE(ReadSummary(ring).contains("sharp"));
}

TEST(SharpScenario, SharpOutsideInfiniBandOrWithBadValuesIsRefusedByName)
{
    EXPECT_CONFIG_ERROR(
        Scenario::Parse(R"({"link": {"technology": "iwarp"},
                            "workloads": [{"kind": "allreduce", "algorithm": "sharp"}]})",
                        "t.json",
                        {}),
        "workloads.0.algorithm = sharp: accepted: ring, or sharp with link.technology "
        "infiniband");
    EXPECT_CONFIG_ERROR(
        Scenario::Parse(R"({"workloads": [{"kind": "allreduce", "algorithm": "tree"}]})",
                        "t.json",
                        {}),
        "workloads.0.algorithm = \"tree\": accepted: one of ring, sharp");
    EXPECT_CONFIG_ERROR(Scenario::Parse(R"({"sharp": {"aggregationRate": "fast"}})", "t.json", {}),
                        "sharp.aggregationRate = fast");
    EXPECT_CONFIG_ERROR(Scenario::Parse(R"({"sharp": {"units": 0}})", "t.json", {}),
                        "sharp.units = 0");
    EXPECT_CONFIG_ERROR(Scenario::Parse(R"({"sharp": {"window": 0}})", "t.json", {}),
                        "sharp.window = 0");
}

TEST(SharpScenario, NvlsInTheServersAndSharpBetweenThemFromAScenario)
{
    // 2 DGX H100s on an InfiniBand rail-optimized fabric: NVLS inside, one SHARP job per rail
    // between the servers (a rail's two NICs share its rail switch: a tree of one switch).
    const std::string json = R"({"stopTime": "5ms",
        "fabric": {"kind": "rail-optimized", "servers": 2, "nicsPerServer": 8, "spines": 2,
                   "hostRate": "400Gbps", "fabricRate": "400Gbps"},
        "link": {"technology": "infiniband", "mtu": 4096, "linkMtu": 4200},
        "server": {"preset": "dgx-h100"},
        "workloads": [{"kind": "allreduce", "algorithm": "nvls-sharp", "bytes": "8MB",
                       "start": "10us"}]})";
    const ScenarioRunRecords r = RunScenario(json, {}, "nvls-sharp");
    const nlohmann::json summary = ReadSummary(r);
    EXPECT_EQ(summary["sharp"]["jobsStarted"], 8);
    EXPECT_EQ(summary["sharp"]["jobsCompleted"], 8);
    // Each rail's shard, 1 MB, in 245 chunks on its one switch.
    EXPECT_EQ(summary["sharp"]["chunksReduced"], 8 * 245);
    std::ifstream in(r.dir + "/collectives.csv");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (const char* kind :
         {"\nallreduce:nvls-sharp,0-15,", "\nnvls:reduce-scatter,0-15,", "\nnvls:all-gather,0-15,"})
    {
        EXPECT_NE(text.find(kind), std::string::npos) << kind << text;
    }
    EXPECT_EQ(text.find(",,"), std::string::npos) << text; // every phase finished
    // What NVLS needs, refused by name.
    EXPECT_CONFIG_ERROR(
        Scenario::Parse(R"({"workloads": [{"kind": "allreduce", "algorithm": "nvls"}]})",
                        "t.json",
                        {}),
        "workloads.0.algorithm = nvls: accepted: ring or hierarchical unless server.preset is "
        "dgx-h100 or nvl72");
    EXPECT_CONFIG_ERROR(Scenario::Parse(json, "t.json", {"server.preset=dgx-a100"}),
                        "workloads.0.algorithm = nvls-sharp: accepted: ring or hierarchical");
    EXPECT_CONFIG_ERROR(Scenario::Parse(json, "t.json", {"link.technology=iwarp"}),
                        "workloads.0.algorithm = nvls-sharp: accepted: nvls, or nvls-sharp with "
                        "link.technology infiniband or roce");
    Simulator::Destroy();
}

TEST(SharpRoce, OnEthernetEveryMemberLinkCarriesTheVectorOnceEachWay)
{
    // SHARP on a RoCEv2 spine-leaf (the aggregation nodes at the switches' own addresses):
    // each member's NIC and its switch's port to it send exactly the vector's chunks (IPv4, UDP,
    // BTH, SharpHeader, data, ICRC in an Ethernet frame), and the all-reduce takes its
    // pipeline's closed form.
    RoceHelper roce;
    roce.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
    roce.SetQueuePairAttribute("Mtu", UintegerValue(1024));
    SpineLeafHelper fabric(2, 1, 4);
    fabric.SetDelay(MicroSeconds(1));
    const Fabric built = roce.Build(fabric);
    RoceTransport rdma(roce);
    SharpAggregationManager sharp(roce, built);
    sharp.SetServiceLevel(3);
    sharp.Install();
    CollectiveHelper collectives(rdma);
    collectives.SetInNetworkReduction(&sharp);
    EXPECT_EQ(sharp.GetChunkBytes(), 1016u);
    const uint64_t bytes = 256 * 1016;
    collectives.AllReduce(SharpNetwork::Hosts(8),
                          bytes,
                          CollectiveHelper::IN_NETWORK,
                          MicroSeconds(1));
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    const CollectiveRecord& r = collectives.GetRecords().front();
    ASSERT_EQ(r.kind, "allreduce:sharp");
    ASSERT_GT(r.end, Time(0));
    // 256 frames of 14 + 44 + 8 + 1016 bytes, each with 24 bytes of preamble, FCS and gap.
    const uint64_t wire = 256 * (14 + 44 + 8 + 1016 + 24);
    EXPECT_EQ(sharp.WireBytes(bytes), wire);
    for (uint32_t h = 0; h < 8; ++h)
    {
        EXPECT_EQ(roce.GetNic(h)->GetDevice()->GetTxBytes(), wire) << "host " << h;
        const uint32_t link = built.GetHostLink(h);
        const uint32_t v = built.GetPeer(link, built.GetHostNodeId(h));
        EXPECT_EQ(
            roce.GetSwitch(built.GetNode(v).index)->GetPort(built.GetPort(link, v))->GetTxBytes(),
            wire)
            << "host " << h;
    }
    // The pipeline's closed form (as on InfiniBand, with no forwarding latency here): a chunk
    // alone up two links and down two, reduced at the leaf and the spine (200 Gb/s), then one
    // frame time a chunk.
    const double frame = (14 + 44 + 8 + 1016 + 24) * 8 / 100e9;
    const double closed = 4 * (frame + 1e-6) + 2 * (1016 * 8 / 200e9) + 255 * frame;
    EXPECT_NEAR((r.end - r.start).GetSeconds() / closed, 1.0, 0.002);
    EXPECT_EQ(sharp.GetJobsCompleted(), 1u);
    for (uint32_t s = 0; s < built.GetNSwitches(); ++s)
    {
        EXPECT_EQ(roce.GetSwitch(s)->GetAggregationDrops(), 0u);
        EXPECT_EQ(sharp.GetNode(s)->GetMisdelivered(), 0u);
    }
    Simulator::Destroy();
}

namespace
{

/// Leave ns-3's buffer blocks of about the size an aggregation frame's reallocation takes
/// holding bytes of 0xFF, as packets that came and went leave them.
void
DirtyTheBufferBlocks()
{
    std::vector<Ptr<Packet>> gone;
    const std::vector<uint8_t> ones(256, 0xFF);
    for (uint32_t size = 40; size <= 256; size += 4)
    {
        gone.push_back(Create<Packet>(ones.data(), size));
    }
}

} // namespace

TEST(SharpFraming, AnAggregationFramesIcrcIsZeroNotWhatItsBufferHeld)
{
    // The NICs frame an aggregation packet (its SharpHeader and data, real bytes) with an ICRC
    // of 0; padding the packet had left the 4 bytes as the buffer block it was copied into held
    // them (here, another packet's 0xFF).
    const std::vector<uint8_t> data(64, 0x11);
    DirtyTheBufferBlocks();
    Ptr<Packet> roce = Create<Packet>(data.data(), data.size());
    RdmaNic::FrameAggregation(roce, Ipv4Address("10.0.0.1"), Ipv4Address("10.0.0.2"), 3);
    EXPECT_EQ(test::LastWord(roce), 0u);
    DirtyTheBufferBlocks();
    Ptr<Packet> ib = Create<Packet>(data.data(), data.size());
    IbHostAdapter::FrameAggregation(ib, 0, 0, 2, 1);
    EXPECT_EQ(test::LastWord(ib), 0u);
    // And unframed, each is its data again.
    ASSERT_TRUE(RdmaNic::UnframeAggregation(roce));
    ASSERT_TRUE(IbHostAdapter::UnframeAggregation(ib));
    EXPECT_EQ(roce->GetSize(), data.size());
    EXPECT_EQ(ib->GetSize(), data.size());
}
