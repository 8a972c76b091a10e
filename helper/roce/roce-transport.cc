/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-transport.h"

#include "roce-helper.h"

#include "ns3/abort.h"
#include "ns3/interconnect-config-error.h"
#include "ns3/log.h"
#include "ns3/node.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceTransport");

RoceTransport::RoceTransport(const RoceHelper& network)
    : EthernetTransport(network, 3, "RoceTransport") // RoCEv2 on the usual lossless class
{
}

Ptr<RdmaQueuePair>
RoceTransport::GetQueuePair(uint32_t src, uint32_t dst, uint8_t priority)
{
    return Connection(src, dst, priority, 0).first;
}

RoceTransport::QueuePairs
RoceTransport::Connection(uint32_t src, uint32_t dst, uint8_t priority, uint32_t slot)
{
    const uint32_t hosts = m_network.GetNHosts();
    NS_ABORT_MSG_IF(src >= hosts || dst >= hosts || src == dst,
                    "RoceTransport: bad host pair " << src << " -> " << dst);
    if (const QueuePairs* kept = m_qps.Find(src, dst, priority, slot))
    {
        return *kept;
    }
    QueuePairs qps;
    if (!IsLocalHost(src) && !IsLocalHost(dst))
    {
        // Both ends on other ranks: only their numbers, so that the next pairs' agree.
        qps.qpn = m_network.GetNic(src)->ReserveQueuePair();
        m_network.GetNic(dst)->ReserveQueuePair();
    }
    else
    {
        std::tie(qps.first, qps.second) =
            RdmaNic::ConnectPair(m_network.GetNic(src), m_network.GetNic(dst), priority);
        qps.qpn = qps.first->GetQpn();
    }
    // A connection carries messages both ways: the reverse direction's slot is its other end.
    const QueuePairs reverse{qps.second, qps.first, qps.second ? qps.second->GetQpn() : 0};
    m_qps.Keep(src, dst, priority, slot, qps, &reverse);
    return qps;
}

Ptr<RdmaQueuePair>
RoceTransport::GetFlowQueuePair(uint64_t flow, bool responder) const
{
    NS_ABORT_MSG_IF(flow >= m_flowQps.size(), "RoceTransport::GetFlowQueuePair: no flow " << flow);
    return responder ? m_flowQps[flow].second : m_flowQps[flow].first;
}

uint64_t
RoceTransport::Post(uint32_t src,
                    uint32_t dst,
                    RdmaVerb verb,
                    uint64_t bytes,
                    Time at,
                    uint8_t priority,
                    RdmaQueuePair::CompletionCallback done)
{
    const uint32_t slot = NextConnection(src, dst, priority);
    const QueuePairs qps = Connection(src, dst, priority, slot);
    m_flowQps.resize(GetFlows().size());
    m_flowQps.emplace_back(qps.first, qps.second);
    Ptr<RdmaQueuePair> qp = qps.first;
    return RecordAndStart(src,
                          dst,
                          verb,
                          bytes,
                          at,
                          priority,
                          m_network.GetHost(src)->GetId(),
                          qps.qpn,
                          done,
                          [qp, verb, bytes](RdmaQueuePair::CompletionCallback onDone) {
                              qp->Post(verb, bytes, onDone);
                          });
}

Time
RoceTransport::IdealFct(uint32_t src, uint32_t dst, RdmaVerb verb, uint64_t bytes) const
{
    const uint32_t mtu = m_network.GetQueuePairMtu();
    const uint32_t base = RdmaNic::ROCE_HEADERS + PfcNetDevice::ETHERNET_HEADER;
    const uint64_t packets = std::max<uint64_t>(1, (bytes + mtu - 1) / mtu);
    auto payload = [&](uint64_t k) {
        return static_cast<uint32_t>(std::min<uint64_t>(mtu, bytes - std::min(bytes, k * mtu)));
    };
    const std::vector<Ptr<PfcNetDevice>> forward = m_network.PathDevices(src, dst);
    const std::vector<Ptr<PfcNetDevice>> backward = m_network.PathDevices(dst, src);
    std::vector<uint32_t> frames;
    if (verb == RdmaVerb::READ)
    {
        const Time request = RoceHelper::StoreAndForward({base + 16}, forward); // BTH + RETH
        for (uint64_t k = 0; k < packets; ++k)
        {
            const bool aeth = k == 0 || k + 1 == packets;
            frames.push_back(base + payload(k) + (aeth ? 4 : 0));
        }
        return request + RoceHelper::StoreAndForward(frames, backward);
    }
    for (uint64_t k = 0; k < packets; ++k)
    {
        const bool reth = verb == RdmaVerb::WRITE && k == 0;
        frames.push_back(base + payload(k) + (reth ? 16 : 0));
    }
    return RoceHelper::StoreAndForward(frames, forward) +
           RoceHelper::StoreAndForward({base + 4}, backward); // ACK: AETH
}

uint64_t
RoceTransport::WireBytes(RdmaVerb verb, uint64_t bytes) const
{
    const uint32_t mtu = m_network.GetQueuePairMtu();
    const uint32_t base = RdmaNic::ROCE_HEADERS + PfcNetDevice::ETHERNET_HEADER;
    const uint64_t full = bytes / mtu;
    const uint32_t rest = static_cast<uint32_t>(bytes % mtu);
    uint64_t wire = full * PfcNetDevice::WireBytes(base + mtu);
    if (rest > 0 || full == 0)
    {
        wire += PfcNetDevice::WireBytes(base + rest);
    }
    return wire + (verb == RdmaVerb::WRITE ? 16 : 0); // the RETH of the first frame
}

TransportStatistics
RoceTransport::CollectStatistics() const
{
    TransportStatistics st = m_network.CollectFabricStatistics();
    for (uint32_t h = 0; h < m_network.GetNHosts(); ++h)
    {
        Ptr<RdmaNic> nic = m_network.GetNic(h);
        st.cnpsSent += nic->GetCnpsSent();
        st.dataFrames += nic->GetDataPacketsSent();
        for (uint32_t i = 0; i < nic->GetNQueuePairs(); ++i)
        {
            Ptr<RdmaQueuePair> qp = nic->GetQueuePair(RdmaChannelAdapter::FIRST_QPN + i);
            if (!qp)
            {
                continue; // reserved for two other ranks' hosts
            }
            st.cnpsReceived += qp->GetCnpsReceived();
            st.retransmitted += qp->GetRetransmittedPackets();
            st.retransmittedBytes += qp->GetRetransmittedBytes();
            st.spurious += qp->GetDuplicatesReceived();
            st.timeouts += qp->GetTimeouts();
            st.naks += qp->GetNaksReceived();
            st.bytesDelivered += qp->GetBytesDelivered();
        }
    }
    CountMessages(st);
    return st;
}

void
RoceTransport::DoTraceCongestionState()
{
    for (uint32_t h = 0; h < m_network.GetNHosts(); ++h)
    {
        if (IsLocalHost(h))
        {
            TraceAdapterCongestionState(h, m_network.GetNic(h));
        }
    }
}

} // namespace ns3
