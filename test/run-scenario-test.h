/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef INTERCONNECT_RUN_SCENARIO_TEST_H
#define INTERCONNECT_RUN_SCENARIO_TEST_H

// For the tests that run a scenario through the runner's pipeline and read its records back.

#include "ns3/interconnect-module.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <vector>

namespace ns3
{

/// What a scenario run wrote.
struct ScenarioRunRecords
{
    std::string dir;                    //!< the output directory
    std::vector<FlowRecord> flows;      //!< flows.csv
    std::vector<std::string> workloads; //!< the workload names flows.csv uses
};

/**
 * Run a scenario (JSON text, --set overrides) through ScenarioRunner into a fresh directory
 * under the test's temporary directory, expect it to report success, and read its flows.
 * @param json the scenario
 * @param sets overrides
 * @param name the output directory's name
 * @return the records
 */
inline ScenarioRunRecords
RunScenario(const std::string& json, const std::vector<std::string>& sets, const std::string& name)
{
    ScenarioRunRecords r;
    r.dir = std::string(::testing::TempDir()) + "/" + name;
    std::filesystem::remove_all(r.dir);
    ScenarioRunner runner(Scenario::Parse(json, name + ".json", sets), r.dir);
    runner.Execute(nullptr, nullptr);
    EXPECT_EQ(runner.Report(""), 0) << name;
    std::string error;
    EXPECT_TRUE(ReadFlowsCsv(r.dir + "/flows.csv", &r.flows, &r.workloads, &error)) << error;
    return r;
}

/**
 * @param r a run's records
 * @return its summary.json
 */
inline nlohmann::json
ReadSummary(const ScenarioRunRecords& r)
{
    std::ifstream in(r.dir + "/summary.json");
    return nlohmann::json::parse(in);
}

/// One row of links.csv.
struct LinkRow
{
    uint32_t node;   //!< the node
    uint32_t device; //!< its device
    uint32_t peer;   //!< the node at the other end
    uint64_t rate;   //!< bit/s
    uint64_t tx;     //!< bytes sent
};

/**
 * @param r a run's records
 * @return its links.csv
 */
inline std::vector<LinkRow>
ReadLinksCsv(const ScenarioRunRecords& r)
{
    std::vector<LinkRow> rows;
    std::ifstream in(r.dir + "/links.csv");
    std::string line;
    std::getline(in, line); // header
    while (std::getline(in, line))
    {
        std::stringstream row(line);
        std::string field[5];
        for (auto& f : field)
        {
            std::getline(row, f, ',');
        }
        rows.push_back(LinkRow{static_cast<uint32_t>(std::stoul(field[0])),
                               static_cast<uint32_t>(std::stoul(field[1])),
                               static_cast<uint32_t>(std::stoul(field[2])),
                               std::stoull(field[3]),
                               std::stoull(field[4])});
    }
    return rows;
}

/**
 * @param r a run's records
 * @return the largest FCT of its flows, each expected to have finished
 */
inline Time
LastFct(const ScenarioRunRecords& r)
{
    Time last(0);
    for (const FlowRecord& f : r.flows)
    {
        EXPECT_FALSE(f.end.IsZero());
        last = std::max(last, f.end - f.start);
    }
    return last;
}

} // namespace ns3

#endif // INTERCONNECT_RUN_SCENARIO_TEST_H
