/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "hpcc-congestion-control.h"

#include "rdma-psn.h"
#include "rdma-queue-pair.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HpccCongestionControl");

NS_OBJECT_ENSURE_REGISTERED(HpccCongestionControl);

TypeId
HpccCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HpccCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("Interconnect")
            .AddConstructor<HpccCongestionControl>()
            .AddAttribute("Eta",
                          "Target utilization eta (0..1]. Default: 0.95 (HPCC paper).",
                          DoubleValue(0.95),
                          MakeDoubleAccessor(&HpccCongestionControl::m_eta),
                          MakeDoubleChecker<double>(0.01, 1))
            .AddAttribute("MaxStage",
                          "Additive-increase stages before a multiplicative update is forced. "
                          "Default: 5 (HPCC paper); the authors' scripts use 0.",
                          UintegerValue(5),
                          MakeUintegerAccessor(&HpccCongestionControl::m_maxStage),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RateAi",
                          "Additive increase as a rate; W_AI = RateAi x T. Default: 40 Mb/s "
                          "(the HPCC artifact's 10 Mb/s per 25 Gb/s of line rate, at 100 Gb/s).",
                          DataRateValue(DataRate("40Mbps")),
                          MakeDataRateAccessor(&HpccCongestionControl::m_rateAi),
                          MakeDataRateChecker())
            .AddAttribute("BaseRtt",
                          "T, the base round-trip time; 0 uses the smallest RTT measured.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&HpccCongestionControl::m_baseRtt),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("U",
                            "The smoothed normalized inflight U of the busiest hop, as it changes",
                            MakeTraceSourceAccessor(&HpccCongestionControl::m_u),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

HpccCongestionControl::HpccCongestionControl()
    : m_eta(0.95),
      m_maxStage(5),
      m_rateAi(DataRate("40Mbps")),
      m_lineRate(0),
      m_t(0),
      m_u(0),
      m_w(0),
      m_wc(0),
      m_wMax(0),
      m_incStage(0),
      m_lastUpdatePsn(0),
      m_haveLast(false)
{
}

std::string
HpccCongestionControl::GetName() const
{
    return "hpcc";
}

bool
HpccCongestionControl::NeedsInt() const
{
    return true;
}

void
HpccCongestionControl::OnStart(Ptr<RdmaQueuePair> qp)
{
    m_lineRate = static_cast<double>(qp->GetLineRate().GetBitRate());
    m_lastUpdatePsn = qp->GetSndNxt();
    qp->SetRate(qp->GetLineRate());
    qp->SetWindow(0);
    if (!m_baseRtt.IsZero())
    {
        m_t = m_baseRtt.GetSeconds();
        m_wMax = m_lineRate * m_t / 8;
        m_w = m_wMax;
        m_wc = m_wMax;
        qp->SetWindow(static_cast<uint64_t>(m_w));
    }
}

double
HpccCongestionControl::MeasureInflight(const RdmaIntTag& stack)
{
    double u = 0;
    double tau = 0;
    const uint32_t hops = std::min(stack.GetNHops(), m_last.GetNHops());
    for (uint32_t i = 0; i < hops; ++i)
    {
        const RdmaIntHop& now = stack.GetHop(i);
        const RdmaIntHop& before = m_last.GetHop(i);
        const double dt = TimeStep(now.timestamp - before.timestamp).GetSeconds();
        if (dt <= 0)
        {
            continue;
        }
        const double rate = static_cast<double>(now.rateBps);
        const double txRate = (now.txBytes - before.txBytes) * 8.0 / dt;
        const double ui = std::min(now.qlen, before.qlen) * 8.0 / (rate * m_t) + txRate / rate;
        if (ui > u)
        {
            u = ui;
            tau = dt;
        }
    }
    tau = std::min(tau, m_t);
    m_u = (1 - tau / m_t) * m_u + tau / m_t * u;
    return m_u;
}

double
HpccCongestionControl::ComputeWindow(double u, bool updateWc)
{
    const double wai = m_rateAi.GetBitRate() * m_t / 8;
    double w;
    if (u >= m_eta || m_incStage >= m_maxStage)
    {
        w = m_wc / (std::max(u, 1e-9) / m_eta) + wai;
        if (updateWc)
        {
            m_incStage = 0;
            m_wc = std::min(w, m_wMax);
        }
    }
    else
    {
        w = m_wc + wai;
        if (updateWc)
        {
            ++m_incStage;
            m_wc = std::min(w, m_wMax);
        }
    }
    return std::clamp(w, 1.0, m_wMax);
}

void
HpccCongestionControl::OnAck(Ptr<RdmaQueuePair> qp, const RdmaAckInfo& ack)
{
    if (m_baseRtt.IsZero() && !ack.rtt.IsZero() && (m_t == 0 || ack.rtt.GetSeconds() < m_t))
    {
        // T from the smallest RTT seen; the window scale follows it.
        const bool first = m_t == 0;
        m_t = ack.rtt.GetSeconds();
        m_wMax = m_lineRate * m_t / 8;
        if (first)
        {
            m_w = m_wMax;
            m_wc = m_wMax;
            qp->SetWindow(static_cast<uint64_t>(m_w));
        }
    }
    if (m_t == 0 || !ack.intStack)
    {
        return;
    }
    if (!m_haveLast || m_last.GetNHops() != ack.intStack->GetNHops())
    {
        m_last = *ack.intStack; // the first sample of this path: nothing to compare yet
        m_haveLast = true;
        return;
    }
    const double u = MeasureInflight(*ack.intStack);
    const bool perRtt = rdma::PsnDiff(ack.ackPsn, m_lastUpdatePsn) > 0;
    m_w = ComputeWindow(u, perRtt);
    if (perRtt)
    {
        m_lastUpdatePsn = qp->GetSndNxt();
    }
    m_last = *ack.intStack;
    qp->SetWindow(std::max<uint64_t>(1, static_cast<uint64_t>(m_w)));
    qp->SetRate(DataRate(static_cast<uint64_t>(std::max(m_w * 8 / m_t, 1e6))));
}

double
HpccCongestionControl::GetUtilization() const
{
    return m_u;
}

uint64_t
HpccCongestionControl::GetWindow() const
{
    return static_cast<uint64_t>(m_w);
}

} // namespace ns3
