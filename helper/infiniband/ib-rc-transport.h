/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_RC_TRANSPORT_H
#define IB_RC_TRANSPORT_H

#include "ns3/ib-subnet-helper.h"
#include "ns3/message-transport.h"

#include <map>
#include <tuple>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief Messages between the hosts of an InfiniBand subnet over reliable connections: the
 * MessageTransport of IB, so that workloads, collectives and the scenario runner run on it as
 * on RoCEv2.
 *
 * Post() connects pairs of RdmaQueuePairs through the hosts' IbHostAdapters as the
 * QueuePairMapping says (a pair of its own per message unless set otherwise) and records every
 * message with its ideal FCT: its packets (LRH, BTH, RETH or AETH, payload, ICRC, VCRC) stored and
 * forwarded along the subnet's path, with each switch's forwarding latency, and the ACK back.
 */
class IbRcTransport : public MessageTransport
{
  public:
    /// @param subnet a built subnet (kept: its nodes, adapters and switches)
    explicit IbRcTransport(const IbSubnet& subnet);

    /**
     * @param name an RdmaQueuePair attribute for every queue pair from now on
     * @param value its value
     */
    void SetQueuePairAttribute(const std::string& name, const AttributeValue& value);
    /// @param sl the service level workloads post on by default (0..15)
    void SetDefaultServiceLevel(uint8_t sl);

    uint64_t Post(
        uint32_t src,
        uint32_t dst,
        RdmaVerb verb,
        uint64_t bytes,
        Time at,
        uint8_t sl,
        RdmaQueuePair::CompletionCallback done = RdmaQueuePair::CompletionCallback()) override;
    uint8_t GetDefaultPriority() const override;
    uint64_t WireBytes(RdmaVerb verb, uint64_t bytes) const override;
    DataRate GetHostRate(uint32_t host) const override;
    DataRate GetHostSendRate(uint32_t host) const override;
    TransportStatistics CollectStatistics() const override;
    bool IsLocalHost(uint32_t host) const override;

    /**
     * @param src source host
     * @param dst destination host
     * @param sl service level
     * @return the queue pair on src of the host pair's own connection (created on first use;
     *         Post uses it under QueuePairMapping::PerHostPair, and as the pool's first)
     */
    Ptr<RdmaQueuePair> GetQueuePair(uint32_t src, uint32_t dst, uint8_t sl);

    /**
     * The queue pair a posted message travels on.
     * @param flow the flow id Post returned
     * @param responder false: the requester's end (on the source); true: the responder's
     * @return that queue pair
     */
    Ptr<RdmaQueuePair> GetFlowQueuePair(uint64_t flow, bool responder = false) const;

    /**
     * The FCT of a message alone on the idle subnet.
     * @param src source host
     * @param dst destination host
     * @param verb the verb
     * @param bytes its size
     * @return the time from post to completion
     */
    Time IdealFct(uint32_t src, uint32_t dst, RdmaVerb verb, uint64_t bytes) const override;

    /// @return the subnet
    const IbSubnet& GetSubnet() const;

  protected:
    void DoTraceCongestionState() override;

  private:
    /// The hops from host src to host dst along the subnet's routes.
    std::vector<PathHop> Hops(uint32_t src, uint32_t dst) const;
    /// Payload bytes per packet.
    uint32_t Mtu() const;

    IbSubnet m_subnet; //!< the subnet
    /// The connection of (src, dst, sl) in a slot (NEW_CONNECTION: a new one, unkept).
    std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> Connection(uint32_t src,
                                                                 uint32_t dst,
                                                                 uint8_t sl,
                                                                 uint32_t slot);

    ConnectionTable<std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>>
        m_qps; //!< connections by host pair, SL and slot
    std::vector<std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>>
        m_flowQps;                            //!< each flow's two ends, by flow id
    std::vector<Ptr<RdmaQueuePair>> m_allQps; //!< every queue pair, both ends
    uint8_t m_sl;                             //!< default SL
};

} // namespace ns3

#endif // IB_RC_TRANSPORT_H
