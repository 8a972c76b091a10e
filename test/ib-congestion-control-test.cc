/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Every RDMA congestion control on InfiniBand: the channel adapter gives IB queue pairs the
// same algorithms as RoCEv2 ones, driven by what an IB fabric carries: FECN marks (answered by
// native CNPs, opcode 0x80, and BECN in ACKs) for DCQCN, DCTCP and IB congestion control; INT
// from the IB switches for HPCC; RTTs for TIMELY. An incast on a k=4 fat-tree of EDR links:
// without congestion control credits hold the excess in the switches' buffers along the incast
// tree; each algorithm drains most of that while keeping the hot spot's link busy, and HPCC
// keeps the queues near empty.

#include "ns3/core-module.h"
#include "ns3/interconnect-module.h"

#include <gtest/gtest.h>
#include <map>

using namespace ns3;

namespace
{

struct Outcome
{
    double meanQueue;   //!< bytes queued towards the hot spot in all switches, mean, second half
    double utilization; //!< the hot spot's payload rate / its line rate, second half
    uint64_t cnps;      //!< CNPs the senders received
};

/// Hosts 8..15 (the other two pods) write to host 0 for `duration` with congestion control `cc`.
Outcome
RunIncast(const std::string& cc, Time duration)
{
    IbSubnetHelper helper;
    // FECN from 32 KB queued (as incast-infiniband.json); HPCC and TIMELY ignore the marks.
    helper.SetSwitchAttribute("FecnThreshold", UintegerValue(32768));
    const IbSubnet s = helper.Build(FatTreeHelper(4));
    for (const auto& adapter : s.adapters)
    {
        adapter->SetAttribute("CongestionControl", StringValue(cc));
        if (cc == "dcqcn")
        {
            // DCQCN's notification point sends at most one CNP per 50 us per queue pair (the
            // RoCEv2 NIC's default); IB's answers every FECN.
            adapter->SetAttribute("CnpInterval", TimeValue(MicroSeconds(50)));
        }
    }
    const uint16_t hot = s.GetLid(0);
    std::vector<Ptr<RdmaQueuePair>> receivers;
    for (uint32_t a = 8; a < 16; ++a)
    {
        const auto pair = IbHostAdapter::ConnectPair(s.adapters[a], s.adapters[0], 0);
        Ptr<RdmaCongestionControl> algorithm = pair.first->GetCongestionControl();
        if (cc == "timely")
        {
            // The TIMELY paper's thresholds and step (50 and 500 us, 10 Mb/s at 10 Gb/s) scaled
            // to 100 Gb/s, and a floor of 1% of the line rate: at the paper's 10 Mb/s a 4 KB
            // packet takes 3.3 ms, so a sender whose rate collapses at start-up sends nothing
            // more during the test.
            algorithm->SetAttribute("TLow", TimeValue(MicroSeconds(5)));
            algorithm->SetAttribute("THigh", TimeValue(MicroSeconds(50)));
            algorithm->SetAttribute("Delta", DataRateValue(DataRate("100Mbps")));
            algorithm->SetAttribute("MinRate", DataRateValue(DataRate("1Gbps")));
        }
        else if (cc == "ib-cc")
        {
            // A CCT index that outlives the marks of a few packets: each sender's index climbs
            // with one CNP per marked packet (one per 2.6 us at an eighth of 100 Gb/s).
            algorithm->SetAttribute("CctiTimer", TimeValue(MicroSeconds(10)));
        }
        pair.first->Post(RdmaVerb::WRITE, 1000000000, RdmaQueuePair::CompletionCallback());
        receivers.push_back(pair.second);
    }
    auto delivered = [&receivers]() {
        uint64_t sum = 0;
        for (const auto& qp : receivers)
        {
            sum += qp->GetBytesDelivered();
        }
        return sum;
    };
    const Time half = duration / 2;
    double queueSum = 0;
    uint32_t samples = 0;
    for (Time t = half; t < duration; t += MicroSeconds(1))
    {
        Simulator::Schedule(t, [&]() {
            for (const auto& sw : s.switches)
            {
                const uint32_t port = sw->GetLft(hot);
                if (port != IbSwitch::NO_PORT)
                {
                    queueSum += sw->GetPort(port)->GetQueueBytes(0);
                }
            }
            ++samples;
        });
    }
    uint64_t atHalf = 0;
    Simulator::Schedule(half, [&]() { atHalf = delivered(); });
    Simulator::Stop(duration);
    Simulator::Run();
    const double line = s.adapters[0]->GetDevice()->GetDataRate().GetBitRate();
    Outcome o{queueSum / samples,
              (delivered() - atHalf) * 8.0 / (line * (duration - half).GetSeconds()),
              0};
    for (uint32_t a = 8; a < 16; ++a)
    {
        o.cnps += s.adapters[a]->GetCnpsReceived();
    }
    Simulator::Destroy();
    return o;
}

class OnInfiniBand : public ::testing::TestWithParam<std::string>
{
};

} // namespace

TEST(IbCongestionControl, WithoutItTheIncastFillsTheSwitchBuffers)
{
    const Outcome none = RunIncast("none", MilliSeconds(2));
    EXPECT_GT(none.meanQueue, 200000); // the incast tree's buffers hold the excess
    EXPECT_GT(none.utilization, 0.95);
}

TEST_P(OnInfiniBand, DrainsTheIncastQueueAndKeepsTheLinkBusy)
{
    const std::string cc = GetParam();
    const Outcome none = RunIncast("none", MilliSeconds(2));
    // DCQCN's paper parameters recover slowly at 100 Gb/s (40 Mb/s per 55 us after its fast
    // recovery): 20 ms, the second half at its steady state.
    const Outcome o = RunIncast(cc, MilliSeconds(cc == "dcqcn" ? 20 : 2));
    EXPECT_LT(o.meanQueue, none.meanQueue / 4) << cc;
    EXPECT_GT(o.utilization, 0.85) << cc;
    if (cc == "dcqcn" || cc == "dctcp" || cc == "ib-cc")
    {
        EXPECT_GT(o.cnps, 0u) << cc; // FECN was answered with CNPs
    }
}

INSTANTIATE_TEST_SUITE_P(RdmaCongestionControl,
                         OnInfiniBand,
                         ::testing::Values("dcqcn", "hpcc", "timely", "dctcp", "ib-cc"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                             std::string name = info.param;
                             std::replace(name.begin(), name.end(), '-', '_');
                             return name;
                         });

TEST(IbCongestionControl, HpccKeepsTheIncastQueueNearEmpty)
{
    // HPCC (SIGCOMM 2019) on the IB switches' INT: the queues stay at a few packets while the
    // hot spot's link runs near its target utilization (95%).
    const Outcome hpcc = RunIncast("hpcc", MilliSeconds(2));
    EXPECT_LT(hpcc.meanQueue, 3 * 4122); // a few 4 KB packets in all the incast tree's queues
    EXPECT_GT(hpcc.utilization, 0.9);
}
