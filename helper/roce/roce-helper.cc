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
      m_internetStack(false)
{
    m_deviceFactory.SetTypeId("ns3::PfcNetDevice");
    m_channelFactory.SetTypeId("ns3::PfcChannel");
    m_switchFactory.SetTypeId("ns3::RoceSwitch");
    m_mmuFactory.SetTypeId("ns3::RoceSwitchMmu");
    m_nicFactory.SetTypeId("ns3::RdmaNic");
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
RoceHelper::SetLayerMmuAttribute(const std::string& layer,
                                 const std::string& name,
                                 const AttributeValue& value)
{
    m_layerMmu.emplace_back(layer, name, value.Copy());
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

void
RoceHelper::SetInternetStack(bool enable)
{
    NS_ABORT_MSG_IF(m_finalized, "RoceHelper::SetInternetStack after Finalize");
    m_internetStack = enable;
}

bool
RoceHelper::GetInternetStack() const
{
    return m_internetStack;
}

uint32_t
RoceHelper::GetNHosts() const
{
    return static_cast<uint32_t>(m_hostNode.size());
}

Ptr<Node>
RoceHelper::GetHost(uint32_t host) const
{
    return m_nodes.at(m_hostNode.at(host));
}

bool
RoceHelper::IsFinalized() const
{
    return m_finalized;
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
    internetStack = internetStack || m_internetStack;
    m_internetStack = internetStack;
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

} // namespace

Time
RoceHelper::StoreAndForward(const std::vector<uint32_t>& frames,
                            const std::vector<Ptr<PfcNetDevice>>& path)
{
    std::vector<uint32_t> wire(frames.size());
    std::transform(frames.begin(), frames.end(), wire.begin(), &PfcNetDevice::WireBytes);
    return ns3::StoreAndForward(wire, Hops(path));
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

TransportStatistics
RoceHelper::CollectFabricStatistics() const
{
    TransportStatistics st;
    for (const auto& sw : m_switches)
    {
        st.dropsBuffer += sw->GetDrops(RoceSwitch::DROP_BUFFER);
        st.trimmed += sw->GetTrimmed();
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
        st.peakHeadroomBytes = std::max(st.peakHeadroomBytes, sw->GetMmu()->GetPeakHeadroom());
        st.peakHeadroomPermille =
            std::max(st.peakHeadroomPermille,
                     static_cast<uint64_t>(sw->GetMmu()->GetPeakHeadroomPercent() * 10));
    }
    for (const auto& adj : m_adj)
    {
        for (const auto& e : adj)
        {
            st.dropsLink += e.device->GetErrorModelDrops();
            st.packetHops += e.device->GetFramesSent();
            st.watchdogTrips += e.device->GetWatchdogTrips();
            st.dropsWatchdog += e.device->GetWatchdogDrops();
            bool paused = false;
            for (uint8_t p = 0; p < PfcNetDevice::N_PRIORITIES; ++p)
            {
                st.pfcSent += e.device->GetPfcFramesSent(p);
                st.pfcReceived += e.device->GetPfcFramesReceived(p);
                const Time time = e.device->GetEgressPausedTime(p);
                st.pausedTimeNs += static_cast<uint64_t>(time.GetNanoSeconds());
                paused = paused || time.IsStrictlyPositive();
            }
            st.pausedPorts += paused ? 1 : 0;
        }
    }
    return st;
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
    for (const auto& [layer, name, value] : m_layerMmu)
    {
        for (uint32_t s = 0; s < fabric.GetNSwitches(); ++s)
        {
            if (fabric.GetNode(fabric.GetSwitchNodeId(s)).layer == layer)
            {
                GetSwitch(s)->GetMmu()->SetAttribute(name, *value);
            }
        }
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
