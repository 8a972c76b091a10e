/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Workload kinds: a kind a program registers is a scenario's "kind" like the built-in ones:
// its keys are checked and completed, and the runner's pipeline posts what it says, on every
// link technology.

#include "config-error-test.h"
#include "run-scenario-test.h"

#include "ns3/core-module.h"
#include "ns3/interconnect-module.h"

#include <filesystem>
#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// "pair": one message of `bytes` from host `from` to host `to`, `count` times 10 us apart.
class PairKind : public WorkloadKind
{
  public:
    std::string GetName() const override
    {
        return "test-pair";
    }

    std::vector<ScenarioKey> GetKeys() const override
    {
        return {ScenarioKey::Int("from", 0, 0, 1 << 20),
                ScenarioKey::Int("to", 1, 0, 1 << 20),
                ScenarioKey::Bytes("bytes", "4KB", 1),
                ScenarioKey::Int("count", 1, 1, 100)};
    }

    void Post(const WorkloadContext& c) const override
    {
        const Scenario& s = c.scenario;
        for (int64_t k = 0; k < s.Int(c.prefix + "count"); ++k)
        {
            c.network.Post(s.Int(c.prefix + "from"),
                           s.Int(c.prefix + "to"),
                           RdmaVerb::WRITE,
                           s.Bytes(c.prefix + "bytes"),
                           c.start + MicroSeconds(10) * k,
                           c.network.GetDefaultPriority());
        }
    }
};

void
RegisterOnce()
{
    if (!WorkloadKind::Find("test-pair"))
    {
        WorkloadKind::Register(std::make_shared<PairKind>());
    }
}

} // namespace

TEST(WorkloadKind, BuiltInKindsComeFirstAndANewOneIsAScenarioKind)
{
    RegisterOnce();
    const std::vector<std::string> names = WorkloadKind::GetNames();
    ASSERT_GE(names.size(), 7u);
    EXPECT_EQ(names[0], "poisson");
    EXPECT_EQ(names[5], "moe");
    EXPECT_EQ(names.back(), "test-pair");
    const Scenario s =
        Scenario::Parse(R"({"workloads": [{"kind": "test-pair", "bytes": "1MB"}]})", "t.json", {});
    EXPECT_EQ(s.Bytes("workloads.0.bytes"), 1000000u);
    EXPECT_EQ(s.Int("workloads.0.to"), 1); // defaults completed
    EXPECT_EQ(s.Int("workloads.0.count"), 1);
    EXPECT_CONFIG_ERROR(
        Scenario::Parse(R"({"workloads": [{"kind": "test-pair", "size": 5}]})", "t.json", {}),
        "workloads.0.size");
    EXPECT_CONFIG_ERROR(
        Scenario::Parse(R"({"workloads": [{"kind": "test-pair", "count": 0}]})", "t.json", {}),
        "workloads.0.count = 0");
    EXPECT_CONFIG_ERROR(Scenario::Parse(R"({"workloads": [{"kind": "nope"}]})", "t.json", {}),
                        "workloads.0.kind = \"nope\": accepted: one of poisson, .*test-pair");
}

TEST(WorkloadKind, TheRunnersPipelinePostsARegisteredKindOnEveryTechnology)
{
    RegisterOnce();
    for (const char* technology : {"roce", "iwarp", "infiniband"})
    {
        const auto [dir, flows, workloads] = RunScenario(
            R"({"stopTime": "200us", "output": {"plots": false},
                "fabric": {"kind": "spine-leaf", "leaves": 2, "spines": 1, "hostsPerLeaf": 2},
                "workloads": [{"kind": "test-pair", "from": 0, "to": 3, "count": 3}]})",
            {std::string("link.technology=") + technology},
            std::string("workload-kind-") + technology);
        ASSERT_EQ(flows.size(), 3u) << technology;
        EXPECT_EQ(workloads.at(0), "0:test-pair");
        for (const FlowRecord& f : flows)
        {
            EXPECT_EQ(f.src, 0u);
            EXPECT_EQ(f.dst, 3u);
            EXPECT_EQ(f.bytes, 4000u);
            EXPECT_TRUE(f.end.IsStrictlyPositive()) << technology << ": flow " << f.id;
        }
        EXPECT_EQ(flows[1].start - flows[0].start, MicroSeconds(10));
    }
}

TEST(ScenarioRunner, SetsTheScenariosAttributeDefaultsBeforeBuilding)
{
    const Scenario s = Scenario::Parse(
        R"({"attributes": {"ns3::IbCongestionControl::CctiTimer": "10us"},
            "fabric": {"kind": "spine-leaf", "leaves": 1, "spines": 1, "hostsPerLeaf": 2}})",
        "t.json",
        {});
    ScenarioRunner runner(s, std::string(::testing::TempDir()) + "/runner-attributes");
    runner.Start(nullptr, nullptr);
    runner.BuildNetwork();
    TimeValue timer;
    CreateObject<IbCongestionControl>()->GetAttribute("CctiTimer", timer);
    EXPECT_EQ(timer.Get(), MicroSeconds(10));
    Config::Reset();
    Simulator::Destroy();
}

TEST(WorkloadKind, NothingStartsAfterTheStopTime)
{
    // Open-loop workloads post only what starts before stopTime: an incast's later rounds are not
    // posted, and no Poisson arrival after stopTime is drawn (the flows of a window longer than
    // the run would be neither measured nor counted).
    const auto [dir, flows, workloads] = RunScenario(
        R"({"stopTime": "2500us", "output": {"plots": false},
            "fabric": {"kind": "spine-leaf", "leaves": 2, "spines": 1, "hostsPerLeaf": 4},
            "workloads": [{"kind": "incast", "fanIn": 3, "size": "4KB", "rounds": 10,
                           "period": "1ms"},
                          {"kind": "poisson", "load": 0.2, "stop": "10ms"}]})",
        {},
        "workload-kind-stop");
    uint32_t incast = 0;
    uint32_t poisson = 0;
    for (const FlowRecord& f : flows)
    {
        EXPECT_LT(f.start, MicroSeconds(2500)) << "flow " << f.id;
        (workloads.at(f.workload) == "0:incast" ? incast : poisson)++;
    }
    EXPECT_EQ(incast, 3u * 3) << "rounds at 0, 1 and 2 ms";
    EXPECT_GT(poisson, 0u);
}
