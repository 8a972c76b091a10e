/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Every congestion-control algorithm, N long flows through one bottleneck: fair shares and a
// busy link over the second half of the run; and what sets them apart: DCQCN's queue between
// Kmin and Kmax, growing with N (its fluid model); HPCC's near-empty queue.

#include "ns3/core-module.h"
#include "ns3/interconnect-module.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

struct Outcome
{
    double jain;        //!< Jain's index of the flows' mean rates, second half
    double utilization; //!< bottleneck wire bytes / capacity, second half
    double meanQueue;   //!< mean bottleneck queue, bytes, second half
};

/// N senders -- left == right -- N receivers, all links at `rate`; flow i: sender i to receiver i.
Outcome
RunDumbbell(const std::string& cc, uint32_t flows, DataRate rate, Time duration)
{
    RoceHelper roce;
    roce.SetDeviceAttribute("DataRate", DataRateValue(rate));
    roce.SetNicAttribute("CongestionControl", StringValue(cc));
    if (cc == "dctcp")
    {
        const uint32_t k = static_cast<uint32_t>(30000 * rate.GetBitRate() / 10e9);
        roce.SetMmuAttribute("EcnKmin", UintegerValue(k));
        roce.SetMmuAttribute("EcnKmax", UintegerValue(k + 1));
        roce.SetMmuAttribute("EcnPmax", DoubleValue(1.0));
    }
    else if (cc != "dcqcn")
    {
        roce.SetMmuAttribute("EcnEnabled", BooleanValue(false));
    }
    for (uint32_t i = 0; i < 2 * flows; ++i)
    {
        roce.AddHost();
    }
    NodeContainer hosts = roce.GetHosts();
    Ptr<Node> left = roce.AddSwitch();
    Ptr<Node> right = roce.AddSwitch();
    for (uint32_t i = 0; i < flows; ++i)
    {
        roce.Link(hosts.Get(i), left);
        roce.Link(hosts.Get(flows + i), right);
    }
    roce.Link(left, right);
    roce.Finalize();
    roce.AssignStreams(1);
    RoceTimeSeries series(MicroSeconds(100));
    const uint64_t bytes = static_cast<uint64_t>(rate.GetBitRate() / 8 * duration.GetSeconds());
    for (uint32_t i = 0; i < flows; ++i)
    {
        const uint64_t id = roce.Post(i, flows + i, RdmaVerb::WRITE, bytes, Time(0), 3);
        series.AddFlow("f" + std::to_string(i), roce.GetFlowQueuePair(id, true));
    }
    series.AddQueue("bottleneck", roce.GetSwitch(0), flows, 3);
    series.Start(Time(0), duration);
    Ptr<PfcNetDevice> bottleneck = roce.GetSwitch(0)->GetPort(flows);
    const Time half = duration / 2;
    uint64_t txAtHalf = 0;
    Simulator::Schedule(half, [&]() { txAtHalf = bottleneck->GetTxBytes(); });
    Simulator::Stop(duration);
    Simulator::Run();
    std::vector<double> rates;
    for (uint32_t i = 0; i < flows; ++i)
    {
        rates.push_back(series.MeanRate(i, half, duration));
    }
    const double wire = (bottleneck->GetTxBytes() - txAtHalf) * 8.0;
    Outcome o{RoceTimeSeries::JainIndex(rates),
              wire / (rate.GetBitRate() * (duration - half).GetSeconds()),
              series.MeanQueue(0, half, duration)};
    Simulator::Destroy();
    return o;
}

struct Case
{
    const char* cc;
    uint32_t flows;
    const char* rate;
    uint32_t ms;
};

class FairShare : public ::testing::TestWithParam<Case>
{
};

std::string
CaseName(const ::testing::TestParamInfo<Case>& info)
{
    return std::string(info.param.cc) + "_" + std::to_string(info.param.flows) + "flows";
}

} // namespace

TEST_P(FairShare, ConvergesWithABusyLink)
{
    const Case c = GetParam();
    const Outcome o = RunDumbbell(c.cc, c.flows, DataRate(c.rate), MilliSeconds(c.ms));
    EXPECT_GE(o.jain, 0.95) << c.cc << " with " << c.flows << " flows";
    EXPECT_GE(o.utilization, 0.90) << c.cc << " with " << c.flows << " flows";
    EXPECT_LE(o.utilization, 1.0001);
}

// DCQCN at its paper's 40 Gb/s (its defaults are the paper's); the others at 25 Gb/s.
INSTANTIATE_TEST_SUITE_P(CongestionControl,
                         FairShare,
                         ::testing::Values(Case{"dcqcn", 2, "40Gbps", 20},
                                           Case{"dcqcn", 8, "40Gbps", 20},
                                           Case{"hpcc", 2, "25Gbps", 20},
                                           Case{"hpcc", 8, "25Gbps", 20},
                                           Case{"timely", 2, "25Gbps", 20},
                                           Case{"timely", 8, "25Gbps", 20},
                                           Case{"dctcp", 2, "25Gbps", 20},
                                           Case{"dctcp", 8, "25Gbps", 20}),
                         CaseName);

TEST(CongestionControlQueues, DcqcnQueueSitsBetweenKminAndKmaxAndGrowsWithFlows)
{
    const Outcome two = RunDumbbell("dcqcn", 2, DataRate("40Gbps"), MilliSeconds(20));
    const Outcome eight = RunDumbbell("dcqcn", 8, DataRate("40Gbps"), MilliSeconds(20));
    // Switch defaults: Kmin 5 KB, Kmax 200 KB (the DCQCN paper's).
    for (const Outcome& o : {two, eight})
    {
        EXPECT_GT(o.meanQueue, 5000);
        EXPECT_LT(o.meanQueue, 200000);
    }
    EXPECT_GT(eight.meanQueue, 2 * two.meanQueue);
}

TEST(CongestionControlQueues, HpccKeepsTheQueueNearEmptyFarBelowDcqcn)
{
    const Outcome hpcc = RunDumbbell("hpcc", 8, DataRate("40Gbps"), MilliSeconds(10));
    const Outcome dcqcn = RunDumbbell("dcqcn", 8, DataRate("40Gbps"), MilliSeconds(10));
    EXPECT_GE(hpcc.utilization, 0.90);
    EXPECT_LT(hpcc.meanQueue, 5000); // a few packets at most
    EXPECT_LT(hpcc.meanQueue * 10, dcqcn.meanQueue);
}
