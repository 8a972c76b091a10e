/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-host-adapter.h"

#include "ib-lrh-header.h"

#include "ns3/abort.h"
#include "ns3/ib-bth-header.h"
#include "ns3/interconnect-config-error.h"
#include "ns3/packet.h"
#include "ns3/roce-icrc-trailer.h"
#include "ns3/sharp-header.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(IbHostAdapter);

namespace
{
/// Dequeue tags: the adapter counts only its data packets against the per-VL limit.
constexpr uint32_t TAG_CONTROL = 0;
constexpr uint32_t TAG_DATA = 1;
/// Data packets per VL the adapter keeps in its port's queue.
constexpr uint32_t PORT_SLOTS = 2;
} // namespace

TypeId
IbHostAdapter::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::IbHostAdapter")
            .SetParent<RdmaChannelAdapter>()
            .SetGroupName("Interconnect")
            .AddConstructor<IbHostAdapter>()
            .AddAttribute("CnpInterval",
                          "At most one CNP per queue pair per interval (notification point). "
                          "Default: 0, a CNP for every FECN-marked packet (IBTA annex A10).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&IbHostAdapter::m_cnpInterval),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("Message",
                            "A raw message arrived whole: source LID, bytes",
                            MakeTraceSourceAccessor(&IbHostAdapter::m_messageTrace),
                            "ns3::IbHostAdapter::MessageTracedCallback");
    return tid;
}

IbHostAdapter::IbHostAdapter()
    : m_lid(0),
      m_lmc(0),
      m_psn(0),
      m_bytesReceived(0),
      m_misdelivered(0),
      m_qpMtuSet(false)
{
    SetLink(RdmaChannelAdapter::MAX_CLASSES, PORT_SLOTS, IbBthHeader::IB_CNP, true);
}

void
IbHostAdapter::DoDispose()
{
    if (m_device)
    {
        m_device->SetIbReceiveCallback(IbNetDevice::IbReceiveCallback());
        m_device->SetDequeueCallback(IbNetDevice::IbDequeueCallback());
    }
    m_device = nullptr;
    m_aggregation = AggregationCallback();
    RdmaChannelAdapter::DoDispose();
}

void
IbHostAdapter::Install(Ptr<IbNetDevice> device, uint16_t lid)
{
    m_device = device;
    m_lid = lid;
    device->SetIbReceiveCallback(MakeCallback(&IbHostAdapter::Receive, this));
    device->SetDequeueCallback(MakeCallback(&IbHostAdapter::Dequeued, this));
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
    NS_ABORT_MSG_IF(sl > 15, "IbHostAdapter::Send: SL " << +sl << " (0..15)");
    const uint64_t mtu = m_device->GetMtu();
    const uint8_t vl = m_device->GetVlOfSl(sl);
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
        AddLrh(p, nullptr, dlid, sl);
        QueueDatagram(p, vl);
    }
}

void
IbHostAdapter::SendAggregation(uint16_t dlid, Ptr<Packet> packet, uint8_t sl)
{
    NS_ABORT_MSG_IF(sl > 15, "IbHostAdapter::SendAggregation: SL " << +sl << " (0..15)");
    NS_ABORT_MSG_IF(packet->GetSize() > m_device->GetMtu(),
                    "IbHostAdapter::SendAggregation: " << packet->GetSize() << " bytes, MTU "
                                                       << m_device->GetMtu());
    const uint8_t vl = m_device->GetVlOfSl(sl);
    FrameAggregation(packet, vl, sl, dlid, m_lid);
    QueueDatagram(packet, vl);
}

void
IbHostAdapter::FrameAggregation(Ptr<Packet> packet,
                                uint8_t vl,
                                uint8_t sl,
                                uint16_t dlid,
                                uint16_t slid)
{
    // The ICRC's 4 bytes, 0, as no model checks it (RoCEv2's trailer, for its 4 zero bytes only:
    // InfiniBand's ICRC, IBA Vol. 1 7.8.1, covers other fields); padding would keep what the
    // buffer block held before.
    packet->AddTrailer(RoceIcrcTrailer());
    IbBthHeader bth;
    bth.SetOpcode(SharpHeader::BTH_OPCODE);
    packet->AddHeader(bth);
    packet->AddHeader(IbLrhHeader::Local(vl, sl, dlid, slid, packet->GetSize()));
}

bool
IbHostAdapter::UnframeAggregation(Ptr<Packet> packet)
{
    if (packet->GetSize() < IbLrhHeader::SIZE + IbBthHeader::SIZE + SharpHeader::SIZE + ICRC)
    {
        return false;
    }
    uint8_t b[IbLrhHeader::SIZE + IbBthHeader::SIZE];
    packet->CopyData(b, sizeof(b));
    IbBth bth;
    bth.Read(b + IbLrhHeader::SIZE);
    if (bth.GetOpcode() != SharpHeader::BTH_OPCODE)
    {
        return false;
    }
    packet->RemoveAtStart(IbLrhHeader::SIZE + IbBthHeader::SIZE);
    packet->RemoveAtEnd(ICRC);
    return true;
}

void
IbHostAdapter::SetAggregationCallback(AggregationCallback callback)
{
    m_aggregation = callback;
}

void
IbHostAdapter::AddLrh(Ptr<Packet> packet, RdmaPackedHeader* packed, uint16_t dlid, uint8_t sl) const
{
    const uint32_t inner = packet->GetSize() + (packed ? packed->GetSerializedSize() : 0);
    const IbLrhHeader lrh = IbLrhHeader::Local(m_device->GetVlOfSl(sl), sl, dlid, m_lid, inner);
    if (packed)
    {
        lrh.Write(packed->Prepend(IbLrhHeader::SIZE));
        packet->AddHeader(*packed);
    }
    else
    {
        packet->AddHeader(lrh);
    }
}

void
IbHostAdapter::SetQueuePairAttribute(const std::string& name, const AttributeValue& value)
{
    RdmaChannelAdapter::SetQueuePairAttribute(name, value);
    m_qpMtuSet = m_qpMtuSet || name == "Mtu";
}

Ptr<RdmaQueuePair>
IbHostAdapter::CreateQueuePair(uint16_t dlid, uint8_t sl)
{
    NS_ABORT_MSG_UNLESS(m_device, "IbHostAdapter::CreateQueuePair before Install");
    NS_ABORT_MSG_IF(sl > 15, "IbHostAdapter::CreateQueuePair: SL " << +sl << " (0..15)");
    Ptr<RdmaQueuePair> qp = NewQueuePair();
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
    // One path per DLID (the LMC picks it): no entropy field to fill.
    qp->Setup(NextQpn(), IbLidAddress(m_lid), IbLidAddress(dlid), 0, sl, m_device->GetDataRate());
    AddQueuePair(qp, m_device->GetVlOfSl(sl));
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

Ptr<Packet>
IbHostAdapter::NewTransportPacket(uint32_t payload) const
{
    return Create<Packet>(payload + ICRC);
}

uint8_t
IbHostAdapter::AddLinkHeaders(Ptr<Packet> packet,
                              RdmaPackedHeader* packed,
                              Ptr<RdmaQueuePair> qp,
                              FrameKind) const
{
    // Data, ACKs and CNPs alike on the queue pair's own path SL (on a torus the way back
    // crosses other datelines than the way there).
    const uint8_t sl = qp->GetPriority();
    AddLrh(packet, packed, IbLidOf(qp->GetPeerAddress()), sl);
    return m_device->GetVlOfSl(sl);
}

uint32_t
IbHostAdapter::GetWireBytes(Ptr<const Packet> packet) const
{
    return packet->GetSize() + IbNetDevice::VCRC;
}

void
IbHostAdapter::Transmit(Ptr<Packet> packet, uint8_t txClass, bool data)
{
    m_device->EnqueueVl(packet, txClass, data ? TAG_DATA : TAG_CONTROL);
}

void
IbHostAdapter::Dequeued(Ptr<Packet> /* packet */, uint8_t vl, uint32_t tag)
{
    if (tag == TAG_DATA)
    {
        DataDequeued(vl);
    }
}

void
IbHostAdapter::Receive(Ptr<IbNetDevice> device, Ptr<Packet> packet, uint8_t vl)
{
    const uint32_t blocks = IbNetDevice::Blocks(packet->GetSize());
    // LRH, BTH and the transport's extension headers, read in place at once.
    uint8_t b[IbLrhHeader::SIZE + IbBthHeader::SIZE + IbRethHeader::SIZE];
    const uint32_t copied = packet->CopyData(b, sizeof(b));
    if (vl != IbNetDevice::MANAGEMENT_VL)
    {
        device->Release(vl, blocks); // the adapter takes the packet into memory at once
    }
    if (copied < IbLrhHeader::SIZE + IbBthHeader::SIZE)
    {
        ++m_misdelivered; // too short for its headers
        return;
    }
    IbLrhHeader lrh;
    lrh.Read(b);
    IbBth bth;
    bth.Read(b + IbLrhHeader::SIZE);
    if ((lrh.GetDlid() >> m_lmc) != (m_lid >> m_lmc))
    {
        ++m_misdelivered;
        return;
    }
    if (bth.GetOpcode() == SharpHeader::BTH_OPCODE)
    {
        if (m_aggregation.IsNull() || !UnframeAggregation(packet))
        {
            ++m_misdelivered;
            return;
        }
        m_aggregation(packet);
        return;
    }
    if (bth.GetDestQp() >= FIRST_QPN || bth.GetOpcode() == GetCnpOpcode())
    {
        RdmaTransportHeaders headers;
        const uint32_t transport =
            headers.ReadFrom(b + IbLrhHeader::SIZE, copied - IbLrhHeader::SIZE);
        if (transport == 0)
        {
            ++m_misdelivered;
            return;
        }
        packet->RemoveAtStart(IbLrhHeader::SIZE + transport);
        ReceiveTransport(headers, packet, bth.GetFecn());
        return;
    }
    packet->RemoveAtStart(IbLrhHeader::SIZE + IbBthHeader::SIZE);
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

} // namespace ns3
