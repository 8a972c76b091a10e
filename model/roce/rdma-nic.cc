/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-nic.h"

#include "roce-icrc-trailer.h"

#include "ns3/boolean.h"
#include "ns3/ib-bth-header.h"
#include "ns3/ib-reth-header.h"
#include "ns3/interconnect-config-error.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/log.h"
#include "ns3/packet-byte-address.h"
#include "ns3/rdma-packet-pool.h"
#include "ns3/sharp-header.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaNic");

NS_OBJECT_ENSURE_REGISTERED(RdmaNic);

namespace
{
/// Dequeue tags: the NIC counts only its data frames against the per-priority limit.
constexpr uint32_t TAG_CONTROL = 0;
constexpr uint32_t TAG_DATA = 1;

/// @return whether a packet's last 4 bytes, its ICRC, are not 0 @param packet 4 bytes or more
/// (Out of line: a Trailer's construction and destruction go through ns-3's ObjectBase.)
[[gnu::noinline]] bool
EndsInStampedIcrc(Packet& packet)
{
    RoceIcrcTrailer icrc;
    packet.PeekTrailer(icrc);
    return icrc.GetIcrc() != 0;
}
} // namespace

TypeId
RdmaNic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaNic")
            .SetParent<RdmaChannelAdapter>()
            .SetGroupName("Interconnect")
            .AddConstructor<RdmaNic>()
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
            .AddAttribute("AckDscp",
                          "DSCP of ACKs and NAKs (0..63), and so their priority (DSCP / 8); 64: "
                          "the data's (Dscp). A transport that reads delay from its "
                          "acknowledgements (uet with nscc) wants them ahead of data, as UEC's "
                          "control traffic class is.",
                          UintegerValue(64),
                          MakeUintegerAccessor(&RdmaNic::m_ackDscp),
                          MakeUintegerChecker<uint8_t>(0, 64))
            .AddAttribute("TrimmedDscp",
                          "DSCP by which a switch marks a packet it trimmed (0..63; "
                          "ns3::RoceSwitch::TrimDscp must agree). A data packet that arrives "
                          "with it is a trimmed header: answered by a NAK naming its PSN. "
                          "Default: 56.",
                          UintegerValue(56),
                          MakeUintegerAccessor(&RdmaNic::m_trimmedDscp),
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
                          "Stamp every transport frame with its real ICRC (IBTA RoCEv2 "
                          "invariant CRC) instead of 0 (SHARP aggregation frames keep 0). Costs a "
                          "CRC over every packet; the pcap helpers turn "
                          "it on so that captures carry valid ICRCs.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaNic::m_computeIcrc),
                          MakeBooleanChecker())
            .AddAttribute("ReusePackets",
                          "Build frames on the packets of frames received (RdmaPacketPool) "
                          "instead of new ones: the same frames, byte for byte, without a "
                          "packet's making and freeing; a packet's uid then names one frame "
                          "from its send to its receipt, not one for the whole run.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaNic::m_reusePackets),
                          MakeBooleanChecker());
    return tid;
}

RdmaNic::RdmaNic()
    : m_dscp(26),
      m_cnpDscp(48),
      m_ackDscp(64),
      m_trimmedDscp(56),
      m_ect(true),
      m_computeIcrc(false),
      m_reusePackets(true)
{
    NS_LOG_FUNCTION(this);
    SetLink(PfcNetDevice::N_PRIORITIES, 1, IbBthHeader::ROCE_CNP, false);
    // The hot fields end on the adapter's hot pair of lines (SendLine), which the port's hints
    // name: a field added among them that pushes the last out must go with the cold ones.
    NS_ASSERT(reinterpret_cast<const char*>(&m_framedInfo + 1) <=
              static_cast<const char*>(SendLine()) + 128);
}

void
RdmaNic::DoDispose()
{
    NS_LOG_FUNCTION(this);
    if (m_device)
    {
        m_device->SetOwner(nullptr, 0);
    }
    m_device = nullptr;
    m_framed = nullptr;
    RdmaChannelAdapter::DoDispose();
}

void
RdmaNic::Install(Ptr<PfcNetDevice> device, Ipv4Address address)
{
    NS_LOG_FUNCTION(this << device << address);
    m_device = device;
    m_address = address;
    m_addressValue = address.Get();
    device->SetOwner(this, 0);
}

Ptr<RdmaQueuePair>
RdmaNic::CreateQueuePair(Ipv4Address peer, uint8_t priority)
{
    NS_LOG_FUNCTION(this << peer << +priority);
    NS_ABORT_MSG_UNLESS(m_device, "RdmaNic::CreateQueuePair before Install");
    NS_ABORT_MSG_IF(priority >= PfcNetDevice::N_PRIORITIES, "priority " << +priority);
    Ptr<RdmaQueuePair> qp = NewQueuePair();
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
    const uint32_t qpn = NextQpn();
    // The UDP source port carries ECMP entropy: a fixed mix of the QPN and both addresses,
    // in the dynamic range 49152..65535 (as RoCEv2 NICs do).
    uint32_t h = qpn * 2654435761u ^ m_address.Get() * 40503u ^ peer.Get();
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    const uint16_t sourcePort = static_cast<uint16_t>(49152 + (h % 16384));
    qp->Setup(qpn, m_address, peer, sourcePort, priority, m_device->GetDataRate());
    AddQueuePair(qp, priority);
    return qp;
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
RdmaNic::PortDequeue(uint32_t /* port */,
                     const Ptr<Packet>& /* frame */,
                     uint8_t priority,
                     uint32_t tag)
{
    if (tag == TAG_DATA)
    {
        DataDequeued(priority);
    }
}

void
RdmaNic::PortDrop(uint32_t port, const Ptr<Packet>& frame, uint8_t priority, uint32_t tag)
{
    PortDequeue(port, frame, priority, tag); // the frame is lost; the transport recovers it
}

const void*
RdmaNic::PortReceiveLine(uint32_t /* port */) const
{
    return SendLine();
}

bool
RdmaNic::PortNamesSendLines(uint32_t /* port */) const
{
    return true;
}

void
RdmaNic::PortSendLines(uint32_t /* port */, const void*& line, const void*& span) const
{
    line = SendLine();
    span = NextSenderLines();
}

Ptr<Packet>
RdmaNic::NewTransportPacket(uint32_t payload) const
{
    if (PacksHeaders())
    {
        if (m_reusePackets)
        {
            if (Ptr<Packet> reused = RdmaPacketPool::Take(payload + ICRC))
            {
                return reused;
            }
        }
        return Create<Packet>(payload + ICRC); // the ICRC's bytes: 0 (see AddLinkHeaders)
    }
    Ptr<Packet> p = Create<Packet>(payload);
    // The ICRC trailer: 0, or the real value when ComputeIcrc is set (see AddLinkHeaders).
    p->AddTrailer(RoceIcrcTrailer());
    return p;
}

uint8_t
RdmaNic::AddLinkHeaders(Ptr<Packet> p,
                        RdmaPackedHeader* packed,
                        Ptr<RdmaQueuePair> qp,
                        FrameKind kind) const
{
    const bool ownAck = kind == FrameKind::ACK && m_ackDscp != 64;
    const uint8_t dscp = kind == FrameKind::CNP ? m_cnpDscp : ownAck ? m_ackDscp : m_dscp;
    const uint8_t ecn =
        kind == FrameKind::DATA && m_ect ? Ipv4Header::ECN_ECT0 : Ipv4Header::ECN_NotECT;
    const RdmaQueuePair* pair = PeekPointer(qp); // (Ptr's operator-> is a call: its assert)
    const uint32_t peer = pair->GetPeerIpv4() != 0
                              ? pair->GetPeerIpv4()
                              : Ipv4Address::ConvertFrom(qp->GetPeerAddress()).Get();
    if (packed)
    {
        // RFC 768 and RFC 791 as ns-3's UdpHeader and Ipv4Header write them: no checksums,
        // identification 0, DF, TTL 64.
        const uint32_t udpLength = p->GetSize() + packed->GetSerializedSize() + 8;
        uint8_t* u = packed->Prepend(8);
        const uint16_t sport = pair->GetEntropy();
        u[0] = static_cast<uint8_t>(sport >> 8);
        u[1] = static_cast<uint8_t>(sport);
        u[2] = static_cast<uint8_t>(ROCE_UDP_PORT >> 8);
        u[3] = static_cast<uint8_t>(ROCE_UDP_PORT & 0xFF);
        u[4] = static_cast<uint8_t>(udpLength >> 8);
        u[5] = static_cast<uint8_t>(udpLength);
        u[6] = 0;
        u[7] = 0;
        const uint32_t ipLength = udpLength + 20;
        const uint32_t src = m_addressValue;
        uint8_t* b = packed->Prepend(20);
        b[0] = 0x45; // version 4, IHL 5
        b[1] = static_cast<uint8_t>((dscp << 2) | ecn);
        b[2] = static_cast<uint8_t>(ipLength >> 8);
        b[3] = static_cast<uint8_t>(ipLength);
        b[4] = 0; // identification
        b[5] = 0;
        b[6] = 0x40; // DF, fragment offset 0
        b[7] = 0;
        b[8] = 64;
        b[9] = 17;
        b[10] = 0; // header checksum: not computed (as ns-3's default)
        b[11] = 0;
        for (int k = 0; k < 4; ++k)
        {
            b[12 + k] = static_cast<uint8_t>(src >> (24 - 8 * k));
            b[16 + k] = static_cast<uint8_t>(peer >> (24 - 8 * k));
        }
        p->AddHeader(*packed);
        m_framed = p;
        m_framedInfo.src = src;
        m_framedInfo.dst = peer;
        m_framedInfo.srcPort = sport;
        m_framedInfo.dstPort = ROCE_UDP_PORT;
        m_framedInfo.tos = b[1];
        m_framedInfo.protocol = 17;
        m_framedInfo.headerLen = 20;
    }
    else
    {
        UdpHeader udp;
        udp.SetSourcePort(qp->GetEntropy());
        udp.SetDestinationPort(ROCE_UDP_PORT);
        p->AddHeader(udp);
        Ipv4Header ip;
        ip.SetSource(m_address);
        ip.SetDestination(Ipv4Address(peer));
        ip.SetProtocol(17);
        ip.SetTtl(64);
        ip.SetTos(static_cast<uint8_t>(dscp << 2));
        ip.SetEcn(static_cast<Ipv4Header::EcnType>(ecn));
        ip.SetDontFragment();
        ip.SetIdentification(0);
        ip.SetPayloadSize(p->GetSize());
        p->AddHeader(ip);
    }
    if (m_computeIcrc)
    {
        RoceIcrcTrailer::Stamp(p);
        RdmaPacketPool::NoteStampedTails(); // (received, this payload may not be given as it is)
    }
    // CNPs (and ACKs with AckDscp) go on the priority of their DSCP (ahead of data); the rest on
    // the queue pair's.
    if (kind != FrameKind::DATA && (kind == FrameKind::CNP || ownAck))
    {
        return static_cast<uint8_t>(dscp >> 3);
    }
    return pair->GetPriority();
}

uint32_t
RdmaNic::GetWireBytes(Ptr<const Packet> p) const
{
    return PfcNetDevice::WireBytes(p->GetSize() + PfcNetDevice::ETHERNET_HEADER);
}

void
RdmaNic::Transmit(Ptr<Packet> p, uint8_t txClass, bool data)
{
    // Each frame is queued right after it is framed (RdmaChannelAdapter::Frame); any other
    // (an aggregation datagram) goes without its fields, and the switch reads them.
    const bool framed = m_framed == p;
    m_framed = nullptr;
    m_device->Enqueue(p,
                      txClass,
                      data ? TAG_DATA : TAG_CONTROL,
                      framed ? m_framedInfo : PfcFrameInfo());
}

void
RdmaNic::SendAggregation(Ipv4Address to, Ptr<Packet> packet, uint8_t priority)
{
    NS_ABORT_MSG_IF(priority >= PfcNetDevice::N_PRIORITIES,
                    "RdmaNic::SendAggregation: priority " << +priority);
    FrameAggregation(packet, m_address, to, priority);
    QueueDatagram(packet, priority);
}

void
RdmaNic::SetAggregationCallback(Callback<void, Ptr<Packet>> callback)
{
    m_aggregation = callback;
}

void
RdmaNic::FrameAggregation(Ptr<Packet> packet, Ipv4Address from, Ipv4Address to, uint8_t priority)
{
    packet->AddTrailer(RoceIcrcTrailer()); // (0; padding would keep what the block held)
    IbBthHeader bth;
    bth.SetOpcode(SharpHeader::BTH_OPCODE);
    packet->AddHeader(bth);
    UdpHeader udp;
    udp.SetSourcePort(ROCE_UDP_PORT);
    udp.SetDestinationPort(ROCE_UDP_PORT);
    packet->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(from);
    ip.SetDestination(to);
    ip.SetProtocol(17);
    ip.SetTtl(64);
    ip.SetDscp(static_cast<Ipv4Header::DscpType>(priority << 3));
    ip.SetEcn(Ipv4Header::ECN_NotECT);
    ip.SetDontFragment();
    ip.SetPayloadSize(packet->GetSize());
    packet->AddHeader(ip);
}

bool
RdmaNic::UnframeAggregation(Ptr<Packet> packet)
{
    uint8_t b[20 + 8 + IbBthHeader::SIZE];
    if (packet->GetSize() < sizeof(b) + SharpHeader::SIZE + ICRC ||
        packet->CopyData(b, sizeof(b)) != sizeof(b))
    {
        return false;
    }
    const uint16_t dport = static_cast<uint16_t>((b[22] << 8) | b[23]);
    if ((b[0] & 0x0F) != 5 || b[9] != 17 || dport != ROCE_UDP_PORT ||
        b[28] != SharpHeader::BTH_OPCODE)
    {
        return false;
    }
    packet->RemoveAtStart(sizeof(b));
    packet->RemoveAtEnd(ICRC);
    return true;
}

bool
RdmaNic::PortReceive(uint32_t /* port */,
                     const Ptr<Packet>& packet,
                     uint16_t type,
                     const PfcFrameInfo& /* info: the NIC reads its transport headers anyway */)
{
    if (type != Ipv4L3Protocol::PROT_NUMBER)
    {
        return false;
    }
    PrefetchQueuePairs(); // (while the headers are read)
    // Claim only UDP to 4791 for this address: the headers read in place, at once (IPv4 20,
    // UDP 8, BTH 12 and a RETH's 16).
    static_assert(PfcNetDevice::ARRIVAL_READ_BYTES >= 28 + IbBthHeader::SIZE + IbRethHeader::SIZE,
                  "the headers read at once (and fetched ahead for the next frame)");
    // Read where the packet stores them (PacketStoredRun: a NIC's frame keeps its headers in a
    // row before its zero-filled payload) when they hold the IPv4, UDP and BTH headers at least,
    // else copied out (ns-3's CopyData, which gives the payload's zeros too); the transport
    // headers beyond the BTH are copied out as well if the stored run ends before them. The
    // bytes are not read once the headers are removed below.
    constexpr uint32_t READ = PfcNetDevice::ARRIVAL_READ_BYTES;
    const uint32_t copied = std::min(packet->GetSize(), READ);
    uint32_t readable = std::min(PacketStoredRun(*packet), copied);
    const uint8_t* b = PacketBytesAddress(*packet);
    uint8_t copy[READ];
    const auto copyOut = [&]() {
        packet->CopyData(copy, READ);
        b = copy;
        readable = copied;
    };
    if (readable < 28 + IbBthHeader::SIZE)
    {
        copyOut();
    }
    if (copied < 28 || b[9] != 17 || (b[0] & 0x0F) != 5)
    {
        return false;
    }
    const uint32_t dst =
        (uint32_t(b[16]) << 24) | (uint32_t(b[17]) << 16) | (uint32_t(b[18]) << 8) | b[19];
    const uint16_t dport = static_cast<uint16_t>((b[22] << 8) | b[23]);
    if (dport != ROCE_UDP_PORT || dst != m_addressValue)
    {
        return false;
    }
    if (copied >= 40 && b[28] == SharpHeader::BTH_OPCODE)
    {
        Ptr<Packet> p = packet->Copy();
        if (!m_aggregation.IsNull() && UnframeAggregation(p))
        {
            m_aggregation(p);
        }
        return true;
    }
    if (copied >= 40)
    {
        PrefetchQueuePair((uint32_t(b[33]) << 16) | (uint32_t(b[34]) << 8) | b[35], // BTH DestQP
                          b[28] == IbBthHeader::RC_ACKNOWLEDGE ||
                              IbBthHeader::IsReadResponse(b[28]));
    }
    const bool ce = (b[1] & 0x03) == Ipv4Header::ECN_CE;
    RdmaTransportHeaders headers;
    uint32_t transport = headers.ReadFrom(b + 28, readable - 28);
    if (transport == 0 && readable < copied)
    {
        copyOut();
        transport = headers.ReadFrom(b + 28, readable - 28);
    }
    if (transport == 0)
    {
        return false; // too short for its transport headers
    }
    const uint8_t dscp = b[1] >> 2;
    packet->RemoveAtStart(28 + transport); // IPv4, UDP and the transport headers
    // A trimmed header: the trimmed DSCP, a data opcode, and nothing left of the payload (a
    // data packet that a priority remap moved to the same DSCP still has its payload).
    const uint8_t opcode = headers.bth.GetOpcode();
    const bool trimmed = dscp == m_trimmedDscp && dscp != m_dscp && packet->GetSize() <= ICRC &&
                         IbBthHeader::CarriesData(opcode);
    ReceiveTransport(headers, packet, ce, trimmed);
    // The payload is all that is left: kept for a frame to come when nothing else holds it and
    // its ICRC is 0, as a new packet's is (read only once some frame may have one stamped: its
    // zero-filled bytes take ns-3's slow path). With packet metadata on, the adapter writes
    // header objects and nothing is kept.
    if (m_reusePackets && packet->GetReferenceCount() == 1 && PacksHeaders() &&
        packet->GetSize() >= ICRC)
    {
        if (!RdmaPacketPool::MayHaveStampedTails() || !EndsInStampedIcrc(*packet))
        {
            RdmaPacketPool::Give(packet);
        }
    }
    return true;
}

} // namespace ns3
