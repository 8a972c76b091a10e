/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-host-adapter.h"

#include "ib-bth-header.h"
#include "ib-lrh-header.h"
#include "interconnect-config-error.h"
#include "rdma-congestion-control.h"
#include "rdma-transport.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(IbHostAdapter);

namespace
{
/// Bytes of the invariant CRC at the end of every transport packet.
constexpr uint32_t ICRC = 4;
} // namespace

TypeId
IbHostAdapter::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbHostAdapter")
                            .SetParent<Object>()
                            .SetGroupName("Interconnect")
                            .AddConstructor<IbHostAdapter>()
                            .AddAttribute("CongestionControl",
                                          "Answer FECN with BECN and pace flows by their CCT "
                                          "index (IBTA annex A10)",
                                          BooleanValue(false),
                                          MakeBooleanAccessor(&IbHostAdapter::m_cc),
                                          MakeBooleanChecker())
                            .AddAttribute("CctiIncrease",
                                          "CCT index increase per BECN",
                                          UintegerValue(1),
                                          MakeUintegerAccessor(&IbHostAdapter::m_cctiIncrease),
                                          MakeUintegerChecker<uint32_t>(1, 127))
                            .AddAttribute("CctiLimit",
                                          "Largest CCT index",
                                          UintegerValue(127),
                                          MakeUintegerAccessor(&IbHostAdapter::m_cctiLimit),
                                          MakeUintegerChecker<uint32_t>(1, 16383))
                            .AddAttribute("CctiTimer",
                                          "Interval at which every CCT index above 0 drops by 1",
                                          TimeValue(MicroSeconds(2)),
                                          MakeTimeAccessor(&IbHostAdapter::m_cctiTimer),
                                          MakeTimeChecker(NanoSeconds(1)))
                            .AddAttribute("CctStep",
                                          "Inter-packet delay per CCT index (CCT[i] = i x step)",
                                          TimeValue(NanoSeconds(50)),
                                          MakeTimeAccessor(&IbHostAdapter::m_cctStep),
                                          MakeTimeChecker(Time(0)))
                            .AddTraceSource("Message",
                                            "A message arrived whole: source LID, bytes",
                                            MakeTraceSourceAccessor(&IbHostAdapter::m_messageTrace),
                                            "ns3::IbHostAdapter::MessageTracedCallback");
    return tid;
}

IbHostAdapter::IbHostAdapter()
    : m_cc(false),
      m_cctiIncrease(1),
      m_cctiLimit(127),
      m_cctiTimer(MicroSeconds(2)),
      m_cctStep(NanoSeconds(50)),
      m_nextFlow(0),
      m_cnpsSent(0),
      m_becns(0),
      m_lid(0),
      m_lmc(0),
      m_psn(0),
      m_bytesReceived(0),
      m_misdelivered(0),
      m_acksSent(0),
      m_unknownQp(0),
      m_qpMtuSet(false)
{
    m_qpFactory.SetTypeId(RdmaQueuePair::GetTypeId());
    m_inPort.fill(0);
}

void
IbHostAdapter::DoDispose()
{
    m_pumpEvent.Cancel();
    m_cctiEvent.Cancel();
    m_flows.clear();
    m_qps.clear();
    if (m_device)
    {
        m_device->SetIbReceiveCallback(IbNetDevice::IbReceiveCallback());
        m_device->SetDequeueCallback(IbNetDevice::IbDequeueCallback());
    }
    m_device = nullptr;
    Object::DoDispose();
}

void
IbHostAdapter::Install(Ptr<IbNetDevice> device, uint16_t lid)
{
    m_device = device;
    m_lid = lid;
    device->SetIbReceiveCallback(MakeCallback(&IbHostAdapter::Receive, this));
    device->SetDequeueCallback(MakeCallback(&IbHostAdapter::Dequeued, this));
}

IbHostAdapter::Flow&
IbHostAdapter::GetFlow(uint16_t dlid, uint8_t sl)
{
    for (Flow& f : m_flows)
    {
        if (f.dlid == dlid && f.sl == sl)
        {
            return f;
        }
    }
    Flow f;
    f.dlid = dlid;
    f.sl = sl;
    f.vl = m_device->GetVlOfSl(sl);
    m_flows.push_back(f);
    return m_flows.back();
}

void
IbHostAdapter::SetLmc(uint8_t lmc)
{
    NS_ABORT_MSG_IF(lmc > 7, "IbHostAdapter: LMC " << +lmc << " out of 0..7");
    NS_ABORT_MSG_IF(m_lid % (1u << lmc) != 0,
                    "IbHostAdapter: base LID " << m_lid << " is not a multiple of 2^" << +lmc);
    m_lmc = lmc;
}

uint8_t
IbHostAdapter::GetLmc() const
{
    return m_lmc;
}

uint16_t
IbHostAdapter::GetLid() const
{
    return m_lid;
}

Ptr<IbNetDevice>
IbHostAdapter::GetDevice() const
{
    return m_device;
}

void
IbHostAdapter::Send(uint16_t dlid, uint64_t bytes, uint8_t sl)
{
    NS_ABORT_MSG_IF(bytes == 0, "IbHostAdapter::Send: an empty message");
    const uint64_t mtu = m_device->GetMtu();
    Flow& flow = GetFlow(dlid, sl);
    const uint8_t vl = flow.vl;
    for (uint64_t offset = 0; offset < bytes; offset += mtu)
    {
        const uint32_t payload = static_cast<uint32_t>(std::min(mtu, bytes - offset));
        const bool first = offset == 0;
        const bool last = offset + payload >= bytes;
        Ptr<Packet> p = Create<Packet>(payload + ICRC);
        IbBthHeader bth;
        bth.SetOpcode(first && last ? IbBthHeader::RC_SEND_ONLY
                                    : (first ? IbBthHeader::RC_SEND_FIRST
                                             : (last ? IbBthHeader::RC_SEND_LAST
                                                     : IbBthHeader::RC_SEND_MIDDLE)));
        bth.SetPsn(m_psn);
        m_psn = (m_psn + 1) & 0xFFFFFF;
        p->AddHeader(bth);
        IbLrhHeader lrh;
        lrh.SetVl(vl);
        lrh.SetSl(sl);
        lrh.SetLnh(IbLrhHeader::IBA_LOCAL);
        lrh.SetDlid(dlid);
        lrh.SetSlid(m_lid);
        lrh.SetPktLen(static_cast<uint16_t>((p->GetSize() + IbLrhHeader::SIZE + 3) / 4));
        p->AddHeader(lrh);
        flow.pending.push_back(p);
    }
    Pump();
}

void
IbHostAdapter::Pump()
{
    const Time now = Simulator::Now();
    Time earliest = Time::Max();
    bool progress = true;
    while (progress)
    {
        progress = false;
        for (std::size_t n = 0; n < m_flows.size(); ++n)
        {
            Flow& f = m_flows[(m_nextFlow + n) % m_flows.size()];
            if ((f.pending.empty() && f.active.empty()) || m_inPort[f.vl] >= 2)
            {
                continue;
            }
            if (f.nextSend > now)
            {
                earliest = std::min(earliest, f.nextSend);
                continue;
            }
            Ptr<Packet> p;
            if (!f.pending.empty())
            {
                p = f.pending.front();
                f.pending.pop_front();
                f.bytesSent += p->GetSize() - IbLrhHeader::SIZE - 12 - ICRC;
            }
            else
            {
                p = NextQueuePairPacket(f, earliest);
                if (!p)
                {
                    continue;
                }
            }
            if (m_cc && f.ccti > 0)
            {
                // The next packet starts no sooner than this one's time plus CCT[ccti].
                f.nextSend =
                    now +
                    m_device->GetDataRate().CalculateBytesTxTime(p->GetSize() + IbNetDevice::VCRC) +
                    m_cctStep * f.ccti;
            }
            ++m_inPort[f.vl];
            m_device->EnqueueVl(p, f.vl, 1);
            m_nextFlow = (m_nextFlow + n + 1) % m_flows.size();
            progress = true;
            break;
        }
    }
    if (earliest != Time::Max() &&
        (!m_pumpEvent.IsRunning() || Simulator::GetDelayLeft(m_pumpEvent) > earliest - now))
    {
        m_pumpEvent.Cancel();
        m_pumpEvent = Simulator::Schedule(earliest - now, &IbHostAdapter::Pump, this);
    }
}

Ptr<Packet>
IbHostAdapter::NextQueuePairPacket(Flow& flow, Time& earliest)
{
    const Time now = Simulator::Now();
    for (std::size_t n = flow.active.size(); n > 0 && !flow.active.empty(); --n)
    {
        const uint32_t index = flow.active.front();
        flow.active.pop_front();
        Ptr<RdmaQueuePair> qp = m_qps[index];
        if (!qp->HasPacketToSend())
        {
            m_qpActive[index] = false;
            continue;
        }
        flow.active.push_back(index); // round robin among the flow's queue pairs
        if (qp->GetNextSendTime() > now)
        {
            earliest = std::min(earliest, qp->GetNextSendTime());
            continue;
        }
        RdmaTxDescriptor d;
        if (!qp->NextPacket(d))
        {
            continue;
        }
        Ptr<Packet> p = Create<Packet>(d.payload + ICRC);
        AddRdmaTransportHeaders(p, d, qp->GetPeerQpn());
        AddLrh(p, flow.dlid, flow.sl);
        qp->OnSent(p->GetSize() + IbNetDevice::VCRC);
        flow.bytesSent += d.payload;
        return p;
    }
    return nullptr;
}

void
IbHostAdapter::AddLrh(Ptr<Packet> packet, uint16_t dlid, uint8_t sl) const
{
    IbLrhHeader lrh;
    lrh.SetVl(m_device->GetVlOfSl(sl));
    lrh.SetSl(sl);
    lrh.SetLnh(IbLrhHeader::IBA_LOCAL);
    lrh.SetDlid(dlid);
    lrh.SetSlid(m_lid);
    lrh.SetPktLen(static_cast<uint16_t>((packet->GetSize() + IbLrhHeader::SIZE + 3) / 4));
    packet->AddHeader(lrh);
}

void
IbHostAdapter::SetQueuePairAttribute(const std::string& name, const AttributeValue& value)
{
    m_qpFactory.Set(name, value);
    m_qpMtuSet = m_qpMtuSet || name == "Mtu";
}

Ptr<RdmaQueuePair>
IbHostAdapter::CreateQueuePair(uint16_t dlid, uint8_t sl)
{
    NS_ABORT_MSG_UNLESS(m_device, "IbHostAdapter::CreateQueuePair before Install");
    NS_ABORT_MSG_IF(sl > 15, "IbHostAdapter::CreateQueuePair: SL " << +sl << " (0..15)");
    Ptr<RdmaQueuePair> qp = m_qpFactory.Create<RdmaQueuePair>();
    if (!m_qpMtuSet)
    {
        qp->SetMtu(m_device->GetMtu());
    }
    else if (qp->GetMtu() > m_device->GetMtu())
    {
        InterconnectConfigError("ns3::RdmaQueuePair::Mtu",
                                std::to_string(qp->GetMtu()),
                                "at most the port's IB MTU, ns3::IbNetDevice::Mtu = " +
                                    std::to_string(m_device->GetMtu()));
    }
    const uint32_t index = static_cast<uint32_t>(m_qps.size());
    // The engine names endpoints by IPv4 address; on IB they are LIDs.
    qp->Setup(FIRST_QPN + index,
              Ipv4Address(m_lid),
              Ipv4Address(dlid),
              0,
              sl,
              m_device->GetDataRate());
    qp->SetCongestionControl(CreateObject<RdmaCongestionControl>()); // IB CC paces the flow
    qp->SetWakeCallback(MakeCallback(&IbHostAdapter::Activate, this).Bind(index));
    GetFlow(dlid, sl);
    uint32_t flow = 0;
    while (m_flows[flow].dlid != dlid || m_flows[flow].sl != sl)
    {
        ++flow;
    }
    m_qps.push_back(qp);
    m_qpFlow.push_back(flow);
    m_qpActive.push_back(false);
    return qp;
}

std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>
IbHostAdapter::ConnectPair(Ptr<IbHostAdapter> a, Ptr<IbHostAdapter> b, uint8_t sl, uint32_t path)
{
    return ConnectPair(a, b, sl, sl, path);
}

std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>
IbHostAdapter::ConnectPair(Ptr<IbHostAdapter> a,
                           Ptr<IbHostAdapter> b,
                           uint8_t slAtoB,
                           uint8_t slBtoA,
                           uint32_t path)
{
    NS_ABORT_MSG_IF(path >= (1u << a->GetLmc()) || path >= (1u << b->GetLmc()),
                    "IbHostAdapter::ConnectPair: path " << path << " beyond the LMC");
    Ptr<RdmaQueuePair> qa = a->CreateQueuePair(static_cast<uint16_t>(b->GetLid() + path), slAtoB);
    Ptr<RdmaQueuePair> qb = b->CreateQueuePair(static_cast<uint16_t>(a->GetLid() + path), slBtoA);
    qa->Connect(qb->GetQpn(), qb->GetInitialPsn());
    qb->Connect(qa->GetQpn(), qa->GetInitialPsn());
    return {qa, qb};
}

Ptr<RdmaQueuePair>
IbHostAdapter::GetQueuePair(uint32_t qpn) const
{
    return qpn >= FIRST_QPN && qpn - FIRST_QPN < m_qps.size() ? m_qps[qpn - FIRST_QPN] : nullptr;
}

uint32_t
IbHostAdapter::GetNQueuePairs() const
{
    return static_cast<uint32_t>(m_qps.size());
}

uint64_t
IbHostAdapter::GetAcksSent() const
{
    return m_acksSent;
}

uint64_t
IbHostAdapter::GetUnknownQpPackets() const
{
    return m_unknownQp;
}

void
IbHostAdapter::Activate(uint32_t index)
{
    if (!m_qpActive[index])
    {
        m_qpActive[index] = true;
        m_flows[m_qpFlow[index]].active.push_back(index);
    }
    Pump();
}

void
IbHostAdapter::ReceiveForQueuePair(const IbLrhHeader& lrh,
                                   const IbBthHeader& bth,
                                   Ptr<Packet> packet)
{
    Ptr<RdmaQueuePair> qp = GetQueuePair(bth.GetDestQp());
    if (!qp)
    {
        ++m_unknownQp;
        return;
    }
    const uint32_t index = bth.GetDestQp() - FIRST_QPN;
    const RdmaDelivery got = DeliverRdmaPacket(qp, bth, packet, false, nullptr);
    if (got.verdict.sendAck || got.verdict.sendNak)
    {
        // ACK or NAK at once, ahead of the pacing, on this queue pair's own path SL (on a
        // torus the way back crosses other datelines than the way there).
        Ptr<Packet> ack = Create<Packet>(ICRC);
        AddRdmaAckHeaders(ack,
                          qp->GetPeerQpn(),
                          got.verdict.ackPsn,
                          got.verdict.sendNak,
                          got.verdict.msn,
                          false);
        const uint8_t sl = qp->GetPriority();
        AddLrh(ack, lrh.GetSlid(), sl);
        ++m_acksSent;
        m_device->EnqueueVl(ack, m_device->GetVlOfSl(sl), 0);
    }
    if (got.activate)
    {
        Activate(index);
    }
}

void
IbHostAdapter::Dequeued(Ptr<Packet> /* packet */, uint8_t vl, uint32_t tag)
{
    if (tag == 1)
    {
        --m_inPort[vl];
        Pump();
    }
}

void
IbHostAdapter::CctiTimer()
{
    bool any = false;
    for (Flow& f : m_flows)
    {
        if (f.ccti > 0)
        {
            --f.ccti;
            any = any || f.ccti > 0;
        }
    }
    if (any)
    {
        m_cctiEvent = Simulator::Schedule(m_cctiTimer, &IbHostAdapter::CctiTimer, this);
    }
}

void
IbHostAdapter::Receive(Ptr<IbNetDevice> device, Ptr<Packet> packet, uint8_t vl)
{
    const uint32_t blocks = IbNetDevice::Blocks(packet->GetSize());
    IbLrhHeader lrh;
    packet->RemoveHeader(lrh);
    IbBthHeader bth;
    packet->RemoveHeader(bth);
    if (vl != IbNetDevice::MANAGEMENT_VL)
    {
        device->Release(vl, blocks); // the adapter takes the packet into memory at once
    }
    if ((lrh.GetDlid() >> m_lmc) != (m_lid >> m_lmc))
    {
        ++m_misdelivered;
        return;
    }
    if (bth.GetOpcode() == IbBthHeader::ROCE_CNP)
    {
        // A congestion notification: the flow to its sender on this SL slows down.
        if (m_cc && bth.GetBecn())
        {
            ++m_becns;
            Flow& f = GetFlow(lrh.GetSlid(), lrh.GetSl());
            f.ccti = std::min(f.ccti + m_cctiIncrease, m_cctiLimit);
            if (!m_cctiEvent.IsRunning())
            {
                m_cctiEvent = Simulator::Schedule(m_cctiTimer, &IbHostAdapter::CctiTimer, this);
            }
        }
        return;
    }
    if (m_cc && bth.GetFecn())
    {
        // Tell the source: a CNP with BECN on the same SL.
        Ptr<Packet> cnp = Create<Packet>(16 + ICRC); // reserved bytes, as RoCEv2's CNP
        IbBthHeader back;
        back.SetOpcode(IbBthHeader::ROCE_CNP);
        back.SetBecn(true);
        cnp->AddHeader(back);
        IbLrhHeader to;
        to.SetVl(m_device->GetVlOfSl(lrh.GetSl()));
        to.SetSl(lrh.GetSl());
        to.SetLnh(IbLrhHeader::IBA_LOCAL);
        to.SetDlid(lrh.GetSlid());
        to.SetSlid(m_lid);
        to.SetPktLen(static_cast<uint16_t>((cnp->GetSize() + IbLrhHeader::SIZE + 3) / 4));
        cnp->AddHeader(to);
        ++m_cnpsSent;
        m_device->EnqueueVl(cnp, to.GetVl(), 0);
    }
    if (bth.GetDestQp() >= FIRST_QPN)
    {
        ReceiveForQueuePair(lrh, bth, packet);
        return;
    }
    const uint64_t payload = packet->GetSize() - ICRC;
    m_bytesReceived += payload;
    // A source's packets to one of our LIDs on one VL arrive in order (one path per DLID):
    // count per (SLID, DLID, VL).
    const uint16_t slid = lrh.GetSlid();
    const std::size_t path = lrh.GetDlid() - m_lid;
    const std::size_t key = (std::size_t(slid) << (m_lmc + 4)) | (path << 4) | vl;
    if (key >= m_partial.size())
    {
        m_partial.resize(key + 1, 0);
    }
    m_partial[key] += payload;
    const uint8_t op = bth.GetOpcode();
    if (op == IbBthHeader::RC_SEND_LAST || op == IbBthHeader::RC_SEND_ONLY)
    {
        m_messages.push_back(Message{slid, m_partial[key], Simulator::Now()});
        m_messageTrace(slid, m_partial[key]);
        m_partial[key] = 0;
    }
}

const std::vector<IbHostAdapter::Message>&
IbHostAdapter::GetMessages() const
{
    return m_messages;
}

uint64_t
IbHostAdapter::GetBytesReceived() const
{
    return m_bytesReceived;
}

uint64_t
IbHostAdapter::GetMisdelivered() const
{
    return m_misdelivered;
}

uint32_t
IbHostAdapter::GetCcti(uint16_t dlid, uint8_t sl) const
{
    for (const Flow& f : m_flows)
    {
        if (f.dlid == dlid && f.sl == sl)
        {
            return f.ccti;
        }
    }
    return 0;
}

uint64_t
IbHostAdapter::GetBytesSent(uint16_t dlid, uint8_t sl) const
{
    for (const Flow& f : m_flows)
    {
        if (f.dlid == dlid && f.sl == sl)
        {
            return f.bytesSent;
        }
    }
    return 0;
}

uint64_t
IbHostAdapter::GetCnpsSent() const
{
    return m_cnpsSent;
}

uint64_t
IbHostAdapter::GetBecnsReceived() const
{
    return m_becns;
}

} // namespace ns3
