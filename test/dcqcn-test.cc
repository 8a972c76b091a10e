/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// DCQCN's reaction point as a state machine: the values below are worked out by hand from the
// rules in Zhu et al., SIGCOMM 2015, section 3 (see dcqcn-congestion-control.h).

#include "ns3/core-module.h"
#include "ns3/dcqcn-congestion-control.h"
#include "ns3/rdma-queue-pair.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

class DcqcnTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        qp = CreateObject<RdmaQueuePair>();
        qp->Setup(0x100,
                  Ipv4Address("10.0.0.1"),
                  Ipv4Address("10.0.0.2"),
                  50000,
                  3,
                  DataRate("40Gbps"));
        cc = CreateObject<DcqcnCongestionControl>();
    }

    void TearDown() override
    {
        qp->Dispose();
        Simulator::Destroy();
    }

    /// The queue pair's rate in Gb/s.
    double Gbps() const
    {
        return qp->GetRate().GetBitRate() / 1e9;
    }

    Ptr<RdmaQueuePair> qp;
    Ptr<DcqcnCongestionControl> cc;
};

} // namespace

TEST_F(DcqcnTest, CnpCutsTheRateByHalfAlpha)
{
    cc->SetAttribute("InitialAlpha", DoubleValue(0.5));
    qp->SetCongestionControl(cc);
    EXPECT_DOUBLE_EQ(Gbps(), 40);
    cc->OnCnp(qp);
    EXPECT_NEAR(Gbps(), 40 * (1 - 0.25), 1e-6); // RC (1 - alpha / 2)
    EXPECT_NEAR(cc->GetTargetRate().GetBitRate() / 1e9, 40, 1e-6);
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), (1 - 1.0 / 256) * 0.5 + 1.0 / 256);
}

TEST_F(DcqcnTest, FastRecoveryThenAdditiveIncrease)
{
    qp->SetCongestionControl(cc); // alpha 1, timers 55 us, F = 5, R_AI 40 Mb/s
    cc->OnCnp(qp);                // RT = 40, RC = 20, alpha stays 1
    cc->OnCnp(qp);                // RT = 20, RC = 10
    EXPECT_NEAR(Gbps(), 10, 1e-6);
    std::vector<double> rc;
    for (int k = 1; k <= 5; ++k)
    {
        Simulator::Schedule(MicroSeconds(55 * k) + NanoSeconds(1), [&]() { rc.push_back(Gbps()); });
    }
    Simulator::Stop(MicroSeconds(276));
    Simulator::Run();
    ASSERT_EQ(rc.size(), 5u);
    // Four fast-recovery steps halve the gap to RT = 20, the fifth is additive (RT + 0.04).
    EXPECT_NEAR(rc[0], 15, 1e-6);
    EXPECT_NEAR(rc[1], 17.5, 1e-6);
    EXPECT_NEAR(rc[2], 18.75, 1e-6);
    EXPECT_NEAR(rc[3], 19.375, 1e-6);
    EXPECT_NEAR(rc[4], (20.04 + 19.375) / 2, 1e-6);
    EXPECT_EQ(cc->GetTimerStage(), 5u);
    // Alpha decayed once per alpha timer without CNP.
    EXPECT_NEAR(cc->GetAlpha(), std::pow(1 - 1.0 / 256, 5), 1e-12);
}

TEST_F(DcqcnTest, ByteCounterAndTimerTogetherGiveHyperIncrease)
{
    cc->SetAttribute("FastRecoveryStages", UintegerValue(1));
    cc->SetAttribute("ByteCounter", UintegerValue(1000));
    qp->SetCongestionControl(cc);
    cc->OnCnp(qp); // RT 40, RC 20
    cc->OnCnp(qp); // RT 20, RC 10
    cc->OnCnp(qp); // RT 10, RC 5
    EXPECT_NEAR(Gbps(), 5, 1e-6);
    cc->OnSend(qp, 1000); // byte stage 1 (> F? no; max >= F): additive: RT 10.04, RC 7.52
    EXPECT_NEAR(Gbps(), 7.52, 1e-6);
    cc->OnSend(qp, 1000); // byte stage 2: additive: RT 10.08, RC 8.8
    EXPECT_NEAR(Gbps(), 8.8, 1e-6);
    double at55 = 0;
    double at110 = 0;
    Simulator::Schedule(MicroSeconds(55) + NanoSeconds(1), [&]() { at55 = Gbps(); });
    Simulator::Schedule(MicroSeconds(110) + NanoSeconds(1), [&]() { at110 = Gbps(); });
    Simulator::Stop(MicroSeconds(111));
    Simulator::Run();
    // Timer stage 1: min(1, 2) = 1 is not > F = 1: additive: RT 10.12, RC 9.46.
    EXPECT_NEAR(at55, (10.12 + 8.8) / 2, 1e-6);
    // Timer stage 2: min(2, 2) = 2 > F: hyper increase by (2 - 1) x R_HAI (0.4): RT 10.52.
    EXPECT_NEAR(at110, (10.52 + 9.46) / 2, 1e-6);
}

TEST_F(DcqcnTest, RateNeverBelowMinRateNorAboveLineRate)
{
    cc->SetAttribute("MinRate", StringValue("1Gbps"));
    qp->SetCongestionControl(cc);
    for (int i = 0; i < 20; ++i)
    {
        cc->OnCnp(qp);
    }
    EXPECT_NEAR(Gbps(), 1, 1e-9);
    // Without traffic only the timer drives recovery: additive steps of 40 Mb/s per 55 us take
    // RT from 1 to 40 Gb/s in about 54 ms.
    Simulator::Stop(MilliSeconds(100));
    Simulator::Run();
    EXPECT_LE(Gbps(), 40);
    EXPECT_NEAR(Gbps(), 40, 1e-3); // recovered: nothing more to do, the timers stopped
}

TEST(DcqcnPreset, UnknownPresetIsAConfigurationError)
{
    EXPECT_EXIT(DcqcnCongestionControl::ApplyPreset("fast", DataRate("100Gbps")),
                ::testing::ExitedWithCode(1),
                "DCQCN preset = fast: accepted: paper or hpcc-sim");
}

TEST_F(DcqcnTest, AnIdleQueuePairCatchesUpWhatItsTimersWouldHaveDone)
{
    // Twin queue pairs cut by one CNP; one stays busy (its timers run), the other goes idle (no
    // events) and sends again 1 ms later: both must then have the same rate and alpha.
    Ptr<RdmaQueuePair> twin = CreateObject<RdmaQueuePair>();
    twin->Setup(0x101,
                Ipv4Address("10.0.0.1"),
                Ipv4Address("10.0.0.3"),
                50001,
                3,
                DataRate("40Gbps"));
    Ptr<DcqcnCongestionControl> busy = CreateObject<DcqcnCongestionControl>();
    qp->SetCongestionControl(cc);
    twin->SetCongestionControl(busy);
    cc->OnCnp(qp);
    busy->OnCnp(twin);
    cc->OnIdle(qp);
    double idleRate = 0;
    double busyRate = 0;
    Simulator::Schedule(MilliSeconds(1) + NanoSeconds(1), [&]() {
        cc->OnSend(qp, 1); // wakes up: catch up 1 ms of timers
        idleRate = qp->GetRate().GetBitRate() / 1e9;
        busyRate = twin->GetRate().GetBitRate() / 1e9;
    });
    Simulator::Stop(MilliSeconds(1) + NanoSeconds(2));
    Simulator::Run();
    EXPECT_GT(busyRate, 20); // it did recover from the cut to 20 Gb/s
    EXPECT_NEAR(idleRate, busyRate, 1e-6);
    EXPECT_NEAR(cc->GetAlpha(), busy->GetAlpha(), 1e-12);
    twin->Dispose();
}
