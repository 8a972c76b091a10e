/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-queue-pair.h"

#include "ib-bth-header.h"
#include "rdma-psn.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/interconnect-compat.h"
#include "ns3/interconnect-config-error.h"
#include "ns3/ipv4-address.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaQueuePair");

NS_OBJECT_ENSURE_REGISTERED(RdmaQueuePair);

using rdma::PsnAdd;
using rdma::PsnDiff;

namespace
{
/// Out-of-order placement holds at most this many packets beyond the expected PSN.
constexpr int32_t OOO_WINDOW = 1 << 16;
} // namespace

std::string
RdmaVerbName(RdmaVerb verb)
{
    switch (verb)
    {
    case RdmaVerb::WRITE:
        return "write";
    case RdmaVerb::SEND:
        return "send";
    case RdmaVerb::READ:
        return "read";
    }
    return "?";
}

TypeId
RdmaQueuePair::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaQueuePair")
            .SetParent<Object>()
            .SetGroupName("Interconnect")
            .AddConstructor<RdmaQueuePair>()
            .AddAttribute("Mtu",
                          "Path MTU: payload bytes per packet (256, 512, 1024, 2048 or 4096, as "
                          "IBTA defines). Default: 1024.",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&RdmaQueuePair::SetMtu, &RdmaQueuePair::GetMtu),
                          MakeUintegerChecker<uint32_t>(256, 4096))
            .AddAttribute("InitialPsn",
                          "First PSN of the requester (0..2^24-1).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaQueuePair::m_initialPsn),
                          MakeUintegerChecker<uint32_t>(0, rdma::PSN_MASK))
            .AddAttribute("AckInterval",
                          "The responder acknowledges every this many packets (1..1024), and "
                          "always at a message end or on AckReq.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaQueuePair::m_ackInterval),
                          MakeUintegerChecker<uint32_t>(1, 1024))
            .AddAttribute("RetransmitTimeout",
                          "Time without progress after which the requester resends from the "
                          "oldest unacknowledged PSN. Default: 4.096 us x 2^8 = 1.048576 ms "
                          "(IBTA local ACK timeout value 8).",
                          TimeValue(NanoSeconds(1048576)),
                          MakeTimeAccessor(&RdmaQueuePair::m_rto),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("OutOfOrderReceive",
                          "The responder places WRITE/SEND packets that arrive after a gap "
                          "instead of dropping and NAKing them (out-of-order placement, needed "
                          "with per-packet spraying); a lost packet is then recovered by the "
                          "retransmission timeout.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaQueuePair::m_outOfOrder),
                          MakeBooleanChecker())
            .AddAttribute(
                "Transport",
                "How lost packets are recovered: gbn (IBTA RC's go-back-N: the "
                "responder drops packets past a gap and NAKs once) or irn (IRN's "
                "selective repeat, Mittal et al. SIGCOMM 2018: packets past a gap are "
                "placed and each answered by a NAK naming it; the requester resends "
                "only what is missing) or uet (an Ultra Ethernet-style transport, UEC 1.0: "
                "every packet sprayed with its own entropy, placed wherever it arrives and "
                "acknowledged selectively; a PSN is lost when one UetLossThreshold above it "
                "was acknowledged or a switch trimmed it). Both ends of a queue pair must "
                "agree.",
                EnumValue(RdmaQueuePair::GO_BACK_N),
                INTERCONNECT_ENUM_ACCESSOR(RdmaQueuePair::Transport, &RdmaQueuePair::m_transport),
                MakeEnumChecker(RdmaQueuePair::GO_BACK_N,
                                "gbn",
                                RdmaQueuePair::IRN,
                                "irn",
                                RdmaQueuePair::UET,
                                "uet"))
            .AddAttribute("IrnRtoLow",
                          "IRN's timeout while at most IrnRtoLowPackets PSNs are in flight (a "
                          "loss at the tail, which no later packet reveals). Default: 100 us, "
                          "the paper's RTO_low.",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&RdmaQueuePair::m_rtoLow),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("IrnRtoLowPackets",
                          "In flight at most this many PSNs, IRN times out after IrnRtoLow "
                          "instead of RetransmitTimeout (the paper's N = 3).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&RdmaQueuePair::m_rtoLowPackets),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MaxOutstandingPackets",
                          "PSNs the requester keeps in flight at most (IRN's BDP-FC: the "
                          "bandwidth-delay product of the longest path in packets); 0: no cap.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaQueuePair::m_maxOutstanding),
                          MakeUintegerChecker<uint32_t>(0, rdma::PSN_MASK / 2))
            .AddAttribute("SprayEntropies",
                          "uet: the entropy values (RoCEv2 UDP source ports) a queue pair "
                          "cycles through, one per packet; the switches' ECMP hash maps each to "
                          "a path. 1: no spraying (one path, as a flow-hashed queue pair).",
                          UintegerValue(256),
                          MakeUintegerAccessor(&RdmaQueuePair::m_sprayEntropies),
                          MakeUintegerChecker<uint32_t>(1, 16384))
            .AddAttribute("UetLossThreshold",
                          "uet: a PSN not acknowledged is declared lost once a PSN this many "
                          "above it was selectively acknowledged (the reordering spraying "
                          "tolerates before a retransmission).",
                          UintegerValue(64),
                          MakeUintegerAccessor(&RdmaQueuePair::m_lossThreshold),
                          MakeUintegerChecker<uint32_t>(1, 1 << 16))
            .AddAttribute("CongestionControl",
                          "The queue pair's congestion control (one object per queue pair; its "
                          "trace sources, e.g. DCQCN's Alpha, are reached through this)",
                          TypeId::ATTR_GET,
                          PointerValue(),
                          MakePointerAccessor(&RdmaQueuePair::m_cc),
                          MakePointerChecker<RdmaCongestionControl>())
            .AddTraceSource("Completion",
                            "A message completed at the requester",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_completionTrace),
                            "ns3::RdmaQueuePair::CompletionTracedCallback")
            .AddTraceSource("Rate",
                            "The congestion control changed the sending rate (old, new)",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_rateTrace),
                            "ns3::TracedValueCallback::DataRate")
            .AddTraceSource("Window",
                            "The congestion control changed the window, bytes (old, new; 0: "
                            "none)",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_windowTrace),
                            "ns3::TracedValueCallback::Uint64")
            .AddTraceSource("InterPacketDelay",
                            "The congestion control changed the gap it keeps between packets "
                            "(old, new; InfiniBand CC's CCT entry)",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_interPacketDelayTrace),
                            "ns3::TracedValueCallback::Time");
    return tid;
}

RdmaQueuePair::RdmaQueuePair()
    : m_qpn(0),
      m_peerQpn(0),
      m_entropy(0),
      m_priority(3),
      m_transport(GO_BACK_N),
      m_mtu(1024),
      m_maxOutstanding(0),
      m_sndNxt(0),
      m_sndUna(0),
      m_nextPostPsn(0),
      m_highestSent(0),
      m_ackHigh(0),
      m_window(0),
      m_outOfOrder(false),
      m_pacer(WireClock::DOWN),
      m_rto(NanoSeconds(1048576)),
      m_rtoLow(MicroSeconds(100)),
      m_rtoLowPackets(3),
      m_ePsn(0),
      m_msn(0),
      m_unacked(0),
      m_ackInterval(1),
      m_delivered(0),
      m_nakSent(false),
      m_ceSinceAck(false),
      m_initialPsn(0),
      m_sprayEntropies(256),
      m_lossThreshold(64),
      m_nextMessageId(0),
      m_streamBytes(0),
      m_retransmitted(0),
      m_timeouts(0),
      m_naks(0),
      m_cnps(0)
{
    // The send and acknowledgement fields end within SendLines wherever the object starts on
    // 16 bytes (up to 48 into a line).
    NS_ASSERT(reinterpret_cast<const char*>(&m_rtoLowPackets + 1) - reinterpret_cast<char*>(this) +
                  48 <=
              SEND_LINES * 64);
}

void
RdmaQueuePair::DoDispose()
{
    m_timer.Cancel();
    m_messages.clear();
    m_readJobs.clear();
    m_recovery.reset();
    if (m_cc)
    {
        m_cc->Dispose();
    }
    m_cc = nullptr;
    m_owner = nullptr;
    m_reportState = false;
    Object::DoDispose();
}

void
RdmaQueuePair::Setup(uint32_t qpn,
                     const Address& local,
                     const Address& peer,
                     uint16_t entropy,
                     uint8_t priority,
                     DataRate lineRate)
{
    m_qpn = qpn;
    m_local = local;
    m_peer = peer;
    m_peerIpv4 = Ipv4Address::IsMatchingType(peer) ? Ipv4Address::ConvertFrom(peer).Get() : 0;
    m_entropy = entropy;
    m_baseEntropy = entropy;
    m_priority = priority;
    m_lineRate = lineRate;
    m_rate = lineRate;
    m_pacer.SetRate(lineRate);
    m_nextPostPsn = m_initialPsn;
    m_sndNxt = m_initialPsn;
    m_sndUna = m_initialPsn;
    m_highestSent = m_initialPsn;
    m_ackHigh = m_initialPsn;
}

void
RdmaQueuePair::Connect(uint32_t peerQpn, uint32_t peerInitialPsn)
{
    m_peerQpn = peerQpn;
    m_ePsn = peerInitialPsn;
}

uint32_t
RdmaQueuePair::GetInitialPsn() const
{
    return m_initialPsn;
}

void
RdmaQueuePair::SetCongestionControl(Ptr<RdmaCongestionControl> cc)
{
    if (m_cc && m_cc != cc)
    {
        m_cc->Dispose(); // (its timers name this queue pair without holding it: DCQCN's)
    }
    m_cc = cc;
    m_cc->OnStart(this);
}

void
RdmaQueuePair::SetOwner(RdmaQueuePairOwner* owner, uint32_t index, bool reportState)
{
    m_owner = owner;
    m_ownerIndex = index;
    m_reportState = owner && reportState;
}

uint64_t
RdmaQueuePair::Post(RdmaVerb verb, uint64_t bytes, CompletionCallback done)
{
    NS_LOG_FUNCTION(this << RdmaVerbName(verb) << bytes);
    Message m;
    m.id = m_nextMessageId++;
    m.verb = verb;
    m.bytes = bytes;
    m.firstPsn = m_nextPostPsn;
    m.packets = static_cast<uint32_t>(std::max<uint64_t>(1, (bytes + m_mtu - 1) / m_mtu));
    NS_ABORT_MSG_IF(m.packets >= rdma::PSN_HALF / 2,
                    "RdmaQueuePair::Post: a message of " << bytes << " bytes needs more PSNs "
                                                         << "than a queue pair can have in flight");
    m.streamBase = m_streamBytes;
    m.readNext = m.firstPsn;
    m.readGap = false;
    m.posted = Simulator::Now();
    m.done = done;
    m_nextPostPsn = PsnAdd(m_nextPostPsn, m.packets);
    if (verb != RdmaVerb::READ)
    {
        m_streamBytes += bytes;
    }
    m_messages.push_back(m);
    Wake();
    return m.id;
}

uint32_t
RdmaQueuePair::PayloadOf(const Message& m, uint32_t k) const
{
    const uint64_t offset = static_cast<uint64_t>(k) * m_mtu;
    return static_cast<uint32_t>(std::min<uint64_t>(m_mtu, m.bytes - std::min(m.bytes, offset)));
}

RdmaQueuePair::Message*
RdmaQueuePair::FindMessage(uint32_t psn)
{
    return const_cast<Message*>(static_cast<const RdmaQueuePair*>(this)->FindMessage(psn));
}

const RdmaQueuePair::Message*
RdmaQueuePair::FindMessage(uint32_t psn) const
{
    for (const auto& m : m_messages)
    {
        const int32_t k = PsnDiff(psn, m.firstPsn);
        if (k >= 0 && static_cast<uint32_t>(k) < m.packets)
        {
            return &m;
        }
    }
    return nullptr;
}

uint64_t
RdmaQueuePair::StreamPosition(uint32_t psn) const
{
    for (const auto& m : m_messages)
    {
        const int32_t k = PsnDiff(psn, m.firstPsn);
        if (k < 0)
        {
            return m.streamBase; // before this message (acknowledged history)
        }
        if (static_cast<uint32_t>(k) < m.packets)
        {
            if (m.verb == RdmaVerb::READ)
            {
                return m.streamBase;
            }
            return m.streamBase + std::min<uint64_t>(m.bytes, static_cast<uint64_t>(k) * m_mtu);
        }
    }
    return m_streamBytes;
}

bool
RdmaQueuePair::HasPacketToSend() const
{
    return !m_readJobs.empty() || NextLost() || HasNewPacket();
}

bool
RdmaQueuePair::HasNewPacket() const
{
    if (PsnDiff(m_nextPostPsn, m_sndNxt) <= 0)
    {
        return false; // everything posted was sent
    }
    if (m_maxOutstanding != 0 &&
        static_cast<uint32_t>(PsnDiff(m_sndNxt, m_sndUna)) >= m_maxOutstanding)
    {
        return false;
    }
    return m_window == 0 || GetBytesInFlight() < m_window;
}

bool
RdmaQueuePair::NextLost() const
{
    if (!m_recovery)
    {
        return false;
    }
    Recovery& r = *m_recovery;
    const int32_t inFlight = PsnDiff(m_sndNxt, m_sndUna);
    // Reported trimmed: resend first, unless acknowledged since.
    while (!r.resend.empty())
    {
        const int32_t k = PsnDiff(r.resend.front(), m_sndUna);
        if (k >= 0 && k < inFlight &&
            (static_cast<std::size_t>(k) >= r.sacked.size() || r.sacked[k] != Recovery::SACKED))
        {
            r.pick = r.resend.front();
            r.picked = true;
            return true;
        }
        r.resend.pop_front();
    }
    const bool byThreshold = m_transport == UET && !r.active;
    if (m_transport != UET && !r.active)
    {
        return false;
    }
    // Lost: not selectively acknowledged, below the highest PSN that was (UET: by the loss
    // threshold, unless a timeout put it in recovery; after a timeout, the oldest unacknowledged
    // PSN at least), and sent. (The map may reach past the highest selectively acknowledged
    // PSN, with PSNs RESENT after a trim.)
    const int32_t highest = std::max<int32_t>(PsnDiff(r.sackHigh, m_sndUna), r.timedOut ? 1 : 0);
    const int32_t sackedEnd =
        byThreshold ? highest - static_cast<int32_t>(m_lossThreshold) : highest;
    const int32_t scanEnd = std::min<int32_t>(highest, inFlight);
    const int32_t end =
        std::min<int32_t>({sackedEnd, inFlight, static_cast<int32_t>(r.sacked.size())});
    int32_t i = std::max<int32_t>(0, PsnDiff(r.next, m_sndUna));
    for (; i < end; ++i)
    {
        // A PSN resent after a trim is not resent again but after a timeout.
        if (r.sacked[i] == Recovery::SACKED || (r.sacked[i] == Recovery::RESENT && !r.timedOut))
        {
            continue;
        }
        const uint32_t psn = PsnAdd(m_sndUna, i);
        const Message* m = FindMessage(psn);
        if (m && m->verb != RdmaVerb::READ)
        {
            r.next = psn;
            r.pick = psn;
            r.picked = false;
            return true;
        }
    }
    r.next = PsnAdd(m_sndUna, std::max<int32_t>(i, 0));
    if (m_transport == UET && i >= scanEnd)
    {
        r.active = false; // a timeout's resending is done: back to the threshold
        r.timedOut = false;
    }
    return false;
}

RdmaQueuePair::Recovery&
RdmaQueuePair::GetRecovery()
{
    if (!m_recovery)
    {
        m_recovery = std::make_unique<Recovery>();
        m_recovery->sackHigh = m_sndUna;
    }
    return *m_recovery;
}

void
RdmaQueuePair::EnterRecovery()
{
    Recovery& r = GetRecovery();
    if (r.active)
    {
        return;
    }
    r.active = true;
    r.timedOut = false;
    r.until = m_sndNxt;
    r.next = m_sndUna;
    if (m_cc)
    {
        m_cc->OnLoss(this, false);
    }
}

uint32_t
RdmaQueuePair::FillRequest(Message& m, uint32_t psn, RdmaTxDescriptor& d) const
{
    const uint32_t k = static_cast<uint32_t>(PsnDiff(psn, m.firstPsn));
    d.psn = psn;
    if (m.verb == RdmaVerb::READ)
    {
        d.opcode = IbBthHeader::RC_READ_REQUEST;
        d.payload = 0;
        d.hasReth = true;
        d.va = static_cast<uint64_t>(k) * m_mtu;
        d.dmaLength = static_cast<uint32_t>(m.bytes - std::min<uint64_t>(m.bytes, d.va));
        d.ackRequest = true;
        // readGap stays set until the first re-requested response arrives: responses of the
        // old request still in flight must not trigger another re-issue.
        m.readNext = psn;
        return PsnAdd(m.firstPsn, m.packets);
    }
    const bool write = m.verb == RdmaVerb::WRITE;
    const bool first = k == 0;
    const bool last = k + 1 == m.packets;
    if (first && last)
    {
        d.opcode = write ? IbBthHeader::RC_WRITE_ONLY : IbBthHeader::RC_SEND_ONLY;
    }
    else if (first)
    {
        d.opcode = write ? IbBthHeader::RC_WRITE_FIRST : IbBthHeader::RC_SEND_FIRST;
    }
    else if (last)
    {
        d.opcode = write ? IbBthHeader::RC_WRITE_LAST : IbBthHeader::RC_SEND_LAST;
    }
    else
    {
        d.opcode = write ? IbBthHeader::RC_WRITE_MIDDLE : IbBthHeader::RC_SEND_MIDDLE;
    }
    d.payload = PayloadOf(m, k);
    d.hasReth = write && first;
    d.va = 0;
    d.dmaLength = static_cast<uint32_t>(std::min<uint64_t>(m.bytes, 0xFFFFFFFFULL));
    d.ackRequest = last;
    return PsnAdd(psn, 1);
}

bool
RdmaQueuePair::NextPacket(RdmaTxDescriptor& d)
{
    d = RdmaTxDescriptor{};
    // Responder duty first: READ responses.
    if (!m_readJobs.empty())
    {
        ReadJob& job = m_readJobs.front();
        d.psn = job.psn;
        d.payload = static_cast<uint32_t>(std::min<uint64_t>(m_mtu, job.bytesLeft));
        const bool last = job.left == 1;
        if (job.first && last)
        {
            d.opcode = IbBthHeader::RC_READ_RESPONSE_ONLY;
        }
        else if (job.first)
        {
            d.opcode = IbBthHeader::RC_READ_RESPONSE_FIRST;
        }
        else if (last)
        {
            d.opcode = IbBthHeader::RC_READ_RESPONSE_LAST;
        }
        else
        {
            d.opcode = IbBthHeader::RC_READ_RESPONSE_MIDDLE;
        }
        d.hasAeth = IbBthHeader::HasAeth(d.opcode);
        d.msn = m_msn;
        job.first = false;
        job.psn = PsnAdd(job.psn, 1);
        job.bytesLeft -= d.payload;
        if (--job.left == 0)
        {
            m_readJobs.pop_front();
        }
        return true;
    }
    const int64_t now = InterconnectSimulatorImpl::NowStep();
    if (NextLost())
    {
        // IRN's and UET's recovery: a lost PSN again, before anything new; sndNxt stays.
        Recovery& r = *m_recovery;
        const uint32_t psn = r.pick;
        FillRequest(*FindMessage(psn), psn, d);
        d.retransmission = true;
        ++m_retransmitted;
        m_retransmittedBytes += d.payload;
        if (r.picked)
        {
            r.resend.pop_front();
            {
                // Not to be resent again by the threshold or IRN's recovery: later packets'
                // SACKs may still be on their way.
                const auto k = static_cast<std::size_t>(PsnDiff(psn, m_sndUna));
                if (r.sacked.size() <= k)
                {
                    r.sacked.resize(k + 1, 0);
                }
                r.sacked[k] = Recovery::RESENT;
            }
        }
        else
        {
            r.next = PsnAdd(psn, 1);
            if (m_transport == UET && !r.timedOut && m_cc)
            {
                m_cc->OnLoss(this, false); // the threshold found a loss: a congestion signal
            }
        }
        m_sendTimes[PsnDiff(psn, m_sndUna)] = now;
        if (m_transport == UET)
        {
            m_entropy = SprayEntropy(m_sprayed++);
        }
        UpdateTimer(false);
        return true;
    }
    if (!HasNewPacket())
    {
        return false;
    }
    Message* m = FindMessage(m_sndNxt);
    NS_ASSERT_MSG(m, "no message holds PSN " << m_sndNxt);
    if (m_transport == UET)
    {
        m_entropy = SprayEntropy(m_sprayed++);
    }
    d.retransmission = PsnDiff(m_sndNxt, m_highestSent) < 0;
    m_sndNxt = FillRequest(*m, m_sndNxt, d);
    if (d.retransmission)
    {
        ++m_retransmitted;
        m_retransmittedBytes += d.payload;
    }
    // Remember when each PSN of this packet left, for RTT samples.
    const uint32_t first = static_cast<uint32_t>(PsnDiff(d.psn, m_sndUna));
    const uint32_t count = static_cast<uint32_t>(PsnDiff(m_sndNxt, d.psn));
    for (uint32_t k = first; k < first + count; ++k)
    {
        if (k < m_sendTimes.size())
        {
            m_sendTimes[k] = now;
        }
        else
        {
            m_sendTimes.push_back(now);
        }
    }
    if (PsnDiff(m_sndNxt, m_highestSent) > 0)
    {
        m_highestSent = m_sndNxt;
    }
    UpdateTimer(false);
    return true;
}

void
RdmaQueuePair::OnSent(uint32_t wireBytes)
{
    if (m_cc)
    {
        m_cc->OnSend(this, wireBytes);
    }
    // The next frame of this queue pair may start when this one would have finished at the
    // current rate: rate pacing on frame boundaries, exact over frames sent on their pace.
    m_nextSend = TimeStep(m_pacer.Send(InterconnectSimulatorImpl::NowStep(), wireBytes));
    if (!m_interPacketDelay.IsZero())
    {
        m_nextSend += m_interPacketDelay;
    }
}

uint16_t
RdmaQueuePair::SprayEntropy(uint64_t k) const
{
    // Distinct values in the dynamic port range 49152..65535 for k below SprayEntropies: 997
    // is odd, so it steps through all 16384 offsets.
    const uint64_t offset = m_baseEntropy + (k % m_sprayEntropies) * 997;
    return static_cast<uint16_t>(0xC000 | (offset & 0x3FFF));
}

uint32_t
RdmaQueuePair::PayloadOfPsn(uint32_t psn) const
{
    const Message* m = FindMessage(psn);
    if (!m || m->verb == RdmaVerb::READ)
    {
        return 0;
    }
    return PayloadOf(*m, static_cast<uint32_t>(PsnDiff(psn, m->firstPsn)));
}

void
RdmaQueuePair::Acknowledge(uint32_t newUna,
                           bool ecnEcho,
                           const RdmaIntTag* intStack,
                           const SackSample* sample)
{
    // Remember the highest acknowledgement: one that lands beyond an incomplete READ still
    // counts once that READ completes.
    if (PsnDiff(newUna, m_ackHigh) > 0 && PsnDiff(newUna, m_highestSent) <= 0)
    {
        m_ackHigh = newUna;
    }
    newUna = m_ackHigh;
    // A READ's PSNs are acknowledged by its responses only: never move past an incomplete READ.
    for (const auto& m : m_messages)
    {
        if (m.verb == RdmaVerb::READ && PsnDiff(newUna, m.readNext) > 0 &&
            PsnDiff(m.readNext, PsnAdd(m.firstPsn, m.packets)) < 0)
        {
            newUna = m.readNext;
            break;
        }
    }
    const int32_t advance = PsnDiff(newUna, m_sndUna);
    if (advance <= 0)
    {
        if (sample && m_cc)
        {
            const RdmaAckInfo info{sample->bytes, m_sndUna, sample->rtt, ecnEcho, nullptr};
            m_cc->OnAck(this, info);
        }
        return;
    }
    uint64_t acked = StreamPosition(newUna) - StreamPosition(m_sndUna);
    // RTT of the newest acknowledged packet: from its last transmission to now. (UET: of the
    // newest one that was not selectively acknowledged before, the packet that moved the
    // cumulative acknowledgement; the others reported their round trips then.)
    std::size_t newest = static_cast<std::size_t>(advance) - 1;
    if (m_recovery)
    {
        RingQueue<uint8_t>& sacked = m_recovery->sacked;
        const std::size_t erased = std::min<std::size_t>(advance, sacked.size());
        if (m_transport == UET)
        {
            // Selectively acknowledged bytes were reported then: not again.
            bool found = erased < static_cast<std::size_t>(advance);
            for (std::size_t k = erased; k-- > 0;)
            {
                if (sacked[k] == Recovery::SACKED)
                {
                    const uint32_t bytes = PayloadOfPsn(PsnAdd(m_sndUna, static_cast<uint32_t>(k)));
                    acked -= std::min<uint64_t>(acked, bytes);
                    m_sackedBytes -= std::min<uint64_t>(m_sackedBytes, bytes);
                }
                else if (!found)
                {
                    found = true;
                    newest = k;
                }
            }
        }
        sacked.erase_begin(erased);
        if (PsnDiff(m_recovery->sackHigh, newUna) < 0)
        {
            m_recovery->sackHigh = newUna; // keeps it within half the PSN space of sndUna
        }
    }
    Time rtt(0);
    if (newest < m_sendTimes.size())
    {
        rtt = TimeStep(InterconnectSimulatorImpl::NowStep() - m_sendTimes[newest]);
    }
    m_sendTimes.erase_begin(std::min<std::size_t>(advance, m_sendTimes.size()));
    if (sample)
    {
        acked += sample->bytes;
        if (!sample->rtt.IsZero())
        {
            rtt = sample->rtt;
        }
    }
    m_sndUna = newUna;
    if (m_recovery && m_recovery->active && PsnDiff(m_sndUna, m_recovery->until) >= 0)
    {
        m_recovery->active = false; // everything sent before the loss is acknowledged
        m_recovery->timedOut = false;
    }
    if (PsnDiff(m_sndNxt, m_sndUna) < 0)
    {
        m_sndNxt = m_sndUna;
    }
    CompleteMessages();
    if (m_cc)
    {
        const RdmaAckInfo info{static_cast<uint32_t>(std::min<uint64_t>(acked, 0xFFFFFFFF)),
                               m_sndUna,
                               rtt,
                               ecnEcho,
                               intStack};
        m_cc->OnAck(this, info);
    }
    UpdateTimer(true);
    // A window may have opened.
    if (m_window != 0)
    {
        Wake();
    }
}

void
RdmaQueuePair::CompleteMessages()
{
    while (!m_messages.empty())
    {
        const Message& m = m_messages.front();
        const uint32_t end = PsnAdd(m.firstPsn, m.packets);
        const bool done = (m.verb == RdmaVerb::READ) ? PsnDiff(m.readNext, end) >= 0
                                                     : PsnDiff(m_sndUna, end) >= 0;
        if (!done)
        {
            break;
        }
        RdmaCompletion c{m_qpn, m.id, m.verb, m.bytes, m.posted, Simulator::Now()};
        CompletionCallback cb = m.done;
        m_messages.pop_front();
        if (m_owner)
        {
            m_owner->QueuePairCompleted(c);
        }
        m_completionTrace(c);
        if (!cb.IsNull())
        {
            cb(c);
        }
    }
    if (m_messages.empty() && m_readJobs.empty() && m_cc)
    {
        m_cc->OnIdle(this);
    }
}

void
RdmaQueuePair::ReceiveAck(uint32_t psn, bool nak, bool ecnEcho, const RdmaIntTag* intStack)
{
    NS_LOG_FUNCTION(this << psn << nak);
    if (nak)
    {
        ++m_naks;
        // NAK: every PSN before psn arrived; psn itself did not.
        Acknowledge(psn);
        if (m_cc)
        {
            m_cc->OnLoss(this, false);
        }
        GoBackN(psn);
        return;
    }
    Acknowledge(PsnAdd(psn, 1), ecnEcho, intStack);
}

void
RdmaQueuePair::ReceiveSelectiveNak(uint32_t expected, uint32_t sacked, bool ecnEcho)
{
    NS_LOG_FUNCTION(this << expected << sacked);
    if (m_transport == UET)
    {
        // Not a loss: under spraying most packets past a gap only overtook it. Record it, give
        // the congestion control its sample, and let NextLost judge by the threshold.
        const int32_t i = PsnDiff(sacked, m_sndUna);
        SackSample sample{0, Time(0)};
        if (i >= 0 && i < PsnDiff(m_sndNxt, m_sndUna))
        {
            RingQueue<uint8_t>& map = GetRecovery().sacked;
            if (map.size() <= static_cast<std::size_t>(i))
            {
                map.resize(i + 1, 0);
            }
            if (map[i] != Recovery::SACKED)
            {
                map[i] = Recovery::SACKED;
                if (PsnDiff(sacked, GetRecovery().sackHigh) >= 0)
                {
                    m_recovery->sackHigh = PsnAdd(sacked, 1);
                }
                sample.bytes = PayloadOfPsn(sacked);
                m_sackedBytes += sample.bytes;
                if (static_cast<std::size_t>(i) < m_sendTimes.size())
                {
                    sample.rtt = TimeStep(Simulator::Now().GetTimeStep() - m_sendTimes[i]);
                }
            }
        }
        Acknowledge(expected, ecnEcho, nullptr, &sample);
        Wake();
        return;
    }
    ++m_naks;
    Acknowledge(expected, ecnEcho);
    const int32_t i = PsnDiff(sacked, m_sndUna);
    if (i < 0 || i >= PsnDiff(m_sndNxt, m_sndUna))
    {
        return; // acknowledged since, or never sent (a stale or foreign NAK)
    }
    Recovery& r = GetRecovery();
    if (r.sacked.size() <= static_cast<std::size_t>(i))
    {
        r.sacked.resize(i + 1, 0);
    }
    r.sacked[i] = Recovery::SACKED;
    if (PsnDiff(sacked, r.sackHigh) >= 0)
    {
        r.sackHigh = PsnAdd(sacked, 1);
    }
    EnterRecovery();
    Wake();
}

void
RdmaQueuePair::ReceiveTrimNak(uint32_t expected, uint32_t psn, bool ecnEcho)
{
    NS_LOG_FUNCTION(this << expected << psn);
    ++m_naks;
    ++m_trimNaks;
    Acknowledge(expected, ecnEcho);
    if (m_cc)
    {
        m_cc->OnLoss(this, false);
    }
    if (m_transport == GO_BACK_N)
    {
        GoBackN(expected); // its responder dropped whatever followed the first gap
        return;
    }
    const int32_t i = PsnDiff(psn, m_sndUna);
    if (i < 0 || i >= PsnDiff(m_sndNxt, m_sndUna))
    {
        return; // acknowledged since, or never sent
    }
    Recovery& r = GetRecovery();
    if (static_cast<std::size_t>(i) < r.sacked.size() && r.sacked[i] == Recovery::SACKED)
    {
        return; // a copy arrived whole
    }
    r.resend.push_back(psn);
    Wake();
}

void
RdmaQueuePair::GoBackN(uint32_t psn)
{
    // Only go back to a PSN that was sent and not yet acknowledged.
    if (PsnDiff(psn, m_sndUna) < 0)
    {
        psn = m_sndUna;
    }
    if (PsnDiff(psn, m_sndNxt) >= 0)
    {
        return;
    }
    m_sndNxt = psn;
    m_nextSend = Simulator::Now();
    UpdateTimer(true);
    Wake();
}

void
RdmaQueuePair::ReceiveReadResponse(uint32_t psn, uint32_t /* payload */)
{
    Message* m = FindMessage(psn);
    if (!m || m->verb != RdmaVerb::READ)
    {
        return; // a late duplicate of a completed READ
    }
    const int32_t gap = PsnDiff(psn, m->readNext);
    if (gap < 0)
    {
        return; // duplicate
    }
    if (gap > 0)
    {
        // Responses went missing: re-issue the request from the first missing one, once.
        if (!m->readGap)
        {
            m->readGap = true;
            if (m_cc)
            {
                m_cc->OnLoss(this, false);
            }
            GoBackN(m->readNext);
        }
        return;
    }
    m->readNext = PsnAdd(m->readNext, 1);
    m->readGap = false;
    // A response implicitly acknowledges every earlier request (IBTA 9.7.5.1.2).
    Acknowledge(m->readNext);
    CompleteMessages();
    UpdateTimer(true);
}

void
RdmaQueuePair::ReceiveCnp()
{
    ++m_cnps;
    if (m_cc)
    {
        m_cc->OnCnp(this);
    }
}

void
RdmaQueuePair::UpdateTimer(bool progress)
{
    const bool outstanding = PsnDiff(m_highestSent, m_sndUna) > 0;
    if (!outstanding)
    {
        m_rtoDeadline = Time::Max(); // a pending event finds nothing due
        return;
    }
    // The timer measures time without progress: restart it when sndUna moves, arm it when idle.
    // Restarting moves the deadline only: the one pending event, when it comes, waits on to
    // the deadline (an event per RTO instead of one scheduled and one cancelled per ACK).
    if (progress || m_rtoDeadline == Time::Max())
    {
        const Time rto = CurrentRto();
        m_rtoDeadline = Simulator::Now() + rto;
        if (!m_timer.IsPending() || m_timer.GetTime() > m_rtoDeadline)
        {
            m_timer.Schedule(rto, &RdmaQueuePair::TimerExpired, this);
        }
    }
}

Time
RdmaQueuePair::CurrentRto() const
{
    if (m_transport != GO_BACK_N &&
        static_cast<uint32_t>(PsnDiff(m_sndNxt, m_sndUna)) <= m_rtoLowPackets)
    {
        return m_rtoLow;
    }
    return m_rto;
}

void
RdmaQueuePair::TimerExpired()
{
    if (m_rtoDeadline == Time::Max())
    {
        return; // nothing outstanding since
    }
    const Time now = Simulator::Now();
    if (now < m_rtoDeadline)
    {
        m_timer.Schedule(m_rtoDeadline - now, &RdmaQueuePair::TimerExpired, this);
        return;
    }
    m_rtoDeadline = Time::Max();
    Timeout();
}

void
RdmaQueuePair::Timeout()
{
    NS_LOG_FUNCTION(this << m_sndUna);
    ++m_timeouts;
    if (m_cc)
    {
        m_cc->OnLoss(this, true);
    }
    Message* m = FindMessage(m_sndUna);
    if (m && m->verb == RdmaVerb::READ)
    {
        m->readGap = false;
    }
    m_nextSend = Simulator::Now();
    if (m_transport != GO_BACK_N && !(m && m->verb == RdmaVerb::READ))
    {
        // IRN (section 3.1): recovery resends the oldest unacknowledged PSN first, then, as
        // after a NAK, those below the highest selectively acknowledged one that were not
        // (again, since their retransmissions may have been lost too).
        Recovery& r = GetRecovery();
        if (r.sacked.empty())
        {
            r.sacked.push_back(0);
        }
        r.active = true;
        r.timedOut = true;
        r.until = m_sndNxt;
        r.next = m_sndUna;
        Wake();
        return;
    }
    m_recovery.reset();
    m_sackedBytes = 0; // go-back-N from sndUna: what was selectively acknowledged is sent again
    m_sndNxt = m_sndUna;
    Wake();
}

RdmaRxVerdict
RdmaQueuePair::ReceiveRequest(uint8_t opcode,
                              uint32_t psn,
                              uint32_t payload,
                              bool ackRequest,
                              uint32_t dmaLength,
                              bool ce)
{
    RdmaRxVerdict v{false, false, false, false, PsnAdd(m_ePsn, rdma::PSN_MASK), m_msn};
    const int32_t d = PsnDiff(psn, m_ePsn);
    const bool isRead = opcode == IbBthHeader::RC_READ_REQUEST;
    const uint32_t readPackets =
        isRead ? std::max<uint32_t>(1, (dmaLength + m_mtu - 1) / m_mtu) : 1;
    if (d > 0 && (m_outOfOrder || m_transport != GO_BACK_N) && !isRead && d < OOO_WINDOW)
    {
        // Ahead of a gap: place it now, acknowledge it when the gap fills.
        if (m_oooWindow.size() <= static_cast<std::size_t>(d))
        {
            m_oooWindow.resize(d + 1, 0);
        }
        if (m_oooWindow[d] == 0)
        {
            m_oooWindow[d] = IbBthHeader::IsLast(opcode) ? 2 : 1;
            m_delivered += payload;
            m_ceSinceAck = m_ceSinceAck || ce;
        }
        else
        {
            ++m_duplicates;
        }
        v.accepted = true;
        if (m_transport != GO_BACK_N)
        {
            // IRN and UET: every packet past the gap is answered at once, naming itself.
            v.sendNak = true;
            v.sack = true;
            v.sackPsn = psn;
            v.ackPsn = m_ePsn;
            v.ecnEcho = m_ceSinceAck;
            m_ceSinceAck = false;
        }
        return v;
    }
    if (d > 0)
    {
        // A gap: one NAK per gap, drop until the requester goes back.
        if (!m_nakSent)
        {
            m_nakSent = true;
            v.sendNak = true;
            v.ackPsn = m_ePsn;
        }
        return v;
    }
    if (d < 0)
    {
        // Duplicate: a READ is served again from its PSN; anything else is acknowledged again.
        if (isRead)
        {
            while (!m_readJobs.empty() && PsnDiff(m_readJobs.back().psn, psn) >= 0)
            {
                m_readJobs.pop_back();
            }
            m_readJobs.push_back(ReadJob{psn, readPackets, dmaLength, true});
            return v;
        }
        ++m_duplicates;
        v.sendAck = true;
        return v;
    }
    // In order.
    m_nakSent = false;
    v.accepted = true;
    if (isRead)
    {
        m_ePsn = PsnAdd(m_ePsn, readPackets);
        ++m_msn;
        m_readJobs.push_back(ReadJob{psn, readPackets, dmaLength, true});
        v.ackPsn = PsnAdd(m_ePsn, rdma::PSN_MASK);
        v.msn = m_msn;
        return v;
    }
    m_delivered += payload;
    bool last = IbBthHeader::IsLast(opcode);
    if (m_oooWindow.empty())
    {
        m_ePsn = PsnAdd(m_ePsn, 1);
        m_msn += last ? 1 : 0;
    }
    else
    {
        // The gap filled: move past every packet placed out of order since.
        m_oooWindow[0] = last ? 2 : 1;
        last = false;
        while (!m_oooWindow.empty() && m_oooWindow.front() != 0)
        {
            const bool endOfMessage = m_oooWindow.front() == 2;
            m_msn += endOfMessage ? 1 : 0;
            last = last || endOfMessage;
            m_oooWindow.pop_front();
            m_ePsn = PsnAdd(m_ePsn, 1);
        }
    }
    ++m_unacked;
    m_ceSinceAck = m_ceSinceAck || ce;
    if (last || ackRequest || m_unacked >= m_ackInterval)
    {
        m_unacked = 0;
        v.sendAck = true;
        v.ecnEcho = m_ceSinceAck;
        m_ceSinceAck = false;
    }
    v.ackPsn = PsnAdd(m_ePsn, rdma::PSN_MASK);
    v.msn = m_msn;
    return v;
}

RdmaRxVerdict
RdmaQueuePair::ReceiveTrimmed(uint32_t psn)
{
    RdmaRxVerdict v{false, false, false, false, PsnAdd(m_ePsn, rdma::PSN_MASK), m_msn};
    const int32_t d = PsnDiff(psn, m_ePsn);
    if (m_transport == GO_BACK_N && d >= 0)
    {
        // Go-back-N: the trimmed packet opens a gap like a lost one; one NAK per gap (with
        // OutOfOrderReceive too: its requester goes back as far anyway).
        if (!m_nakSent)
        {
            m_nakSent = true;
            v.sendNak = true;
            v.sack = true;
            v.trimmed = true;
            v.sackPsn = psn;
            v.ackPsn = m_ePsn;
        }
        return v;
    }
    if (d < 0 || (d > 0 && static_cast<std::size_t>(d) < m_oooWindow.size() && m_oooWindow[d] != 0))
    {
        ++m_duplicates; // it had arrived whole: acknowledge again
        v.sendAck = d < 0;
        v.sendNak = d > 0;
        v.sack = d > 0;
        v.sackPsn = psn;
        if (d > 0)
        {
            v.ackPsn = m_ePsn;
        }
        return v;
    }
    v.sendNak = true;
    v.sack = true;
    v.trimmed = true;
    v.sackPsn = psn;
    v.ackPsn = m_ePsn;
    return v;
}

DataRate
RdmaQueuePair::GetLineRate() const
{
    return m_lineRate;
}

DataRate
RdmaQueuePair::GetRate() const
{
    return m_rate;
}

void
RdmaQueuePair::SetRate(DataRate rate)
{
    const DataRate before = m_rate;
    m_rate = rate.GetBitRate() > m_lineRate.GetBitRate() ? m_lineRate : rate;
    if (m_rate.GetBitRate() == 0)
    {
        m_rate = DataRate(1); // 1 bit/s: the CC stopped the flow; keep the arithmetic finite
    }
    if (m_rate != before)
    {
        m_pacer.SetRate(m_rate);
        m_rateTrace(before, m_rate);
        StateChanged();
    }
}

void
RdmaQueuePair::SetInterPacketDelay(Time delay)
{
    if (delay != m_interPacketDelay)
    {
        const Time before = m_interPacketDelay;
        m_interPacketDelay = delay;
        m_interPacketDelayTrace(before, delay);
        StateChanged();
    }
}

Time
RdmaQueuePair::GetInterPacketDelay() const
{
    return m_interPacketDelay;
}

uint64_t
RdmaQueuePair::GetWindow() const
{
    return m_window;
}

void
RdmaQueuePair::SetWindow(uint64_t bytes)
{
    const bool opened = bytes == 0 || bytes > m_window;
    const bool changed = bytes != m_window;
    if (changed)
    {
        m_windowTrace(m_window, bytes);
    }
    m_window = bytes;
    if (changed)
    {
        StateChanged();
    }
    if (opened)
    {
        Wake();
    }
}

uint64_t
RdmaQueuePair::GetBytesInFlight() const
{
    const uint64_t sent = StreamPosition(m_sndNxt) - StreamPosition(m_sndUna);
    return sent - std::min(sent, m_sackedBytes);
}

uint64_t
RdmaQueuePair::GetSackedBytes() const
{
    return m_sackedBytes;
}

Ptr<RdmaCongestionControl>
RdmaQueuePair::GetCongestionControl() const
{
    return m_cc;
}

uint32_t
RdmaQueuePair::GetQpn() const
{
    return m_qpn;
}

uint32_t
RdmaQueuePair::GetPeerQpn() const
{
    return m_peerQpn;
}

const Address&
RdmaQueuePair::GetLocalAddress() const
{
    return m_local;
}

const Address&
RdmaQueuePair::GetPeerAddress() const
{
    return m_peer;
}

uint16_t
RdmaQueuePair::GetEntropy() const
{
    return m_entropy;
}

uint8_t
RdmaQueuePair::GetPriority() const
{
    return m_priority;
}

Time
RdmaQueuePair::GetNextSendTime() const
{
    return m_nextSend;
}

uint32_t
RdmaQueuePair::GetSndNxt() const
{
    return m_sndNxt;
}

uint32_t
RdmaQueuePair::GetSndUna() const
{
    return m_sndUna;
}

uint32_t
RdmaQueuePair::GetExpectedPsn() const
{
    return m_ePsn;
}

uint32_t
RdmaQueuePair::GetOutstandingMessages() const
{
    return static_cast<uint32_t>(m_messages.size());
}

uint64_t
RdmaQueuePair::GetRetransmittedPackets() const
{
    return m_retransmitted;
}

uint64_t
RdmaQueuePair::GetRetransmittedBytes() const
{
    return m_retransmittedBytes;
}

uint64_t
RdmaQueuePair::GetDuplicatesReceived() const
{
    return m_duplicates;
}

bool
RdmaQueuePair::IsInRecovery() const
{
    return m_recovery && m_recovery->active;
}

uint64_t
RdmaQueuePair::GetTimeouts() const
{
    return m_timeouts;
}

uint64_t
RdmaQueuePair::GetNaksReceived() const
{
    return m_naks;
}

uint64_t
RdmaQueuePair::GetTrimNaksReceived() const
{
    return m_trimNaks;
}

uint64_t
RdmaQueuePair::GetCnpsReceived() const
{
    return m_cnps;
}

uint64_t
RdmaQueuePair::GetBytesDelivered() const
{
    return m_delivered;
}

void
RdmaQueuePair::SetMtu(uint32_t mtu)
{
    if (mtu != 256 && mtu != 512 && mtu != 1024 && mtu != 2048 && mtu != 4096)
    {
        InterconnectConfigError("ns3::RdmaQueuePair::Mtu",
                                std::to_string(mtu),
                                "256, 512, 1024, 2048 or 4096 (the IBTA path MTUs)");
    }
    m_mtu = mtu;
}

uint32_t
RdmaQueuePair::GetMtu() const
{
    return m_mtu;
}

} // namespace ns3
