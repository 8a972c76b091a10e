/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario.h"

#include "ns3/attribute-defaults.h"
#include "ns3/command-line-values.h"
#include "ns3/ib-net-device.h"
#include "ns3/interconnect-config-error.h"
#include "ns3/intra-host-helper.h"
#include "ns3/iwarp-helper.h"
#include "ns3/message-transport.h"
#include "ns3/moe-traffic.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/rdma-psn.h"
#include "ns3/string.h"
#include "ns3/workload-kind.h"

#include <cstdio>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

namespace ns3
{

ScenarioKey
ScenarioKey::Int(const std::string& name, int64_t def, double min, double max)
{
    return ScenarioKey{name, Type::INT, def, min, max, {}, {}, {}};
}

ScenarioKey
ScenarioKey::Number(const std::string& name, double def, double min, double max)
{
    return ScenarioKey{name, Type::NUMBER, def, min, max, {}, {}, {}};
}

ScenarioKey
ScenarioKey::Bool(const std::string& name, bool def)
{
    return ScenarioKey{name, Type::BOOL, def, 0, 0, {}, {}, {}};
}

ScenarioKey
ScenarioKey::Choice(const std::string& name,
                    const std::string& def,
                    std::vector<std::string> choices)
{
    return ScenarioKey{name, Type::STRING, def, 0, 0, std::move(choices), {}, {}};
}

ScenarioKey
ScenarioKey::Text(const std::string& name, const std::string& def)
{
    return ScenarioKey{name, Type::STRING, def, 0, 0, {}, {}, {}};
}

ScenarioKey
ScenarioKey::Bytes(const std::string& name, const std::string& def, double min)
{
    return ScenarioKey{name,
                       Type::BYTES,
                       def,
                       min,
                       static_cast<double>(uint64_t{1} << 40),
                       {},
                       {},
                       {}};
}

ScenarioKey
ScenarioKey::Rate(const std::string& name, const std::string& def)
{
    return ScenarioKey{name, Type::RATE, def, 0, 0, {}, {}, {}};
}

/// A time; `minNs`: the shortest accepted, in nanoseconds.
ScenarioKey
ScenarioKey::Duration(const std::string& name, const std::string& def, double minNs)
{
    return ScenarioKey{name, Type::TIME, def, minNs, 0, {}, {}, {}};
}

ScenarioKey
ScenarioKey::Help(const std::string& text) const
{
    ScenarioKey k = *this;
    k.help = text;
    return k;
}

ScenarioKey
ScenarioKey::Sets(const std::string& path, bool sameDefault) const
{
    ScenarioKey k = *this;
    k.attributes.emplace_back(path, sameDefault);
    return k;
}

ScenarioKey
ScenarioKey::IntList(const std::string& name, nlohmann::ordered_json def, double min, double max)
{
    return ScenarioKey{name, Type::INT_LIST, def, min, max, {}, {}, {}};
}

namespace
{

using JsonValue = nlohmann::ordered_json;

using Type = ScenarioKey::Type;
using Key = ScenarioKey;

constexpr double INF = std::numeric_limits<double>::infinity();

std::string
Join(const std::vector<std::string>& items)
{
    std::string out;
    for (const auto& i : items)
    {
        out += (out.empty() ? "" : ", ") + i;
    }
    return out;
}

std::string
Range(double min, double max)
{
    std::ostringstream os;
    os << min;
    if (max == INF)
    {
        return "at least " + os.str();
    }
    os << ".." << max;
    return os.str();
}

/// Check one value against its key; returns the value to keep.
JsonValue
Check(const std::string& path, const Key& key, const JsonValue& v)
{
    const std::string given = v.dump();
    switch (key.type)
    {
    case Type::INT:
        if (!v.is_number_integer() || v.get<double>() < key.min || v.get<double>() > key.max)
        {
            InterconnectConfigError(path, given, "an integer, " + Range(key.min, key.max));
        }
        return v;
    case Type::NUMBER:
        if (!v.is_number() || v.get<double>() < key.min || v.get<double>() > key.max)
        {
            InterconnectConfigError(path, given, "a number, " + Range(key.min, key.max));
        }
        return v;
    case Type::BOOL:
        if (!v.is_boolean())
        {
            InterconnectConfigError(path, given, "true or false");
        }
        return v;
    case Type::STRING:
        if (!v.is_string())
        {
            InterconnectConfigError(path,
                                    given,
                                    key.choices.empty() ? "a string"
                                                        : "one of " + Join(key.choices));
        }
        if (!key.choices.empty() &&
            std::find(key.choices.begin(), key.choices.end(), v.get<std::string>()) ==
                key.choices.end())
        {
            InterconnectConfigError(path, given, "one of " + Join(key.choices));
        }
        return v;
    case Type::BYTES:
        if (v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0))
        {
            CommandLineValues::Bytes(path,
                                     std::to_string(v.get<uint64_t>()),
                                     static_cast<uint64_t>(key.min),
                                     static_cast<uint64_t>(key.max));
            return v;
        }
        if (!v.is_string())
        {
            InterconnectConfigError(path, given, "a byte count such as 65536 or \"64KiB\"");
        }
        CommandLineValues::Bytes(path,
                                 v.get<std::string>(),
                                 static_cast<uint64_t>(key.min),
                                 static_cast<uint64_t>(key.max));
        return v;
    case Type::RATE:
        if (!v.is_string())
        {
            InterconnectConfigError(path, given, "a rate such as \"100Gbps\"");
        }
        CommandLineValues::Rate(path, v.get<std::string>());
        return v;
    case Type::TIME:
        if (!v.is_string())
        {
            InterconnectConfigError(path, given, "a time with a unit such as \"10us\"");
        }
        CommandLineValues::Duration(path,
                                    v.get<std::string>(),
                                    NanoSeconds(static_cast<int64_t>(key.min)));
        return v;
    case Type::INT_LIST:
        if (!v.is_array() || (v.empty() && !key.def.empty()))
        {
            InterconnectConfigError(path,
                                    given,
                                    key.def.empty() ? "a list of integers"
                                                    : "a non-empty list of integers");
        }
        for (std::size_t i = 0; i < v.size(); ++i)
        {
            if (!v[i].is_number_integer() || v[i].get<double>() < key.min ||
                v[i].get<double>() > key.max)
            {
                InterconnectConfigError(path + "." + std::to_string(i),
                                        v[i].dump(),
                                        "an integer, " + Range(key.min, key.max));
            }
        }
        return v;
    }
    return v;
}

/// Check an object against keys; fill defaults; refuse unknown keys.
JsonValue
CheckObject(const std::string& path, const JsonValue& given, const std::vector<Key>& keys)
{
    if (!given.is_object())
    {
        InterconnectConfigError(path, given.dump(), "an object { ... }");
    }
    std::vector<std::string> names;
    for (const auto& k : keys)
    {
        names.emplace_back(k.name);
    }
    for (auto it = given.begin(); it != given.end(); ++it)
    {
        if (std::find(names.begin(), names.end(), it.key()) == names.end())
        {
            InterconnectConfigError((path.empty() ? "" : path + ".") + it.key(),
                                    it.value().dump(),
                                    "no such key; the keys here are " + Join(names));
        }
    }
    JsonValue out = JsonValue::object();
    for (const auto& k : keys)
    {
        const std::string keyPath = (path.empty() ? "" : path + ".") + k.name;
        out[k.name] = given.contains(k.name) ? Check(keyPath, k, given[k.name]) : k.def;
    }
    return out;
}

const std::vector<std::string> FABRICS =
    {"spine-leaf", "three-tier", "fat-tree", "rail-optimized", "torus", "two-dc"};

std::vector<Key>
FabricKeys(const std::string& kind)
{
    std::vector<Key> keys = {
        ScenarioKey::Choice("kind", "fat-tree", FABRICS).Help("the topology; its keys follow"),
        ScenarioKey::Rate("hostRate", "100Gbps")
            .Help("rate of the host links")
            .Sets("ns3::PfcNetDevice::DataRate")
            .Sets("ns3::IbNetDevice::Width", false),
        ScenarioKey::Rate("fabricRate", "100Gbps")
            .Help("rate of the switch-to-switch links")
            .Sets("ns3::PfcNetDevice::DataRate")
            .Sets("ns3::IbNetDevice::Width", false),
        ScenarioKey::Duration("delay", "1us").Help("propagation delay of every link")};
    if (kind == "spine-leaf")
    {
        keys.push_back(ScenarioKey::Int("leaves", 4, 1, 4096).Help("leaf switches"));
        keys.push_back(ScenarioKey::Int("spines", 2, 1, 4096).Help("spine switches"));
        keys.push_back(ScenarioKey::Int("hostsPerLeaf", 8, 1, 4096).Help("hosts on each leaf"));
    }
    else if (kind == "three-tier")
    {
        keys.push_back(ScenarioKey::Int("pods", 2, 1, 1024).Help("pods"));
        keys.push_back(
            ScenarioKey::Int("accessPerPod", 2, 1, 1024).Help("access switches in a pod"));
        keys.push_back(ScenarioKey::Int("aggregationPerPod", 2, 1, 1024)
                           .Help("aggregation switches in a pod"));
        keys.push_back(ScenarioKey::Int("cores", 2, 1, 1024).Help("core switches"));
        keys.push_back(
            ScenarioKey::Int("hostsPerAccess", 4, 1, 1024).Help("hosts on each access switch"));
        keys.push_back(ScenarioKey::Number("accessOversubscription", 1, 0.01, 1024)
                           .Help("host over uplink capacity of an access switch (a whole "
                                 "number of uplinks to each aggregation switch)"));
        keys.push_back(ScenarioKey::Number("aggregationOversubscription", 1, 0.01, 1024)
                           .Help("the same at the aggregation switches"));
    }
    else if (kind == "fat-tree")
    {
        keys.push_back(ScenarioKey::Int("k", 4, 2, 128).Help("k-ary, even: k^3/4 hosts"));
    }
    else if (kind == "rail-optimized")
    {
        keys.push_back(ScenarioKey::Int("servers", 4, 1, 4096).Help("servers"));
        keys.push_back(ScenarioKey::Int("nicsPerServer", 8, 1, 64)
                           .Help("NICs (rails) per server; a GPU preset's own"));
        keys.push_back(ScenarioKey::Int("spines", 2, 1, 1024).Help("spines over the rails"));
    }
    else if (kind == "two-dc")
    {
        keys.push_back(ScenarioKey::Int("k", 4, 2, 128).Help("each data centre's fat-tree radix"));
        keys.push_back(ScenarioKey::Int("dciLinks", 2, 1, 64)
                           .Help("long-haul links, one per pair of DCI (border) switches"));
        keys.push_back(ScenarioKey::Rate("longHaulRate", "400Gbps").Help("their rate"));
        keys.push_back(
            ScenarioKey::Duration("longHaulDelay", "50us")
                .Help("their one-way delay (about 5 us per km of fibre: 50us is 10 km)"));
        keys.push_back(ScenarioKey::Bytes("dciBufferSize", "0")
                           .Help("buffer of the DCI (border) switches, deep-buffer routers "
                                 "(0: switch.bufferSize, as every switch)"));
    }
    else if (kind == "torus")
    {
        keys.push_back(ScenarioKey::IntList("dimensions", JsonValue::array({4, 4}), 2, 1024)
                           .Help("the size of each of its 2 or 3 dimensions"));
        keys.push_back(ScenarioKey::Int("hostsPerSwitch", 1, 1, 64).Help("hosts on each switch"));
        keys.push_back(ScenarioKey::Bool("dateline", true)
                           .Help("a dateline priority (VL) per dimension: deadlock-free "
                                 "dimension-order routes"));
    }
    return keys;
}

/// Whether an IB link of 1, 2, 4, 8 or 12 lanes of some speed has this data rate.
bool
IsInfiniBandRate(DataRate rate)
{
    for (uint32_t width : {1u, 2u, 4u, 8u, 12u})
    {
        for (int s = IbNetDevice::SDR; s <= IbNetDevice::XDR; ++s)
        {
            if (IbNetDevice::LinkRate(static_cast<IbNetDevice::Speed>(s), width) == rate)
            {
                return true;
            }
        }
    }
    return false;
}

} // namespace

std::string
ResolveTcpCongestionControl(const std::string& parameter, const std::string& name)
{
    static const std::map<std::string, std::string> shortNames = {{"newreno", "ns3::TcpNewReno"},
                                                                  {"cubic", "ns3::TcpCubic"},
                                                                  {"dctcp", "ns3::TcpDctcp"},
                                                                  {"bic", "ns3::TcpBic"},
                                                                  {"bbr", "ns3::TcpBbr"},
                                                                  {"vegas", "ns3::TcpVegas"}};
    auto it = shortNames.find(name);
    const std::string typeName = it != shortNames.end() ? it->second : name;
    if (!IwarpHelper::IsCongestionControl(typeName))
    {
        InterconnectConfigError(parameter,
                                name,
                                "newreno, cubic, dctcp, bic, bbr, vegas, or the TypeId name of an "
                                "ns-3 TcpCongestionOps (" +
                                    IwarpHelper::CongestionControlNames() + ")");
    }
    return typeName;
}

namespace
{

/// The keys of a workload of a kind: "kind" and "start", then the kind's own.
std::vector<Key>
WorkloadKeys(const std::string& kind)
{
    std::vector<Key> keys = {ScenarioKey::Choice("kind", "poisson", WorkloadKind::GetNames())
                                 .Help("the workload; its keys follow"),
                             ScenarioKey::Duration("start", "0s").Help("when it starts")};
    const std::vector<Key> own = WorkloadKind::Find(kind)->GetKeys();
    keys.insert(keys.end(), own.begin(), own.end());
    return keys;
}

/// The scenario's top-level keys: the run's own, then the sections.
std::vector<Key>
RootKeys()
{
    return {
        ScenarioKey::Text("name", "").Help("the run's name (default: the file's): results/NAME"),
        ScenarioKey::Int("seed", 1, 1, 2147483647).Help("ns-3's RngSeedManager seed"),
        ScenarioKey::Int("run", 1, 0, 2147483647).Help("ns-3's run number (independent draws)"),
        ScenarioKey::Duration("stopTime", "20ms", 1).Help("the simulation ends there"),
        Key{"fabric", Type::STRING, JsonValue::object(), 0, 0, {}, {}, {}},
        Key{"link", Type::STRING, JsonValue::object(), 0, 0, {}, {}, {}},
        Key{"switch", Type::STRING, JsonValue::object(), 0, 0, {}, {}, {}},
        Key{"nic", Type::STRING, JsonValue::object(), 0, 0, {}, {}, {}},
        Key{"tcp", Type::STRING, JsonValue::object(), 0, 0, {}, {}, {}},
        Key{"ib", Type::STRING, JsonValue::object(), 0, 0, {}, {}, {}},
        Key{"sharp", Type::STRING, JsonValue::object(), 0, 0, {}, {}, {}},
        Key{"server", Type::STRING, JsonValue::object(), 0, 0, {}, {}, {}},
        Key{"faults", Type::STRING, JsonValue::object(), 0, 0, {}, {}, {}},
        Key{"workloads", Type::STRING, JsonValue::array(), 0, 0, {}, {}, {}},
        Key{"output", Type::STRING, JsonValue::object(), 0, 0, {}, {}, {}},
        Key{"parallel", Type::STRING, JsonValue::object(), 0, 0, {}, {}, {}},
        Key{"attributes", Type::STRING, JsonValue::object(), 0, 0, {}, {}, {}},
        Key{"recorded", Type::STRING, JsonValue::object(), 0, 0, {}, {}, {}}};
}

/// The link section.
std::vector<Key>
LinkKeys()
{
    return {ScenarioKey::Choice("technology", "roce", {"roce", "iwarp", "infiniband"})
                .Help("RoCEv2 over PFC Ethernet, iWARP over ns-3 TCP, or native InfiniBand (with "
                      "IB link rates)"),
            ScenarioKey::Int("mtu", 1024, 256, 4096)
                .Help("IBTA path MTU: 256, 512, 1024, 2048 or 4096 payload bytes")
                .Sets("ns3::RdmaQueuePair::Mtu")
                .Sets("ns3::IbNetDevice::Mtu", false),
            ScenarioKey::Int("linkMtu", 0, 0, 9216)
                .Help("link MTU, bytes (0: path MTU + 100, at least 1500)")
                .Sets("ns3::PfcNetDevice::Mtu", false)};
}

/// The switch section.
std::vector<Key>
SwitchKeys()
{
    return {ScenarioKey::Bytes("bufferSize", "12MB", 1)
                .Help("shared buffer of each switch")
                .Sets("ns3::RoceSwitchMmu::BufferSize"),
            ScenarioKey::Bool("pfc", true)
                .Help("PFC on the RDMA priority (3)")
                .Sets("ns3::RoceSwitchMmu::PfcEnabled"),
            ScenarioKey::Number("pfcAlpha", 0.125, 1.0 / 128, 64)
                .Help("dynamic threshold: XOFF at alpha x free buffer")
                .Sets("ns3::RoceSwitchMmu::PfcAlpha"),
            ScenarioKey::Duration("pfcWatchdog", "0s")
                .Help("PFC watchdog on the switch ports: a priority paused this long while "
                      "frames wait is declared stormed and its frames dropped (0s: off)")
                .Sets("ns3::PfcNetDevice::PfcWatchdogTime", false),
            ScenarioKey::Duration("pfcWatchdogRestore", "1ms", 1)
                .Help("the watchdog restores a priority its peer has not paused this long")
                .Sets("ns3::PfcNetDevice::PfcWatchdogRestoreTime", false),
            ScenarioKey::Bool("ecn", true)
                .Help("RED/ECN marking at enqueue")
                .Sets("ns3::RoceSwitchMmu::EcnEnabled"),
            ScenarioKey::Bytes("ecnKmin", "5KB")
                .Help("queue at which marking starts")
                .Sets("ns3::RoceSwitchMmu::EcnKmin"),
            ScenarioKey::Bytes("ecnKmax", "200KB")
                .Help("queue at which it reaches ecnPmax")
                .Sets("ns3::RoceSwitchMmu::EcnKmax"),
            ScenarioKey::Number("ecnPmax", 0.01, 0, 1)
                .Help("marking probability at ecnKmax")
                .Sets("ns3::RoceSwitchMmu::EcnPmax"),
            ScenarioKey::Choice("ecmp", "flow-hash", {"flow-hash", "packet-spray"})
                .Help("ECMP: a path per 5-tuple, or per packet")
                .Sets("ns3::RoceSwitch::EcmpMode", false),
            ScenarioKey::Bool("trimming", false)
                .Help("trim RoCEv2 data the buffer would drop to its headers and forward them "
                      "ahead of data (NDP, UEC 1.0): the receiver NAKs the PSN at once")
                .Sets("ns3::RoceSwitch::Trimming"),
            ScenarioKey::Bytes("trimThreshold", "0B")
                .Help("with trimming, also trim above this egress queue (0B: only what the "
                      "buffer would drop)")
                .Sets("ns3::RoceSwitch::TrimThreshold"),
            ScenarioKey::Duration("latency", "0s")
                .Help("forwarding latency")
                .Sets("ns3::RoceSwitch::ForwardingLatency")
                .Sets("ns3::IbSwitch::ForwardingLatency", false)};
}

/// The nic section (cc and cnpInterval default to the link technology's, in Parse).
std::vector<Key>
NicKeys()
{
    return {ScenarioKey::Text("cc", "dcqcn")
                .Help("congestion control on any RDMA link: none, dcqcn, hpcc, timely, dctcp, "
                      "nscc, ib-cc or a TypeId name (infiniband: ib-cc by default)")
                .Sets("ns3::RdmaNic::CongestionControl", false)
                .Sets("ns3::IbHostAdapter::CongestionControl", false),
            ScenarioKey::Text("ccLibrary", "")
                .Help("a shared library loaded before the scenario is checked, whose TypeIds "
                      "nic.cc and attributes may name (a congestion control of one's own; its "
                      "code runs in the runner); a relative path starts at the scenario file's "
                      "folder, and is recorded absolute"),
            ScenarioKey::Choice("dcqcnPreset", "paper", {"paper", "hpcc-sim"})
                .Help("DCQCN's parameters: the paper's, or the HPCC simulator's reaction point"),
            ScenarioKey::Duration("cnpInterval", "50us")
                .Help("CNP pacing per queue pair (ib-cc: 0s, every FECN answered)")
                .Sets("ns3::RdmaNic::CnpInterval")
                .Sets("ns3::IbHostAdapter::CnpInterval", false),
            ScenarioKey::Int("ackInterval", 1, 1, 1024)
                .Help("ACK coalescing: packets per ACK")
                .Sets("ns3::RdmaQueuePair::AckInterval"),
            ScenarioKey::Duration("retransmitTimeout", "1ms", 1)
                .Help("go-back-N timeout")
                .Sets("ns3::RdmaQueuePair::RetransmitTimeout", false),
            ScenarioKey::Bool("outOfOrderReceive", false)
                .Help("place packets past a gap (use it with packet-spray)")
                .Sets("ns3::RdmaQueuePair::OutOfOrderReceive"),
            ScenarioKey::Choice("transport", "gbn", {"gbn", "irn", "uet"})
                .Help("loss recovery: gbn (IBTA go-back-N), irn (IRN's selective repeat, "
                      "for fabrics without PFC; RoCE and InfiniBand) or uet (an Ultra "
                      "Ethernet-style transport: per-packet spraying, selective ACK; RoCE)")
                .Sets("ns3::RdmaQueuePair::Transport"),
            ScenarioKey::Int("sprayEntropies", 256, 1, 16384)
                .Help("uet: entropy values a queue pair cycles through, one per packet (1: "
                      "one path)")
                .Sets("ns3::RdmaQueuePair::SprayEntropies"),
            ScenarioKey::Int("uetLossThreshold", 64, 1, 1 << 16)
                .Help("uet: a PSN is lost once one this many above it was acknowledged")
                .Sets("ns3::RdmaQueuePair::UetLossThreshold"),
            ScenarioKey::Duration("nsccBaseRtt", "0s")
                .Help("nscc: the base round trip every queue pair aims from (0s: the "
                      "fabric's longest path, as UEC's config_base_rtt)")
                .Sets("ns3::NsccCongestionControl::BaseRtt", false),
            ScenarioKey::Int("ackDscp", 64, 0, 64)
                .Help("DSCP of ACKs and NAKs, and so their priority (DSCP / 8); 64: the data's "
                      "(uet with nscc wants them ahead of data)")
                .Sets("ns3::RdmaNic::AckDscp"),
            ScenarioKey::Duration("irnRtoLow", "100us", 1)
                .Help("irn: the timeout while at most irnRtoLowPackets are in flight")
                .Sets("ns3::RdmaQueuePair::IrnRtoLow"),
            ScenarioKey::Int("irnRtoLowPackets", 3, 0, 1 << 20)
                .Help("irn: in flight at most this many packets, irnRtoLow applies")
                .Sets("ns3::RdmaQueuePair::IrnRtoLowPackets"),
            ScenarioKey::Text("maxOutstanding", "auto")
                .Help("packets a queue pair keeps in flight at most: none, bdp (the "
                      "bandwidth-delay product of the longest path, IRN's BDP-FC), a count, "
                      "or auto (bdp with irn, none with gbn)")
                .Sets("ns3::RdmaQueuePair::MaxOutstandingPackets", false),
            ScenarioKey::Text("queuePairs", "auto")
                .Help("auto (a queue pair, or iWARP connection, per message of poisson, incast "
                      "and permutation; one per endpoint pair for collectives), or for all "
                      "workloads per-flow, per-host-pair, or N per host pair and priority taken "
                      "in turn (1..65536)")};
}

/// The faults section: what goes wrong during the run.
std::vector<Key>
FaultKeys()
{
    return {ScenarioKey::Int("pauseStormHost", -1, -1, 1 << 24)
                .Help("a host whose NIC sends PFC pauses without a break (a pause storm), or "
                      "-1 for none"),
            ScenarioKey::Int("pauseStormPriority", 3, 0, 7).Help("the priority it pauses"),
            ScenarioKey::Duration("pauseStormStart", "0s").Help("when the storm starts"),
            ScenarioKey::Duration("pauseStormStop", "0s")
                .Help("when it stops (0s: it lasts to the end)")};
}

/// The tcp section (iWARP).
std::vector<Key>
TcpKeys()
{
    return {
        ScenarioKey::Text("cc", "dctcp")
            .Help("iwarp: newreno, cubic, dctcp, bic, bbr, vegas or a TypeId name"),
        ScenarioKey::Int("segmentSize", 1448, 128, 9000)
            .Help("bytes; at most link MTU - 52")
            .Sets("ns3::TcpSocket::SegmentSize", false),
        ScenarioKey::Bytes("sendBuffer", "4MB", 1)
            .Help("TCP send buffer")
            .Sets("ns3::TcpSocket::SndBufSize", false),
        ScenarioKey::Bytes("receiveBuffer", "4MB", 1)
            .Help("TCP receive buffer")
            .Sets("ns3::TcpSocket::RcvBufSize", false),
        ScenarioKey::Duration("minRto", "1ms", 1)
            .Help("TCP's minimum RTO")
            .Sets("ns3::TcpSocketBase::MinRto", false),
        ScenarioKey::Bool("markers", false).Help("MPA markers").Sets("ns3::IwarpSocket::Markers"),
        ScenarioKey::Bool("crc", true).Help("MPA CRC32c").Sets("ns3::IwarpSocket::Crc"),
        ScenarioKey::Int("priority", 0, 0, 7).Help("priority of the TCP packets")};
}

/// The ib section (InfiniBand).
std::vector<Key>
IbKeys()
{
    return {ScenarioKey::Int("sl", 0, 0, 15)
                .Help("service level of the messages (0 or 1 on a torus with auto routing)"),
            ScenarioKey::Int("lmc", 0, 0, 7).Help("LID mask control: 2^lmc paths per host"),
            ScenarioKey::Int("bufferBlocks", 1024, 1, 1 << 20)
                .Help("receive buffer per VL, 64-byte blocks")
                .Sets("ns3::IbNetDevice::ReceiveBufferBlocks"),
            ScenarioKey::Bytes("fecnThreshold", "0")
                .Help("bytes queued from which switches mark FECN (0: IB CC off)")
                .Sets("ns3::IbSwitch::FecnThreshold"),
            ScenarioKey::Bool("cutThrough", false)
                .Help("virtual cut-through switches")
                .Sets("ns3::IbSwitch::CutThrough"),
            ScenarioKey::Choice("routing", "auto", {"auto", "up-down"})
                .Help("auto: min-hop on Clos, dimension order with VL datelines on tori"),
            ScenarioKey::Bool("longHaulExtenders", false)
                .Help("two-dc: long-haul extenders on the long hauls (32-bit credits, a receive "
                      "buffer of the cable's round trip), else their ports' credits are a "
                      "data centre's")
                .Sets("ns3::IbNetDevice::Extender", false)};
}

/// The SHARP section: the switches' aggregation nodes (InfiniBand or RoCE).
std::vector<Key>
SharpKeys()
{
    return {ScenarioKey::Int("units", 8, 1, 1 << 16)
                .Help("aggregation units of a switch (jobs at once; more fall back to the ring)")
                .Sets("ns3::SharpAggregationNode::Units"),
            ScenarioKey::Bytes("bufferSize", "4MiB", 1)
                .Help("aggregation buffer of a switch, shared by its jobs")
                .Sets("ns3::SharpAggregationNode::BufferSize"),
            ScenarioKey::Text("aggregationRate", "line")
                .Help("data rate a unit reduces at (line: the faster of fabric.hostRate and "
                      "fabric.fabricRate)")
                .Sets("ns3::SharpAggregationNode::AggregationRate", false),
            ScenarioKey::Int("window", 64, 1, 1 << 20)
                .Help("chunks a member may have outstanding; a job reserves this many chunks of "
                      "buffer on every switch of its tree")};
}

/// The server section (GPU servers; the presets by name).
std::vector<Key>
ServerKeys()
{
    std::vector<std::string> presets = {"none"};
    for (const auto& p : IntraHostHelper::PresetNames())
    {
        presets.push_back(p);
    }
    return {ScenarioKey::Choice("preset", "none", presets)
                .Help("a GPU server behind each group of NICs (none: a host is one GPU)"),
            ScenarioKey::Bool("gpuDirect", true)
                .Help("GPUDirect RDMA; false: staged through host memory"),
            ScenarioKey::Int("pcieGeneration", 0, 0, 6).Help("0: the preset's"),
            ScenarioKey::Int("nvlinksPerGpu", -1, -1, 36).Help("-1: the preset's")};
}

/// The output section.
std::vector<Key>
OutputKeys()
{
    return {
        ScenarioKey::Duration("queueInterval", "10us", 1).Help("queue sampling interval"),
        ScenarioKey::Choice("queues", "host-ports", {"none", "host-ports", "all"})
            .Help("which switch ports' queues queue.csv samples (host-ports: facing hosts)"),
        ScenarioKey::Bool("plots", true).Help("make the figures after the run"),
        ScenarioKey::Bool("ccState", false)
            .Help("write cc.csv: every change of a connection's rate, window or gap"),
        ScenarioKey::Duration("deadlockCheck", "0s")
            .Help("look for PFC deadlocks (cycles of paused switch queues that hold frames) "
                  "this often while the run goes, and report them (0s: never)"),
        ScenarioKey::IntList(
            "sizeBuckets",
            JsonValue::array(
                {1000, 3000, 10000, 30000, 100000, 300000, 1000000, 3000000, 10000000, 30000000}),
            1,
            static_cast<double>(uint64_t{1} << 40))
            .Help("flow-size bucket edges in bytes, increasing (at most 64)")};
}

/// The parallel section.
std::vector<Key>
ParallelKeys()
{
    return {ScenarioKey::Int("ranks", 1, 1, 65536)
                .Help("MPI processes; above 1 needs setup-mpi (see Distributed runs)"),
            ScenarioKey::Choice("partition", "auto", {"auto", "group", "slab", "given"})
                .Help("how nodes are split over ranks"),
            ScenarioKey::IntList("given", JsonValue::array(), 0, 65535)
                .Help("the rank of every node id, with partition given"),
            ScenarioKey::Choice("simulator",
                                "granted-time-window",
                                {"granted-time-window", "null-message"})
                .Help("ns-3's distributed synchronisation")};
}

/// Deepest nesting of objects and lists a scenario may have: nlohmann's copy, dump and
/// destruction recurse once per level, and 10^5 levels overflow the stack.
constexpr int MAX_DEPTH = 64;

/// Thrown by the parser callback when a value nests deeper than MAX_DEPTH.
struct TooDeep
{
};

/**
 * Parse JSON refusing deep nesting before it is built.
 * @param text the text
 * @param allowExceptions throw on a syntax error (false: return a discarded value)
 * @param comments allow comments
 * @return the value
 */
JsonValue
ParseShallow(const std::string& text, bool allowExceptions, bool comments)
{
    const JsonValue::parser_callback_t limit =
        [](int depth, nlohmann::json::parse_event_t /* event */, JsonValue& /* parsed */) {
            if (depth > MAX_DEPTH)
            {
                throw TooDeep();
            }
            return true;
        };
    return JsonValue::parse(text, limit, allowExceptions, comments);
}

/**
 * Load a plugin: a shared library whose TypeIds (registered as it loads) the scenario may name.
 * @param key the key that names it
 * @param path its path; a relative one is taken from the folder of the scenario file `origin`
 *        (from the working directory when `origin` is no file)
 * @param origin the scenario file
 * @return the absolute path, as the resolved scenario records it
 */
/// Scenario::AllowPlugins
bool g_pluginsAllowed = true;

std::string
LoadPlugin(const std::string& key, const std::string& path, const std::string& origin)
{
    namespace fs = std::filesystem;
    if (!g_pluginsAllowed)
    {
        InterconnectConfigError(key, path, "\"\" here (this program loads no plugins)");
    }
    std::error_code error;
    fs::path file(path);
    if (file.is_relative() && fs::is_regular_file(origin, error))
    {
        file = fs::absolute(origin, error).parent_path() / file;
    }
    file = fs::absolute(file, error).lexically_normal();
    if (!fs::is_regular_file(file, error))
    {
        InterconnectConfigError(key,
                                path,
                                "a shared library (.so) that exists: " + file.string() +
                                    " is no file");
    }
    // Kept loaded to the end of the program: its TypeIds point into it.
    if (dlopen(file.c_str(), RTLD_NOW | RTLD_GLOBAL) == nullptr)
    {
        const char* why = dlerror();
        InterconnectConfigError(key,
                                path,
                                "a shared library this program can load (" +
                                    std::string(why ? why : "dlopen failed") + ")");
    }
    return file.string();
}

/// A time key's value.
Time
TimeOf(const JsonValue& v)
{
    return Time(v.get<std::string>());
}

/**
 * What no single key's range can say: values that are each acceptable but not together, so
 * that a scenario the check passes is one the objects accept and that measures something.
 */
void
CheckAcrossKeys(const JsonValue& out)
{
    const Time stop = TimeOf(out["stopTime"]);
    // (A workload that starts after stopTime is allowed, as when a sweep cuts a run short; the
    // runner warns of it.)
    // The link MTU must carry a path-MTU packet with its IPv4, UDP, BTH, RETH and ICRC.
    const int64_t mtu = out["link"]["mtu"].get<int64_t>();
    const int64_t linkMtu = out["link"]["linkMtu"].get<int64_t>();
    if (linkMtu != 0 && linkMtu < mtu + 60)
    {
        InterconnectConfigError("link.linkMtu",
                                std::to_string(linkMtu),
                                "0 (path MTU + 100, at least 1500) or from " +
                                    std::to_string(mtu + 60) +
                                    " (link.mtu + 60 bytes of IPv4, UDP, BTH, RETH and ICRC) "
                                    "to 9216");
    }
    // An InfiniBand VL's receive buffer must hold one path-MTU packet (LRH, BTH, RETH, ICRC
    // and VCRC around it): credits for less never let it go.
    const int64_t blocks = out["ib"]["bufferBlocks"].get<int64_t>();
    if (out["link"]["technology"] == "infiniband" && blocks < (mtu + 42 + 63) / 64)
    {
        InterconnectConfigError("ib.bufferBlocks",
                                std::to_string(blocks),
                                "at least " + std::to_string((mtu + 42 + 63) / 64) +
                                    " (one packet of link.mtu " + std::to_string(mtu) +
                                    " bytes in 64-byte blocks)");
    }
    // TCP's buffers must hold a segment.
    const int64_t segment = out["tcp"]["segmentSize"].get<int64_t>();
    for (const char* key : {"sendBuffer", "receiveBuffer"})
    {
        const JsonValue& v = out["tcp"][key];
        const uint64_t bytes = v.is_string() ? CommandLineValues::Bytes(std::string("tcp.") + key,
                                                                        v.get<std::string>())
                                             : v.get<uint64_t>();
        if (bytes < static_cast<uint64_t>(segment))
        {
            InterconnectConfigError(std::string("tcp.") + key,
                                    out["tcp"][key].dump(),
                                    "at least tcp.segmentSize (" + std::to_string(segment) +
                                        " bytes)");
        }
    }
    // Queue samples are kept in memory until the end: a million per queue at most.
    const Time interval = TimeOf(out["output"]["queueInterval"]);
    if (out["output"]["queues"].get<std::string>() != "none" &&
        stop.GetTimeStep() / interval.GetTimeStep() > 1000000)
    {
        InterconnectConfigError("output.queueInterval",
                                out["output"]["queueInterval"].get<std::string>(),
                                "at least stopTime / 1e6 (" +
                                    std::to_string(stop.GetTimeStep() / 1000000) +
                                    " ns here), or output.queues \"none\"");
    }
    for (std::size_t i = 0; i < out["workloads"].size(); ++i)
    {
        const JsonValue& w = out["workloads"][i];
        const std::string path = "workloads." + std::to_string(i) + ".";
        const Time start = TimeOf(w["start"]);
        if (w["kind"] == "poisson" && TimeOf(w["stop"]) <= start)
        {
            InterconnectConfigError(path + "stop",
                                    w["stop"].get<std::string>(),
                                    "a time after workloads." + std::to_string(i) + ".start (" +
                                        w["start"].get<std::string>() + ")");
        }
        if (w["kind"] == "moe")
        {
            MoeTraffic::ParsePopularity(path + "popularity", w["popularity"].get<std::string>());
        }
    }
}

/// Apply one "a.b.c=value" override.
void
ApplySet(JsonValue& root, const std::string& set)
{
    const std::size_t eq = set.find('=');
    if (eq == std::string::npos || eq == 0)
    {
        InterconnectConfigError("--set", set, "path.to.key=value, e.g. fabric.k=8");
    }
    const std::string path = set.substr(0, eq);
    const std::string text = set.substr(eq + 1);
    JsonValue value;
    try
    {
        value = ParseShallow(text, false, false);
    }
    catch (const nlohmann::json::exception&)
    {
        value = JsonValue(); // e.g. a number beyond a double's range: taken as text below
        value = JsonValue::value_t::discarded;
    }
    catch (const TooDeep&)
    {
        InterconnectConfigError("--set",
                                path,
                                "a value nested at most " + std::to_string(MAX_DEPTH) +
                                    " levels deep");
    }
    if (value.is_discarded())
    {
        value = text; // not JSON: a string
    }
    JsonValue* node = &root;
    std::istringstream parts(path);
    std::string part;
    std::vector<std::string> segments;
    while (std::getline(parts, part, '.'))
    {
        segments.push_back(part);
    }
    for (std::size_t i = 0; i < segments.size(); ++i)
    {
        const std::string& s = segments[i];
        const bool last = i + 1 == segments.size();
        if (node->is_array())
        {
            char* end = nullptr;
            const unsigned long index = std::strtoul(s.c_str(), &end, 10);
            if (s.empty() || *end != '\0' || index >= node->size())
            {
                InterconnectConfigError("--set " + path,
                                        s,
                                        "an index below " + std::to_string(node->size()));
            }
            node = &(*node)[index];
        }
        else
        {
            if (!node->is_object())
            {
                *node = JsonValue::object();
            }
            node = &(*node)[s];
        }
        if (last)
        {
            *node = value;
        }
    }
}

} // namespace

Scenario
Scenario::Load(const std::string& path, const std::vector<std::string>& sets)
{
    std::ifstream in(path);
    if (!in)
    {
        InterconnectConfigError("scenario", path, "a readable scenario file (JSON)");
    }
    std::ostringstream text;
    text << in.rdbuf();
    Scenario s = Parse(text.str(), path, sets);
    if (s.m_json["name"].get<std::string>().empty())
    {
        s.m_json["name"] = std::filesystem::path(path).stem().string();
    }
    return s;
}

int64_t
Scenario::ParseMaxOutstanding(const std::string& text)
{
    if (text == "none")
    {
        return 0;
    }
    if (text == "bdp")
    {
        return -1;
    }
    if (text == "auto")
    {
        return -2;
    }
    const int64_t limit = rdma::PSN_MASK / 2;
    // Digits only (std::stoll alone would take " 12" and "+12"), few enough not to overflow.
    const bool digits = !text.empty() && text.size() <= 9 &&
                        text.find_first_not_of("0123456789") == std::string::npos;
    const int64_t n = digits ? std::stoll(text) : 0;
    if (n < 1 || n > limit)
    {
        InterconnectConfigError("nic.maxOutstanding",
                                "\"" + text + "\"",
                                "auto (bdp with nic.transport irn, none with gbn), none, bdp (the "
                                "bandwidth-delay product of the longest path, in packets) or a "
                                "count of packets from 1 to " +
                                    std::to_string(limit));
    }
    return n;
}

Scenario
Scenario::Parse(const std::string& text,
                const std::string& origin,
                const std::vector<std::string>& sets)
{
    JsonValue given;
    try
    {
        given = ParseShallow(text, true, true); // comments allowed
    }
    catch (const nlohmann::json::parse_error& e)
    {
        InterconnectConfigError("scenario", origin, std::string("valid JSON (") + e.what() + ")");
    }
    catch (const nlohmann::json::exception& e)
    {
        // e.g. a number beyond a double's range
        InterconnectConfigError("scenario", origin, std::string("valid JSON (") + e.what() + ")");
    }
    catch (const TooDeep&)
    {
        InterconnectConfigError("scenario",
                                origin,
                                "JSON nested at most " + std::to_string(MAX_DEPTH) +
                                    " levels deep (a scenario needs four)");
    }
    if (!given.is_object())
    {
        InterconnectConfigError("scenario", origin, "a JSON object { ... }");
    }
    for (const auto& set : sets)
    {
        ApplySet(given, set);
    }

    const std::vector<Key> rootKeys = RootKeys();
    std::vector<std::string> rootNames;
    for (const auto& k : rootKeys)
    {
        rootNames.emplace_back(k.name);
    }
    for (auto it = given.begin(); it != given.end(); ++it)
    {
        if (std::find(rootNames.begin(), rootNames.end(), it.key()) == rootNames.end())
        {
            InterconnectConfigError(it.key(),
                                    it.value().dump(),
                                    "no such key; the sections are " + Join(rootNames));
        }
    }
    Scenario s;
    JsonValue& out = s.m_json;
    out = JsonValue::object();
    for (std::size_t i = 0; i < 4; ++i)
    {
        const Key& k = rootKeys[i];
        out[k.name] = given.contains(k.name) ? Check(k.name, k, given[k.name]) : k.def;
    }

    const JsonValue fabric = given.value("fabric", JsonValue::object());
    if (fabric.is_object() && fabric.contains("kind"))
    {
        // The kind first: it decides which other keys there are.
        Check("fabric.kind", FabricKeys("")[0], fabric["kind"]);
    }
    const std::string kind =
        fabric.is_object() && fabric.contains("kind") && fabric["kind"].is_string()
            ? fabric["kind"].get<std::string>()
            : "fat-tree";
    out["fabric"] = CheckObject("fabric", fabric, FabricKeys(kind));
    if (kind == "torus" &&
        (out["fabric"]["dimensions"].size() < 2 || out["fabric"]["dimensions"].size() > 3))
    {
        InterconnectConfigError("fabric.dimensions",
                                out["fabric"]["dimensions"].dump(),
                                "a list of 2 or 3 sizes (a 2D or 3D torus)");
    }
    if ((kind == "fat-tree" || kind == "two-dc") && out["fabric"]["k"].get<int64_t>() % 2 != 0)
    {
        InterconnectConfigError("fabric.k", out["fabric"]["k"].dump(), "an even integer >= 2");
    }

    out["link"] = CheckObject("link", given.value("link", JsonValue::object()), LinkKeys());
    const int64_t mtu = out["link"]["mtu"].get<int64_t>();
    if (mtu != 256 && mtu != 512 && mtu != 1024 && mtu != 2048 && mtu != 4096)
    {
        InterconnectConfigError("link.mtu", std::to_string(mtu), "256, 512, 1024, 2048 or 4096");
    }

    out["switch"] = CheckObject("switch", given.value("switch", JsonValue::object()), SwitchKeys());

    JsonValue nic = given.value("nic", JsonValue::object());
    if (nic.is_object() && nic.contains("queuePairs") && nic["queuePairs"].is_number_integer())
    {
        nic["queuePairs"] = nic["queuePairs"].dump(); // a count, as "4"
    }
    if (nic.is_object() && nic.contains("maxOutstanding") &&
        nic["maxOutstanding"].is_number_integer())
    {
        nic["maxOutstanding"] = nic["maxOutstanding"].dump(); // a count, as "110"
    }
    // The congestion control defaults to each technology's own: DCQCN on RoCEv2, IB congestion
    // control on InfiniBand (whose notification point answers every FECN, IBTA annex A10, so
    // its CNP interval defaults to 0). Either runs on either link.
    const bool ibLink = out["link"]["technology"].get<std::string>() == "infiniband";
    if (nic.is_object() && !nic.contains("cc"))
    {
        nic["cc"] = ibLink ? "ib-cc" : "dcqcn";
    }
    const bool ibCc = nic.is_object() && nic["cc"].is_string() &&
                      (nic["cc"] == "ib-cc" || nic["cc"] == "ns3::IbCongestionControl");
    if (nic.is_object() && !nic.contains("cnpInterval") && ibCc)
    {
        nic["cnpInterval"] = "0s";
    }
    out["nic"] = CheckObject("nic", nic, NicKeys());
    if (!out["nic"]["ccLibrary"].get<std::string>().empty())
    {
        out["nic"]["ccLibrary"] =
            LoadPlugin("nic.ccLibrary", out["nic"]["ccLibrary"].get<std::string>(), origin);
    }
    RdmaCongestionControl::ResolveName("nic.cc", out["nic"]["cc"].get<std::string>());
    QueuePairMapping mapping;
    if (out["nic"]["queuePairs"] != "auto" &&
        !QueuePairMapping::Parse(out["nic"]["queuePairs"].get<std::string>(), &mapping))
    {
        InterconnectConfigError("nic.queuePairs",
                                out["nic"]["queuePairs"].dump(),
                                "auto (a queue pair per message of poisson, incast and "
                                "permutation workloads, one connection per endpoint pair for "
                                "collectives), or for all workloads " +
                                    QueuePairMapping::Accepted());
    }

    ParseMaxOutstanding(out["nic"]["maxOutstanding"].get<std::string>()); // checks it
    if (out["nic"]["transport"] == "irn" && out["link"]["technology"] == "iwarp")
    {
        InterconnectConfigError("nic.transport",
                                "\"irn\"",
                                "gbn with link.technology iwarp (TCP recovers iWARP's losses); "
                                "irn with roce or infiniband");
    }
    if (out["nic"]["transport"] == "uet" && out["link"]["technology"] != "roce")
    {
        InterconnectConfigError("nic.transport",
                                "\"uet\"",
                                "uet with link.technology roce (it sprays by the UDP source "
                                "port); gbn with iwarp; gbn or irn with infiniband");
    }

    // iWARP's TCP (link.technology "iwarp"; kept but unused with "roce", so that one value
    // switches a scenario between the two).
    out["tcp"] = CheckObject("tcp", given.value("tcp", JsonValue::object()), TcpKeys());
    ResolveTcpCongestionControl("tcp.cc", out["tcp"]["cc"].get<std::string>());
    if (out["link"]["technology"].get<std::string>() == "iwarp")
    {
        const int64_t linkMtu = out["link"]["linkMtu"].get<int64_t>();
        const int64_t segment = out["tcp"]["segmentSize"].get<int64_t>();
        const int64_t device = linkMtu ? linkMtu : std::max<int64_t>(1500, mtu + 100);
        if (segment + 52 > device)
        {
            InterconnectConfigError("tcp.segmentSize",
                                    std::to_string(segment),
                                    "at most the link MTU (" + std::to_string(device) +
                                        ") less 52 bytes of IPv4 and TCP headers with timestamps");
        }
    }

    // InfiniBand (link.technology "infiniband"; kept but unused otherwise).
    out["ib"] = CheckObject("ib", given.value("ib", JsonValue::object()), IbKeys());
    out["sharp"] = CheckObject("sharp", given.value("sharp", JsonValue::object()), SharpKeys());
    if (out["sharp"]["aggregationRate"] != "line")
    {
        CommandLineValues::Rate("sharp.aggregationRate",
                                out["sharp"]["aggregationRate"].get<std::string>());
    }
    if (out["link"]["technology"].get<std::string>() == "infiniband")
    {
        const JsonValue& dci = out["fabric"].value("dciBufferSize", JsonValue(0));
        if (kind != "two-dc" && out["ib"]["longHaulExtenders"].get<bool>())
        {
            InterconnectConfigError("ib.longHaulExtenders",
                                    "true",
                                    "false unless fabric.kind is two-dc (they sit on its long "
                                    "hauls)");
        }
        if (kind == "two-dc" && (dci.is_string() ? CommandLineValues::Bytes("fabric.dciBufferSize",
                                                                            dci.get<std::string>())
                                                 : dci.get<uint64_t>()) > 0)
        {
            InterconnectConfigError("fabric.dciBufferSize",
                                    out["fabric"]["dciBufferSize"].dump(),
                                    "0 with link.technology infiniband (an InfiniBand port's "
                                    "buffer is its credits: ib.bufferBlocks)");
        }
        if (kind == "torus" && out["ib"]["routing"].get<std::string>() == "auto" &&
            out["ib"]["sl"].get<int64_t>() > 1)
        {
            // On a torus the SL's bits 0-2 carry the dateline crossings (torus-2QoS).
            InterconnectConfigError("ib.sl",
                                    out["ib"]["sl"].dump(),
                                    "0 or 1 on a torus (the QoS class; the other SL bits record "
                                    "the datelines a path crosses)");
        }
        for (const char* key : {"hostRate", "fabricRate"})
        {
            const DataRate rate(out["fabric"][key].get<std::string>());
            if (!IsInfiniBandRate(rate))
            {
                InterconnectConfigError(std::string("fabric.") + key,
                                        out["fabric"][key].get<std::string>(),
                                        "an InfiniBand link's data rate with link.technology "
                                        "infiniband, e.g. 100Gbps (EDR 4x), 200Gbps (HDR 4x), "
                                        "400Gbps (NDR 4x), 800Gbps (XDR 4x)");
            }
        }
    }

    out["server"] = CheckObject("server", given.value("server", JsonValue::object()), ServerKeys());
    out["faults"] = CheckObject("faults", given.value("faults", JsonValue::object()), FaultKeys());
    if (out["faults"]["pauseStormHost"].get<int64_t>() >= 0 &&
        out["link"]["technology"].get<std::string>() == "infiniband")
    {
        InterconnectConfigError("faults.pauseStormHost",
                                out["faults"]["pauseStormHost"].dump(),
                                "-1 with link.technology infiniband (credits, not PFC pauses); a "
                                "host index with roce or iwarp");
    }
    {
        const Time start = TimeOf(out["faults"]["pauseStormStart"]);
        const Time stop = TimeOf(out["faults"]["pauseStormStop"]);
        if (!stop.IsZero() && stop <= start)
        {
            InterconnectConfigError("faults.pauseStormStop",
                                    out["faults"]["pauseStormStop"].get<std::string>(),
                                    "0s (to the end) or a time after faults.pauseStormStart (" +
                                        out["faults"]["pauseStormStart"].get<std::string>() + ")");
        }
    }
    const bool gpuServers = out["server"]["preset"].get<std::string>() != "none";

    const JsonValue workloads = given.value("workloads", JsonValue::array());
    if (!workloads.is_array())
    {
        InterconnectConfigError("workloads", workloads.dump(), "a list of workload objects");
    }
    out["workloads"] = JsonValue::array();
    for (std::size_t i = 0; i < workloads.size(); ++i)
    {
        const std::string path = "workloads." + std::to_string(i);
        const JsonValue& w = workloads[i];
        if (!w.is_object() || !w.contains("kind") || !w["kind"].is_string())
        {
            InterconnectConfigError(path + ".kind",
                                    w.is_object() && w.contains("kind") ? w["kind"].dump()
                                                                        : "(none)",
                                    "one of " + Join(WorkloadKind::GetNames()));
        }
        if (!WorkloadKind::Find(w["kind"].get<std::string>()))
        {
            InterconnectConfigError(path + ".kind",
                                    w["kind"].dump(),
                                    "one of " + Join(WorkloadKind::GetNames()));
        }
        out["workloads"].push_back(
            CheckObject(path, w, WorkloadKeys(w["kind"].get<std::string>())));
        const JsonValue& checked = out["workloads"].back();
        if (checked.contains("algorithm") && checked["algorithm"] == "hierarchical" &&
            !gpuServers && checked["kind"] != "allreduce")
        {
            InterconnectConfigError(path + ".algorithm",
                                    "hierarchical",
                                    "direct, unless server.preset names a GPU server");
        }
        if (checked.contains("algorithm") &&
            (checked["algorithm"] == "nvls" || checked["algorithm"] == "nvls-sharp"))
        {
            const std::string preset = out["server"]["preset"].get<std::string>();
            if (preset != "dgx-h100" && preset != "nvl72")
            {
                InterconnectConfigError(path + ".algorithm",
                                        checked["algorithm"].get<std::string>(),
                                        "ring or hierarchical unless server.preset is dgx-h100 or "
                                        "nvl72 (NVLS needs an NVSwitch that reduces: third "
                                        "generation or later)");
            }
            if (checked["algorithm"] == "nvls-sharp" && out["link"]["technology"] == "iwarp")
            {
                InterconnectConfigError(path + ".algorithm",
                                        "nvls-sharp",
                                        "nvls, or nvls-sharp with link.technology infiniband or "
                                        "roce");
            }
        }
        if (checked.contains("algorithm") && checked["algorithm"] == "sharp" &&
            (out["link"]["technology"] == "iwarp" || gpuServers))
        {
            InterconnectConfigError(path + ".algorithm",
                                    "sharp",
                                    "ring, or sharp with link.technology infiniband or roce and "
                                    "server.preset none (SHARP runs in the switches, among "
                                    "hosts)");
        }
    }

    out["output"] = CheckObject("output", given.value("output", JsonValue::object()), OutputKeys());
    {
        const JsonValue& edges = out["output"]["sizeBuckets"];
        if (edges.size() > 64)
        {
            InterconnectConfigError("output.sizeBuckets",
                                    "a list of " + std::to_string(edges.size()) + " edges",
                                    "at most 64 flow-size bucket edges");
        }
        for (std::size_t i = 1; i < edges.size(); ++i)
        {
            if (edges[i].get<int64_t>() <= edges[i - 1].get<int64_t>())
            {
                InterconnectConfigError("output.sizeBuckets",
                                        edges.dump(),
                                        "flow-size bucket edges in bytes, increasing, e.g. "
                                        "[10000, 100000, 1000000]");
            }
        }
    }

    // Distributed runs on ns-3's MPI simulator (./interconnect run SCENARIO --ranks=N).
    out["parallel"] =
        CheckObject("parallel", given.value("parallel", JsonValue::object()), ParallelKeys());
    const int64_t ranks = out["parallel"]["ranks"].get<int64_t>();
    if (ranks > 1 && TimeOf(out["output"]["deadlockCheck"]).IsStrictlyPositive())
    {
        InterconnectConfigError("output.deadlockCheck",
                                out["output"]["deadlockCheck"].get<std::string>(),
                                "0s with parallel.ranks above 1 (the monitor sees one rank's "
                                "switches only)");
    }
    if (ranks > 1 && out["faults"]["pauseStormHost"].get<int64_t>() >= 0)
    {
        InterconnectConfigError("faults.pauseStormHost",
                                out["faults"]["pauseStormHost"].dump(),
                                "-1 with parallel.ranks above 1 (a storm runs on one rank only)");
    }
    if (ranks > 1)
    {
        const std::string technology = out["link"]["technology"].get<std::string>();
        if (technology == "iwarp")
        {
            InterconnectConfigError("parallel.ranks",
                                    std::to_string(ranks),
                                    "1 with link.technology iwarp (distributed runs carry RoCEv2 "
                                    "and InfiniBand links across ranks)");
        }
        if (gpuServers)
        {
            InterconnectConfigError("parallel.ranks",
                                    std::to_string(ranks),
                                    "1 with a server.preset (GPU servers are one rank's)");
        }
        for (std::size_t i = 0; i < out["workloads"].size(); ++i)
        {
            const std::string wk = out["workloads"][i]["kind"].get<std::string>();
            if (wk != "poisson" && wk != "incast" && wk != "permutation")
            {
                InterconnectConfigError(
                    "workloads." + std::to_string(i) + ".kind",
                    wk,
                    "poisson, incast or permutation with parallel.ranks > 1 (a collective starts "
                    "a phase when the last message of the one before completes, anywhere: a "
                    "zero-delay dependency between ranks)");
            }
        }
    }
    const std::string partition = out["parallel"]["partition"].get<std::string>();
    if ((partition == "given") != !out["parallel"]["given"].empty())
    {
        InterconnectConfigError("parallel.given",
                                out["parallel"]["given"].dump(),
                                partition == "given"
                                    ? "the rank of every node id, with partition \"given\""
                                    : "[] unless partition is \"given\"");
    }
    // Any ns-3 attribute's default, for what no key sets ("ns3::IbCongestionControl::CctiTimer":
    // "10us"): checked here by the attribute's own checker, set by the runner before the
    // network is built. Kept in the resolved scenario only when given.
    const JsonValue attributes = given.value("attributes", JsonValue::object());
    if (!attributes.is_object())
    {
        InterconnectConfigError("attributes",
                                attributes.dump(),
                                "an object of \"ns3::Class::Attribute\": value");
    }
    if (!attributes.empty())
    {
        out["attributes"] = JsonValue::object();
    }
    for (auto it = attributes.begin(); it != attributes.end(); ++it)
    {
        const std::string path = "attributes." + it.key();
        const JsonValue& v = it.value();
        if (!v.is_string() && !v.is_number() && !v.is_boolean())
        {
            InterconnectConfigError(path, v.dump(), "a string, a number or true/false");
        }
        const std::string value = v.is_string() ? v.get<std::string>() : v.dump();
        if (!AttributeDefaults::IsSettable(it.key(), value))
        {
            InterconnectConfigError(path,
                                    v.dump(),
                                    "an attribute of an ns-3 TypeId named by the class that "
                                    "declares it, ns3::Class::Attribute (--PrintAttributes="
                                    "ns3::Class lists them), settable at construction and not a "
                                    "pointer or object container, and a value its checker "
                                    "accepts");
        }
        out["attributes"][it.key()] = value;
    }
    // What a run wrote of itself into its config.json (ScenarioRunner::PrepareOutputs): the
    // build that made it and every attribute default it used. Not read back (the keys and
    // attributes above say what to run); kept aside, for the runner to compare with its build.
    const JsonValue recorded = given.value("recorded", JsonValue::object());
    if (!recorded.is_object())
    {
        InterconnectConfigError("recorded",
                                recorded.dump(),
                                "an object (what a run records of itself in config.json)");
    }
    for (const char* key : {"ns3Version", "moduleCommit"})
    {
        if (recorded.contains(key) && !recorded[key].is_string())
        {
            InterconnectConfigError(std::string("recorded.") + key,
                                    recorded[key].dump(),
                                    "text (as a run writes it)");
        }
    }
    s.m_recorded = recorded;

    CheckAcrossKeys(out);
    return s;
}

namespace
{

/// @param x a number @return it as the table shows it
std::string
Number(double x)
{
    char text[32];
    std::snprintf(text, sizeof(text), "%.10g", x);
    return text;
}

/// @param k a key @return what it accepts, for the key table
std::string
Accepted(const Key& k)
{
    const bool bounded = k.max != ScenarioKey::UNBOUNDED;
    switch (k.type)
    {
    case Type::INT:
        return "whole number " + Number(k.min) + (bounded ? ".." + Number(k.max) : " or more");
    case Type::NUMBER:
        return "number " + Number(k.min) + ".." + Number(k.max);
    case Type::BOOL:
        return "true, false";
    case Type::STRING:
        return k.choices.empty() ? "text" : Join(k.choices);
    case Type::BYTES:
        return "bytes (64KB, 1MiB or a whole number)" +
               (k.min > 0 ? ", at least " + Number(k.min) : std::string());
    case Type::RATE:
        return "rate (100Gbps, 25Gb/s)";
    case Type::TIME:
        return "time (10us, 1ms)" + (k.min > 0 ? std::string(", above 0") : std::string());
    case Type::INT_LIST:
        return "list of whole numbers " + Number(k.min) + ".." + Number(k.max);
    }
    return "";
}

/// Append a row of the key table.
void
KeyRow(std::ostringstream& os, const std::string& key, const Key& k, const std::string& note = "")
{
    std::string sets;
    for (const auto& [path, same] : k.attributes)
    {
        sets +=
            (sets.empty() ? "; sets ``" : ", ``") + path + "``" + (same ? "" : " (own default)");
    }
    os << "   * - ``" << key << "``" << note << "\n"
       << "     - ``" << k.def.dump() << "``\n"
       << "     - " << Accepted(k) << "\n"
       << "     - " << (k.help.empty() ? "-" : k.help) << sets << "\n";
}

} // namespace

namespace
{

/// A row of the key table: the key's path, a note on when it applies, the key.
struct KeyTableRow
{
    std::string path; //!< e.g. fabric.k
    std::string note; //!< e.g. " (fat-tree)"
    Key key;          //!< the key
};

/// Every key, in the table's order.
std::vector<KeyTableRow>
KeyTableRows()
{
    std::vector<KeyTableRow> rows;
    for (const Key& k : RootKeys())
    {
        if (!k.help.empty()) // (a section: its keys follow)
        {
            rows.push_back({k.name, "", k});
        }
    }
    const std::vector<Key> common = FabricKeys("");
    for (const Key& k : common)
    {
        rows.push_back({"fabric." + k.name, "", k});
    }
    for (const std::string& kind : FABRICS)
    {
        const std::vector<Key> keys = FabricKeys(kind);
        for (std::size_t i = common.size(); i < keys.size(); ++i)
        {
            rows.push_back({"fabric." + keys[i].name, " (" + kind + ")", keys[i]});
        }
    }
    const std::pair<const char*, std::vector<Key>> sections[] = {{"link", LinkKeys()},
                                                                 {"switch", SwitchKeys()},
                                                                 {"nic", NicKeys()},
                                                                 {"tcp", TcpKeys()},
                                                                 {"ib", IbKeys()},
                                                                 {"sharp", SharpKeys()},
                                                                 {"server", ServerKeys()},
                                                                 {"faults", FaultKeys()}};
    for (const auto& [section, keys] : sections)
    {
        for (const Key& k : keys)
        {
            rows.push_back({std::string(section) + "." + k.name, "", k});
        }
    }
    const std::vector<Key> workload = WorkloadKeys("poisson");
    for (std::size_t i = 0; i < 2; ++i)
    {
        rows.push_back({"workloads.N." + workload[i].name, "", workload[i]});
    }
    for (const std::string& kind : WorkloadKind::GetNames())
    {
        const std::vector<Key> keys = WorkloadKeys(kind);
        for (std::size_t i = 2; i < keys.size(); ++i)
        {
            rows.push_back({"workloads.N." + keys[i].name, " (" + kind + ")", keys[i]});
        }
    }
    const std::pair<const char*, std::vector<Key>> last[] = {{"output", OutputKeys()},
                                                             {"parallel", ParallelKeys()}};
    for (const auto& [section, keys] : last)
    {
        for (const Key& k : keys)
        {
            rows.push_back({std::string(section) + "." + k.name, "", k});
        }
    }
    return rows;
}

} // namespace

std::vector<std::pair<std::string, ScenarioKey>>
Scenario::AllKeys()
{
    std::vector<std::pair<std::string, ScenarioKey>> keys;
    for (const KeyTableRow& row : KeyTableRows())
    {
        keys.emplace_back(row.path, row.key);
    }
    return keys;
}

std::string
Scenario::KeyTable()
{
    std::ostringstream os;
    os << ".. list-table::\n"
       << "   :header-rows: 1\n"
       << "   :widths: 28 14 24 34\n\n"
       << "   * - Key\n"
       << "     - Default\n"
       << "     - Accepted\n"
       << "     - Meaning\n";
    for (const KeyTableRow& row : KeyTableRows())
    {
        KeyRow(os, row.path, row.key, row.note);
    }
    os << "   * - ``attributes``\n"
       << "     - ``{}``\n"
       << "     - ``\"ns3::Class::Attribute\": value``\n"
       << "     - any ns-3 attribute's default, checked by its checker (a key's own value wins); "
          "``--ns3::Class::Attribute=value`` on the command line is the same\n"
       << "   * - ``recorded``\n"
       << "     - ``{}``\n"
       << "     - (written by the runner)\n"
       << "     - in config.json: the ns-3 version and module commit of the build, and every "
          "attribute default the run used that is not its TypeId's; not read back\n";
    return os.str();
}

std::string
Scenario::ToJson() const
{
    return m_json.dump(2) + "\n";
}

const nlohmann::ordered_json&
Scenario::Json() const
{
    return m_json;
}

const nlohmann::ordered_json&
Scenario::At(const std::string& path) const
{
    const nlohmann::ordered_json* node = &m_json;
    std::istringstream parts(path);
    std::string part;
    while (std::getline(parts, part, '.'))
    {
        if (node->is_array())
        {
            node = &node->at(std::stoul(part));
        }
        else
        {
            node = &node->at(part);
        }
    }
    return *node;
}

void
Scenario::AllowPlugins(bool allowed)
{
    g_pluginsAllowed = allowed;
}

const nlohmann::ordered_json&
Scenario::Recorded() const
{
    return m_recorded;
}

bool
Scenario::Has(const std::string& section) const
{
    return m_json.contains(section);
}

std::string
Scenario::String(const std::string& path) const
{
    return At(path).get<std::string>();
}

int64_t
Scenario::Int(const std::string& path) const
{
    return At(path).get<int64_t>();
}

double
Scenario::Double(const std::string& path) const
{
    return At(path).get<double>();
}

bool
Scenario::Bool(const std::string& path) const
{
    return At(path).get<bool>();
}

uint64_t
Scenario::Bytes(const std::string& path) const
{
    const auto& v = At(path);
    return v.is_string() ? CommandLineValues::Bytes(path, v.get<std::string>()) : v.get<uint64_t>();
}

DataRate
Scenario::Rate(const std::string& path) const
{
    return CommandLineValues::Rate(path, At(path).get<std::string>());
}

Time
Scenario::Duration(const std::string& path) const
{
    return CommandLineValues::Duration(path, At(path).get<std::string>());
}

std::size_t
Scenario::NumWorkloads() const
{
    return m_json["workloads"].size();
}

} // namespace ns3
