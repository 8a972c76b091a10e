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
