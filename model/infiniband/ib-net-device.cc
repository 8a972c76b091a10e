/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-net-device.h"

#include "ib-channel.h"
#include "ib-flow-control-header.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/canonical-scheduler.h"
#include "ns3/enum.h"
#include "ns3/interconnect-compat.h"
#include "ns3/interconnect-config-error.h"
#include "ns3/local-rank.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/rdma-packet-pool.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbNetDevice");

NS_OBJECT_ENSURE_REGISTERED(IbNetDevice);

namespace
{
/// FCTBS and FCCL are 12-bit counters (an extender's: 32-bit).
constexpr uint32_t MODULUS = 4096;
} // namespace

TypeId
IbNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::IbNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("Interconnect")
            .AddConstructor<IbNetDevice>()
            .AddAttribute("Speed",
                          "Link speed: SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR or XDR",
                          EnumValue(IbNetDevice::EDR),
                          INTERCONNECT_ENUM_ACCESSOR(IbNetDevice::Speed, &IbNetDevice::m_speed),
                          MakeEnumChecker(IbNetDevice::SDR,
                                          "SDR",
                                          IbNetDevice::DDR,
                                          "DDR",
                                          IbNetDevice::QDR,
                                          "QDR",
                                          IbNetDevice::FDR10,
                                          "FDR10",
                                          IbNetDevice::FDR,
                                          "FDR",
                                          IbNetDevice::EDR,
                                          "EDR",
                                          IbNetDevice::HDR,
                                          "HDR",
                                          IbNetDevice::NDR,
                                          "NDR",
                                          IbNetDevice::XDR,
                                          "XDR"))
            .AddAttribute("Width",
                          "Lanes: 1, 2, 4, 8 or 12",
                          UintegerValue(4),
                          MakeUintegerAccessor(&IbNetDevice::m_width),
                          MakeUintegerChecker<uint32_t>(1, 12))
            .AddAttribute("Mtu",
                          "IB MTU, payload bytes per packet: 256, 512, 1024, 2048 or 4096",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&IbNetDevice::m_mtu),
                          MakeUintegerChecker<uint16_t>(256, 4096))
            .AddAttribute("DataVls",
                          "Data virtual lanes (VL0..DataVls-1): 1, 2, 4, 8 or 15",
                          UintegerValue(8),
                          MakeUintegerAccessor(&IbNetDevice::m_dataVls),
                          MakeUintegerChecker<uint32_t>(1, 15))
            .AddAttribute("ReceiveBufferBlocks",
                          "Receive buffer of each data VL, in 64-byte blocks (at least one "
                          "MTU packet)",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&IbNetDevice::m_bufferBlocks),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Extender",
                          "A long-haul extender's port (as NVIDIA MetroX): the credit protocol "
                          "with 32-bit counters (IbFlowControlHeader::EXTENDED), so that a "
                          "ReceiveBufferBlocks beyond 2048 blocks can be used, for the round trip "
                          "of a long cable; both ends of the link must have it",
                          BooleanValue(false),
                          MakeBooleanAccessor(&IbNetDevice::m_extender),
                          MakeBooleanChecker())
            .AddAttribute("ReusePackets",
                          "Send flow-control packets on the packets of those received "
                          "(RdmaPacketPool) instead of new ones: the same packets, byte for "
                          "byte; a packet's uid then names one at a time, not one for the whole "
                          "run.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&IbNetDevice::m_reusePackets),
                          MakeBooleanChecker())
            .AddAttribute("FlowControlPeriod",
                          "Interval of the periodic flow-control packets of every data VL. "
                          "0 (default): 65,536 symbol times of the link.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&IbNetDevice::m_fcPeriod),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("SlToVl",
                          "VL of each service level 0..15: 16 comma-separated VLs, or empty "
                          "for SL modulo DataVls",
                          StringValue(""),
                          MakeStringAccessor(&IbNetDevice::m_slToVlText),
                          MakeStringChecker())
            .AddAttribute("VlArbitrationHigh",
                          "High-priority arbitration table: VL:weight entries, weights in "
                          "64-byte units (0..255), e.g. \"1:64\"; empty: none",
                          StringValue(""),
                          MakeStringAccessor(&IbNetDevice::m_arbHighText),
                          MakeStringChecker())
            .AddAttribute("VlArbitrationLow",
                          "Low-priority arbitration table, as VlArbitrationHigh; empty: every "
                          "data VL with weight 64 (4 KB), round robin",
                          StringValue(""),
                          MakeStringAccessor(&IbNetDevice::m_arbLowText),
                          MakeStringChecker())
            .AddAttribute("HighPriorityLimit",
                          "Bytes the high-priority table may send, in 4 KB units, before the "
                          "low-priority table gets a packet: 0 one packet, 255 no limit",
                          UintegerValue(255),
                          MakeUintegerAccessor(&IbNetDevice::m_highLimit),
                          MakeUintegerChecker<uint32_t>(0, 255))
            .AddTraceSource("PhyTxBegin",
                            "A packet (data or flow control) started on the wire",
                            MakeTraceSourceAccessor(&IbNetDevice::m_phyTxBegin),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Sniffer",
                            "Every packet sent or received, data and flow control (pcap)",
                            MakeTraceSourceAccessor(&IbNetDevice::m_sniffer),
                            "ns3::IbNetDevice::SnifferTracedCallback")
            .AddTraceSource("MacRx",
                            "A data packet was received",
                            MakeTraceSourceAccessor(&IbNetDevice::m_macRx),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("CreditStall",
                            "A data VL started (true) or stopped (false) waiting for credits: "
                            "it has a packet to send and the peer's buffer has no room for it",
                            MakeTraceSourceAccessor(&IbNetDevice::m_creditStallTrace),
                            "ns3::IbNetDevice::CreditStallTracedCallback");
    return tid;
}

IbNetDevice::IbNetDevice()
    : m_address(Mac48Address::Allocate()),
      m_ifIndex(0),
      m_speed(EDR),
      m_width(4),
      m_mtu(4096),
      m_dataVls(8),
      m_bufferBlocks(1024),
      m_cutThrough(false),
      m_highLimit(255),
      m_configured(false),
      m_highSent(0),
      m_fcSent(0),
      m_creditViolations(0),
      m_unmappedDrops(0),
      m_txBusy(false)
{
    m_queueBytes.fill(0);
    m_fctbs.fill(0);
    m_fccl.fill(0);
    m_abr.fill(0);
    m_rxFree.fill(0);
    m_fcPending.fill(false);
    m_blocked.fill(false);
    m_packetsSent.fill(0);
    m_bytesSent.fill(0);
    m_slToVl.fill(0);
    m_arrivals.Bind(this);
}

DataRate
IbNetDevice::LinkRate(Speed speed, uint32_t width)
{
    if (width != 1 && width != 2 && width != 4 && width != 8 && width != 12)
    {
        InterconnectConfigError("ns3::IbNetDevice::Width",
                                std::to_string(width),
                                "1, 2, 4, 8 or 12 lanes");
    }
    // Data bits per second per lane, after line encoding.
    static const double lane[] = {2.5e9 * 8 / 10,
                                  5e9 * 8 / 10,
                                  10e9 * 8 / 10,
                                  10.3125e9 * 64 / 66,
                                  14.0625e9 * 64 / 66,
                                  25.78125e9 * 64 / 66,
                                  50e9,
                                  100e9,
                                  200e9};
    return DataRate(static_cast<uint64_t>(lane[speed] * width + 0.5));
}

uint32_t
IbNetDevice::Blocks(uint32_t bytes)
{
    return (bytes + VCRC + BLOCK - 1) / BLOCK;
}

void
IbNetDevice::CheckAttributes() const
{
    if (m_mtu != 256 && m_mtu != 512 && m_mtu != 1024 && m_mtu != 2048 && m_mtu != 4096)
    {
        InterconnectConfigError("ns3::IbNetDevice::Mtu",
                                std::to_string(m_mtu),
                                "256, 512, 1024, 2048 or 4096");
    }
    // The largest packet: LRH 8 + GRH 40 + BTH 12 + RETH 16 + MTU + ICRC 4 must fit a buffer.
    const uint32_t largest = Blocks(8 + 40 + 12 + 16 + m_mtu + 4);
    if (m_bufferBlocks < largest)
    {
        InterconnectConfigError("ns3::IbNetDevice::ReceiveBufferBlocks",
                                std::to_string(m_bufferBlocks),
                                "at least " + std::to_string(largest) +
                                    " blocks (one packet of the MTU)");
    }
    ParseSlToVl();
    ParseTable("ns3::IbNetDevice::VlArbitrationHigh", m_arbHighText);
    ParseTable("ns3::IbNetDevice::VlArbitrationLow", m_arbLowText);
}

std::array<uint8_t, 16>
IbNetDevice::ParseSlToVl() const
{
    std::array<uint8_t, 16> map{};
    if (m_slToVlText.empty())
    {
        for (uint32_t sl = 0; sl < 16; ++sl)
        {
            map[sl] = static_cast<uint8_t>(sl % m_dataVls);
        }
        return map;
    }
    std::istringstream in(m_slToVlText);
    std::string item;
    uint32_t sl = 0;
    while (std::getline(in, item, ','))
    {
        char* end = nullptr;
        const unsigned long vl = std::strtoul(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || (vl >= m_dataVls && vl != MANAGEMENT_VL) || sl >= 16)
        {
            InterconnectConfigError("ns3::IbNetDevice::SlToVl",
                                    m_slToVlText,
                                    "16 comma-separated data VLs (0.." +
                                        std::to_string(m_dataVls - 1) + ")");
        }
        map[sl++] = static_cast<uint8_t>(vl);
    }
    if (sl != 16)
    {
        InterconnectConfigError("ns3::IbNetDevice::SlToVl",
                                m_slToVlText,
                                "16 comma-separated data VLs, one per SL");
    }
    return map;
}

void
IbNetDevice::Configure()
{
    if (m_configured)
    {
        return;
    }
    CheckAttributes();
    m_configured = true;
    m_rate = LinkRate(m_speed, m_width);
    m_wireClock.SetRate(m_rate);
    for (uint32_t vl = 0; vl < m_dataVls; ++vl)
    {
        m_rxFree[vl] = m_bufferBlocks;
    }
    m_slToVl = ParseSlToVl();
    m_high.entries = ParseTable("ns3::IbNetDevice::VlArbitrationHigh", m_arbHighText);
    m_low.entries = ParseTable("ns3::IbNetDevice::VlArbitrationLow", m_arbLowText);
    if (m_low.entries.empty() && m_arbLowText.empty())
    {
        for (uint32_t vl = 0; vl < m_dataVls; ++vl)
        {
            m_low.entries.push_back(ArbEntry{static_cast<uint8_t>(vl), 64});
        }
    }
    for (ArbTable* t : {&m_high, &m_low})
    {
        t->current = 0;
        t->left = t->entries.empty() ? 0 : int64_t(t->entries[0].weight) * BLOCK;
    }
    if (m_fcPeriod.IsZero())
    {
        // 65,536 symbol times; a symbol is a byte on a lane (10 bits with 8b/10b).
        m_fcPeriod = Seconds(65536.0 * 8 / (m_rate.GetBitRate() / double(m_width)));
    }
}

std::vector<IbNetDevice::ArbEntry>
IbNetDevice::ParseTable(const std::string& name, const std::string& text) const
{
    std::vector<ArbEntry> entries;
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
    {
        const std::size_t colon = item.find(':');
        // The VL's text lives as long as end1 points into it.
        const std::string vlText = colon == std::string::npos ? "" : item.substr(0, colon);
        char* end1 = nullptr;
        char* end2 = nullptr;
        const unsigned long vl =
            colon == std::string::npos ? 99 : std::strtoul(vlText.c_str(), &end1, 10);
        const unsigned long weight =
            colon == std::string::npos ? 999 : std::strtoul(item.c_str() + colon + 1, &end2, 10);
        if (colon == std::string::npos || colon == 0 || *end1 != '\0' || *end2 != '\0' ||
            colon + 1 == item.size() || vl >= m_dataVls || weight > 255 || entries.size() >= 64)
        {
            InterconnectConfigError(name,
                                    text,
                                    "up to 64 VL:weight entries, VL 0.." +
                                        std::to_string(m_dataVls - 1) + ", weight 0..255");
        }
        entries.push_back(ArbEntry{static_cast<uint8_t>(vl), static_cast<uint32_t>(weight)});
    }
    return entries;
}

void
IbNetDevice::DoInitialize()
{
    Configure();
    // Link up: every data VL advertises its buffer, then periodically (not the copy of another
    // rank's device in a distributed run: its own rank does that).
    if (!GetNode() || IsOnThisRank(GetNode()))
    {
        m_fcTimer = Simulator::ScheduleNow(&IbNetDevice::PeriodicFlowControl, this);
    }
    NetDevice::DoInitialize();
}

void
IbNetDevice::DoDispose()
{
    m_fcTimer.Cancel();
    for (auto& q : m_queue)
    {
        q.clear();
    }
    m_arrivals.Clear();
    m_node = nullptr;
    m_channel = nullptr;
    m_ibReceive = IbReceiveCallback();
    m_ibDequeue = IbDequeueCallback();
    m_rxCallback = NetDevice::ReceiveCallback();
    NetDevice::DoDispose();
}

void
IbNetDevice::Attach(Ptr<IbChannel> channel)
{
    // Refuse bad attributes while the network is built, not in the first event that uses them
    // (an exception thrown from a running event leaves that event unreleased). They are
    // applied at the first use, so attributes set after Attach still count (and are checked
    // then).
    CheckAttributes();
    m_channel = channel;
    channel->Attach(this);
}

bool
IbNetDevice::EnqueueSl(Ptr<Packet> packet, uint8_t sl)
{
    Configure();
    NS_ABORT_MSG_IF(sl > 15, "IbNetDevice: SL " << +sl << " out of 0..15");
    const uint8_t vl = m_slToVl[sl];
    if (vl >= m_dataVls && vl != MANAGEMENT_VL)
    {
        ++m_unmappedDrops;
        return false;
    }
    EnqueueVl(packet, vl);
    return true;
}

void
IbNetDevice::EnqueueVl(Ptr<Packet> packet, uint8_t vl, uint32_t tag)
{
    Configure();
    NS_ABORT_MSG_UNLESS(vl < m_dataVls || vl == MANAGEMENT_VL,
                        "IbNetDevice: VL " << +vl << " is not a data VL or VL15");
    m_queue[vl].push_back(Item{packet, tag});
    m_queueBytes[vl] += packet->GetSize();
    TryTransmit();
}

uint64_t
IbNetDevice::Modulus() const
{
    // A sender may be at most half of it ahead of what the receiver acknowledged. (A power of
    // two: callers wrap with Modulus() - 1 as a mask.)
    return m_extender ? uint64_t(1) << 32 : MODULUS;
}

bool
IbNetDevice::Eligible(uint8_t vl) const
{
    if (m_queue[vl].empty())
    {
        return false;
    }
    const uint32_t blocks = Blocks(m_queue[vl].front().packet->GetSize());
    // Both moduli are powers of two: a mask, not a division, on every transmit decision.
    const uint64_t mask = Modulus() - 1;
    const uint64_t after = (m_fctbs[vl] + blocks) & mask;
    return ((m_fccl[vl] + mask + 1 - after) & mask) <= (mask + 1) / 2;
}

int
IbNetDevice::PickFrom(ArbTable& table)
{
    const std::size_t n = table.entries.size();
    for (std::size_t i = 0; i <= n && n > 0; ++i)
    {
        const ArbEntry& e = table.entries[table.current];
        if (table.left > 0 && Eligible(e.vl))
        {
            return e.vl;
        }
        table.current = (table.current + 1) % n;
        table.left = int64_t(table.entries[table.current].weight) * BLOCK;
    }
    return -1;
}

void
IbNetDevice::TryTransmit()
{
    if (!m_configured)
    {
        return;
    }
    // Which data VLs wait for credits (for congestion-control victim detection).
    for (uint8_t vl = 0; vl < m_dataVls; ++vl)
    {
        const bool blocked = !m_queue[vl].empty() && !Eligible(vl);
        if (m_blocked[vl] != blocked)
        {
            if (blocked)
            {
                m_blockedStart[vl] = Simulator::Now();
            }
            else
            {
                m_blockedEnd[vl] = Simulator::Now();
                m_stallTime[vl] += Simulator::Now() - m_blockedStart[vl];
            }
            m_creditStallTrace(vl, blocked);
        }
        m_blocked[vl] = blocked;
    }
    if (m_txBusy || !m_channel)
    {
        return;
    }
    // 1. Link packets: flow control.
    for (uint8_t vl = 0; vl < m_dataVls; ++vl)
    {
        if (m_fcPending[vl])
        {
            m_fcPending[vl] = false;
            IbFlowControlHeader fc;
            fc.SetOp(m_extender ? IbFlowControlHeader::EXTENDED : IbFlowControlHeader::NORMAL);
            fc.SetVl(vl);
            fc.SetFctbs(static_cast<uint32_t>(m_fctbs[vl] & (Modulus() - 1)));
            fc.SetFccl(static_cast<uint32_t>(
                (m_abr[vl] + std::min<uint64_t>(m_rxFree[vl], Modulus() / 2)) & (Modulus() - 1)));
            Ptr<Packet> p = m_reusePackets ? RdmaPacketPool::Take(0) : nullptr;
            if (!p)
            {
                p = Create<Packet>();
            }
            p->AddHeader(fc);
            ++m_fcSent;
            StartTransmission(p, vl, true, fc.GetSerializedSize());
            return;
        }
    }
    // 2. VL15: management, not flow controlled.
    if (!m_queue[MANAGEMENT_VL].empty())
    {
        const Item item = m_queue[MANAGEMENT_VL].front();
        Ptr<Packet> p = item.packet;
        m_queue[MANAGEMENT_VL].pop_front();
        m_queueBytes[MANAGEMENT_VL] -= p->GetSize();
        ++m_packetsSent[MANAGEMENT_VL];
        m_bytesSent[MANAGEMENT_VL] += p->GetSize() + VCRC;
        m_txBusy = true;
        if (!m_ibDequeue.IsNull())
        {
            m_ibDequeue(p, MANAGEMENT_VL, item.tag);
        }
        StartTransmission(p, MANAGEMENT_VL, false, p->GetSize() + VCRC);
        return;
    }
    // 3. Data VLs by arbitration.
    const bool highAllowed =
        m_highLimit == 255 || m_highSent == 0 || m_highSent < uint64_t(m_highLimit) * 4096;
    int vl = highAllowed ? PickFrom(m_high) : -1;
    ArbTable* table = &m_high;
    if (vl < 0)
    {
        vl = PickFrom(m_low);
        table = &m_low;
    }
    if (vl < 0 && !highAllowed)
    {
        vl = PickFrom(m_high); // nothing low waits: the limit does not hold the link idle
        table = &m_high;
        m_highSent = 0;
    }
    if (vl < 0)
    {
        return;
    }
    const Item item = m_queue[vl].front();
    Ptr<Packet> p = item.packet;
    m_queue[vl].pop_front();
    const uint32_t bytes = p->GetSize();
    m_queueBytes[vl] -= bytes;
    const uint32_t blocks = Blocks(bytes);
    m_fctbs[vl] += blocks;
    table->left -= bytes + VCRC;
    if (table == &m_high)
    {
        m_highSent += bytes + VCRC;
    }
    else
    {
        m_highSent = 0;
    }
    ++m_packetsSent[vl];
    m_bytesSent[vl] += bytes + VCRC;
    m_txBusy = true; // the owner may enqueue from the callback: not ahead of this packet
    if (!m_ibDequeue.IsNull())
    {
        m_ibDequeue(p, static_cast<uint8_t>(vl), item.tag);
    }
    StartTransmission(p, static_cast<uint8_t>(vl), false, bytes + VCRC);
}

void
IbNetDevice::StartTransmission(Ptr<Packet> packet, uint8_t vl, bool flowControl, uint32_t wireBytes)
{
    m_txBusy = true;
    // Back-to-back packets end at their exact cumulative wire time, rounded (WireClock); the
    // channel delivers even a packet that took 0 steps (a credit update) one step after its start.
    const int64_t now = Simulator::Now().GetTimeStep();
    const Time txTime = TimeStep(m_wireClock.Send(now, wireBytes) - now);
    m_phyTxBegin(packet);
    m_sniffer(packet, vl, flowControl, true);
    m_channel->TransmitStart(packet, this, txTime, vl, flowControl);
    Simulator::Schedule(txTime, &IbNetDevice::TransmitComplete, this);
}

void
IbNetDevice::TransmitComplete()
{
    m_txBusy = false;
    TryTransmit();
}

void
IbNetDevice::ScheduleReceive(Time delay,
                             uint64_t sequence,
                             const Ptr<Packet>& packet,
                             uint8_t vl,
                             bool flowControl)
{
    m_arrivals.Push(Arriving{packet, vl, flowControl},
                    Simulator::Now().GetTimeStep(),
                    delay.GetTimeStep(),
                    sequence,
                    m_node->GetId(),
                    m_ifIndex);
}

void
IbNetDevice::Arrive(Arriving& packet)
{
    // (The slot lets go of the packet, so that Receive's is its only reference unless a sink
    // keeps one: ns-3's Ptr copies where it would move, up to ns-3.38.)
    Receive(std::exchange(packet.packet, nullptr), packet.vl, packet.flowControl);
}

void
IbNetDevice::Receive(Ptr<Packet> packet, uint8_t vl, bool flowControl)
{
    m_sniffer(packet, vl, flowControl, false);
    if (flowControl)
    {
        IbFlowControlHeader fc;
        packet->RemoveHeader(fc);
        // The peer's FCTBS adjusts what we count as received; its FCCL is our credit limit.
        NS_ABORT_MSG_IF((fc.GetOp() == IbFlowControlHeader::EXTENDED) != m_extender,
                        "IbNetDevice: a link with an Extender at one end only (set "
                        "ns3::IbNetDevice::Extender on both)");
        m_abr[fc.GetVl()] = fc.GetFctbs();
        m_fccl[fc.GetVl()] = fc.GetFccl();
        if (m_reusePackets && packet->GetSize() == 0)
        {
            RdmaPacketPool::Give(packet); // (empty now; kept unless something else holds it)
        }
        TryTransmit();
        return;
    }
    m_macRx(packet);
    if (vl == MANAGEMENT_VL)
    {
        if (!m_ibReceive.IsNull())
        {
            m_ibReceive(this, packet, vl);
        }
        return;
    }
    const uint32_t blocks = Blocks(packet->GetSize());
    if (blocks > m_rxFree[vl])
    {
        ++m_creditViolations; // the credit protocol forbids this
        NS_LOG_WARN("packet of " << blocks << " blocks on VL " << +vl << " with " << m_rxFree[vl]
                                 << " free");
        return;
    }
    m_rxFree[vl] -= blocks;
    m_abr[vl] = static_cast<uint32_t>((uint64_t(m_abr[vl]) + blocks) & (Modulus() - 1));
    if (m_ibReceive.IsNull())
    {
        Release(vl, blocks);
        return;
    }
    m_ibReceive(this, packet, vl);
}

void
IbNetDevice::Release(uint8_t vl, uint32_t blocks)
{
    NS_ABORT_MSG_UNLESS(vl < m_dataVls && m_rxFree[vl] + blocks <= m_bufferBlocks,
                        "IbNetDevice::Release: more blocks than were received on VL " << +vl);
    m_rxFree[vl] += blocks;
    RequestFlowControl(vl);
}

void
IbNetDevice::RequestFlowControl(uint8_t vl)
{
    m_fcPending[vl] = true;
    TryTransmit();
}

void
IbNetDevice::PeriodicFlowControl()
{
    for (uint8_t vl = 0; vl < m_dataVls; ++vl)
    {
        m_fcPending[vl] = true;
    }
    TryTransmit();
    m_fcTimer = Simulator::Schedule(m_fcPeriod, &IbNetDevice::PeriodicFlowControl, this);
}

void
IbNetDevice::SetIbReceiveCallback(IbReceiveCallback cb)
{
    m_ibReceive = cb;
}

void
IbNetDevice::SetDequeueCallback(IbDequeueCallback cb)
{
    m_ibDequeue = cb;
}

uint8_t
IbNetDevice::GetVlOfSl(uint8_t sl)
{
    Configure();
    return m_slToVl.at(sl);
}

DataRate
IbNetDevice::GetDataRate() const
{
    return LinkRate(m_speed, m_width);
}

void
IbNetDevice::SetCutThrough(bool enable)
{
    m_cutThrough = enable;
}

bool
IbNetDevice::IsCutThrough() const
{
    return m_cutThrough;
}

uint32_t
IbNetDevice::GetNDataVls() const
{
    return m_dataVls;
}

uint64_t
IbNetDevice::GetBlocksSent(uint8_t vl) const
{
    return m_fctbs.at(vl);
}

uint64_t
IbNetDevice::GetPacketsSent(uint8_t vl) const
{
    return m_packetsSent.at(vl);
}

uint64_t
IbNetDevice::GetBytesSent(uint8_t vl) const
{
    return m_bytesSent.at(vl);
}

uint64_t
IbNetDevice::GetTxBytes() const
{
    uint64_t bytes =
        m_fcSent * (m_extender ? IbFlowControlHeader::EXTENDED_SIZE : IbFlowControlHeader::SIZE);
    for (uint64_t b : m_bytesSent)
    {
        bytes += b;
    }
    return bytes;
}

Time
IbNetDevice::GetCreditStallTime(uint8_t vl) const
{
    NS_ABORT_MSG_IF(vl >= m_dataVls, "IbNetDevice::GetCreditStallTime: no data VL " << +vl);
    return m_stallTime[vl] + (m_blocked[vl] ? Simulator::Now() - m_blockedStart[vl] : Time(0));
}

uint64_t
IbNetDevice::GetFlowControlPacketsSent() const
{
    return m_fcSent;
}

uint64_t
IbNetDevice::GetCreditViolations() const
{
    return m_creditViolations;
}

uint32_t
IbNetDevice::GetReceiveBufferFree(uint8_t vl) const
{
    return m_rxFree.at(vl);
}

uint64_t
IbNetDevice::GetQueueBytes(uint8_t vl) const
{
    return m_queueBytes.at(vl);
}

bool
IbNetDevice::WasCreditBlocked(uint8_t vl, Time window) const
{
    return vl < m_dataVls && (m_blocked[vl] || (m_blockedEnd[vl].IsStrictlyPositive() &&
                                                Simulator::Now() - m_blockedEnd[vl] < window));
}

void
IbNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
IbNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
IbNetDevice::GetChannel() const
{
    return m_channel;
}

void
IbNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
IbNetDevice::GetAddress() const
{
    return m_address;
}

bool
IbNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
IbNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
IbNetDevice::IsLinkUp() const
{
    return m_channel != nullptr;
}

void
IbNetDevice::AddLinkChangeCallback(Callback<void> /* callback */)
{
}

bool
IbNetDevice::IsBroadcast() const
{
    return false;
}

Address
IbNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
IbNetDevice::IsMulticast() const
{
    return false;
}

Address
IbNetDevice::GetMulticast(Ipv4Address /* multicastGroup */) const
{
    return Mac48Address::GetBroadcast();
}

Address
IbNetDevice::GetMulticast(Ipv6Address /* addr */) const
{
    return Mac48Address::GetBroadcast();
}

bool
IbNetDevice::IsPointToPoint() const
{
    return true;
}

bool
IbNetDevice::IsBridge() const
{
    return false;
}

bool
IbNetDevice::Send(Ptr<Packet> packet, const Address& /* dest */, uint16_t /* protocolNumber */)
{
    return EnqueueSl(packet, 0);
}

bool
IbNetDevice::SendFrom(Ptr<Packet> packet,
                      const Address& /* source */,
                      const Address& dest,
                      uint16_t protocolNumber)
{
    return Send(packet, dest, protocolNumber);
}

Ptr<Node>
IbNetDevice::GetNode() const
{
    return m_node;
}

void
IbNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
IbNetDevice::NeedsArp() const
{
    return false;
}

void
IbNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
IbNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback /* cb */)
{
}

bool
IbNetDevice::SupportsSendFrom() const
{
    return false;
}

} // namespace ns3
