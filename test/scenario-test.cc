/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Scenario files: defaults filled in, overrides applied, and a mistake in any section named.

#include "config-error-test.h"

#include "ns3/interconnect-config-error.h"
#include "ns3/scenario.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <cstdio>
#include <gtest/gtest.h>

using namespace ns3;

namespace
{

void
ExpectError(const std::string& text, const std::string& message)
{
    SCOPED_TRACE(text);
    EXPECT_CONFIG_ERROR(Scenario::Parse(text, "test.json", {}), message);
}

} // namespace

TEST(Scenario, FillsEveryDefaultInAFixedOrder)
{
    const Scenario s = Scenario::Parse("{}", "test.json", {});
    EXPECT_EQ(s.String("fabric.kind"), "fat-tree");
    EXPECT_EQ(s.Int("fabric.k"), 4);
    EXPECT_EQ(s.Bytes("switch.bufferSize"), 12000000u);
    EXPECT_EQ(s.String("nic.cc"), "dcqcn");
    EXPECT_EQ(s.Rate("fabric.hostRate").GetBitRate(), 100000000000u);
    EXPECT_EQ(s.Duration("stopTime"), MilliSeconds(20));
    // Resolving the resolved scenario changes nothing: config.json is a fixed point.
    const Scenario again = Scenario::Parse(s.ToJson(), "config.json", {});
    EXPECT_EQ(again.ToJson(), s.ToJson());
}

TEST(Scenario, OverridesApplyBeforeTheCheck)
{
    const Scenario s = Scenario::Parse(
        R"({"workloads": [{"kind": "poisson", "load": 0.3}]})",
        "test.json",
        {"fabric.k=8", "workloads.0.load=0.6", "nic.cc=hpcc", "switch.ecmp=packet-spray"});
    EXPECT_EQ(s.Int("fabric.k"), 8);
    EXPECT_DOUBLE_EQ(s.Double("workloads.0.load"), 0.6);
    EXPECT_EQ(s.String("nic.cc"), "hpcc");
    EXPECT_EQ(s.String("workloads.0.cdf"), "websearch"); // the workload's defaults too
    EXPECT_CONFIG_ERROR(Scenario::Parse("{}", "test.json", {"fabric.k"}),
                        "--set = fabric.k: accepted: path.to.key=value");
}

TEST(Scenario, AMistakeInEachSectionIsNamed)
{
    ExpectError(R"({"fabrik": {}})", "error: fabrik = \\{\\}: accepted: no such key; the sections");
    ExpectError(R"({"seed": "one"})", "error: seed = \"one\": accepted: an integer, 1..");
    ExpectError(R"({"stopTime": "soon"})", "error: stopTime = soon: accepted: a time");
    ExpectError(R"({"fabric": {"k": 5}})", "error: fabric.k = 5: accepted: an even integer");
    ExpectError(R"({"fabric": {"kind": "fat-tree", "leaves": 4}})",
                "error: fabric.leaves = 4: accepted: no such key; the keys here are kind, ");
    ExpectError(R"({"fabric": {"kind": "dragonfly"}})",
                "error: fabric.kind = \"dragonfly\": accepted: one of spine-leaf, three-tier");
    ExpectError(R"({"link": {"technology": "ethernet"}})",
                "error: link.technology = \"ethernet\": accepted: one of roce, iwarp, infiniband");
    ExpectError(R"({"link": {"technology": "infiniband"}, "fabric": {"kind": "torus"},
                    "ib": {"sl": 2}})",
                "error: ib.sl = 2: accepted: 0 or 1 on a torus");
    ExpectError(R"({"link": {"technology": "infiniband"}, "fabric": {"hostRate": "30Gbps"}})",
                "error: fabric.hostRate = 30Gbps: accepted: an InfiniBand link's data rate");
    ExpectError(R"({"link": {"technology": "infiniband"},
                   "fabric": {"kind": "two-dc", "dciBufferSize": "64MB"}})",
                "error: fabric.dciBufferSize = \"64MB\": accepted: 0 with link.technology "
                "infiniband");
    ExpectError(R"({"ib": {"sl": 16}})", "error: ib.sl = 16: accepted: an integer, 0..15");
    ExpectError(R"({"tcp": {"cc": "reno"}})",
                "error: tcp.cc = reno: accepted: newreno, cubic, dctcp, .*ns3::TcpNewReno");
    ExpectError(R"({"link": {"technology": "iwarp"}, "tcp": {"segmentSize": 1460}})",
                "error: tcp.segmentSize = 1460: accepted: at most the link MTU \\(1500\\) less 52");
    ExpectError(R"({"tcp": {"priority": 8}})",
                "error: tcp.priority = 8: accepted: an integer, 0..7");
    ExpectError(R"({"link": {"mtu": 1000}})", "error: link.mtu = 1000: accepted: 256, 512");
    ExpectError(R"({"switch": {"bufferSize": "-5"}})",
                "error: switch.bufferSize = -5: accepted: a whole number of bytes");
    ExpectError(R"({"switch": {"pfc": "yes"}})",
                "error: switch.pfc = \"yes\": accepted: true or false");
    ExpectError(R"({"nic": {"cc": "reno"}})", "error: nic.cc = reno: accepted: none, dcqcn");
    ExpectError(R"({"workloads": [{"kind": "bogus"}]})",
                "error: workloads.0.kind = \"bogus\": accepted: one of poisson, incast");
    ExpectError(R"({"workloads": [{"kind": "poisson", "load": 2}]})",
                "error: workloads.0.load = 2: accepted: a number, 0.001..1");
    ExpectError(
        R"({"workloads": [{"kind": "moe", "topk": 2}]})",
        "error: workloads.0.topk = 2: accepted: no such key; the keys here are kind, start");
    ExpectError(R"({"output": {"queues": "some"}})",
                "error: output.queues = \"some\": accepted: one of none, host-ports, all");
    ExpectError(R"({"fabric": )", "error: scenario = test.json: accepted: valid JSON");
}

TEST(Scenario, OneValueSwitchesRoceToIwarp)
{
    const Scenario s =
        Scenario::Parse(R"({"tcp": {"cc": "cubic"}})", "test.json", {"link.technology=iwarp"});
    EXPECT_EQ(s.String("link.technology"), "iwarp");
    EXPECT_EQ(s.Int("tcp.segmentSize"), 1448);
    EXPECT_EQ(s.Int("tcp.priority"), 0);
    EXPECT_EQ(ResolveTcpCongestionControl("tcp.cc", s.String("tcp.cc")), "ns3::TcpCubic");
    EXPECT_EQ(ResolveTcpCongestionControl("tcp.cc", "ns3::TcpVegas"), "ns3::TcpVegas");
}

TEST(Scenario, CongestionControlDefaultsToEachTechnologysOwnAndRunsOnAny)
{
    // DCQCN on RoCEv2; IB congestion control on InfiniBand, whose notification point answers
    // every FECN (CNP interval 0); any algorithm on either, with the interval given or 50 us.
    const Scenario roce = Scenario::Parse("{}", "test.json", {});
    EXPECT_EQ(roce.String("nic.cc"), "dcqcn");
    EXPECT_EQ(roce.Duration("nic.cnpInterval"), MicroSeconds(50));
    const Scenario ib = Scenario::Parse("{}", "test.json", {"link.technology=infiniband"});
    EXPECT_EQ(ib.String("nic.cc"), "ib-cc");
    EXPECT_EQ(ib.Duration("nic.cnpInterval"), Time(0));
    for (const char* cc : {"dcqcn", "hpcc", "timely", "dctcp", "none"})
    {
        const Scenario s =
            Scenario::Parse("{}",
                            "test.json",
                            {"link.technology=infiniband", std::string("nic.cc=") + cc});
        EXPECT_EQ(s.String("nic.cc"), cc);
        EXPECT_EQ(s.Duration("nic.cnpInterval"), MicroSeconds(50)) << cc;
    }
    const Scenario given =
        Scenario::Parse("{}", "test.json", {"link.technology=infiniband", "nic.cnpInterval=4us"});
    EXPECT_EQ(given.Duration("nic.cnpInterval"), MicroSeconds(4));
    EXPECT_EQ(Scenario::Parse("{}", "test.json", {"nic.cc=ib-cc"}).String("nic.cc"), "ib-cc");
}

TEST(Scenario, AttributesSetAnyNs3DefaultCheckedByItsChecker)
{
    // Not in the resolved scenario unless given (config.json of the shipped scenarios is as it
    // was); given, each is checked by the attribute's own checker and kept as a string.
    EXPECT_FALSE(Scenario::Parse("{}", "test.json", {}).Has("attributes"));
    const Scenario s = Scenario::Parse(
        R"({"attributes": {"ns3::IbCongestionControl::CctiTimer": "10us",
                           "ns3::IbCongestionControl::CctiIncrease": 4}})",
        "test.json",
        {"attributes.ns3::RdmaQueuePair::AckInterval=2"});
    EXPECT_EQ(s.String("attributes.ns3::IbCongestionControl::CctiTimer"), "10us");
    EXPECT_EQ(s.String("attributes.ns3::IbCongestionControl::CctiIncrease"), "4");
    EXPECT_EQ(s.String("attributes.ns3::RdmaQueuePair::AckInterval"), "2");
    EXPECT_CONFIG_ERROR(
        Scenario::Parse(R"({"attributes": {"ns3::IbCongestionControl::CctiIncrease": 0}})",
                        "test.json",
                        {}),
        "attributes.ns3::IbCongestionControl::CctiIncrease = 0: accepted: an attribute of an "
        "ns-3 TypeId");
    EXPECT_CONFIG_ERROR(
        Scenario::Parse(R"({"attributes": {"ns3::NoSuchThing::Rate": "1Gbps"}})", "test.json", {}),
        "attributes.ns3::NoSuchThing::Rate");
    EXPECT_CONFIG_ERROR(
        Scenario::Parse(R"({"attributes": {"ns3::RdmaNic::NoSuchAttribute": 1}})", "test.json", {}),
        "attributes.ns3::RdmaNic::NoSuchAttribute");
    // Named by a subclass (ns-3's SetDefault aborts on it, its environment lookup ignores it),
    // a pointer (its text would make an object, and ns-3 aborts on an unknown TypeId) and an
    // object container (ns-3 aborts reading one from text): refused, as any other bad entry.
    EXPECT_CONFIG_ERROR(
        Scenario::Parse(R"({"attributes": {"ns3::RdmaNic::HostReadRate": "10Gbps"}})",
                        "test.json",
                        {}),
        "attributes.ns3::RdmaNic::HostReadRate");
    EXPECT_EQ(
        Scenario::Parse(R"({"attributes": {"ns3::RdmaChannelAdapter::HostReadRate": "10Gbps"}})",
                        "test.json",
                        {})
            .String("attributes.ns3::RdmaChannelAdapter::HostReadRate"),
        "10Gbps");
    EXPECT_CONFIG_ERROR(
        Scenario::Parse(R"({"attributes": {"ns3::PfcNetDevice::ReceiveErrorModel": "ns3::Nope"}})",
                        "test.json",
                        {}),
        "attributes.ns3::PfcNetDevice::ReceiveErrorModel");
    EXPECT_CONFIG_ERROR(
        Scenario::Parse(R"({"attributes": {"ns3::RdmaNic::QueuePairList": ""}})", "test.json", {}),
        "attributes.ns3::RdmaNic::QueuePairList");
    EXPECT_CONFIG_ERROR(Scenario::Parse(R"({"recorded": {"moduleCommit": 1}})", "test.json", {}),
                        "recorded.moduleCommit = 1");
    EXPECT_CONFIG_ERROR(Scenario::Parse(R"({"attributes": {"CctiTimer": "1us"}})", "test.json", {}),
                        "attributes.CctiTimer");
    EXPECT_CONFIG_ERROR(
        Scenario::Parse(R"({"attributes": {"ns3::RdmaNic::Dscp": [1]}})", "test.json", {}),
        "attributes.ns3::RdmaNic::Dscp = \\[1\\]: accepted: a string, a number");
    EXPECT_CONFIG_ERROR(Scenario::Parse(R"({"attributes": 5})", "test.json", {}),
                        "error: attributes = 5");
}

TEST(Scenario, GpuServersAndHierarchicalCollectives)
{
    const Scenario s = Scenario::Parse(
        R"({"server": {"preset": "dgx-h100"},
            "workloads": [{"kind": "all-to-all", "algorithm": "hierarchical"}]})",
        "test.json",
        {});
    EXPECT_EQ(s.String("server.preset"), "dgx-h100");
    EXPECT_TRUE(s.Bool("server.gpuDirect"));
    EXPECT_EQ(s.String("workloads.0.algorithm"), "hierarchical");
    EXPECT_EQ(Scenario::Parse("{}", "test.json", {}).String("server.preset"), "none");
    ExpectError(R"({"workloads": [{"kind": "moe", "algorithm": "hierarchical"}]})",
                "workloads.0.algorithm = hierarchical: accepted: direct, unless server.preset");
    ExpectError(R"({"server": {"preset": "dgx-b300"}})",
                "server.preset = \"dgx-b300\": accepted: one of none, dgx-a100, dgx-h100");
    ExpectError(R"({"server": {"preset": "dgx-h100", "pcieGeneration": 7}})",
                "server.pcieGeneration = 7");
}

TEST(Scenario, DistributedRunsTakeWhatRanksCanSplit)
{
    const Scenario s =
        Scenario::Parse(R"({"parallel": {"ranks": 4}, "workloads": [{"kind": "permutation"}]})",
                        "test.json",
                        {});
    EXPECT_EQ(s.Int("parallel.ranks"), 4);
    EXPECT_EQ(s.String("parallel.partition"), "auto");
    EXPECT_EQ(s.String("parallel.simulator"), "granted-time-window");
    ExpectError(R"({"parallel": {"ranks": 0}})", "parallel.ranks = 0");
    ExpectError(R"({"parallel": {"ranks": 2, "simulator": "optimistic"}})",
                "parallel.simulator = \"optimistic\"");
    // A collective's next phase waits for the last completion anywhere: not across ranks.
    ExpectError(R"({"parallel": {"ranks": 2}, "workloads": [{"kind": "all-to-all"}]})",
                "workloads.0.kind = all-to-all: accepted: poisson, incast or permutation with "
                "parallel.ranks > 1");
    ExpectError(R"({"parallel": {"ranks": 2}, "link": {"technology": "iwarp"}})",
                "parallel.ranks = 2: accepted: 1 with link.technology iwarp");
    const Scenario ib =
        Scenario::Parse(R"({"parallel": {"ranks": 2}, "link": {"technology": "infiniband"}})",
                        "test.json",
                        {});
    EXPECT_EQ(ib.Int("parallel.ranks"), 2);
    ExpectError(R"({"parallel": {"ranks": 2, "partition": "given"}})", "parallel.given = \\[\\]");
    ExpectError(R"({"parallel": {"ranks": 2, "given": [0, 1]}})", "parallel.given = \\[0,1\\]");
}

TEST(Scenario, QueuePairMappingAndSizeBuckets)
{
    EXPECT_EQ(Scenario::Parse("{}", "test.json", {}).String("nic.queuePairs"), "auto");
    // A count is kept as its text, from a file or from --set.
    EXPECT_EQ(
        Scenario::Parse(R"({"nic": {"queuePairs": 4}})", "test.json", {}).String("nic.queuePairs"),
        "4");
    EXPECT_EQ(Scenario::Parse("{}", "test.json", {"nic.queuePairs=8"}).String("nic.queuePairs"),
              "8");
    ExpectError(
        R"({"nic": {"queuePairs": "per-message"}})",
        "error: nic.queuePairs = \"per-message\": accepted: auto .*per-flow .*per-host-pair");
    ExpectError(R"({"nic": {"queuePairs": 0}})", "error: nic.queuePairs = \"0\": accepted: auto");
    ExpectError(R"({"output": {"sizeBuckets": [1000, 1000]}})",
                "error: output.sizeBuckets = \\[1000,1000\\]: accepted: flow-size bucket edges");
    ExpectError(R"({"output": {"sizeBuckets": [0]}})", "error: output.sizeBuckets.0 = 0");
}

TEST(Scenario, ErrorsAreExceptionsThatNameTheKey)
{
    // The library never ends the program: a program's main reports the error
    // (ReportConfigErrors: the message on stderr, status 1).
    try
    {
        Scenario::Parse(R"({"nic": {"queuePairs": "many"}})", "test.json", {});
        ADD_FAILURE() << "no exception";
    }
    catch (const InterconnectConfigException& e)
    {
        EXPECT_EQ(e.GetParameter(), "nic.queuePairs");
        EXPECT_NE(std::string(e.what()).find("error: nic.queuePairs = \"many\": accepted:"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_EXIT(std::exit(ReportConfigErrors([]() {
                    Scenario::Parse(R"({"seed": 0})", "test.json", {});
                    return 0;
                })),
                ::testing::ExitedWithCode(1),
                "error: seed = 0");
    EXPECT_EQ(ReportConfigErrors([]() { return 7; }), 7);
}

TEST(Scenario, KeysNameTheAttributesTheySetAndShareTheirDefaults)
{
    // A key that sets a model attribute names it (the manual's table shows it, and a refused
    // value is reported by the key); where the key's default is meant to be the TypeId's, the
    // two are equal, so neither can drift from the other.
    const Scenario s = Scenario::Parse("{}", "t.json", {});
    uint32_t bound = 0;
    uint32_t same = 0;
    for (const auto& [path, key] : Scenario::AllKeys())
    {
        for (const auto& [attribute, sameDefault] : key.attributes)
        {
            ++bound;
            const std::size_t sep = attribute.rfind("::");
            ASSERT_NE(sep, std::string::npos) << path << ": " << attribute;
            TypeId tid;
            ASSERT_TRUE(TypeId::LookupByNameFailSafe(attribute.substr(0, sep), &tid))
                << path << ": no class " << attribute.substr(0, sep);
            TypeId::AttributeInformation info;
            ASSERT_TRUE(tid.LookupAttributeByName(attribute.substr(sep + 2), &info))
                << path << ": no attribute " << attribute;
            if (!sameDefault)
            {
                continue;
            }
            ++same;
            // The key's default in the attribute's terms.
            std::string text;
            switch (key.type)
            {
            case ScenarioKey::Type::INT:
                text = std::to_string(s.Int(path));
                break;
            case ScenarioKey::Type::BYTES:
                text = std::to_string(s.Bytes(path));
                break;
            case ScenarioKey::Type::NUMBER: {
                char number[32];
                std::snprintf(number, sizeof(number), "%.17g", s.Double(path));
                text = number;
                break;
            }
            case ScenarioKey::Type::BOOL:
                text = s.Bool(path) ? "true" : "false";
                break;
            default:
                text = s.String(path); // times, rates, strings: ns-3's own syntax
            }
            Ptr<AttributeValue> value = info.checker->CreateValidValue(StringValue(text));
            ASSERT_TRUE(value) << path << " = " << text << " is not a value of " << attribute;
            EXPECT_EQ(value->SerializeToString(info.checker),
                      info.initialValue->SerializeToString(info.checker))
                << path << " defaults to " << text << ", " << attribute << " to "
                << info.initialValue->SerializeToString(info.checker);
        }
    }
    EXPECT_GE(bound, 30u);
    EXPECT_GE(same, 15u);
}
