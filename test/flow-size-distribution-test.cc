/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "config-error-test.h"

#include "ns3/flow-size-distribution.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

using namespace ns3;

namespace
{

std::string
WriteTemp(const std::string& name, const std::string& text)
{
    const auto path = std::filesystem::temp_directory_path() / ("interconnect-cdf-" + name);
    std::ofstream(path) << text;
    return path.string();
}

} // namespace

TEST(FlowSizeDistribution, InterpolatesLinearlyAndHasTheExactMean)
{
    FlowSizeDistribution d;
    std::string error;
    ASSERT_TRUE(d.Load(WriteTemp("a", "# two segments\n0 0\n1000 50\n3000 100\n"), &error))
        << error;
    EXPECT_EQ(d.Sample(0.25), 500u);
    EXPECT_EQ(d.Sample(0.75), 2000u);
    EXPECT_DOUBLE_EQ(d.Cdf(2000), 0.75);
    // Uniform on [0, 1000) with mass 1/2, uniform on [1000, 3000) with mass 1/2.
    EXPECT_DOUBLE_EQ(d.Mean(), 0.5 * 500 + 0.5 * 2000);
}

TEST(FlowSizeDistribution, ShippedWebSearchLoads)
{
    const FlowSizeDistribution d = FlowSizeDistribution::Read("cdf", "websearch");
    EXPECT_EQ(d.GetPoints().back().first, 30000000);
    EXPECT_GT(d.Mean(), 1e6); // WebSearch is heavy-tailed: mean of about 1.6 MB
    EXPECT_LT(d.Mean(), 2e6);
    for (const auto& name : FlowSizeDistribution::ShippedNames())
    {
        EXPECT_GT(FlowSizeDistribution::Read("cdf", name).Mean(), 0) << name;
    }
}

TEST(FlowSizeDistribution, BadFilesAreRejectedWithTheLine)
{
    FlowSizeDistribution d;
    std::string error;
    EXPECT_FALSE(d.Load(WriteTemp("b", "0 0\n100 60\n50 80\n200 100\n"), &error));
    EXPECT_NE(error.find(":3: sizes and percentages must not decrease"), std::string::npos)
        << error;
    EXPECT_FALSE(d.Load(WriteTemp("c", "0 0\n100 90\n"), &error));
    EXPECT_NE(error.find("100 percent"), std::string::npos) << error;
    EXPECT_FALSE(d.Load(WriteTemp("d", "0 0\n100 abc\n"), &error));
    EXPECT_NE(error.find(":2: expected"), std::string::npos) << error;
    EXPECT_CONFIG_ERROR(
        FlowSizeDistribution::Read("workload.cdf", "/no/such/file"),
        "workload.cdf = /no/such/file: accepted: a CDF file .* websearch, fb_hadoop");
}
