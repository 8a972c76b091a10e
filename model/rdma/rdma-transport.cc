/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-transport.h"

#include "ns3/abort.h"

#include <iomanip>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaPackedHeader);
NS_OBJECT_ENSURE_REGISTERED(IrnSackHeader);

TypeId
IrnSackHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IrnSackHeader")
                            .SetParent<Header>()
                            .SetGroupName("Interconnect")
                            .AddConstructor<IrnSackHeader>();
    return tid;
}

void
IrnSackHeader::SetPsn(uint32_t psn)
{
    NS_ASSERT_MSG(psn <= 0xFFFFFF, "IrnSackHeader: the PSN is 24 bits: " << psn);
    m_psn = psn;
}

uint32_t
IrnSackHeader::GetPsn() const
{
    return m_psn;
}

void
IrnSackHeader::Write(uint8_t* b) const
{
    b[0] = 0;
    b[1] = static_cast<uint8_t>(m_psn >> 16);
    b[2] = static_cast<uint8_t>(m_psn >> 8);
    b[3] = static_cast<uint8_t>(m_psn);
}

void
IrnSackHeader::Read(const uint8_t* b)
{
    m_psn = (uint32_t(b[1]) << 16) | (uint32_t(b[2]) << 8) | b[3];
}

TypeId
IrnSackHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
IrnSackHeader::Print(std::ostream& os) const
{
    os << "sack psn=" << m_psn;
}

uint32_t
IrnSackHeader::GetSerializedSize() const
{
    return SIZE;
}

void
IrnSackHeader::Serialize(Buffer::Iterator start) const
{
    uint8_t b[SIZE];
    Write(b);
    start.Write(b, SIZE);
}

uint32_t
IrnSackHeader::Deserialize(Buffer::Iterator start)
{
    uint8_t b[SIZE];
    start.Read(b, SIZE);
    Read(b);
    return SIZE;
}

TypeId
RdmaPackedHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaPackedHeader")
                            .SetParent<Header>()
                            .SetGroupName("Interconnect")
                            .AddConstructor<RdmaPackedHeader>();
    return tid;
}

RdmaPackedHeader::RdmaPackedHeader()
    : m_start(CAPACITY)
{
}

uint8_t*
RdmaPackedHeader::Prepend(uint32_t bytes)
{
    NS_ABORT_MSG_IF(bytes > m_start,
                    "RdmaPackedHeader: " << bytes << " more bytes do not fit in "
                                         << CAPACITY - m_start << " of " << CAPACITY);
    m_start -= bytes;
    return m_bytes.data() + m_start;
}

void
RdmaPackedHeader::SetSize(uint32_t bytes)
{
    NS_ABORT_MSG_IF(bytes > CAPACITY,
                    "RdmaPackedHeader: " << bytes << " bytes (at most " << CAPACITY << ")");
    m_start = CAPACITY - bytes;
}

TypeId
RdmaPackedHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
RdmaPackedHeader::Print(std::ostream& os) const
{
    const std::ios::fmtflags flags = os.flags();
    os << GetSerializedSize() << " bytes:" << std::hex << std::setfill('0');
    for (uint32_t i = m_start; i < CAPACITY; ++i)
    {
        os << ' ' << std::setw(2) << +m_bytes[i];
    }
    os.flags(flags);
}

uint32_t
RdmaPackedHeader::GetSerializedSize() const
{
    return CAPACITY - m_start;
}

void
RdmaPackedHeader::Serialize(Buffer::Iterator start) const
{
    start.Write(m_bytes.data() + m_start, CAPACITY - m_start);
}

uint32_t
RdmaPackedHeader::Deserialize(Buffer::Iterator start)
{
    start.Read(m_bytes.data() + m_start, CAPACITY - m_start);
    return CAPACITY - m_start;
}

bool
IsPacketMetadataEnabled()
{
    // ns-3 has no getter: a packet with payload lists an item only when metadata is recorded.
    const Ptr<Packet> probe = Create<Packet>(1);
    return probe->BeginItem().HasNext();
}

RdmaTransportHeaders
RdmaTransportHeaders::ForPacket(const RdmaTxDescriptor& d, uint32_t destQp)
{
    RdmaTransportHeaders h;
    h.bth.SetOpcode(d.opcode);
    h.bth.SetDestQp(destQp);
    h.bth.SetPsn(d.psn);
    h.bth.SetAckRequest(d.ackRequest);
    h.hasReth = d.hasReth;
    if (d.hasReth)
    {
        h.reth.SetVirtualAddress(d.va);
        h.reth.SetRkey(destQp);
        h.reth.SetDmaLength(d.dmaLength);
    }
    h.hasAeth = d.hasAeth;
    if (d.hasAeth)
    {
        h.aeth.SetAck(0x1F); // 0x1F: no end-to-end credits advertised
        h.aeth.SetMsn(d.msn & 0xFFFFFF);
    }
    return h;
}

RdmaTransportHeaders
RdmaTransportHeaders::ForAck(uint32_t destQp, uint32_t psn, bool nak, uint32_t msn, bool becn)
{
    RdmaTransportHeaders h;
    h.bth.SetOpcode(IbBthHeader::RC_ACKNOWLEDGE);
    h.bth.SetDestQp(destQp);
    h.bth.SetPsn(psn);
    h.bth.SetBecn(becn); // IBTA: BECN, as in annex A10
    h.hasAeth = true;
    if (nak)
    {
        h.aeth.SetNak(IbAethHeader::PSN_SEQUENCE_ERROR);
    }
    else
    {
        h.aeth.SetAck(0x1F);
    }
    h.aeth.SetMsn(msn & 0xFFFFFF);
    return h;
}

RdmaTransportHeaders
RdmaTransportHeaders::ForSelectiveNak(uint32_t destQp,
                                      uint32_t expected,
                                      uint32_t sacked,
                                      uint32_t msn,
                                      bool becn,
                                      bool trimmed)
{
    RdmaTransportHeaders h = ForAck(destQp, expected, true, msn, becn);
    h.aeth.SetNak(trimmed ? IbAethHeader::TRIMMED_NAK : IbAethHeader::IRN_SELECTIVE_NAK);
    h.hasSack = true;
    h.sackPsn = sacked & 0xFFFFFF;
    return h;
}

uint32_t
RdmaTransportHeaders::GetSerializedSize() const
{
    return IbBthHeader::SIZE + (hasReth ? IbRethHeader::SIZE : 0) +
           (hasAeth ? IbAethHeader::SIZE : 0) + (hasSack ? IrnSackHeader::SIZE : 0);
}

void
RdmaTransportHeaders::AddTo(Ptr<Packet> packet) const
{
    if (hasSack)
    {
        IrnSackHeader sack;
        sack.SetPsn(sackPsn);
        packet->AddHeader(sack);
    }
    if (hasAeth)
    {
        packet->AddHeader(IbAethHeader(aeth));
    }
    if (hasReth)
    {
        packet->AddHeader(IbRethHeader(reth));
    }
    packet->AddHeader(IbBthHeader(bth));
}

void
RdmaTransportHeaders::WriteTo(RdmaPackedHeader& packed) const
{
    if (hasSack)
    {
        IrnSackHeader sack;
        sack.SetPsn(sackPsn);
        sack.Write(packed.Prepend(IrnSackHeader::SIZE));
    }
    if (hasAeth)
    {
        aeth.Write(packed.Prepend(IbAethHeader::SIZE));
    }
    if (hasReth)
    {
        reth.Write(packed.Prepend(IbRethHeader::SIZE));
    }
    bth.Write(packed.Prepend(IbBthHeader::SIZE));
}

uint32_t
RdmaTransportHeaders::ReadFrom(const uint8_t* b, uint32_t n)
{
    if (n < IbBthHeader::SIZE)
    {
        return 0;
    }
    bth.Read(b);
    const uint8_t opcode = bth.GetOpcode();
    hasReth = IbBthHeader::HasReth(opcode);
    hasAeth = IbBthHeader::HasAeth(opcode);
    hasSack = false;
    if (n < GetSerializedSize())
    {
        return 0;
    }
    uint32_t at = IbBthHeader::SIZE;
    if (hasReth)
    {
        reth.Read(b + at);
        at += IbRethHeader::SIZE;
    }
    if (hasAeth)
    {
        aeth.Read(b + at);
        at += IbAethHeader::SIZE;
        hasSack = aeth.IsNak() && (aeth.GetNakCode() == IbAethHeader::IRN_SELECTIVE_NAK ||
                                   aeth.GetNakCode() == IbAethHeader::TRIMMED_NAK);
    }
    if (hasSack)
    {
        if (n < at + IrnSackHeader::SIZE)
        {
            return 0;
        }
        IrnSackHeader sack;
        sack.Read(b + at);
        sackPsn = sack.GetPsn();
    }
    return GetSerializedSize();
}

RdmaDelivery
DeliverRdmaPacket(Ptr<RdmaQueuePair> qp,
                  const RdmaTransportHeaders& headers,
                  uint32_t payload,
                  bool ce,
                  const RdmaIntTag* intStack)
{
    RdmaDelivery out;
    const IbBth& bth = headers.bth;
    const uint8_t opcode = bth.GetOpcode();
    if (opcode == IbBthHeader::RC_ACKNOWLEDGE)
    {
        if (headers.hasSack && headers.aeth.GetNakCode() == IbAethHeader::TRIMMED_NAK)
        {
            qp->ReceiveTrimNak(bth.GetPsn(), headers.sackPsn, bth.GetBecn());
        }
        else if (headers.hasSack)
        {
            qp->ReceiveSelectiveNak(bth.GetPsn(), headers.sackPsn, bth.GetBecn());
        }
        else
        {
            qp->ReceiveAck(bth.GetPsn(), headers.aeth.IsNak(), bth.GetBecn(), intStack);
        }
        out.activate = true;
        return out;
    }
    if (IbBthHeader::IsReadResponse(opcode))
    {
        qp->ReceiveReadResponse(bth.GetPsn(), payload);
        out.activate = true;
        return out;
    }
    out.verdict = qp->ReceiveRequest(opcode,
                                     bth.GetPsn(),
                                     payload,
                                     bth.GetAckRequest(),
                                     headers.hasReth ? headers.reth.GetDmaLength() : 0,
                                     ce);
    out.activate = opcode == IbBthHeader::RC_READ_REQUEST; // READ responses to send
    return out;
}

} // namespace ns3
