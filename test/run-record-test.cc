/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/attribute-defaults.h"
#include "ns3/config.h"
#include "ns3/interconnect-compat.h"
#include "ns3/nstime.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/run-record.h"
#include "ns3/uinteger.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <sys/utsname.h>
#include <unistd.h>

using namespace ns3;

namespace
{

std::string
Slurp(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

std::filesystem::path
TempDir(const std::string& name)
{
    auto dir = std::filesystem::temp_directory_path() / ("interconnect-run-record-" + name);
    std::filesystem::remove_all(dir);
    return dir;
}

} // namespace

TEST(RunRecord, KeepsInsertionOrderAndReplacesInPlace)
{
    RunRecord r("prog");
    r.Set("b", 2);
    r.Set("a", "x");
    r.Set("b", 3);
    EXPECT_EQ(r.ToJson(),
              "{\n  \"program\": \"prog\",\n  \"ns3Version\": \"" + interconnect::Ns3Version() +
                  "\",\n  \"moduleCommit\": \"" + interconnect::ModuleCommit() +
                  "\",\n  \"b\": 3,\n  \"a\": \"x\"\n}\n");
}

TEST(RunRecord, EncodesEveryType)
{
    RunRecord r("p");
    r.Set("flag", true);
    r.Set("neg", int64_t{-7});
    r.Set("big", uint64_t{18446744073709551615ULL});
    r.Set("third", 1.0 / 3.0);
    r.Set("inf", 1.0 / 0.0);
    EXPECT_EQ(r.GetEncoded("flag"), "true");
    EXPECT_EQ(r.GetEncoded("neg"), "-7");
    EXPECT_EQ(r.GetEncoded("big"), "18446744073709551615");
    // 17 significant digits read back to the same double.
    EXPECT_EQ(std::stod(r.GetEncoded("third")), 1.0 / 3.0);
    EXPECT_EQ(r.GetEncoded("inf"), "\"inf\"");
    EXPECT_EQ(r.GetEncoded("missing"), "");
}

TEST(RunRecord, QuotesJsonStrings)
{
    EXPECT_EQ(RunRecord::JsonQuote("plain"), "\"plain\"");
    EXPECT_EQ(RunRecord::JsonQuote("a\"b\\c\nd\te"), "\"a\\\"b\\\\c\\nd\\te\"");
    EXPECT_EQ(RunRecord::JsonQuote(std::string("\x01", 1)), "\"\\u0001\"");
}

// The machine's line, from the texts Linux gives (/proc/cpuinfo of two CPUs, each repeating the
// CPU's fields; cpu0's caches as sysfs lists them): the first CPU's model name, family and model
// ("model" is not "model name", which comes after it here), the CPUs, the caches, the kernel.
TEST(MachineDescription, ReadsCpuinfoCachesAndKernel)
{
    const std::string cpuinfo = "processor\t: 0\n"
                                "vendor_id\t: GenuineIntel\n"
                                "cpu family\t: 6\n"
                                "model\t\t: 207\n"
                                "model name\t: Intel(R) Xeon(R) Processor\n"
                                "stepping\t: 2\n"
                                "flags\t\t: fpu vme de\n"
                                "\n"
                                "processor\t: 1\n"
                                "cpu family\t: 7\n"
                                "model\t\t: 1\n"
                                "model name\t: Another\n";
    const std::vector<std::vector<std::string>> caches = {{"1", "Data", "48K"},
                                                          {"1", "Instruction", "32K"},
                                                          {"2", "Unified", "2048K"},
                                                          {"3", "Unified", "266240K"}};
    EXPECT_EQ(interconnect::DescribeMachine(cpuinfo, caches, 2, "Linux 6.18.44"),
              "Intel(R) Xeon(R) Processor (family 6, model 207), 2 CPUs; caches L1d 48K, L1i "
              "32K, L2 2048K, L3 266240K; Linux 6.18.44");
}

// What is not there is left out: an Arm machine's /proc/cpuinfo has no model name, family or
// model; a machine where nothing can be read is an unknown CPU.
TEST(MachineDescription, LeavesOutWhatItCannotRead)
{
    EXPECT_EQ(interconnect::DescribeMachine("processor\t: 0\nCPU implementer\t: 0x41\n",
                                            {{"1", "Data", "64K"}, {"", "Unified", "1M"}},
                                            1,
                                            "Linux 6.1.0"),
              "unknown CPU, 1 CPU; caches L1d 64K; Linux 6.1.0");
    EXPECT_EQ(interconnect::DescribeMachine("", {}, 0, ""), "unknown CPU");
    // (Text with Windows line ends: the ends are not the values'.)
    EXPECT_EQ(interconnect::DescribeMachine("model name\t: Some CPU\r\n", {}, 0, ""), "Some CPU");
}

// On this machine, what it reads is read: a /proc/cpuinfo with a model name gives that name
// (not "unknown CPU"), and cpu0's caches, where sysfs lists them, are named.
TEST(MachineDescription, ReadsThisMachinesCpuinfoAndCaches)
{
    const std::string d = interconnect::MachineDescription();
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    bool named = false;
    while (std::getline(cpuinfo, line))
    {
        named = named || line.rfind("model name", 0) == 0;
    }
    if (named)
    {
        EXPECT_EQ(d.rfind("unknown CPU", 0), std::string::npos) << d;
    }
    if (std::ifstream("/sys/devices/system/cpu/cpu0/cache/index0/level"))
    {
        EXPECT_NE(d.find("; caches L"), std::string::npos) << d;
    }
    if (!named)
    {
        GTEST_SKIP() << "no model name in /proc/cpuinfo here";
    }
}

// On this machine (Linux): the CPUs online and the kernel's release, as the system says them.
TEST(MachineDescription, NamesThisMachinesCpusAndKernel)
{
    const std::string d = interconnect::MachineDescription();
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    ASSERT_GT(cpus, 0);
    EXPECT_NE(d.find(", " + std::to_string(cpus) + (cpus == 1 ? " CPU" : " CPUs")),
              std::string::npos)
        << d;
    struct utsname host = {};
    ASSERT_EQ(uname(&host), 0);
    EXPECT_NE(d.find(std::string("; ") + host.sysname + " " + host.release), std::string::npos)
        << d;
}

TEST(RunRecord, CapturesSeedAndRun)
{
    RngSeedManager::SetSeed(42);
    RngSeedManager::SetRun(7);
    RunRecord r("p");
    r.CaptureSeed();
    EXPECT_EQ(r.GetEncoded("seed"), "42");
    EXPECT_EQ(r.GetEncoded("run"), "7");
}

TEST(RunRecord, WritesTheSameBytesTwice)
{
    const auto dir = TempDir("twice");
    RunRecord r("p");
    r.Set("x", 1.5);
    std::string error;
    ASSERT_TRUE(r.Write((dir / "a" / "config.json").string(), &error)) << error;
    ASSERT_TRUE(r.Write((dir / "b" / "config.json").string(), &error)) << error;
    const std::string a = Slurp((dir / "a" / "config.json").string());
    EXPECT_EQ(a, r.ToJson());
    EXPECT_EQ(a, Slurp((dir / "b" / "config.json").string()));
    std::filesystem::remove_all(dir);
}

TEST(RunRecord, ReportsAnUnwritablePath)
{
    const auto dir = TempDir("blocked");
    std::filesystem::create_directories(dir);
    {
        std::ofstream blocker(dir / "file");
        blocker << "not a directory";
    }
    RunRecord r("p");
    std::string error;
    EXPECT_FALSE(r.Write((dir / "file" / "config.json").string(), &error));
    EXPECT_NE(error.find((dir / "file").string()), std::string::npos) << error;
    EXPECT_FALSE(CreateOutputDirectory((dir / "file").string(), &error));
    std::filesystem::remove_all(dir);
}

TEST(RunRecord, CapturesChangedAttributeDefaults)
{
    Config::SetDefault("ns3::PfcChannel::Delay", TimeValue(NanoSeconds(1234)));
    RunRecord r("p");
    r.CaptureAttributeDefaults("Interconnect");
    EXPECT_EQ(r.GetEncoded("ns3::PfcChannel::Delay"), "\"+1234ns\"");
    EXPECT_NE(r.GetEncoded("ns3::RoceSwitchMmu::BufferSize"), "");
    Config::Reset();
}

TEST(RunRecord, CapturesChangedDefaultsOfEveryModule)
{
    // Outside the group, an attribute is recorded when (and only when) its default changed.
    EXPECT_EQ(AttributeDefaults::Changed().count("ns3::TcpSocket::SegmentSize"), 0U);
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(9000));
    EXPECT_EQ(AttributeDefaults::Changed().at("ns3::TcpSocket::SegmentSize"), "9000");
    RunRecord r("p");
    r.CaptureAttributeDefaults("Interconnect");
    EXPECT_EQ(r.GetEncoded("ns3::TcpSocket::SegmentSize"), "\"9000\"");
    EXPECT_EQ(r.GetEncoded("ns3::TcpSocket::SndBufSize"), "");
    Config::Reset();
    EXPECT_EQ(AttributeDefaults::Changed().count("ns3::TcpSocket::SegmentSize"), 0U);
}
