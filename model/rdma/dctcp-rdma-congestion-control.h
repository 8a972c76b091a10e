/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DCTCP_RDMA_CONGESTION_CONTROL_H
#define DCTCP_RDMA_CONGESTION_CONTROL_H

#include "rdma-congestion-control.h"

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief DCTCP's window control on an RDMA queue pair (Alizadeh et al., SIGCOMM 2010).
 *
 * The responder echoes CE marks in its ACKs (BECN). Once per window of data (when the
 * cumulative ACK passes the PSN that was next to send at the previous update) the sender
 * updates alpha := (1 - G) alpha + G F, F the fraction of acknowledged bytes that were marked,
 * and if anything was marked cuts the window once: W := W (1 - alpha / 2). Without marks the
 * window grows by one path MTU per window (additive increase). The window starts at the
 * bandwidth-delay product (line rate x the first RTT measured) and is at least one MTU; the
 * queue pair paces at line rate. Switches should mark with a step at K (EcnKmin = EcnKmax = K,
 * EcnPmax = 1), as DCTCP assumes.
 */
class DctcpRdmaCongestionControl : public RdmaCongestionControl
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    DctcpRdmaCongestionControl();

    std::string GetName() const override;
    void OnStart(Ptr<RdmaQueuePair> qp) override;
    void OnAck(Ptr<RdmaQueuePair> qp, const RdmaAckInfo& ack) override;

    /// @return alpha
    double GetAlpha() const;

  private:
    double m_g;           //!< alpha gain
    double m_alpha;       //!< marked fraction estimate
    double m_window;      //!< bytes (0 until the first RTT)
    double m_mtu;         //!< additive step, bytes
    uint64_t m_acked;     //!< bytes acknowledged this window
    uint64_t m_marked;    //!< of which marked
    uint32_t m_windowEnd; //!< PSN that ends the current window
    bool m_started;       //!< the window is known
};

} // namespace ns3

#endif // DCTCP_RDMA_CONGESTION_CONTROL_H
