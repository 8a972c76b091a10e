/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// InfiniBand subnets: the subnet manager's forwarding tables deliver every LID pair, and heavy
// incast through switches loses nothing (credits hold packets back) and keeps the bottleneck busy.

#include "config-error-test.h"

#include "ns3/core-module.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/ib-bth-header.h"
#include "ns3/ib-channel.h"
#include "ns3/ib-congestion-control.h"
#include "ns3/ib-host-adapter.h"
#include "ns3/ib-lrh-header.h"
#include "ns3/ib-subnet-helper.h"
#include "ns3/network-module.h"
#include "ns3/rail-optimized-helper.h"
#include "ns3/spine-leaf-helper.h"
#include "ns3/three-tier-helper.h"

#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <set>

using namespace ns3;

namespace
{

class IbSubnetTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }
};

uint64_t
CreditViolations(const IbSubnet& s)
{
    uint64_t n = 0;
    for (const auto& port : s.ports)
    {
        n += port->GetCreditViolations();
    }
    return n;
}

uint64_t
NoRouteDrops(const IbSubnet& s)
{
    uint64_t n = 0;
    for (const auto& sw : s.switches)
    {
        n += sw->GetNoRouteDrops();
    }
    return n;
}

/// Wire bytes of a message: MTU packets with LRH, BTH, ICRC and VCRC.
double
WireBytes(uint64_t bytes, uint32_t mtu)
{
    const uint64_t packets = (bytes + mtu - 1) / mtu;
    return bytes + packets * (8.0 + 12 + 4 + 2);
}

} // namespace

TEST(IbLrhHeader, RoundTrips)
{
    IbLrhHeader h;
    h.SetVl(3);
    h.SetSl(9);
    h.SetLnh(IbLrhHeader::IBA_LOCAL);
    h.SetDlid(0x1234);
    h.SetSlid(0xBEEF);
    h.SetPktLen(1031);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    uint8_t raw[8];
    ASSERT_EQ(p->CopyData(raw, 8), 8u);
    EXPECT_EQ(raw[0], 0x30); // VL 3, LVer 0
    EXPECT_EQ(raw[1], 0x92); // SL 9, LNH 2
    EXPECT_EQ(raw[2], 0x12);
    EXPECT_EQ(raw[3], 0x34);
    EXPECT_EQ((raw[4] << 8 | raw[5]), 1031);
    IbLrhHeader back;
    p->RemoveHeader(back);
    EXPECT_EQ(back.GetVl(), 3);
    EXPECT_EQ(back.GetSl(), 9);
    EXPECT_EQ(back.GetDlid(), 0x1234);
    EXPECT_EQ(back.GetSlid(), 0xBEEF);
    EXPECT_EQ(back.GetPktLen(), 1031);
}

TEST_F(IbSubnetTest, ForwardingTablesDeliverEveryLidPair)
{
    // k=4 fat-tree: every host sends one 10 KB message to every other host at once.
    const IbSubnet s = IbSubnetHelper().Build(FatTreeHelper(4));
    const uint32_t n = s.adapters.size();
    ASSERT_EQ(n, 16u);
    Simulator::Schedule(MicroSeconds(10), [&s, n]() {
        for (uint32_t a = 0; a < n; ++a)
        {
            for (uint32_t b = 0; b < n; ++b)
            {
                if (a != b)
                {
                    s.adapters[a]->Send(s.GetLid(b), 10000, 0);
                }
            }
        }
    });
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    for (uint32_t b = 0; b < n; ++b)
    {
        const auto& got = s.adapters[b]->GetMessages();
        ASSERT_EQ(got.size(), n - 1) << "host " << b;
        std::set<uint16_t> from;
        for (const auto& m : got)
        {
            EXPECT_EQ(m.bytes, 10000u);
            from.insert(m.slid);
        }
        EXPECT_EQ(from.size(), n - 1);
        EXPECT_EQ(from.count(s.GetLid(b)), 0u);
        EXPECT_EQ(s.adapters[b]->GetMisdelivered(), 0u);
    }
    EXPECT_EQ(NoRouteDrops(s), 0u);
    EXPECT_EQ(CreditViolations(s), 0u);
    // Every switch has an entry for every host.
    for (const auto& sw : s.switches)
    {
        for (uint32_t h = 0; h < n; ++h)
        {
            EXPECT_NE(sw->GetLft(s.GetLid(h)), IbSwitch::NO_PORT);
        }
    }
}

TEST_F(IbSubnetTest, IncastLosesNothingAndKeepsTheBottleneckBusy)
{
    // 15 senders, 1 MB each, into host 0 of a k=4 fat-tree of EDR 4x (100 Gb/s) links. With
    // two packets of buffer per VL the credit loop (2 packets per 2.3 us per input port, three
    // input ports feed host 0's edge port) holds the senders back instead of dropping.
    std::map<uint32_t, double> duration;
    for (uint32_t buffer : {130u, 1024u})
    {
        IbSubnetHelper helper;
        helper.SetDeviceAttribute("ReceiveBufferBlocks", UintegerValue(buffer));
        const IbSubnet s = helper.Build(FatTreeHelper(4));
        const uint64_t bytes = 1000000;
        Simulator::Schedule(MicroSeconds(10), [&s, bytes]() {
            for (uint32_t a = 1; a < 16; ++a)
            {
                s.adapters[a]->Send(s.GetLid(0), bytes, 0);
            }
        });
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        const auto& got = s.adapters[0]->GetMessages();
        ASSERT_EQ(got.size(), 15u) << "buffer " << buffer;
        EXPECT_EQ(s.adapters[0]->GetBytesReceived(), 15 * bytes);
        EXPECT_EQ(CreditViolations(s), 0u) << "buffer " << buffer;
        Time last(0);
        for (const auto& m : got)
        {
            last = std::max(last, m.end);
        }
        duration[buffer] = (last - MicroSeconds(10)).GetSeconds();
        Simulator::Destroy();
    }
    // With room for the credit loop, the last hop carries everything at line rate.
    const double bound = 15 * WireBytes(1000000, 4096) * 8 / 100e9;
    EXPECT_NEAR(duration[1024], bound, bound * 0.03);
    EXPECT_GT(duration[130], bound * 1.1);
}

TEST_F(IbSubnetTest, SpineLeafToo)
{
    const IbSubnet s = IbSubnetHelper().Build(SpineLeafHelper(4, 2, 4));
    Simulator::Schedule(MicroSeconds(10), [&s]() {
        for (uint32_t a = 0; a < 16; ++a)
        {
            s.adapters[a]->Send(s.GetLid((a + 5) % 16), 100000, static_cast<uint8_t>(a % 4));
        }
    });
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    for (uint32_t b = 0; b < 16; ++b)
    {
        ASSERT_EQ(s.adapters[b]->GetMessages().size(), 1u);
        EXPECT_EQ(s.adapters[b]->GetMessages()[0].slid, s.GetLid((b + 11) % 16));
    }
    EXPECT_EQ(CreditViolations(s), 0u);
}

TEST_F(IbSubnetTest, CongestionControlFreesTheVictimOfAHotSpot)
{
    // Two leaves of four EDR 4x hosts under one spine, every link 100 Gb/s. Hosts 0-2 (leaf 0)
    // and 5-6 (leaf 1) write to host 4 (a hot spot on leaf 1) over RC queue pairs; host 3
    // (leaf 0) writes to host 7 (leaf 1), a victim: it never crosses the hot spot's port.
    // Without congestion control leaf 1's input buffer from the spine fills with packets
    // waiting for the hot spot (its port serves three inputs, so a third of 100 Gb/s for the
    // three remote senders together), the spine and leaf 0 wait for its credits, and the
    // victim's packets wait behind the hot spot's: it gets a quarter of what that path drains,
    // about 11 Gb/s. With FECN marking at the hot spot's port and CNPs (BECN) back to the
    // senders' queue pairs, the congestors' CCT indexes rise, the hot spot's queue shrinks and
    // the credits flow again: the victim gets about three times as much while the hot spot's
    // link stays busy.
    std::map<bool, double> queue;
    std::map<bool, double> victimRate;
    std::map<bool, double> hotRate;
    for (bool cc : {false, true})
    {
        IbSubnetHelper helper;
        if (cc)
        {
            helper.SetSwitchAttribute("FecnThreshold", UintegerValue(16384));
        }
        const IbSubnet s = helper.Build(SpineLeafHelper(2, 1, 4));
        for (const auto& adapter : s.adapters)
        {
            adapter->SetAttribute("CongestionControl", StringValue(cc ? "ib-cc" : "none"));
        }
        // The victim's path (host, leaf 0, spine, leaf 1, host) is a remote congestor's but
        // for its last hop.
        const std::vector<uint32_t> victim = s.TracePath(3, 7);
        ASSERT_EQ(victim.size(), 5u);
        ASSERT_EQ(s.TracePath(0, 4),
                  (std::vector<uint32_t>{0, victim[1], victim[2], victim[3], 4}));
        Ptr<IbSwitch> leaf1 = s.switches[1];
        const uint32_t hotPort = leaf1->GetLft(s.GetLid(4));
        ASSERT_NE(hotPort, IbSwitch::NO_PORT);
        const uint64_t bytes = 20000000;
        std::vector<Ptr<RdmaQueuePair>> hot;
        for (uint32_t a : {0, 1, 2, 5, 6})
        {
            hot.push_back(IbHostAdapter::ConnectPair(s.adapters[a], s.adapters[4], 0).first);
        }
        const auto victimPair = IbHostAdapter::ConnectPair(s.adapters[3], s.adapters[7], 0);
        Simulator::Schedule(MicroSeconds(10), [&hot, &victimPair, bytes]() {
            for (const auto& qp : hot)
            {
                qp->Post(RdmaVerb::WRITE, bytes, RdmaQueuePair::CompletionCallback());
            }
            victimPair.first->Post(RdmaVerb::WRITE, bytes, RdmaQueuePair::CompletionCallback());
        });
        // Payload the hot spot has received, over all its queue pairs.
        auto hotBytes = [&s]() {
            uint64_t sum = 0;
            for (uint32_t q = 0; q < s.adapters[4]->GetNQueuePairs(); ++q)
            {
                sum += s.adapters[4]
                           ->GetQueuePair(RdmaChannelAdapter::FIRST_QPN + q)
                           ->GetBytesDelivered();
            }
            return sum;
        };
        auto samples = std::make_shared<std::vector<uint64_t>>();
        for (int us = 200; us < 1000; ++us)
        {
            Simulator::Schedule(MicroSeconds(us), [samples, leaf1, hotPort]() {
                samples->push_back(leaf1->GetPort(hotPort)->GetQueueBytes(0));
            });
        }
        uint64_t victim200 = 0;
        uint64_t hot200 = 0;
        Simulator::Schedule(MicroSeconds(200), [&]() {
            victim200 = victimPair.second->GetBytesDelivered();
            hot200 = hotBytes();
        });
        Simulator::Stop(MicroSeconds(1000));
        Simulator::Run();
        double sum = 0;
        for (uint64_t q : *samples)
        {
            sum += q;
        }
        queue[cc] = sum / samples->size();
        victimRate[cc] = (victimPair.second->GetBytesDelivered() - victim200) * 8 / 800e-6;
        hotRate[cc] = (hotBytes() - hot200) * 8 / 800e-6;
        for (uint32_t a : {0, 1, 2, 5, 6})
        {
            if (cc)
            {
                EXPECT_GT(s.adapters[a]->GetCnpsReceived(), 0u) << "congestor " << a;
            }
            else
            {
                EXPECT_EQ(s.adapters[a]->GetCnpsReceived(), 0u);
            }
        }
        EXPECT_EQ(CreditViolations(s), 0u);
        Simulator::Destroy();
    }
    const double line = 100e9 * 4096 / 4122; // payload rate of 4096-byte packets at EDR 4x
    // Without congestion control the hot spot's queue holds most of the input buffers feeding
    // it and the victim is starved; with it, the queue is a fraction and the victim recovers.
    EXPECT_GT(queue[false], 120000);
    EXPECT_LT(queue[true], queue[false] / 3);
    EXPECT_LT(victimRate[false], 0.2 * line);
    EXPECT_GT(victimRate[true], 2.5 * victimRate[false]);
    EXPECT_GT(hotRate[false], 0.95 * line);
    EXPECT_GT(hotRate[true], 0.9 * hotRate[false]);
}

namespace
{

/// A native CNP (opcode 0x80, BECN set), as a responder sends it, from `from` to queue pair
/// `qpn` of `to`, on SL 0.
void
SendCnp(const IbSubnet& s, uint32_t from, uint32_t to, uint32_t qpn)
{
    Ptr<IbNetDevice> device = s.adapters[from]->GetDevice();
    Ptr<Packet> cnp = Create<Packet>(16 + 4); // reserved bytes and ICRC
    IbBthHeader bth;
    bth.SetOpcode(IbBthHeader::IB_CNP);
    bth.SetBecn(true);
    bth.SetDestQp(qpn);
    cnp->AddHeader(bth);
    IbLrhHeader lrh;
    lrh.SetVl(device->GetVlOfSl(0));
    lrh.SetSl(0);
    lrh.SetLnh(IbLrhHeader::IBA_LOCAL);
    lrh.SetDlid(s.GetLid(to));
    lrh.SetSlid(s.GetLid(from));
    lrh.SetPktLen(static_cast<uint16_t>((cnp->GetSize() + IbLrhHeader::SIZE + 3) / 4));
    cnp->AddHeader(lrh);
    device->EnqueueVl(cnp, lrh.GetVl(), 0);
}

/// @return the CCT index of a queue pair run by IbCongestionControl
uint32_t
Ccti(Ptr<RdmaQueuePair> qp)
{
    return DynamicCast<IbCongestionControl>(qp->GetCongestionControl())->GetCcti();
}

} // namespace

TEST_F(IbSubnetTest, CctIndexRisesPerBecnAndFallsPerTimer)
{
    // IBTA annex A10 as IbCongestionControl implements it: each CNP (BECN) raises the queue
    // pair's CCT index by CctiIncrease, at most to CctiLimit; every CctiTimer (started by the
    // first CNP) an index above 0 falls by one. Here CctiIncrease 50, CctiLimit 127, CctiTimer
    // 2 us, three CNPs 300 ns apart.
    IbSubnetHelper helper;
    const IbSubnet s = helper.Build(SpineLeafHelper(1, 1, 2));
    for (const auto& adapter : s.adapters)
    {
        adapter->SetAttribute("CongestionControl", StringValue("ib-cc"));
    }
    Ptr<RdmaQueuePair> qp = IbHostAdapter::ConnectPair(s.adapters[0], s.adapters[1], 0).first;
    qp->GetCongestionControl()->SetAttribute("CctiIncrease", UintegerValue(50));
    for (int i = 0; i < 3; ++i)
    {
        Simulator::Schedule(MicroSeconds(10) + NanoSeconds(300 * i),
                            [&s, qp]() { SendCnp(s, 1, 0, qp->GetQpn()); });
    }
    // Every change of the index, sampled every 10 ns.
    std::vector<std::pair<Time, uint32_t>> changes;
    for (int ns = 0; ns < 300000; ns += 10)
    {
        Simulator::Schedule(MicroSeconds(10) + NanoSeconds(ns), [&changes, qp]() {
            const uint32_t ccti = Ccti(qp);
            if (changes.empty() || changes.back().second != ccti)
            {
                changes.emplace_back(Simulator::Now(), ccti);
            }
        });
    }
    Simulator::Stop(MicroSeconds(400));
    Simulator::Run();
    // Up: 0, 50, 100, then min(150, 127) = 127, 300 ns apart.
    // Down: 127 - k at k x 2 us after the first CNP's arrival, k = 1..127.
    ASSERT_EQ(changes.size(), 4u + 127u);
    EXPECT_EQ(changes[0].second, 0u);
    EXPECT_EQ(changes[1].second, 50u);
    EXPECT_EQ(changes[2].second, 100u);
    EXPECT_EQ(changes[3].second, 127u);
    const Time arrival = changes[1].first;
    EXPECT_EQ(changes[2].first - arrival, NanoSeconds(300));
    EXPECT_EQ(changes[3].first - arrival, NanoSeconds(600));
    for (uint32_t k = 1; k <= 127; ++k)
    {
        ASSERT_EQ(changes[3 + k].second, 127 - k);
        const Time late = changes[3 + k].first - (arrival + MicroSeconds(2 * k));
        EXPECT_LE(Abs(late), NanoSeconds(10)) << "step " << k;
    }
    EXPECT_EQ(s.adapters[0]->GetCnpsReceived(), 3u);
}

TEST_F(IbSubnetTest, CctIndexSpacesTheQueuePairsPackets)
{
    // A queue pair with CCT index i starts each packet no sooner than the previous start plus
    // its wire time plus CCT[i] = i x CctStep. One CNP with CctiIncrease 10 (and a CctiTimer
    // too long to lower it during the test): i = 10, 500 ns of extra gap. A 4096-byte WRITE
    // packet is 4122 bytes on the wire (LRH 8, BTH 12, ICRC 4, VCRC 2): 329.76 ns at 100 Gb/s,
    // so one every 829.76 ns: 4096 x 8 / 829.76 ns = 39.49 Gb/s of payload, against 99.37
    // without.
    std::map<uint32_t, double> rate;
    for (uint32_t increase : {0u, 10u})
    {
        IbSubnetHelper helper;
        const IbSubnet s = helper.Build(SpineLeafHelper(1, 1, 2));
        for (const auto& adapter : s.adapters)
        {
            adapter->SetAttribute("CongestionControl", StringValue("ib-cc"));
        }
        const auto pair = IbHostAdapter::ConnectPair(s.adapters[0], s.adapters[1], 0);
        Ptr<RdmaQueuePair> qp = pair.first;
        qp->GetCongestionControl()->SetAttribute("CctiIncrease",
                                                 UintegerValue(std::max(increase, 1u)));
        qp->GetCongestionControl()->SetAttribute("CctiTimer", TimeValue(Seconds(1)));
        if (increase > 0)
        {
            Simulator::Schedule(MicroSeconds(1), [&s, qp]() { SendCnp(s, 1, 0, qp->GetQpn()); });
        }
        Simulator::Schedule(MicroSeconds(10), [qp]() {
            qp->Post(RdmaVerb::WRITE, 2000000, RdmaQueuePair::CompletionCallback());
        });
        uint64_t at60 = 0;
        Simulator::Schedule(MicroSeconds(60),
                            [&pair, &at60]() { at60 = pair.second->GetBytesDelivered(); });
        uint64_t at160 = 0;
        Simulator::Schedule(MicroSeconds(160),
                            [&pair, &at160]() { at160 = pair.second->GetBytesDelivered(); });
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        EXPECT_EQ(Ccti(qp), increase);
        EXPECT_EQ(pair.second->GetBytesDelivered(), 2000000u);
        rate[increase] = (at160 - at60) * 8 / 100e-6;
        Simulator::Destroy();
    }
    const double wire = 4122 * 8 / 100e9;
    EXPECT_NEAR(rate[0], 4096 * 8 / wire, 0.01 * 4096 * 8 / wire);
    EXPECT_NEAR(rate[10], 4096 * 8 / (wire + 10 * 50e-9), 0.01 * 4096 * 8 / (wire + 500e-9));
}

TEST_F(IbSubnetTest, IncastIsLosslessOnEveryClosFabric)
{
    // Heavy incast (every other host, 200 KB each, into host 0) with two packets of buffer per
    // VL on spine-leaf, three-tier, fat-tree and rail-optimized fabrics: every byte arrives and
    // no packet ever finds its receive buffer full.
    std::vector<std::unique_ptr<FabricHelper>> fabrics;
    fabrics.push_back(std::make_unique<SpineLeafHelper>(4, 2, 4));
    fabrics.push_back(std::make_unique<ThreeTierHelper>(2, 2, 2, 2, 4));
    fabrics.push_back(std::make_unique<FatTreeHelper>(4));
    fabrics.push_back(std::make_unique<RailOptimizedHelper>(4, 4, 2));
    for (const auto& fabric : fabrics)
    {
        IbSubnetHelper helper;
        helper.SetDeviceAttribute("ReceiveBufferBlocks", UintegerValue(130));
        const IbSubnet s = helper.Build(*fabric);
        const uint32_t n = s.adapters.size();
        Simulator::Schedule(MicroSeconds(10), [&s, n]() {
            for (uint32_t a = 1; a < n; ++a)
            {
                s.adapters[a]->Send(s.GetLid(0), 200000, static_cast<uint8_t>(a % 2));
            }
        });
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        EXPECT_EQ(s.adapters[0]->GetMessages().size(), n - 1) << s.fabric.GetKind();
        EXPECT_EQ(s.adapters[0]->GetBytesReceived(), uint64_t(n - 1) * 200000)
            << s.fabric.GetKind();
        EXPECT_EQ(CreditViolations(s), 0u) << s.fabric.GetKind();
        EXPECT_EQ(NoRouteDrops(s), 0u) << s.fabric.GetKind();
        Simulator::Destroy();
    }
}

TEST_F(IbSubnetTest, MinHopRoutesOnClosFabricsHaveNoCreditLoop)
{
    std::vector<std::unique_ptr<FabricHelper>> fabrics;
    fabrics.push_back(std::make_unique<FatTreeHelper>(4));
    fabrics.push_back(std::make_unique<SpineLeafHelper>(4, 2, 4));
    fabrics.push_back(std::make_unique<ThreeTierHelper>(2, 2, 2, 2, 4));
    fabrics.push_back(std::make_unique<RailOptimizedHelper>(4, 4, 2));
    for (const auto& fabric : fabrics)
    {
        const IbSubnet s = IbSubnetHelper().Build(*fabric);
        const IbCreditLoopCheck check = IbCreditLoopCheck::Run(s.adapters, s.switches, {0, 1});
        EXPECT_TRUE(check.IsDeadlockFree()) << s.fabric.GetKind();
        EXPECT_EQ(check.unrouted, 0u);
        EXPECT_TRUE(check.cycles.empty());
        EXPECT_GT(check.channels, 0u);
        EXPECT_GT(check.dependencies, check.channels / 2);
    }
}

TEST_F(IbSubnetTest, ClockwiseRoutesOnARingFormACreditLoop)
{
    // Four switches in a ring, a host on each, every switch forwarding whatever is not its own
    // host's clockwise: the dependencies S0->S1 -> S1->S2 -> S2->S3 -> S3->S0 -> S0->S1 close.
    const uint32_t n = 4;
    std::vector<Ptr<IbSwitch>> switches;
    std::vector<Ptr<IbHostAdapter>> adapters;
    std::vector<Ptr<Node>> nodes;
    auto link = [](Ptr<Node> a, Ptr<Node> b) {
        Ptr<IbChannel> c = CreateObject<IbChannel>();
        Ptr<IbNetDevice> da = CreateObject<IbNetDevice>();
        Ptr<IbNetDevice> db = CreateObject<IbNetDevice>();
        a->AddDevice(da);
        b->AddDevice(db);
        da->Attach(c);
        db->Attach(c);
        return std::make_pair(da, db);
    };
    for (uint32_t i = 0; i < n; ++i)
    {
        nodes.push_back(CreateObject<Node>());
        switches.push_back(CreateObject<IbSwitch>());
    }
    std::vector<uint32_t> hostPort(n);
    std::vector<uint32_t> clockwisePort(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<Node> host = CreateObject<Node>();
        auto [h, s] = link(host, nodes[i]);
        Ptr<IbHostAdapter> adapter = CreateObject<IbHostAdapter>();
        adapter->Install(h, static_cast<uint16_t>(i + 1));
        adapters.push_back(adapter);
        hostPort[i] = switches[i]->AddPort(s);
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        auto [a, b] = link(nodes[i], nodes[(i + 1) % n]);
        clockwisePort[i] = switches[i]->AddPort(a);
        switches[(i + 1) % n]->AddPort(b);
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t j = 0; j < n; ++j)
        {
            switches[i]->SetLft(static_cast<uint16_t>(j + 1),
                                i == j ? hostPort[i] : clockwisePort[i]);
        }
    }
    const IbCreditLoopCheck check = IbCreditLoopCheck::Run(adapters, switches);
    EXPECT_EQ(check.unrouted, 0u);
    ASSERT_EQ(check.cycles.size(), 1u);
    EXPECT_EQ(check.cycles[0].size(), n); // the four switch-to-switch channels
    EXPECT_FALSE(check.IsDeadlockFree());
    // A missing entry is reported as unrouted.
    switches[2]->SetLft(1, hostPort[2]);
    EXPECT_GT(IbCreditLoopCheck::Run(adapters, switches).unrouted, 0u);
}

TEST_F(IbSubnetTest, LmcGivesEachDestinationSeveralPaths)
{
    // LMC 1 on a k=4 fat-tree: host 15 answers to two LIDs, routed over different uplinks of
    // host 0's edge switch; a message to each arrives, and the routes stay free of credit loops.
    IbSubnetHelper helper;
    helper.SetLmc(1);
    const IbSubnet s = helper.Build(FatTreeHelper(4));
    EXPECT_EQ(s.GetLid(15, 0), 32); // (15 + 1) x 2
    EXPECT_EQ(s.GetLid(15, 1), 33);
    const Ptr<IbSwitch> edge = s.switches[s.fabric
                                              .GetNode(s.fabric.GetPeer(s.fabric.GetHostLink(0),
                                                                        s.fabric.GetHostNodeId(0)))
                                              .index];
    const uint32_t up0 = edge->GetLft(s.GetLid(15, 0));
    const uint32_t up1 = edge->GetLft(s.GetLid(15, 1));
    EXPECT_NE(up0, up1);
    Simulator::Schedule(MicroSeconds(10), [&s]() {
        s.adapters[0]->Send(s.GetLid(15, 0), 100000, 0);
        s.adapters[0]->Send(s.GetLid(15, 1), 100000, 0);
    });
    Simulator::Stop(MilliSeconds(2));
    Simulator::Run();
    ASSERT_EQ(s.adapters[15]->GetMessages().size(), 2u);
    for (const auto& m : s.adapters[15]->GetMessages())
    {
        EXPECT_EQ(m.bytes, 100000u); // the two messages' packets interleave but are kept apart
    }
    EXPECT_GT(edge->GetPort(up0)->GetBytesSent(0), 100000u);
    EXPECT_GT(edge->GetPort(up1)->GetBytesSent(0), 100000u);
    EXPECT_TRUE(IbCreditLoopCheck::Run(s.adapters, s.switches).IsDeadlockFree());
    EXPECT_CONFIG_ERROR(helper.SetLmc(8), "LMC = 8: accepted: 0..7");
}
