/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PFC's failure modes: a pause storm (a NIC that pauses its switch port without a break, Guo et
// al. SIGCOMM 2016) stalls what goes to it and, through the shared buffer, flows that never meet
// it; the PFC watchdog declares the priority stormed after its detection time, drops what waits
// and what comes for it, gives the buffer back, and restores the priority once the pauses stop.

#include "run-scenario-test.h"
#include "star-fabric.h"

#include "ns3/core-module.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-transport.h"

#include <fstream>
#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// Three hosts on one switch; host 1 storms from 100 us to `stormEnd`; hosts 0 and 2 write
/// 2 MB each, to host 1 and to host 0.
struct Storm
{
    std::vector<std::pair<Time, bool>> trips; //!< the switch port's Watchdog trace
    FlowRecord toStormer;                     //!< 0 -> 1
    FlowRecord bystander;                     //!< 2 -> 0
    uint64_t drops{0};                        //!< frames the watchdog dropped
    uint64_t sharedUsedAtTrip{0};             //!< the switch's shared buffer just after a trip
    uint64_t sharedUsedBefore{0};             //!< and just before it
};

Storm
RunStorm(const std::string& watchdog, Time stormEnd)
{
    RoceHelper h;
    h.SetNicAttribute("CongestionControl", StringValue("none"));
    h.SetQueuePairAttribute("RetransmitTimeout", StringValue("200us"));
    h.SetMmuAttribute("BufferSize", UintegerValue(1000000));
    test::BuildStar(h, 3);
    h.Finalize();
    Ptr<RoceSwitch> sw = h.GetSwitch(0);
    Ptr<PfcNetDevice> toHost1 = sw->GetPort(1);
    toHost1->SetAttribute("PfcWatchdogTime", StringValue(watchdog));
    toHost1->SetAttribute("PfcWatchdogRestoreTime", StringValue("50us"));
    Storm out;
    toHost1->TraceConnectWithoutContext(
        "Watchdog",
        Callback<void, uint8_t, bool>([&out, sw](uint8_t, bool tripped) {
            out.trips.emplace_back(Simulator::Now(), tripped);
            if (tripped)
            {
                out.sharedUsedAtTrip = sw->GetMmu()->GetSharedUsed();
            }
        }));
    Ptr<PfcNetDevice> stormer = h.GetNic(1)->GetDevice();
    Simulator::Schedule(MicroSeconds(100), &PfcNetDevice::SetPauseStorm, stormer, 3, true);
    Simulator::Schedule(stormEnd, &PfcNetDevice::SetPauseStorm, stormer, 3, false);
    RoceTransport rdma(h);
    rdma.Post(0, 1, RdmaVerb::WRITE, 2000000, Time(0), 3);
    rdma.Post(2, 0, RdmaVerb::WRITE, 2000000, Time(0), 3);
    Simulator::Schedule(MicroSeconds(299),
                        [&out, sw]() { out.sharedUsedBefore = sw->GetMmu()->GetSharedUsed(); });
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    for (const FlowRecord& f : rdma.GetFlows())
    {
        (f.src == 0 ? out.toStormer : out.bystander) = f;
    }
    out.drops = toHost1->GetWatchdogDrops();
    Simulator::Destroy();
    return out;
}

} // namespace

TEST(PfcWatchdog, AStormStallsItsVictimsForGoodWithoutTheWatchdog)
{
    const Storm s = RunStorm("0s", MilliSeconds(30)); // beyond the run: it never stops
    EXPECT_TRUE(s.trips.empty());
    EXPECT_EQ(s.drops, 0u);
    EXPECT_TRUE(s.toStormer.end.IsZero());
    EXPECT_GT(s.sharedUsedBefore, 0u);
    // Host 2's write into host 0 never meets host 1, yet it stalls too: host 0's frames for
    // host 1 fill its share of the switch's buffer, the switch pauses host 0's port, and host
    // 0's ACKs to host 2 wait behind that pause (the priority is shared).
    EXPECT_TRUE(s.bystander.end.IsZero());
}

TEST(PfcWatchdog, TheWatchdogTripsAfterItsTimeDropsAndGivesTheBufferBack)
{
    const Storm s = RunStorm("200us", MilliSeconds(5));
    ASSERT_EQ(s.trips.size(), 2u);
    // Paused from about 100 us on (the storm's first pause reaches the switch one link delay
    // and a frame later): tripped 200 us after that pause began.
    EXPECT_TRUE(s.trips[0].second);
    EXPECT_GE(s.trips[0].first, MicroSeconds(300));
    EXPECT_LT(s.trips[0].first, MicroSeconds(303));
    EXPECT_GT(s.drops, 0u);
    EXPECT_GT(s.sharedUsedBefore, 0u);
    EXPECT_LT(s.sharedUsedAtTrip, s.sharedUsedBefore); // the dropped frames' buffer came back
    // The storm ends at 5 ms; its last pause holds 65 535 quanta (336 us at 100 Gb/s) at most,
    // then the priority is restored 50 us after its last pause ended.
    EXPECT_FALSE(s.trips[1].second);
    EXPECT_GT(s.trips[1].first, MilliSeconds(5));
    EXPECT_LT(s.trips[1].first, MilliSeconds(5) + MicroSeconds(400));
    // Both writes finish: the stormed one resends what was dropped once restored.
    EXPECT_FALSE(s.toStormer.end.IsZero());
    EXPECT_GT(s.toStormer.end, s.trips[1].first);
    EXPECT_FALSE(s.bystander.end.IsZero());
}

namespace
{

/// @return the flows of a run that neither start nor end at host 0, and how many finished
std::pair<uint32_t, uint32_t>
Bystanders(const ScenarioRunRecords& r)
{
    uint32_t all = 0;
    uint32_t finished = 0;
    for (const FlowRecord& f : r.flows)
    {
        if (f.src != 0 && f.dst != 0)
        {
            ++all;
            finished += f.end.IsZero() ? 0 : 1;
        }
    }
    return {all, finished};
}

} // namespace

TEST(PfcWatchdog, AStormSpreadsThroughAFatTreeWithoutItAndStaysPutWithIt)
{
    std::ifstream file(std::string(INTERCONNECT_SOURCE_DIR) + "/examples/scenarios/pfc-storm.json");
    const std::string json((std::istreambuf_iterator<char>(file)),
                           std::istreambuf_iterator<char>());
    const ScenarioRunRecords off = RunScenario(json, {}, "pfc-storm-off");
    const ScenarioRunRecords on = RunScenario(json, {"switch.pfcWatchdog=100us"}, "pfc-storm-on");
    const auto [allOff, finishedOff] = Bystanders(off);
    const auto [allOn, finishedOn] = Bystanders(on);
    ASSERT_EQ(allOff, allOn);
    ASSERT_GT(allOff, 100u);
    EXPECT_LT(finishedOff * 2, allOff);      // most flows that never meet host 0 stall
    EXPECT_GT(finishedOn * 100, allOn * 95); // with the watchdog nearly all finish
    const nlohmann::json sOff = ReadSummary(off);
    const nlohmann::json sOn = ReadSummary(on);
    EXPECT_EQ(sOff["pfc"]["watchdogTrips"].get<uint64_t>(), 0u);
    EXPECT_GE(sOn["pfc"]["watchdogTrips"].get<uint64_t>(), 1u);
    EXPECT_GT(sOn["pfc"]["watchdogDrops"].get<uint64_t>(), 0u);
    EXPECT_LT(sOn["pfc"]["pausedTimeNs"].get<uint64_t>() * 5,
              sOff["pfc"]["pausedTimeNs"].get<uint64_t>());
}

namespace
{

/// 15 hosts write 256 KB each into host 0 of a k=4 fat-tree (100 Gb/s, 1 us cables, 2 MB of
/// buffer per switch), no congestion control: PFC holds the incast.
const char* const HEADROOM_INCAST = R"({
  "name": "pfc-headroom",
  "stopTime": "10ms",
  "fabric": {"kind": "fat-tree", "k": 4},
  "switch": {"bufferSize": "2MB"},
  "nic": {"cc": "none"},
  "workloads": [{"kind": "incast", "fanIn": 15, "size": "256KB", "destination": 0}],
  "output": {"queues": "none", "plots": false}
})";

} // namespace

TEST(PfcMetrics, TheHeadroomPeakLiesBetweenACableRoundTripAndTheReserve)
{
    // Once a pause leaves, what the upstream still delivers is at least the cable's round trip
    // at line rate (the bytes on the wire, and those sent while the pause travels: 2 x 12.5 KB
    // at 100 Gb/s over 1 us), and the reserve (that plus two frames in progress and the
    // response time, 802.1Qbb) bounds it.
    const ScenarioRunRecords r = RunScenario(HEADROOM_INCAST, {}, "pfc-headroom");
    const nlohmann::json s = ReadSummary(r);
    ASSERT_GT(s["pfc"]["framesSent"].get<uint64_t>(), 0u);
    EXPECT_EQ(s["headroomOverflows"].get<uint64_t>(), 0u);
    const uint64_t peak = s["buffer"]["peakHeadroomBytes"].get<uint64_t>();
    const double percent = s["buffer"]["peakHeadroomPercent"].get<double>();
    EXPECT_GE(peak, 25000u);
    EXPECT_LE(percent, 100.0);
    EXPECT_GT(percent, 80.0);
    // The buffer's peak holds at least that headroom and at most the buffer.
    EXPECT_GE(s["buffer"]["peakBytes"].get<uint64_t>(), peak);
    EXPECT_LE(s["buffer"]["peakBytes"].get<uint64_t>(), 12000000u);
}
