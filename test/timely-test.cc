/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// TIMELY's rate computation driven by RTT samples, against values worked out by hand from
// Mittal et al., "TIMELY: RTT-based Congestion Control for the Datacenter", SIGCOMM 2015,
// Algorithm 1 (see timely-congestion-control.h).

#include "lone-queue-pair.h"

#include "ns3/core-module.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/timely-congestion-control.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

class TimelyTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        qp = test::LoneQueuePair(DataRate("25Gbps"));
        cc = CreateObject<TimelyCongestionControl>();
    }

    void TearDown() override
    {
        qp->Dispose();
        Simulator::Destroy();
    }

    /// An ACK with an RTT sample of `us` microseconds; @return the rate after it, Gb/s
    double Rtt(double us)
    {
        RdmaAckInfo info{1024, 1, NanoSeconds(static_cast<int64_t>(us * 1000)), false, nullptr};
        cc->OnAck(qp, info);
        return qp->GetRate().GetBitRate() / 1e9;
    }

    Ptr<RdmaQueuePair> qp;
    Ptr<TimelyCongestionControl> cc;
};

} // namespace

TEST_F(TimelyTest, RateFollowsTheRttGradient)
{
    // Defaults (the paper's): EWMA alpha 0.875, beta 0.8, delta 10 Mb/s, T_low 50 us,
    // T_high 500 us, minRTT 20 us, HAI after 5 non-positive gradients. Line rate 25 Gb/s.
    // rtt_diff := (1 - alpha) rtt_diff + alpha (rtt - prev_rtt); gradient = rtt_diff / minRTT.
    qp->SetCongestionControl(cc);
    const double eps = 1e-6;        // Gb/s: the rate is whole bit/s
    EXPECT_NEAR(Rtt(100), 25, eps); // the first sample only sets prev_rtt
    // 120: rtt_diff = 0.875 x 20 = 17.5 us, gradient 0.875 > 0, T_low < rtt < T_high:
    // rate x (1 - 0.8 x 0.875) = 25 x 0.3 = 7.5.
    EXPECT_NEAR(Rtt(120), 7.5, eps);
    // 130: rtt_diff = 0.125 x 17.5 + 0.875 x 10 = 10.9375, gradient 0.546875:
    // 7.5 x (1 - 0.4375) = 4.21875.
    EXPECT_NEAR(Rtt(130), 4.21875, eps);
    // 110: rtt_diff = 0.125 x 10.9375 - 0.875 x 20 = -16.13 < 0: additive, + delta: 4.22875.
    EXPECT_NEAR(Rtt(110), 4.22875, eps);
    // 100, 90, 80: the 2nd, 3rd and 4th negative gradient in a row: + delta each.
    EXPECT_NEAR(Rtt(100), 4.23875, eps);
    EXPECT_NEAR(Rtt(90), 4.24875, eps);
    EXPECT_NEAR(Rtt(80), 4.25875, eps);
    // 70, 60: the 5th and 6th: hyperactive increase, + 5 delta each: 4.30875, 4.35875.
    EXPECT_NEAR(Rtt(70), 4.30875, eps);
    EXPECT_NEAR(Rtt(60), 4.35875, eps);
    // 40 < T_low: + delta whatever the gradient: 4.36875.
    EXPECT_NEAR(Rtt(40), 4.36875, eps);
    // 600 > T_high: rate x (1 - 0.8 x (1 - 500 / 600)) = 4.36875 x (1 - 0.8 / 6) = 3.78625.
    EXPECT_NEAR(Rtt(600), 3.78625, eps);
    // After T_low and T_high the count of negative gradients starts again: 600 -> 450 is
    // negative (rtt_diff = 0.125 x 487.66 - 0.875 x 150 = -70.29): + delta only: 3.79625.
    EXPECT_NEAR(Rtt(450), 3.79625, eps);
}

TEST_F(TimelyTest, DecreaseIsCappedAndFloored)
{
    // A gradient above 1 cuts by beta at most; the rate never goes below MinRate nor above the
    // line rate.
    cc->SetAttribute("MinRate", StringValue("1Gbps"));
    qp->SetCongestionControl(cc);
    const double eps = 1e-6;
    Rtt(100);
    // 200: rtt_diff = 87.5 us, gradient 4.375, capped at 1: 25 x (1 - 0.8) = 5.
    EXPECT_NEAR(Rtt(200), 5, eps);
    // 300: rtt_diff = 0.125 x 87.5 + 0.875 x 100 = 98.44, capped: 5 x 0.2 = 1 (the floor).
    EXPECT_NEAR(Rtt(300), 1, eps);
    // 450: rtt_diff = 0.125 x 98.44 + 0.875 x 150 > 0, capped: 0.2; held at MinRate 1 Gb/s.
    EXPECT_NEAR(Rtt(450), 1, eps);
    // Below T_low for long: + 10 Mb/s per sample; 2400 samples would reach 25, it stops there.
    for (int i = 0; i < 2500; ++i)
    {
        Rtt(10);
    }
    EXPECT_NEAR(qp->GetRate().GetBitRate() / 1e9, 25, eps);
}
