/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_CONGESTION_CONTROL_H
#define RDMA_CONGESTION_CONTROL_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

namespace ns3
{

class RdmaQueuePair;
class RdmaIntTag;

/**
 * @ingroup interconnect
 * What an acknowledgement tells the sender's congestion control.
 */
struct RdmaAckInfo
{
    uint32_t ackedBytes;        //!< payload bytes newly acknowledged
    uint32_t ackPsn;            //!< every PSN before this one is now acknowledged (sndUna)
    Time rtt;                   //!< round trip of the newest acknowledged packet (0: no sample)
    bool ecnEcho;               //!< the acknowledged data arrived CE-marked (BECN in the ACK)
    const RdmaIntTag* intStack; //!< path telemetry of the acknowledged packet, or nullptr
};

/**
 * @ingroup interconnect
 * @brief The congestion-control strategy of one RDMA queue pair (the sender side).
 *
 * Like ns-3's TcpCongestionOps: one object per queue pair, created by the NIC from the TypeId
 * name in its CongestionControl attribute. The queue pair calls the hooks; the algorithm
 * answers by setting the queue pair's sending rate (RdmaQueuePair::SetRate) and, if it limits
 * bytes in flight, its window (RdmaQueuePair::SetWindow). The base class is the "none"
 * algorithm: line rate, no window, every hook a no-op.
 *
 * To write an algorithm, subclass, override the hooks you need, and select it by name:
 * `nic->SetAttribute("CongestionControl", StringValue("ns3::MyCc"))`.
 */
class RdmaCongestionControl : public Object
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /// @return the algorithm's name, for logs and output
    virtual std::string GetName() const;

    /**
     * The TypeId name of an algorithm given by its short name (none, dcqcn, hpcc, timely,
     * dctcp, ib-cc) or by a TypeId name of this class or a subclass. Anything else is a
     * configuration error naming `option`.
     * @param option the option or attribute being set, for the message
     * @param name the short or TypeId name
     * @return the TypeId name
     */
    static std::string ResolveName(const std::string& option, const std::string& name);

    /**
     * The queue pair starts; set the initial rate and window.
     * @param qp the queue pair (its line rate is set)
     */
    virtual void OnStart(Ptr<RdmaQueuePair> qp);

    /**
     * A packet is about to be sent.
     * @param qp the queue pair
     * @param bytes the frame's bytes on the wire
     */
    virtual void OnSend(Ptr<RdmaQueuePair> qp, uint32_t bytes);

    /**
     * An ACK (or a READ response, which acknowledges implicitly) acknowledged new data.
     * @param qp the queue pair
     * @param ack what it says
     */
    virtual void OnAck(Ptr<RdmaQueuePair> qp, const RdmaAckInfo& ack);

    /// @return true if the algorithm needs in-band telemetry (INT) on its data packets
    virtual bool NeedsInt() const;

    /**
     * A congestion notification packet (CNP) arrived for this queue pair.
     * @param qp the queue pair
     */
    virtual void OnCnp(Ptr<RdmaQueuePair> qp);

    /**
     * Loss was detected.
     * @param qp the queue pair
     * @param timeout true for a retransmission timeout, false for a NAK
     */
    virtual void OnLoss(Ptr<RdmaQueuePair> qp, bool timeout);

    /**
     * The queue pair has no more data to send for now; stop timers that would keep events alive.
     * @param qp the queue pair
     */
    virtual void OnIdle(Ptr<RdmaQueuePair> qp);
};

} // namespace ns3

#endif // RDMA_CONGESTION_CONTROL_H
