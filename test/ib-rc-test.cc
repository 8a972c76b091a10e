/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The reliable-connection transport over native InfiniBand: RdmaQueuePair's engine carried in
// LRH/BTH/RETH/AETH/ICRC by IbHostAdapter.

#include "ns3/collective-helper.h"
#include "ns3/core-module.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/ib-bth-header.h"
#include "ns3/ib-channel.h"
#include "ns3/ib-host-adapter.h"
#include "ns3/ib-lrh-header.h"
#include "ns3/ib-rc-transport.h"
#include "ns3/ib-subnet-helper.h"
#include "ns3/network-module.h"
#include "ns3/spine-leaf-helper.h"
#include "ns3/torus-helper.h"

#include <gtest/gtest.h>
#include <set>
#include <vector>

using namespace ns3;

namespace
{

/// Completions in the order they came.
struct Completions
{
    std::vector<RdmaCompletion> list;

    RdmaQueuePair::CompletionCallback Callback()
    {
        return MakeCallback(&Completions::Add, this);
    }

    void Add(const RdmaCompletion& c)
    {
        list.push_back(c);
    }
};

/// Every host writes `bytes` to every other, at 1 us.
void
PostAllToAll(MessageTransport& network, uint32_t hosts, uint64_t bytes)
{
    for (uint32_t a = 0; a < hosts; ++a)
    {
        for (uint32_t b = 0; b < hosts; ++b)
        {
            if (a != b)
            {
                network.Post(a, b, RdmaVerb::WRITE, bytes, MicroSeconds(1), 0);
            }
        }
    }
}

/// Two adapters on one EDR 4x link, 1 us long.
class IbRcLinkTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        for (int i = 0; i < 2; ++i)
        {
            nodes[i] = CreateObject<Node>();
            ports[i] = CreateObject<IbNetDevice>();
            nodes[i]->AddDevice(ports[i]);
            adapters[i] = CreateObject<IbHostAdapter>();
            adapters[i]->Install(ports[i], static_cast<uint16_t>(i + 1));
        }
        Ptr<IbChannel> channel = CreateObject<IbChannel>();
        channel->SetAttribute("Delay", TimeValue(MicroSeconds(1)));
        ports[0]->Attach(channel);
        ports[1]->Attach(channel);
    }

    void TearDown() override
    {
        Simulator::Destroy();
    }

    Ptr<Node> nodes[2];
    Ptr<IbNetDevice> ports[2];
    Ptr<IbHostAdapter> adapters[2];
};

} // namespace

TEST_F(IbRcLinkTest, WriteTakesItsPacketsWireTimeOnePropagationAndTheAck)
{
    auto [qa, qb] = IbHostAdapter::ConnectPair(adapters[0], adapters[1], 0);
    EXPECT_EQ(qa->GetMtu(), 4096u); // the port's IB MTU
    Completions done;
    const uint64_t bytes = 1000000;
    Simulator::Schedule(MicroSeconds(10),
                        [&]() { qa->Post(RdmaVerb::WRITE, bytes, done.Callback()); });
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    ASSERT_EQ(done.list.size(), 1u);
    // 245 packets: LRH (8), BTH (12), payload, ICRC (4), VCRC (2); a RETH (16) on the first.
    // The last arrives one propagation delay after the link has sent them all; its ACK (LRH,
    // BTH, AETH, ICRC, VCRC: 30 bytes) takes its own time and a propagation delay back.
    const uint64_t packets = (bytes + 4095) / 4096;
    const uint64_t wire = bytes + packets * (8 + 12 + 4 + 2) + 16;
    const DataRate rate = ports[0]->GetDataRate();
    const Time ideal = rate.CalculateBytesTxTime(wire) + MicroSeconds(1) +
                       rate.CalculateBytesTxTime(30) + MicroSeconds(1);
    const Time fct = done.list[0].completed - done.list[0].posted;
    EXPECT_NEAR(fct.GetSeconds() / ideal.GetSeconds(), 1.0, 0.005)
        << fct.As(Time::US) << " vs " << ideal.As(Time::US);
    EXPECT_EQ(qb->GetBytesDelivered(), bytes);
    EXPECT_EQ(qa->GetRetransmittedPackets(), 0u);
    EXPECT_GT(adapters[1]->GetAcksSent(), 0u);
    EXPECT_EQ(adapters[1]->GetUnknownQpPackets(), 0u);
}

TEST_F(IbRcLinkTest, ReadSendAndWriteCompleteInOrderBothWays)
{
    auto [qa, qb] = IbHostAdapter::ConnectPair(adapters[0], adapters[1], 0);
    Completions doneA;
    Completions doneB;
    qa->Post(RdmaVerb::READ, 300000, doneA.Callback());
    qa->Post(RdmaVerb::SEND, 5000, doneA.Callback());
    qb->Post(RdmaVerb::WRITE, 70000, doneB.Callback());
    qa->Post(RdmaVerb::WRITE, 1, doneA.Callback());
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    ASSERT_EQ(doneA.list.size(), 3u);
    ASSERT_EQ(doneB.list.size(), 1u);
    EXPECT_EQ(doneA.list[0].verb, RdmaVerb::READ);
    EXPECT_EQ(doneA.list[1].verb, RdmaVerb::SEND);
    EXPECT_EQ(doneA.list[2].verb, RdmaVerb::WRITE);
    EXPECT_LE(doneA.list[0].completed, doneA.list[1].completed);
    EXPECT_EQ(qb->GetBytesDelivered(), 5001u);  // SEND and WRITE from a
    EXPECT_EQ(qa->GetBytesDelivered(), 70000u); // WRITE from b
}

TEST_F(IbRcLinkTest, PacketsCarryLrhAndBthWithTheirQueuePairs)
{
    auto [qa, qb] = IbHostAdapter::ConnectPair(adapters[0], adapters[1], 3);
    std::set<std::pair<uint32_t, uint32_t>> seen; // (opcode, destination QP) from a
    bool badLids = false;
    auto onTx = [&](Ptr<const Packet> p) {
        Ptr<Packet> c = p->Copy();
        IbLrhHeader lrh;
        c->RemoveHeader(lrh);
        IbBthHeader bth;
        c->RemoveHeader(bth);
        badLids = badLids || lrh.GetSlid() != 1 || lrh.GetDlid() != 2 || lrh.GetSl() != 3;
        seen.insert({bth.GetOpcode(), bth.GetDestQp()});
    };
    ports[1]->TraceConnectWithoutContext("MacRx", Callback<void, Ptr<const Packet>>(onTx));
    qa->Post(RdmaVerb::WRITE, 10000, RdmaQueuePair::CompletionCallback());
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    EXPECT_FALSE(badLids);
    const uint32_t dqp = qb->GetQpn();
    EXPECT_EQ(seen,
              (std::set<std::pair<uint32_t, uint32_t>>{{IbBthHeader::RC_WRITE_FIRST, dqp},
                                                       {IbBthHeader::RC_WRITE_MIDDLE, dqp},
                                                       {IbBthHeader::RC_WRITE_LAST, dqp}}));
}

TEST(IbRcSubnet, IncastOfQueuePairsLosesNothingAndNeverRetransmits)
{
    // 15 hosts of a k=4 fat-tree WRITE 500 KB each into host 0 over RC queue pairs, and host 0
    // READs 200 KB from each: credits hold everything back, nothing is lost or resent.
    const IbSubnet s = IbSubnetHelper().Build(FatTreeHelper(4));
    std::vector<Ptr<RdmaQueuePair>> senders;
    std::vector<Ptr<RdmaQueuePair>> readers;
    Completions done;
    for (uint32_t h = 1; h < 16; ++h)
    {
        auto [q, peer] = IbHostAdapter::ConnectPair(s.adapters[h], s.adapters[0], 0);
        q->Post(RdmaVerb::WRITE, 500000, done.Callback());
        peer->Post(RdmaVerb::READ, 200000, done.Callback());
        senders.push_back(q);
        readers.push_back(peer);
    }
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    EXPECT_EQ(done.list.size(), 30u);
    uint64_t delivered = 0;
    for (uint32_t i = 0; i < senders.size(); ++i)
    {
        EXPECT_EQ(senders[i]->GetRetransmittedPackets(), 0u);
        EXPECT_EQ(senders[i]->GetTimeouts(), 0u);
        EXPECT_EQ(readers[i]->GetRetransmittedPackets(), 0u);
        delivered += readers[i]->GetBytesDelivered();
    }
    EXPECT_EQ(delivered, 15u * 500000);
    for (const auto& sw : s.switches)
    {
        EXPECT_EQ(sw->GetNoRouteDrops(), 0u);
    }
    Simulator::Destroy();
}

TEST(IbRcSubnet, LmcPathsCarryQueuePairsToo)
{
    IbSubnetHelper helper;
    helper.SetLmc(1);
    const IbSubnet s = helper.Build(FatTreeHelper(4));
    Completions done;
    auto p0 = IbHostAdapter::ConnectPair(s.adapters[0], s.adapters[15], 0, 0);
    auto p1 = IbHostAdapter::ConnectPair(s.adapters[0], s.adapters[15], 0, 1);
    p0.first->Post(RdmaVerb::WRITE, 100000, done.Callback());
    p1.first->Post(RdmaVerb::WRITE, 100000, done.Callback());
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    EXPECT_EQ(done.list.size(), 2u);
    EXPECT_EQ(p0.second->GetBytesDelivered() + p1.second->GetBytesDelivered(), 200000u);
    EXPECT_EQ(s.adapters[15]->GetMisdelivered(), 0u);
    Simulator::Destroy();
}

TEST(IbRcTransportTest, AMessageAloneTakesItsIdealFct)
{
    // On an idle k=4 fat-tree, across the core (5 links), each verb's FCT is the store-and-
    // forward arithmetic of its packets and ACK.
    IbRcTransport ib(IbSubnetHelper().Build(FatTreeHelper(4)));
    const std::vector<std::pair<RdmaVerb, uint64_t>> posts = {{RdmaVerb::WRITE, 1000000},
                                                              {RdmaVerb::READ, 300000},
                                                              {RdmaVerb::SEND, 4096}};
    for (uint32_t i = 0; i < posts.size(); ++i)
    {
        ib.Post(0, 15, posts[i].first, posts[i].second, MilliSeconds(1 + i), 0);
    }
    Simulator::Stop(MilliSeconds(10));
    Simulator::Run();
    for (const auto& f : ib.GetFlows())
    {
        ASSERT_FALSE(f.end.IsZero()) << RdmaVerbName(f.verb);
        const double ratio = (f.end - f.start).GetDouble() / f.idealFct.GetDouble();
        EXPECT_NEAR(ratio, 1.0, 0.01) << RdmaVerbName(f.verb) << " " << f.idealFct.As(Time::US);
    }
    const TransportStatistics st = ib.CollectStatistics();
    EXPECT_EQ(st.messagesCompleted, 3u);
    EXPECT_EQ(st.bytesDelivered, 1304096u);
    EXPECT_EQ(st.retransmitted, 0u);
    Simulator::Destroy();
}

TEST(IbRcTransportTest, CollectivesRunOnInfiniBand)
{
    // An all-to-all among 8 hosts through CollectiveHelper, on IB as on RoCE: every phase ends,
    // no sooner than its lower bound.
    IbRcTransport ib(IbSubnetHelper().Build(FatTreeHelper(4)));
    CollectiveHelper collectives(ib);
    collectives.AllToAll({0, 1, 2, 3, 4, 5, 6, 7},
                         64000,
                         CollectiveHelper::DIRECT,
                         MicroSeconds(1));
    Simulator::Stop(MilliSeconds(10));
    Simulator::Run();
    ASSERT_FALSE(collectives.GetRecords().empty());
    for (const auto& r : collectives.GetRecords())
    {
        ASSERT_FALSE(r.end.IsZero());
        EXPECT_GE(r.end - r.start, r.lowerBound);
    }
    EXPECT_EQ(ib.CollectStatistics().messagesCompleted, 56u);
    Simulator::Destroy();
}

TEST(IbTorus, DatelineVlsLeaveNoCreditLoopWithoutThemThereAreLoops)
{
    // A 4x4 torus in dimension order: with the datelines as VLs (the paths' SLs, torus-2QoS),
    // the channel dependencies are acyclic; the same routes all on SL 0 (one VL per link) close
    // the rings, and so does a torus built without its dateline.
    const IbSubnet s = IbSubnetHelper().Build(TorusHelper({4, 4}));
    ASSERT_TRUE(s.datelines);
    const IbCreditLoopCheck withDatelines = IbCreditLoopCheck::Run(s);
    EXPECT_TRUE(withDatelines.IsDeadlockFree());
    EXPECT_EQ(withDatelines.unrouted, 0u);
    // Paths from (0,0) to (3,0) cross dimension 0's dateline (one hop back over the wrap);
    // to (1,0) they do not; on (3,3) both dimensions.
    EXPECT_EQ(s.GetPathSl(0, 3), 1u);
    EXPECT_EQ(s.GetPathSl(0, 1), 0u);
    EXPECT_EQ(s.GetPathSl(0, 15), 3u);
    EXPECT_EQ(s.GetPathSl(0, 15, 1), 11u); // QoS class 1: SL bit 3
    const IbCreditLoopCheck allOnSl0 = IbCreditLoopCheck::Run(s.adapters, s.switches, {0});
    EXPECT_FALSE(allOnSl0.cycles.empty());
    Simulator::Destroy();

    TorusHelper noDateline({4, 4});
    noDateline.SetDateline(false);
    const IbSubnet plain = IbSubnetHelper().Build(noDateline);
    EXPECT_FALSE(plain.datelines);
    EXPECT_FALSE(IbCreditLoopCheck::Run(plain).cycles.empty());
    Simulator::Destroy();
}

TEST(IbTorus, AllToAllCompletesWithDatelinesAndDeadlocksWithout)
{
    // Every host of a 4x4 torus writes 64 KB to every other over RC queue pairs, with receive
    // buffers of three 1 KB packets per VL. With the datelines it all arrives, nothing resent,
    // no misdelivery; the same torus without them deadlocks in its credit loops.
    for (bool dateline : {true, false})
    {
        IbSubnetHelper helper;
        helper.SetDeviceAttribute("Mtu", UintegerValue(1024));
        helper.SetDeviceAttribute("ReceiveBufferBlocks", UintegerValue(51));
        TorusHelper torus({4, 4});
        torus.SetDateline(dateline);
        IbRcTransport ib(helper.Build(torus));
        PostAllToAll(ib, 16, 65536);
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();
        const TransportStatistics st = ib.CollectStatistics();
        if (dateline)
        {
            EXPECT_EQ(st.messagesCompleted, 240u);
            EXPECT_EQ(st.bytesDelivered, 240u * 65536);
            EXPECT_EQ(st.retransmitted, 0u);
            for (const auto& adapter : ib.GetSubnet().adapters)
            {
                EXPECT_EQ(adapter->GetMisdelivered(), 0u);
                EXPECT_EQ(adapter->GetUnknownQpPackets(), 0u);
            }
        }
        else
        {
            EXPECT_LT(st.messagesCompleted, 240u) << "no deadlock without the datelines";
        }
        Simulator::Destroy();
    }
}

TEST(IbCutThrough, EachSwitchSavesAPacketTimeLessItsLrh)
{
    // One 4 KiB WRITE across a spine-leaf (three switches each way) and its ACK back: with
    // virtual cut-through every switch forwards at the packet's LRH instead of its tail, which
    // saves each switch the packet's transmission time less the LRH's, for the data packet and
    // for the ACK. The receiver sends the credit update for the packet's blocks (6 bytes) just
    // before the ACK, on the same wire: the ACK's last bit leaves (6 + 30) bytes' time after
    // the credit's first (2.88 ns, 3 rounded, where the ACK alone takes 2.4 ns, 2 rounded).
    // The ideal FCT has no credit updates; a cut-through switch takes the ACK at its LRH, so
    // the credit ahead of it costs the store-and-forward path only.
    const DataRate rate = IbNetDevice::LinkRate(IbNetDevice::EDR, 4);
    const Time creditAhead = rate.CalculateBytesTxTime(6 + 30) - rate.CalculateBytesTxTime(30);
    Time fct[2];
    for (int cutThrough = 0; cutThrough < 2; ++cutThrough)
    {
        IbSubnetHelper helper;
        helper.SetSwitchAttribute("CutThrough", BooleanValue(cutThrough == 1));
        IbRcTransport ib(helper.Build(SpineLeafHelper(2, 1, 1)));
        // Posted after the links' initial credits are in (one delay plus a time step).
        ib.Post(0, 1, RdmaVerb::WRITE, 4096, MicroSeconds(2), 0);
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        ASSERT_FALSE(ib.GetFlows()[0].end.IsZero());
        fct[cutThrough] = ib.GetFlows()[0].end - ib.GetFlows()[0].start;
        if (cutThrough == 0)
        {
            // Store-and-forward is the ideal, and the credit ahead of the ACK.
            EXPECT_EQ(fct[0], ib.GetFlows()[0].idealFct + creditAhead);
        }
        Simulator::Destroy();
    }
    const Time lrh = rate.CalculateBytesTxTime(8);
    const Time data = rate.CalculateBytesTxTime(4096 + 26 + 16); // payload, LRH..VCRC, RETH
    const Time ack = rate.CalculateBytesTxTime(30);
    EXPECT_EQ(fct[0] - fct[1], 3 * (data - lrh) + 3 * (ack - lrh) + creditAhead);
}

TEST(IbUpDown, OnClosFabricsItIsMinHopAndLoopFree)
{
    // Up/down routes on a k=4 fat-tree and a spine-leaf: every pair routed, no credit loop, and
    // every path as short as the min-hop one (a Clos fabric's shortest paths go up, then down).
    std::vector<std::unique_ptr<FabricHelper>> fabrics;
    fabrics.push_back(std::make_unique<FatTreeHelper>(4));
    fabrics.push_back(std::make_unique<SpineLeafHelper>(4, 2, 4));
    for (const auto& fabric : fabrics)
    {
        IbSubnetHelper helper;
        helper.SetRouting(IbSubnetHelper::UP_DOWN);
        const IbSubnet upDown = helper.Build(*fabric);
        const IbSubnet minHop = IbSubnetHelper().Build(*fabric);
        const IbCreditLoopCheck check = IbCreditLoopCheck::Run(upDown);
        EXPECT_TRUE(check.IsDeadlockFree()) << upDown.fabric.GetKind();
        for (uint32_t a = 0; a < upDown.adapters.size(); ++a)
        {
            for (uint32_t b = 0; b < upDown.adapters.size(); ++b)
            {
                if (a != b)
                {
                    ASSERT_FALSE(upDown.TracePath(a, b).empty()) << a << "->" << b;
                    EXPECT_EQ(upDown.TracePath(a, b).size(), minHop.TracePath(a, b).size());
                }
            }
        }
        Simulator::Destroy();
    }
}

TEST(IbUpDown, OnATorusItNeedsNoDatelineAndDoesNotDeadlock)
{
    // Up/down on a 4x4 torus with one VL: every pair routed through the tables, no credit
    // loop, and the all-to-all with tiny buffers that deadlocks dimension order without its
    // datelines completes.
    IbSubnetHelper helper;
    helper.SetRouting(IbSubnetHelper::UP_DOWN);
    helper.SetDeviceAttribute("Mtu", UintegerValue(1024));
    helper.SetDeviceAttribute("ReceiveBufferBlocks", UintegerValue(51));
    TorusHelper torus({4, 4});
    torus.SetDateline(false);
    IbRcTransport ib(helper.Build(torus));
    const IbSubnet& s = ib.GetSubnet();
    EXPECT_FALSE(s.datelines);
    const IbCreditLoopCheck check = IbCreditLoopCheck::Run(s);
    EXPECT_TRUE(check.cycles.empty());
    EXPECT_EQ(check.unrouted, 0u);
    for (uint32_t a = 0; a < 16; ++a)
    {
        for (uint32_t b = 0; b < 16; ++b)
        {
            if (a != b)
            {
                EXPECT_FALSE(s.TracePath(a, b).empty()) << a << "->" << b;
            }
        }
    }
    PostAllToAll(ib, 16, 65536);
    Simulator::Stop(MilliSeconds(50));
    Simulator::Run();
    EXPECT_EQ(ib.CollectStatistics().messagesCompleted, 240u);
    EXPECT_EQ(ib.CollectStatistics().retransmitted, 0u);
    Simulator::Destroy();
}
