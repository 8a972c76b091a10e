/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef NSCC_CONGESTION_CONTROL_H
#define NSCC_CONGESTION_CONTROL_H

#include "rdma-congestion-control.h"

#include "ns3/traced-value.h"

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief A window congestion control for sprayed traffic in the manner of the Ultra Ethernet
 * transport's NSCC (network-signal-based congestion control, UEC specification 1.0, 2025; the
 * same two-signal design as Bonato et al.'s SMaRTT/FASTFLOW).
 *
 * Every acknowledgement, cumulative or selective, brings two signals about the path its packet
 * took: its round trip (queueing delay, which is spread over the paths a sprayed queue pair
 * uses) and its ECN echo (a mark at a switch queue above its threshold, which is immediate).
 * Taken together they tell four cases apart (rtt against the target delay, BaseRtt x
 * TargetRatio):
 * - no mark, rtt below the target: the paths have room; proportional increase,
 *   W += Alpha x acked x (target - rtt) / target;
 * - no mark, rtt above the target: a queue that is draining; fair increase,
 *   W += FairIncrease x MTU x acked / W (FairIncrease packets per round trip);
 * - a mark, rtt below the target: a queue only starting to build; no change;
 * - a mark, rtt above the target: congestion; multiplicative decrease spread over the
 *   acknowledgements, W -= acked x min(Beta x (rtt - target) / rtt, MaxDecrease), so that a
 *   round trip of marked acknowledgements takes that fraction of the window once, whatever
 *   the window's size.
 * A trimmed or lost packet brings the window down to what was acknowledged in the last base
 * round trip (NSCC's quick adapt), at most once per BaseRtt; a timeout halves it. The window
 * lies between one MTU and MaxWindow x the bandwidth-delay product (line rate x BaseRtt); it
 * starts there, at line rate, once the first round trip is known (before it, unlimited). The
 * queue pair paces at line rate. The constants are this model's defaults, not the
 * specification's tables, and are attributes.
 */
class NsccCongestionControl : public RdmaCongestionControl
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    NsccCongestionControl();

    std::string GetName() const override;
    void OnStart(Ptr<RdmaQueuePair> qp) override;
    void OnAck(Ptr<RdmaQueuePair> qp, const RdmaAckInfo& ack) override;
    void OnLoss(Ptr<RdmaQueuePair> qp, bool timeout) override;

    /// @return the window in bytes (0 before the first round trip: unlimited)
    double GetWindow() const;
    /// @return the base round trip in use (0: none yet)
    Time GetBaseRtt() const;

  private:
    /// @return the largest window, bytes @param qp the queue pair
    double MaxWindow(Ptr<RdmaQueuePair> qp) const;
    /// Clamp the window and give it to the queue pair. @param qp the queue pair
    void Apply(Ptr<RdmaQueuePair> qp);

    Time m_configuredBaseRtt; //!< BaseRtt attribute (0: the smallest round trip seen)
    double m_targetRatio;     //!< the target delay as a multiple of the base round trip
    double m_maxWindowBdp;    //!< the largest window, in bandwidth-delay products
    double m_alpha;           //!< proportional increase gain
    double m_fairIncrease;    //!< fair increase, MTUs per round trip
    double m_beta;            //!< multiplicative decrease gain
    double m_maxDecrease;     //!< the largest fraction one decrease takes

    Time m_baseRtt;             //!< the base round trip in use
    double m_mtu;               //!< bytes
    Time m_lastDecrease;        //!< when the window last came down
    bool m_decreased;           //!< it has come down before
    uint64_t m_achieved;        //!< bytes acknowledged since m_achievedStart
    Time m_achievedStart;       //!< start of the current base round trip's count
    uint64_t m_achievedLast;    //!< bytes acknowledged in the previous base round trip
    TracedValue<double> m_cwnd; //!< the window, bytes (0: unlimited)
};

} // namespace ns3

#endif // NSCC_CONGESTION_CONTROL_H
