/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-nic.h"

#include "ib-bth-header.h"
#include "interconnect-config-error.h"
#include "rdma-int-tag.h"
#include "rdma-transport.h"
#include "roce-icrc-trailer.h"

#include "ns3/boolean.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaNic");

NS_OBJECT_ENSURE_REGISTERED(RdmaNic);

namespace
{
/// First QPN handed out (QPs 0 and 1 are special in the IBTA).
constexpr uint32_t FIRST_QPN = 0x100;
/// Dequeue tags: the NIC counts only its data frames against the per-priority limit.
constexpr uint32_t TAG_CONTROL = 0;
constexpr uint32_t TAG_DATA = 1;
/// Payload of a CNP after the BTH: 16 reserved bytes (RoCEv2 annex A17).
constexpr uint32_t CNP_PAYLOAD = 16;
} // namespace

TypeId
RdmaNic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaNic")
            .SetParent<Object>()
            .SetGroupName("Interconnect")
            .AddConstructor<RdmaNic>()
            .AddAttribute("CongestionControl",
                          "TypeId name of the congestion-control algorithm each queue pair "
                          "gets (a subclass of ns3::RdmaCongestionControl, which itself is "
                          "\"none\": line rate).",
                          StringValue("ns3::RdmaCongestionControl"),
                          MakeStringAccessor(&RdmaNic::m_ccTypeId),
                          MakeStringChecker())
            .AddAttribute("Dscp",
                          "DSCP of data and ACKs (0..63). Default: 26, the common RoCEv2 "
                          "setting; switches map DSCP / 8 to the priority (3).",
                          UintegerValue(26),
                          MakeUintegerAccessor(&RdmaNic::m_dscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("CnpDscp",
                          "DSCP of CNPs (0..63). Default: 48 (priority 6), ahead of data.",
                          UintegerValue(48),
                          MakeUintegerAccessor(&RdmaNic::m_cnpDscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("EcnCapable",
                          "Send data as ECN-capable (ECT(0)) so switches can mark it",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaNic::m_ect),
                          MakeBooleanChecker())
            .AddAttribute("CnpInterval",
                          "At most one CNP per queue pair per interval (notification point). "
                          "Default: 50 us (DCQCN, SIGCOMM 2015).",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&RdmaNic::m_cnpInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("ComputeIcrc",
                          "Stamp every frame with its real ICRC (IBTA RoCEv2 invariant CRC) "
                          "instead of 0. Costs a CRC over every packet; the pcap helpers turn "
                          "it on so that captures carry valid ICRCs.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaNic::m_computeIcrc),
                          MakeBooleanChecker())
            .AddAttribute("HostReadRate",
                          "Rate at which the NIC can read message payload from memory (the "
                          "GPU-to-NIC or host-memory-to-NIC PCIe path; see IntraHostHelper::"
                          "NicSendingRate). Data frames of all queue pairs together carry "
                          "payload no faster than this. 0 (default): no limit.",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&RdmaNic::m_hostReadRate),
                          MakeDataRateChecker())
            .AddTraceSource("Completion",
                            "A message of any of this NIC's queue pairs completed",
                            MakeTraceSourceAccessor(&RdmaNic::m_completionTrace),
                            "ns3::RdmaQueuePair::CompletionTracedCallback")
            .AddTraceSource("CnpSent",
                            "A CNP was sent; the argument is the local QPN that received the "
                            "CE-marked data",
                            MakeTraceSourceAccessor(&RdmaNic::m_cnpSentTrace),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("CnpReceived",
                            "A CNP was received; the argument is the local QPN it slows",
                            MakeTraceSourceAccessor(&RdmaNic::m_cnpReceivedTrace),
                            "ns3::TracedValueCallback::Uint32");
    return tid;
}

RdmaNic::RdmaNic()
    : m_ccTypeId("ns3::RdmaCongestionControl"),
      m_dscp(26),
      m_cnpDscp(48),
      m_ect(true),
      m_cnpInterval(MicroSeconds(50)),
      m_computeIcrc(false),
      m_hostReadRate(0),
      m_hostReadDone(0),
      m_inTrySend(false),
      m_trySendAgain(false),
      m_cnpsSent(0),
      m_acksSent(0),
      m_dataSent(0),
      m_unknownQp(0)
{
    NS_LOG_FUNCTION(this);
    m_qpFactory.SetTypeId(RdmaQueuePair::GetTypeId());
    m_dataInDevice.fill(0);
}

void
RdmaNic::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_wakeEvent.Cancel();
    for (auto& qp : m_qps)
    {
        if (qp)
        {
            qp->Dispose();
        }
    }
    m_qps.clear();
    if (m_device)
    {
        m_device->SetOwner(nullptr, 0);
    }
    m_device = nullptr;
    Object::DoDispose();
}

void
RdmaNic::DoInitialize()
{
    Object::DoInitialize();
}

void
RdmaNic::Install(Ptr<PfcNetDevice> device, Ipv4Address address)
{
    NS_LOG_FUNCTION(this << device << address);
    m_device = device;
    m_address = address;
    device->SetOwner(this, 0);
}

void
RdmaNic::SetQueuePairAttribute(const std::string& name, const AttributeValue& value)
{
    m_qpFactory.Set(name, value);
}

Ptr<RdmaQueuePair>
RdmaNic::CreateQueuePair(Ipv4Address peer, uint8_t priority)
{
    NS_LOG_FUNCTION(this << peer << +priority);
    NS_ABORT_MSG_UNLESS(m_device, "RdmaNic::CreateQueuePair before Install");
    NS_ABORT_MSG_IF(priority >= PfcNetDevice::N_PRIORITIES, "priority " << +priority);
    Ptr<RdmaQueuePair> qp = m_qpFactory.Create<RdmaQueuePair>();
    const uint32_t maxIp = qp->GetMtu() + ROCE_HEADERS + 16; // RETH on a first packet
    if (maxIp > m_device->GetMtu())
    {
        InterconnectConfigError("ns3::RdmaQueuePair::Mtu",
                                std::to_string(qp->GetMtu()),
                                "a path MTU whose packets (" + std::to_string(maxIp) +
                                    " bytes with IPv4, UDP, BTH, RETH and ICRC) fit the link MTU "
                                    "ns3::PfcNetDevice::Mtu = " +
                                    std::to_string(m_device->GetMtu()));
    }
    const uint32_t index = static_cast<uint32_t>(m_qps.size());
    const uint32_t qpn = FIRST_QPN + index;
    // The UDP source port carries ECMP entropy: a fixed mix of the QPN and both addresses,
    // in the dynamic range 49152..65535 (as RoCEv2 NICs do).
    uint32_t h = qpn * 2654435761u ^ m_address.Get() * 40503u ^ peer.Get();
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    const uint16_t sourcePort = static_cast<uint16_t>(49152 + (h % 16384));
    qp->Setup(qpn, m_address, peer, sourcePort, priority, m_device->GetDataRate());
    const TypeId tid = TypeId::LookupByName(
        RdmaCongestionControl::ResolveName("ns3::RdmaNic::CongestionControl", m_ccTypeId));
    ObjectFactory ccFactory;
    ccFactory.SetTypeId(tid);
    qp->SetWakeCallback(MakeCallback(&RdmaNic::Activate, this).Bind(index));
    qp->TraceConnectWithoutContext("Completion", MakeCallback(&RdmaNic::Completed, this));
    m_qps.push_back(qp);
    m_inActive.push_back(false);
    m_lastCnp.push_back(Time(0));
    m_cnpEver.push_back(false);
    qp->SetCongestionControl(ccFactory.Create<RdmaCongestionControl>());
    return qp;
}

uint32_t
RdmaNic::ReserveQueuePair()
{
    const uint32_t qpn = FIRST_QPN + static_cast<uint32_t>(m_qps.size());
    m_qps.push_back(nullptr);
    m_inActive.push_back(false);
    m_lastCnp.push_back(Time(0));
    m_cnpEver.push_back(false);
    return qpn;
}

std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>
RdmaNic::ConnectPair(Ptr<RdmaNic> a, Ptr<RdmaNic> b, uint8_t priority)
{
    Ptr<RdmaQueuePair> qa = a->CreateQueuePair(b->GetAddress(), priority);
    Ptr<RdmaQueuePair> qb = b->CreateQueuePair(a->GetAddress(), priority);
    qa->Connect(qb->GetQpn(), qb->GetInitialPsn());
    qb->Connect(qa->GetQpn(), qa->GetInitialPsn());
    return {qa, qb};
}

uint32_t
RdmaNic::IndexOf(uint32_t qpn) const
{
    if (qpn < FIRST_QPN || qpn - FIRST_QPN >= m_qps.size())
    {
        return static_cast<uint32_t>(m_qps.size());
    }
    return qpn - FIRST_QPN;
}

Ptr<RdmaQueuePair>
RdmaNic::GetQueuePair(uint32_t qpn) const
{
    const uint32_t i = IndexOf(qpn);
    return i < m_qps.size() ? m_qps[i] : nullptr;
}

uint32_t
RdmaNic::GetNQueuePairs() const
{
    return static_cast<uint32_t>(m_qps.size());
}

Ipv4Address
RdmaNic::GetAddress() const
{
    return m_address;
}

Ptr<PfcNetDevice>
RdmaNic::GetDevice() const
{
    return m_device;
}

void
RdmaNic::Activate(uint32_t index)
{
    if (!m_inActive[index])
    {
        m_inActive[index] = true;
        m_active[m_qps[index]->GetPriority()].push_back(index);
    }
    TrySend();
}

void
RdmaNic::TrySend()
{
    if (m_inTrySend)
    {
        m_trySendAgain = true; // called back from the device while sending: loop once more
        return;
    }
    m_inTrySend = true;
    const Time now = Simulator::Now();
    Time earliest = Time::Max();
    do
    {
        m_trySendAgain = false;
        earliest = Time::Max();
        for (uint8_t prio = 0; prio < PfcNetDevice::N_PRIORITIES; ++prio)
        {
            auto& active = m_active[prio];
            // Visit each queue pair of this priority at most once per pass.
            for (std::size_t n = active.size(); n > 0 && !active.empty(); --n)
            {
                if (m_dataInDevice[prio] >= 1)
                {
                    break;
                }
                if (m_hostReadFree > now)
                {
                    earliest = std::min(earliest, m_hostReadFree); // payload still being read
                    break;
                }
                const uint32_t index = active.front();
                active.pop_front();
                Ptr<RdmaQueuePair> qp = m_qps[index];
                if (!qp->HasPacketToSend())
                {
                    m_inActive[index] = false;
                    continue;
                }
                if (qp->GetNextSendTime() > now)
                {
                    earliest = std::min(earliest, qp->GetNextSendTime());
                    active.push_back(index);
                    continue;
                }
                RdmaTxDescriptor d;
                active.push_back(index); // round robin: to the back, whatever happens
                if (!qp->NextPacket(d))
                {
                    continue;
                }
                if (m_hostReadRate.GetBitRate() > 0 && d.payload > 0)
                {
                    // Exact (fractional-nanosecond) read times, so that rounding to the
                    // scheduler's resolution does not accumulate over the frames of a burst.
                    const double t = now.GetSeconds();
                    const double start = t - m_hostReadDone < 1e-9 ? m_hostReadDone : t;
                    m_hostReadDone = start + d.payload * 8.0 / m_hostReadRate.GetBitRate();
                    m_hostReadFree =
                        NanoSeconds(static_cast<int64_t>(std::ceil(m_hostReadDone * 1e9)));
                }
                Ptr<Packet> p = BuildPacket(qp, d);
                qp->OnSent(PfcNetDevice::WireBytes(p->GetSize() + PfcNetDevice::ETHERNET_HEADER));
                ++m_dataSent;
                ++m_dataInDevice[prio];
                m_device->Enqueue(p, prio, TAG_DATA);
            }
        }
    } while (m_trySendAgain);
    m_inTrySend = false;
    if (earliest != Time::Max())
    {
        if (!m_wakeEvent.IsRunning() || Simulator::GetDelayLeft(m_wakeEvent) > earliest - now)
        {
            m_wakeEvent.Cancel();
            m_wakeEvent = Simulator::Schedule(earliest - now, &RdmaNic::TrySend, this);
        }
    }
}

void
RdmaNic::PortDequeue(uint32_t /* port */,
                     const Ptr<Packet>& /* frame */,
                     uint8_t priority,
                     uint32_t tag)
{
    if (tag == TAG_DATA)
    {
        --m_dataInDevice[priority];
        TrySend();
    }
}

void
RdmaNic::AddUdpIp(Ptr<Packet> p, Ptr<RdmaQueuePair> qp, uint8_t dscp, bool ect) const
{
    UdpHeader udp;
    udp.SetSourcePort(qp->GetSourcePort());
    udp.SetDestinationPort(ROCE_UDP_PORT);
    p->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(m_address);
    ip.SetDestination(qp->GetPeerAddress());
    ip.SetProtocol(17);
    ip.SetTtl(64);
    ip.SetTos(static_cast<uint8_t>(dscp << 2));
    ip.SetEcn(ect ? Ipv4Header::ECN_ECT0 : Ipv4Header::ECN_NotECT);
    ip.SetDontFragment();
    ip.SetIdentification(0);
    ip.SetPayloadSize(p->GetSize());
    p->AddHeader(ip);
    if (m_computeIcrc)
    {
        RoceIcrcTrailer::Stamp(p);
    }
}

Ptr<Packet>
RdmaNic::BuildPacket(Ptr<RdmaQueuePair> qp, const RdmaTxDescriptor& d) const
{
    Ptr<Packet> p = Create<Packet>(d.payload);
    // The ICRC trailer: 0, or the real value when ComputeIcrc is set (see AddUdpIp).
    p->AddTrailer(RoceIcrcTrailer());
    if (d.payload > 0 && qp->GetCongestionControl()->NeedsInt())
    {
        p->AddPacketTag(RdmaIntTag()); // switches append their hops
    }
    AddRdmaTransportHeaders(p, d, qp->GetPeerQpn());
    AddUdpIp(p, qp, m_dscp, m_ect);
    return p;
}

void
RdmaNic::SendAck(Ptr<RdmaQueuePair> qp,
                 uint32_t psn,
                 bool nak,
                 uint32_t msn,
                 bool ecnEcho,
                 const RdmaIntTag* intStack)
{
    Ptr<Packet> p = Create<Packet>();
    if (intStack)
    {
        RdmaIntTag echo = *intStack;
        echo.SetEcho(); // the ACK's path must not add to the data path's telemetry
        p->AddPacketTag(echo);
    }
    p->AddTrailer(RoceIcrcTrailer());
    // BECN: the acknowledged data was CE-marked (IBTA: BECN, as in annex A10).
    AddRdmaAckHeaders(p, qp->GetPeerQpn(), psn, nak, msn, ecnEcho);
    AddUdpIp(p, qp, m_dscp, false);
    ++m_acksSent;
    m_device->Enqueue(p, qp->GetPriority(), TAG_CONTROL);
}

void
RdmaNic::SendCnp(Ptr<RdmaQueuePair> qp)
{
    const uint32_t index = IndexOf(qp->GetQpn());
    const Time now = Simulator::Now();
    if (m_cnpEver[index] && now - m_lastCnp[index] < m_cnpInterval)
    {
        return;
    }
    m_cnpEver[index] = true;
    m_lastCnp[index] = now;
    Ptr<Packet> p = Create<Packet>(CNP_PAYLOAD);
    p->AddTrailer(RoceIcrcTrailer());
    IbBthHeader bth;
    bth.SetOpcode(IbBthHeader::ROCE_CNP);
    bth.SetDestQp(qp->GetPeerQpn());
    bth.SetPsn(0);
    p->AddHeader(bth);
    AddUdpIp(p, qp, m_cnpDscp, false);
    ++m_cnpsSent;
    m_cnpSentTrace(qp->GetQpn());
    m_device->Enqueue(p, static_cast<uint8_t>(m_cnpDscp >> 3), TAG_CONTROL);
}

bool
RdmaNic::PortReceive(uint32_t /* port */, const Ptr<Packet>& packet, uint16_t type)
{
    if (type != Ipv4L3Protocol::PROT_NUMBER)
    {
        return false;
    }
    // Claim only UDP to 4791 for this address; read the fields in place first.
    uint8_t b[24];
    if (packet->CopyData(b, 24) < 24 || b[9] != 17 || (b[0] & 0x0F) != 5)
    {
        return false;
    }
    const uint32_t dst =
        (uint32_t(b[16]) << 24) | (uint32_t(b[17]) << 16) | (uint32_t(b[18]) << 8) | b[19];
    const uint16_t dport = static_cast<uint16_t>((b[22] << 8) | b[23]);
    if (dport != ROCE_UDP_PORT || dst != m_address.Get())
    {
        return false;
    }
    const bool ce = (b[1] & 0x03) == Ipv4Header::ECN_CE;

    Ipv4Header ip;
    packet->RemoveHeader(ip);
    UdpHeader udp;
    packet->RemoveHeader(udp);
    IbBthHeader bth;
    packet->RemoveHeader(bth);
    const uint8_t opcode = bth.GetOpcode();
    const uint32_t index = IndexOf(bth.GetDestQp());
    if (index == m_qps.size() || !m_qps[index])
    {
        ++m_unknownQp;
        return true;
    }
    Ptr<RdmaQueuePair> qp = m_qps[index];

    if (opcode == IbBthHeader::ROCE_CNP)
    {
        m_cnpReceivedTrace(qp->GetQpn());
        qp->ReceiveCnp();
        return true;
    }
    RdmaIntTag intTag;
    const bool hasInt = packet->PeekPacketTag(intTag);
    const bool request =
        opcode != IbBthHeader::RC_ACKNOWLEDGE && !IbBthHeader::IsReadResponse(opcode);
    if (ce && opcode != IbBthHeader::RC_ACKNOWLEDGE)
    {
        SendCnp(qp);
    }
    const RdmaDelivery got = DeliverRdmaPacket(qp, bth, packet, ce, hasInt ? &intTag : nullptr);
    if (request && (got.verdict.sendAck || got.verdict.sendNak))
    {
        SendAck(qp,
                got.verdict.ackPsn,
                got.verdict.sendNak,
                got.verdict.msn,
                got.verdict.ecnEcho,
                hasInt ? &intTag : nullptr);
    }
    if (got.activate)
    {
        Activate(index);
    }
    return true;
}

void
RdmaNic::Completed(const RdmaCompletion& completion)
{
    m_completionTrace(completion);
}

uint64_t
RdmaNic::GetCnpsSent() const
{
    return m_cnpsSent;
}

uint64_t
RdmaNic::GetAcksSent() const
{
    return m_acksSent;
}

uint64_t
RdmaNic::GetDataFramesSent() const
{
    return m_dataSent;
}

uint64_t
RdmaNic::GetUnknownQpFrames() const
{
    return m_unknownQp;
}

} // namespace ns3
