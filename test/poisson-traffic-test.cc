/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The Poisson workload offers the load it was asked for, with flow sizes that follow the CDF.

#include "ns3/core-module.h"
#include "ns3/poisson-traffic.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>

using namespace ns3;

TEST(PoissonTraffic, OfferedLoadIsTheTargetWithinFivePercent)
{
    const FlowSizeDistribution sizes = FlowSizeDistribution::Read("cdf", "websearch");
    const uint32_t hosts = 32;
    const DataRate rate("100Gbps");
    const Time window = Seconds(1);
    for (double load : {0.3, 0.7})
    {
        PoissonTraffic traffic(sizes, load, rate);
        traffic.SetWindow(Time(0), window);
        const std::vector<FlowSpec> flows = traffic.Generate(hosts, 10);
        double bits = 0;
        for (const auto& f : flows)
        {
            bits += f.bytes * 8.0;
            ASSERT_NE(f.src, f.dst);
            ASSERT_LT(f.dst, hosts);
            ASSERT_LT(f.start, window);
        }
        const double offered = bits / (hosts * rate.GetBitRate() * window.GetSeconds());
        EXPECT_NEAR(offered, load, 0.05 * load) << flows.size() << " flows";
        EXPECT_TRUE(std::is_sorted(flows.begin(), flows.end(), [](auto& a, auto& b) {
            return a.start < b.start;
        }));
    }
}

TEST(PoissonTraffic, SizesPassAKolmogorovSmirnovTest)
{
    const FlowSizeDistribution sizes = FlowSizeDistribution::Read("cdf", "fb_hadoop");
    PoissonTraffic traffic(sizes, 0.5, DataRate("25Gbps"));
    traffic.SetWindow(Time(0), MilliSeconds(200));
    std::vector<FlowSpec> flows = traffic.Generate(16, 20);
    std::vector<double> x;
    for (const auto& f : flows)
    {
        x.push_back(static_cast<double>(f.bytes));
    }
    std::sort(x.begin(), x.end());
    const double n = x.size();
    ASSERT_GT(n, 1000);
    double d = 0;
    for (std::size_t i = 0; i < x.size(); ++i)
    {
        // Sizes are rounded to whole bytes: compare against the CDF at the half-byte bounds.
        const double hi = sizes.Cdf(x[i] + 0.5);
        const double lo = sizes.Cdf(x[i] - 0.5);
        d = std::max({d, (i + 1) / n - hi, lo - i / n});
    }
    EXPECT_LT(d, 1.36 / std::sqrt(n)) << "KS statistic over " << n << " sizes"; // 95% level
}

TEST(PoissonTraffic, SameStreamSameFlows)
{
    const FlowSizeDistribution sizes = FlowSizeDistribution::Read("cdf", "websearch");
    PoissonTraffic traffic(sizes, 0.3, DataRate("100Gbps"));
    traffic.SetWindow(Time(0), MilliSeconds(20));
    const auto a = traffic.Generate(8, 5);
    const auto b = traffic.Generate(8, 5);
    const auto c = traffic.Generate(8, 50);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i)
    {
        EXPECT_EQ(a[i].bytes, b[i].bytes);
        EXPECT_EQ(a[i].start, b[i].start);
        EXPECT_EQ(a[i].dst, b[i].dst);
    }
    EXPECT_FALSE(a.size() == c.size() && a[0].bytes == c[0].bytes && a[0].start == c[0].start);
}

TEST(PoissonTraffic, EveryHostOffersTheLoadAsAPoissonProcess)
{
    // The hosts' processes are drawn as one superposed process whose arrivals pick a source
    // uniformly: each host must still see its own Poisson process at the target load.
    const FlowSizeDistribution sizes = FlowSizeDistribution::Read("cdf", "websearch");
    const uint32_t hosts = 8;
    const DataRate rate("100Gbps");
    const double load = 0.5;
    PoissonTraffic traffic(sizes, load, rate);
    traffic.SetWindow(Time(0), Seconds(2));
    const std::vector<FlowSpec> flows = traffic.Generate(hosts, 30);
    std::vector<double> bits(hosts, 0);
    std::vector<std::vector<double>> starts(hosts);
    for (const auto& f : flows)
    {
        bits[f.src] += f.bytes * 8.0;
        starts[f.src].push_back(f.start.GetSeconds());
    }
    const double lambda = traffic.GetArrivalRate();
    for (uint32_t h = 0; h < hosts; ++h)
    {
        // Count: Poisson with mean 2 lambda (about 7,600), so 5 standard deviations is 6%.
        EXPECT_NEAR(starts[h].size(), 2 * lambda, 5 * std::sqrt(2 * lambda)) << "host " << h;
        // Load: WebSearch's sizes spread it more (CV of a size about 2): within 15%.
        EXPECT_NEAR(bits[h] / (2 * rate.GetBitRate()), load, 0.15 * load) << "host " << h;
        // Inter-arrival times of one host: exponential, so their CV is 1.
        double sum = 0;
        double sq = 0;
        for (std::size_t i = 1; i < starts[h].size(); ++i)
        {
            const double gap = starts[h][i] - starts[h][i - 1];
            sum += gap;
            sq += gap * gap;
        }
        const double n = starts[h].size() - 1;
        const double mean = sum / n;
        const double cv = std::sqrt(sq / n - mean * mean) / mean;
        EXPECT_NEAR(mean, 1 / lambda, 0.05 / lambda) << "host " << h;
        EXPECT_NEAR(cv, 1.0, 0.05) << "host " << h;
    }
}

TEST(PoissonTraffic, ScheduledFlowsArePostedAtTheirTimeOneAtATime)
{
    // Schedule posts the flows Generate draws, in the same order, each at its start time, and
    // draws nothing the simulation has not reached: a run stopped early drew only its flows.
    const FlowSizeDistribution sizes = FlowSizeDistribution::Read("cdf", "websearch");
    PoissonTraffic traffic(sizes, 0.3, DataRate("100Gbps"));
    traffic.SetWindow(MicroSeconds(10), MilliSeconds(20));
    const std::vector<FlowSpec> all = traffic.Generate(8, 7);
    ASSERT_GT(all.size(), 100u);
    std::vector<FlowSpec> posted;
    traffic.Schedule(8, 7, [&posted](const FlowSpec& f) {
        EXPECT_EQ(f.start, Simulator::Now());
        posted.push_back(f);
    });
    EXPECT_TRUE(posted.empty()) << "nothing is posted before the simulation runs";
    const Time half = all[all.size() / 2].start;
    Simulator::Stop(half);
    Simulator::Run();
    EXPECT_GE(posted.size(), all.size() / 2);
    EXPECT_LE(posted.size(), all.size() / 2 + 1);
    Simulator::Stop(MilliSeconds(30));
    Simulator::Run();
    ASSERT_EQ(posted.size(), all.size());
    for (std::size_t i = 0; i < all.size(); ++i)
    {
        EXPECT_EQ(posted[i].src, all[i].src);
        EXPECT_EQ(posted[i].dst, all[i].dst);
        EXPECT_EQ(posted[i].bytes, all[i].bytes);
        EXPECT_EQ(posted[i].start, all[i].start);
    }
    EXPECT_EQ(Simulator::GetEventCount(), all.size() + 2) << "one event per flow (and two stops)";
    Simulator::Destroy();
}
