/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-channel-adapter.h"

#include "rdma-congestion-control.h"
#include "rdma-int-tag.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/object-map.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaChannelAdapter");

NS_OBJECT_ENSURE_REGISTERED(RdmaChannelAdapter);

namespace
{

/// QueuePairList: the queue pairs in order of creation, each under its QPN, one lookup each
/// (ns-3's accessors for a member container walk it from the start for every element).
class QueuePairListAccessor : public ObjectPtrContainerAccessor
{
    bool DoGetN(const ObjectBase* object, std::size_t* n) const override
    {
        const auto* adapter = dynamic_cast<const RdmaChannelAdapter*>(object);
        if (adapter == nullptr)
        {
            return false;
        }
        *n = adapter->GetNLiveQueuePairs();
        return true;
    }

    Ptr<Object> DoGet(const ObjectBase* object, std::size_t i, std::size_t* index) const override
    {
        const Ptr<RdmaQueuePair> qp =
            static_cast<const RdmaChannelAdapter*>(object)->GetLiveQueuePair(i);
        *index = qp->GetQpn();
        return qp;
    }
};

} // namespace

TypeId
RdmaChannelAdapter::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaChannelAdapter")
            .SetParent<Object>()
            .SetGroupName("Interconnect")
            .AddAttribute("CongestionControl",
                          "TypeId name (or short name: none, dcqcn, hpcc, timely, dctcp, ib-cc) "
                          "of the congestion-control algorithm each queue pair gets, a subclass "
                          "of ns3::RdmaCongestionControl, which itself is \"none\": line rate.",
                          StringValue("ns3::RdmaCongestionControl"),
                          MakeStringAccessor(&RdmaChannelAdapter::m_ccTypeId),
                          MakeStringChecker())
            .AddAttribute("HostReadRate",
                          "Rate at which the adapter can read message payload from memory (the "
                          "GPU-to-NIC or host-memory-to-NIC PCIe path; see IntraHostHelper::"
                          "NicSendingRate). Data packets of all queue pairs together carry "
                          "payload no faster than this. 0 (default): no limit.",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&RdmaChannelAdapter::SetHostReadRate,
                                               &RdmaChannelAdapter::GetHostReadRate),
                          MakeDataRateChecker())
            .AddAttribute("QueuePairList",
                          "The adapter's queue pairs, by QPN (Config paths reach their "
                          "traces: .../QueuePairList/*/Rate)",
                          TypeId::ATTR_GET,
                          ObjectMapValue(),
                          Create<QueuePairListAccessor>(),
                          MakeObjectMapChecker<RdmaQueuePair>())
            .AddTraceSource("Completion",
                            "A message of any of this adapter's queue pairs completed",
                            MakeTraceSourceAccessor(&RdmaChannelAdapter::m_completionTrace),
                            "ns3::RdmaQueuePair::CompletionTracedCallback")
            .AddTraceSource("CnpSent",
                            "A CNP was sent; the argument is the local QPN that received the "
                            "marked data",
                            MakeTraceSourceAccessor(&RdmaChannelAdapter::m_cnpSentTrace),
                            "ns3::RdmaChannelAdapter::QpnTracedCallback")
            .AddTraceSource("CnpReceived",
                            "A CNP was received; the argument is the local QPN it slows",
                            MakeTraceSourceAccessor(&RdmaChannelAdapter::m_cnpReceivedTrace),
                            "ns3::RdmaChannelAdapter::QpnTracedCallback")
            .AddTraceSource("CongestionState",
                            "The congestion control of one of this adapter's queue pairs changed "
                            "its rate, window or inter-packet gap: QPN, rate, window bytes (0: "
                            "none), gap. It fires once EnableCongestionStateTrace was called",
                            MakeTraceSourceAccessor(&RdmaChannelAdapter::m_congestionStateTrace),
                            "ns3::RdmaChannelAdapter::CongestionStateTracedCallback");
    return tid;
}

RdmaChannelAdapter::RdmaChannelAdapter()
    : m_ccTypeId("ns3::RdmaCongestionControl"),
      m_hostReadRate(0),
      m_hostReadDone(0),
      m_cnpsSent(0),
      m_cnpsReceived(0),
      m_unknownQp(0),
      m_inTrySend(false),
      m_trySendAgain(false),
      m_classes(MAX_CLASSES),
      m_cnpOpcode(IbBthHeader::IB_CNP),
      m_cnpBecn(true),
      m_portSlots(1),
      m_cnpInterval(0),
      m_dataSent(0),
      m_acksSent(0)
{
    NS_LOG_FUNCTION(this);
    m_qpFactory.SetTypeId(RdmaQueuePair::GetTypeId());
    m_wakeEvent.BindHinted<RdmaChannelAdapter, &RdmaChannelAdapter::TrySend>(this);
}

void
RdmaChannelAdapter::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_wakeEvent.Cancel();
    m_wakeHints = {};
    for (auto& entry : m_qps)
    {
        if (entry.qp)
        {
            entry.qp->Dispose();
        }
    }
    for (auto& tx : m_tx)
    {
        tx.active.clear(); // (their pointers are m_qps')
    }
    m_qps.clear();
    m_liveQps.clear();
    for (auto& datagrams : m_datagrams)
    {
        datagrams.clear();
    }
    Object::DoDispose();
}

void
RdmaChannelAdapter::SetLink(uint8_t classes, uint32_t portSlots, uint8_t cnpOpcode, bool cnpBecn)
{
    NS_ABORT_MSG_IF(classes == 0 || classes > MAX_CLASSES || portSlots == 0,
                    "RdmaChannelAdapter::SetLink: " << +classes << " classes, " << portSlots
                                                    << " port slots");
    m_classes = classes;
    m_portSlots = portSlots;
    m_cnpOpcode = cnpOpcode;
    m_cnpBecn = cnpBecn;
}

void
RdmaChannelAdapter::SetQueuePairAttribute(const std::string& name, const AttributeValue& value)
{
    m_qpFactory.Set(name, value);
}

Ptr<RdmaQueuePair>
RdmaChannelAdapter::NewQueuePair() const
{
    return m_qpFactory.Create<RdmaQueuePair>();
}

uint32_t
RdmaChannelAdapter::NextQpn() const
{
    return FIRST_QPN + static_cast<uint32_t>(m_qps.size());
}

void
RdmaChannelAdapter::AddQueuePair(Ptr<RdmaQueuePair> qp, uint8_t txClass)
{
    NS_ABORT_MSG_IF(qp->GetQpn() != NextQpn(),
                    "RdmaChannelAdapter::AddQueuePair: QPN " << qp->GetQpn() << ", expected "
                                                             << NextQpn());
    NS_ABORT_MSG_IF(txClass >= m_classes, "RdmaChannelAdapter: class " << +txClass);
    const uint32_t index = static_cast<uint32_t>(m_qps.size());
    const TypeId tid = TypeId::LookupByName(
        RdmaCongestionControl::ResolveName(GetInstanceTypeId().GetName() + "::CongestionControl",
                                           m_ccTypeId));
    ObjectFactory ccFactory;
    ccFactory.SetTypeId(tid);
    qp->SetOwner(this, index, m_reportState);
    QpEntry entry;
    entry.qp = qp;
    entry.txClass = txClass;
    m_qps.push_back(entry);
    m_liveQps.push_back(qp);
    qp->SetCongestionControl(ccFactory.Create<RdmaCongestionControl>());
}

uint32_t
RdmaChannelAdapter::ReserveQueuePair()
{
    const uint32_t qpn = NextQpn();
    m_qps.emplace_back(); // (no queue pair)
    return qpn;
}

uint32_t
RdmaChannelAdapter::IndexOf(uint32_t qpn) const
{
    if (qpn < FIRST_QPN || qpn - FIRST_QPN >= m_qps.size())
    {
        return static_cast<uint32_t>(m_qps.size());
    }
    return qpn - FIRST_QPN;
}

Ptr<RdmaQueuePair>
RdmaChannelAdapter::GetQueuePair(uint32_t qpn) const
{
    const uint32_t i = IndexOf(qpn);
    return i < m_qps.size() ? m_qps[i].qp : nullptr;
}

uint32_t
RdmaChannelAdapter::GetNQueuePairs() const
{
    return static_cast<uint32_t>(m_qps.size());
}

uint8_t
RdmaChannelAdapter::GetCnpOpcode() const
{
    return m_cnpOpcode;
}

void
RdmaChannelAdapter::SetHostReadRate(DataRate rate)
{
    m_hostReadRate = rate;
    m_readLimited = rate.GetBitRate() > 0;
}

DataRate
RdmaChannelAdapter::GetHostReadRate() const
{
    return m_hostReadRate;
}

void
RdmaChannelAdapter::QueuePairWake(uint32_t index)
{
    QpEntry& entry = m_qps[index];
    if (!entry.inActive)
    {
        entry.inActive = true;
        const uint8_t cls = entry.txClass;
        m_tx[cls].active.push_back({PeekPointer(entry.qp), index});
        m_busyClasses |= static_cast<uint16_t>(1U << cls);
    }
    TrySend();
}

void
RdmaChannelAdapter::QueueDatagram(Ptr<Packet> packet, uint8_t txClass)
{
    NS_ABORT_MSG_IF(txClass >= m_classes, "RdmaChannelAdapter: class " << +txClass);
    m_datagrams[txClass].push_back(packet);
    m_busyClasses |= static_cast<uint16_t>(1U << txClass);
    m_datagramClasses |= static_cast<uint16_t>(1U << txClass);
    TrySend();
}

void
RdmaChannelAdapter::TrySend()
{
    if (m_inTrySend)
    {
        m_trySendAgain = true; // called back from the port while sending: loop once more
        return;
    }
    m_inTrySend = true;
    const Time now = TimeStep(InterconnectSimulatorImpl::NowStep());
    Time earliest = Time::Max();
    const RdmaQueuePair* waiting = nullptr; // whose time is earliest
    uint8_t waitingClass = 0;               // its class
    do
    {
        m_trySendAgain = false;
        earliest = Time::Max();
        // The classes in order (strict priority), those that may have something to send: a
        // class that becomes busy while one below it sends is visited in this pass if it is
        // above it, else in the next (m_trySendAgain), as when every class was visited.
        for (uint32_t above = m_busyClasses; above != 0;
             above = m_busyClasses & ~((2U << static_cast<unsigned>(__builtin_ctz(above))) - 1))
        {
            const auto cls = static_cast<uint8_t>(__builtin_ctz(above));
            const auto bit = static_cast<uint16_t>(1U << cls);
            if (m_datagramClasses & bit)
            {
                auto& datagrams = m_datagrams[cls];
                while (!datagrams.empty() && m_tx[cls].dataInPort < m_portSlots)
                {
                    Ptr<Packet> p = datagrams.front();
                    datagrams.pop_front();
                    ++m_tx[cls].dataInPort;
                    Transmit(p, cls, true);
                }
                if (datagrams.empty())
                {
                    m_datagramClasses &= static_cast<uint16_t>(~bit);
                }
            }
            TxClass& tx = m_tx[cls];
            auto& active = tx.active;
            // Visit each queue pair of this class at most once per pass.
            for (std::size_t n = active.size(); n > 0 && !active.empty(); --n)
            {
                if (tx.dataInPort >= m_portSlots)
                {
                    break;
                }
                if (m_hostReadFree > now)
                {
                    if (m_hostReadFree < earliest) // payload still being read
                    {
                        earliest = m_hostReadFree;
                        waiting = active.front().qp;
                        waitingClass = cls;
                    }
                    break;
                }
                const Active next = active.front();
                active.pop_front();
                RdmaQueuePair* const qp = next.qp; // (a Ptr only to build a packet)
                if (!qp->HasPacketToSend())
                {
                    m_qps[next.index].inActive = false;
                    continue;
                }
                if (qp->GetNextSendTime() > now)
                {
                    if (qp->GetNextSendTime() < earliest)
                    {
                        earliest = qp->GetNextSendTime();
                        waiting = qp;
                        waitingClass = cls;
                    }
                    active.push_back(next);
                    continue;
                }
                RdmaTxDescriptor d;
                active.push_back(next); // round robin: to the back, whatever happens
                if (!qp->NextPacket(d))
                {
                    continue;
                }
                if (m_readLimited && d.payload > 0)
                {
                    // Exact (fractional-nanosecond) read times, so that rounding to the
                    // scheduler's resolution does not accumulate over the packets of a burst.
                    const double t = now.GetSeconds();
                    const double start = t - m_hostReadDone < 1e-9 ? m_hostReadDone : t;
                    m_hostReadDone = start + d.payload * 8.0 / m_hostReadRate.GetBitRate();
                    m_hostReadFree =
                        NanoSeconds(static_cast<int64_t>(std::ceil(m_hostReadDone * 1e9)));
                }
                Ptr<Packet> p = BuildPacket(qp, d);
                qp->OnSent(GetWireBytes(p));
                ++m_dataSent;
                ++tx.dataInPort;
                Transmit(p, cls, true);
            }
            if (active.empty() && !(m_datagramClasses & bit))
            {
                m_busyClasses &= static_cast<uint16_t>(~bit);
            }
        }
    } while (m_trySendAgain);
    m_inTrySend = false;
    if (earliest != Time::Max())
    {
        if (!m_wakeEvent.IsPending() || m_wakeEvent.GetTime() > earliest)
        {
            m_wakeHints = {SendLine(),
                           &m_wakeEvent,
                           &m_tx[waitingClass],
                           waiting->PeekCongestionControl(),
                           RdmaQueuePair::SendLines(waiting)};
            m_wakeEvent.Schedule(earliest - now, &m_wakeHints);
        }
    }
}

void
RdmaChannelAdapter::DataDequeued(uint8_t txClass)
{
    --m_tx[txClass].dataInPort;
    TrySend();
}

bool
RdmaChannelAdapter::PacksHeaders() const
{
    if (m_packs < 0)
    {
        m_packs = IsPacketMetadataEnabled() ? 0 : 1;
    }
    return m_packs == 1;
}

uint8_t
RdmaChannelAdapter::Frame(Ptr<Packet> packet,
                          const RdmaTransportHeaders& headers,
                          Ptr<RdmaQueuePair> qp,
                          FrameKind kind) const
{
    if (PacksHeaders())
    {
        RdmaPackedHeader packed;
        headers.WriteTo(packed);
        return AddLinkHeaders(packet, &packed, qp, kind);
    }
    headers.AddTo(packet);
    return AddLinkHeaders(packet, nullptr, qp, kind);
}

Ptr<Packet>
RdmaChannelAdapter::BuildPacket(Ptr<RdmaQueuePair> qp, const RdmaTxDescriptor& d) const
{
    Ptr<Packet> p = NewTransportPacket(d.payload);
    if (d.payload > 0 && qp->GetCongestionControl()->NeedsInt())
    {
        p->AddPacketTag(RdmaIntTag()); // switches append their hops
    }
    Frame(p, RdmaTransportHeaders::ForPacket(d, qp->GetPeerQpn()), qp, FrameKind::DATA);
    return p;
}

void
RdmaChannelAdapter::SendAck(Ptr<RdmaQueuePair> qp,
                            const RdmaRxVerdict& verdict,
                            const RdmaIntTag* intStack)
{
    Ptr<Packet> p = NewTransportPacket(0);
    if (intStack)
    {
        RdmaIntTag echo = *intStack;
        echo.SetEcho(); // the ACK's path must not add to the data path's telemetry
        p->AddPacketTag(echo);
    }
    // BECN: the acknowledged data arrived congestion-marked (IBTA annex A10).
    const RdmaTransportHeaders headers =
        verdict.sack ? RdmaTransportHeaders::ForSelectiveNak(qp->GetPeerQpn(),
                                                             verdict.ackPsn,
                                                             verdict.sackPsn,
                                                             verdict.msn,
                                                             verdict.ecnEcho,
                                                             verdict.trimmed)
                     : RdmaTransportHeaders::ForAck(qp->GetPeerQpn(),
                                                    verdict.ackPsn,
                                                    verdict.sendNak,
                                                    verdict.msn,
                                                    verdict.ecnEcho);
    const uint8_t cls = Frame(p, headers, qp, FrameKind::ACK);
    ++m_acksSent;
    Transmit(p, cls, false);
}

void
RdmaChannelAdapter::SendCnp(QpEntry& entry)
{
    const int64_t now = InterconnectSimulatorImpl::NowStep();
    if (entry.cnpEver && now - entry.lastCnp < m_cnpInterval.GetTimeStep())
    {
        return;
    }
    entry.cnpEver = true;
    entry.lastCnp = now;
    // (A reference into m_qps, read only up to the trace's argument: a sink of the trace could
    // add queue pairs and so move the entries.)
    const Ptr<RdmaQueuePair>& qp = entry.qp;
    Ptr<Packet> p = NewTransportPacket(CNP_PAYLOAD);
    RdmaTransportHeaders cnp;
    cnp.bth.SetOpcode(m_cnpOpcode);
    cnp.bth.SetBecn(m_cnpBecn);
    cnp.bth.SetDestQp(qp->GetPeerQpn());
    cnp.bth.SetPsn(0);
    const uint8_t cls = Frame(p, cnp, qp, FrameKind::CNP);
    ++m_cnpsSent;
    m_cnpSentTrace(qp->GetQpn());
    Transmit(p, cls, false);
}

void
RdmaChannelAdapter::ReceiveTransport(const RdmaTransportHeaders& headers,
                                     Ptr<Packet> packet,
                                     bool marked,
                                     bool trimmed)
{
    const IbBth& bth = headers.bth;
    const uint8_t opcode = bth.GetOpcode();
    const uint32_t index = IndexOf(bth.GetDestQp());
    if (index == m_qps.size() || !m_qps[index].qp)
    {
        ++m_unknownQp;
        return;
    }
    // (A copy: a completion on delivery may add queue pairs, and move the entries.)
    Ptr<RdmaQueuePair> qp = m_qps[index].qp;
    if (opcode == m_cnpOpcode)
    {
        ++m_cnpsReceived;
        m_cnpReceivedTrace(qp->GetQpn());
        qp->ReceiveCnp();
        return;
    }
    if (trimmed && opcode != IbBthHeader::RC_ACKNOWLEDGE)
    {
        ++m_trimmedReceived;
        // A trimmed request is answered by a NAK naming it; a trimmed READ response is lost
        // (the requester finds the gap from the next one, or its timeout does).
        if (IbBthHeader::CarriesData(opcode) && !IbBthHeader::IsReadResponse(opcode))
        {
            SendAck(qp, qp->ReceiveTrimmed(bth.GetPsn()), nullptr);
        }
        return;
    }
    RdmaIntTag intTag;
    const bool hasInt = RdmaIntTag::MayBeCarried() && packet->GetPacketTagIterator().HasNext() &&
                        packet->PeekPacketTag(intTag);
    const bool request =
        opcode != IbBthHeader::RC_ACKNOWLEDGE && !IbBthHeader::IsReadResponse(opcode);
    if (marked && opcode != IbBthHeader::RC_ACKNOWLEDGE)
    {
        SendCnp(m_qps[index]);
    }
    const RdmaDelivery got = DeliverRdmaPacket(qp,
                                               headers,
                                               packet->GetSize() - ICRC,
                                               marked,
                                               hasInt ? &intTag : nullptr);
    if (request && (got.verdict.sendAck || got.verdict.sendNak))
    {
        SendAck(qp, got.verdict, hasInt ? &intTag : nullptr);
    }
    if (got.activate)
    {
        QueuePairWake(index);
    }
}

void
RdmaChannelAdapter::QueuePairCompleted(const RdmaCompletion& completion)
{
    m_completionTrace(completion);
}

void
RdmaChannelAdapter::QueuePairStateChanged(uint32_t index)
{
    const Ptr<RdmaQueuePair>& qp = m_qps[index].qp;
    m_congestionStateTrace(qp->GetQpn(), qp->GetRate(), qp->GetWindow(), qp->GetInterPacketDelay());
}

void
RdmaChannelAdapter::EnableCongestionStateTrace()
{
    NS_LOG_FUNCTION(this);
    if (m_reportState)
    {
        return;
    }
    m_reportState = true;
    for (uint32_t index = 0; index < m_qps.size(); ++index)
    {
        if (m_qps[index].qp) // not a reserved number
        {
            m_qps[index].qp->SetOwner(this, index, true);
        }
    }
}

uint64_t
RdmaChannelAdapter::GetCnpsSent() const
{
    return m_cnpsSent;
}

uint64_t
RdmaChannelAdapter::GetCnpsReceived() const
{
    return m_cnpsReceived;
}

uint64_t
RdmaChannelAdapter::GetAcksSent() const
{
    return m_acksSent;
}

uint64_t
RdmaChannelAdapter::GetDataPacketsSent() const
{
    return m_dataSent;
}

uint64_t
RdmaChannelAdapter::GetTrimmedReceived() const
{
    return m_trimmedReceived;
}

uint64_t
RdmaChannelAdapter::GetUnknownQpPackets() const
{
    return m_unknownQp;
}

} // namespace ns3
