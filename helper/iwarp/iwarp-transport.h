/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IWARP_TRANSPORT_H
#define IWARP_TRANSPORT_H

#include "ns3/ethernet-transport.h"
#include "ns3/iwarp-helper.h"

#include <map>
#include <tuple>
#include <vector>

namespace ns3
{

class RoceHelper;

/**
 * @ingroup interconnect
 * @brief Messages as iWARP connections (IwarpSocket: RDMAP/DDP/MPA over ns-3 TCP) between the
 * hosts of an Ethernet network a RoceHelper built with the Internet stack: the iWARP
 * MessageTransport, on the same ports and switches as RoCEv2 (RoceTransport).
 *
 * Post() opens connections as the QueuePairMapping says (a connection per message unless
 * SetQueuePairMapping chose otherwise; its packets carry DSCP 8 x priority, which the ports
 * map back to the priority) and records every message for the flows CSV, with its ideal FCT.
 * Set the socket and TCP attributes and the TCP congestion control before the first Post. The
 * network must be finalized with the Internet stack (RoceHelper::SetInternetStack) and outlive
 * the transport.
 */
class IwarpTransport : public EthernetTransport
{
  public:
    /// @param network the built network, its hosts with the Internet stack
    explicit IwarpTransport(const RoceHelper& network);

    /// @param name IwarpSocket attribute for every connection @param value value
    void SetIwarpAttribute(const std::string& name, const AttributeValue& value);
    /// @param name TcpSocket attribute for every connection @param value value
    void SetTcpAttribute(const std::string& name, const AttributeValue& value);
    /// @param typeName the hosts' TCP congestion control (a TcpCongestionOps TypeId name)
    void SetTcpCongestionControl(const std::string& typeName);
    /// @return the connections' helper (listeners, per-connection counters)
    const IwarpHelper& GetIwarpHelper() const;

    uint64_t Post(
        uint32_t src,
        uint32_t dst,
        RdmaVerb verb,
        uint64_t bytes,
        Time at,
        uint8_t priority,
        RdmaQueuePair::CompletionCallback done = RdmaQueuePair::CompletionCallback()) override;

    /**
     * The host pair's own iWARP connection from src to dst on a priority (created on first use;
     * Post uses it under QueuePairMapping::PerHostPair).
     * @param src source host index
     * @param dst destination host index
     * @param priority the priority
     * @return the initiator's end, on src
     */
    Ptr<IwarpSocket> GetIwarpSocket(uint32_t src, uint32_t dst, uint8_t priority);

    /**
     * FCT of a message alone on the idle network: one FPDU per TCP segment (markers off),
     * store-and-forward along the first shortest path, and the last TCP ACK back.
     * @param src source host index
     * @param dst destination host index
     * @param verb the verb
     * @param bytes message size
     * @return the ideal FCT
     */
    Time IdealFct(uint32_t src, uint32_t dst, RdmaVerb verb, uint64_t bytes) const override;

    /**
     * Bytes a message occupies on its first link: one FPDU a segment, with MPA, DDP, TCP, IPv4
     * and Ethernet around the data.
     * @param verb the verb
     * @param bytes message size
     * @return wire bytes
     */
    uint64_t WireBytes(RdmaVerb verb, uint64_t bytes) const override;
    /// @return the counters of the network's switches and ports, and of the connections
    TransportStatistics CollectStatistics() const override;

  protected:
    void DoTraceCongestionState() override;

  private:
    /// The connection of (src, dst, priority) in a slot and its number (NEW_CONNECTION: a new
    /// one, unkept).
    std::pair<Ptr<IwarpSocket>, uint32_t> Connection(uint32_t src,
                                                     uint32_t dst,
                                                     uint8_t priority,
                                                     uint32_t slot);
    /// Report the congestion window of a connection.
    void TraceWindow(uint32_t connection);

    IwarpHelper m_iwarp;                     //!< connections and listeners
    std::vector<Ptr<IwarpSocket>> m_sockets; //!< initiators, in order of creation
    std::vector<uint32_t> m_sources;         //!< each initiator's host
    ConnectionTable<std::pair<Ptr<IwarpSocket>, uint32_t>>
        m_by; //!< connections and their numbers by host pair, priority and slot
};

} // namespace ns3

#endif // IWARP_TRANSPORT_H
