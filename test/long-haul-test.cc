/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PFC over distance (issue 23, scale-across): a lossless long-haul link needs headroom for a
// cable round trip at line rate, so a switch's reserve for that port grows with the distance;
// what it measures at a paused long-haul ingress is that round trip's bytes, a headroom sized
// for a data-centre cable loses losslessness there, and at 100 km and 400 Gb/s the headroom
// alone is more than a switch buffer. Two data centres joined by long hauls (fabric kind
// two-dc): what crosses spreads over every long haul, and a write across pays their delay.

#include "config-error-test.h"
#include "run-scenario-test.h"

#include "ns3/core-module.h"
#include "ns3/ib-rc-transport.h"
#include "ns3/ib-subnet-helper.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-transport.h"
#include "ns3/two-dc-helper.h"

#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>

using namespace ns3;

namespace
{

/// Light travels about 5 us per km of fibre (refractive index near 1.47).
Time
FibreDelay(double km)
{
    return NanoSeconds(static_cast<int64_t>(km * 5000));
}

/// What a long-haul incast did at the far switch.
struct LongHaul
{
    uint32_t reserve{0};      //!< the far switch's headroom for its long-haul port
    uint64_t peakHeadroom{0}; //!< the most headroom one of its ingresses took
    uint64_t overflows{0};    //!< lossless frames beyond the headroom
    uint64_t drops{0};        //!< frames dropped by both switches
    uint64_t completed{0};    //!< writes completed
};

/**
 * Host 0 -- near switch == long haul (km, rate) == far switch -- host 1, and host 2 on the far
 * switch: hosts 0 and 2 each write 8 MB into host 1, no congestion control, PFC on, so the far
 * switch pauses the long haul.
 * @param km the long haul's length
 * @param rate every link's rate
 * @param headroom the MMU's Headroom attribute (0: computed per port)
 * @param buffer each switch's buffer, bytes
 * @return what happened
 */
LongHaul
RunLongHaul(double km, const std::string& rate, uint32_t headroom = 0, uint64_t buffer = 16000000)
{
    RoceHelper h;
    h.SetDeviceAttribute("DataRate", StringValue(rate));
    h.SetNicAttribute("CongestionControl", StringValue("none"));
    h.SetMmuAttribute("BufferSize", UintegerValue(buffer));
    h.SetMmuAttribute("Headroom", UintegerValue(headroom));
    Ptr<Node> a = h.AddHost();
    Ptr<Node> b = h.AddHost();
    Ptr<Node> c = h.AddHost();
    Ptr<Node> near = h.AddSwitch();
    Ptr<Node> far = h.AddSwitch();
    h.Link(a, near);
    auto haul = h.Link(near, far, DataRate(rate), FibreDelay(km));
    h.Link(far, b);
    h.Link(far, c);
    h.Finalize();
    RoceTransport rdma(h);
    rdma.Post(0, 1, RdmaVerb::WRITE, 8000000, Time(0), 3);
    rdma.Post(2, 1, RdmaVerb::WRITE, 8000000, Time(0), 3);
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    LongHaul out;
    Ptr<RoceSwitch> sw = h.GetSwitch(1);
    const uint32_t haulPort = haul.second->GetIfIndex();
    out.reserve = sw->GetMmu()->GetHeadroom(haulPort);
    out.peakHeadroom = sw->GetMmu()->GetPeakHeadroom();
    out.overflows = sw->GetMmu()->GetHeadroomOverflows();
    for (uint32_t s = 0; s < 2; ++s)
    {
        out.drops += h.GetSwitch(s)->GetDrops(RoceSwitch::DROP_BUFFER);
    }
    for (const FlowRecord& f : rdma.GetFlows())
    {
        out.completed += f.end.IsZero() ? 0 : 1;
    }
    Simulator::Destroy();
    return out;
}

} // namespace

TEST(LongHaul, TheReserveAndThePeakGrowWithTheCableRoundTrip)
{
    // 10 km at 100 Gb/s: 50 us one way, 625 000 bytes on the fibre each way, so 1.25 MB arrive
    // after the far switch decides to pause (the pause's flight and what is already on the
    // fibre), plus two frames in progress, the pause frame and 802.1Qbb's 3840 bit times.
    const LongHaul tenKm = RunLongHaul(10, "100Gbps");
    const LongHaul metro = RunLongHaul(0.1, "100Gbps"); // 100 m, inside a building
    const double roundTrip = 2 * 100e9 * 50e-6 / 8;
    EXPECT_GE(tenKm.reserve, roundTrip);
    EXPECT_LT(tenKm.reserve, roundTrip + 2 * 9216 + 64 + 480 + 1);
    EXPECT_EQ(tenKm.completed, 2u);
    EXPECT_EQ(tenKm.drops, 0u);
    EXPECT_EQ(tenKm.overflows, 0u);
    // The paused long haul does deliver about a round trip's bytes into the headroom: it runs
    // at line rate into the pause.
    EXPECT_GT(tenKm.peakHeadroom, 0.9 * roundTrip);
    EXPECT_LE(tenKm.peakHeadroom, tenKm.reserve);
    // Over 100 m the long haul's reserve is a hundredth of that; the switch's peak then comes
    // from its host cables (1 us, about 200 m of fibre), a fiftieth of the 10 km one.
    EXPECT_LT(metro.reserve * 50, tenKm.reserve);
    EXPECT_LT(metro.peakHeadroom * 20, tenKm.peakHeadroom);
}

TEST(LongHaul, ADataCentreHeadroomOverDistanceIsNoLongerLossless)
{
    // The headroom a 100 m cable needs (about 30 KB with jumbo frames), reserved on every port
    // as if the long haul were one: past it, frames are admitted beyond the headroom, counted as
    // the configuration error they are.
    const LongHaul tight = RunLongHaul(10, "100Gbps", 32000);
    EXPECT_GT(tight.overflows, 0u);
}

TEST(LongHaul, At100KmAnd400GbpsTheHeadroomIsMoreThanASwitchBuffer)
{
    // 100 km at 400 Gb/s: 500 us one way, 2 x 25 MB for the long haul's lossless priority alone,
    // more than a 32 MB switch buffer holds; the MMU says so. (1 km needs a hundredth.)
    EXPECT_CONFIG_ERROR(RunLongHaul(100, "400Gbps", 0, 32000000), "ns3::RoceSwitchMmu::BufferSize");
    const LongHaul oneKm = RunLongHaul(1, "400Gbps", 0, 32000000);
    EXPECT_EQ(oneKm.completed, 2u);
}

namespace
{

/// Two k=4 fat-trees joined by two 400 Gb/s long hauls of 10 km; every host writes 1 MB to
/// another, a random permutation (most writes cross).
const char* const TWO_DC = R"({
  "name": "two-dc",
  "stopTime": "5ms",
  "fabric": {"kind": "two-dc", "k": 4, "dciLinks": 2, "longHaulRate": "400Gbps",
             "longHaulDelay": "50us"},
  "link": {"mtu": 4096},
  "workloads": [{"kind": "permutation", "size": "1MB"}],
  "output": {"queues": "none", "plots": false}
})";

} // namespace

TEST(TwoDc, TwoFatTreesJoinedByLongHaulsThatCarryWhatCrosses)
{
    const ScenarioRunRecords r = RunScenario(TWO_DC, {}, "two-dc");
    ASSERT_EQ(r.flows.size(), 32u); // 2 x 4^3 / 4 hosts
    LastFct(r);                     // every write finished
    // The long hauls are the 400 Gb/s cables; both, in both directions, carry a share.
    uint32_t longHauls = 0;
    uint64_t least = UINT64_MAX;
    for (const LinkRow& l : ReadLinksCsv(r))
    {
        if (l.rate == 400000000000ULL)
        {
            ++longHauls;
            least = std::min(least, l.tx);
        }
    }
    EXPECT_EQ(longHauls, 4u); // 2 links x 2 directions
    EXPECT_GT(least, 1000000u);
    // A write across pays the long haul both ways: its data's one-way trip and the last
    // ACK's, 2 x (50 us + 8 x 1 us of data-centre cables), beyond the 84 us that 1 MB takes at
    // 100 Gb/s.
    for (const FlowRecord& f : r.flows)
    {
        const bool crosses = (f.src < 16) != (f.dst < 16);
        if (crosses)
        {
            EXPECT_GE((f.end - f.start).GetSeconds(), 2 * (50e-6 + 8e-6) + 1e6 * 8 / 100e9);
            EXPECT_GE(f.idealFct.GetSeconds(), 2 * (50e-6 + 8e-6) + 1e6 * 8 / 100e9);
        }
        else
        {
            EXPECT_LT(f.idealFct.GetSeconds(), 2 * 50e-6);
        }
    }
}

TEST(TwoDc, A100KmLongHaulAt400GbpsDoesNotFitTheSwitchesHeadroom)
{
    // 500 us one way (100 km): 50 MB of headroom for the long haul's lossless priority, more
    // than the switches' 12 MB buffer; the runner stops with the error that names it.
    const std::string dir = std::string(::testing::TempDir()) + "/two-dc-100km";
    auto run = [&dir]() {
        ScenarioRunner runner(
            Scenario::Parse(TWO_DC, "two-dc.json", {"fabric.longHaulDelay=500us"}),
            dir);
        runner.Execute(nullptr, nullptr);
    };
    EXPECT_CONFIG_ERROR(run(), "ns3::RoceSwitchMmu::BufferSize");
    Simulator::Destroy();
}

namespace
{

/// @return the bytes each direction of the two-dc fabric's long hauls (the 400 Gb/s links) sent
std::vector<uint64_t>
LongHaulBytes(const ScenarioRunRecords& r)
{
    std::vector<uint64_t> tx;
    for (const LinkRow& l : ReadLinksCsv(r))
    {
        if (l.rate == 400000000000ULL)
        {
            tx.push_back(l.tx);
        }
    }
    return tx;
}

/// Read collectives.csv: kind -> (records, summed time in ns).
std::map<std::string, std::pair<uint32_t, uint64_t>>
CollectivePhases(const ScenarioRunRecords& r)
{
    std::map<std::string, std::pair<uint32_t, uint64_t>> phases;
    std::ifstream in(r.dir + "/collectives.csv");
    std::string line;
    std::getline(in, line); // header
    while (std::getline(in, line))
    {
        std::vector<std::string> cells;
        std::stringstream row(line);
        for (std::string cell; std::getline(row, cell, ',');)
        {
            cells.push_back(cell);
        }
        auto& p = phases[cells.at(0)];
        ++p.first;
        p.second += cells.at(5).empty() ? 0 : std::stoull(cells.at(5));
    }
    return phases;
}

} // namespace

TEST(TwoDc, AHierarchicalAllReduceCrossesTheLongHaulsOnceTheRingTwice)
{
    // 2 MB among the 32 hosts. Hierarchical (2 domains: the data centres): every host sends its
    // 125 KB shard across once, 16 x 125 KB = 2 MB each way. The flat ring crosses at hosts
    // 15 -> 16 and 31 -> 0, one in each direction, in each of its 62 steps of 62.5 KB: 3.9 MB.
    const uint64_t s = 2000000;
    const std::string allReduce =
        R"("workloads": [{"kind": "allreduce", "bytes": "2MB", "start": "10us", "algorithm": )";
    std::string json = TWO_DC;
    const std::string permutation = R"("workloads": [{"kind": "permutation", "size": "1MB"}])";
    json.replace(json.find(permutation), permutation.size(), allReduce + R"("hierarchical"}])");
    const ScenarioRunRecords h = RunScenario(json, {}, "two-dc-hierarchical");
    auto phases = CollectivePhases(h);
    EXPECT_EQ(phases["allreduce:hierarchical"].first, 1u);
    EXPECT_EQ(phases["hierarchical:reduce-scatter"].first, 15u); // 16 hosts a data centre
    EXPECT_EQ(phases["hierarchical:cross"].first, 1u);
    EXPECT_EQ(phases["hierarchical:all-gather"].first, 15u);
    // Every phase finished, one after another: the whole is the sum of its phases.
    EXPECT_EQ(phases["allreduce:hierarchical"].second,
              phases["hierarchical:reduce-scatter"].second + phases["hierarchical:cross"].second +
                  phases["hierarchical:all-gather"].second);
    std::vector<uint64_t> tx = LongHaulBytes(h);
    ASSERT_EQ(tx.size(), 4u);
    const uint64_t hierarchical = tx[0] + tx[1] + tx[2] + tx[3];
    // Data (with its headers: 62 bytes a 4 KB packet) and the other way's ACKs, both ways.
    EXPECT_GT(hierarchical, 2 * s);
    EXPECT_LT(hierarchical, 2 * s * 1.05);
    json.replace(json.find("\"hierarchical\"}]"), 16, "\"ring\"}]");
    const ScenarioRunRecords ring = RunScenario(json, {"stopTime=20ms"}, "two-dc-ring");
    EXPECT_EQ(CollectivePhases(ring)["ring-allreduce-step"].first, 62u);
    EXPECT_GT(CollectivePhases(ring)["allreduce:ring"].second, 0u); // finished
    tx = LongHaulBytes(ring);
    ASSERT_EQ(tx.size(), 4u);
    const uint64_t flat = tx[0] + tx[1] + tx[2] + tx[3];
    EXPECT_GT(flat, 2 * 62 * (s / 32));
    EXPECT_LT(flat, 2 * 62 * (s / 32) * 1.05);
}

TEST(TwoDc, HierarchicalDomainsMustDivideTheGroup)
{
    std::string json = TWO_DC;
    const std::string permutation = R"("workloads": [{"kind": "permutation", "size": "1MB"}])";
    json.replace(
        json.find(permutation),
        permutation.size(),
        R"("workloads": [{"kind": "allreduce", "algorithm": "hierarchical", "domains": 3}])");
    const std::string dir = std::string(::testing::TempDir()) + "/two-dc-3-domains";
    auto run = [&]() {
        ScenarioRunner runner(Scenario::Parse(json, "two-dc.json", {}), dir);
        runner.Execute(nullptr, nullptr);
    };
    EXPECT_CONFIG_ERROR(run(),
                        "workloads.0.domains = 3: accepted: a divisor of the group's 32 members");
    Simulator::Destroy();
}

TEST(TwoDc, DeepBufferBorderSwitchesTakeA100KmLongHaulsHeadroom)
{
    // The 100 km long haul that the 12 MB switches refuse (above) fits border switches of
    // 128 MB (deep-buffer routers), the others keeping theirs; every write completes, losslessly.
    const ScenarioRunRecords r =
        RunScenario(TWO_DC,
                    {"fabric.longHaulDelay=500us", "fabric.dciBufferSize=128MB", "stopTime=20ms"},
                    "two-dc-100km-deep");
    ASSERT_EQ(r.flows.size(), 32u);
    LastFct(r);
    const nlohmann::json summary = ReadSummary(r);
    EXPECT_EQ(summary["drops"]["lossless"], 0);
    EXPECT_EQ(summary["headroomOverflows"], 0);
    // On InfiniBand a port's buffer is its credits: the key is refused by name.
    EXPECT_CONFIG_ERROR(
        Scenario::Parse(TWO_DC,
                        "two-dc.json",
                        {"link.technology=infiniband", "fabric.dciBufferSize=128MB"}),
        "fabric.dciBufferSize = \"128MB\": accepted: 0 with link.technology infiniband");
}

TEST(TwoDc, EachOfTheRingsStepsPaysTheLongHaulsRoundTrip)
{
    // The flat ring over both data centres: every one of its 62 steps waits for the writes that
    // cross (15 -> 16 and 31 -> 0), whose data goes over the long haul and whose ACK comes back
    // over it. 200 us more of fibre each way is 62 x 400 us more all-reduce, to the nanosecond.
    std::string json = TWO_DC;
    const std::string permutation = R"("workloads": [{"kind": "permutation", "size": "1MB"}])";
    json.replace(json.find(permutation),
                 permutation.size(),
                 R"("workloads": [{"kind": "allreduce", "algorithm": "ring", "bytes": "2MB",
                                   "start": "10us"}])");
    auto time = [&json](const std::string& delay) {
        const ScenarioRunRecords r = RunScenario(
            json,
            {"fabric.longHaulDelay=" + delay, "stopTime=60ms", "fabric.dciBufferSize=64MB"},
            "two-dc-ring-" + delay);
        return CollectivePhases(r)["allreduce:ring"].second;
    };
    const uint64_t near = time("50us");
    const uint64_t far = time("250us");
    ASSERT_GT(near, 0u);
    EXPECT_EQ(far - near, 62u * 2 * 200000);
}

TEST(TwoDc, InfiniBandAcrossALongHaulNeedsExtenders)
{
    // A 4 MB write from one data centre to the other, 10 km of 400 Gb/s between them, once the
    // links are up (the long haul's first credits take its 50 us). Credits are per hop: on the
    // long haul a window of the far port's receive buffer, 1024 blocks (64 KiB) by default and
    // never more than the 12-bit counters' 2048 blocks, per round trip of 100 us: 0.66 GB/s,
    // 61 round trips for 4 MB. Extenders (32-bit credits, a buffer of the round trip) make the
    // long haul carry it at line rate: the write takes its ideal FCT.
    auto fct = [](bool extenders, Time* ideal) {
        TwoDcHelper fabric(4, 2);
        fabric.SetLongHaulRate(DataRate("400Gbps"));
        fabric.SetLongHaulDelay(MicroSeconds(50));
        IbSubnetHelper subnet;
        subnet.SetLinkRatesFromFabric(true);
        if (extenders)
        {
            subnet.SetLayerLinkDeviceAttribute("dci", "Extender", BooleanValue(true));
            subnet.SetLayerLinkDeviceAttribute("dci",
                                               "ReceiveBufferBlocks",
                                               UintegerValue(2 * 50e-6 * 50e9 / 64 + 4096));
        }
        IbRcTransport ib(subnet.Build(fabric));
        ib.Post(0, 16, RdmaVerb::WRITE, 4000000, MicroSeconds(200), 0);
        Simulator::Stop(MilliSeconds(8));
        Simulator::Run();
        const FlowRecord f = ib.GetFlows().at(0);
        Simulator::Destroy();
        EXPECT_FALSE(f.end.IsZero());
        *ideal = f.idealFct;
        return (f.end - f.start).GetSeconds();
    };
    Time ideal;
    const double extended = fct(true, &ideal);
    EXPECT_LT(extended / ideal.GetSeconds(), 1.01) << extended;
    const double plain = fct(false, &ideal);
    const double windows = 4e6 / (1024 * 64);
    EXPECT_NEAR(plain / (windows * 100e-6), 1.0, 0.1) << plain;
}
