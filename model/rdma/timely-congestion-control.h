/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TIMELY_CONGESTION_CONTROL_H
#define TIMELY_CONGESTION_CONTROL_H

#include "rdma-congestion-control.h"

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief TIMELY: RTT-gradient rate control (Mittal et al., SIGCOMM 2015, Algorithm 1).
 *
 * On every ACK (or once per SegmentBytes of acknowledged data: TIMELY itself reacts to
 * completion events of 16-64 KB segments), with the newest RTT sample:
 *   rtt_diff := (1 - Alpha) rtt_diff + Alpha (rtt - prev_rtt);  gradient := rtt_diff / MinRtt
 *   rtt < TLow:           rate := rate + Delta
 *   rtt > THigh:          rate := rate (1 - Beta (1 - THigh / rtt))
 *   gradient <= 0:        rate := rate + N Delta, N = 5 after HaiThreshold such events in a row
 *                         (hyperactive increase), else 1
 *   otherwise:            rate := rate (1 - Beta min(gradient, 1))
 * The rate stays within [MinRate, line rate]. Known limit: TIMELY has no unique fixed point,
 * so flows can settle at unequal rates (Zhu et al., "ECN or Delay", CoNEXT 2016).
 */
class TimelyCongestionControl : public RdmaCongestionControl
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    TimelyCongestionControl();

    std::string GetName() const override;
    void OnStart(Ptr<RdmaQueuePair> qp) override;
    void OnAck(Ptr<RdmaQueuePair> qp, const RdmaAckInfo& ack) override;

  private:
    // attributes
    double m_alpha;          //!< EWMA weight of the RTT difference
    double m_beta;           //!< multiplicative decrease factor
    DataRate m_delta;        //!< additive step
    Time m_tLow;             //!< below: additive increase
    Time m_tHigh;            //!< above: decrease
    Time m_minRtt;           //!< gradient normalization
    uint32_t m_haiThreshold; //!< negative gradients in a row before hyperactive increase
    uint32_t m_segmentBytes; //!< acknowledged bytes per update
    DataRate m_minRate;      //!< rate floor

    // state
    double m_rate;         //!< bit/s
    double m_lineRate;     //!< bit/s
    double m_prevRtt;      //!< seconds (0: none yet)
    double m_rttDiff;      //!< seconds
    uint32_t m_negatives;  //!< consecutive non-positive gradients
    uint64_t m_ackedSince; //!< bytes acknowledged since the last update
};

} // namespace ns3

#endif // TIMELY_CONGESTION_CONTROL_H
