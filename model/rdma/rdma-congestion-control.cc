/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-congestion-control.h"

#include "rdma-queue-pair.h"

#include "ns3/interconnect-config-error.h"
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

std::string
RdmaCongestionControl::ResolveName(const std::string& option, const std::string& name)
{
    static const std::pair<const char*, const char*> SHORT_NAMES[] = {
        {"none", "ns3::RdmaCongestionControl"},
        {"dcqcn", "ns3::DcqcnCongestionControl"},
        {"hpcc", "ns3::HpccCongestionControl"},
        {"timely", "ns3::TimelyCongestionControl"},
        {"dctcp", "ns3::DctcpRdmaCongestionControl"},
        {"nscc", "ns3::NsccCongestionControl"},
        {"ib-cc", "ns3::IbCongestionControl"},
    };
    for (const auto& [shortName, typeName] : SHORT_NAMES)
    {
        if (name == shortName)
        {
            return typeName;
        }
    }
    TypeId tid;
    if (TypeId::LookupByNameFailSafe(name, &tid) &&
        (tid == GetTypeId() || tid.IsChildOf(GetTypeId())))
    {
        return name;
    }
    InterconnectConfigError(
        option,
        name,
        "none, dcqcn, hpcc, timely, dctcp, nscc, ib-cc, or the TypeId name of a subclass "
        "of ns3::RdmaCongestionControl");
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
RdmaCongestionControl::OnAck(Ptr<RdmaQueuePair> /* qp */, const RdmaAckInfo& /* ack */)
{
}

bool
RdmaCongestionControl::NeedsInt() const
{
    return false;
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
