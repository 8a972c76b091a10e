/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The fabric helpers: node and link counts at several sizes, reachability along the installed
// routes, equal-cost path counts, torus hop counts, metrics, exports, parameter errors, a
// permutation workload at line rate with packet spray, and a 1024-host build.

#include "config-error-test.h"

#include "ns3/core-module.h"
#include "ns3/fabric-helper.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/rail-optimized-helper.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-transport.h"
#include "ns3/spine-leaf-helper.h"
#include "ns3/three-tier-helper.h"
#include "ns3/torus-helper.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <random>

using namespace ns3;

namespace
{

class FabricHelperTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }
};

/// Every host reaches every other host along the routes, by every path the routes allow.
void
ExpectAllPairsReachable(const Fabric& f)
{
    for (uint32_t s = 0; s < f.GetNHosts(); ++s)
    {
        for (uint32_t d = 0; d < f.GetNHosts(); ++d)
        {
            if (s == d)
            {
                continue;
            }
            const std::vector<uint32_t> path = f.TracePath(s, d);
            ASSERT_FALSE(path.empty()) << f.GetKind() << ": " << s << " -> " << d;
            ASSERT_EQ(path.back(), f.GetHostNodeId(d));
            ASSERT_GE(f.CountPaths(s, d), 1u) << f.GetKind() << ": " << s << " -> " << d;
        }
    }
}

/// The dimension-order distance between two switches of a torus, in links.
uint32_t
TorusDistance(const std::vector<uint32_t>& a,
              const std::vector<uint32_t>& b,
              const std::vector<uint32_t>& dims)
{
    uint32_t hops = 0;
    for (std::size_t i = 0; i < dims.size(); ++i)
    {
        const uint32_t forward = (b[i] + dims[i] - a[i]) % dims[i];
        hops += std::min(forward, dims[i] - forward);
    }
    return hops;
}

/// Resident set size of this process, kB (Linux).
long
RssKb()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
    {
        if (line.rfind("VmRSS:", 0) == 0)
        {
            return std::stol(line.substr(6));
        }
    }
    return -1;
}

} // namespace

TEST(FabricHelper, FatTreeCounts)
{
    for (uint32_t k : {2u, 4u, 8u, 12u})
    {
        const Fabric f = FatTreeHelper(k).Describe();
        EXPECT_EQ(f.GetNHosts(), k * k * k / 4) << "k=" << k;
        EXPECT_EQ(f.GetNSwitches(), 5 * k * k / 4) << "k=" << k;
        EXPECT_EQ(f.GetNLinks(), 3 * k * k * k / 4) << "k=" << k;
        // Every switch has k ports.
        for (uint32_t s = 0; s < f.GetNSwitches(); ++s)
        {
            ASSERT_EQ(f.GetNodeLinks(f.GetSwitchNodeId(s)).size(), k);
        }
    }
    EXPECT_EQ(FatTreeHelper(4).Describe().GetNHosts(), 16u);
    EXPECT_EQ(FatTreeHelper(4).Describe().GetNSwitches(), 20u);
    EXPECT_EQ(FatTreeHelper(8).Describe().GetNHosts(), 128u);
    EXPECT_EQ(FatTreeHelper(8).Describe().GetNSwitches(), 80u);
}

TEST(FabricHelper, SpineLeafCounts)
{
    SpineLeafHelper small(4, 2, 8);
    Fabric f = small.Describe();
    EXPECT_EQ(f.GetNHosts(), 32u);
    EXPECT_EQ(f.GetNSwitches(), 6u);
    EXPECT_EQ(f.GetNLinks(), 32u + 4 * 2);
    EXPECT_DOUBLE_EQ(small.GetOversubscription(), 4.0);
    SpineLeafHelper large(16, 8, 32);
    large.SetFabricRate(DataRate("400Gbps"));
    f = large.Describe();
    EXPECT_EQ(f.GetNHosts(), 512u);
    EXPECT_EQ(f.GetNSwitches(), 24u);
    EXPECT_EQ(f.GetNLinks(), 512u + 16 * 8);
    EXPECT_DOUBLE_EQ(large.GetOversubscription(), 1.0);
}

TEST(FabricHelper, ThreeTierCountsFollowTheOversubscription)
{
    // 8 x 25G hosts per access switch, 1:1 over 2 aggregation switches: one 100G link to each;
    // 4 access x 100G per aggregation switch, 2:1 over 2 cores: one 100G link to each.
    ThreeTierHelper oneLink(2, 4, 2, 2, 8);
    oneLink.SetHostRate(DataRate("25Gbps"));
    oneLink.SetAggregationOversubscription(2);
    Fabric f = oneLink.Describe();
    EXPECT_EQ(f.GetNHosts(), 64u);
    EXPECT_EQ(f.GetNSwitches(), 2u * (4 + 2) + 2);
    EXPECT_EQ(f.GetNLinks(), 64u + 2 * 4 * 2 + 2 * 2 * 2);
    // 8 x 100G at 2:1: two 100G links to each aggregation switch; 4 x 2 x 100G at 1:1 over 2
    // cores: four links to each.
    ThreeTierHelper parallel(2, 4, 2, 2, 8);
    parallel.SetAccessOversubscription(2);
    f = parallel.Describe();
    EXPECT_EQ(f.GetNLinks(), 64u + 2 * 4 * 2 * 2 + 2 * 2 * 2 * 4);
    // Each access switch's route up is an ECMP group over both parallel links of both
    // aggregation switches.
    const uint32_t access = f.GetNode(f.GetPeer(f.GetHostLink(0), 0)).index;
    EXPECT_EQ(f.GetRoute(access, 63).size(), 4u);
    // Bisection, first pod to second: 2 aggregation x 2 cores x 4 links x 100G = 1.6 Tb/s.
    EXPECT_EQ(f.GetBisectionBandwidth(), 1600000000000u);
}

TEST(FabricHelper, RailOptimizedCounts)
{
    Fabric f = RailOptimizedHelper(8, 4, 2).Describe();
    EXPECT_EQ(f.GetNHosts(), 32u);
    EXPECT_EQ(f.GetNSwitches(), 4u + 2);
    EXPECT_EQ(f.GetNLinks(), 32u + 4 * 2);
    // NIC r of every server is on rail r's leaf.
    for (uint32_t h = 0; h < f.GetNHosts(); ++h)
    {
        const FabricNode& leaf = f.GetNode(f.GetPeer(f.GetHostLink(h), h));
        EXPECT_EQ(leaf.name, "rail" + std::to_string(h % 4) + "-0");
        EXPECT_EQ(f.GetNode(h).name,
                  "server" + std::to_string(h / 4) + "-nic" + std::to_string(h % 4));
    }
    // Same rail: one leaf between them; another rail: through a spine.
    EXPECT_EQ(f.GetHopCount(0, 4), 2u);
    EXPECT_EQ(f.GetHopCount(0, 5), 4u);
    EXPECT_EQ(f.CountPaths(0, 5), 2u);
    RailOptimizedHelper grouped(8, 4, 2);
    grouped.SetServersPerLeaf(4);
    f = grouped.Describe();
    EXPECT_EQ(f.GetNSwitches(), 8u + 2);
    EXPECT_EQ(f.GetNLinks(), 32u + 8 * 2);
}

TEST(FabricHelper, TorusCounts)
{
    Fabric f = TorusHelper({4, 4}).Describe();
    EXPECT_EQ(f.GetNHosts(), 16u);
    EXPECT_EQ(f.GetNSwitches(), 16u);
    EXPECT_EQ(f.GetNLinks(), 16u + 16 * 2);
    uint32_t wraps = 0;
    for (const FabricLink& l : f.GetLinks())
    {
        wraps += l.wrapAround ? 1 : 0;
    }
    EXPECT_EQ(wraps, 4u + 4); // one per ring
    TorusHelper cube({4, 4, 4});
    cube.SetHostsPerSwitch(2);
    f = cube.Describe();
    EXPECT_EQ(f.GetNHosts(), 128u);
    EXPECT_EQ(f.GetNSwitches(), 64u);
    EXPECT_EQ(f.GetNLinks(), 128u + 64 * 3);
    // A dimension of 2: two parallel links, one of them the wrap-around.
    f = TorusHelper({3, 2, 2}).Describe();
    EXPECT_EQ(f.GetNSwitches(), 12u);
    EXPECT_EQ(f.GetNLinks(), 12u + 12 * 3);
}

TEST(FabricHelper, EveryHostReachesEveryOtherHost)
{
    ThreeTierHelper threeTier(3, 2, 2, 2, 4);
    threeTier.SetAccessOversubscription(2);
    TorusHelper torus3d({3, 4, 2});
    torus3d.SetHostsPerSwitch(2);
    RailOptimizedHelper rail(6, 4, 3);
    rail.SetServersPerLeaf(2);
    for (const FabricHelper* helper : std::vector<const FabricHelper*>{&threeTier, &torus3d, &rail})
    {
        ExpectAllPairsReachable(helper->Describe());
    }
    ExpectAllPairsReachable(FatTreeHelper(4).Describe());
    ExpectAllPairsReachable(FatTreeHelper(8).Describe());
    ExpectAllPairsReachable(SpineLeafHelper(5, 3, 4).Describe());
    ExpectAllPairsReachable(TorusHelper({5, 4}).Describe());
}

TEST(FabricHelper, FatTreeHasKHalfSquaredPathsBetweenPods)
{
    for (uint32_t k : {4u, 8u})
    {
        const Fabric f = FatTreeHelper(k).Describe();
        const uint32_t half = k / 2;
        const uint32_t perPod = half * half;
        for (uint32_t s = 0; s < f.GetNHosts(); ++s)
        {
            for (uint32_t d = 0; d < f.GetNHosts(); ++d)
            {
                if (s == d)
                {
                    continue;
                }
                uint64_t expected = 1; // same edge switch
                uint32_t hops = 2;
                if (s / perPod != d / perPod)
                {
                    expected = perPod; // (k/2)^2 cores
                    hops = 6;
                }
                else if (s / half != d / half)
                {
                    expected = half; // k/2 aggregation switches of the pod
                    hops = 4;
                }
                ASSERT_EQ(f.CountPaths(s, d), expected) << "k=" << k << " " << s << "->" << d;
                ASSERT_EQ(f.GetHopCount(s, d), hops);
            }
        }
    }
}

TEST(FabricHelper, TorusHopCountsAreTheDimensionOrderDistance)
{
    for (const std::vector<uint32_t>& dims :
         std::vector<std::vector<uint32_t>>{{4, 4}, {5, 3}, {4, 3, 2}, {6, 5}})
    {
        TorusHelper helper(dims);
        helper.SetHostsPerSwitch(2);
        const Fabric f = helper.Describe();
        for (uint32_t s = 0; s < f.GetNHosts(); ++s)
        {
            for (uint32_t d = 0; d < f.GetNHosts(); ++d)
            {
                if (s == d)
                {
                    continue;
                }
                const uint32_t expected =
                    2 + TorusDistance(f.GetNode(s).coordinates, f.GetNode(d).coordinates, dims);
                ASSERT_EQ(f.GetHopCount(s, d), expected) << f.GetKind() << " " << s << "->" << d;
                ASSERT_EQ(f.CountPaths(s, d), 1u); // dimension order: one path
                // Dimension order: the coordinates change in dimension 0 first, then 1, then 2.
                const std::vector<uint32_t> path = f.TracePath(s, d);
                std::size_t lastDim = 0;
                for (std::size_t i = 2; i + 1 < path.size(); ++i)
                {
                    const auto& a = f.GetNode(path[i - 1]).coordinates;
                    const auto& b = f.GetNode(path[i]).coordinates;
                    std::size_t changed = 0;
                    while (a[changed] == b[changed])
                    {
                        ++changed;
                    }
                    ASSERT_GE(changed, lastDim);
                    lastDim = changed;
                }
            }
        }
    }
}

TEST(FabricHelper, MetricsAndDescription)
{
    const Fabric fatTree = FatTreeHelper(4).Describe();
    EXPECT_EQ(fatTree.GetDiameter(), 6u);
    EXPECT_EQ(fatTree.GetBisectionBandwidth(), 800000000000u); // 8 hosts x 100G: full
    EXPECT_EQ(fatTree.Describe(),
              "fat-tree k=4: 16 hosts, 20 switches, 48 links, bisection 800 Gb/s, "
              "diameter 6 hops");
    // Spine-leaf 4:1: the uplinks of two leaves, 2 x 2 x 100G.
    const Fabric spineLeaf = SpineLeafHelper(4, 2, 8).Describe();
    EXPECT_EQ(spineLeaf.GetDiameter(), 4u);
    EXPECT_EQ(spineLeaf.GetBisectionBandwidth(), 400000000000u);
    // Torus 4x4 with two hosts per switch: cutting the rings of dimension 1 in two places
    // cuts 2 x 4 links.
    TorusHelper torus({4, 4});
    torus.SetHostsPerSwitch(2);
    const Fabric t = torus.Describe();
    EXPECT_EQ(t.GetDiameter(), 2u + 2 + 2);
    EXPECT_EQ(t.GetBisectionBandwidth(), 800000000000u);
    EXPECT_EQ(t.GetPriorityRemaps().empty(), false);
}

TEST(FabricHelper, DotAndJsonExports)
{
    const Fabric f = FatTreeHelper(4).Describe();
    const std::string dot = f.ToDot();
    EXPECT_EQ(dot.rfind("graph G {", 0), 0u);
    EXPECT_NE(dot.find("label=\"core3\""), std::string::npos);
    EXPECT_NE(dot.find("label=\"100 Gb/s\""), std::string::npos);
    uint32_t edges = 0;
    for (std::size_t at = dot.find("--"); at != std::string::npos; at = dot.find("--", at + 2))
    {
        ++edges;
    }
    EXPECT_EQ(edges, 48u);
    const std::string json = f.ToJson();
    EXPECT_NE(json.find("\"hosts\": 16"), std::string::npos);
    EXPECT_NE(json.find("\"switches\": 20"), std::string::npos);
    EXPECT_NE(json.find("\"bisectionBps\": 800000000000"), std::string::npos);
    EXPECT_NE(json.find("{\"id\": 47, \"a\":"), std::string::npos);
    EXPECT_EQ(json.find("{\"id\": 48, \"a\":"), std::string::npos);
    EXPECT_NE(json.find("\"rateBps\": 100000000000, \"delayNs\": 1000"), std::string::npos);
    EXPECT_NE(json.find("\"name\": \"aggregation3-1\", \"kind\": \"switch\""), std::string::npos);
    const std::string dotPath = ::testing::TempDir() + "fabric-test.dot";
    const std::string jsonPath = ::testing::TempDir() + "fabric-test.json";
    ASSERT_TRUE(f.WriteDot(dotPath));
    ASSERT_TRUE(f.WriteJson(jsonPath));
    std::ifstream in(jsonPath);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text, json);
    std::remove(dotPath.c_str());
    std::remove(jsonPath.c_str());
    EXPECT_FALSE(f.WriteJson("/nonexistent-dir/fabric.json"));
}

TEST(FabricHelperConfig, InvalidParametersNameThemselves)
{
    EXPECT_CONFIG_ERROR(FatTreeHelper(5).Describe(),
                        "FatTreeHelper::k = 5: accepted: an even number >= 2");
    EXPECT_CONFIG_ERROR(FatTreeHelper(0).Describe(),
                        "FatTreeHelper::k = 0: accepted: an even number");
    EXPECT_CONFIG_ERROR(SpineLeafHelper(4, 2, 0).Describe(),
                        "SpineLeafHelper::hostsPerLeaf = 0: accepted: a whole number >= 1");
    EXPECT_CONFIG_ERROR(SpineLeafHelper(4, 0, 8).Describe(), "SpineLeafHelper::spines = 0");
    EXPECT_CONFIG_ERROR(TorusHelper({4, 1}).Describe(),
                        "TorusHelper::dimensions\\[1\\] = 1: accepted: at least 2 switches");
    EXPECT_CONFIG_ERROR(TorusHelper({4, 4, 4, 4}).Describe(),
                        "TorusHelper::dimensions = 4 dimensions: accepted: 2 or 3 dimensions");
    EXPECT_CONFIG_ERROR(
        {
            TorusHelper t({4, 4});
            t.SetHostsPerSwitch(0);
            t.Describe();
        },
        "TorusHelper::hostsPerSwitch = 0");
    // 8 x 100G at 3:1 over 2 aggregation switches: 1.33 links each.
    EXPECT_CONFIG_ERROR(
        {
            ThreeTierHelper t(2, 4, 2, 2, 8);
            t.SetAccessOversubscription(3);
            t.Describe();
        },
        "ThreeTierHelper::accessOversubscription = 3: accepted: a ratio > 0 that gives a whole "
        "number .* \\(this one gives 1.33333\\)");
    EXPECT_CONFIG_ERROR(
        {
            ThreeTierHelper t(2, 4, 2, 2, 8);
            t.SetAggregationOversubscription(0);
            t.Describe();
        },
        "ThreeTierHelper::aggregationOversubscription = 0");
    EXPECT_CONFIG_ERROR(
        {
            RailOptimizedHelper r(8, 4, 2);
            r.SetServersPerLeaf(3);
            r.Describe();
        },
        "RailOptimizedHelper::serversPerLeaf = 3: accepted: 0 \\(all servers\\) or a divisor");
    EXPECT_CONFIG_ERROR(
        {
            FatTreeHelper f(4);
            f.SetFabricRate(DataRate(0));
            f.Describe();
        },
        "FatTreeHelper::fabricRate = 0bps: accepted: a rate above 0");
}

TEST_F(FabricHelperTest, BuildInstallsTheFabricsRoutes)
{
    for (int which = 0; which < 2; ++which)
    {
        RoceHelper roce;
        TorusHelper torus({3, 4});
        const Fabric f = which == 0 ? roce.Build(FatTreeHelper(4)) : roce.Build(torus);
        ASSERT_EQ(roce.GetHosts().GetN(), f.GetNHosts());
        ASSERT_EQ(roce.GetSwitches().GetN(), f.GetNSwitches());
        for (uint32_t s = 0; s < f.GetNSwitches(); ++s)
        {
            Ptr<RoceSwitch> sw = roce.GetSwitch(s);
            const uint32_t node = f.GetSwitchNodeId(s);
            EXPECT_EQ(f.GetNode(node).node->GetObject<RoceSwitch>(), sw);
            for (uint32_t h = 0; h < f.GetNHosts(); ++h)
            {
                std::vector<uint32_t> expected;
                for (uint32_t l : f.GetRoute(s, h))
                {
                    expected.push_back(f.GetPort(l, node));
                    // The port is the link's device.
                    EXPECT_EQ(sw->GetPort(expected.back()),
                              f.GetLink(l).a == node ? f.GetLink(l).deviceA : f.GetLink(l).deviceB);
                }
                EXPECT_EQ(sw->GetRoute(roce.GetAddress(h)), expected);
            }
        }
        // Each link got its rate and delay.
        for (const FabricLink& l : f.GetLinks())
        {
            Ptr<PfcNetDevice> d = DynamicCast<PfcNetDevice>(l.deviceA);
            EXPECT_EQ(d->GetDataRate(), l.rate);
            EXPECT_EQ(d->GetChannelDelay(), l.delay);
            EXPECT_EQ(d->GetPeer(), l.deviceB);
        }
        Simulator::Destroy();
    }
}

namespace
{

/// Every host of a k=4 fat-tree writes `bytes` to another (a fixed permutation without fixed
/// points, mostly between pods) at the same time, 4096-byte path MTU.
/// @return the mean over the flows of (ideal FCT / FCT): 1 is line rate with every overhead
double
RunPermutation(RoceTransport& rdma, const Fabric& f, uint64_t bytes)
{
    std::vector<uint32_t> peer(f.GetNHosts());
    for (uint32_t i = 0; i < peer.size(); ++i)
    {
        peer[i] = i;
    }
    std::mt19937 rng(7);
    std::shuffle(peer.begin(), peer.end(), rng);
    for (uint32_t i = 0; i < peer.size(); ++i)
    {
        if (peer[i] == i)
        {
            std::swap(peer[i], peer[(i + 1) % peer.size()]);
        }
    }
    for (uint32_t i = 0; i < peer.size(); ++i)
    {
        rdma.Post(i, peer[i], RdmaVerb::WRITE, bytes, MicroSeconds(1), 3);
    }
    Simulator::Run();
    double sum = 0;
    for (const FlowRecord& r : rdma.GetFlows())
    {
        if (r.end.IsZero())
        {
            return 0;
        }
        sum += r.idealFct.GetSeconds() / (r.end - r.start).GetSeconds();
    }
    return sum / rdma.GetFlows().size();
}

/// A RoceHelper for the permutation runs.
void
ConfigurePermutation(RoceHelper& roce, bool spray)
{
    roce.SetDeviceAttribute("Mtu", UintegerValue(4200));
    roce.SetQueuePairAttribute("Mtu", UintegerValue(4096));
    roce.SetSwitchAttribute("EcmpMode", StringValue(spray ? "PacketSpray" : "FlowHash"));
    // Spraying reorders packets: the responder places them out of order, as NICs do under
    // adaptive routing, instead of NAKing every swap.
    roce.SetQueuePairAttribute("OutOfOrderReceive", BooleanValue(spray));
}

} // namespace

TEST_F(FabricHelperTest, PacketSpraySpreadsAPermutationEvenlyOverTheCores)
{
    // What the fabric owes packet spray: every flow between pods is split evenly over the
    // (k/2)^2 core paths, so the cores forward the same number of frames; with one path per
    // flow (FlowHash) they do not. Lossless either way.
    std::vector<double> coreShare[2];
    for (bool spray : {false, true})
    {
        RoceHelper roce;
        ConfigurePermutation(roce, spray);
        const Fabric f = roce.Build(FatTreeHelper(4));
        RoceTransport rdma(roce);
        const double ratio = RunPermutation(rdma, f, 1000000);
        const RoceStatistics st = rdma.CollectStatistics();
        EXPECT_EQ(st.messagesCompleted, 16u);
        EXPECT_EQ(st.dropsBuffer + st.dropsNoRoute, 0u);
        uint64_t lo = UINT64_MAX;
        uint64_t hi = 0;
        for (uint32_t s = 0; s < f.GetNSwitches(); ++s)
        {
            if (f.GetNode(f.GetSwitchNodeId(s)).layer == "core")
            {
                lo = std::min(lo, roce.GetSwitch(s)->GetForwarded());
                hi = std::max(hi, roce.GetSwitch(s)->GetForwarded());
            }
        }
        std::printf("permutation, k=4, 16 x 1 MB, %s: mean per-flow rate %.1f%% of the ideal; "
                    "core frames %lu..%lu; %lu packets resent\n",
                    spray ? "packet spray" : "flow hash",
                    100 * ratio,
                    static_cast<unsigned long>(lo),
                    static_cast<unsigned long>(hi),
                    static_cast<unsigned long>(st.retransmitted));
        if (spray)
        {
            EXPECT_LT(static_cast<double>(hi) / lo, 1.05);
        }
        else
        {
            EXPECT_GT(static_cast<double>(hi) / lo, 1.2); // this permutation collides
            EXPECT_EQ(st.retransmitted, 0u);              // one path per flow: never reordered
        }
        Simulator::Destroy();
    }
}

// The target: on a non-blocking fat-tree a permutation with packet spray reaches >= 90%
// of line rate per flow on average. Spraying over paths loaded to exactly 100% reorders packets
// all the time, so the queue pairs place out of order (OutOfOrderReceive, set by
// ConfigurePermutation); with go-back-N alone every swap would cost a NAK and a resend (30% of
// the ideal rate when this was measured without it).
TEST_F(FabricHelperTest, PermutationOnANonBlockingFatTreeReachesLineRateWithSpray)
{
    RoceHelper roce;
    ConfigurePermutation(roce, true);
    const Fabric f = roce.Build(FatTreeHelper(4));
    RoceTransport rdma(roce);
    EXPECT_GE(RunPermutation(rdma, f, 2000000), 0.90);
}

TEST_F(FabricHelperTest, FatTreeK16BuildsA1024HostNetwork)
{
    const long before = RssKb();
    const auto start = std::chrono::steady_clock::now();
    RoceHelper roce;
    const Fabric f = roce.Build(FatTreeHelper(16));
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(f.GetNHosts(), 1024u);
    EXPECT_EQ(f.GetNSwitches(), 320u);
    EXPECT_EQ(f.GetNLinks(), 3072u);
    EXPECT_EQ(roce.GetHosts().GetN(), 1024u);
    EXPECT_EQ(roce.GetSwitches().GetN(), 320u);
    EXPECT_EQ(f.CountPaths(0, 1023), 64u);
    EXPECT_EQ(f.GetBisectionBandwidth(), 512u * 100000000000u);
    EXPECT_EQ(roce.GetSwitch(0)->GetRoute(roce.GetAddress(1023)).size(), 8u);
    // Reported, not asserted: the time and memory of the build.
    std::printf("fat-tree k=16: built in %.2f s, resident memory +%ld kB\n",
                seconds,
                RssKb() - before);
}

TEST(FabricPartition, PodsGoToRanksWithTheirHostsAndSwitches)
{
    const Fabric f = FatTreeHelper(4).Describe();
    const FabricPartition p = f.Partition("auto", 2);
    EXPECT_EQ(p.policy, "group");
    ASSERT_EQ(p.rank.size(), f.GetNodes().size());
    EXPECT_EQ(p.hostsPerRank, (std::vector<uint32_t>{8, 8}));
    EXPECT_EQ(p.nodesPerRank[0] + p.nodesPerRank[1], 36u);
    uint32_t across = 0;
    for (const FabricLink& l : f.GetLinks())
    {
        const FabricNode& a = f.GetNode(l.a);
        const FabricNode& b = f.GetNode(l.b);
        if (a.group >= 0 && b.group >= 0)
        {
            EXPECT_EQ(p.rank[l.a], p.rank[l.b]) << a.name << " - " << b.name; // inside a pod
        }
        across += p.rank[l.a] != p.rank[l.b] ? 1 : 0;
    }
    // Pods 0-1 on rank 0, 2-3 on rank 1; cores alternate: half of the 16 core links cross.
    for (const FabricNode& v : f.GetNodes())
    {
        if (v.group >= 0)
        {
            EXPECT_EQ(p.rank[&v - &f.GetNodes()[0]], v.group < 2 ? 0u : 1u) << v.name;
        }
    }
    EXPECT_EQ(p.crossLinks, across);
    EXPECT_EQ(across, 8u);
    EXPECT_EQ(p.lookahead, MicroSeconds(1)); // the links' delay
    // One rank: nothing crosses.
    const FabricPartition one = f.Partition("group", 1);
    EXPECT_EQ(one.crossLinks, 0u);
    EXPECT_EQ(one.lookahead, Time(0));
    EXPECT_NE(p.Describe().find("8 links across ranks, lookahead 1000 ns"), std::string::npos)
        << p.Describe();
}

TEST(FabricPartition, TorusIsCutIntoSlabs)
{
    const Fabric f = TorusHelper({4, 4}).Describe();
    const FabricPartition p = f.Partition("auto", 2);
    EXPECT_EQ(p.policy, "slab");
    for (std::size_t v = 0; v < f.GetNodes().size(); ++v)
    {
        EXPECT_EQ(p.rank[v], f.GetNodes()[v].coordinates[0] < 2 ? 0u : 1u);
    }
    // Two cuts (between x = 1 and 2, and the wrap-around between 3 and 0), 4 links each.
    EXPECT_EQ(p.crossLinks, 8u);
}

TEST(FabricPartitionDeathTest, TheHelperRecordsThePartitionAndBuildsItOnlyWithMpi)
{
    FatTreeHelper helper(4);
    helper.SetPartition("group", 2);
    const Fabric f = helper.Describe();
    EXPECT_EQ(f.GetPartition().ranks, 2u);
    EXPECT_EQ(f.GetPartition().crossLinks, 8u); // the cores' links to the other half's pods
    EXPECT_EQ(f.GetPartition().lookahead, MicroSeconds(1));
    // A zero-delay link across ranks is refused as soon as the fabric is described.
    helper.SetDelay(Time(0));
    EXPECT_CONFIG_ERROR(
        helper.Describe(),
        "partition = group over 2 ranks: accepted: no zero-delay link across ranks");
#ifndef NS3_MPI
    helper.SetDelay(MicroSeconds(1));
    RoceHelper roce;
    EXPECT_DEATH(roce.Build(helper), "different ranks, but this ns-3 has no MPI");
#endif
}

TEST(FabricPartitionDeathTest, ZeroDelayLinkAcrossRanksIsRefused)
{
    FatTreeHelper helper(4);
    helper.SetDelay(Time(0));
    const Fabric f = helper.Describe();
    EXPECT_EQ(f.Partition("group", 1).crossLinks, 0u); // fine on one rank
    EXPECT_CONFIG_ERROR(
        f.Partition("group", 2),
        "partition = group over 2 ranks: accepted: no zero-delay link across ranks, "
        "but .* has delay 0");
    EXPECT_CONFIG_ERROR(f.Partition("group", 37), "ranks = 37: accepted: 1..36");
    EXPECT_CONFIG_ERROR(f.Partition("round-robin", 2),
                        "partition = round-robin: accepted: auto, group, slab or given");
    EXPECT_CONFIG_ERROR(f.Partition("given", 2, {0, 1}), "one rank per node: 36");
}
