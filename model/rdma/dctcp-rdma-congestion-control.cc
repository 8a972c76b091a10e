/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dctcp-rdma-congestion-control.h"

#include "rdma-psn.h"
#include "rdma-queue-pair.h"

#include "ns3/double.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DctcpRdmaCongestionControl");

NS_OBJECT_ENSURE_REGISTERED(DctcpRdmaCongestionControl);

TypeId
DctcpRdmaCongestionControl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DctcpRdmaCongestionControl")
                            .SetParent<RdmaCongestionControl>()
                            .SetGroupName("Interconnect")
                            .AddConstructor<DctcpRdmaCongestionControl>()
                            .AddAttribute("G",
                                          "Gain of alpha (0..1]. Default: 1/16 (DCTCP paper).",
                                          DoubleValue(1.0 / 16),
                                          MakeDoubleAccessor(&DctcpRdmaCongestionControl::m_g),
                                          MakeDoubleChecker<double>(0, 1));
    return tid;
}

DctcpRdmaCongestionControl::DctcpRdmaCongestionControl()
    : m_g(1.0 / 16),
      m_alpha(1.0),
      m_window(0),
      m_mtu(1024),
      m_acked(0),
      m_marked(0),
      m_windowEnd(0),
      m_started(false)
{
}

std::string
DctcpRdmaCongestionControl::GetName() const
{
    return "dctcp";
}

void
DctcpRdmaCongestionControl::OnStart(Ptr<RdmaQueuePair> qp)
{
    m_mtu = qp->GetMtu();
    m_windowEnd = qp->GetSndNxt();
    qp->SetRate(qp->GetLineRate());
    qp->SetWindow(0);
}

void
DctcpRdmaCongestionControl::OnAck(Ptr<RdmaQueuePair> qp, const RdmaAckInfo& ack)
{
    if (!m_started)
    {
        if (ack.rtt.IsZero())
        {
            return;
        }
        m_started = true;
        m_window = std::max(m_mtu, qp->GetLineRate().GetBitRate() * ack.rtt.GetSeconds() / 8);
        m_windowEnd = qp->GetSndNxt();
    }
    m_acked += ack.ackedBytes;
    if (ack.ecnEcho)
    {
        m_marked += ack.ackedBytes;
    }
    if (rdma::PsnDiff(ack.ackPsn, m_windowEnd) >= 0)
    {
        // One window acknowledged: update alpha, react once.
        const double f = m_acked ? static_cast<double>(m_marked) / m_acked : 0;
        m_alpha = (1 - m_g) * m_alpha + m_g * f;
        if (m_marked > 0)
        {
            m_window *= 1 - m_alpha / 2;
        }
        else
        {
            m_window += m_mtu;
        }
        m_acked = 0;
        m_marked = 0;
        m_windowEnd = qp->GetSndNxt();
    }
    m_window = std::max(m_window, m_mtu);
    qp->SetWindow(static_cast<uint64_t>(m_window));
}

double
DctcpRdmaCongestionControl::GetAlpha() const
{
    return m_alpha;
}

} // namespace ns3
