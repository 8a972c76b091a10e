/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-switch.h"

#include "rdma-nic.h"
#include "roce-icrc-trailer.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/ethernet-header.h"
#include "ns3/ib-bth-header.h"
#include "ns3/interconnect-compat.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/rdma-int-tag.h"
#include "ns3/rdma-transport.h"
#include "ns3/simulator.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstddef>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceSwitch");

NS_OBJECT_ENSURE_REGISTERED(RoceSwitch);

namespace
{
/// Tag layout handed to PfcNetDevice::Enqueue: ingress port in the low 24 bits, pool above.
constexpr uint32_t TAG_PORT_MASK = 0xFFFFFF;
constexpr uint32_t TAG_POOL_SHIFT = 24;
constexpr uint32_t TAG_POOL_MASK = 0x3;
/// A frame moved to another priority (SetPriorityRemap) also carries the priority it arrived
/// on, which its ingress accounting is kept under: bit 26 set, the priority in bits 27..29.
constexpr uint32_t TAG_REMAPPED = 1u << 26;
constexpr uint32_t TAG_IN_PRIORITY_SHIFT = 27;
/// RoCEv2's UDP destination port (IBTA annex A17).
constexpr uint16_t ROCE_UDP_PORT = 4791;
/// The dequeue tag of the aggregation node's packets: no ingress, no MMU accounting.
constexpr uint32_t AGGREGATION_TAG = 0xFFFFFFFF;
} // namespace

TypeId
RoceSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceSwitch")
            .SetParent<Object>()
            .SetGroupName("Interconnect")
            .AddConstructor<RoceSwitch>()
            .AddAttribute("EcmpMode",
                          "How a member of an ECMP group is chosen: FlowHash (5-tuple hash, one "
                          "path per flow) or PacketSpray (round robin per packet).",
                          EnumValue(RoceSwitch::FLOW_HASH),
                          INTERCONNECT_ENUM_ACCESSOR(RoceSwitch::EcmpMode, &RoceSwitch::m_ecmpMode),
                          MakeEnumChecker(RoceSwitch::FLOW_HASH,
                                          "FlowHash",
                                          RoceSwitch::PACKET_SPRAY,
                                          "PacketSpray"))
            .AddAttribute("EcmpSeed",
                          "Seed of this switch's ECMP hash; give switches different seeds to "
                          "avoid polarization (helpers use the node id).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RoceSwitch::m_seed),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("IntEnabled",
                          "Append in-band telemetry (egress bytes sent, queue length, time, line "
                          "rate) to data packets that carry an RdmaIntTag, as HPCC needs; "
                          "packets without the tag are untouched.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RoceSwitch::m_intEnabled),
                          MakeBooleanChecker())
            .AddAttribute("EcnAtDequeue",
                          "Decide ECN marks when a frame leaves its queue instead of when it "
                          "enters (the queue length is read at that moment).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RoceSwitch::m_ecnAtDequeue),
                          MakeBooleanChecker())
            .AddAttribute("CheckFrameInfo",
                          "Read every data frame's IPv4 header and ports from its bytes even "
                          "when the previous switch passed them with the frame, forward by "
                          "what was read, and count the frames whose carried fields differ "
                          "(GetFrameInfoMismatches): a check for tests, that a header rewrite "
                          "kept the fields with it. Default: off (the carried fields are used).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RoceSwitch::m_checkFrameInfo),
                          MakeBooleanChecker())
            .AddAttribute("ForwardingLatency",
                          "Time from a frame's arrival to its entry in the egress queue (>= 0). "
                          "Default: 0 (store-and-forward only).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RoceSwitch::m_latency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Trimming",
                          "Trim a RoCEv2 data packet that the buffer would drop to its "
                          "headers and forward those at TrimDscp's priority, so the receiver "
                          "learns of the loss at once (NDP, Handley et al. SIGCOMM 2017; "
                          "packet trimming in the UEC 1.0 specification). Lossy priorities "
                          "only: a lossless one pauses instead of dropping.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RoceSwitch::m_trimming),
                          MakeBooleanChecker())
            .AddAttribute("TrimDscp",
                          "DSCP a trimmed packet leaves with (0..63); its priority is DSCP / 8. "
                          "ns3::RdmaNic::TrimmedDscp must agree. Default: 56 (priority 7, "
                          "ahead of data).",
                          UintegerValue(56),
                          MakeUintegerAccessor(&RoceSwitch::m_trimDscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("TrimThreshold",
                          "With Trimming, also trim a data packet whose egress queue (its "
                          "priority's bytes at that port) would pass this many bytes, as NDP's "
                          "switches keep short queues; 0: trim only what the buffer would "
                          "drop.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RoceSwitch::m_trimThreshold),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Mmu",
                          "The shared-buffer manager",
                          PointerValue(),
                          MakePointerAccessor(&RoceSwitch::m_mmu),
                          MakePointerChecker<RoceSwitchMmu>())
            .AddTraceSource("Drop",
                            "A frame was dropped: the IPv4 packet and the DropCause",
                            MakeTraceSourceAccessor(&RoceSwitch::m_dropTrace),
                            "ns3::RoceSwitch::DropTracedCallback")
            .AddTraceSource("Trim",
                            "A packet was trimmed to its headers: the IPv4 packet before",
                            MakeTraceSourceAccessor(&RoceSwitch::m_trimTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

RoceSwitch::RoceSwitch()
    : m_initialized(false),
      m_remapped(0)
{
    NS_LOG_FUNCTION(this);
    // What forwarding reads ends within the object's first FORWARD_LINES lines (a member added
    // among or before them moves it); the object starts on a pair of lines.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof" // (no virtual base: GCC and Clang lay it out)
    static_assert(offsetof(RoceSwitch, m_ports) + sizeof(m_ports) <= FORWARD_LINES * 64,
                  "RoceSwitch: the forwarding fields end within FORWARD_LINES lines");
#pragma GCC diagnostic pop
    static_assert(alignof(RoceSwitch) >= 128, "RoceSwitch: the object starts on a pair of lines");
    m_mmu = CreateObject<RoceSwitchMmu>();
    m_drops.fill(0);
}

void
RoceSwitch::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& port : m_ports)
    {
        port->SetOwner(nullptr, 0);
    }
    m_ports.clear();
    if (m_mmu)
    {
        m_mmu->Dispose();
    }
    m_mmu = nullptr;
    m_portSets.clear();
    m_portSetIndex.clear();
    m_portSpans.clear();
    m_portData.clear();
    m_routeSlot.clear();
    m_sprayNext.clear();
    m_blockSlot.clear();
    m_splitSlots.clear();
    m_hostRule = HostRule{};
    Object::DoDispose();
}

uint32_t
RoceSwitch::AddPort(Ptr<PfcNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(m_initialized, "RoceSwitch: AddPort after Initialize");
    const uint32_t index = static_cast<uint32_t>(m_ports.size());
    NS_ABORT_MSG_IF(index > TAG_PORT_MASK, "RoceSwitch: too many ports");
    m_ports.push_back(device);
    device->SetOwner(this, index);
    return index;
}

void
RoceSwitch::Initialize()
{
    NS_LOG_FUNCTION(this);
    std::vector<DataRate> rates;
    std::vector<Time> delays;
    uint32_t maxFrame = 0;
    for (const auto& port : m_ports)
    {
        rates.push_back(port->GetDataRate());
        delays.push_back(port->GetChannelDelay());
        maxFrame = std::max<uint32_t>(maxFrame, port->GetMtu() + PfcNetDevice::ETHERNET_HEADER);
    }
    m_mmu->Configure(rates, delays, maxFrame);
    m_mmu->SetPauseCallback(MakeCallback(&RoceSwitch::Pause, this));
    m_initialized = true;
}

void
RoceSwitch::SetRoute(Ipv4Address destination, const std::vector<uint32_t>& ports)
{
    NS_ABORT_MSG_IF(ports.empty(), "RoceSwitch::SetRoute: empty port list for " << destination);
    for (uint32_t p : ports)
    {
        NS_ABORT_MSG_IF(p >= m_ports.size(), "RoceSwitch::SetRoute: no port " << p);
    }
    const uint32_t address = destination.Get();
    auto set = m_portSetIndex.find(ports);
    if (set == m_portSetIndex.end())
    {
        // (A slot is a set's index + 1, below the first split block's reference.)
        NS_ABORT_MSG_IF(m_portSets.size() + 1 >= ROUTE_BLOCK_SPLIT,
                        "RoceSwitch::SetRoute: more than " << ROUTE_BLOCK_SPLIT - 2
                                                           << " distinct port sets in one switch ("
                                                           << destination << ")");
        set = m_portSetIndex.emplace(ports, static_cast<uint32_t>(m_portSets.size())).first;
        m_portSets.push_back(ports);
        if (ports.size() == 1)
        {
            m_portSpans.push_back(PortSpan{ports[0], 1}); // (the port itself)
        }
        else
        {
            m_portSpans.push_back(PortSpan{static_cast<uint32_t>(m_portData.size()),
                                           static_cast<uint32_t>(ports.size())});
            m_portData.insert(m_portData.end(), ports.begin(), ports.end());
        }
    }
    if (m_routeSlot.empty())
    {
        m_routeBase = address;
    }
    else if (address < m_routeBase)
    {
        NS_ABORT_MSG_IF(m_routeBase - address > (1u << 24),
                        "RoceSwitch::SetRoute: destinations spread over more than a /8 ("
                            << destination << ")");
        m_routeSlot.insert(m_routeSlot.begin(), m_routeBase - address, 0);
        m_sprayNext.insert(m_sprayNext.begin(), m_routeBase - address, 0);
        m_routeBase = address;
    }
    const uint32_t offset = address - m_routeBase;
    NS_ABORT_MSG_IF(offset > (1u << 24),
                    "RoceSwitch::SetRoute: destinations spread over more than a /8 (" << destination
                                                                                      << ")");
    if (offset >= m_routeSlot.size())
    {
        m_routeSlot.resize(offset + 1, 0);
        m_sprayNext.resize(offset + 1, 0);
    }
    m_routeSlot[offset] = static_cast<uint16_t>(set->second + 1);
    m_sprayNext[offset] = 0;
    m_routesChanged = true;
}

void
RoceSwitch::CompactRoutes()
{
    const uint32_t n = static_cast<uint32_t>(m_routeSlot.size());
    // Whether block b of 2^shift destinations has one slot for all of them.
    auto uniform = [&](uint32_t shift, uint32_t b) {
        const auto first = m_routeSlot.begin() + (b << shift);
        const auto end = m_routeSlot.begin() + std::min(n, (b + 1) << shift);
        return std::all_of(first, end, [&](uint16_t slot) { return slot == *first; });
    };
    // Every block size up to 64 destinations; a size whose split blocks would not fit the
    // references' range is not taken (one destination per block always fits: none split).
    uint32_t bestShift = 0;
    std::size_t bestEntries = n;
    for (uint32_t shift = 1; shift <= 6; ++shift)
    {
        const uint32_t blocks = (n + (1u << shift) - 1) >> shift;
        uint32_t split = 0;
        for (uint32_t b = 0; b < blocks; ++b)
        {
            split += !uniform(shift, b);
        }
        const std::size_t entries = blocks + (std::size_t{split} << shift);
        if (split < ROUTE_BLOCK_SPLIT && entries < bestEntries)
        {
            bestShift = shift;
            bestEntries = entries;
        }
    }
    const uint32_t size = 1u << bestShift;
    m_blockShift = bestShift;
    m_blockSlot.assign((n + size - 1) >> bestShift, 0);
    m_splitSlots.clear();
    for (uint32_t b = 0; b < m_blockSlot.size(); ++b)
    {
        const uint32_t first = b << bestShift;
        if (uniform(bestShift, b))
        {
            m_blockSlot[b] = m_routeSlot[first];
            continue;
        }
        m_blockSlot[b] =
            static_cast<uint16_t>(ROUTE_BLOCK_SPLIT + (m_splitSlots.size() >> bestShift));
        m_splitSlots.insert(m_splitSlots.end(),
                            m_routeSlot.begin() + first,
                            m_routeSlot.begin() + std::min(n, first + size));
        m_splitSlots.resize(((m_splitSlots.size() + size - 1) >> bestShift) << bestShift,
                            0); // (the last block, cut short)
    }
    m_blockSlot.shrink_to_fit();
    m_splitSlots.shrink_to_fit();
    FitHostRule();
    m_routesChanged = false;
}

void
RoceSwitch::FitHostRule()
{
    m_hostRule = HostRule{};
    const auto n = static_cast<uint32_t>(m_routeSlot.size());
    if (n == 0)
    {
        return;
    }
    const uint32_t bias = HostNumberOf(m_routeBase); // (host 0: the lowest with a route)
    auto singlePort = [&](uint16_t slot) { return slot != 0 && m_portSpans[slot - 1].count == 1; };
    // Fitted: the hosts with a port of their own, from the first to the last; the first run of
    // one port; the other destinations' slot.
    uint32_t first = 0;
    uint32_t last = 0;
    bool any = false;
    uint16_t other = 0;
    for (uint32_t offset = 0; offset < n; ++offset)
    {
        const uint16_t slot = m_routeSlot[offset];
        if (slot != 0 && ((m_routeBase + offset + 1) & 0xFF) < 2)
        {
            return; // (a route to a .0 or .255: not a host's, not the rule's)
        }
        if (singlePort(slot))
        {
            const uint32_t host = HostNumberOf(m_routeBase + offset) - bias;
            first = any ? first : host;
            last = host;
            any = true;
        }
        else if (other == 0)
        {
            other = slot;
        }
    }
    if (!any)
    {
        return;
    }
    // The first run: from the first host on, while its port stays the same.
    uint32_t run = 0;
    uint32_t firstPort = 0;
    for (uint32_t offset = 0; offset < n; ++offset)
    {
        const uint32_t address = m_routeBase + offset;
        const uint16_t slot = m_routeSlot[offset];
        if (((address + 1) & 0xFF) < 2 || HostNumberOf(address) - bias < first)
        {
            continue;
        }
        if (!singlePort(slot) || (run > 0 && m_portSpans[slot - 1].first != firstPort))
        {
            break;
        }
        firstPort = run == 0 ? m_portSpans[slot - 1].first : firstPort;
        ++run;
    }
    if (run == 0 || (run & (run - 1)) != 0 || firstPort > UINT16_MAX)
    {
        return;
    }
    HostRule rule;
    rule.bias = bias + first;
    rule.count = last - first + 1;
    rule.firstPort = static_cast<uint16_t>(firstPort);
    rule.shift = static_cast<uint8_t>(__builtin_ctz(run));
    rule.otherSlot = other;
    if (other != 0)
    {
        // The other set's members, if they are consecutive ports from its first.
        const PortSpan& set = m_portSpans[other - 1];
        const uint32_t* ports = m_portData.data() + set.first;
        bool consecutive = set.count <= UINT8_MAX && ports[0] <= UINT16_MAX;
        for (uint32_t i = 1; consecutive && i < set.count; ++i)
        {
            consecutive = ports[i] == ports[0] + i;
        }
        rule.otherFirst = consecutive ? static_cast<uint16_t>(ports[0]) : 0;
        rule.otherCount = consecutive ? static_cast<uint8_t>(set.count) : 0;
    }
    // Checked: every destination's route as the rule says it, the slots' as they are (a set of
    // several the other destinations' one, and its member for a frame as the set's own).
    m_hostRule = rule;
    for (uint32_t offset = 0; offset < n; ++offset)
    {
        const uint16_t slot = m_routeSlot[offset];
        PfcFrameInfo info;
        info.dst = m_routeBase + offset;
        uint32_t members = 0;
        const uint32_t port = CompactedPortOf(info, members);
        bool agrees = members == 0 && slot == 0;
        if (slot != 0 && members == m_portSpans[slot - 1].count &&
            (members == 1 || slot == rule.otherSlot))
        {
            const PortSpan& set = m_portSpans[slot - 1];
            agrees =
                port == (members == 1 ? set.first
                                      : m_portData[set.first + MemberIndex(members, offset, info)]);
        }
        if (!agrees)
        {
            m_hostRule = HostRule{};
            return;
        }
    }
}

bool
RoceSwitch::RoutesByHostNumber()
{
    if (m_routesChanged)
    {
        CompactRoutes();
    }
    return m_hostRule.count != 0;
}

const std::vector<uint32_t>&
RoceSwitch::GetRoute(Ipv4Address destination) const
{
    static const std::vector<uint32_t> none;
    const uint32_t offset = FindRoute(destination.Get());
    if (offset == m_routeSlot.size())
    {
        return none;
    }
    return m_portSets[m_routeSlot[offset] - 1];
}

uint32_t
RoceSwitch::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

Ptr<PfcNetDevice>
RoceSwitch::GetPort(uint32_t i) const
{
    return m_ports.at(i);
}

Ptr<RoceSwitchMmu>
RoceSwitch::GetMmu() const
{
    return m_mmu;
}

uint64_t
RoceSwitch::FlowHash(uint32_t seed,
                     uint32_t src,
                     uint32_t dst,
                     uint8_t protocol,
                     uint16_t srcPort,
                     uint16_t dstPort)
{
    // Two rounds of the splitmix64 finalizer (Steele, Lea and Flood, OOPSLA 2014) over the
    // packed tuple: every input bit affects every output bit.
    auto mix = [](uint64_t z) {
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    };
    const uint64_t a = (static_cast<uint64_t>(src) << 32) | dst;
    const uint64_t b = (static_cast<uint64_t>(seed) << 40) |
                       (static_cast<uint64_t>(protocol) << 32) |
                       (static_cast<uint64_t>(srcPort) << 16) | dstPort;
    return mix(mix(a + 0x9e3779b97f4a7c15ULL) ^ b);
}

uint32_t
RoceSwitch::SelectPort(Ipv4Address src,
                       Ipv4Address dst,
                       uint8_t protocol,
                       uint16_t srcPort,
                       uint16_t dstPort)
{
    PfcFrameInfo info;
    info.src = src.Get();
    info.dst = dst.Get();
    info.protocol = protocol;
    info.srcPort = srcPort;
    info.dstPort = dstPort;
    return SelectPortOf(info);
}

uint32_t
RoceSwitch::SelectPortOf(const PfcFrameInfo& info)
{
    if (m_routesChanged)
    {
        CompactRoutes();
    }
    uint32_t members = 0;
    const uint32_t port = CompactedPortOf(info, members);
    if (m_ecmpMode == PACKET_SPRAY && members > 1)
    {
        uint32_t& next = m_sprayNext[info.dst - m_routeBase];
        next = (next + 1) % members; // the destination's next turn
    }
    return port;
}

const void*
RoceSwitch::PortArrivalHint(uint32_t /* inPort */, const PfcFrameInfo& info) const
{
    // (Routes set since the last frame are compacted by the next frame's route, not here.)
    if (m_routesChanged)
    {
        return nullptr;
    }
    uint32_t members = 0;
    const uint32_t port = CompactedPortOf(info, members);
    return members != 0 ? PeekPointer(m_ports[port])->SendSpan() : nullptr;
}

const void*
RoceSwitch::PortReceiveLine(uint32_t port) const
{
    return m_mmu ? PeekPointer(m_mmu)->IngressLine(port) : nullptr;
}

const void*
RoceSwitch::PortReceiveSpan(uint32_t /* port */) const
{
    // (A frame behind another on its cable has the egress port named instead, PortArrivalHint,
    // computed as the one before it arrived: with these lines in the cache.)
    return CanonicalScheduler::SpanHint(this, FORWARD_LINES);
}

bool
RoceSwitch::PortReadsPackets(uint32_t /* port */) const
{
    return m_checkFrameInfo;
}

void
RoceSwitch::SetAggregationNode(Ptr<SharpAggregationNode> node, Ipv4Address address)
{
    NS_ABORT_MSG_IF(!node, "RoceSwitch::SetAggregationNode: no node");
    NS_ABORT_MSG_IF(address.Get() == 0, "RoceSwitch::SetAggregationNode: address 0.0.0.0");
    m_sharp = node;
    m_sharpAddress = address.Get();
    node->SetSendCallback(MakeCallback(&RoceSwitch::SendAggregation, this));
}

Ptr<SharpAggregationNode>
RoceSwitch::GetAggregationNode() const
{
    return m_sharp;
}

uint64_t
RoceSwitch::GetAggregationDrops() const
{
    return m_sharpDrops;
}

bool
RoceSwitch::ReceiveAggregation(uint32_t inPort, const Ptr<Packet>& packet, uint8_t priority)
{
    // Taken into the node's buffer at once: the frame never enters the MMU.
    Ptr<Packet> p = packet->Copy();
    if (!RdmaNic::UnframeAggregation(p))
    {
        ++m_drops[DROP_NO_ROUTE]; // nothing else is addressed to a switch here
        ++m_dropsByPriority[priority];
        m_dropTrace(packet, DROP_NO_ROUTE);
        return true;
    }
    if (m_latency.IsZero())
    {
        m_sharp->Receive(inPort, p);
    }
    else
    {
        Simulator::Schedule(m_latency, &SharpAggregationNode::Receive, m_sharp, inPort, p);
    }
    return true;
}

void
RoceSwitch::SendAggregation(uint32_t port, uint32_t peer, Ptr<Packet> packet, uint8_t priority)
{
    RdmaNic::FrameAggregation(packet, Ipv4Address(m_sharpAddress), Ipv4Address(peer), priority);
    m_ports.at(port)->Enqueue(packet, priority, AGGREGATION_TAG); // (a drop: PortDrop)
}

bool
RoceSwitch::PortReceive(uint32_t inPort,
                        const Ptr<Packet>& packet,
                        uint16_t type,
                        const PfcFrameInfo& carried)
{
    PacketRef frame(packet);
    return PortReceiveFrame(inPort,
                            frame,
                            PeekPointer(packet)->GetSize() + PfcNetDevice::ETHERNET_HEADER,
                            type,
                            carried);
}

bool
RoceSwitch::PortReceiveFrame(uint32_t inPort,
                             PacketRef& frame,
                             uint32_t bytes,
                             uint16_t type,
                             const PfcFrameInfo& carried)
{
    const Ptr<Packet>& packet = frame.Lend(); // (no count: the frame's reference, lent)
    NS_LOG_FUNCTION(this << inPort << frame.Peek() << bytes << type);
    if (type != Ipv4L3Protocol::PROT_NUMBER)
    {
        ++m_drops[DROP_NOT_IPV4];
        m_dropTrace(packet, DROP_NOT_IPV4);
        return true;
    }
    PeekPointer(m_mmu)->PrefetchIngress(inPort); // (while the frame is routed)
    // The port table, whose entry for the egress port the route leads to: a k=16 switch's 16
    // pointers are two lines of the object, out of cache when a frame behind another comes (as
    // is the port itself, below), whose event names the port, not the switch. (The table may
    // start within a line: its last entry may be on a third.)
    const char* portTable = reinterpret_cast<const char*>(m_ports.data());
    __builtin_prefetch(portTable);
    __builtin_prefetch(portTable + 64);
    __builtin_prefetch(&m_ports.back());
    // The IPv4 header and the transport ports: as the previous switch passed them on, or read
    // in place, once.
    PfcFrameInfo info = carried;
    if (info.IsKnown())
    {
        ++m_frameInfoCarried;
    }
    if (!info.IsKnown() || m_checkFrameInfo)
    {
        info = PfcFrameInfo::Read(*packet);
        if (!info.IsKnown())
        {
            ++m_drops[DROP_NOT_IPV4];
            m_dropTrace(packet, DROP_NOT_IPV4);
            return true;
        }
        if (carried.IsKnown() && !(carried == info))
        {
            ++m_frameInfoMismatches;
        }
    }
    const uint32_t ihl = info.headerLen;
    const uint8_t priority = static_cast<uint8_t>(info.tos >> 5); // DSCP / 8
    const uint8_t protocol = info.protocol;
    const uint32_t dst = info.dst;
    const uint16_t dstPort = info.dstPort;

    if (dst == m_sharpAddress && m_sharp)
    {
        return ReceiveAggregation(inPort, packet, priority);
    }
    // (The addresses as the header has them: Debian's Ipv4Address is not inlined, and its
    // constructor and Get() cost 1.7% of a fat-tree's event loop.)
    const uint32_t outPort = SelectPortOf(info);
    if (outPort == GetNPorts())
    {
        ++m_drops[DROP_NO_ROUTE];
        ++m_dropsByPriority[priority];
        m_dropTrace(packet, DROP_NO_ROUTE);
        return true;
    }
    PeekPointer(m_mmu)->PrefetchEgress(outPort);
    PeekPointer(m_ports[outPort])->PrefetchSend();
    PeekPointer(m_ports[outPort])->PrefetchQueue(priority);
    if (!m_remap.empty())
    {
        const uint8_t outPriority =
            m_remap[(inPort * GetNPorts() + outPort) * PfcNetDevice::N_PRIORITIES + priority];
        if (outPriority != priority)
        {
            return ReceiveRemapped(packet, inPort, outPort, priority, outPriority, info.tos);
        }
    }
    // (PeekPointer on the per-frame path: Debian's ns-3 keeps its asserts, which leave
    // Ptr::operator->, with its null check, out of line: a call for each use, 7.4 M on perm128.)
    const uint32_t frameBytes = bytes;
    const bool trimmable = m_trimming && protocol == 17 && dstPort == ROCE_UDP_PORT &&
                           priority != (m_trimDscp >> 3) && !m_mmu->IsLossless(priority);
    if (trimmable && m_trimThreshold != 0 &&
        m_mmu->GetEgressBytes(outPort, priority) + frameBytes > m_trimThreshold &&
        Trim(packet, inPort, outPort, ihl))
    {
        return true;
    }
    const RoceSwitchMmu::Pool pool =
        PeekPointer(m_mmu)->Admit(inPort, outPort, priority, frameBytes);
    if (pool == RoceSwitchMmu::DROPPED)
    {
        if (trimmable && Trim(packet, inPort, outPort, ihl))
        {
            return true;
        }
        ++m_drops[DROP_BUFFER];
        ++m_dropsByPriority[priority];
        m_dropTrace(packet, DROP_BUFFER);
        return true;
    }
    if (!m_ecnAtDequeue && (info.tos & 0x03) != 0 && (info.tos & 0x03) != 0x03 &&
        PeekPointer(m_mmu)->ShouldMarkEcn(outPort, priority))
    {
        if (MarkCe(packet))
        {
            ++m_ecnMarks;
            info.tos |= 0x03; // the fields go on with the header as it is now
        }
    }
    // A frame that may be marked at dequeue goes without its fields: they would be stale. Its
    // reference moves on to the queue, and its packet is not read.
    ForwardAfterLatency(std::move(frame),
                        frameBytes,
                        inPort,
                        outPort,
                        priority,
                        pool,
                        m_ecnAtDequeue ? PfcFrameInfo() : info);
    return true;
}

bool
RoceSwitch::Trim(const Ptr<Packet>& packet, uint32_t inPort, uint32_t outPort, uint32_t ihl)
{
    // The transport headers, read as the NIC reads them (IPv4 up to 60 bytes, UDP 8, then BTH
    // with its RETH or AETH).
    uint8_t b[60 + 8 + RdmaPackedHeader::CAPACITY];
    const uint32_t copied = packet->CopyData(b, std::min<uint32_t>(sizeof(b), packet->GetSize()));
    RdmaTransportHeaders headers;
    const uint32_t transport =
        copied > ihl + 8 ? headers.ReadFrom(b + ihl + 8, copied - ihl - 8) : 0;
    const uint32_t keep = ihl + 8 + transport;
    const uint32_t icrc = 4;
    // Only what carries data (WRITE, SEND, READ responses); never an ACK, a CNP, a READ request.
    if (transport == 0 || !IbBthHeader::CarriesData(headers.bth.GetOpcode()) ||
        packet->GetSize() <= keep + icrc)
    {
        return false;
    }
    Ptr<Packet> trimmed = packet->CreateFragment(0, keep);
    // The ICRC's place: 0, as a NIC writes it unless stamping. (Packet::AddPaddingAtEnd left the
    // 4 bytes as the buffer block had them, what its last user wrote.)
    trimmed->AddTrailer(RoceIcrcTrailer());
    Ipv4Header ip;
    trimmed->RemoveHeader(ip);
    UdpHeader udpHeader;
    trimmed->RemoveHeader(udpHeader);
    UdpHeader shorter; // a fresh header writes the shorter packet's length (ns-3.37's keeps
    shorter.SetSourcePort(udpHeader.GetSourcePort()); // the length it read)
    shorter.SetDestinationPort(udpHeader.GetDestinationPort());
    trimmed->AddHeader(shorter);
    ip.SetTos(static_cast<uint8_t>(m_trimDscp << 2));
    ip.SetEcn(Ipv4Header::ECN_NotECT);
    ip.SetPayloadSize(trimmed->GetSize());
    AskPacketModes(packet);
    if (m_checksums)
    {
        ip.EnableChecksum(); // (the shorter header's, computed as it is written)
    }
    trimmed->AddHeader(ip);
    const uint8_t priority = m_trimDscp >> 3;
    const uint32_t trimmedBytes = trimmed->GetSize() + PfcNetDevice::ETHERNET_HEADER;
    const RoceSwitchMmu::Pool pool = m_mmu->Admit(inPort, outPort, priority, trimmedBytes);
    if (pool == RoceSwitchMmu::DROPPED)
    {
        return false;
    }
    ++m_trimmed;
    m_trimTrace(packet);
    ForwardAfterLatency(PacketRef(trimmed), trimmedBytes, inPort, outPort, priority, pool);
    return true;
}

uint64_t
RoceSwitch::GetTrimmed() const
{
    return m_trimmed;
}

bool
RoceSwitch::ReceiveRemapped(Ptr<Packet> packet,
                            uint32_t inPort,
                            uint32_t outPort,
                            uint8_t inPriority,
                            uint8_t outPriority,
                            uint8_t tos)
{
    const uint32_t frameBytes = packet->GetSize() + PfcNetDevice::ETHERNET_HEADER;
    const RoceSwitchMmu::Pool pool =
        m_mmu->Admit(inPort, inPriority, outPort, outPriority, frameBytes);
    if (pool == RoceSwitchMmu::DROPPED)
    {
        ++m_drops[DROP_BUFFER];
        ++m_dropsByPriority[outPriority];
        m_dropTrace(packet, DROP_BUFFER);
        return true;
    }
    // One header rewrite for the new class selector and, if due, the CE mark.
    const uint8_t ecn = tos & 0x03;
    const bool capable = ecn == Ipv4Header::ECN_ECT0 || ecn == Ipv4Header::ECN_ECT1;
    const bool mark = !m_ecnAtDequeue && capable && m_mmu->ShouldMarkEcn(outPort, outPriority);
    m_ecnMarks += mark ? 1 : 0;
    RewriteTos(packet, 0x1F, static_cast<uint8_t>((outPriority << 5) | (mark ? 0x03 : 0)), false);
    ++m_remapped;
    // The priority it arrived on rides in the tag, for Release() at dequeue.
    const uint32_t tagPort =
        inPort | TAG_REMAPPED | (static_cast<uint32_t>(inPriority) << TAG_IN_PRIORITY_SHIFT);
    ForwardAfterLatency(PacketRef(packet), frameBytes, tagPort, outPort, outPriority, pool);
    return true;
}

void
RoceSwitch::SetPriorityRemap(uint32_t inPort,
                             uint32_t outPort,
                             uint8_t fromPriority,
                             uint8_t toPriority)
{
    NS_LOG_FUNCTION(this << inPort << outPort << +fromPriority << +toPriority);
    NS_ABORT_MSG_UNLESS(m_initialized, "RoceSwitch::SetPriorityRemap before Initialize");
    NS_ABORT_MSG_IF(inPort >= GetNPorts() || outPort >= GetNPorts(),
                    "RoceSwitch::SetPriorityRemap: no port " << std::max(inPort, outPort));
    NS_ABORT_MSG_IF(fromPriority >= PfcNetDevice::N_PRIORITIES ||
                        toPriority >= PfcNetDevice::N_PRIORITIES,
                    "RoceSwitch::SetPriorityRemap: priorities are 0..7");
    if (m_remap.empty())
    {
        const std::size_t n = GetNPorts();
        m_remap.resize(n * n * PfcNetDevice::N_PRIORITIES);
        for (std::size_t i = 0; i < m_remap.size(); ++i)
        {
            m_remap[i] = static_cast<uint8_t>(i % PfcNetDevice::N_PRIORITIES);
        }
    }
    m_remap[(inPort * GetNPorts() + outPort) * PfcNetDevice::N_PRIORITIES + fromPriority] =
        toPriority;
}

uint8_t
RoceSwitch::GetPriorityRemap(uint32_t inPort, uint32_t outPort, uint8_t priority) const
{
    if (m_remap.empty())
    {
        return priority;
    }
    return m_remap.at((inPort * GetNPorts() + outPort) * PfcNetDevice::N_PRIORITIES + priority);
}

uint64_t
RoceSwitch::GetRemapped() const
{
    return m_remapped;
}

void
RoceSwitch::ForwardAfterLatency(PacketRef frame,
                                uint32_t bytes,
                                uint32_t inPort,
                                uint32_t outPort,
                                uint8_t priority,
                                RoceSwitchMmu::Pool pool,
                                const PfcFrameInfo& info)
{
    if (m_latency.IsZero())
    {
        ForwardFrame(std::move(frame), bytes, inPort, outPort, priority, pool, info);
        return;
    }
    // (An event's arguments are copied, and ns-3.37's take six: the frame goes as a Ptr, and
    // its size is read again when it is queued.)
    Simulator::Schedule(m_latency,
                        &RoceSwitch::Forward,
                        this,
                        frame.Release(),
                        inPort,
                        outPort,
                        priority,
                        pool,
                        info);
}

void
RoceSwitch::Forward(const Ptr<Packet>& packet,
                    uint32_t inPort,
                    uint32_t outPort,
                    uint8_t priority,
                    RoceSwitchMmu::Pool pool,
                    PfcFrameInfo info)
{
    ForwardFrame(PacketRef(packet),
                 PeekPointer(packet)->GetSize() + PfcNetDevice::ETHERNET_HEADER,
                 inPort,
                 outPort,
                 priority,
                 pool,
                 info);
}

void
RoceSwitch::ForwardFrame(PacketRef frame,
                         uint32_t bytes,
                         uint32_t inPort,
                         uint32_t outPort,
                         uint8_t priority,
                         RoceSwitchMmu::Pool pool,
                         const PfcFrameInfo& info)
{
    ++m_forwarded;
    const uint32_t tag = inPort | (static_cast<uint32_t>(pool) << TAG_POOL_SHIFT);
    PeekPointer(m_ports[outPort])->Enqueue(std::move(frame), bytes, priority, tag, info);
}

// Inline: it is on the dequeue path of every frame.
inline void
RoceSwitch::ReleaseBuffer(uint32_t outPort, uint32_t bytes, uint8_t priority, uint32_t tag)
{
    // (Never the aggregation node's frames: PortDequeue and PortDrop return before.)
    const uint32_t inPort = tag & TAG_PORT_MASK;
    const auto pool = static_cast<RoceSwitchMmu::Pool>((tag >> TAG_POOL_SHIFT) & TAG_POOL_MASK);
    if (tag & TAG_REMAPPED)
    {
        const auto inPriority = static_cast<uint8_t>((tag >> TAG_IN_PRIORITY_SHIFT) & 0x7);
        PeekPointer(m_mmu)->Release(inPort, inPriority, outPort, priority, bytes, pool);
    }
    else
    {
        PeekPointer(m_mmu)->Release(inPort, outPort, priority, bytes, pool);
    }
}

void
RoceSwitch::PortDequeue(uint32_t outPort, const Ptr<Packet>& frame, uint8_t priority, uint32_t tag)
{
    PortDequeueFrame(outPort,
                     frame,
                     priority,
                     tag,
                     PeekPointer(frame)->GetSize() + PfcNetDevice::ETHERNET_HEADER);
}

void
RoceSwitch::PortDequeueFrame(uint32_t outPort,
                             const Ptr<Packet>& frame,
                             uint8_t priority,
                             uint32_t tag,
                             uint32_t bytes)
{
    if (tag == AGGREGATION_TAG)
    {
        return; // the aggregation node's: no MMU, no ECN, no telemetry
    }
    if (m_ecnAtDequeue && m_mmu->ShouldMarkEcn(outPort, priority) && MarkCe(frame))
    {
        ++m_ecnMarks;
    }
    ReleaseBuffer(outPort, bytes, priority, tag);
    // (Most frames carry no packet tag at all: a pointer's test, where PeekPacketTag builds a
    // tag and compares type ids, 2% of a fat-tree's run; and no test at all while no packet
    // can carry the tag.)
    if (m_intEnabled && RdmaIntTag::MayBeCarried() &&
        PeekPointer(frame)->GetPacketTagIterator().HasNext())
    {
        RdmaIntTag tag;
        // The tag grows by a hop: remove and add it (ReplacePacketTag keeps the old size).
        if (frame->PeekPacketTag(tag) && !tag.IsEcho())
        {
            frame->RemovePacketTag(tag);
            // HPCC's INT hop (SIGCOMM 2019, 4.1): the egress as the packet leaves it.
            Ptr<PfcNetDevice> port = m_ports[outPort];
            tag.Push(RdmaIntHop{port->GetTxBytes(),
                                m_mmu->GetEgressBytes(outPort, priority),
                                Simulator::Now().GetTimeStep(),
                                port->GetDataRate().GetBitRate()});
            frame->AddPacketTag(tag);
        }
    }
}

uint32_t
RoceSwitch::GetIngressPortOfTag(uint32_t tag)
{
    return tag & TAG_PORT_MASK;
}

void
RoceSwitch::PortDrop(uint32_t outPort, const Ptr<Packet>& frame, uint8_t priority, uint32_t tag)
{
    if (tag == AGGREGATION_TAG)
    {
        ++m_sharpDrops; // (nothing resends it: the job will not complete)
        return;
    }
    ReleaseBuffer(outPort, frame->GetSize() + PfcNetDevice::ETHERNET_HEADER, priority, tag);
}

bool
RoceSwitch::MarkCe(const Ptr<Packet>& frame)
{
    return RewriteTos(frame, 0xFF, Ipv4Header::ECN_CE, true);
}

void
RoceSwitch::AskPacketModes(const Ptr<Packet>& frame)
{
    if (m_metadata < 0)
    {
        // Asked of the first frame rewritten (a new packet, as IsPacketMetadataEnabled makes,
        // would take a uid mid-run); ns-3's checksums, as its IPv4 layer asks (Node).
        m_metadata = frame->BeginItem().HasNext() ? 1 : 0;
        m_checksums = Node::ChecksumEnabled();
    }
}

bool
RoceSwitch::RewriteTos(const Ptr<Packet>& frame, uint8_t keep, uint8_t set, bool ectOnly)
{
    AskPacketModes(frame);
    const auto capable = [](uint8_t tos) {
        const uint8_t ecn = tos & 0x03;
        return ecn == Ipv4Header::ECN_ECT0 || ecn == Ipv4Header::ECN_ECT1;
    };
    if (m_metadata == 1)
    {
        // The header as an object, so that the packet's metadata still names it.
        Ipv4Header ip;
        if (m_checksums)
        {
            ip.EnableChecksum(); // (verified as read, computed as written)
        }
        frame->RemoveHeader(ip);
        const bool rewrite = !ectOnly || capable(ip.GetTos());
        if (rewrite)
        {
            ip.SetTos(static_cast<uint8_t>((ip.GetTos() & keep) | set));
        }
        frame->AddHeader(ip);
        return rewrite;
    }
    // In place, as a router rewrites it: the TOS byte holds DSCP and ECN (RFC 2474, RFC 3168);
    // with ns-3's checksums on, a header checksum that verifies is updated for the change (RFC
    // 1624, equation 3); every other byte stays as it was. Only the first 12 bytes are taken
    // off and put back, as one packed header: the round trip through an Ipv4Header object cost
    // 1 300 instructions a CE mark (perm128 by callgrind) and wrote a checksum of 0 over a
    // computed one.
    uint8_t b[60]; // (the longest IPv4 header, RFC 791)
    if (frame->CopyData(b, 20) != 20 || (b[0] >> 4) != 4)
    {
        return false;
    }
    const uint32_t ihl = (b[0] & 0x0F) * 4u;
    if (ihl < 20 || (ectOnly && !capable(b[1])))
    {
        return false;
    }
    bool verifies = false;
    if (m_checksums && (ihl == 20 || frame->CopyData(b, ihl) == ihl))
    {
        uint32_t sum = 0;
        for (uint32_t i = 0; i < ihl; i += 2)
        {
            sum += static_cast<uint32_t>((b[i] << 8) | b[i + 1]);
        }
        sum = (sum & 0xFFFF) + (sum >> 16);
        sum = (sum & 0xFFFF) + (sum >> 16);
        verifies = sum == 0xFFFF;
    }
    const auto before = static_cast<uint16_t>((b[0] << 8) | b[1]);
    b[1] = static_cast<uint8_t>((b[1] & keep) | set);
    if (verifies)
    {
        // HC' = ~(~HC + ~m + m'), in one's complement arithmetic.
        const auto after = static_cast<uint16_t>((b[0] << 8) | b[1]);
        const auto checksum = static_cast<uint16_t>((b[10] << 8) | b[11]);
        uint32_t updated =
            static_cast<uint16_t>(~checksum) + static_cast<uint16_t>(~before) + after;
        updated = (updated & 0xFFFF) + (updated >> 16);
        updated = (updated & 0xFFFF) + (updated >> 16);
        b[10] = static_cast<uint8_t>(~updated >> 8);
        b[11] = static_cast<uint8_t>(~updated);
    }
    const uint32_t rewritten = 12; // through the checksum
    frame->RemoveAtStart(rewritten);
    RdmaPackedHeader front;
    std::copy(b, b + rewritten, front.Prepend(rewritten));
    frame->AddHeader(front);
    return true;
}

void
RoceSwitch::Pause(uint32_t inPort, uint8_t priority, bool pause)
{
    m_ports[inPort]->SetIngressPause(priority, pause);
}

uint64_t
RoceSwitch::GetDrops(DropCause cause) const
{
    return m_drops[cause];
}

uint64_t
RoceSwitch::GetDropsByPriority(uint8_t priority) const
{
    NS_ABORT_MSG_IF(priority >= PfcNetDevice::N_PRIORITIES,
                    "RoceSwitch::GetDropsByPriority: priority " << +priority);
    return m_dropsByPriority[priority];
}

uint64_t
RoceSwitch::GetEcnMarks() const
{
    return m_ecnMarks;
}

uint64_t
RoceSwitch::GetForwarded() const
{
    return m_forwarded;
}

uint64_t
RoceSwitch::GetFrameInfoCarried() const
{
    return m_frameInfoCarried;
}

uint64_t
RoceSwitch::GetFrameInfoMismatches() const
{
    return m_frameInfoMismatches;
}

int64_t
RoceSwitch::AssignStreams(int64_t stream)
{
    return m_mmu->AssignStreams(stream);
}

} // namespace ns3
