/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// FCT slowdown statistics: nearest-rank percentiles, unfinished flows at their lower bound,
// size buckets, and the CSV the figures read.

#include "ns3/flow-statistics.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <numeric>

using namespace ns3;

namespace
{

/// A flow of `bytes` posted at `startUs`, ideal FCT `idealUs`, completed after `fctUs` (0: not).
FlowRecord
Flow(uint64_t bytes, double startUs, double idealUs, double fctUs)
{
    static uint64_t id = 0;
    FlowRecord f{};
    f.id = id++;
    f.bytes = bytes;
    f.start = NanoSeconds(static_cast<int64_t>(startUs * 1000));
    f.idealFct = NanoSeconds(static_cast<int64_t>(idealUs * 1000));
    f.end = fctUs > 0 ? f.start + NanoSeconds(static_cast<int64_t>(fctUs * 1000)) : Time(0);
    return f;
}

std::vector<double>
OneTo(int n)
{
    std::vector<double> v(n);
    std::iota(v.begin(), v.end(), 1.0);
    return v;
}

} // namespace

TEST(FlowStatisticsTest, PercentilesAreNearestRank)
{
    // Rank ceil(p n / 100): a value that occurred.
    EXPECT_EQ(FlowStatistics::Percentile(OneTo(10), 50), 5);
    EXPECT_EQ(FlowStatistics::Percentile(OneTo(10), 95), 10);
    EXPECT_EQ(FlowStatistics::Percentile(OneTo(10), 99), 10);
    EXPECT_EQ(FlowStatistics::Percentile(OneTo(100), 99), 99);
    EXPECT_EQ(FlowStatistics::Percentile(OneTo(101), 99), 100);
    EXPECT_EQ(FlowStatistics::Percentile(OneTo(200), 99), 198);
    EXPECT_EQ(FlowStatistics::Percentile(OneTo(200), 50), 100);
    EXPECT_EQ(FlowStatistics::Percentile(OneTo(1), 99), 1);
    // With fewer than 100 values the p99 is the largest, not the second largest.
    std::vector<double> v(50, 1.0);
    v.back() = 41.9;
    EXPECT_EQ(FlowStatistics::Percentile(v, 99), 41.9);
}

TEST(FlowStatisticsTest, AnUnfinishedFlowCountsAtItsLowerBound)
{
    // Nine flows done at slowdown 1; one started at 0 and still running at 1 ms, ideal 10 us:
    // its slowdown is at least 100, and that is the p99 of ten flows.
    std::vector<FlowRecord> flows;
    for (int i = 0; i < 9; ++i)
    {
        flows.push_back(Flow(5000, 0, 10, 10));
    }
    flows.push_back(Flow(5000, 0, 10, 0));
    const FlowStatistics stats(flows, MilliSeconds(1));
    const SlowdownFigures& all = stats.GetOverall();
    EXPECT_EQ(all.posted, 10u);
    EXPECT_EQ(all.completed, 9u);
    EXPECT_EQ(all.unfinished, 1u);
    EXPECT_DOUBLE_EQ(all.p99, 100);
    EXPECT_DOUBLE_EQ(all.p50, 1);
    // A flow that started so recently that its time so far is below its ideal FCT counts at 1.
    flows.back() = Flow(5000, 995, 10, 0);
    EXPECT_DOUBLE_EQ(FlowStatistics(flows, MilliSeconds(1)).GetOverall().p99, 1);
}

TEST(FlowStatisticsTest, AFlowPostedAfterTheEndIsCountedButHasNoSlowdown)
{
    std::vector<FlowRecord> flows = {Flow(500, 0, 2, 3), Flow(500, 2000, 2, 0)};
    const FlowStatistics stats(flows, MilliSeconds(1));
    EXPECT_EQ(stats.GetOverall().posted, 2u);
    EXPECT_EQ(stats.GetOverall().notStarted, 1u);
    EXPECT_EQ(stats.GetOverall().unfinished, 0u);
    EXPECT_DOUBLE_EQ(stats.GetOverall().p99, 1.5);
    EXPECT_LT(FlowStatistics::Slowdown(flows[1], MilliSeconds(1)), 0);
}

TEST(FlowStatisticsTest, BucketsSplitBySizeAndEmptyOnesHaveNoFigures)
{
    // Edges 1000 and 10000: [0, 1000), [1000, 10000), [10000, inf). A flow of exactly 1000
    // bytes is in the second; nothing is in the third.
    std::vector<FlowRecord> flows = {Flow(999, 0, 1, 2), Flow(1000, 0, 1, 3), Flow(9999, 0, 1, 5)};
    const FlowStatistics stats(flows, MilliSeconds(1), {1000, 10000});
    const auto& b = stats.GetBuckets();
    ASSERT_EQ(b.size(), 3u);
    EXPECT_EQ(b[0].name, "<1KB");
    EXPECT_EQ(b[1].name, "1KB-10KB");
    EXPECT_EQ(b[2].name, ">=10KB");
    EXPECT_EQ(b[0].posted, 1u);
    EXPECT_EQ(b[1].posted, 2u);
    EXPECT_DOUBLE_EQ(b[1].p50, 3);
    EXPECT_DOUBLE_EQ(b[1].p99, 5);
    EXPECT_EQ(b[1].medianBytes, 1000u);
    EXPECT_EQ(b[2].posted, 0u);
    EXPECT_FALSE(b[2].HasFigures());
    EXPECT_NE(stats.ToJsonMembers("").find("\"bucket\": \">=10KB\", \"minBytes\": 10000, "
                                           "\"maxBytes\": null, \"posted\": 0"),
              std::string::npos);
    EXPECT_NE(stats.ToJsonMembers("").find("\"p50\": null"), std::string::npos);
    EXPECT_NE(stats.Report().find("n/a"), std::string::npos);
}

TEST(FlowStatisticsTest, TheCsvCarriesTheSameFigures)
{
    std::vector<FlowRecord> flows;
    for (int i = 1; i <= 300; ++i)
    {
        flows.push_back(Flow(100 * i, i, 10, i < 200 && i % 7 ? 10 + i : 0));
    }
    const FlowStatistics stats(flows, MicroSeconds(200));
    const std::string path = "flow-statistics-test.csv";
    ASSERT_TRUE(stats.WriteCsv(path));
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line,
              "bucket,min_bytes,max_bytes,posted,completed,unfinished,not_started,median_bytes,"
              "p50,p95,p99");
    std::vector<const SlowdownFigures*> expected;
    for (const auto& b : stats.GetBuckets())
    {
        expected.push_back(&b);
    }
    expected.push_back(&stats.GetOverall());
    for (const SlowdownFigures* g : expected)
    {
        ASSERT_TRUE(std::getline(in, line));
        char p50[32];
        char p99[32];
        std::snprintf(p50, sizeof(p50), "%.4f", g->p50);
        std::snprintf(p99, sizeof(p99), "%.4f", g->p99);
        EXPECT_EQ(line.rfind(g->name + ",", 0), 0u) << line;
        EXPECT_NE(line.find("," + std::to_string(g->posted) + "," + std::to_string(g->completed) +
                            "," + std::to_string(g->unfinished) + "," +
                            std::to_string(g->notStarted) + ","),
                  std::string::npos)
            << line;
        if (g->HasFigures())
        {
            EXPECT_EQ(line.substr(line.size() - std::string(p99).size()), p99) << line;
            EXPECT_NE(line.find(std::string(",") + p50 + ","), std::string::npos) << line;
        }
        else
        {
            EXPECT_EQ(line.substr(line.size() - 4), ",n/a") << line;
        }
    }
    EXPECT_FALSE(std::getline(in, line));
    std::remove(path.c_str());
    // Flows 200..300 were posted at or after the end: not started.
    EXPECT_EQ(stats.GetOverall().notStarted, 101u);
    EXPECT_EQ(stats.GetOverall().unfinished, 28u); // 7, 14, ..., 196
}
