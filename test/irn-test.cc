/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// IRN's selective repeat (Mittal et al., "Revisiting Network Support for RDMA", SIGCOMM 2018,
// section 3) against go-back-N: one lost packet costs one retransmission and one frame time; a
// tail loss waits RTO_low, not the RTO; the BDP cap holds; a lossy incast without PFC resends
// exactly what was dropped, far less than go-back-N; on WebSearch without PFC it beats RoCE
// with PFC, where RoCE without PFC collapses.

#include "lossy-write.h"
#include "run-scenario-test.h"

#include "ns3/core-module.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-transport.h"

#include <fstream>
#include <gtest/gtest.h>

using namespace ns3;

namespace
{

constexpr uint32_t MTU = test::LOSSY_WRITE_MTU;

using Write = test::LossyWrite;

/// @return a lossy WRITE (test::RunLossyWrite), with at most `cap` PSNs in flight (0: no cap)
Write
RunWrite(const std::string& transport,
         uint32_t packets,
         const std::vector<uint32_t>& lose,
         uint32_t cap = 0)
{
    return test::RunLossyWrite(transport,
                               packets,
                               lose,
                               {{"MaxOutstandingPackets", std::to_string(cap)}});
}

/// Wire time of a full WRITE packet's frame at 100 Gb/s.
Time
FrameTime()
{
    const uint32_t frame =
        PfcNetDevice::WireBytes(MTU + RdmaNic::ROCE_HEADERS + PfcNetDevice::ETHERNET_HEADER);
    return PicoSeconds(static_cast<int64_t>(frame) * 80); // 8 bits at 100 Gb/s: 80 ps a byte
}

} // namespace

TEST(Irn, OneLostPacketIsResentAloneAndCostsOneFrameTime)
{
    const Write clean = RunWrite("irn", 100, {});
    const Write irn = RunWrite("irn", 100, {10});
    const Write gbn = RunWrite("gbn", 100, {10});
    ASSERT_FALSE(clean.flow.end.IsZero());
    ASSERT_FALSE(irn.flow.end.IsZero());
    ASSERT_FALSE(gbn.flow.end.IsZero());
    EXPECT_EQ(irn.lost, 1u);
    EXPECT_EQ(irn.sender->GetRetransmittedPackets(), 1u);
    EXPECT_EQ(irn.sender->GetRetransmittedBytes(), MTU);
    EXPECT_EQ(irn.sender->GetTimeouts(), 0u);
    EXPECT_GE(irn.sender->GetNaksReceived(), 1u); // one per packet past the gap
    EXPECT_EQ(irn.responder->GetDuplicatesReceived(), 0u);
    EXPECT_EQ(irn.responder->GetBytesDelivered(), 100u * MTU);
    // The NAK comes back while the sender still has new packets: the lost one goes out ahead
    // of them, and the WRITE ends one frame time later than without the loss.
    const Time late = (irn.flow.end - irn.flow.start) - (clean.flow.end - clean.flow.start);
    EXPECT_NEAR(late.GetNanoSeconds(), FrameTime().GetNanoSeconds(), 2.0);
    // Go-back-N resends everything from the loss that was in flight when its NAK came.
    EXPECT_GT(gbn.sender->GetRetransmittedPackets(), 10u);
    EXPECT_GT(gbn.flow.end - gbn.flow.start, irn.flow.end - irn.flow.start);
}

TEST(Irn, SeveralLossesInOneWindowAreEachResentOnce)
{
    const Write irn = RunWrite("irn", 200, {20, 21, 60, 150});
    ASSERT_FALSE(irn.flow.end.IsZero());
    EXPECT_EQ(irn.lost, 4u);
    EXPECT_EQ(irn.sender->GetRetransmittedPackets(), 4u);
    EXPECT_EQ(irn.sender->GetTimeouts(), 0u);
    EXPECT_EQ(irn.responder->GetDuplicatesReceived(), 0u);
    EXPECT_EQ(irn.responder->GetBytesDelivered(), 200u * MTU);
    EXPECT_EQ(irn.responder->GetExpectedPsn(), 200u);
    EXPECT_FALSE(irn.sender->IsInRecovery());
}

TEST(Irn, ALostRetransmissionIsRecoveredByTheTimeout)
{
    // PSN 10 is lost twice: its retransmission too. No later packet reveals that, so the
    // timeout does; it resends only what was not selectively acknowledged.
    const Write irn = RunWrite("irn", 100, {10, 10});
    ASSERT_FALSE(irn.flow.end.IsZero());
    EXPECT_EQ(irn.lost, 2u);
    EXPECT_EQ(irn.sender->GetTimeouts(), 1u);
    EXPECT_EQ(irn.sender->GetRetransmittedPackets(), 2u);
    EXPECT_EQ(irn.responder->GetDuplicatesReceived(), 0u);
    EXPECT_EQ(irn.responder->GetBytesDelivered(), 100u * MTU);
}

TEST(Irn, ATailLossWaitsTheLowTimeout)
{
    // The last packet lost: nothing after it draws a NAK. Three or fewer in flight: RTO_low
    // (100 us) instead of the 1 ms RetransmitTimeout; go-back-N waits the full RTO.
    const Write irn = RunWrite("irn", 20, {19});
    const Write gbn = RunWrite("gbn", 20, {19});
    ASSERT_FALSE(irn.flow.end.IsZero());
    ASSERT_FALSE(gbn.flow.end.IsZero());
    EXPECT_EQ(irn.sender->GetTimeouts(), 1u);
    EXPECT_EQ(irn.sender->GetRetransmittedPackets(), 1u);
    const Time fct = irn.flow.end - irn.flow.start;
    EXPECT_GE(fct, MicroSeconds(100));
    EXPECT_LT(fct, MicroSeconds(100) + 2 * irn.flow.idealFct);
    EXPECT_GE(gbn.flow.end - gbn.flow.start, MilliSeconds(1));
}

TEST(Irn, TheCapBoundsThePacketsInFlight)
{
    // One link's base RTT is about 2.2 us, some 26 full frames at 100 Gb/s: a cap of 8 binds.
    const Write capped = RunWrite("irn", 200, {}, 8);
    const Write free = RunWrite("irn", 200, {});
    ASSERT_FALSE(capped.flow.end.IsZero());
    EXPECT_LE(capped.maxInFlight, 8u);
    EXPECT_EQ(capped.maxInFlight, 8u);
    EXPECT_GT(free.maxInFlight, 8u);
    // Eight packets per round trip: the WRITE takes about 200 / 8 round trips.
    EXPECT_GT(capped.flow.end - capped.flow.start, 2 * (free.flow.end - free.flow.start));
}

namespace
{

/// A lossy incast on a k=4 fat-tree: 15 hosts write 256 KB each into host 0, no congestion
/// control, 2 MB of buffer per switch, the paper's RTO_high (320 us).
const char* const INCAST = R"({
  "name": "irn-incast",
  "stopTime": "20ms",
  "fabric": {"kind": "fat-tree", "k": 4},
  "switch": {"bufferSize": "2MB"},
  "nic": {"cc": "none", "retransmitTimeout": "320us"},
  "workloads": [{"kind": "incast", "fanIn": 15, "size": "256KB", "destination": 0}],
  "output": {"queues": "none"}
})";

} // namespace

TEST(Irn, ALossyIncastResendsExactlyWhatWasDroppedFarLessThanGoBackN)
{
    const ScenarioRunRecords pfc = RunScenario(INCAST, {}, "irn-incast-pfc");
    const ScenarioRunRecords gbn = RunScenario(INCAST, {"switch.pfc=false"}, "irn-incast-gbn");
    const ScenarioRunRecords irn =
        RunScenario(INCAST,
                    {"switch.pfc=false", "nic.transport=irn", "nic.maxOutstanding=bdp"},
                    "irn-incast-irn");
    ASSERT_EQ(pfc.flows.size(), 15u);
    ASSERT_EQ(gbn.flows.size(), 15u);
    ASSERT_EQ(irn.flows.size(), 15u);
    const nlohmann::json sPfc = ReadSummary(pfc);
    const nlohmann::json sGbn = ReadSummary(gbn);
    const nlohmann::json sIrn = ReadSummary(irn);
    EXPECT_EQ(sPfc["retransmittedBytes"].get<uint64_t>(), 0u);
    const uint64_t gbnDrops = sGbn["drops"]["buffer"].get<uint64_t>();
    const uint64_t irnDrops = sIrn["drops"]["buffer"].get<uint64_t>();
    ASSERT_GT(gbnDrops, 0u); // the incast does overflow the buffers
    ASSERT_GT(irnDrops, 0u);
    // Selective repeat resends exactly what the switches dropped, and nothing arrives twice;
    // go-back-N resends what followed each loss too.
    EXPECT_EQ(sIrn["retransmittedPackets"].get<uint64_t>(), irnDrops);
    EXPECT_EQ(sIrn["spuriousRetransmissions"].get<uint64_t>(), 0u);
    EXPECT_GT(sGbn["retransmittedPackets"].get<uint64_t>(), gbnDrops);
    EXPECT_LT(sIrn["retransmittedBytes"].get<uint64_t>() * 3 / 2,
              sGbn["retransmittedBytes"].get<uint64_t>());
    for (const auto* run : {&pfc, &gbn, &irn})
    {
        LastFct(*run); // every flow finished
    }
}

namespace
{

/// WebSearch at 80% load on a k=4 fat-tree of 40 Gb/s links with 2 us of delay and 240 KB of
/// buffer per port, no congestion control: the setting of the paper's section 4, smaller.
const char* const WEBSEARCH = R"({
  "name": "irn-websearch",
  "stopTime": "40ms",
  "fabric": {"kind": "fat-tree", "k": 4, "hostRate": "40Gbps", "fabricRate": "40Gbps",
             "delay": "2us"},
  "switch": {"bufferSize": "960KB"},
  "nic": {"cc": "none", "retransmitTimeout": "320us"},
  "workloads": [{"kind": "poisson", "cdf": "websearch", "load": 0.8, "start": "0s",
                 "stop": "10ms"}],
  "output": {"queues": "none"}
})";

} // namespace

TEST(Irn, WithoutPfcItBeatsRoceWithPfcWhereRoceWithoutPfcCollapses)
{
    // Mittal et al. report IRN without PFC 6-83% better than RoCE with PFC, and RoCE without
    // PFC far worse than with it (figures 1 and 3).
    const ScenarioRunRecords roce = RunScenario(WEBSEARCH, {}, "irn-ws-roce-pfc");
    const ScenarioRunRecords lossy = RunScenario(WEBSEARCH, {"switch.pfc=false"}, "irn-ws-roce");
    const ScenarioRunRecords irn =
        RunScenario(WEBSEARCH,
                    {"switch.pfc=false", "nic.transport=irn", "nic.maxOutstanding=bdp"},
                    "irn-ws-irn");
    const nlohmann::json sRoce = ReadSummary(roce);
    const nlohmann::json sLossy = ReadSummary(lossy);
    const nlohmann::json sIrn = ReadSummary(irn);
    ASSERT_GT(sIrn["drops"]["buffer"].get<uint64_t>(), 0u); // it does lose packets
    EXPECT_EQ(sIrn["flows"]["unfinished"].get<uint64_t>(), 0u);
    EXPECT_EQ(sRoce["flows"]["unfinished"].get<uint64_t>(), 0u);
    const double roceP50 = sRoce["slowdown"]["p50"].get<double>();
    const double roceP99 = sRoce["slowdown"]["p99"].get<double>();
    EXPECT_LT(sIrn["slowdown"]["p50"].get<double>(), roceP50);
    EXPECT_LT(sIrn["slowdown"]["p99"].get<double>(), roceP99);
    EXPECT_GT(sLossy["slowdown"]["p99"].get<double>(), 4 * roceP99);
}
