/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef HPCC_CONGESTION_CONTROL_H
#define HPCC_CONGESTION_CONTROL_H

#include "rdma-congestion-control.h"
#include "rdma-int-tag.h"

#include "ns3/traced-value.h"

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief HPCC: High Precision Congestion Control (Li et al., SIGCOMM 2019, Algorithm 1).
 *
 * Each ACK echoes the in-band telemetry of the path (RdmaIntTag: per hop the egress's bytes
 * sent, queue length, timestamp and line rate). From two consecutive stacks the sender
 * estimates each link's normalized inflight bytes
 *   u_i = min(qlen_i, qlen_i') / (B_i T) + txRate_i / B_i
 * keeps the largest, smooths it over the base RTT T (EWMA with weight tau/T, tau the time
 * between the two samples of that link), and sets the window
 *   W = Wc / (U / eta) + W_AI   if U >= eta or the additive stage count reached MaxStage,
 *   W = Wc + W_AI               otherwise,
 * updating the reference window Wc once per RTT (when the ACK passes the PSN that was next to
 * send at the last update). The sending rate is W / T. W never exceeds the line rate x T.
 *
 * MaxStage: the paper uses 5; the HPCC authors' own simulation scripts default to
 * MI_THRESH = 0 (simulation/run.py of their artifact), i.e. every update is multiplicative.
 * Both are one attribute away. T is BaseRtt, or when that is 0 the smallest RTT measured so
 * far; until the first RTT sample the queue pair sends at line rate.
 */
class HpccCongestionControl : public RdmaCongestionControl
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    HpccCongestionControl();

    std::string GetName() const override;
    bool NeedsInt() const override;
    void OnStart(Ptr<RdmaQueuePair> qp) override;
    void OnAck(Ptr<RdmaQueuePair> qp, const RdmaAckInfo& ack) override;

    /// @return the smoothed normalized utilization U
    double GetUtilization() const;
    /// @return the current window W, bytes (0 before the first RTT sample)
    uint64_t GetWindow() const;

  private:
    /// Normalized inflight of the most loaded link between the last two INT samples.
    double MeasureInflight(const RdmaIntTag& stack);
    /// The window for utilization U; updateWc once per RTT.
    double ComputeWindow(double u, bool updateWc);

    // attributes
    double m_eta;        //!< target utilization
    uint32_t m_maxStage; //!< additive stages before a multiplicative update
    DataRate m_rateAi;   //!< W_AI = RateAi x T
    Time m_baseRtt;      //!< T (0: measured)

    // state
    double m_lineRate;        //!< bit/s
    double m_t;               //!< T in seconds (0 until known)
    TracedValue<double> m_u;  //!< smoothed U
    double m_w;               //!< window, bytes
    double m_wc;              //!< reference window, bytes
    double m_wMax;            //!< line rate x T, bytes
    uint32_t m_incStage;      //!< additive stages since the last multiplicative update
    uint32_t m_lastUpdatePsn; //!< per-RTT update marker
    bool m_haveLast;          //!< m_last holds a previous INT stack
    RdmaIntTag m_last;        //!< previous INT stack
};

} // namespace ns3

#endif // HPCC_CONGESTION_CONTROL_H
