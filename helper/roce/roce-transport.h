/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_TRANSPORT_H
#define ROCE_TRANSPORT_H

#include "ns3/ethernet-transport.h"
#include "ns3/rdma-queue-pair.h"

#include <map>
#include <tuple>
#include <vector>

namespace ns3
{

class RoceHelper;

/**
 * @ingroup interconnect
 * @brief Messages as RoCEv2 queue pairs on the RdmaNics of a network a RoceHelper built: the
 * RoCEv2 MessageTransport, as IbRcTransport is InfiniBand's and IwarpTransport iWARP's.
 *
 * Post() connects queue pairs as the QueuePairMapping says (a pair of its own per message
 * unless SetQueuePairMapping chose otherwise) and records every message for the flows CSV, with
 * its ideal FCT on the idle network. The network must be finalized and outlive the transport.
 */
class RoceTransport : public EthernetTransport
{
  public:
    /// @param network the built network (RoceHelper::Finalize or Build done)
    explicit RoceTransport(const RoceHelper& network);

    uint64_t Post(
        uint32_t src,
        uint32_t dst,
        RdmaVerb verb,
        uint64_t bytes,
        Time at,
        uint8_t priority,
        RdmaQueuePair::CompletionCallback done = RdmaQueuePair::CompletionCallback()) override;

    /**
     * The host pair's own connected queue pair from src to dst on a priority (created on first
     * use; Post uses it under QueuePairMapping::PerHostPair, and as the pool's first).
     * @param src source host index
     * @param dst destination host index
     * @param priority the priority
     * @return the queue pair on src; nullptr in a distributed run when neither host is on this
     *         rank (their QPNs are only reserved here: RdmaNic::ReserveQueuePair)
     */
    Ptr<RdmaQueuePair> GetQueuePair(uint32_t src, uint32_t dst, uint8_t priority);

    /**
     * The queue pair a posted message travels on.
     * @param flow the flow id Post returned
     * @param responder false: the requester's end (on the source); true: the responder's
     * @return that queue pair; nullptr in a distributed run where that end is on another rank
     */
    Ptr<RdmaQueuePair> GetFlowQueuePair(uint64_t flow, bool responder = false) const;

    /**
     * FCT of a message alone on the idle network: store-and-forward of every frame along the
     * first shortest path at each link's rate with all per-frame overheads, propagation,
     * switch latency, and the final ACK (WRITE/SEND) back to the requester.
     * @param src source host index
     * @param dst destination host index
     * @param verb the verb
     * @param bytes message size
     * @return the ideal FCT
     */
    Time IdealFct(uint32_t src, uint32_t dst, RdmaVerb verb, uint64_t bytes) const override;

    /**
     * Bytes a message occupies on its first link: every frame with its headers, padding,
     * FCS, preamble and gap.
     * @param verb the verb (WRITE's first frame carries a RETH)
     * @param bytes message size
     * @return wire bytes
     */
    uint64_t WireBytes(RdmaVerb verb, uint64_t bytes) const override;
    /// @return the counters of the network's switches and ports, and of the NICs and queue pairs
    TransportStatistics CollectStatistics() const override;

  protected:
    void DoTraceCongestionState() override;

  private:
    /// The two ends of a connection and the QPN at its first end.
    struct QueuePairs
    {
        Ptr<RdmaQueuePair> first;  //!< the requester's end (nullptr: on another rank)
        Ptr<RdmaQueuePair> second; //!< the responder's end (nullptr: on another rank)
        uint32_t qpn{0};           //!< the requester end's QPN
    };

    /// The connection of (src, dst, priority) in a slot (NEW_CONNECTION: a new one, unkept).
    QueuePairs Connection(uint32_t src, uint32_t dst, uint8_t priority, uint32_t slot);

    ConnectionTable<QueuePairs> m_qps; //!< connections by host pair, priority and slot
    std::vector<std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>>
        m_flowQps; //!< each flow's two ends, by flow id
};

} // namespace ns3

#endif // ROCE_TRANSPORT_H
