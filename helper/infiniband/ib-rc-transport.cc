/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-rc-transport.h"

#include "ns3/abort.h"
#include "ns3/ib-switch.h"
#include "ns3/local-rank.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

namespace
{
/// LRH (8), BTH (12), ICRC (4) and VCRC (2) around every packet's payload.
constexpr uint32_t PACKET_OVERHEAD = 26;
/// An RETH.
constexpr uint32_t RETH = 16;
/// An AETH.
constexpr uint32_t AETH = 4;
} // namespace

IbRcTransport::IbRcTransport(const IbSubnet& subnet)
    : m_subnet(subnet),
      m_sl(0)
{
}

void
IbRcTransport::SetQueuePairAttribute(const std::string& name, const AttributeValue& value)
{
    for (const auto& adapter : m_subnet.adapters)
    {
        adapter->SetQueuePairAttribute(name, value);
    }
}

void
IbRcTransport::SetDefaultServiceLevel(uint8_t sl)
{
    NS_ABORT_MSG_IF(sl > 15, "IbRcTransport: SL " << +sl << " (0..15)");
    m_sl = sl;
}

uint8_t
IbRcTransport::GetDefaultPriority() const
{
    return m_sl;
}

Ptr<RdmaQueuePair>
IbRcTransport::GetQueuePair(uint32_t src, uint32_t dst, uint8_t sl)
{
    return Connection(src, dst, sl, 0).first;
}

std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>
IbRcTransport::Connection(uint32_t src, uint32_t dst, uint8_t sl, uint32_t slot)
{
    const uint32_t hosts = static_cast<uint32_t>(m_subnet.adapters.size());
    NS_ABORT_MSG_IF(src >= hosts || dst >= hosts || src == dst,
                    "IbRcTransport: bad host pair " << src << " -> " << dst);
    if (const auto* kept = m_qps.Find(src, dst, sl, slot))
    {
        return *kept;
    }
    // Each direction on its path's SL (the QoS class itself, or on a torus its datelines too).
    auto pair = IbHostAdapter::ConnectPair(m_subnet.adapters[src],
                                           m_subnet.adapters[dst],
                                           m_subnet.GetPathSl(src, dst, sl),
                                           m_subnet.GetPathSl(dst, src, sl),
                                           0);
    // A connection carries messages both ways: the reverse direction's slot is its other end.
    const auto reverse = std::make_pair(pair.second, pair.first);
    m_qps.Keep(src, dst, sl, slot, pair, &reverse);
    m_allQps.push_back(pair.first);
    m_allQps.push_back(pair.second);
    return pair;
}

Ptr<RdmaQueuePair>
IbRcTransport::GetFlowQueuePair(uint64_t flow, bool responder) const
{
    NS_ABORT_MSG_IF(flow >= m_flowQps.size(), "IbRcTransport::GetFlowQueuePair: no flow " << flow);
    return responder ? m_flowQps[flow].second : m_flowQps[flow].first;
}

uint64_t
IbRcTransport::Post(uint32_t src,
                    uint32_t dst,
                    RdmaVerb verb,
                    uint64_t bytes,
                    Time at,
                    uint8_t sl,
                    RdmaQueuePair::CompletionCallback done)
{
    const auto pair = Connection(src, dst, sl, NextConnection(src, dst, sl));
    Ptr<RdmaQueuePair> qp = pair.first;
    m_flowQps.resize(m_flows.size());
    m_flowQps.push_back(pair);
    return RecordAndStart(src,
                          dst,
                          verb,
                          bytes,
                          at,
                          sl,
                          m_subnet.hostNodes[src]->GetId(),
                          qp->GetQpn(),
                          done,
                          [qp, verb, bytes](RdmaQueuePair::CompletionCallback onDone) {
                              qp->Post(verb, bytes, onDone);
                          });
}

bool
IbRcTransport::IsLocalHost(uint32_t host) const
{
    NS_ABORT_MSG_IF(host >= m_subnet.hostNodes.size(), "IbRcTransport: no host " << host);
    return IsOnThisRank(m_subnet.hostNodes[host]);
}

void
IbRcTransport::DoTraceCongestionState()
{
    for (uint32_t h = 0; h < m_subnet.adapters.size(); ++h)
    {
        if (IsLocalHost(h))
        {
            TraceAdapterCongestionState(h, m_subnet.adapters[h]);
        }
    }
}

uint32_t
IbRcTransport::Mtu() const
{
    return m_subnet.adapters.front()->GetDevice()->GetMtu();
}

std::vector<PathHop>
IbRcTransport::Hops(uint32_t src, uint32_t dst) const
{
    const Fabric& f = m_subnet.fabric;
    const std::vector<uint32_t> nodes = m_subnet.TracePath(src, dst);
    NS_ABORT_MSG_IF(nodes.empty(), "IbRcTransport: no path from host " << src << " to " << dst);
    std::vector<PathHop> hops;
    for (std::size_t i = 0; i + 1 < nodes.size(); ++i)
    {
        for (uint32_t l : f.GetNodeLinks(nodes[i]))
        {
            const FabricLink& link = f.GetLink(l);
            if (f.GetPeer(l, nodes[i]) != nodes[i + 1])
            {
                continue;
            }
            // Ports come two per link, in link order: the one on a, then the one on b.
            Ptr<IbNetDevice> port = m_subnet.ports[2 * l + (link.a == nodes[i] ? 0 : 1)];
            Time latency(0);
            if (f.GetNode(nodes[i + 1]).kind != FabricNodeKind::HOST)
            {
                TimeValue v;
                m_subnet.switches[f.GetNode(nodes[i + 1]).index]->GetAttribute("ForwardingLatency",
                                                                               v);
                latency = v.Get();
            }
            hops.push_back(PathHop{port->GetDataRate(), link.delay, latency});
            break;
        }
    }
    return hops;
}

Time
IbRcTransport::IdealFct(uint32_t src, uint32_t dst, RdmaVerb verb, uint64_t bytes) const
{
    const uint32_t mtu = Mtu();
    std::vector<uint32_t> packets;
    for (uint64_t sent = 0; sent < bytes || packets.empty(); sent += mtu)
    {
        const uint32_t payload = static_cast<uint32_t>(std::min<uint64_t>(mtu, bytes - sent));
        const bool first = sent == 0;
        const bool last = sent + payload >= bytes;
        const uint32_t extra = verb == RdmaVerb::READ
                                   ? ((first || last) ? AETH : 0)
                                   : (verb == RdmaVerb::WRITE && first ? RETH : 0);
        packets.push_back(PACKET_OVERHEAD + extra + payload);
    }
    if (verb == RdmaVerb::READ)
    {
        return StoreAndForward({PACKET_OVERHEAD + RETH}, Hops(src, dst)) +
               StoreAndForward(packets, Hops(dst, src));
    }
    return StoreAndForward(packets, Hops(src, dst)) +
           StoreAndForward({PACKET_OVERHEAD + AETH}, Hops(dst, src));
}

uint64_t
IbRcTransport::WireBytes(RdmaVerb verb, uint64_t bytes) const
{
    const uint64_t packets = std::max<uint64_t>(1, (bytes + Mtu() - 1) / Mtu());
    const uint64_t extra = verb == RdmaVerb::WRITE ? RETH : (verb == RdmaVerb::READ ? 2 * AETH : 0);
    return bytes + packets * PACKET_OVERHEAD + extra;
}

DataRate
IbRcTransport::GetHostRate(uint32_t host) const
{
    return m_subnet.adapters.at(host)->GetDevice()->GetDataRate();
}

DataRate
IbRcTransport::GetHostSendRate(uint32_t host) const
{
    // As RoCE's: the adapter's payload reads (a GPU behind a slower PCIe path) may be slower.
    DataRateValue read;
    m_subnet.adapters.at(host)->GetAttribute("HostReadRate", read);
    const DataRate line = GetHostRate(host);
    return read.Get().GetBitRate() > 0 && read.Get() < line ? read.Get() : line;
}

TransportStatistics
IbRcTransport::CollectStatistics() const
{
    TransportStatistics st;
    for (const auto& sw : m_subnet.switches)
    {
        st.dropsNoRoute += sw->GetNoRouteDrops();
        st.ecnMarks += sw->GetFecnMarks();
    }
    for (const auto& port : m_subnet.ports)
    {
        for (uint8_t vl = 0; vl < 16; ++vl)
        {
            st.packetHops += port->GetPacketsSent(vl);
        }
        for (uint8_t vl = 0; IsOnThisRank(port->GetNode()) && vl < port->GetNDataVls(); ++vl)
        {
            st.creditStallNs += port->GetCreditStallTime(vl).GetNanoSeconds();
        }
    }
    for (const auto& adapter : m_subnet.adapters)
    {
        st.cnpsSent += adapter->GetCnpsSent();
        st.cnpsReceived += adapter->GetCnpsReceived();
    }
    for (const auto& qp : m_allQps)
    {
        st.retransmitted += qp->GetRetransmittedPackets();
        st.retransmittedBytes += qp->GetRetransmittedBytes();
        st.spurious += qp->GetDuplicatesReceived();
        st.timeouts += qp->GetTimeouts();
        st.naks += qp->GetNaksReceived();
        st.bytesDelivered += qp->GetBytesDelivered();
    }
    CountMessages(st);
    return st;
}

const IbSubnet&
IbRcTransport::GetSubnet() const
{
    return m_subnet;
}

} // namespace ns3
