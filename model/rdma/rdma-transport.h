/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_TRANSPORT_H
#define RDMA_TRANSPORT_H

#include "ib-bth-header.h"
#include "rdma-int-tag.h"
#include "rdma-queue-pair.h"

#include "ns3/packet.h"

namespace ns3
{

/**
 * @ingroup interconnect
 * Put the transport headers of a queue pair's packet on its payload: the AETH of a READ
 * response or the RETH of a first request, then the BTH. RoCEv2 (RdmaNic) and native
 * InfiniBand (IbHostAdapter) share them; only what goes around them differs.
 * @param packet the payload (and ICRC)
 * @param d what the queue pair sends
 * @param destQp the peer's QPN (also the RETH's R_Key)
 */
void AddRdmaTransportHeaders(Ptr<Packet> packet, const RdmaTxDescriptor& d, uint32_t destQp);

/**
 * @ingroup interconnect
 * Put the headers of an ACK or a NAK (PSN sequence error) on a packet: AETH, then BTH.
 * @param packet the packet (its ICRC)
 * @param destQp the requester's QPN
 * @param psn the PSN acknowledged, or the expected PSN of a NAK
 * @param nak a NAK
 * @param msn the responder's MSN
 * @param becn mark BECN (the acknowledged data arrived CE-marked)
 */
void AddRdmaAckHeaders(Ptr<Packet> packet,
                       uint32_t destQp,
                       uint32_t psn,
                       bool nak,
                       uint32_t msn,
                       bool becn);

/**
 * @ingroup interconnect
 * What a transport packet did to its queue pair.
 */
struct RdmaDelivery
{
    RdmaRxVerdict verdict{}; //!< a request's verdict: the ACK or NAK to send, if any
    bool activate{false};    //!< the queue pair may have something new to send
};

/**
 * @ingroup interconnect
 * Hand a transport packet, its BTH removed, to its queue pair: an ACK or NAK, a READ response,
 * or a request (WRITE, SEND, READ request).
 * @param qp the queue pair the BTH names
 * @param bth the packet's BTH
 * @param packet what follows the BTH (AETH or RETH, payload, a 4-byte ICRC)
 * @param ce the packet arrived CE-marked
 * @param intStack the packet's INT records, if any
 * @return what happened
 */
RdmaDelivery DeliverRdmaPacket(Ptr<RdmaQueuePair> qp,
                               const IbBthHeader& bth,
                               Ptr<Packet> packet,
                               bool ce,
                               const RdmaIntTag* intStack);

} // namespace ns3

#endif // RDMA_TRANSPORT_H
