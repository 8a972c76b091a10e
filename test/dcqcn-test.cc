/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// DCQCN's reaction point as a state machine: the values below are worked out by hand from the
// rules in Zhu et al., SIGCOMM 2015, section 3 (see dcqcn-congestion-control.h), and for
// Variant HpccSim from the rules of the HPCC authors' simulator (rdma-hw.cc of
// alibaba-edu/High-Precision-Congestion-Control).

#include "config-error-test.h"
#include "lone-queue-pair.h"

#include "ns3/core-module.h"
#include "ns3/dcqcn-congestion-control.h"
#include "ns3/rdma-queue-pair.h"

#include <cmath>
#include <functional>
#include <gtest/gtest.h>
#include <map>

using namespace ns3;

namespace
{

class DcqcnTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        qp = test::LoneQueuePair(DataRate("40Gbps"));
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

TEST_F(DcqcnTest, AReplacedReactionPointStopsItsTimers)
{
    // A queue pair given another congestion control disposes of the one it had: the old one's
    // timers, which name the queue pair without holding it, stop with it, even while its
    // object lives on (here, this test's reference) and after the queue pair is freed.
    qp->SetCongestionControl(cc);
    cc->OnCnp(qp); // both timers start
    const double alpha = cc->GetAlpha();
    qp->SetCongestionControl(CreateObject<DcqcnCongestionControl>());
    qp->Dispose();
    qp = test::LoneQueuePair(DataRate("40Gbps")); // the first one is freed (TearDown's own)
    Simulator::Stop(MicroSeconds(500));
    Simulator::Run();
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), alpha);
}

TEST(DcqcnPreset, UnknownPresetIsAConfigurationError)
{
    EXPECT_CONFIG_ERROR(DcqcnCongestionControl::ApplyPreset("fast", DataRate("100Gbps")),
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

TEST_F(DcqcnTest, AQueuePairThatGoesStopsItsTimers)
{
    // The timers name their queue pair without holding it: a queue pair disposed of (and
    // freed) while they are pending must leave them stopped, however long the reaction point
    // itself lives on. Run, its alpha timer would decay alpha by (1 - g) every 55 us and its
    // increase timer would raise the target rate.
    qp->SetCongestionControl(cc);
    cc->OnCnp(qp); // both timers start
    const double alpha = cc->GetAlpha();
    const uint64_t target = cc->GetTargetRate().GetBitRate();
    qp->Dispose();
    qp = test::LoneQueuePair(DataRate("40Gbps")); // the first one is freed (TearDown's own)
    Simulator::Stop(MicroSeconds(500));
    Simulator::Run();
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), alpha);
    EXPECT_EQ(cc->GetTargetRate().GetBitRate(), target);
}

namespace
{

/// Variant HpccSim through the "hpcc-sim" preset at 25 Gb/s (the preset's own scale: R_AI
/// 5 Mb/s, R_HAI 50 Mb/s, g 1/256, alpha timer 1 us, decrease check every 4 us, increase timer
/// 300 us, F = 1, minimum rate 1 Gb/s, no target-rate clamping). The preset sets attribute
/// defaults for the whole process: TearDown puts the paper's back.
class DcqcnHpccSimTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        DcqcnCongestionControl::ApplyPreset("hpcc-sim", DataRate("25Gbps"));
        qp = MakeQueuePair(0x200, "10.0.0.2");
        cc = CreateObject<DcqcnCongestionControl>();
    }

    void TearDown() override
    {
        qp->Dispose();
        Simulator::Destroy();
        DcqcnCongestionControl::ApplyPreset("paper", DataRate("40Gbps"));
    }

    static Ptr<RdmaQueuePair> MakeQueuePair(uint32_t qpn, const char* peer)
    {
        Ptr<RdmaQueuePair> q = CreateObject<RdmaQueuePair>();
        q->Setup(qpn, Ipv4Address("10.0.0.1"), Ipv4Address(peer), 50000, 3, DataRate("25Gbps"));
        return q;
    }

    /// Call f at time t.
    static void At(Time t, std::function<void()> f)
    {
        Simulator::Schedule(t, f);
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

TEST_F(DcqcnHpccSimTest, PresetSelectsTheVariant)
{
    StringValue variant;
    cc->GetAttribute("Variant", variant);
    EXPECT_EQ(variant.Get(), "HpccSim");
    DcqcnCongestionControl::ApplyPreset("paper", DataRate("25Gbps"));
    Ptr<DcqcnCongestionControl> paper = CreateObject<DcqcnCongestionControl>();
    paper->GetAttribute("Variant", variant);
    EXPECT_EQ(variant.Get(), "Paper");
}

TEST_F(DcqcnHpccSimTest, RateTrajectoryFollowsTheSimulatorsRules)
{
    // The rules (rdma-hw.cc of the HPCC artifact, see dcqcn-congestion-control.h), by hand:
    // g = 1/256, d = 1 - g = 255/256; rates in Gb/s.
    const double g = 1.0 / 256;
    const double d = 1 - g;
    qp->SetCongestionControl(cc);
    std::map<std::string, double> rc;
    std::map<std::string, double> rt;
    std::map<std::string, double> alpha;
    std::map<std::string, uint32_t> stage;
    auto record = [&](const std::string& name) {
        rc[name] = Gbps();
        rt[name] = cc->GetTargetRate().GetBitRate() / 1e9;
        alpha[name] = cc->GetAlpha();
        stage[name] = cc->GetTimerStage();
    };
    // 10 us: the first CNP. Alpha := 1; alpha timer events at 11, 12, ... us, decrease checks
    // 1 ns after 14, 18, 22, ... us. The rate is not touched yet.
    At(MicroSeconds(10), [&]() { cc->OnCnp(qp); });
    At(MicroSeconds(10) + NanoSeconds(1), [&]() { record("cnp1"); });
    At(MicroSeconds(14), [&]() { record("before-check"); });
    // 14 us + 1 ns: the check sees the first CNP. The first CNP does not count for alpha, so
    // the alpha events at 11..14 us only decayed it: alpha = d^4 = 0.98447. No increase since
    // the start (stage 0) and no clamping: RT stays 25; RC = 25 (1 - d^4 / 2) = 12.6942.
    const double a1 = std::pow(d, 4);
    const double rc1 = 25 * (1 - a1 / 2);
    At(MicroSeconds(14) + NanoSeconds(2), [&]() { record("cut1"); });
    // 16 us: 20 MB sent at the reduced rate: no byte counter, nothing changes.
    At(MicroSeconds(16), [&]() {
        cc->OnSend(qp, 10000000);
        cc->OnSend(qp, 10000000);
        record("bytes");
    });
    // 20.5 us: five CNPs in one alpha period. Alpha decayed at 15..20 us (d^10 in all); the
    // event at 21 us sees the flag once: alpha = d^11 + g = 0.96177, not five updates.
    At(MicroSeconds(20) + NanoSeconds(500), [&]() {
        for (int i = 0; i < 5; ++i)
        {
            cc->OnCnp(qp);
        }
    });
    At(MicroSeconds(21) + NanoSeconds(500), [&]() { record("after-burst"); });
    // 22 us + 1 ns: the check after the burst. Alpha after the 22 us event:
    // a2 = (d^11 + g) d = 0.95801. Stage still 0 (the increase timer, restarted at 14 us, is
    // due at 314 us), so RT stays 25: RC = 12.6942 (1 - a2 / 2) = 6.6136.
    const double a2 = (std::pow(d, 11) + g) * d;
    const double rc2 = rc1 * (1 - a2 / 2);
    At(MicroSeconds(22) + NanoSeconds(2), [&]() { record("cut2"); });
    // 322 us + 1 ns: the increase timer (restarted by the cut at 22 us + 1 ns), stage 0 < F:
    // fast recovery, RC = (6.6136 + 25) / 2 = 15.8068; stage 1.
    const double rc3 = (rc2 + 25) / 2;
    At(MicroSeconds(322) + NanoSeconds(2), [&]() { record("fast-recovery"); });
    // 400.5 us: one CNP; the check at 402 us + 1 ns acts on it. Stage 1 > 0: RT = RC = 15.8068
    // (clamped now). Alpha: from a2 at 22 us, 378 decays (23..400 us), the 401 us event with
    // the flag, a decay at 402 us: a3 = (a2 d^379 + g) d = 0.22039;
    // RC = 15.8068 (1 - a3 / 2) = 14.0650; stage 0.
    At(MicroSeconds(400) + NanoSeconds(500), [&]() { cc->OnCnp(qp); });
    const double a3 = (a2 * std::pow(d, 379) + g) * d;
    const double rc4 = rc3 * (1 - a3 / 2);
    At(MicroSeconds(402) + NanoSeconds(2), [&]() { record("cut3"); });
    // Then the timer alone, every 300 us from 402 us + 1 ns:
    // 702 us: stage 0 < F: fast recovery: RC = (14.0650 + 15.8068) / 2 = 14.9359;
    // 1002 us: stage 1 = F: additive: RT = 15.8068 + 0.005 = 15.8118, RC = 15.3738;
    // 1302 us: stage 2 > F: hyper: RT = 15.8118 + 0.05 = 15.8618, RC = 15.6178;
    // 1602 us: stage 3 > F: hyper again by one R_HAI (not 2 x R_HAI as the paper's
    // min(T, BC) - F rule would give): RT = 15.9118, RC = 15.7648.
    const double rc5 = (rc4 + rc3) / 2;
    const double rt6 = rc3 + 0.005;
    const double rc6 = (rc5 + rt6) / 2;
    const double rt7 = rt6 + 0.05;
    const double rc7 = (rc6 + rt7) / 2;
    const double rt8 = rt7 + 0.05;
    const double rc8 = (rc7 + rt8) / 2;
    At(MicroSeconds(702) + NanoSeconds(2), [&]() { record("fr"); });
    At(MicroSeconds(1002) + NanoSeconds(2), [&]() { record("ai"); });
    At(MicroSeconds(1302) + NanoSeconds(2), [&]() { record("hai1"); });
    At(MicroSeconds(1602) + NanoSeconds(2), [&]() { record("hai2"); });
    Simulator::Stop(MicroSeconds(1700));
    Simulator::Run();

    const double eps = 1e-6; // 1 kb/s: the queue pair's rate is in whole bit/s
    EXPECT_DOUBLE_EQ(rc["cnp1"], 25);
    EXPECT_DOUBLE_EQ(alpha["cnp1"], 1);
    EXPECT_DOUBLE_EQ(rc["before-check"], 25);
    EXPECT_NEAR(alpha["before-check"], a1, 1e-12);
    EXPECT_NEAR(rc["cut1"], rc1, eps);
    EXPECT_NEAR(rc1, 12.6942, 1e-4);
    EXPECT_NEAR(rt["cut1"], 25, eps);
    EXPECT_NEAR(rc["bytes"], rc1, eps);
    EXPECT_EQ(stage["bytes"], 0u);
    EXPECT_NEAR(alpha["after-burst"], std::pow(d, 11) + g, 1e-12);
    EXPECT_NEAR(rc["cut2"], rc2, eps);
    EXPECT_NEAR(rc2, 6.6136, 1e-4);
    EXPECT_NEAR(rt["cut2"], 25, eps);
    EXPECT_NEAR(rc["fast-recovery"], rc3, eps);
    EXPECT_EQ(stage["fast-recovery"], 1u);
    EXPECT_NEAR(rt["cut3"], rc3, eps);
    EXPECT_NEAR(alpha["cut3"], a3, 1e-9);
    EXPECT_NEAR(rc["cut3"], rc4, eps);
    EXPECT_NEAR(rc4, 14.0650, 1e-4);
    EXPECT_EQ(stage["cut3"], 0u);
    EXPECT_NEAR(rc["fr"], rc5, eps);
    EXPECT_NEAR(rt["fr"], rc3, eps);
    EXPECT_NEAR(rt["ai"], rt6, eps);
    EXPECT_NEAR(rc["ai"], rc6, eps);
    EXPECT_NEAR(rt["hai1"], rt7, eps);
    EXPECT_NEAR(rc["hai1"], rc7, eps);
    EXPECT_NEAR(rt["hai2"], rt8, eps);
    EXPECT_NEAR(rc["hai2"], rc8, eps);
    EXPECT_NEAR(rc8, 15.7648, 1e-4);
    EXPECT_EQ(stage["hai2"], 4u);
}

TEST_F(DcqcnHpccSimTest, AnIdleQueuePairMatchesABusyOne)
{
    // Twins cut by the same CNPs; one goes idle (no events) and sends again 2 ms later, in
    // the middle of its recovery: rate, target, alpha and stage match the busy twin's.
    Ptr<RdmaQueuePair> twin = MakeQueuePair(0x201, "10.0.0.3");
    Ptr<DcqcnCongestionControl> busy = CreateObject<DcqcnCongestionControl>();
    qp->SetCongestionControl(cc);
    twin->SetCongestionControl(busy);
    for (int us : {10, 30, 31, 400})
    {
        At(MicroSeconds(us), [&]() {
            cc->OnCnp(qp);
            busy->OnCnp(twin);
        });
    }
    At(MicroSeconds(15), [&]() { cc->OnIdle(qp); });
    At(MicroSeconds(100), [&]() { cc->OnSend(qp, 1000); }); // busy again, briefly
    At(MicroSeconds(101), [&]() { cc->OnIdle(qp); });       // a CNP at 400 us finds it idle
    bool compared = false;
    At(MilliSeconds(2) + NanoSeconds(7), [&]() {
        cc->OnSend(qp, 1000);
        EXPECT_LT(busy->GetTargetRate().GetBitRate(), 25e9); // clamped at 402 us, recovering
        EXPECT_EQ(qp->GetRate(), twin->GetRate());
        EXPECT_EQ(cc->GetTargetRate(), busy->GetTargetRate());
        EXPECT_EQ(cc->GetTimerStage(), busy->GetTimerStage());
        EXPECT_NEAR(cc->GetAlpha(), busy->GetAlpha(), 1e-12);
        compared = true;
    });
    Simulator::Stop(MilliSeconds(3));
    Simulator::Run();
    EXPECT_TRUE(compared);
    twin->Dispose();
}

TEST(RdmaQueuePairTraces, RateAndWindowReportEveryChangeOfTheCongestionControl)
{
    // The congestion-control state as trace sources: a DCQCN cut by one CNP halves the rate
    // (alpha starts at 1: RC x (1 - 1/2)), reported once as (old, new); a window set twice to
    // the same value is reported once.
    Ptr<RdmaQueuePair> qp = test::LoneQueuePair(DataRate("40Gbps"));
    std::vector<std::pair<DataRate, DataRate>> rates;
    std::vector<std::pair<uint64_t, uint64_t>> windows;
    qp->TraceConnectWithoutContext(
        "Rate",
        MakeCallback(+[](std::vector<std::pair<DataRate, DataRate>>* v, DataRate a, DataRate b) {
            v->emplace_back(a, b);
        }).Bind(&rates));
    qp->TraceConnectWithoutContext(
        "Window",
        MakeCallback(+[](std::vector<std::pair<uint64_t, uint64_t>>* v, uint64_t a, uint64_t b) {
            v->emplace_back(a, b);
        }).Bind(&windows));
    Ptr<DcqcnCongestionControl> cc = CreateObject<DcqcnCongestionControl>();
    qp->SetCongestionControl(cc); // starts at the line rate: no change
    EXPECT_TRUE(rates.empty());
    cc->OnCnp(qp);
    ASSERT_EQ(rates.size(), 1u);
    EXPECT_EQ(rates[0].first, DataRate("40Gbps"));
    EXPECT_EQ(rates[0].second, DataRate("20Gbps"));
    EXPECT_EQ(rates[0].second, qp->GetRate());
    qp->SetWindow(8000);
    qp->SetWindow(8000);
    qp->SetWindow(0);
    ASSERT_EQ(windows.size(), 2u);
    EXPECT_EQ(windows[0], std::make_pair(uint64_t{0}, uint64_t{8000}));
    EXPECT_EQ(windows[1], std::make_pair(uint64_t{8000}, uint64_t{0}));
    qp->Dispose();
    Simulator::Destroy();
}
