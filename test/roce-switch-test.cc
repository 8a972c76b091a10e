/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The shared-buffer switch: lossless incast under PFC, drops and recovery without it, pause
// propagation through two switches, ECMP, TCP next to RDMA, buffer configuration.

#include "config-error-test.h"
#include "star-fabric.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/interconnect-compat.h"
#include "ns3/internet-module.h"
#include "ns3/ipv4-header.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-transport.h"
#include "ns3/spine-leaf-helper.h"
#include "ns3/three-tier-helper.h"
#include "ns3/torus-helper.h"
#include "ns3/udp-header.h"

#include <functional>
#include <gtest/gtest.h>
#include <map>
#include <random>
#include <set>

using namespace ns3;

namespace
{

class RoceSwitchTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }
};

/// N senders and one receiver (host N) on one switch.
void
BuildIncast(RoceHelper& h, uint32_t senders)
{
    test::BuildStar(h, senders + 1);
}

uint64_t
BytesDeliveredTo(RoceHelper& h, uint32_t host)
{
    uint64_t total = 0;
    Ptr<RdmaNic> nic = h.GetNic(host);
    for (uint32_t i = 0; i < nic->GetNQueuePairs(); ++i)
    {
        total += nic->GetQueuePair(0x100 + i)->GetBytesDelivered();
    }
    return total;
}

} // namespace

TEST_F(RoceSwitchTest, IncastWithPfcIsLossless)
{
    const uint32_t senders = 8;
    const uint64_t size = 500000;
    RoceHelper h;
    h.SetMmuAttribute("BufferSize", UintegerValue(1000000));
    BuildIncast(h, senders);
    h.Finalize();
    RoceTransport rdma(h);
    for (uint32_t i = 0; i < senders; ++i)
    {
        rdma.Post(i, senders, RdmaVerb::WRITE, size, MicroSeconds(1), 3);
    }
    Simulator::Run();
    const RoceStatistics st = rdma.CollectStatistics();
    EXPECT_EQ(st.messagesCompleted, senders);
    EXPECT_EQ(st.dropsBuffer + st.dropsNoRoute + st.dropsNotIpv4 + st.dropsLink, 0u);
    EXPECT_EQ(st.headroomOverflows, 0u);
    EXPECT_GT(st.pfcSent, 0u);
    EXPECT_EQ(st.pfcSent, st.pfcReceived);
    // Every byte once, in order: nothing resent, nothing out of sequence.
    EXPECT_EQ(BytesDeliveredTo(h, senders), senders * size);
    EXPECT_EQ(st.retransmitted, 0u);
    EXPECT_EQ(st.naks, 0u);
    // The peak never exceeds the buffer.
    EXPECT_LE(st.peakBufferBytes, 1000000u);
    // Released at the end.
    Ptr<RoceSwitch> sw = h.GetSwitch(0);
    for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
    {
        EXPECT_FALSE(sw->GetPort(p)->IsIngressPaused(3)) << "port " << p;
        EXPECT_FALSE(sw->GetMmu()->IsPaused(p, 3)) << "port " << p;
    }
}

TEST_F(RoceSwitchTest, IncastWithoutPfcDropsAndGoBackNRecovers)
{
    const uint32_t senders = 8;
    const uint64_t size = 200000;
    RoceHelper h;
    h.SetMmuAttribute("PfcEnabled", BooleanValue(false));
    h.SetMmuAttribute("BufferSize", UintegerValue(100000));
    h.SetQueuePairAttribute("RetransmitTimeout", StringValue("200us"));
    BuildIncast(h, senders);
    h.Finalize();
    RoceTransport rdma(h);
    for (uint32_t i = 0; i < senders; ++i)
    {
        rdma.Post(i, senders, RdmaVerb::WRITE, size, MicroSeconds(1), 3);
    }
    Simulator::Run();
    const RoceStatistics st = rdma.CollectStatistics();
    EXPECT_GT(st.dropsBuffer, 0u);
    EXPECT_EQ(st.pfcSent, 0u);
    EXPECT_EQ(st.messagesCompleted, senders);
    EXPECT_GT(st.retransmitted, 0u);
    EXPECT_EQ(BytesDeliveredTo(h, senders), senders * size);
}

TEST_F(RoceSwitchTest, PausePropagatesUpstreamAndReleases)
{
    // h0..h3 -- S1 == S2 -- receiver, h4 on S2 too: S2's port to the receiver is the
    // bottleneck; S2 pauses S1, whose queue then grows until S1 pauses its hosts.
    RoceHelper h;
    h.SetMmuAttribute("BufferSize", UintegerValue(600000));
    std::vector<Ptr<Node>> hosts;
    for (int i = 0; i < 6; ++i)
    {
        hosts.push_back(h.AddHost());
    }
    Ptr<Node> s1 = h.AddSwitch();
    Ptr<Node> s2 = h.AddSwitch();
    for (int i = 0; i < 4; ++i)
    {
        h.Link(hosts[i], s1);
    }
    auto trunk = h.Link(s1, s2);
    h.Link(hosts[4], s2);
    h.Link(hosts[5], s2);
    h.Finalize();
    RoceTransport rdma(h);
    // Keyed by plain pointer: a Ptr to the device in its own trace would keep it alive forever.
    std::map<PfcNetDevice*, uint16_t> lastQuanta;
    auto watch = [&lastQuanta](Ptr<PfcNetDevice> d) {
        d->TraceConnectWithoutContext("PfcTx",
                                      MakeCallback(+[](std::map<PfcNetDevice*, uint16_t>* m,
                                                       PfcNetDevice* dev,
                                                       uint8_t,
                                                       uint16_t q) {
                                          (*m)[dev] = q;
                                      }).Bind(&lastQuanta, PeekPointer(d)));
    };
    Ptr<RoceSwitch> sw1 = h.GetSwitch(0);
    Ptr<RoceSwitch> sw2 = h.GetSwitch(1);
    for (uint32_t p = 0; p < sw1->GetNPorts(); ++p)
    {
        watch(sw1->GetPort(p));
    }
    for (uint32_t p = 0; p < sw2->GetNPorts(); ++p)
    {
        watch(sw2->GetPort(p));
    }
    for (uint32_t i = 0; i < 5; ++i)
    {
        rdma.Post(i, 5, RdmaVerb::WRITE, 1000000, MicroSeconds(1), 3);
    }
    Simulator::Run();
    const RoceStatistics st = rdma.CollectStatistics();
    EXPECT_EQ(st.messagesCompleted, 5u);
    EXPECT_EQ(st.dropsBuffer, 0u);
    EXPECT_EQ(st.headroomOverflows, 0u);
    // S2 paused the trunk (its port towards S1)...
    EXPECT_GT(trunk.second->GetPfcFramesSent(3), 0u);
    EXPECT_GT(trunk.first->GetEgressPausedTime(3), Time(0));
    // ...and S1 in turn paused the hosts behind it.
    uint64_t s1ToHosts = 0;
    for (uint32_t p = 0; p < 4; ++p)
    {
        s1ToHosts += sw1->GetPort(p)->GetPfcFramesSent(3);
    }
    EXPECT_GT(s1ToHosts, 0u);
    for (int i = 0; i < 4; ++i)
    {
        EXPECT_GT(h.GetNic(i)->GetDevice()->GetPfcFramesReceived(3), 0u) << "host " << i;
    }
    // Every port that paused ended with a resume (zero quanta), and nothing is paused now.
    for (const auto& [dev, q] : lastQuanta)
    {
        EXPECT_EQ(q, 0u);
        EXPECT_FALSE(dev->IsIngressPaused(3));
        EXPECT_FALSE(dev->GetPeer()->IsEgressPaused(3));
    }
    EXPECT_FALSE(lastQuanta.empty());
}

TEST(RoceSwitchEcmp, HashSpreadsFlowsEvenlyAndIsStable)
{
    Ptr<RoceSwitch> sw = CreateObject<RoceSwitch>();
    std::vector<Ptr<PfcNetDevice>> ports;
    for (int i = 0; i < 5; ++i)
    {
        ports.push_back(CreateObject<PfcNetDevice>());
        sw->AddPort(ports.back());
    }
    sw->SetRoute(Ipv4Address("10.0.0.9"), {1, 2, 3, 4});
    std::map<uint32_t, uint32_t> count;
    for (uint16_t sport = 49152; sport < 49152 + 8000; ++sport)
    {
        const uint32_t port =
            sw->SelectPort(Ipv4Address("10.0.0.1"), Ipv4Address("10.0.0.9"), 17, sport, 4791);
        ++count[port];
        // The same 5-tuple always takes the same port.
        ASSERT_EQ(
            port,
            sw->SelectPort(Ipv4Address("10.0.0.1"), Ipv4Address("10.0.0.9"), 17, sport, 4791));
    }
    ASSERT_EQ(count.size(), 4u);
    uint32_t lo = UINT32_MAX;
    uint32_t hi = 0;
    for (const auto& [port, n] : count)
    {
        lo = std::min(lo, n);
        hi = std::max(hi, n);
    }
    EXPECT_LT(static_cast<double>(hi) / lo, 1.1);
    // Another seed gives another assignment (switches do not polarize).
    Ptr<RoceSwitch> other = CreateObject<RoceSwitch>();
    other->SetAttribute("EcmpSeed", UintegerValue(7));
    for (std::size_t i = 0; i < ports.size(); ++i)
    {
        other->AddPort(CreateObject<PfcNetDevice>());
    }
    other->SetRoute(Ipv4Address("10.0.0.9"), {1, 2, 3, 4});
    uint32_t same = 0;
    for (uint16_t sport = 49152; sport < 49152 + 1000; ++sport)
    {
        same +=
            sw->SelectPort(Ipv4Address("10.0.0.1"), Ipv4Address("10.0.0.9"), 17, sport, 4791) ==
            other->SelectPort(Ipv4Address("10.0.0.1"), Ipv4Address("10.0.0.9"), 17, sport, 4791);
    }
    EXPECT_LT(same, 400u); // ~250 expected by chance
}

TEST(RoceSwitchRoutes, DestinationsSharingAPortSetKeepTheirOwnRouteAndSprayTurn)
{
    Ptr<RoceSwitch> sw = CreateObject<RoceSwitch>();
    for (int i = 0; i < 6; ++i)
    {
        sw->AddPort(CreateObject<PfcNetDevice>());
    }
    sw->SetAttribute("EcmpMode", EnumValue(RoceSwitch::PACKET_SPRAY));
    const std::vector<uint32_t> up = {1, 2, 3};
    for (uint32_t host = 5; host <= 9; ++host)
    {
        sw->SetRoute(Ipv4Address((10u << 24) | host), up);
    }
    sw->SetRoute(Ipv4Address("10.0.0.2"), {4}); // below the lowest address so far
    sw->SetRoute(Ipv4Address("10.0.0.7"), {5}); // replaces a shared set
    const Ipv4Address src("10.0.0.1");
    EXPECT_EQ(sw->GetRoute(Ipv4Address("10.0.0.5")), up);
    EXPECT_EQ(sw->GetRoute(Ipv4Address("10.0.0.2")), std::vector<uint32_t>{4});
    EXPECT_EQ(sw->GetRoute(Ipv4Address("10.0.0.7")), std::vector<uint32_t>{5});
    EXPECT_EQ(sw->GetRoute(Ipv4Address("10.0.0.8")), up);
    EXPECT_TRUE(sw->GetRoute(Ipv4Address("10.0.0.3")).empty());
    EXPECT_TRUE(sw->GetRoute(Ipv4Address("10.0.0.10")).empty());
    EXPECT_EQ(sw->SelectPort(src, Ipv4Address("10.0.0.3"), 17, 1, 4791), sw->GetNPorts());
    EXPECT_EQ(sw->SelectPort(src, Ipv4Address("10.0.0.2"), 17, 1, 4791), 4u);
    EXPECT_EQ(sw->SelectPort(src, Ipv4Address("10.0.0.7"), 17, 1, 4791), 5u);
    // Round robin per destination: 10.0.0.5's turn does not move 10.0.0.6's.
    EXPECT_EQ(sw->SelectPort(src, Ipv4Address("10.0.0.5"), 17, 1, 4791), 1u);
    EXPECT_EQ(sw->SelectPort(src, Ipv4Address("10.0.0.5"), 17, 1, 4791), 2u);
    EXPECT_EQ(sw->SelectPort(src, Ipv4Address("10.0.0.6"), 17, 1, 4791), 1u);
    EXPECT_EQ(sw->SelectPort(src, Ipv4Address("10.0.0.5"), 17, 1, 4791), 3u);
    EXPECT_EQ(sw->SelectPort(src, Ipv4Address("10.0.0.5"), 17, 1, 4791), 1u);
    EXPECT_EQ(sw->SelectPort(src, Ipv4Address("10.0.0.6"), 17, 1, 4791), 2u);
    // A route set again starts its turn again.
    sw->SetRoute(Ipv4Address("10.0.0.6"), up);
    EXPECT_EQ(sw->SelectPort(src, Ipv4Address("10.0.0.6"), 17, 1, 4791), 1u);
}

TEST(RoceSwitchRoutes, TheArrivalHintNamesThePortAFrameThenTakesAndMovesNoTurn)
{
    // A port asks its switch, for the frame that arrives next, which egress port it will
    // read (PfcPortOwner::PortArrivalHint): the one the route then picks, by hash or by the
    // spray's turn, which the question must not move on.
    for (const auto mode : {RoceSwitch::FLOW_HASH, RoceSwitch::PACKET_SPRAY})
    {
        Ptr<RoceSwitch> sw = CreateObject<RoceSwitch>();
        for (int i = 0; i < 6; ++i)
        {
            sw->AddPort(CreateObject<PfcNetDevice>());
        }
        sw->SetAttribute("EcmpMode", EnumValue(mode));
        for (uint32_t host = 5; host <= 9; ++host)
        {
            sw->SetRoute(Ipv4Address((10u << 24) | host), {1, 2, 3});
        }
        sw->SetRoute(Ipv4Address("10.0.0.2"), {4});
        sw->SetRoute(Ipv4Address("10.0.0.10"), {1, 2, 3, 4, 5}); // not a power of two
        const PfcPortOwner& owner = *sw;
        // A switch names no port before a frame has taken the routes set since the last (it
        // does not compact them for a hint).
        PfcFrameInfo first;
        first.src = (10u << 24) | 1;
        first.dst = (10u << 24) | 2;
        first.protocol = 17;
        first.headerLen = 20;
        EXPECT_EQ(owner.PortArrivalHint(0, first), nullptr);
        sw->SelectPort(Ipv4Address("10.0.0.1"), Ipv4Address("10.0.0.2"), 17, 1, 4791);
        EXPECT_EQ(owner.PortArrivalHint(0, first), sw->GetPort(4)->SendSpan());
        uint32_t hinted = 0;
        for (uint16_t sport = 49152; sport < 49152 + 64; ++sport)
        {
            for (uint32_t host : {2u, 3u, 5u, 6u, 10u, 11u})
            {
                PfcFrameInfo info;
                info.src = (10u << 24) | 1;
                info.dst = (10u << 24) | host;
                info.srcPort = sport;
                info.dstPort = 4791;
                info.protocol = 17;
                info.headerLen = 20;
                const void* hint = owner.PortArrivalHint(0, info);
                const uint32_t port =
                    sw->SelectPort(Ipv4Address(info.src), Ipv4Address(info.dst), 17, sport, 4791);
                if (port == sw->GetNPorts())
                {
                    EXPECT_EQ(hint, nullptr) << "10.0.0." << host << " has no route";
                    continue;
                }
                ASSERT_EQ(hint, sw->GetPort(port)->SendSpan())
                    << "mode " << mode << ", 10.0.0." << host << ", source port " << sport;
                ++hinted;
            }
        }
        EXPECT_EQ(hinted, 64u * 4);
    }
}

TEST_F(RoceSwitchTest, AFrameAloneOnItsCableNamesTheSwitchsForwardingFields)
{
    // A frame that a host sends to a switch while no other is in flight on the cable gets no
    // egress port named for it (PortArrivalHint is asked only for a frame behind another): its
    // arrival names the switch's forwarding fields instead (PfcPortOwner::PortReceiveSpan), the
    // switch's first FORWARD_LINES lines; the frame the switch passes on to the receiving NIC,
    // alone too, names that packet's lines (PfcNetDevice::ARRIVAL_SPAN_LINES).
    RoceHelper h;
    test::BuildStar(h, 2);
    h.Finalize();
    RoceTransport rdma(h);
    rdma.Post(0, 1, RdmaVerb::WRITE, 500, MicroSeconds(1), 3); // (one frame)
    Simulator::Run();
    Ptr<RoceSwitch> sw = h.GetSwitch(0);
    const auto span = reinterpret_cast<uintptr_t>(h.GetNic(0)->GetDevice()->GetDepartureHints()[4]);
    EXPECT_EQ(span & ~CanonicalScheduler::SPAN_MASK, reinterpret_cast<uintptr_t>(PeekPointer(sw)));
    EXPECT_EQ((span & CanonicalScheduler::SPAN_MASK) + 1, RoceSwitch::FORWARD_LINES);
    const auto toNic = reinterpret_cast<uintptr_t>(
        sw->GetPort(sw->SelectPort(Ipv4Address("10.0.0.1"), h.GetNic(1)->GetAddress(), 17, 0, 0))
            ->GetDepartureHints()[4]);
    EXPECT_EQ((toNic & CanonicalScheduler::SPAN_MASK) + 1, PfcNetDevice::ARRIVAL_SPAN_LINES);
}

TEST(RoceSwitchRoutes, EveryDestinationForwardsByItsOwnRouteWhateverItsBlock)
{
    // The forwarding path reads the routes in blocks of destinations that share a port (a
    // fat-tree's edge of hosts); a block whose destinations differ, a destination without a
    // route, a route set after frames were forwarded, each must still forward by its own.
    Ptr<RoceSwitch> sw = CreateObject<RoceSwitch>();
    for (int i = 0; i < 8; ++i)
    {
        sw->AddPort(CreateObject<PfcNetDevice>());
    }
    const uint32_t base = (10u << 24) | (1u << 8) | 3; // 10.0.1.3
    const Ipv4Address src("10.0.0.1");
    auto checkAll = [&](const char* when) {
        for (uint32_t a = base - 20; a < base + 420; ++a)
        {
            const std::vector<uint32_t>& route = sw->GetRoute(Ipv4Address(a));
            const uint32_t expected = route.empty() ? sw->GetNPorts() : route[0];
            ASSERT_EQ(sw->SelectPort(src, Ipv4Address(a), 17, 1, 4791), expected)
                << when << ": destination " << Ipv4Address(a);
        }
    };
    // Groups of 8 that share a port, one group of hosts each on its own port, a hole of
    // destinations without a route, and a last group cut short; three destinations below them,
    // so that the groups straddle blocks (which count from the lowest destination), as a
    // fat-tree's edges do where its addresses skip a /24's .0 and .255.
    for (uint32_t d = 1; d <= 3; ++d)
    {
        sw->SetRoute(Ipv4Address(base - d), {d});
    }
    for (uint32_t d = 0; d < 203; ++d)
    {
        const uint32_t group = d / 8;
        if (group == 12)
        {
            continue; // no route
        }
        const uint32_t port = group == 5 ? d % 8 : group % 7 + 1;
        sw->SetRoute(Ipv4Address(base + d), {port});
    }
    checkAll("groups");
    EXPECT_EQ(sw->SelectPort(src, Ipv4Address(base + 44), 17, 1, 4791), 4u); // group 5
    EXPECT_EQ(sw->SelectPort(src, Ipv4Address(base + 99), 17, 1, 4791), sw->GetNPorts());
    sw->SetRoute(Ipv4Address(base + 17), {0}); // splits a shared group after forwarding
    checkAll("one changed");
    EXPECT_EQ(sw->SelectPort(src, Ipv4Address(base + 17), 17, 1, 4791), 0u);
    // Random routes: nearly every block split.
    std::mt19937 random(7);
    for (uint32_t d = 0; d < 400; ++d)
    {
        sw->SetRoute(Ipv4Address(base + d), {static_cast<uint32_t>(random() % 8)});
    }
    checkAll("random");
}

namespace
{

/// Every destination from 9.255.255.255 to a /24 past the last host forwards on `sw` as on a switch
/// with the same ports, seed, ECMP mode and routes that says them by its tables: one with a
/// route to 10.0.0.0 too, which no host has (the host rule then cannot hold). Flows of several
/// source ports each, so that ECMP's hash picks among the uplinks, or the spray turns (each
/// route set again on `sw` first, so that both start their turns at the first member).
void
ExpectForwardingAsByTables(const Ptr<RoceSwitch>& sw, uint32_t hosts, const std::string& where)
{
    Ptr<RoceSwitch> tables = CreateObject<RoceSwitch>();
    for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
    {
        tables->AddPort(CreateObject<PfcNetDevice>());
    }
    UintegerValue seed;
    sw->GetAttribute("EcmpSeed", seed);
    tables->SetAttribute("EcmpSeed", seed);
    INTERCONNECT_ENUM_VALUE(RoceSwitch::EcmpMode) mode;
    sw->GetAttribute("EcmpMode", mode);
    tables->SetAttribute("EcmpMode", mode);
    const uint32_t first = 10u << 24;
    const uint32_t end = first + ((hosts / 254 + 2) << 8);
    for (uint32_t a = first + 1; a < end; ++a)
    {
        const std::vector<uint32_t> route = sw->GetRoute(Ipv4Address(a));
        if (!route.empty())
        {
            tables->SetRoute(Ipv4Address(a), route);
            sw->SetRoute(Ipv4Address(a), route);
        }
    }
    tables->SetRoute(Ipv4Address(first), {0});
    ASSERT_FALSE(tables->RoutesByHostNumber()) << where;
    const Ipv4Address src("10.0.0.1");
    const uint32_t none = sw->GetNPorts();
    for (uint32_t a = first - 1; a < end; ++a)
    {
        // (The tables' switch has a route to 10.0.0.0, which `sw` has not.)
        const std::vector<uint32_t>& route = sw->GetRoute(Ipv4Address(a));
        for (uint16_t sport = 49152; sport < 49152 + 5; ++sport)
        {
            const uint32_t port = sw->SelectPort(src, Ipv4Address(a), 17, sport, 4791);
            const uint32_t byTables =
                a == first ? none : tables->SelectPort(src, Ipv4Address(a), 17, sport, 4791);
            ASSERT_EQ(port, byTables)
                << where << ", destination " << Ipv4Address(a) << ", source port " << sport;
            // By hash: the member h % n of the destination's route, as GetRoute says it.
            if (mode.Get() == RoceSwitch::FLOW_HASH)
            {
                const uint64_t h = RoceSwitch::FlowHash(seed.Get(), src.Get(), a, 17, sport, 4791);
                ASSERT_EQ(port, route.empty() ? none : route[h % route.size()])
                    << where << ", destination " << Ipv4Address(a) << ", source port " << sport;
            }
        }
    }
}

} // namespace

TEST(RoceSwitchRoutes, AFatTreesAndASpineLeafsSwitchesRouteByHostNumberAsTheirTablesSay)
{
    // k=16: 1 024 hosts over five /24s, so that edges straddle a /24's end (.254, then .1).
    struct Case
    {
        std::string name;
        std::function<Fabric(RoceHelper&)> build;
    };

    const std::vector<Case> cases = {
        {"fat-tree k=4", [](RoceHelper& h) { return h.Build(FatTreeHelper(4)); }},
        {"fat-tree k=16", [](RoceHelper& h) { return h.Build(FatTreeHelper(16)); }},
        {"spine-leaf 5x3x64", [](RoceHelper& h) { return h.Build(SpineLeafHelper(5, 3, 64)); }},
    };
    for (const Case& c : cases)
    {
        RoceHelper h;
        const Fabric fabric = c.build(h);
        for (uint32_t s = 0; s < fabric.GetNSwitches(); ++s)
        {
            const std::string where = c.name + ", switch " + std::to_string(s);
            EXPECT_TRUE(h.GetSwitch(s)->RoutesByHostNumber()) << where;
            ExpectForwardingAsByTables(h.GetSwitch(s), fabric.GetNHosts(), where);
        }
        Simulator::Destroy();
    }
}

TEST(RoceSwitchRoutes, RoutesNotSaidByHostNumberForwardByTheirTables)
{
    // A torus's routes, a three-tier fabric's, runs of three hosts, uplinks of two sets, and a
    // fat-tree edge's routes with one host moved to another port: each still forwards as its
    // tables say; the edge's by host number again once the host is moved back.
    {
        RoceHelper h;
        const Fabric fabric = h.Build(TorusHelper({4, 4}));
        uint32_t byNumber = 0;
        for (uint32_t s = 0; s < fabric.GetNSwitches(); ++s)
        {
            byNumber += h.GetSwitch(s)->RoutesByHostNumber();
            ExpectForwardingAsByTables(h.GetSwitch(s), fabric.GetNHosts(), "torus");
        }
        EXPECT_EQ(byNumber, 0u);
        Simulator::Destroy();
    }
    {
        // Its access switches' routes are said by host number, not the others': they reach a
        // switch below by several links, a set.
        RoceHelper h;
        const Fabric fabric = h.Build(ThreeTierHelper(3, 2, 2, 2, 8));
        for (uint32_t s = 0; s < fabric.GetNSwitches(); ++s)
        {
            const std::string& name = fabric.GetNode(fabric.GetSwitchNodeId(s)).name;
            EXPECT_EQ(h.GetSwitch(s)->RoutesByHostNumber(), name.rfind("access", 0) == 0) << name;
            ExpectForwardingAsByTables(h.GetSwitch(s), fabric.GetNHosts(), "three-tier");
        }
        Simulator::Destroy();
    }
    {
        // The spines see runs of three hosts per port; the leaves, a port per host and the rest
        // over the two spines, say theirs by host number.
        RoceHelper h;
        const Fabric fabric = h.Build(SpineLeafHelper(4, 2, 3));
        for (uint32_t s = 0; s < fabric.GetNSwitches(); ++s)
        {
            const std::string& name = fabric.GetNode(fabric.GetSwitchNodeId(s)).name;
            EXPECT_EQ(h.GetSwitch(s)->RoutesByHostNumber(), name.rfind("leaf", 0) == 0) << name;
            ExpectForwardingAsByTables(h.GetSwitch(s), fabric.GetNHosts(), "runs of three");
        }
        Simulator::Destroy();
    }
    // An edge switch of 4 hosts, 10.0.0.253 to 10.0.1.2, among 600: ports 0-3, uplinks 4-7 (in
    // order, or not: the rule then reads the set), by hash and sprayed.
    const std::vector<std::vector<uint32_t>> uplinks = {{4, 5, 6, 7}, {4, 6, 5, 7}, {4, 5, 6}};
    for (const auto mode : {RoceSwitch::FLOW_HASH, RoceSwitch::PACKET_SPRAY})
    {
        for (const std::vector<uint32_t>& up : uplinks)
        {
            const std::string where =
                std::string(mode == RoceSwitch::FLOW_HASH ? "hash" : "spray") + ", uplinks of " +
                std::to_string(up.size()) + (up[1] == 5 ? "" : " out of order");
            Ptr<RoceSwitch> sw = CreateObject<RoceSwitch>();
            for (int i = 0; i < 8; ++i)
            {
                sw->AddPort(CreateObject<PfcNetDevice>());
            }
            sw->SetAttribute("EcmpMode", EnumValue(mode));
            for (uint32_t host = 0; host < 600; ++host)
            {
                const Ipv4Address a((10u << 24) | ((host / 254) << 8) | (host % 254 + 1));
                if (host >= 252 && host < 256)
                {
                    sw->SetRoute(a, {host - 252});
                }
                else
                {
                    sw->SetRoute(a, up);
                }
            }
            EXPECT_TRUE(sw->RoutesByHostNumber()) << where;
            ExpectForwardingAsByTables(sw, 600, where);
            // The arrival hint names the port the frame then takes, and moves no turn.
            const PfcPortOwner& owner = *sw;
            for (uint32_t host : {0u, 251u, 252u, 253u, 254u, 255u, 256u, 599u, 600u})
            {
                for (uint16_t sport = 49152; sport < 49152 + 8; ++sport)
                {
                    PfcFrameInfo info;
                    info.src = (10u << 24) | 9;
                    info.dst = (10u << 24) | ((host / 254) << 8) | (host % 254 + 1);
                    info.srcPort = sport;
                    info.dstPort = 4791;
                    info.protocol = 17;
                    info.headerLen = 20;
                    const void* hint = owner.PortArrivalHint(0, info);
                    EXPECT_EQ(hint, owner.PortArrivalHint(0, info)) << where << ", host " << host;
                    const uint32_t port = sw->SelectPort(Ipv4Address(info.src),
                                                         Ipv4Address(info.dst),
                                                         17,
                                                         sport,
                                                         4791);
                    EXPECT_EQ(hint,
                              port == sw->GetNPorts() ? nullptr : sw->GetPort(port)->SendSpan())
                        << where << ", host " << host << ", source port " << sport;
                }
            }
            const Ipv4Address src("10.0.0.9");
            EXPECT_EQ(sw->SelectPort(src, Ipv4Address("10.0.1.1"), 17, 1, 4791), 2u) << where;
            sw->SetRoute(Ipv4Address("10.0.1.1"), {1});
            EXPECT_FALSE(sw->RoutesByHostNumber()) << where;
            ExpectForwardingAsByTables(sw, 600, where + ", a host moved");
            EXPECT_EQ(sw->SelectPort(src, Ipv4Address("10.0.1.1"), 17, 1, 4791), 1u) << where;
            sw->SetRoute(Ipv4Address("10.0.1.1"), {2});
            EXPECT_TRUE(sw->RoutesByHostNumber()) << where;
            // A route to a broadcast address, which no host has: not said by host number.
            sw->SetRoute(Ipv4Address("10.0.0.255"), {3});
            EXPECT_FALSE(sw->RoutesByHostNumber()) << where;
            EXPECT_EQ(sw->SelectPort(src, Ipv4Address("10.0.0.255"), 17, 1, 4791), 3u) << where;
        }
    }
    // Uplinks of two sets that start alike, {4, 5} below the edge and {4, 6} above it: no one
    // set for the other destinations, so no rule, whatever one frame's member.
    for (const auto mode : {RoceSwitch::FLOW_HASH, RoceSwitch::PACKET_SPRAY})
    {
        Ptr<RoceSwitch> sw = CreateObject<RoceSwitch>();
        for (int i = 0; i < 8; ++i)
        {
            sw->AddPort(CreateObject<PfcNetDevice>());
        }
        sw->SetAttribute("EcmpMode", EnumValue(mode));
        for (uint32_t host = 0; host < 40; ++host)
        {
            const Ipv4Address a((10u << 24) | (host + 1));
            if (host >= 16 && host < 20)
            {
                sw->SetRoute(a, {host - 16});
            }
            else
            {
                sw->SetRoute(a,
                             host < 16 ? std::vector<uint32_t>{4, 5} : std::vector<uint32_t>{4, 6});
            }
        }
        EXPECT_FALSE(sw->RoutesByHostNumber()) << mode;
        ExpectForwardingAsByTables(sw, 40, "two uplink sets");
    }
}

TEST_F(RoceSwitchTest, EachFlowKeepsOneSpine)
{
    // Two leaves, four spines; 8 flows leaf 0 -> leaf 1. Every data frame of a flow must cross
    // the same spine.
    RoceHelper h;
    std::vector<Ptr<Node>> hosts;
    for (int i = 0; i < 16; ++i)
    {
        hosts.push_back(h.AddHost());
    }
    Ptr<Node> leaf0 = h.AddSwitch();
    Ptr<Node> leaf1 = h.AddSwitch();
    std::vector<Ptr<Node>> spines;
    for (int i = 0; i < 4; ++i)
    {
        spines.push_back(h.AddSwitch());
    }
    for (int i = 0; i < 16; ++i)
    {
        h.Link(hosts[i], i < 8 ? leaf0 : leaf1);
    }
    for (auto& spine : spines)
    {
        h.Link(leaf0, spine);
        h.Link(leaf1, spine);
    }
    h.Finalize();
    RoceTransport rdma(h);
    std::map<uint16_t, std::set<uint32_t>> spinesOfFlow;
    for (uint32_t s = 0; s < 4; ++s)
    {
        Ptr<RoceSwitch> sw = h.GetSwitch(2 + s);
        // Port 0 of each spine faces leaf 0: frames arriving there come from leaf 0's hosts.
        sw->GetPort(0)->TraceConnectWithoutContext(
            "MacRx",
            MakeCallback(+[](std::map<uint16_t, std::set<uint32_t>>* m,
                             uint32_t spine,
                             Ptr<const Packet> p) {
                Ptr<Packet> c = p->Copy();
                Ipv4Header ip;
                c->RemoveHeader(ip);
                UdpHeader udp;
                c->RemoveHeader(udp);
                (*m)[udp.GetSourcePort()].insert(spine);
            }).Bind(&spinesOfFlow, s));
    }
    for (uint32_t i = 0; i < 8; ++i)
    {
        rdma.Post(i, 8 + i, RdmaVerb::WRITE, 100000, MicroSeconds(1), 3);
    }
    Simulator::Run();
    ASSERT_EQ(spinesOfFlow.size(), 8u);
    std::set<uint32_t> used;
    for (const auto& [sport, set] : spinesOfFlow)
    {
        EXPECT_EQ(set.size(), 1u) << "flow with source port " << sport;
        used.insert(set.begin(), set.end());
    }
    EXPECT_GE(used.size(), 2u); // 8 flows do not all hash onto one spine
    EXPECT_EQ(rdma.CollectStatistics().messagesCompleted, 8u);
}

TEST_F(RoceSwitchTest, TcpAndRdmaShareALink)
{
    RoceHelper h;
    h.SetDeviceAttribute("DataRate", StringValue("10Gbps"));
    h.SetDeviceAttribute("Mtu", UintegerValue(1500));
    const std::vector<Ptr<Node>> hosts = test::BuildStar(h, 3);
    const Ptr<Node> tcpSender = hosts[0];
    const Ptr<Node> receiver = hosts[2];
    h.Finalize(true);
    RoceTransport rdma(h);
    // TCP from host 0 to host 2 on priority 0 (DSCP 0), next to RDMA from host 1 on priority 3.
    const uint64_t tcpBytes = 2000000;
    PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 9000));
    ApplicationContainer sinkApp = sink.Install(receiver);
    BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(h.GetAddress(2), 9000));
    bulk.SetAttribute("MaxBytes", UintegerValue(tcpBytes));
    ApplicationContainer bulkApp = bulk.Install(tcpSender);
    bulkApp.Start(MicroSeconds(1));
    rdma.Post(1, 2, RdmaVerb::WRITE, 2000000, MicroSeconds(1), 3);
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    EXPECT_EQ(DynamicCast<PacketSink>(sinkApp.Get(0))->GetTotalRx(), tcpBytes);
    EXPECT_EQ(rdma.CollectStatistics().messagesCompleted, 1u);
    EXPECT_GT(h.GetSwitch(0)->GetForwarded(), 2000000u / 1500);
}

namespace
{

/// What CheckedTcpThroughAMarkingSwitch saw.
struct CheckedTcpRun
{
    uint64_t marks{0};        //!< CE marks at the switch
    uint64_t badChecksums{0}; //!< segments the receiver's IPv4 layer dropped for their checksum
    uint64_t received{0};     //!< bytes the receiver's application got
    uint64_t sent{0};         //!< bytes the senders' applications sent
    uint64_t remapped{0};     //!< frames the switch moved to another priority
};

/// Check a run of CheckedTcpThroughAMarkingSwitch. @param run the run @param remap its option
void
ExpectIntactMarkedSegments(const CheckedTcpRun& run, bool remap)
{
    EXPECT_GT(run.marks, 10u) << "remap " << remap;
    EXPECT_EQ(run.badChecksums, 0u) << "remap " << remap;
    EXPECT_EQ(run.received, run.sent) << "remap " << remap;
    if (remap)
    {
        EXPECT_GT(run.remapped, 2 * 1000000u / 1500) << "remap " << remap;
    }
    else
    {
        EXPECT_EQ(run.remapped, 0u);
    }
}

/// With ns-3's IPv4 checksums on, two ECN-capable TCP flows of 1 MB share a switch port that
/// marks every frame above 3 kB of queue; with @p remap the switch also moves them from
/// priority 0 to 1 (SetPriorityRemap), which rewrites their DSCP.
CheckedTcpRun
CheckedTcpThroughAMarkingSwitch(bool remap)
{
    GlobalValue::Bind("ChecksumEnabled", BooleanValue(true));
    Config::SetDefault("ns3::TcpSocketBase::UseEcn", StringValue("On"));
    RoceHelper h;
    h.SetDeviceAttribute("DataRate", StringValue("10Gbps"));
    h.SetDeviceAttribute("Mtu", UintegerValue(1500));
    h.SetMmuAttribute("EcnKmin", UintegerValue(3000));
    h.SetMmuAttribute("EcnKmax", UintegerValue(3001));
    const std::vector<Ptr<Node>> hosts = test::BuildStar(h, 3); // host i on switch port i
    const Ptr<Node> receiver = hosts[2];
    h.Finalize(true);
    if (remap)
    {
        h.GetSwitch(0)->SetPriorityRemap(0, 2, 0, 1);
        h.GetSwitch(0)->SetPriorityRemap(1, 2, 0, 1);
    }
    CheckedTcpRun run;
    receiver->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
        "Drop",
        MakeCallback(+[](uint64_t* n,
                         const Ipv4Header&,
                         Ptr<const Packet>,
                         Ipv4L3Protocol::DropReason reason,
                         Ptr<Ipv4>,
                         uint32_t) {
            if (reason == Ipv4L3Protocol::DROP_BAD_CHECKSUM)
            {
                ++*n;
            }
        }).Bind(&run.badChecksums));
    const uint64_t bytes = 1000000;
    run.sent = 2 * bytes;
    PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 9000));
    ApplicationContainer sinkApp = sink.Install(receiver);
    BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(h.GetAddress(2), 9000));
    bulk.SetAttribute("MaxBytes", UintegerValue(bytes));
    ApplicationContainer senders = bulk.Install(hosts[0]);
    senders.Add(bulk.Install(hosts[1]));
    senders.Start(MicroSeconds(1));
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    run.marks = h.GetSwitch(0)->GetEcnMarks();
    run.remapped = h.GetSwitch(0)->GetRemapped();
    run.received = DynamicCast<PacketSink>(sinkApp.Get(0))->GetTotalRx();
    Simulator::Destroy();
    GlobalValue::Bind("ChecksumEnabled", BooleanValue(false));
    Config::Reset();
    return run;
}

} // namespace

// With ns-3's IPv4 checksums on, a switch that marks CE, or moves a frame to another priority
// and so rewrites its DSCP, keeps the header's checksum right (RFC 1624): the marked segments
// arrive, none dropped for a bad checksum. (With packet metadata on, as the header object: the
// last test of this file.)
TEST_F(RoceSwitchTest, CeMarksKeepTheIpv4ChecksumValid)
{
    for (bool remap : {false, true})
    {
        ExpectIntactMarkedSegments(CheckedTcpThroughAMarkingSwitch(remap), remap);
    }
}

TEST(RoceSwitchMmuConfig, HeadroomFollowsRateDelayAndFrame)
{
    Ptr<RoceSwitchMmu> mmu = CreateObject<RoceSwitchMmu>();
    mmu->Configure({DataRate("100Gbps"), DataRate("25Gbps")},
                   {MicroSeconds(1), MicroSeconds(2)},
                   1514);
    // 2 x (100 Gb/s x 1 us = 12500 B) + 2 x 1514 + 64 + 480 (3840 bit times)
    EXPECT_EQ(mmu->GetHeadroom(0), 25000u + 3028 + 64 + 480);
    // 2 x (25 Gb/s x 2 us = 6250 B) + ...
    EXPECT_EQ(mmu->GetHeadroom(1), 12500u + 3028 + 64 + 480);
    EXPECT_EQ(mmu->GetSharedSize(), 12000000u - mmu->GetHeadroom(0) - mmu->GetHeadroom(1));
}

TEST(RoceSwitchMmuConfig, BufferSmallerThanHeadroomIsAConfigurationError)
{
    EXPECT_CONFIG_ERROR(
        {
            Ptr<RoceSwitchMmu> mmu = CreateObject<RoceSwitchMmu>();
            mmu->SetAttribute("BufferSize", UintegerValue(20000));
            mmu->Configure({DataRate("100Gbps")}, {MicroSeconds(1)}, 1514);
        },
        "ns3::RoceSwitchMmu::BufferSize = 20000: accepted: more than the headroom");
}

TEST(RoceSwitchMmuConfig, KmaxBelowKminIsAConfigurationError)
{
    EXPECT_CONFIG_ERROR(
        {
            Ptr<RoceSwitchMmu> mmu = CreateObject<RoceSwitchMmu>();
            mmu->SetAttribute("EcnKmin", UintegerValue(100000));
            mmu->SetAttribute("EcnKmax", UintegerValue(1000));
            mmu->Configure({DataRate("100Gbps")}, {MicroSeconds(1)}, 1514);
        },
        "ns3::RoceSwitchMmu::EcnKmax = 1000: accepted: a value >= EcnKmin");
}

TEST_F(RoceSwitchTest, TooSmallHeadroomIsCountedNotHidden)
{
    // A headroom of one frame cannot absorb what is in flight when the pause is sent: the
    // lossless frames are still admitted (never dropped) and each one beyond the headroom is
    // counted as a configuration error.
    RoceHelper h;
    h.SetMmuAttribute("BufferSize", UintegerValue(300000));
    h.SetMmuAttribute("Headroom", UintegerValue(1600));
    h.SetChannelAttribute("Delay", StringValue("5us"));
    BuildIncast(h, 4);
    h.Finalize();
    RoceTransport rdma(h);
    for (uint32_t i = 0; i < 4; ++i)
    {
        rdma.Post(i, 4, RdmaVerb::WRITE, 500000, Time(0), 3);
    }
    Simulator::Run();
    const RoceStatistics st = rdma.CollectStatistics();
    EXPECT_GT(st.headroomOverflows, 0u);
    EXPECT_EQ(st.dropsBuffer, 0u);
    EXPECT_EQ(st.messagesCompleted, 4u);
    EXPECT_EQ(BytesDeliveredTo(h, 4), 4u * 500000);
}

TEST_F(RoceSwitchTest, EcnMarksAtDequeueToo)
{
    for (bool atDequeue : {false, true})
    {
        RoceHelper h;
        h.SetSwitchAttribute("EcnAtDequeue", BooleanValue(atDequeue));
        h.SetMmuAttribute("EcnKmin", UintegerValue(10000));
        h.SetMmuAttribute("EcnKmax", UintegerValue(10001));
        BuildIncast(h, 2);
        h.Finalize();
        RoceTransport rdma(h);
        rdma.Post(0, 2, RdmaVerb::WRITE, 300000, Time(0), 3);
        rdma.Post(1, 2, RdmaVerb::WRITE, 300000, Time(0), 3);
        Simulator::Run();
        const RoceStatistics st = rdma.CollectStatistics();
        EXPECT_GT(st.ecnMarks, 0u) << (atDequeue ? "dequeue" : "enqueue");
        EXPECT_GT(st.cnpsSent, 0u) << (atDequeue ? "dequeue" : "enqueue");
        Simulator::Destroy();
    }
}

namespace
{

/// What one run of CarriedHeaderFieldsChangeNothing saw.
struct CarriedRun
{
    std::vector<int64_t> completions; //!< each message's completion time (ns), posting order
    uint64_t marks{0};                //!< CE marks over all switches
    uint64_t carried{0};              //!< frames that came with their fields
    uint64_t mismatches{0};           //!< fields unlike the bytes (CheckFrameInfo)
    uint64_t forwarded{0};            //!< frames the switches forwarded
    uint64_t framed{0};               //!< frames the NICs framed and sent (data, ACKs, CNPs)
};

/// Six hosts on leaf 0 write to six on leaf 1 through one spine: leaf 0's uplink is the
/// bottleneck, so frames are CE-marked there and cross two more switches marked.
CarriedRun
RunThroughThreeSwitches(bool check, bool atDequeue, Time latency)
{
    RoceHelper h;
    h.SetSwitchAttribute("CheckFrameInfo", BooleanValue(check));
    h.SetSwitchAttribute("EcnAtDequeue", BooleanValue(atDequeue));
    h.SetSwitchAttribute("ForwardingLatency", TimeValue(latency));
    h.SetMmuAttribute("EcnKmin", UintegerValue(5000));
    h.SetMmuAttribute("EcnKmax", UintegerValue(50000));
    h.SetMmuAttribute("EcnPmax", DoubleValue(0.5));
    std::vector<Ptr<Node>> hosts;
    for (int i = 0; i < 12; ++i)
    {
        hosts.push_back(h.AddHost());
    }
    Ptr<Node> leaf0 = h.AddSwitch();
    Ptr<Node> leaf1 = h.AddSwitch();
    Ptr<Node> spine = h.AddSwitch();
    for (int i = 0; i < 12; ++i)
    {
        h.Link(hosts[i], i < 6 ? leaf0 : leaf1);
    }
    h.Link(leaf0, spine);
    h.Link(leaf1, spine);
    h.Finalize();
    h.AssignStreams(1); // the same marks' random draws in each run of the process
    RoceTransport rdma(h);
    CarriedRun run;
    run.completions.assign(6, -1);
    for (uint32_t i = 0; i < 6; ++i)
    {
        rdma.Post(i,
                  6 + i,
                  RdmaVerb::WRITE,
                  200000,
                  NanoSeconds(100 * i),
                  3,
                  MakeCallback(+[](std::vector<int64_t>* c, uint32_t k, const RdmaCompletion&) {
                      (*c)[k] = Simulator::Now().GetNanoSeconds();
                  }).Bind(&run.completions, i));
    }
    Simulator::Run();
    for (uint32_t s = 0; s < 3; ++s)
    {
        run.marks += h.GetSwitch(s)->GetEcnMarks();
        run.carried += h.GetSwitch(s)->GetFrameInfoCarried();
        run.mismatches += h.GetSwitch(s)->GetFrameInfoMismatches();
        run.forwarded += h.GetSwitch(s)->GetForwarded();
    }
    for (uint32_t i = 0; i < 12; ++i)
    {
        Ptr<RdmaNic> nic = h.GetNic(i);
        run.framed += nic->GetDataPacketsSent() + nic->GetAcksSent() + nic->GetCnpsSent();
    }
    Simulator::Destroy();
    return run;
}

} // namespace

// A NIC passes the header fields it wrote on with the frame (PfcFrameInfo), and a switch those
// it read, so that the next switch does not read the packet's bytes. Checked against the bytes
// at every switch, the fields agree, CE marks included, and the runs are the same, mark for
// mark and to the nanosecond; a frame that may be marked at dequeue leaves a switch without
// them.
TEST_F(RoceSwitchTest, CarriedHeaderFieldsChangeNothing)
{
    struct Case
    {
        bool atDequeue;
        Time latency;
        const char* name;
    };

    for (const Case& c : {Case{false, Time(0), "marks at enqueue"},
                          Case{false, NanoSeconds(300), "forwarding latency"},
                          Case{true, Time(0), "marks at dequeue"}})
    {
        const CarriedRun used = RunThroughThreeSwitches(false, c.atDequeue, c.latency);
        const CarriedRun checked = RunThroughThreeSwitches(true, c.atDequeue, c.latency);
        EXPECT_GT(used.marks, 0u) << c.name;
        for (int64_t t : used.completions)
        {
            EXPECT_GT(t, 0) << c.name << ": a message did not complete";
        }
        EXPECT_EQ(checked.mismatches, 0u) << c.name;
        EXPECT_EQ(used.completions, checked.completions) << c.name;
        EXPECT_EQ(used.marks, checked.marks) << c.name;
        // Every frame a NIC sent reaches its first switch with its fields; marking at enqueue,
        // every frame reaches every switch with them (none is dropped: PFC).
        EXPECT_GT(used.framed, 2u * 6u * 200000u / 1100u) << c.name;
        EXPECT_EQ(used.carried, c.atDequeue ? used.framed : used.forwarded) << c.name;
        EXPECT_EQ(used.carried, checked.carried) << c.name;
    }
}

// As CeMarksKeepTheIpv4ChecksumValid, with packet metadata on, where the mark goes through an
// Ipv4Header object. Last in this file: metadata, once on, stays on for the process.
TEST_F(RoceSwitchTest, CeMarksKeepTheIpv4ChecksumValidWithPacketMetadata)
{
    Packet::EnablePrinting();
    for (bool remap : {false, true})
    {
        ExpectIntactMarkedSegments(CheckedTcpThroughAMarkingSwitch(remap), remap);
    }
}
