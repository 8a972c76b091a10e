/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "timely-congestion-control.h"

#include "rdma-queue-pair.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TimelyCongestionControl");

NS_OBJECT_ENSURE_REGISTERED(TimelyCongestionControl);

TypeId
TimelyCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TimelyCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("Interconnect")
            .AddConstructor<TimelyCongestionControl>()
            .AddAttribute("Alpha",
                          "EWMA weight of a new RTT difference (0..1]. Default: 0.875 (TIMELY "
                          "paper).",
                          DoubleValue(0.875),
                          MakeDoubleAccessor(&TimelyCongestionControl::m_alpha),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("Beta",
                          "Multiplicative decrease factor (0..1]. Default: 0.8 (TIMELY paper).",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&TimelyCongestionControl::m_beta),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("Delta",
                          "Additive increase step. Default: 10 Mb/s (TIMELY paper).",
                          DataRateValue(DataRate("10Mbps")),
                          MakeDataRateAccessor(&TimelyCongestionControl::m_delta),
                          MakeDataRateChecker())
            .AddAttribute("TLow",
                          "RTT below which the rate increases additively. Default: 50 us "
                          "(TIMELY paper).",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&TimelyCongestionControl::m_tLow),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("THigh",
                          "RTT above which the rate decreases (> TLow). Default: 500 us (TIMELY "
                          "paper).",
                          TimeValue(MicroSeconds(500)),
                          MakeTimeAccessor(&TimelyCongestionControl::m_tHigh),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("MinRtt",
                          "Normalization of the RTT gradient (> 0). Default: 20 us (TIMELY "
                          "paper).",
                          TimeValue(MicroSeconds(20)),
                          MakeTimeAccessor(&TimelyCongestionControl::m_minRtt),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("HaiThreshold",
                          "Non-positive gradients in a row before the increase is 5 x Delta. "
                          "Default: 5 (TIMELY paper).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&TimelyCongestionControl::m_haiThreshold),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("SegmentBytes",
                          "Acknowledged bytes between rate updates; 0 updates on every ACK "
                          "with an RTT sample. The paper reacts to completions of 16-64 KB "
                          "segments (set 16384 for that); per-ACK updates recover much faster "
                          "from the start-up collapse at small RTTs. Default: 0.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&TimelyCongestionControl::m_segmentBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MinRate",
                          "Rate floor (> 0). Default: 10 Mb/s.",
                          DataRateValue(DataRate("10Mbps")),
                          MakeDataRateAccessor(&TimelyCongestionControl::m_minRate),
                          MakeDataRateChecker());
    return tid;
}

TimelyCongestionControl::TimelyCongestionControl()
    : m_alpha(0.875),
      m_beta(0.8),
      m_delta(DataRate("10Mbps")),
      m_tLow(MicroSeconds(50)),
      m_tHigh(MicroSeconds(500)),
      m_minRtt(MicroSeconds(20)),
      m_haiThreshold(5),
      m_segmentBytes(0),
      m_minRate(DataRate("10Mbps")),
      m_rate(0),
      m_lineRate(0),
      m_prevRtt(0),
      m_rttDiff(0),
      m_negatives(0),
      m_ackedSince(0)
{
}

std::string
TimelyCongestionControl::GetName() const
{
    return "timely";
}

void
TimelyCongestionControl::OnStart(Ptr<RdmaQueuePair> qp)
{
    m_lineRate = static_cast<double>(qp->GetLineRate().GetBitRate());
    m_rate = m_lineRate;
    qp->SetRate(qp->GetLineRate());
    qp->SetWindow(0);
}

void
TimelyCongestionControl::OnAck(Ptr<RdmaQueuePair> qp, const RdmaAckInfo& ack)
{
    m_ackedSince += ack.ackedBytes;
    if (ack.rtt.IsZero() || m_ackedSince < m_segmentBytes)
    {
        return;
    }
    m_ackedSince = 0;
    const double rtt = ack.rtt.GetSeconds();
    if (m_prevRtt == 0)
    {
        m_prevRtt = rtt;
        return;
    }
    const double delta = static_cast<double>(m_delta.GetBitRate());
    m_rttDiff = (1 - m_alpha) * m_rttDiff + m_alpha * (rtt - m_prevRtt);
    m_prevRtt = rtt;
    const double gradient = m_rttDiff / m_minRtt.GetSeconds();
    if (rtt < m_tLow.GetSeconds())
    {
        m_rate += delta;
        m_negatives = 0;
    }
    else if (rtt > m_tHigh.GetSeconds())
    {
        m_rate *= 1 - m_beta * (1 - m_tHigh.GetSeconds() / rtt);
        m_negatives = 0;
    }
    else if (gradient <= 0)
    {
        ++m_negatives;
        m_rate += (m_negatives >= m_haiThreshold ? 5 : 1) * delta;
    }
    else
    {
        m_negatives = 0;
        m_rate *= 1 - m_beta * std::min(gradient, 1.0);
    }
    m_rate = std::clamp(m_rate, static_cast<double>(m_minRate.GetBitRate()), m_lineRate);
    qp->SetRate(DataRate(static_cast<uint64_t>(m_rate)));
}

} // namespace ns3
