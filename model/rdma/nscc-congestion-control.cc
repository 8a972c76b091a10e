/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "nscc-congestion-control.h"

#include "rdma-queue-pair.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NsccCongestionControl");

NS_OBJECT_ENSURE_REGISTERED(NsccCongestionControl);

TypeId
NsccCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NsccCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("Interconnect")
            .AddConstructor<NsccCongestionControl>()
            .AddAttribute("BaseRtt",
                          "The round trip of an empty path (UEC's config_base_rtt); 0: the "
                          "smallest round trip measured so far.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&NsccCongestionControl::m_configuredBaseRtt),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("TargetRatio",
                          "The target delay as a multiple of the base round trip (> 1): a round "
                          "trip above it means a queue.",
                          DoubleValue(1.5),
                          MakeDoubleAccessor(&NsccCongestionControl::m_targetRatio),
                          MakeDoubleChecker<double>(1.0 + 1e-9, 100))
            .AddAttribute("MaxWindow",
                          "The largest window, in bandwidth-delay products (line rate x base "
                          "round trip); also the window it starts with.",
                          DoubleValue(1.5),
                          MakeDoubleAccessor(&NsccCongestionControl::m_maxWindowBdp),
                          MakeDoubleChecker<double>(0.01, 1000))
            .AddAttribute("Alpha",
                          "Gain of the proportional increase (no mark, round trip below the "
                          "target).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&NsccCongestionControl::m_alpha),
                          MakeDoubleChecker<double>(0, 100))
            .AddAttribute("FairIncrease",
                          "The fair increase (no mark, round trip above the target), in MTUs "
                          "per round trip.",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&NsccCongestionControl::m_fairIncrease),
                          MakeDoubleChecker<double>(0, 1000))
            .AddAttribute("Beta",
                          "Gain of the multiplicative decrease (a mark, round trip above the "
                          "target).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&NsccCongestionControl::m_beta),
                          MakeDoubleChecker<double>(0, 100))
            .AddAttribute("MaxDecrease",
                          "The largest fraction of the window one decrease takes (0..1).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&NsccCongestionControl::m_maxDecrease),
                          MakeDoubleChecker<double>(0, 1))
            .AddTraceSource("Cwnd",
                            "The window, bytes (0: unlimited, before the first round trip)",
                            MakeTraceSourceAccessor(&NsccCongestionControl::m_cwnd),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

NsccCongestionControl::NsccCongestionControl()
    : m_targetRatio(1.5),
      m_maxWindowBdp(1.5),
      m_alpha(1.0),
      m_fairIncrease(1.0),
      m_beta(1.0),
      m_maxDecrease(0.5),
      m_mtu(1024),
      m_decreased(false),
      m_achieved(0),
      m_achievedLast(0),
      m_cwnd(0)
{
}

std::string
NsccCongestionControl::GetName() const
{
    return "nscc";
}

double
NsccCongestionControl::GetWindow() const
{
    return m_cwnd;
}

Time
NsccCongestionControl::GetBaseRtt() const
{
    return m_baseRtt;
}

double
NsccCongestionControl::MaxWindow(Ptr<RdmaQueuePair> qp) const
{
    const double bdp = qp->GetLineRate().GetBitRate() * m_baseRtt.GetSeconds() / 8;
    return std::max(m_mtu, m_maxWindowBdp * bdp);
}

void
NsccCongestionControl::Apply(Ptr<RdmaQueuePair> qp)
{
    m_cwnd = std::clamp<double>(m_cwnd, m_mtu, MaxWindow(qp));
    qp->SetWindow(static_cast<uint64_t>(m_cwnd));
}

void
NsccCongestionControl::OnStart(Ptr<RdmaQueuePair> qp)
{
    m_mtu = qp->GetMtu();
    qp->SetRate(qp->GetLineRate());
    m_baseRtt = m_configuredBaseRtt;
    if (m_baseRtt.IsStrictlyPositive())
    {
        m_cwnd = MaxWindow(qp);
        m_achievedStart = Simulator::Now();
        Apply(qp);
    }
    else
    {
        qp->SetWindow(0);
    }
}

void
NsccCongestionControl::OnAck(Ptr<RdmaQueuePair> qp, const RdmaAckInfo& ack)
{
    const Time now = Simulator::Now();
    if (ack.rtt.IsStrictlyPositive() && m_configuredBaseRtt.IsZero() &&
        (m_baseRtt.IsZero() || ack.rtt < m_baseRtt))
    {
        const bool first = m_baseRtt.IsZero();
        m_baseRtt = ack.rtt;
        if (first)
        {
            m_cwnd = MaxWindow(qp); // the start: line rate for a round trip
            m_achievedStart = now;
        }
    }
    if (m_baseRtt.IsZero())
    {
        return; // no round trip yet: the window stays open
    }
    // What was acknowledged per base round trip, for quick adapt.
    m_achieved += ack.ackedBytes;
    if (now - m_achievedStart >= m_baseRtt)
    {
        m_achievedLast = m_achieved;
        m_achieved = 0;
        m_achievedStart = now;
    }
    if (ack.rtt.IsStrictlyPositive())
    {
        const double rtt = ack.rtt.GetSeconds();
        const double target = m_baseRtt.GetSeconds() * m_targetRatio;
        const double acked = ack.ackedBytes;
        if (!ack.ecnEcho && rtt < target)
        {
            m_cwnd = m_cwnd + m_alpha * acked * (target - rtt) / target;
        }
        else if (!ack.ecnEcho)
        {
            m_cwnd = m_cwnd + m_fairIncrease * m_mtu * acked / std::max<double>(m_cwnd, m_mtu);
        }
        else if (rtt >= target)
        {
            // Spread over the round trip's acknowledgements: a window's worth of marked ones
            // takes the fraction off once, and a small window is not cut harder per round trip
            // than a large one (the fairness a once-per-round-trip cut lacks).
            const double cut = std::min(m_maxDecrease, m_beta * (rtt - target) / rtt);
            m_cwnd = m_cwnd - cut * acked;
        }
    }
    Apply(qp);
}

void
NsccCongestionControl::OnLoss(Ptr<RdmaQueuePair> qp, bool timeout)
{
    if (m_baseRtt.IsZero())
    {
        return;
    }
    const Time now = Simulator::Now();
    if (timeout)
    {
        m_cwnd = m_cwnd / 2;
    }
    else if ((!m_decreased || now - m_lastDecrease >= m_baseRtt) &&
             std::max(m_achievedLast, m_achieved) > 0)
    {
        // Quick adapt: no more than the paths delivered in the last base round trip (once one
        // was measured).
        m_cwnd = std::min<double>(m_cwnd, std::max<uint64_t>(m_achievedLast, m_achieved));
    }
    else
    {
        return;
    }
    m_decreased = true;
    m_lastDecrease = now;
    Apply(qp);
}

} // namespace ns3
