/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-congestion-control.h"

#include "rdma-queue-pair.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCongestionControl");

NS_OBJECT_ENSURE_REGISTERED(RdmaCongestionControl);

TypeId
RdmaCongestionControl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaCongestionControl")
                            .SetParent<Object>()
                            .SetGroupName("Interconnect")
                            .AddConstructor<RdmaCongestionControl>();
    return tid;
}

std::string
RdmaCongestionControl::GetName() const
{
    return "none";
}

void
RdmaCongestionControl::OnStart(Ptr<RdmaQueuePair> qp)
{
    NS_LOG_FUNCTION(this << qp);
    qp->SetRate(qp->GetLineRate());
    qp->SetWindow(0);
}

void
RdmaCongestionControl::OnSend(Ptr<RdmaQueuePair> /* qp */, uint32_t /* bytes */)
{
}

void
RdmaCongestionControl::OnAck(Ptr<RdmaQueuePair> /* qp */, uint32_t /* ackedBytes */, Time /* rtt */)
{
}

void
RdmaCongestionControl::OnCnp(Ptr<RdmaQueuePair> /* qp */)
{
}

void
RdmaCongestionControl::OnLoss(Ptr<RdmaQueuePair> /* qp */, bool /* timeout */)
{
}

void
RdmaCongestionControl::OnIdle(Ptr<RdmaQueuePair> /* qp */)
{
}

} // namespace ns3
