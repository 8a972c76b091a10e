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
     * An ACK acknowledged new data.
     * @param qp the queue pair
     * @param ackedBytes payload bytes newly acknowledged
     * @param rtt round trip sample of the acknowledged packet (zero if not measured)
     */
    virtual void OnAck(Ptr<RdmaQueuePair> qp, uint32_t ackedBytes, Time rtt);

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
