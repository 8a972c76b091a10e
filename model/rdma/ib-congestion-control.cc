/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-congestion-control.h"

#include "rdma-queue-pair.h"

#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(IbCongestionControl);

TypeId
IbCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::IbCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("Interconnect")
            .AddConstructor<IbCongestionControl>()
            .AddAttribute("CctiIncrease",
                          "CCT index increase per CNP (BECN)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&IbCongestionControl::m_cctiIncrease),
                          MakeUintegerChecker<uint32_t>(1, 127))
            .AddAttribute("CctiLimit",
                          "Largest CCT index",
                          UintegerValue(127),
                          MakeUintegerAccessor(&IbCongestionControl::m_cctiLimit),
                          MakeUintegerChecker<uint32_t>(1, 16383))
            .AddAttribute("CctiTimer",
                          "Interval at which a CCT index above 0 drops by 1",
                          TimeValue(MicroSeconds(2)),
                          MakeTimeAccessor(&IbCongestionControl::m_cctiTimer),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("CctStep",
                          "Inter-packet delay per CCT index (CCT[i] = i x step)",
                          TimeValue(NanoSeconds(50)),
                          MakeTimeAccessor(&IbCongestionControl::m_cctStep),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("CctIndex",
                            "The queue pair's CCT index (CCTI) as it changes",
                            MakeTraceSourceAccessor(&IbCongestionControl::m_ccti),
                            "ns3::TracedValueCallback::Uint32");
    return tid;
}

IbCongestionControl::IbCongestionControl()
    : m_cctiIncrease(1),
      m_cctiLimit(127),
      m_cctiTimer(MicroSeconds(2)),
      m_cctStep(NanoSeconds(50)),
      m_ccti(0)
{
}

void
IbCongestionControl::DoDispose()
{
    m_timer.Cancel();
    RdmaCongestionControl::DoDispose();
}

std::string
IbCongestionControl::GetName() const
{
    return "ib-cc";
}

void
IbCongestionControl::OnCnp(Ptr<RdmaQueuePair> qp)
{
    m_ccti = std::min(m_ccti.Get() + m_cctiIncrease, m_cctiLimit);
    qp->SetInterPacketDelay(m_cctStep * m_ccti.Get());
    if (!m_timer.IsPending())
    {
        m_timer.Schedule(m_cctiTimer, &IbCongestionControl::Timer, this, qp);
    }
}

void
IbCongestionControl::Timer(Ptr<RdmaQueuePair> qp)
{
    if (m_ccti.Get() > 0)
    {
        --m_ccti;
        qp->SetInterPacketDelay(m_cctStep * m_ccti.Get());
    }
    if (m_ccti.Get() > 0)
    {
        m_timer.Schedule(m_cctiTimer, &IbCongestionControl::Timer, this, qp);
    }
}

uint32_t
IbCongestionControl::GetCcti() const
{
    return m_ccti;
}

} // namespace ns3
