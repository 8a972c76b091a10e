/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-net-device.h"

#include "pfc-channel.h"
#include "pfc-header.h"

#include "ns3/canonical-scheduler.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/error-model.h"
#include "ns3/ethernet-header.h"
#include "ns3/interconnect-compat.h"
#include "ns3/interconnect-config-error.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/slot-pool.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cstddef>
#include <sstream>

namespace ns3
{

template class SlotPooled<PfcNetDevice, 32>;

NS_LOG_COMPONENT_DEFINE("PfcNetDevice");

NS_OBJECT_ENSURE_REGISTERED(PfcNetDevice);

PfcFrameInfo
PfcFrameInfo::Read(const Packet& packet)
{
    PfcFrameInfo info;
    uint8_t b[64];
    uint32_t copied = packet.CopyData(b, 24);
    if (copied < 20 || (b[0] >> 4) != 4)
    {
        return info;
    }
    const uint32_t ihl = (b[0] & 0x0F) * 4u; // RFC 791: the IHL counts 32-bit words
    if (ihl < 20)
    {
        return info;
    }
    if (ihl > 20)
    {
        copied = packet.CopyData(b, std::min<uint32_t>(ihl + 4, sizeof(b)));
    }
    info.tos = b[1];
    info.protocol = b[9];
    info.src = (uint32_t(b[12]) << 24) | (uint32_t(b[13]) << 16) | (uint32_t(b[14]) << 8) | b[15];
    info.dst = (uint32_t(b[16]) << 24) | (uint32_t(b[17]) << 16) | (uint32_t(b[18]) << 8) | b[19];
    if ((info.protocol == 6 || info.protocol == 17) && copied >= ihl + 4)
    {
        info.srcPort = static_cast<uint16_t>((b[ihl] << 8) | b[ihl + 1]);
        info.dstPort = static_cast<uint16_t>((b[ihl + 2] << 8) | b[ihl + 3]);
    }
    info.headerLen = static_cast<uint8_t>(ihl);
    return info;
}

bool
PfcFrameInfo::operator==(const PfcFrameInfo& other) const
{
    return src == other.src && dst == other.dst && srcPort == other.srcPort &&
           dstPort == other.dstPort && tos == other.tos && protocol == other.protocol &&
           headerLen == other.headerLen;
}

TypeId
PfcNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("Interconnect")
            .AddConstructor<PfcNetDevice>()
            .AddAttribute(
                "DataRate",
                "Line rate of the port (above 0). Default: 100 Gb/s.",
                DataRateValue(DataRate("100Gbps")),
                MakeDataRateAccessor(&PfcNetDevice::SetDataRate, &PfcNetDevice::GetDataRate),
                MakeDataRateChecker())
            .AddAttribute("Mtu",
                          "Largest IPv4 packet the port carries, in bytes (68..9216). "
                          "Default: 1500 (IEEE 802.3); RoCE fabrics often use 4200 or 9000.",
                          UintegerValue(1500),
                          MakeUintegerAccessor(&PfcNetDevice::SetMtu, &PfcNetDevice::GetMtu),
                          MakeUintegerChecker<uint16_t>(68, 9216))
            .AddAttribute(
                "Scheduler",
                "How the egress picks the next priority: StrictPriority (7 first) "
                "or Dwrr (deficit weighted round robin with DwrrWeights).",
                EnumValue(PfcNetDevice::STRICT_PRIORITY),
                INTERCONNECT_ENUM_ACCESSOR(PfcNetDevice::Scheduler, &PfcNetDevice::m_scheduler),
                MakeEnumChecker(PfcNetDevice::STRICT_PRIORITY,
                                "StrictPriority",
                                PfcNetDevice::DWRR,
                                "Dwrr"))
            .AddAttribute(
                "DwrrWeights",
                "DWRR weights of priorities 0..7, comma-separated integers 1..1000; "
                "each round a priority may send weight x Mtu bytes.",
                StringValue("1,1,1,1,1,1,1,1"),
                MakeStringAccessor(&PfcNetDevice::SetDwrrWeights, &PfcNetDevice::GetDwrrWeights),
                MakeStringChecker())
            .AddAttribute("QueueLimit",
                          "Frames a priority queue holds before Enqueue drops (0 = no limit). "
                          "A switch's buffer manager bounds its queues itself and leaves 0.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PfcNetDevice::m_queueLimit),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("PauseQuanta",
                          "Pause time in the PFC frames this port sends, in quanta of 512 bit "
                          "times (1..65535). Default: 65535, the largest.",
                          UintegerValue(0xFFFF),
                          MakeUintegerAccessor(&PfcNetDevice::m_pauseQuanta),
                          MakeUintegerChecker<uint16_t>(1, 0xFFFF))
            .AddAttribute("PauseRefresh",
                          "While a pause holds, it is sent again after this fraction of its "
                          "pause time, so the peer never resumes early (0.05..0.95).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&PfcNetDevice::m_pauseRefresh),
                          MakeDoubleChecker<double>(0.05, 0.95))
            .AddAttribute("PfcWatchdogTime",
                          "PFC watchdog: a priority its peer keeps paused this long without a "
                          "break while frames wait for it is declared stormed, and frames to "
                          "it are dropped (0: no watchdog). Switches ship defaults of "
                          "hundreds of milliseconds; a simulated fabric needs a few RTTs to "
                          "milliseconds.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&PfcNetDevice::m_watchdogTime),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("PfcWatchdogRestoreTime",
                          "PFC watchdog: a stormed priority is restored once its peer has not "
                          "paused it for this long.",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&PfcNetDevice::m_watchdogRestoreTime),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("ReceiveErrorModel",
                          "Loses received frames (data and PFC) it marks corrupt, like "
                          "PointToPointNetDevice's: random loss, or chosen frames in tests.",
                          PointerValue(),
                          MakePointerAccessor(&PfcNetDevice::m_receiveErrorModel),
                          MakePointerChecker<ErrorModel>())
            .AddTraceSource("PhyRxDrop",
                            "A received frame was lost by the ReceiveErrorModel",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_phyRxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacTx",
                            "A data frame was queued for transmission",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_macTxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacTxDrop",
                            "A data frame was dropped at enqueue (QueueLimit)",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_macTxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacRx",
                            "A data frame was received",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_macRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxBegin",
                            "A frame (data or PFC) started on the wire",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_phyTxBeginTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Sniffer",
                            "Every frame sent or received, Ethernet header included (pcap)",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_snifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PfcTx",
                            "A PFC frame was sent: priority, quanta (0 = resume)",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_pfcTxTrace),
                            "ns3::PfcNetDevice::PfcTracedCallback")
            .AddTraceSource("PfcRx",
                            "A PFC frame was received: priority, quanta (0 = resume)",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_pfcRxTrace),
                            "ns3::PfcNetDevice::PfcTracedCallback")
            .AddTraceSource("QueueBytes",
                            "An egress queue's length changed: priority, bytes queued now "
                            "(frames with their Ethernet header; GetQueueBytes, the runner's "
                            "queue.csv)",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_queueBytesTrace),
                            "ns3::PfcNetDevice::QueueBytesTracedCallback")
            .AddTraceSource("EgressPaused",
                            "The peer paused (true) or resumed (false) a priority of this port "
                            "(IsEgressPaused)",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_egressPausedTrace),
                            "ns3::PfcNetDevice::PausedTracedCallback")
            .AddTraceSource("Watchdog",
                            "The PFC watchdog declared a priority stormed (true) or restored it "
                            "(false)",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_watchdogTrace),
                            "ns3::PfcNetDevice::PausedTracedCallback");
    return tid;
}

PfcNetDevice::PfcNetDevice()
    : m_busyUntil(0),
      m_queueLimit(0),
      m_scheduler(STRICT_PRIORITY),
      m_queuedMask(0),
      m_egressPausedMask(0),
      m_watchdogMask(0),
      m_txBusy(false),
      m_completionPending(false),
      m_controlQueued(false),
      m_framesSent(0),
      m_txBytes(0),
      m_peerNodeId(0),
      m_peerIfIndex(0),
      m_wireClock(DataRate("100Gbps")),
      m_owner(nullptr),
      m_ownerPort(0),
      m_ifIndex(0),
      m_nodeId(0),
      m_address(Mac48Address::Allocate()),
      m_mtu(1500),
      m_pauseQuanta(0xFFFF),
      m_pauseRefresh(0.5),
      m_dwrrNext(0),
      m_queueLimitDrops(0),
      m_errorModelDrops(0),
      m_watchdogTime(0),
      m_watchdogRestoreTime(MilliSeconds(1))
{
    NS_LOG_FUNCTION(this);
    // The send lines end with the receive fields, all on the last of them (PrefetchSend,
    // SendSpan; an arrival names that line): a member added before them moves them, and the
    // span or the line would then miss them. Where they fall depends on ns-3's base classes.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof" // (no virtual base: GCC and Clang lay it out)
    constexpr std::size_t receiveStart = offsetof(PfcNetDevice, m_owner);
    constexpr std::size_t receiveEnd = offsetof(PfcNetDevice, m_traced) + sizeof(m_traced);
#pragma GCC diagnostic pop
    static_assert(receiveStart / 64 == (receiveEnd - 1) / 64,
                  "PfcNetDevice: the receive fields are on one line");
    static_assert(SEND_LINES == (receiveEnd + 63) / 64,
                  "PfcNetDevice: SEND_LINES must end with the receive fields' line");
    static_assert(SEND_LINES <= CanonicalScheduler::SPAN_MASK + 1, "a span is at most 16 lines");
    static_assert(alignof(PfcNetDevice) > CanonicalScheduler::SPAN_MASK, "a span starts aligned");
    // The departures' fields and their frames' counts on one pair of lines (what their arrival
    // event's hint names of them: the queue's start), the port being on 128 bytes at least.
    [[maybe_unused]] const auto offset = [this](const void* at) {
        return reinterpret_cast<uintptr_t>(at) - reinterpret_cast<uintptr_t>(this);
    };
    NS_ASSERT_MSG(offset(&m_departures) / 128 == (offset(m_departures.InlineFrames()) - 1) / 128,
                  "PfcNetDevice: the departures' fields straddle two pairs of lines");
    m_macTxTrace.Bind(&m_traced, TRACED_MAC_TX);
    m_queueBytesTrace.Bind(&m_traced, TRACED_QUEUE_BYTES);
    m_phyTxBeginTrace.Bind(&m_traced, TRACED_PHY_TX_BEGIN);
    m_snifferTrace.Bind(&m_traced, TRACED_SNIFFER);
    m_macRxTrace.Bind(&m_traced, TRACED_MAC_RX);
    m_dwrrWeight.fill(1);
    m_queueBytes.fill(0);
    m_deficit.fill(0);
    m_completionEvent.Bind<&PfcNetDevice::TransmitComplete>(this);
    m_arrivals.Bind(this, &m_owner); // (the receive line)
}

PfcNetDevice::~PfcNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
PfcNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (uint8_t p = 0; p < N_PRIORITIES; ++p)
    {
        m_queue[p].clear();
        if (m_pfc)
        {
            m_pfc->egressResumeEvent[p].Cancel();
            m_pfc->ingressRefreshEvent[p].Cancel();
            m_pfc->watchdogEvent[p].Cancel();
        }
    }
    m_queuedMask = 0;
    m_controlQueue.clear();
    m_controlQueued = false;
    m_arrivals.Clear();
    m_departures.Clear();
    if (Ptr<PfcNetDevice> peer = GetPeer())
    {
        peer->m_departures.Clear(); // (frames in flight to this port go with it)
    }
    m_completionEvent.Cancel();
    m_node = nullptr;
    m_channel = nullptr;
    m_cablePeer = nullptr; // (the cable kept it alive)
    m_receiveErrorModel = nullptr;
    m_owner = nullptr;
    m_receiveHook = ReceiveHook();
    m_dequeueCallback = DequeueCallback();
    m_rxCallback = NetDevice::ReceiveCallback();
    m_promiscRxCallback = NetDevice::PromiscReceiveCallback();
    NetDevice::DoDispose();
}

void
PfcNetDevice::SetDataRate(DataRate rate)
{
    NS_LOG_FUNCTION(this << rate);
    if (rate.GetBitRate() == 0)
    {
        InterconnectConfigError("ns3::PfcNetDevice::DataRate", "0bps", "a rate above 0 bps");
    }
    m_wireClock.SetRate(rate);
}

DataRate
PfcNetDevice::GetDataRate() const
{
    return m_wireClock.GetRate();
}

void
PfcNetDevice::SetDwrrWeights(std::string weights)
{
    std::array<uint32_t, N_PRIORITIES> parsed{};
    std::istringstream in(weights);
    std::string item;
    uint32_t n = 0;
    bool ok = true;
    while (ok && std::getline(in, item, ','))
    {
        char* end = nullptr;
        const unsigned long w = std::strtoul(item.c_str(), &end, 10);
        ok = n < N_PRIORITIES && !item.empty() && *end == '\0' && w >= 1 && w <= 1000;
        if (ok)
        {
            parsed[n++] = static_cast<uint32_t>(w);
        }
    }
    if (!ok || n != N_PRIORITIES)
    {
        InterconnectConfigError("ns3::PfcNetDevice::DwrrWeights",
                                "\"" + weights + "\"",
                                "8 comma-separated integers 1..1000, e.g. \"1,1,1,4,1,1,1,1\"");
    }
    m_dwrrWeight = parsed;
}

std::string
PfcNetDevice::GetDwrrWeights() const
{
    std::ostringstream os;
    for (uint8_t p = 0; p < N_PRIORITIES; ++p)
    {
        os << (p ? "," : "") << m_dwrrWeight[p];
    }
    return os.str();
}

bool
PfcNetDevice::Attach(Ptr<PfcChannel> channel)
{
    NS_LOG_FUNCTION(this << channel);
    m_channel = channel;
    m_channel->Attach(this);
    return true;
}

uint32_t
PfcNetDevice::WireBytes(uint32_t frameBytes)
{
    return std::max(frameBytes, MIN_FRAME) + WIRE_OVERHEAD;
}

Time
PfcNetDevice::GetWireTime(uint32_t bytes) const
{
    return m_wireClock.GetTxTime(WireBytes(bytes));
}

Ptr<Packet>
PfcNetDevice::WithEthernetHeader(Ptr<const Packet> frame, uint16_t etherType, bool sent) const
{
    Ptr<Packet> copy = frame->Copy();
    EthernetHeader eth(false);
    Ptr<PfcNetDevice> peer = GetPeer();
    const Mac48Address other = peer ? peer->m_address : Mac48Address::GetBroadcast();
    eth.SetSource(sent ? m_address : other);
    if (etherType == PfcHeader::ETHERTYPE)
    {
        eth.SetDestination(PfcHeader::GetMulticastAddress());
    }
    else
    {
        eth.SetDestination(sent ? other : m_address);
    }
    eth.SetLengthType(etherType);
    copy->AddHeader(eth);
    return copy;
}

bool
PfcNetDevice::Enqueue(const Ptr<Packet>& packet,
                      uint8_t priority,
                      uint32_t tag,
                      const PfcFrameInfo& info)
{
    return Enqueue(PacketRef(packet),
                   PeekPointer(packet)->GetSize() + ETHERNET_HEADER,
                   priority,
                   tag,
                   info);
}

bool
PfcNetDevice::Enqueue(PacketRef packet,
                      uint32_t bytes,
                      uint8_t priority,
                      uint32_t tag,
                      const PfcFrameInfo& info)
{
    NS_LOG_FUNCTION(this << packet.Peek() << bytes << +priority << tag);
    NS_ASSERT_MSG(priority < N_PRIORITIES, "priority " << +priority << " out of 0..7");
    if (m_watchdogMask & (1u << priority))
    {
        ++m_pfc->watchdogDrops; // a stormed priority takes no frames (m_pfc made at the trip)
        DropFrame(packet.Lend(), priority, tag);
        return false;
    }
    if (m_queueLimit != 0 && m_queue[priority].size() >= m_queueLimit)
    {
        ++m_queueLimitDrops;
        DropFrame(packet.Lend(), priority, tag);
        return false;
    }
    if (m_traced & TRACED_MAC_TX)
    {
        m_macTxTrace(WithEthernetHeader(packet.Lend(), Ipv4L3Protocol::PROT_NUMBER, true));
    }
    m_queueBytes[priority] += bytes;
    TraceQueueBytes(priority);
    // A frame that TryTransmit would take straight back out (nothing else queued, the wire
    // free, the priority not paused) goes to the wire without passing through the queue: its
    // ring's lines are out of cache at fabric scale (doc/performance-log.rst). The
    // queue's byte count still rises and falls, as its trace tells.
    if (m_queuedMask == 0 && !m_controlQueued && !m_txBusy && m_scheduler == STRICT_PRIORITY &&
        (m_egressPausedMask & (1u << priority)) == 0 && m_channel)
    {
        const int64_t now = InterconnectSimulatorImpl::NowStep();
        if (now >= m_busyUntil)
        {
            m_queueBytes[priority] -= bytes;
            TraceQueueBytes(priority);
            Transmit(std::move(packet), bytes, priority, tag, info, now);
            return true;
        }
    }
    m_queue[priority].push_back(Item{std::move(packet), tag, info, bytes});
    m_queuedMask |= 1u << priority;
    TryTransmit();
    return true;
}

uint8_t
PfcNetDevice::PickPriority()
{
    const uint32_t eligible = Eligible();
    if (eligible == 0)
    {
        return N_PRIORITIES;
    }
    if (m_scheduler == STRICT_PRIORITY)
    {
        return Highest(eligible);
    }
    // DWRR (Shreedhar and Varghese, SIGCOMM 1995): visit the eligible queues in turn; a queue
    // whose head fits its deficit sends, otherwise it gets its quantum and the turn passes.
    while (true)
    {
        const uint8_t p = m_dwrrNext;
        if ((eligible & (1u << p)) == 0)
        {
            if (m_queue[p].empty())
            {
                m_deficit[p] = 0; // an idle queue keeps no credit
            }
            m_dwrrNext = (p + 1) % N_PRIORITIES;
            continue;
        }
        const int64_t head = m_queue[p].front().bytes;
        if (m_deficit[p] >= head)
        {
            m_deficit[p] -= head;
            return p;
        }
        m_deficit[p] += static_cast<int64_t>(m_dwrrWeight[p]) * m_mtu;
        if (m_deficit[p] < head)
        {
            continue; // larger than one quantum: keep adding on this visit
        }
        m_deficit[p] -= head;
        // Stay on p: it may send more frames while its deficit lasts.
        return p;
    }
}

void
PfcNetDevice::TryTransmit()
{
    if (m_txBusy || !m_channel)
    {
        return; // no wire, or called back from the owner while a frame starts
    }
    const int64_t now = InterconnectSimulatorImpl::NowStep();
    if (now < m_busyUntil)
    {
        ArmCompletion(now); // a frame waits for the one on the wire
        return;
    }
    if (m_controlQueued)
    {
        PacketRef frame = std::move(m_controlQueue.front());
        m_controlQueue.pop_front();
        m_controlQueued = !m_controlQueue.empty();
        const uint32_t bytes = frame->GetSize() + ETHERNET_HEADER;
        StartTransmission(std::move(frame), bytes, PfcHeader::ETHERTYPE, now);
        ArmCompletion(now);
        return;
    }
    const uint8_t p = PickPriority();
    if (p == N_PRIORITIES)
    {
        return;
    }
    // A derived cable's state (two lines), which StartTransmission reads last, fetched while
    // the owner hears of the dequeue (a switch's buffer accounting); a plain cable's is not read.
    if (m_cablePeer == nullptr)
    {
        const char* cable = reinterpret_cast<const char*>(PeekPointer(m_channel));
        __builtin_prefetch(cable);
        __builtin_prefetch(cable + 64);
    }
    // The queue's reference becomes the frame's, uncounted (PacketRef), and its packet is not
    // read: its size came with it.
    Item& head = m_queue[p].front();
    PacketRef frame = std::move(head.packet);
    const uint32_t tag = head.tag;
    const PfcFrameInfo info = head.info;
    const uint32_t bytes = head.bytes;
    m_queue[p].pop_front();
    if (m_queue[p].empty())
    {
        m_queuedMask &= ~(1u << p);
    }
    m_queueBytes[p] -= bytes;
    TraceQueueBytes(p);
    if (m_scheduler == DWRR &&
        (m_queue[p].empty() || m_deficit[p] < static_cast<int64_t>(m_queue[p].front().bytes)))
    {
        m_dwrrNext = (p + 1) % N_PRIORITIES; // turn over
    }
    Transmit(std::move(frame), bytes, p, tag, info, now);
}

void
PfcNetDevice::Transmit(PacketRef frame,
                       uint32_t bytes,
                       uint8_t priority,
                       uint32_t tag,
                       const PfcFrameInfo& info,
                       int64_t now)
{
    // The wire is taken before the owner hears of the dequeue: the owner may enqueue from the
    // callback (a NIC refills), and that must not start another frame ahead of this one.
    m_txBusy = true;
    if (m_owner)
    {
        m_owner->PortDequeueFrame(m_ownerPort, frame.Lend(), priority, tag, bytes);
    }
    else if (!m_dequeueCallback.IsNull())
    {
        m_dequeueCallback(this, frame.Lend(), priority, tag);
    }
    StartTransmission(std::move(frame), bytes, Ipv4L3Protocol::PROT_NUMBER, now, info);
    m_txBusy = false;
    ArmCompletion(now);
}

void
PfcNetDevice::ArmCompletion(int64_t now)
{
    if (m_completionPending)
    {
        return;
    }
    if (m_queuedMask != 0 || m_controlQueued)
    {
        m_completionPending = true;
        // What the completion's dequeue reads first, fetched while the events before it run
        // (CanonicalScheduler::HintNextEvent): the port, the queue it will serve, its head's
        // slot (not the packet, which a switch's dequeue does not read), and what the owner
        // names (a NIC: its hot fields and the queue pair that refills the port). Only a hint: a
        // pause, a PFC frame or a frame of a higher priority may change the queue by then.
        const uint32_t eligible = Eligible();
        if (eligible != 0 && m_scheduler == STRICT_PRIORITY)
        {
            const uint8_t p = Highest(eligible);
            const Item& head = m_queue[p].front();
            auto& hints = m_completionEvent.Hints();
            hints = {this, &m_queue[p], &head, nullptr, nullptr};
            if (m_ownerSendLines)
            {
                m_owner->PortSendLines(m_ownerPort, hints[3], hints[4]);
            }
            else
            {
                // (A switch's port: its owner names nothing.) The frames in flight, which the
                // frame joins, and the lines from the wire's clock to the receive fields (the
                // owner's): two on ns-3.37, three from ns-3.42.
                hints[3] = &m_departures;
                const auto clock = reinterpret_cast<uintptr_t>(&m_wireClock) & ~uintptr_t{63};
                const auto receiveEnd = reinterpret_cast<uintptr_t>(&m_traced);
                hints[4] = CanonicalScheduler::SpanHint(reinterpret_cast<const void*>(clock),
                                                        (receiveEnd - clock) / 64 + 1);
            }
            CanonicalScheduler::HintNextEvent(hints.data());
        }
        m_completionEvent.Schedule(TimeStep(m_busyUntil - now));
    }
}

void
PfcNetDevice::StartTransmission(PacketRef frame,
                                uint32_t bytes,
                                uint16_t etherType,
                                int64_t now,
                                const PfcFrameInfo& info)
{
    NS_LOG_FUNCTION(this << frame.Peek() << bytes << etherType);
    ++m_framesSent;
    const uint32_t wireBytes = WireBytes(bytes);
    m_txBytes += wireBytes;
    // Back-to-back frames end at their exact cumulative wire time, rounded (WireClock); the
    // channel delivers even a frame that took 0 steps one step after its start.
    const int64_t end = m_wireClock.Send(now, wireBytes);
    // No completion event per frame: one is scheduled only when a frame waits (ArmCompletion).
    m_busyUntil = end;
    if (m_traced & (TRACED_PHY_TX_BEGIN | TRACED_SNIFFER))
    {
        Ptr<const Packet> seen = WithEthernetHeader(frame.Lend(), etherType, true);
        m_phyTxBeginTrace(seen);
        m_snifferTrace(seen);
    }
    if (m_cablePeer != nullptr)
    {
        // A plain cable, from what it told this port: the cable's object (two lines that have
        // left the cache at fabric scale) is not read on the way.
        ScheduleDeparture(m_cablePeer,
                          now,
                          PfcChannel::OnWireSteps(end - now) + m_cableDelay,
                          m_cableSent++,
                          std::move(frame),
                          bytes,
                          etherType,
                          info);
        return;
    }
    m_channel->TransmitStart(frame.Lend(), this, now, TimeStep(end - now), etherType, info);
}

void
PfcNetDevice::TransmitComplete()
{
    m_completionPending = false;
    TryTransmit();
}

void
PfcNetDevice::SendPfcFrame(uint8_t priority, uint16_t quanta)
{
    NS_LOG_FUNCTION(this << +priority << quanta);
    PfcHeader pfc;
    pfc.SetPause(priority, quanta);
    Ptr<Packet> frame = Create<Packet>();
    frame->AddHeader(pfc);
    ++Pfc().sent[priority];
    m_pfcTxTrace(priority, quanta);
    m_controlQueue.push_back(PacketRef(frame));
    m_controlQueued = true;
    TryTransmit();
}

void
PfcNetDevice::SetIngressPause(uint8_t priority, bool pause)
{
    NS_LOG_FUNCTION(this << +priority << pause);
    NS_ASSERT(priority < N_PRIORITIES);
    if (!pause && !m_pfc)
    {
        return; // nothing paused yet
    }
    Pfc().pauseWanted[priority] = pause;
    UpdateIngressPause(priority);
}

void
PfcNetDevice::SetPauseStorm(uint8_t priority, bool on)
{
    NS_LOG_FUNCTION(this << +priority << on);
    NS_ABORT_MSG_IF(priority >= N_PRIORITIES,
                    "PfcNetDevice::SetPauseStorm: priority " << +priority << " out of 0..7");
    uint8_t& mask = Pfc().stormMask;
    mask = on ? (mask | (1u << priority)) : (mask & ~(1u << priority));
    UpdateIngressPause(priority);
}

void
PfcNetDevice::UpdateIngressPause(uint8_t priority)
{
    PfcState& pfc = Pfc();
    const bool pause = pfc.pauseWanted[priority] || (pfc.stormMask & (1u << priority));
    if (pause == pfc.ingressPaused[priority])
    {
        return;
    }
    pfc.ingressPaused[priority] = pause;
    if (pause)
    {
        RefreshPause(priority);
    }
    else
    {
        pfc.ingressRefreshEvent[priority].Cancel();
        SendPfcFrame(priority, 0);
    }
}

void
PfcNetDevice::RefreshPause(uint8_t priority)
{
    SendPfcFrame(priority, m_pauseQuanta);
    // The peer counts the pause from the frame's arrival; refreshing after a fraction of it
    // (measured from now, before this frame even left) keeps the pause continuous.
    const Time period = PfcHeader::QuantaToTime(m_pauseQuanta, GetDataRate()) * m_pauseRefresh;
    m_pfc->ingressRefreshEvent[priority] =
        Simulator::Schedule(period, &PfcNetDevice::RefreshPause, this, priority);
}

bool
PfcNetDevice::IsIngressPaused(uint8_t priority) const
{
    return m_pfc && m_pfc->ingressPaused[priority];
}

PfcNetDevice::PfcState&
PfcNetDevice::Pfc()
{
    if (!m_pfc)
    {
        m_pfc = std::make_unique<PfcState>();
    }
    return *m_pfc;
}

bool
PfcNetDevice::IsEgressPaused(uint8_t priority) const
{
    return (m_egressPausedMask >> priority) & 1u;
}

void
PfcNetDevice::ReceivePfc(Ptr<Packet> packet)
{
    PfcHeader pfc;
    packet->RemoveHeader(pfc);
    if (!pfc.IsValid())
    {
        NS_LOG_WARN("MAC control frame with an opcode other than PFC ignored");
        return;
    }
    PfcState& state = Pfc();
    for (uint8_t p = 0; p < N_PRIORITIES; ++p)
    {
        if (!pfc.IsEnabled(p))
        {
            continue;
        }
        const uint16_t quanta = pfc.GetQuanta(p);
        ++state.received[p];
        m_pfcRxTrace(p, quanta);
        state.egressResumeEvent[p].Cancel();
        if (quanta == 0)
        {
            EndEgressPause(p);
            continue;
        }
        if (!IsEgressPaused(p))
        {
            m_egressPausedMask |= 1u << p;
            state.egressPauseStart[p] = Simulator::Now();
            m_egressPausedTrace(p, true);
            if (m_watchdogTime.IsStrictlyPositive() && !IsWatchdogTripped(p))
            {
                state.watchdogEvent[p].Cancel();
                state.watchdogEvent[p] =
                    Simulator::Schedule(m_watchdogTime, &PfcNetDevice::WatchdogCheck, this, p);
            }
        }
        state.egressResumeEvent[p] =
            Simulator::Schedule(PfcHeader::QuantaToTime(quanta, GetDataRate()),
                                &PfcNetDevice::EndEgressPause,
                                this,
                                p);
    }
}

void
PfcNetDevice::EndEgressPause(uint8_t priority)
{
    if (!IsEgressPaused(priority))
    {
        return;
    }
    m_egressPausedMask &= ~(1u << priority);
    PfcState& state = *m_pfc; // (made when the pause came)
    state.egressPausedTotal[priority] += Simulator::Now() - state.egressPauseStart[priority];
    m_egressPausedTrace(priority, false);
    state.watchdogEvent[priority].Cancel(); // (if not tripped: the pause broke, no storm)
    if (IsWatchdogTripped(priority))
    {
        state.watchdogEvent[priority] = Simulator::Schedule(m_watchdogRestoreTime,
                                                            &PfcNetDevice::WatchdogRestore,
                                                            this,
                                                            priority);
    }
    TryTransmit();
}

void
PfcNetDevice::WatchdogCheck(uint8_t priority)
{
    if (!IsEgressPaused(priority) || IsWatchdogTripped(priority))
    {
        return;
    }
    if (m_queue[priority].empty())
    {
        // Paused, but nothing waits: look again one detection time on.
        m_pfc->watchdogEvent[priority] =
            Simulator::Schedule(m_watchdogTime, &PfcNetDevice::WatchdogCheck, this, priority);
        return;
    }
    NS_LOG_WARN("PFC watchdog: priority " << +priority << " paused since "
                                          << m_pfc->egressPauseStart[priority].As(Time::US)
                                          << ": declared stormed");
    m_watchdogMask |= 1u << priority;
    ++m_pfc->watchdogTrips;
    // Drop what waits; what comes drops in Enqueue until the storm ends.
    RingQueue<Item> queued;
    queued.swap(m_queue[priority]);
    m_queuedMask &= ~(1u << priority);
    m_queueBytes[priority] = 0;
    TraceQueueBytes(priority);
    for (const Item& item : queued)
    {
        ++m_pfc->watchdogDrops;
        DropFrame(item.packet.Share(), priority, item.tag);
    }
    m_watchdogTrace(priority, true);
}

void
PfcNetDevice::WatchdogRestore(uint8_t priority)
{
    if (!IsWatchdogTripped(priority) || IsEgressPaused(priority))
    {
        return; // paused again: the next end of pause looks again
    }
    m_watchdogMask &= ~(1u << priority);
    m_watchdogTrace(priority, false);
}

void
PfcNetDevice::DropFrame(const Ptr<Packet>& packet, uint8_t priority, uint32_t tag)
{
    if (!m_macTxDropTrace.IsEmpty())
    {
        m_macTxDropTrace(WithEthernetHeader(packet, Ipv4L3Protocol::PROT_NUMBER, true));
    }
    if (m_owner)
    {
        m_owner->PortDrop(m_ownerPort, packet, priority, tag);
    }
}

Time
PfcNetDevice::GetEgressPauseStart(uint8_t priority) const
{
    return m_pfc ? m_pfc->egressPauseStart[priority] : Time(0);
}

std::vector<uint32_t>
PfcNetDevice::GetQueuedTags(uint8_t priority) const
{
    std::vector<uint32_t> tags;
    tags.reserve(m_queue[priority].size());
    for (const Item& item : m_queue[priority])
    {
        tags.push_back(item.tag);
    }
    return tags;
}

bool
PfcNetDevice::IsWatchdogTripped(uint8_t priority) const
{
    return (m_watchdogMask >> priority) & 1u;
}

uint64_t
PfcNetDevice::GetWatchdogTrips() const
{
    return m_pfc ? m_pfc->watchdogTrips : 0;
}

uint64_t
PfcNetDevice::GetWatchdogDrops() const
{
    return m_pfc ? m_pfc->watchdogDrops : 0;
}

void
PfcNetDevice::Receive(Ptr<Packet> packet, uint16_t type, const PfcFrameInfo& info)
{
    NS_LOG_FUNCTION(this << packet << type);
    if (m_receiveErrorModel)
    {
        // The error model judges the frame as it was on the wire, Ethernet header included.
        Ptr<Packet> wire = WithEthernetHeader(packet, type, false);
        if (m_receiveErrorModel->IsCorrupt(wire))
        {
            ++m_errorModelDrops;
            m_phyRxDropTrace(wire);
            return;
        }
    }
    if (m_traced & TRACED_SNIFFER)
    {
        m_snifferTrace(WithEthernetHeader(packet, type, false));
    }
    if (type == PfcHeader::ETHERTYPE)
    {
        ReceivePfc(packet);
        return;
    }
    if (m_traced & TRACED_MAC_RX)
    {
        m_macRxTrace(packet);
    }
    if (m_owner && m_owner->PortReceive(m_ownerPort, packet, type, info))
    {
        return;
    }
    ReceiveUnowned(packet, type);
}

void
PfcNetDevice::ReceiveUnowned(const Ptr<Packet>& packet, uint16_t type)
{
    if (!m_receiveHook.IsNull() && m_receiveHook(this, packet, type))
    {
        return;
    }
    Ptr<PfcNetDevice> peer = GetPeer();
    const Mac48Address from = peer ? peer->m_address : Mac48Address::GetBroadcast();
    if (!m_promiscRxCallback.IsNull())
    {
        m_promiscRxCallback(this, packet, type, from, m_address, NetDevice::PACKET_HOST);
    }
    if (!m_rxCallback.IsNull())
    {
        m_rxCallback(this, packet, type, from);
    }
}

void
PfcNetDevice::ScheduleReceive(int64_t now,
                              Time delay,
                              uint64_t sequence,
                              const Ptr<Packet>& packet,
                              uint16_t etherType,
                              const PfcFrameInfo& info)
{
    m_arrivals.Push(Arriving{PacketRef(packet),
                             info,
                             etherType,
                             PeekPointer(packet)->GetSize() + ETHERNET_HEADER},
                    now,
                    delay.GetTimeStep(),
                    sequence,
                    m_nodeId,
                    m_ifIndex);
}

void
PfcNetDevice::ScheduleDeparture(PfcNetDevice* peer,
                                int64_t now,
                                int64_t delay,
                                uint64_t sequence,
                                const Ptr<Packet>& packet,
                                uint16_t etherType,
                                const PfcFrameInfo& info)
{
    ScheduleDeparture(peer,
                      now,
                      delay,
                      sequence,
                      PacketRef(packet),
                      PeekPointer(packet)->GetSize() + ETHERNET_HEADER,
                      etherType,
                      info);
}

void
PfcNetDevice::ScheduleDeparture(PfcNetDevice* peer,
                                int64_t now,
                                int64_t delay,
                                uint64_t sequence,
                                PacketRef packet,
                                uint32_t bytes,
                                uint16_t etherType,
                                const PfcFrameInfo& info)
{
    if (!m_departures.IsBound())
    {
        PfcPortOwner* owner = peer->m_owner;
        m_departures.Bind(peer, // (its receive line, and its owner's for it)
                          &peer->m_owner,
                          owner ? owner->PortReceiveLine(peer->m_ownerPort) : nullptr,
                          owner ? owner->PortReadsPackets(peer->m_ownerPort) : true,
                          owner ? owner->PortReceiveSpan(peer->m_ownerPort) : nullptr);
        m_peerNodeId = peer->m_nodeId;
        m_peerIfIndex = peer->m_ifIndex;
    }
    NS_ASSERT(m_departures.IsBoundTo(peer));
    m_departures.Push(Arriving{std::move(packet), info, etherType, bytes},
                      now,
                      delay,
                      sequence,
                      m_peerNodeId,
                      m_peerIfIndex);
}

void
PfcNetDevice::UseCable(PfcNetDevice* peer, Time delay)
{
    NS_LOG_FUNCTION(this << peer << delay);
    m_cablePeer = peer;
    m_cableDelay = delay.GetTimeStep();
}

void
PfcNetDevice::Arrive(Arriving& frame)
{
    // A data frame that nothing but the owner sees (no error model, sniffer or trace) goes to
    // it with its reference and size: a switch passes it on without reading the packet.
    if (m_owner && frame.etherType == Ipv4L3Protocol::PROT_NUMBER && !m_receiveErrorModel &&
        (m_traced & (TRACED_SNIFFER | TRACED_MAC_RX)) == 0)
    {
        NS_LOG_FUNCTION(this << frame.packet.Peek() << frame.etherType);
        const bool consumed = m_owner->PortReceiveFrame(m_ownerPort,
                                                        frame.packet,
                                                        frame.bytes,
                                                        frame.etherType,
                                                        frame.info);
        if (frame.packet.Peek() == nullptr)
        {
            return; // (the owner took the reference: it consumed the frame)
        }
        const Ptr<Packet> packet = frame.packet.Release(); // (dropped on return, as Receive's)
        if (!consumed)
        {
            ReceiveUnowned(packet, frame.etherType);
        }
        return;
    }
    Receive(frame.packet.Release(), frame.etherType, frame.info);
}

const void*
PfcNetDevice::ArrivalHint(const Arriving& frame) const
{
    if (m_owner == nullptr || !frame.info.IsKnown())
    {
        return nullptr;
    }
    return m_owner->PortArrivalHint(m_ownerPort, frame.info);
}

void
PfcNetDevice::SetOwner(PfcPortOwner* owner, uint32_t port)
{
    m_owner = owner;
    m_ownerPort = port;
    m_ownerSendLines = owner != nullptr && owner->PortNamesSendLines(port);
}

void
PfcNetDevice::SetReceiveHook(ReceiveHook hook)
{
    m_receiveHook = hook;
}

void
PfcNetDevice::SetDequeueCallback(DequeueCallback callback)
{
    m_dequeueCallback = callback;
}

uint32_t
PfcNetDevice::GetQueueBytes(uint8_t priority) const
{
    return m_queueBytes[priority];
}

uint32_t
PfcNetDevice::GetQueueFrames(uint8_t priority) const
{
    return static_cast<uint32_t>(m_queue[priority].size());
}

Time
PfcNetDevice::GetChannelDelay() const
{
    return m_channel ? m_channel->GetDelay() : Time(0);
}

Ptr<PfcNetDevice>
PfcNetDevice::GetPeer() const
{
    return m_channel ? m_channel->GetPeer(this) : nullptr;
}

uint64_t
PfcNetDevice::GetPfcFramesSent(uint8_t priority) const
{
    return m_pfc ? m_pfc->sent[priority] : 0;
}

uint64_t
PfcNetDevice::GetPfcFramesReceived(uint8_t priority) const
{
    return m_pfc ? m_pfc->received[priority] : 0;
}

Time
PfcNetDevice::GetEgressPausedTime(uint8_t priority) const
{
    if (!m_pfc)
    {
        return Time(0);
    }
    Time total = m_pfc->egressPausedTotal[priority];
    if (IsEgressPaused(priority))
    {
        total += Simulator::Now() - m_pfc->egressPauseStart[priority];
    }
    return total;
}

uint64_t
PfcNetDevice::GetQueueLimitDrops() const
{
    return m_queueLimitDrops;
}

uint64_t
PfcNetDevice::GetFramesSent() const
{
    return m_framesSent;
}

uint64_t
PfcNetDevice::GetTxBytes() const
{
    return m_txBytes;
}

uint64_t
PfcNetDevice::GetErrorModelDrops() const
{
    return m_errorModelDrops;
}

// ---------------------------------------------------------------------------
// NetDevice
// ---------------------------------------------------------------------------

void
PfcNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
PfcNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
PfcNetDevice::GetChannel() const
{
    return m_channel;
}

void
PfcNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
PfcNetDevice::GetAddress() const
{
    return m_address;
}

bool
PfcNetDevice::SetMtu(const uint16_t mtu)
{
    if (mtu < 68 || mtu > 9216)
    {
        InterconnectConfigError("ns3::PfcNetDevice::Mtu",
                                std::to_string(mtu),
                                "68..9216 bytes (the largest IPv4 packet)");
    }
    m_mtu = mtu;
    return true;
}

uint16_t
PfcNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
PfcNetDevice::IsLinkUp() const
{
    return m_channel != nullptr;
}

void
PfcNetDevice::AddLinkChangeCallback(Callback<void> /* callback */)
{
}

bool
PfcNetDevice::IsBroadcast() const
{
    return true;
}

Address
PfcNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
PfcNetDevice::IsMulticast() const
{
    return false;
}

Address
PfcNetDevice::GetMulticast(Ipv4Address /* multicastGroup */) const
{
    return Mac48Address::GetMulticast(Ipv4Address("224.0.0.0"));
}

Address
PfcNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
PfcNetDevice::IsPointToPoint() const
{
    return true;
}

bool
PfcNetDevice::IsBridge() const
{
    return false;
}

bool
PfcNetDevice::Send(Ptr<Packet> packet, const Address& /* dest */, uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << protocolNumber);
    if (protocolNumber != Ipv4L3Protocol::PROT_NUMBER)
    {
        NS_LOG_WARN("PfcNetDevice carries IPv4 only; dropping protocol " << protocolNumber);
        m_macTxDropTrace(packet);
        return false;
    }
    // The priority follows the DSCP class selector (DSCP / 8), as a switch would classify it.
    uint8_t head[2] = {0, 0}; // version/IHL, then DSCP (6 bits) and ECN (2 bits)
    packet->CopyData(head, 2);
    const uint8_t priority = static_cast<uint8_t>((head[1] >> 2) >> 3);
    return Enqueue(packet, priority, 0);
}

bool
PfcNetDevice::SendFrom(Ptr<Packet> packet,
                       const Address& /* source */,
                       const Address& dest,
                       uint16_t protocolNumber)
{
    return Send(packet, dest, protocolNumber);
}

Ptr<Node>
PfcNetDevice::GetNode() const
{
    return m_node;
}

void
PfcNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
    m_nodeId = node ? node->GetId() : 0;
}

bool
PfcNetDevice::NeedsArp() const
{
    return false;
}

void
PfcNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
PfcNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback cb)
{
    m_promiscRxCallback = cb;
}

bool
PfcNetDevice::SupportsSendFrom() const
{
    return false;
}

} // namespace ns3
