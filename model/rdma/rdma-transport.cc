/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-transport.h"

#include "ib-aeth-header.h"
#include "ib-reth-header.h"

namespace ns3
{

namespace
{
/// Bytes of the invariant CRC at the end of every transport packet.
constexpr uint32_t ICRC = 4;
} // namespace

void
AddRdmaTransportHeaders(Ptr<Packet> packet, const RdmaTxDescriptor& d, uint32_t destQp)
{
    if (d.hasAeth)
    {
        IbAethHeader aeth;
        aeth.SetAck(0x1F); // 0x1F: no end-to-end credits advertised
        aeth.SetMsn(d.msn & 0xFFFFFF);
        packet->AddHeader(aeth);
    }
    if (d.hasReth)
    {
        IbRethHeader reth;
        reth.SetVirtualAddress(d.va);
        reth.SetRkey(destQp);
        reth.SetDmaLength(d.dmaLength);
        packet->AddHeader(reth);
    }
    IbBthHeader bth;
    bth.SetOpcode(d.opcode);
    bth.SetDestQp(destQp);
    bth.SetPsn(d.psn);
    bth.SetAckRequest(d.ackRequest);
    packet->AddHeader(bth);
}

void
AddRdmaAckHeaders(Ptr<Packet> packet,
                  uint32_t destQp,
                  uint32_t psn,
                  bool nak,
                  uint32_t msn,
                  bool becn)
{
    IbAethHeader aeth;
    if (nak)
    {
        aeth.SetNak(IbAethHeader::PSN_SEQUENCE_ERROR);
    }
    else
    {
        aeth.SetAck(0x1F);
    }
    aeth.SetMsn(msn & 0xFFFFFF);
    packet->AddHeader(aeth);
    IbBthHeader bth;
    bth.SetOpcode(IbBthHeader::RC_ACKNOWLEDGE);
    bth.SetDestQp(destQp);
    bth.SetPsn(psn);
    bth.SetBecn(becn); // IBTA: BECN, as in annex A10
    packet->AddHeader(bth);
}

RdmaDelivery
DeliverRdmaPacket(Ptr<RdmaQueuePair> qp,
                  const IbBthHeader& bth,
                  Ptr<Packet> packet,
                  bool ce,
                  const RdmaIntTag* intStack)
{
    RdmaDelivery out;
    const uint8_t opcode = bth.GetOpcode();
    if (opcode == IbBthHeader::RC_ACKNOWLEDGE)
    {
        IbAethHeader aeth;
        packet->RemoveHeader(aeth);
        qp->ReceiveAck(bth.GetPsn(), aeth.IsNak(), bth.GetBecn(), intStack);
        out.activate = true;
        return out;
    }
    if (IbBthHeader::IsReadResponse(opcode))
    {
        if (IbBthHeader::HasAeth(opcode))
        {
            IbAethHeader aeth;
            packet->RemoveHeader(aeth);
        }
        qp->ReceiveReadResponse(bth.GetPsn(), packet->GetSize() - ICRC);
        out.activate = true;
        return out;
    }
    uint32_t dmaLength = 0;
    if (IbBthHeader::HasReth(opcode))
    {
        IbRethHeader reth;
        packet->RemoveHeader(reth);
        dmaLength = reth.GetDmaLength();
    }
    out.verdict = qp->ReceiveRequest(opcode,
                                     bth.GetPsn(),
                                     packet->GetSize() - ICRC,
                                     bth.GetAckRequest(),
                                     dmaLength,
                                     ce);
    out.activate = opcode == IbBthHeader::RC_READ_REQUEST; // READ responses to send
    return out;
}

} // namespace ns3
