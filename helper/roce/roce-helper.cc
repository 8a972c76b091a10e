/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/fabric-helper.h"
#include "ns3/fabric.h"
#include "ns3/interconnect-config-error.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4.h"
#include "ns3/iwarp-ddp-header.h"
#include "ns3/iwarp-mpa.h"
#include "ns3/iwarp-read-request-header.h"
#include "ns3/local-rank.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pcap-file-wrapper.h"
#include "ns3/pcap-file.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-remote-channel.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/trace-helper.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <queue>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceHelper");

RoceHelper::RoceHelper()
    : m_qpMtu(0),
      m_finalized(false),
      m_transport(ROCE),
      m_defaultPriority(PfcNetDevice::N_PRIORITIES)
{
    m_deviceFactory.SetTypeId("ns3::PfcNetDevice");
    m_channelFactory.SetTypeId("ns3::PfcChannel");
    m_switchFactory.SetTypeId("ns3::RoceSwitch");
    m_mmuFactory.SetTypeId("ns3::RoceSwitchMmu");
    m_nicFactory.SetTypeId("ns3::RdmaNic");
}

void
RoceHelper::SetTransport(Transport transport)
{
    NS_ABORT_MSG_IF(m_finalized, "RoceHelper::SetTransport after Finalize");
    m_transport = transport;
}

RoceHelper::Transport
RoceHelper::GetTransport() const
{
    return m_transport;
}

void
RoceHelper::SetDefaultPriority(uint8_t priority)
{
    if (priority >= PfcNetDevice::N_PRIORITIES)
    {
        InterconnectConfigError("priority", std::to_string(priority), "0..7");
    }
    m_defaultPriority = priority;
}

uint8_t
RoceHelper::GetDefaultPriority() const
{
    if (m_defaultPriority < PfcNetDevice::N_PRIORITIES)
    {
        return static_cast<uint8_t>(m_defaultPriority);
    }
    // RoCEv2 on the usual lossless class; TCP on a lossy one.
    return m_transport == ROCE ? 3 : 0;
}

RoceHelper::Transport
RoceHelper::ParseTransport(const std::string& parameter, const std::string& name)
{
    if (name == "roce")
    {
        return ROCE;
    }
    if (name == "iwarp")
    {
        return IWARP;
    }
    InterconnectConfigError(parameter, name, "roce or iwarp");
}

void
RoceHelper::SetIwarpAttribute(const std::string& name, const AttributeValue& value)
{
    m_iwarp.SetSocketAttribute(name, value);
}

void
RoceHelper::SetTcpAttribute(const std::string& name, const AttributeValue& value)
{
    m_iwarp.SetTcpAttribute(name, value);
}

void
RoceHelper::SetTcpCongestionControl(const std::string& typeName)
{
    m_tcpCc = typeName;
}

const IwarpHelper&
RoceHelper::GetIwarpHelper() const
{
    return m_iwarp;
}

void
RoceHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
RoceHelper::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

void
RoceHelper::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    m_switchFactory.Set(name, value);
}

void
RoceHelper::SetMmuAttribute(const std::string& name, const AttributeValue& value)
{
    m_mmuFactory.Set(name, value);
}

void
RoceHelper::SetNicAttribute(const std::string& name, const AttributeValue& value)
{
    m_nicFactory.Set(name, value);
}

void
RoceHelper::SetQueuePairAttribute(const std::string& name, const AttributeValue& value)
{
    m_qpAttributes.emplace_back(name, value.Copy());
}

Ptr<Node>
RoceHelper::AddHost(uint32_t systemId)
{
    NS_ABORT_MSG_IF(m_finalized, "RoceHelper::AddHost after Finalize");
    Ptr<Node> node = CreateObject<Node>(systemId);
    m_hostNode.push_back(static_cast<uint32_t>(m_nodes.size()));
    m_nodes.push_back(node);
    m_isSwitch.push_back(false);
    m_adj.emplace_back();
    return node;
}

Ptr<Node>
RoceHelper::AddSwitch(uint32_t systemId)
{
    NS_ABORT_MSG_IF(m_finalized, "RoceHelper::AddSwitch after Finalize");
    Ptr<Node> node = CreateObject<Node>(systemId);
    Ptr<RoceSwitch> sw = m_switchFactory.Create<RoceSwitch>();
    sw->SetAttribute("Mmu", PointerValue(m_mmuFactory.Create<RoceSwitchMmu>()));
    sw->SetAttribute("EcmpSeed", UintegerValue(node->GetId()));
    node->AggregateObject(sw);
    m_switchNode.push_back(static_cast<uint32_t>(m_nodes.size()));
    m_switches.push_back(sw);
    m_nodes.push_back(node);
    m_isSwitch.push_back(true);
    m_adj.emplace_back();
    return node;
}

bool
RoceHelper::IsLocalHost(uint32_t host) const
{
    NS_ABORT_MSG_IF(host >= m_hostNode.size(), "RoceHelper: no host " << host);
    return IsOnThisRank(m_nodes[m_hostNode[host]]);
}

uint32_t
RoceHelper::IndexOf(Ptr<Node> node) const
{
    for (uint32_t i = 0; i < m_nodes.size(); ++i)
    {
        if (m_nodes[i] == node)
        {
            return i;
        }
    }
    NS_ABORT_MSG("RoceHelper: node " << node->GetId() << " was not created by this helper");
    return 0;
}

std::pair<Ptr<PfcNetDevice>, Ptr<PfcNetDevice>>
RoceHelper::Link(Ptr<Node> a, Ptr<Node> b)
{
    NS_ABORT_MSG_IF(m_finalized, "RoceHelper::Link after Finalize");
    const uint32_t ia = IndexOf(a);
    const uint32_t ib = IndexOf(b);
    NS_ABORT_MSG_IF(!m_isSwitch[ia] && !m_adj[ia].empty(),
                    "RoceHelper: a host has one port (host node " << a->GetId() << ")");
    NS_ABORT_MSG_IF(!m_isSwitch[ib] && !m_adj[ib].empty(),
                    "RoceHelper: a host has one port (host node " << b->GetId() << ")");
    const bool acrossRanks = a->GetSystemId() != b->GetSystemId();
    Ptr<PfcChannel> channel;
    if (acrossRanks)
    {
#ifdef NS3_MPI
        ObjectFactory remote = m_channelFactory;
        remote.SetTypeId(PfcRemoteChannel::GetTypeId());
        channel = remote.Create<PfcChannel>();
#else
        NS_ABORT_MSG("RoceHelper: nodes " << a->GetId() << " (rank " << a->GetSystemId() << ") and "
                                          << b->GetId() << " (rank " << b->GetSystemId()
                                          << ") are on different ranks, but this ns-3 has no MPI "
                                             "(build one with ./interconnect setup-mpi)");
#endif
    }
    else
    {
        channel = m_channelFactory.Create<PfcChannel>();
    }
    Ptr<PfcNetDevice> da = m_deviceFactory.Create<PfcNetDevice>();
    Ptr<PfcNetDevice> db = m_deviceFactory.Create<PfcNetDevice>();
    a->AddDevice(da);
    b->AddDevice(db);
    da->Attach(channel);
    db->Attach(channel);
#ifdef NS3_MPI
    if (acrossRanks)
    {
        PfcRemoteChannel::ConnectReceiver(da);
        PfcRemoteChannel::ConnectReceiver(db);
    }
#endif
    uint32_t pa = 0;
    uint32_t pb = 0;
    if (m_isSwitch[ia])
    {
        pa = a->GetObject<RoceSwitch>()->AddPort(da);
    }
    if (m_isSwitch[ib])
    {
        pb = b->GetObject<RoceSwitch>()->AddPort(db);
    }
    m_adj[ia].push_back(Adjacent{ib, da, pa});
    m_adj[ib].push_back(Adjacent{ia, db, pb});
    return {da, db};
}

std::pair<Ptr<PfcNetDevice>, Ptr<PfcNetDevice>>
RoceHelper::Link(Ptr<Node> a, Ptr<Node> b, DataRate rate, Time delay)
{
    auto devices = Link(a, b);
    devices.first->SetDataRate(rate);
    devices.second->SetDataRate(rate);
    devices.first->GetChannel()->SetAttribute("Delay", TimeValue(delay));
    return devices;
}

std::vector<uint32_t>
RoceHelper::Distances(uint32_t from) const
{
    const uint32_t inf = std::numeric_limits<uint32_t>::max();
    std::vector<uint32_t> dist(m_nodes.size(), inf);
    std::queue<uint32_t> q;
    dist[from] = 0;
    q.push(from);
    while (!q.empty())
    {
        const uint32_t u = q.front();
        q.pop();
        // Paths pass through switches only: a host is an end, never a transit node.
        if (u != from && !m_isSwitch[u])
        {
            continue;
        }
        for (const auto& e : m_adj[u])
        {
            if (dist[e.node] == inf)
            {
                dist[e.node] = dist[u] + 1;
                q.push(e.node);
            }
        }
    }
    return dist;
}

void
RoceHelper::Finalize(bool internetStack, bool shortestPathRoutes)
{
    NS_ABORT_MSG_IF(m_finalized, "RoceHelper::Finalize called twice");
    m_finalized = true;
    NS_ABORT_MSG_IF(m_hostNode.empty(), "RoceHelper: no hosts");
    internetStack = internetStack || m_transport == IWARP;
    for (uint32_t h = 0; h < m_hostNode.size(); ++h)
    {
        NS_ABORT_MSG_IF(m_adj[m_hostNode[h]].empty(), "RoceHelper: host " << h << " has no link");
        // 10.0.0.0/8, host h at 10.(h>>16).(h>>8).(h&255)+1 ... keep .0 and .255 out of the
        // last byte by numbering from 1 within each /24 of 254 hosts.
        const uint32_t subnet = h / 254;
        const uint32_t last = h % 254 + 1;
        m_addresses.emplace_back((10u << 24) | (subnet << 8) | last);
    }
    if (internetStack)
    {
        InternetStackHelper stack;
        for (uint32_t h : m_hostNode)
        {
            stack.Install(m_nodes[h]);
        }
    }
    for (uint32_t h = 0; h < m_hostNode.size(); ++h)
    {
        Ptr<Node> node = m_nodes[m_hostNode[h]];
        Ptr<PfcNetDevice> device = m_adj[m_hostNode[h]][0].device;
        Ptr<RdmaNic> nic = m_nicFactory.Create<RdmaNic>();
        node->AggregateObject(nic);
        nic->Install(device, m_addresses[h]);
        for (const auto& attr : m_qpAttributes)
        {
            nic->SetQueuePairAttribute(attr.first, *attr.second);
        }
        m_nics.push_back(nic);
        if (internetStack)
        {
            Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
            const int32_t ifIndex = ipv4->AddInterface(device);
            ipv4->AddAddress(ifIndex, Ipv4InterfaceAddress(m_addresses[h], Ipv4Mask("/8")));
            ipv4->SetUp(ifIndex);
        }
    }
    for (auto& sw : m_switches)
    {
        sw->Initialize();
    }
    for (uint32_t h = 0; internetStack && !m_tcpCc.empty() && h < m_hostNode.size(); ++h)
    {
        IwarpHelper::SetCongestionControl(m_nodes[m_hostNode[h]], m_tcpCc);
    }
    ObjectFactory qpFactory("ns3::RdmaQueuePair");
    for (const auto& attr : m_qpAttributes)
    {
        qpFactory.Set(attr.first, *attr.second);
    }
    m_qpMtu = qpFactory.Create<RdmaQueuePair>()->GetMtu();
    // Routes: on every switch, towards every host, all neighbours one hop closer.
    for (uint32_t h = 0; shortestPathRoutes && h < m_hostNode.size(); ++h)
    {
        const std::vector<uint32_t> dist = Distances(m_hostNode[h]);
        for (uint32_t s = 0; s < m_switchNode.size(); ++s)
        {
            const uint32_t u = m_switchNode[s];
            if (dist[u] == std::numeric_limits<uint32_t>::max())
            {
                continue;
            }
            std::vector<uint32_t> ports;
            for (const auto& e : m_adj[u])
            {
                if (dist[e.node] + 1 == dist[u])
                {
                    ports.push_back(e.port);
                }
            }
            m_switches[s]->SetRoute(m_addresses[h], ports);
        }
    }
}

Ptr<IwarpSocket>
RoceHelper::GetIwarpSocket(uint32_t src, uint32_t dst, uint8_t priority)
{
    return IwarpConnection(src, dst, priority, 0).first;
}

std::pair<Ptr<IwarpSocket>, uint32_t>
RoceHelper::IwarpConnection(uint32_t src, uint32_t dst, uint8_t priority, uint32_t slot)
{
    NS_ABORT_MSG_UNLESS(m_finalized, "RoceHelper: Finalize before posting");
    NS_ABORT_MSG_UNLESS(m_transport == IWARP, "RoceHelper::GetIwarpSocket: the transport is RoCE");
    NS_ABORT_MSG_IF(src >= m_nics.size() || dst >= m_nics.size() || src == dst,
                    "RoceHelper: bad host pair " << src << " -> " << dst);
    NS_ABORT_MSG_IF(priority >= PfcNetDevice::N_PRIORITIES,
                    "RoceHelper: priority " << +priority << " (0..7)");
    const auto key = std::make_tuple(src, dst, priority, slot);
    auto it = m_iwarpBy.find(key);
    if (slot != NEW_CONNECTION && it != m_iwarpBy.end())
    {
        return it->second;
    }
    // DSCP 8 x priority: the ports map DSCP / 8 back to the priority.
    m_iwarp.SetSocketAttribute("Tos", UintegerValue(static_cast<uint8_t>(priority * 8) << 2));
    Ptr<IwarpSocket> s =
        m_iwarp.Connect(m_nodes[m_hostNode[src]], m_nodes[m_hostNode[dst]], m_addresses[dst]);
    const auto connection = std::make_pair(s, static_cast<uint32_t>(m_iwarpSockets.size()));
    m_iwarpSockets.push_back(s);
    m_iwarpSources.push_back(src);
    if (IsTracingCongestionState())
    {
        TraceIwarpWindow(connection.second);
    }
    if (slot != NEW_CONNECTION)
    {
        m_iwarpBy[key] = connection;
    }
    return connection;
}

Ptr<RdmaQueuePair>
RoceHelper::GetQueuePair(uint32_t src, uint32_t dst, uint8_t priority)
{
    return Connection(src, dst, priority, 0).first;
}

RoceHelper::QueuePairs
RoceHelper::Connection(uint32_t src, uint32_t dst, uint8_t priority, uint32_t slot)
{
    NS_ABORT_MSG_IF(m_transport == IWARP,
                    "RoceHelper::GetQueuePair: the transport is iWARP (GetIwarpSocket)");
    NS_ABORT_MSG_UNLESS(m_finalized, "RoceHelper: Finalize before posting");
    NS_ABORT_MSG_IF(src >= m_nics.size() || dst >= m_nics.size() || src == dst,
                    "RoceHelper: bad host pair " << src << " -> " << dst);
    const auto key = std::make_tuple(src, dst, priority, slot);
    if (slot != NEW_CONNECTION)
    {
        auto it = m_qps.find(key);
        if (it != m_qps.end())
        {
            return it->second;
        }
    }
    QueuePairs qps;
    if (!IsLocalHost(src) && !IsLocalHost(dst))
    {
        // Both ends on other ranks: only their numbers, so that the next pairs' agree.
        qps.qpn = m_nics[src]->ReserveQueuePair();
        m_nics[dst]->ReserveQueuePair();
    }
    else
    {
        std::tie(qps.first, qps.second) = RdmaNic::ConnectPair(m_nics[src], m_nics[dst], priority);
        qps.qpn = qps.first->GetQpn();
    }
    if (slot != NEW_CONNECTION)
    {
        // A connection carries messages both ways: the reverse direction's slot is its other end.
        m_qps[key] = qps;
        m_qps[std::make_tuple(dst, src, priority, slot)] =
            QueuePairs{qps.second, qps.first, qps.second ? qps.second->GetQpn() : 0};
    }
    return qps;
}

Ptr<RdmaQueuePair>
RoceHelper::GetFlowQueuePair(uint64_t flow, bool responder) const
{
    NS_ABORT_MSG_IF(flow >= m_flowQps.size(),
                    "RoceHelper::GetFlowQueuePair: no RoCE flow " << flow);
    return responder ? m_flowQps[flow].second : m_flowQps[flow].first;
}

uint64_t
RoceHelper::Post(uint32_t src,
                 uint32_t dst,
                 RdmaVerb verb,
                 uint64_t bytes,
                 Time at,
                 uint8_t priority,
                 RdmaQueuePair::CompletionCallback done)
{
    const uint32_t slot = NextConnection(src, dst, priority);
    Ptr<RdmaQueuePair> qp;
    Ptr<IwarpSocket> iwarp;
    uint32_t number = 0;
    if (m_transport == ROCE)
    {
        const QueuePairs qps = Connection(src, dst, priority, slot);
        qp = qps.first;
        number = qps.qpn;
        m_flowQps.resize(m_flows.size());
        m_flowQps.emplace_back(qps.first, qps.second);
    }
    else
    {
        std::tie(iwarp, number) = IwarpConnection(src, dst, priority, slot);
    }
    return RecordAndStart(src,
                          dst,
                          verb,
                          bytes,
                          at,
                          priority,
                          m_nodes[m_hostNode[src]]->GetId(),
                          number,
                          done,
                          [qp, iwarp, verb, bytes](RdmaQueuePair::CompletionCallback onDone) {
                              if (qp)
                              {
                                  qp->Post(verb, bytes, onDone);
                              }
                              else
                              {
                                  iwarp->Post(verb, bytes, onDone);
                              }
                          });
}

std::vector<Ptr<PfcNetDevice>>
RoceHelper::PathDevices(uint32_t src, uint32_t dst) const
{
    const std::vector<uint32_t> dist = Distances(m_hostNode[dst]);
    std::vector<Ptr<PfcNetDevice>> path;
    uint32_t u = m_hostNode[src];
    NS_ABORT_MSG_IF(dist[u] == std::numeric_limits<uint32_t>::max(),
                    "RoceHelper: host " << dst << " is unreachable from host " << src);
    while (u != m_hostNode[dst])
    {
        for (const auto& e : m_adj[u])
        {
            if (dist[e.node] + 1 == dist[u])
            {
                path.push_back(e.device);
                u = e.node;
                break;
            }
        }
    }
    return path;
}

namespace
{

/// Sniffer sink: one pcap record per frame.
void
WritePcap(Ptr<PcapFileWrapper> file, Ptr<const Packet> frame)
{
    file->Write(Simulator::Now(), frame);
}

/// The hops of a path of ports, for StoreAndForward.
std::vector<PathHop>
Hops(const std::vector<Ptr<PfcNetDevice>>& path)
{
    std::vector<PathHop> hops;
    for (const auto& device : path)
    {
        Ptr<RoceSwitch> nextSwitch = device->GetPeer()->GetNode()->GetObject<RoceSwitch>();
        Time latency(0);
        if (nextSwitch)
        {
            TimeValue v;
            nextSwitch->GetAttribute("ForwardingLatency", v);
            latency = v.Get();
        }
        hops.push_back(PathHop{device->GetDataRate(), device->GetChannelDelay(), latency});
    }
    return hops;
}

/// StoreAndForward over a path of ports, of frames given without FCS (as the devices count).
Time
StoreAndForward(const std::vector<uint32_t>& frames, const std::vector<Ptr<PfcNetDevice>>& path)
{
    std::vector<uint32_t> wire(frames.size());
    std::transform(frames.begin(), frames.end(), wire.begin(), &PfcNetDevice::WireBytes);
    return ns3::StoreAndForward(wire, Hops(path));
}

} // namespace

Time
RoceHelper::IdealFct(uint32_t src, uint32_t dst, RdmaVerb verb, uint64_t bytes) const
{
    NS_ABORT_MSG_UNLESS(m_finalized, "RoceHelper::IdealFct before Finalize");
    if (m_transport == IWARP)
    {
        return IdealIwarpFct(src, dst, verb, bytes);
    }
    const uint32_t mtu = m_qpMtu;
    const uint32_t eth = PfcNetDevice::ETHERNET_HEADER;
    const uint32_t base = RdmaNic::ROCE_HEADERS + eth;
    const uint64_t packets = std::max<uint64_t>(1, (bytes + mtu - 1) / mtu);
    auto payload = [&](uint64_t k) {
        return static_cast<uint32_t>(std::min<uint64_t>(mtu, bytes - std::min(bytes, k * mtu)));
    };
    const std::vector<Ptr<PfcNetDevice>> forward = PathDevices(src, dst);
    const std::vector<Ptr<PfcNetDevice>> backward = PathDevices(dst, src);
    std::vector<uint32_t> frames;
    if (verb == RdmaVerb::READ)
    {
        const Time request = StoreAndForward({base + 16}, forward); // BTH + RETH
        for (uint64_t k = 0; k < packets; ++k)
        {
            const bool aeth = k == 0 || k + 1 == packets;
            frames.push_back(base + payload(k) + (aeth ? 4 : 0));
        }
        return request + StoreAndForward(frames, backward);
    }
    for (uint64_t k = 0; k < packets; ++k)
    {
        const bool reth = verb == RdmaVerb::WRITE && k == 0;
        frames.push_back(base + payload(k) + (reth ? 16 : 0));
    }
    return StoreAndForward(frames, forward) + StoreAndForward({base + 4}, backward); // ACK: AETH
}

Time
RoceHelper::IdealIwarpFct(uint32_t src, uint32_t dst, RdmaVerb verb, uint64_t bytes) const
{
    // One FPDU per TCP segment (markers off); IPv4 (20) and TCP with timestamps (32) around it.
    const uint32_t base = PfcNetDevice::ETHERNET_HEADER + 20 + 32;
    const uint32_t emss = m_iwarp.GetSegmentSize();
    const uint32_t header =
        verb == RdmaVerb::SEND ? IwarpDdpHeader::UNTAGGED_SIZE : IwarpDdpHeader::TAGGED_SIZE;
    const uint32_t data = IwarpMpa::Mulpdu(emss, false) - header;
    std::vector<uint32_t> frames;
    for (uint64_t sent = 0; sent < bytes; sent += data)
    {
        const uint32_t ulpdu =
            header + static_cast<uint32_t>(std::min<uint64_t>(data, bytes - sent));
        frames.push_back(base + IwarpMpa::OVERHEAD + ulpdu + IwarpMpa::PadLength(ulpdu));
    }
    const std::vector<Ptr<PfcNetDevice>> forward = PathDevices(src, dst);
    const std::vector<Ptr<PfcNetDevice>> backward = PathDevices(dst, src);
    if (verb == RdmaVerb::READ)
    {
        const uint32_t request = IwarpDdpHeader::UNTAGGED_SIZE + IwarpReadRequestHeader::SIZE;
        return StoreAndForward({base + IwarpMpa::OVERHEAD + request}, forward) +
               StoreAndForward(frames, backward);
    }
    return StoreAndForward(frames, forward) + StoreAndForward({base}, backward); // TCP ACK
}

void
RoceHelper::EnablePcapAll(const std::string& prefix)
{
    NS_ABORT_MSG_UNLESS(m_finalized, "RoceHelper::EnablePcapAll: call Finalize first");
    PcapHelper pcap;
    for (const auto& node : m_nodes)
    {
        for (uint32_t i = 0; i < node->GetNDevices(); ++i)
        {
            Ptr<PfcNetDevice> device = DynamicCast<PfcNetDevice>(node->GetDevice(i));
            if (!device)
            {
                continue;
            }
            // Nanosecond timestamps: at 100 Gb/s a frame takes tens of nanoseconds.
            Ptr<PcapFileWrapper> file = CreateObject<PcapFileWrapper>();
            file->SetAttribute("NanosecMode", BooleanValue(true));
            const std::string name = pcap.GetFilenameFromDevice(prefix, device);
            file->Open(name, std::ios::out);
            NS_ABORT_MSG_IF(file->Fail(), "RoceHelper::EnablePcapAll: cannot write " << name);
            file->Init(PcapHelper::DLT_EN10MB, 65535, 0);
            device->TraceConnectWithoutContext("Sniffer", MakeBoundCallback(&WritePcap, file));
        }
    }
    // Captures carry real ICRCs.
    for (auto& nic : m_nics)
    {
        nic->SetAttribute("ComputeIcrc", BooleanValue(true));
    }
}

bool
RoceHelper::WriteFlowsCsv(const std::string& path) const
{
    return ns3::WriteFlowsCsv(path, m_flows, GetWorkloadNames());
}

TransportStatistics
RoceHelper::CollectStatistics() const
{
    TransportStatistics st;
    for (const auto& sw : m_switches)
    {
        st.dropsBuffer += sw->GetDrops(RoceSwitch::DROP_BUFFER);
        for (uint8_t p = 0; p < PfcNetDevice::N_PRIORITIES; ++p)
        {
            st.dropsByPriority[p] += sw->GetDropsByPriority(p);
        }
        for (uint8_t p = 0; p < PfcNetDevice::N_PRIORITIES; ++p)
        {
            st.losslessPriorities |= sw->GetMmu()->IsLossless(p) ? (1u << p) : 0;
        }
        st.dropsNoRoute += sw->GetDrops(RoceSwitch::DROP_NO_ROUTE);
        st.dropsNotIpv4 += sw->GetDrops(RoceSwitch::DROP_NOT_IPV4);
        st.ecnMarks += sw->GetEcnMarks();
        st.headroomOverflows += sw->GetMmu()->GetHeadroomOverflows();
        st.peakBufferBytes = std::max(st.peakBufferBytes, sw->GetMmu()->GetPeakUsed());
    }
    for (const auto& adj : m_adj)
    {
        for (const auto& e : adj)
        {
            st.dropsLink += e.device->GetErrorModelDrops();
            st.packetHops += e.device->GetFramesSent();
            for (uint8_t p = 0; p < PfcNetDevice::N_PRIORITIES; ++p)
            {
                st.pfcSent += e.device->GetPfcFramesSent(p);
                st.pfcReceived += e.device->GetPfcFramesReceived(p);
                st.pausedTimeNs +=
                    static_cast<uint64_t>(e.device->GetEgressPausedTime(p).GetNanoSeconds());
            }
        }
    }
    for (const auto& nic : m_nics)
    {
        st.cnpsSent += nic->GetCnpsSent();
        st.dataFrames += nic->GetDataPacketsSent();
        for (uint32_t i = 0; i < nic->GetNQueuePairs(); ++i)
        {
            Ptr<RdmaQueuePair> qp = nic->GetQueuePair(0x100 + i);
            if (!qp)
            {
                continue; // reserved for two other ranks' hosts
            }
            st.cnpsReceived += qp->GetCnpsReceived();
            st.retransmitted += qp->GetRetransmittedPackets();
            st.timeouts += qp->GetTimeouts();
            st.naks += qp->GetNaksReceived();
            st.bytesDelivered += qp->GetBytesDelivered();
        }
    }
    for (const auto& s : m_iwarpSockets)
    {
        st.dataFrames += s->GetFpdusSent();
    }
    for (const auto& listener : m_iwarp.GetListeners())
    {
        for (const auto& s : listener->GetSockets())
        {
            // Responders: WRITE and SEND bytes placed; READ bytes are counted at completion.
            st.dataFrames += s->GetFpdusSent();
            st.bytesDelivered += s->GetBytesPlaced();
        }
    }
    CountMessages(st);
    return st;
}

void
RoceHelper::DoTraceCongestionState()
{
    if (m_transport == IWARP)
    {
        for (uint32_t c = 0; c < m_iwarpSockets.size(); ++c)
        {
            TraceIwarpWindow(c);
        }
        return;
    }
    for (uint32_t h = 0; h < m_nics.size(); ++h)
    {
        if (IsLocalHost(h))
        {
            TraceAdapterCongestionState(h, m_nics[h]);
        }
    }
}

void
RoceHelper::TraceIwarpWindow(uint32_t connection)
{
    const uint32_t host = m_iwarpSources[connection];
    if (!IsLocalHost(host))
    {
        return;
    }
    const RoceHelper* self = this;
    m_iwarpSockets[connection]->GetTcpSocket()->TraceConnectWithoutContext(
        "CongestionWindow",
        Callback<void, uint32_t, uint32_t>([self, host, connection](uint32_t, uint32_t window) {
            self->ReportCongestionState(
                CongestionState{host, connection, DataRate(0), window, Time(0)});
        }));
}

int64_t
RoceHelper::AssignStreams(int64_t stream)
{
    int64_t used = 0;
    for (auto& sw : m_switches)
    {
        used += sw->AssignStreams(stream + used);
    }
    return used;
}

void
RoceHelper::WriteOutputs(const std::string& dir, const RunRecord& record) const
{
    std::string error;
    if (!CreateOutputDirectory(dir, &error))
    {
        InterconnectOutputError(dir, error);
    }
    if (!WriteFlowsCsv(dir + "/flows.csv"))
    {
        InterconnectOutputError(dir + "/flows.csv", "the file could not be written");
    }
    if (!CollectStatistics().WriteJson(dir + "/summary.json", Simulator::GetEventCount()))
    {
        InterconnectOutputError(dir + "/summary.json", "the file could not be written");
    }
    record.Write(dir + "/config.json");
}

NodeContainer
RoceHelper::GetHosts() const
{
    NodeContainer c;
    for (uint32_t h : m_hostNode)
    {
        c.Add(m_nodes[h]);
    }
    return c;
}

NodeContainer
RoceHelper::GetSwitches() const
{
    NodeContainer c;
    for (uint32_t s : m_switchNode)
    {
        c.Add(m_nodes[s]);
    }
    return c;
}

Ptr<RdmaNic>
RoceHelper::GetNic(uint32_t host) const
{
    return m_nics.at(host);
}

uint32_t
RoceHelper::GetQueuePairMtu() const
{
    return m_qpMtu;
}

uint64_t
RoceHelper::WireBytes(RdmaVerb verb, uint64_t bytes) const
{
    NS_ABORT_MSG_UNLESS(m_finalized, "RoceHelper::WireBytes before Finalize");
    if (m_transport == IWARP)
    {
        // One FPDU a segment: MPA (6) and DDP around the data, TCP (32) and IPv4 (20) around it.
        const uint32_t header =
            verb == RdmaVerb::SEND ? IwarpDdpHeader::UNTAGGED_SIZE : IwarpDdpHeader::TAGGED_SIZE;
        const uint32_t data = IwarpMpa::Mulpdu(m_iwarp.GetSegmentSize(), false) - header;
        const uint32_t base = PfcNetDevice::ETHERNET_HEADER + 52 + IwarpMpa::OVERHEAD + header;
        uint64_t wire = 0;
        for (uint64_t sent = 0; sent < bytes || sent == 0; sent += data)
        {
            const uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(data, bytes - sent));
            wire += PfcNetDevice::WireBytes(base + n + IwarpMpa::PadLength(header + n));
            if (bytes == 0)
            {
                break;
            }
        }
        return wire;
    }
    const uint32_t base = RdmaNic::ROCE_HEADERS + PfcNetDevice::ETHERNET_HEADER;
    const uint64_t full = bytes / m_qpMtu;
    const uint32_t rest = static_cast<uint32_t>(bytes % m_qpMtu);
    uint64_t wire = full * PfcNetDevice::WireBytes(base + m_qpMtu);
    if (rest > 0 || full == 0)
    {
        wire += PfcNetDevice::WireBytes(base + rest);
    }
    return wire + (verb == RdmaVerb::WRITE ? 16 : 0); // the RETH of the first frame
}

DataRate
RoceHelper::GetHostRate(uint32_t host) const
{
    return m_nics.at(host)->GetDevice()->GetDataRate();
}

DataRate
RoceHelper::GetHostSendRate(uint32_t host) const
{
    DataRateValue read;
    m_nics.at(host)->GetAttribute("HostReadRate", read);
    const DataRate line = GetHostRate(host);
    return read.Get().GetBitRate() > 0 && read.Get() < line ? read.Get() : line;
}

Ipv4Address
RoceHelper::GetAddress(uint32_t host) const
{
    return m_addresses.at(host);
}

Ptr<RoceSwitch>
RoceHelper::GetSwitch(uint32_t index) const
{
    return m_switches.at(index);
}

Fabric
RoceHelper::Build(const FabricHelper& helper)
{
    NS_LOG_FUNCTION(this);
    Fabric fabric = helper.Describe();
    NS_ABORT_MSG_IF(GetHosts().GetN() != 0 || GetSwitches().GetN() != 0,
                    "RoceHelper::Build(" << fabric.GetKind()
                                         << "): give it a RoceHelper without hosts or switches");
    const std::vector<uint32_t>& rank = fabric.GetPartition().rank;
    for (uint32_t v = 0; v < fabric.GetNodes().size(); ++v)
    {
        fabric.BindNode(v,
                        fabric.GetNode(v).kind == FabricNodeKind::HOST ? AddHost(rank[v])
                                                                       : AddSwitch(rank[v]));
    }
    // Priorities the routing moves traffic to must be lossless too.
    uint32_t extraLossless = 0;
    for (const FabricPriorityRemap& rule : fabric.GetPriorityRemaps())
    {
        extraLossless |= 1u << rule.toPriority;
    }
    for (uint32_t s = 0; extraLossless != 0 && s < fabric.GetNSwitches(); ++s)
    {
        Ptr<RoceSwitchMmu> mmu = GetSwitch(s)->GetMmu();
        UintegerValue mask;
        mmu->GetAttribute("LosslessPriorities", mask);
        mmu->SetAttribute("LosslessPriorities", UintegerValue(mask.Get() | extraLossless));
    }
    for (uint32_t l = 0; l < fabric.GetLinks().size(); ++l)
    {
        const FabricLink& link = fabric.GetLinks()[l];
        auto devices =
            Link(fabric.GetNode(link.a).node, fabric.GetNode(link.b).node, link.rate, link.delay);
        fabric.BindLink(l, devices.first, devices.second);
    }
    Finalize(helper.GetInternetStack(), false);
    std::vector<uint32_t> ports;
    for (uint32_t s = 0; s < fabric.GetNSwitches(); ++s)
    {
        Ptr<RoceSwitch> sw = GetSwitch(s);
        const uint32_t node = fabric.GetSwitchNodeId(s);
        if (rank[node] != GetLocalRank())
        {
            continue; // another rank's switch: no routing table here
        }
        // Ports are numbered in link order on both sides.
        NS_ASSERT(sw->GetNPorts() == fabric.GetNodeLinks(node).size());
        for (uint32_t h = 0; h < fabric.GetNHosts(); ++h)
        {
            ports.clear();
            for (uint32_t l : fabric.GetRoute(s, h))
            {
                ports.push_back(fabric.GetPort(l, node));
            }
            if (!ports.empty())
            {
                sw->SetRoute(GetAddress(h), ports);
            }
        }
    }
    for (const FabricPriorityRemap& rule : fabric.GetPriorityRemaps())
    {
        Ptr<RoceSwitch> sw = GetSwitch(fabric.GetNode(rule.node).index);
        sw->SetPriorityRemap(fabric.GetPort(rule.inLink, rule.node),
                             fabric.GetPort(rule.outLink, rule.node),
                             rule.fromPriority,
                             rule.toPriority);
    }
    return fabric;
}

} // namespace ns3
