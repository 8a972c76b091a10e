/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// HPCC's inputs and its estimate: switches stamp one INT hop per egress, the ACK echoes the
// stack, and a lone flow's estimated utilization converges to eta.

#include "lone-queue-pair.h"

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
    RoceTransport rdma(roce);
    rdma.Post(0, 1, RdmaVerb::WRITE, 200000, Time(0), 3);

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
    RoceTransport rdma(roce);
    rdma.Post(0, 1, RdmaVerb::WRITE, 20000000, Time(0), 3);
    Simulator::Stop(MilliSeconds(3));
    Simulator::Run();
    Ptr<HpccCongestionControl> cc = DynamicCast<HpccCongestionControl>(
        roce.GetNic(0)->GetQueuePair(0x100)->GetCongestionControl());
    ASSERT_TRUE(cc);
    EXPECT_NEAR(cc->GetUtilization(), 0.95, 0.03);
    EXPECT_GT(cc->GetWindow(), 0u);
}

namespace
{

/// HPCC driven by hand-made INT stacks: one hop at 25 Gb/s, T = 10 us (BaseRtt).
class HpccWindowTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        qp = test::LoneQueuePair(DataRate("25Gbps"));
        cc = CreateObject<HpccCongestionControl>();
        cc->SetAttribute("BaseRtt", TimeValue(MicroSeconds(10)));
    }

    void TearDown() override
    {
        qp->Dispose();
        Simulator::Destroy();
    }

    /**
     * One ACK echoing one hop.
     * @param us the hop's timestamp, microseconds
     * @param txBytes the egress's bytes sent so far
     * @param qlen its queue, bytes
     * @param perRtt the ACK passes the PSN of the last window update (Wc is updated)
     */
    void Ack(int64_t us, uint64_t txBytes, uint32_t qlen, bool perRtt)
    {
        RdmaIntTag stack;
        stack.Push(RdmaIntHop{txBytes, qlen, MicroSeconds(us).GetTimeStep(), 25000000000ULL});
        stack.SetEcho();
        // Nothing is sent, so the update marker stays at PSN 0: PSN 1 passes it, 0 does not.
        RdmaAckInfo info{1024, perRtt ? 1u : 0u, Time(0), false, &stack};
        cc->OnAck(qp, info);
    }

    Ptr<RdmaQueuePair> qp;
    Ptr<HpccCongestionControl> cc;
};

} // namespace

TEST_F(HpccWindowTest, WindowFollowsAlgorithmOneWithMaxStage)
{
    // Li et al., SIGCOMM 2019, Algorithm 1, by hand. B = 25 Gb/s, T = 10 us, eta = 0.95,
    // MaxStage = 5, W_AI = 40 Mb/s x T = 50 bytes, W_init = Wc = B x T = 31250 bytes.
    // u = min(qlen, qlen') / (B T) + txRate / B; U = (1 - tau/T) U + tau/T u, tau <= T.
    // (Windows are whole bytes, truncated: compared within a byte.)
    const double eta = 0.95;
    const double wai = 50;
    qp->SetCongestionControl(cc);
    EXPECT_NEAR(qp->GetWindow(), 31250, 1);
    Ack(0, 0, 12500, true); // the first stack: nothing to compare with yet
    EXPECT_NEAR(qp->GetWindow(), 31250, 1);

    // 10 us later: 31250 bytes sent (txRate = B: 1.0), 12500 queued in both stacks
    // (12500 x 8 / (25e9 x 10e-6) = 0.4): u = 1.4, tau = T: U = 1.4 >= eta:
    // W = Wc / (U / eta) + W_AI = 31250 / (1.4 / 0.95) + 50 = 21255.36 = Wc; rate W / T.
    Ack(10, 31250, 12500, true);
    const double w1 = 31250 / (1.4 / eta) + wai;
    EXPECT_NEAR(cc->GetUtilization(), 1.4, 1e-12);
    EXPECT_NEAR(qp->GetWindow(), w1, 1);
    EXPECT_NEAR(qp->GetRate().GetBitRate(), w1 * 8 / 10e-6, 1);
    EXPECT_NEAR(w1, 21255.36, 0.01);

    // 5 us later, not a new RTT: 6250 bytes (10 Gb/s: 0.4), queue 0: u = 0.4, tau = T/2:
    // U = 0.5 x 1.4 + 0.5 x 0.4 = 0.9 < eta, stage 0 < 5: W = Wc + W_AI; Wc stays.
    Ack(15, 37500, 0, false);
    EXPECT_NEAR(cc->GetUtilization(), 0.9, 1e-12);
    EXPECT_NEAR(qp->GetWindow(), w1 + wai, 1);

    // Five RTTs at 20 Gb/s (u = 0.8 = U): additive stages 1..5, Wc grows by W_AI each.
    uint64_t tx = 37500;
    for (int k = 1; k <= 5; ++k)
    {
        tx += 25000;
        Ack(15 + 10 * k, tx, 0, true);
        EXPECT_NEAR(cc->GetUtilization(), 0.8, 1e-12);
        EXPECT_NEAR(qp->GetWindow(), w1 + k * wai, 1) << "stage " << k;
    }
    // The sixth: U = 0.8 < eta, but incStage = MaxStage: multiplicative,
    // W = (w1 + 5 x 50) / (0.8 / 0.95) + 50 = 25587.61, and the stages restart.
    tx += 25000;
    Ack(75, tx, 0, true);
    const double w8 = (w1 + 5 * wai) / (0.8 / eta) + wai;
    EXPECT_NEAR(w8, 25587.61, 0.01);
    EXPECT_NEAR(qp->GetWindow(), w8, 1);
    tx += 25000;
    Ack(85, tx, 0, true);
    EXPECT_NEAR(qp->GetWindow(), w8 + wai, 1);
}

TEST_F(HpccWindowTest, MaxStageZeroIsAlwaysMultiplicative)
{
    // The HPCC authors' scripts (MI_THRESH 0): the first RTT below eta is already a
    // multiplicative step: W = 21255.36 / (0.8 / 0.95) + 50 = 25290.74.
    cc->SetAttribute("MaxStage", UintegerValue(0));
    qp->SetCongestionControl(cc);
    Ack(0, 0, 12500, true);
    Ack(10, 31250, 12500, true);
    const double w1 = 31250 / (1.4 / 0.95) + 50;
    Ack(20, 31250 + 25000, 0, true);
    EXPECT_NEAR(cc->GetUtilization(), 0.8, 1e-12);
    const double w2 = w1 / (0.8 / 0.95) + 50;
    EXPECT_NEAR(w2, 25290.74, 0.01);
    EXPECT_NEAR(qp->GetWindow(), w2, 1);
}
