/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-subnet-helper.h"

#include "ns3/deadlock-check.h"
#include "ns3/enum.h"
#include "ns3/ib-channel.h"
#include "ns3/ib-remote-channel.h"
#include "ns3/interconnect-config-error.h"
#include "ns3/node.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <map>
#include <set>

namespace ns3
{

bool
IbCreditLoopCheck::IsDeadlockFree() const
{
    return cycles.empty() && unrouted == 0;
}

IbCreditLoopCheck
IbCreditLoopCheck::Run(const std::vector<Ptr<IbHostAdapter>>& adapters,
                       const std::vector<Ptr<IbSwitch>>& switches,
                       const std::vector<uint8_t>& sls)
{
    return RunWithSls(adapters, switches, [&sls](uint32_t, uint32_t) { return sls; });
}

IbCreditLoopCheck
IbCreditLoopCheck::Run(const IbSubnet& subnet, uint8_t qos)
{
    return RunWithSls(subnet.adapters, subnet.switches, [&subnet, qos](uint32_t src, uint32_t dst) {
        return std::vector<uint8_t>{subnet.GetPathSl(src, dst, qos)};
    });
}

IbCreditLoopCheck
IbCreditLoopCheck::RunWithSls(const std::vector<Ptr<IbHostAdapter>>& adapters,
                              const std::vector<Ptr<IbSwitch>>& switches,
                              const std::function<std::vector<uint8_t>(uint32_t, uint32_t)>& slsOf)
{
    IbCreditLoopCheck check;
    // Where each port is: the switch and port number, if a switch owns it.
    std::map<const IbNetDevice*, std::pair<Ptr<IbSwitch>, uint32_t>> switchPort;
    for (const auto& sw : switches)
    {
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            switchPort[PeekPointer(sw->GetPort(p))] = {sw, p};
        }
    }
    std::map<std::pair<const IbNetDevice*, uint8_t>, uint32_t> channelOf; // (sender, VL)
    std::vector<std::string> name;
    auto channel = [&](Ptr<IbNetDevice> dev, uint8_t vl) {
        const auto key = std::make_pair(PeekPointer(dev), vl);
        auto it = channelOf.find(key);
        if (it != channelOf.end())
        {
            return it->second;
        }
        Ptr<IbChannel> link = DynamicCast<IbChannel>(dev->GetChannel());
        Ptr<IbNetDevice> peer = link->GetPeer(dev);
        const uint32_t id = static_cast<uint32_t>(name.size());
        name.push_back("node " + std::to_string(dev->GetNode()->GetId()) + "->node " +
                       std::to_string(peer->GetNode()->GetId()) + " vl " + std::to_string(vl));
        channelOf.emplace(key, id);
        return id;
    };
    std::set<std::pair<uint32_t, uint32_t>> edges;
    for (uint32_t s = 0; s < adapters.size(); ++s)
    {
        const Ptr<IbHostAdapter>& src = adapters[s];
        for (uint32_t t = 0; t < adapters.size(); ++t)
        {
            const Ptr<IbHostAdapter>& dst = adapters[t];
            if (src == dst)
            {
                continue;
            }
            const std::vector<uint8_t> sls = slsOf(s, t);
            for (uint32_t path = 0; path < (1u << dst->GetLmc()); ++path)
            {
                const uint16_t dlid = static_cast<uint16_t>(dst->GetLid() + path);
                for (uint8_t sl : sls)
                {
                    Ptr<IbNetDevice> dev = src->GetDevice();
                    uint32_t previous = channel(dev, dev->GetVlOfSl(sl));
                    std::set<uint32_t> seen{previous};
                    while (true)
                    {
                        Ptr<IbNetDevice> peer =
                            DynamicCast<IbChannel>(dev->GetChannel())->GetPeer(dev);
                        auto at = switchPort.find(PeekPointer(peer));
                        if (at == switchPort.end())
                        {
                            // A host: the route ends (at the right one, or it is unrouted).
                            check.unrouted += peer != dst->GetDevice() ? 1 : 0;
                            break;
                        }
                        const uint32_t out = at->second.first->GetLft(dlid);
                        if (out == IbSwitch::NO_PORT)
                        {
                            ++check.unrouted;
                            break;
                        }
                        dev = at->second.first->GetPort(out);
                        const uint32_t next = channel(dev, dev->GetVlOfSl(sl));
                        edges.insert({previous, next});
                        if (!seen.insert(next).second)
                        {
                            ++check.unrouted; // a forwarding loop: the packet never arrives
                            break;
                        }
                        previous = next;
                    }
                }
            }
        }
    }
    check.channels = static_cast<uint32_t>(name.size());
    check.dependencies = static_cast<uint32_t>(edges.size());
    const std::vector<std::pair<uint32_t, uint32_t>> list(edges.begin(), edges.end());
    for (const auto& cycle : DeadlockCheck::ShortestCycles(check.channels, list))
    {
        std::vector<std::string> named;
        for (uint32_t c : cycle)
        {
            named.push_back(name[c]);
        }
        check.cycles.push_back(named);
    }
    return check;
}

uint8_t
IbSubnet::GetPathSl(uint32_t src, uint32_t dst, uint8_t qos) const
{
    if (!datelines)
    {
        return qos;
    }
    NS_ABORT_MSG_IF(qos > 1,
                    "IbSubnet::GetPathSl: QoS class " << +qos
                                                      << " on a torus (0 or 1: SL bits 0-2 carry "
                                                         "the dateline crossings)");
    // The dimensions whose wrap-around link the path takes (torus-2QoS's encoding).
    uint8_t sl = static_cast<uint8_t>(qos << 3);
    const std::vector<uint32_t> nodes = TracePath(src, dst);
    for (std::size_t i = 0; i + 1 < nodes.size(); ++i)
    {
        for (uint32_t l : fabric.GetNodeLinks(nodes[i]))
        {
            const FabricLink& link = fabric.GetLink(l);
            if (fabric.GetPeer(l, nodes[i]) == nodes[i + 1] && link.wrapAround)
            {
                sl |= static_cast<uint8_t>(1u << link.dimension);
            }
        }
    }
    return sl;
}

std::vector<uint32_t>
IbSubnet::TracePath(uint32_t src, uint32_t dst) const
{
    const uint16_t dlid = GetLid(dst);
    std::vector<uint32_t> nodes{fabric.GetHostNodeId(src)};
    uint32_t at = fabric.GetPeer(fabric.GetHostLink(src), nodes.back());
    while (nodes.size() <= fabric.GetNodes().size())
    {
        nodes.push_back(at);
        const FabricNode& n = fabric.GetNode(at);
        if (n.kind == FabricNodeKind::HOST)
        {
            return at == fabric.GetHostNodeId(dst) ? nodes : std::vector<uint32_t>{};
        }
        const uint32_t port = switches[n.index]->GetLft(dlid);
        if (port == IbSwitch::NO_PORT)
        {
            return {};
        }
        at = fabric.GetPeer(fabric.GetNodeLinks(at).at(port), at); // ports in link order
    }
    return {}; // a forwarding loop
}

uint16_t
IbSubnet::GetLid(uint32_t host) const
{
    return adapters.at(host)->GetLid();
}

uint16_t
IbSubnet::GetLid(uint32_t host, uint32_t path) const
{
    const Ptr<IbHostAdapter> a = adapters.at(host);
    NS_ABORT_MSG_IF(path >= (1u << a->GetLmc()),
                    "IbSubnet::GetLid: path " << path << " of " << (1u << a->GetLmc()));
    return static_cast<uint16_t>(a->GetLid() + path);
}

IbSubnetHelper::IbSubnetHelper()
    : m_lmc(0),
      m_ratesFromFabric(false),
      m_routing(AUTO)
{
    m_device.SetTypeId(IbNetDevice::GetTypeId());
    m_switch.SetTypeId(IbSwitch::GetTypeId());
}

void
IbSubnetHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_device.Set(name, value);
}

void
IbSubnetHelper::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    m_switch.Set(name, value);
}

void
IbSubnetHelper::SetLmc(uint8_t lmc)
{
    if (lmc > 7)
    {
        InterconnectConfigError("IbSubnetHelper LMC", std::to_string(lmc), "0..7");
    }
    m_lmc = lmc;
}

void
IbSubnetHelper::SetLinkRatesFromFabric(bool enable)
{
    m_ratesFromFabric = enable;
}

void
IbSubnetHelper::SetRouting(Routing routing)
{
    m_routing = routing;
}

namespace
{

/// The speed and width of an IB link of a data rate; a configuration error if none has it.
std::pair<IbNetDevice::Speed, uint32_t>
SpeedAndWidth(DataRate rate)
{
    static const char* names[] = {"SDR", "DDR", "QDR", "FDR10", "FDR", "EDR", "HDR", "NDR", "XDR"};
    std::string known;
    for (uint32_t width : {4u, 1u, 2u, 8u, 12u})
    {
        for (int s = IbNetDevice::SDR; s <= IbNetDevice::XDR; ++s)
        {
            const auto speed = static_cast<IbNetDevice::Speed>(s);
            const DataRate r = IbNetDevice::LinkRate(speed, width);
            if (r == rate)
            {
                return {speed, width};
            }
            if (width == 4)
            {
                known += (known.empty() ? "" : ", ") + std::to_string(r.GetBitRate()) + "bps (" +
                         names[s] + " 4x)";
            }
        }
    }
    InterconnectConfigError("link rate",
                            std::to_string(rate.GetBitRate()) + "bps",
                            "the data rate of an InfiniBand link of 1, 2, 4, 8 or 12 lanes: " +
                                known + ", or a multiple of a lane's");
}

/**
 * Up/down routes (OpenSM's updn engine) on any fabric: per destination host, per switch, the
 * links it may forward on (an equal-cost group).
 */
std::vector<std::vector<std::vector<uint32_t>>>
UpDownRoutes(const Fabric& f)
{
    const uint32_t nodes = static_cast<uint32_t>(f.GetNodes().size());
    constexpr uint32_t FAR = std::numeric_limits<uint32_t>::max();
    auto isHost = [&f](uint32_t v) { return f.GetNode(v).kind == FabricNodeKind::HOST; };
    // Roots: the switches farthest from every host (hop distance to the nearest host).
    std::vector<uint32_t> toHost(nodes, FAR);
    std::deque<uint32_t> queue;
    for (uint32_t h = 0; h < f.GetNHosts(); ++h)
    {
        toHost[f.GetHostNodeId(h)] = 0;
        queue.push_back(f.GetHostNodeId(h));
    }
    while (!queue.empty())
    {
        const uint32_t v = queue.front();
        queue.pop_front();
        for (uint32_t l : f.GetNodeLinks(v))
        {
            const uint32_t w = f.GetPeer(l, v);
            if (toHost[w] == FAR)
            {
                toHost[w] = toHost[v] + 1;
                queue.push_back(w);
            }
        }
    }
    uint32_t height = 0;
    for (uint32_t sw = 0; sw < f.GetNSwitches(); ++sw)
    {
        height = std::max(height, toHost[f.GetSwitchNodeId(sw)]);
    }
    std::vector<uint32_t> rank(nodes, FAR); // hosts keep FAR: below every switch
    for (uint32_t sw = 0; sw < f.GetNSwitches(); ++sw)
    {
        const uint32_t v = f.GetSwitchNodeId(sw);
        if (toHost[v] == height)
        {
            rank[v] = 0;
            queue.push_back(v);
        }
    }
    if (queue.size() == f.GetNSwitches() && f.GetNSwitches() > 1)
    {
        // All equally far (a torus): one root, switch 0.
        std::fill(rank.begin(), rank.end(), FAR);
        queue.assign(1, f.GetSwitchNodeId(0));
        rank[queue.front()] = 0;
    }
    while (!queue.empty())
    {
        const uint32_t v = queue.front();
        queue.pop_front();
        for (uint32_t l : f.GetNodeLinks(v))
        {
            const uint32_t w = f.GetPeer(l, v);
            if (!isHost(w) && rank[w] == FAR)
            {
                rank[w] = rank[v] + 1;
                queue.push_back(w);
            }
        }
    }
    // A hop v -> w is up when w is nearer the roots: lower (rank, node id).
    auto up = [&rank](uint32_t v, uint32_t w) {
        return std::make_pair(rank[w], w) < std::make_pair(rank[v], v);
    };
    std::vector<uint32_t> order; // switches, roots first
    for (uint32_t sw = 0; sw < f.GetNSwitches(); ++sw)
    {
        order.push_back(f.GetSwitchNodeId(sw));
    }
    std::sort(order.begin(), order.end(), [&rank](uint32_t a, uint32_t b) {
        return std::make_pair(rank[a], a) < std::make_pair(rank[b], b);
    });
    std::vector<std::vector<std::vector<uint32_t>>> routes(
        f.GetNHosts(),
        std::vector<std::vector<uint32_t>>(f.GetNSwitches()));
    for (uint32_t h = 0; h < f.GetNHosts(); ++h)
    {
        const uint32_t dst = f.GetHostNodeId(h);
        // Down-only distances to the destination, by a search backwards along down hops.
        std::vector<uint32_t> down(nodes, FAR);
        down[dst] = 0;
        queue.assign(1, dst);
        while (!queue.empty())
        {
            const uint32_t x = queue.front();
            queue.pop_front();
            for (uint32_t l : f.GetNodeLinks(x))
            {
                const uint32_t u = f.GetPeer(l, x);
                if (!isHost(u) && down[u] == FAR && !up(u, x))
                {
                    down[u] = down[x] + 1;
                    queue.push_back(u);
                }
            }
        }
        // Legal distances: down-only where possible, else up to the nearest legal path; up hops
        // lead to lower (rank, id), so roots-first order has every up neighbour done before.
        std::vector<uint32_t> legal(nodes, FAR);
        for (uint32_t v : order)
        {
            if (down[v] != FAR)
            {
                legal[v] = down[v];
                continue;
            }
            for (uint32_t l : f.GetNodeLinks(v))
            {
                const uint32_t w = f.GetPeer(l, v);
                if (!isHost(w) && up(v, w) && legal[w] != FAR)
                {
                    legal[v] = std::min(legal[v], legal[w] + 1);
                }
            }
        }
        for (uint32_t sw = 0; sw < f.GetNSwitches(); ++sw)
        {
            const uint32_t v = f.GetSwitchNodeId(sw);
            for (uint32_t l : f.GetNodeLinks(v))
            {
                const uint32_t w = f.GetPeer(l, v);
                const bool next =
                    down[v] != FAR
                        ? !up(v, w) && down[w] != FAR && down[w] + 1 == down[v]
                        : !isHost(w) && up(v, w) && legal[w] != FAR && legal[w] + 1 == legal[v];
                if (next)
                {
                    routes[h][sw].push_back(l);
                }
            }
        }
    }
    return routes;
}

} // namespace

void
IbSubnetHelper::SetLayerLinkDeviceAttribute(const std::string& layer,
                                            const std::string& name,
                                            const AttributeValue& value)
{
    m_layerLinks.emplace_back(layer, name, value.Copy());
}

IbSubnet
IbSubnetHelper::Build(const FabricHelper& helper) const
{
    IbSubnet s;
    s.fabric = helper.Describe();
    const Fabric& f = s.fabric;
    // A torus routed in dimension order with datelines: VLs by the crossings in the path SL.
    s.datelines =
        m_routing == AUTO && f.GetKind().rfind("torus", 0) == 0 && !f.GetPriorityRemaps().empty();
    const uint32_t hosts = f.GetNHosts();
    if (uint64_t(hosts + 1) << m_lmc >= 0xC000)
    {
        InterconnectConfigError("IbSubnetHelper fabric",
                                std::to_string(hosts) + " hosts with LMC " + std::to_string(m_lmc),
                                "LIDs below 0xC000 (the unicast range)");
    }
    // Nodes and their ports.
    std::vector<Ptr<Node>> node(f.GetNodes().size());
    const std::vector<uint32_t>& rank = f.GetPartition().rank;
    for (uint32_t v = 0; v < f.GetNodes().size(); ++v)
    {
        node[v] = CreateObject<Node>(rank[v]);
        const FabricNode& fn = f.GetNode(v);
        if (fn.kind == FabricNodeKind::HOST)
        {
            s.hostNodes.push_back(node[v]);
        }
        else
        {
            Ptr<IbSwitch> sw = m_switch.Create<IbSwitch>();
            node[v]->AggregateObject(sw);
            s.switchNodes.push_back(node[v]);
            s.switches.push_back(sw);
        }
    }
    std::vector<std::vector<Ptr<IbNetDevice>>> portsOf(f.GetNodes().size());
    for (const FabricLink& l : f.GetLinks())
    {
        const bool acrossRanks = rank[l.a] != rank[l.b];
        Ptr<IbChannel> channel;
        if (acrossRanks)
        {
#ifdef NS3_MPI
            channel = CreateObject<IbRemoteChannel>();
#else
            NS_ABORT_MSG("IbSubnetHelper: " << f.GetNode(l.a).name << " and " << f.GetNode(l.b).name
                                            << " are on different ranks, but this ns-3 has no MPI "
                                               "(build one with ./interconnect setup-mpi)");
#endif
        }
        else
        {
            channel = CreateObject<IbChannel>();
        }
        channel->SetAttribute("Delay", TimeValue(l.delay));
        for (uint32_t end : {l.a, l.b})
        {
            Ptr<IbNetDevice> d = m_device.Create<IbNetDevice>();
            for (const auto& [layer, name, value] : m_layerLinks)
            {
                if (f.GetNode(l.a).layer == layer && f.GetNode(l.b).layer == layer)
                {
                    d->SetAttribute(name, *value);
                }
            }
            if (m_ratesFromFabric)
            {
                const auto [speed, width] = SpeedAndWidth(l.rate);
                d->SetAttribute("Speed", EnumValue(speed));
                d->SetAttribute("Width", UintegerValue(width));
            }
            if (s.datelines)
            {
                // torus-2QoS's SL-to-VL rule, by the dimension the port's link runs in: VL bit 0
                // is the SL bit of that dimension (the path crosses its dateline), VL bit 1 the
                // QoS class (SL bit 3); host links carry the QoS class only.
                UintegerValue vls;
                d->GetAttribute("DataVls", vls);
                if (vls.Get() < 4)
                {
                    InterconnectConfigError("ns3::IbNetDevice::DataVls",
                                            std::to_string(vls.Get()),
                                            "at least 4 on a torus (2 VLs for the datelines "
                                            "times 2 QoS classes)");
                }
                std::string map;
                for (uint32_t sl = 0; sl < 16; ++sl)
                {
                    const uint32_t crossing = l.dimension >= 0 ? (sl >> l.dimension) & 1 : 0;
                    map += (sl ? "," : "") + std::to_string(2 * ((sl >> 3) & 1) + crossing);
                }
                d->SetAttribute("SlToVl", StringValue(map));
            }
            node[end]->AddDevice(d);
            d->Attach(channel);
#ifdef NS3_MPI
            if (acrossRanks)
            {
                IbRemoteChannel::ConnectReceiver(d);
            }
#endif
            portsOf[end].push_back(d); // port numbers in link order, as the Fabric's
            s.ports.push_back(d);
        }
    }
    // The subnet manager: LIDs, then the forwarding tables.
    s.adapters.resize(hosts);
    for (uint32_t h = 0; h < hosts; ++h)
    {
        const uint32_t v = f.GetHostNodeId(h);
        Ptr<IbHostAdapter> adapter = CreateObject<IbHostAdapter>();
        node[v]->AggregateObject(adapter);
        adapter->Install(portsOf[v].at(0), static_cast<uint16_t>((h + 1) << m_lmc));
        adapter->SetLmc(m_lmc);
        s.adapters[h] = adapter;
    }
    const std::vector<std::vector<std::vector<uint32_t>>> upDown =
        m_routing == UP_DOWN ? UpDownRoutes(f) : std::vector<std::vector<std::vector<uint32_t>>>{};
    for (uint32_t sw = 0; sw < f.GetNSwitches(); ++sw)
    {
        const uint32_t v = f.GetSwitchNodeId(sw);
        for (const auto& port : portsOf[v])
        {
            s.switches[sw]->AddPort(port);
        }
        for (uint32_t h = 0; h < hosts; ++h)
        {
            const std::vector<uint32_t> links =
                m_routing == UP_DOWN ? upDown[h][sw] : f.GetRoute(sw, h);
            if (links.empty())
            {
                continue;
            }
            for (uint32_t path = 0; path < (1u << m_lmc); ++path)
            {
                // Path p of a destination: member (base LID / 2^LMC + p) of each group, so
                // destinations still spread over the members and a destination's paths differ.
                const uint16_t dlid = static_cast<uint16_t>(((h + 1) << m_lmc) + path);
                const uint32_t link = links[((h + 1) + path) % links.size()];
                s.switches[sw]->SetLft(dlid, f.GetPort(link, v));
            }
        }
    }
    return s;
}

} // namespace ns3
