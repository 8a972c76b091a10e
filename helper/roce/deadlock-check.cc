/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "deadlock-check.h"

#include "ns3/fabric.h"
#include "ns3/log.h"
#include "ns3/pfc-net-device.h"
#include "ns3/rdma-nic.h"
#include "ns3/roce-switch.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/filtered_graph.hpp>
#include <boost/graph/strong_components.hpp>
#include <limits>
#include <sstream>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DeadlockCheck");

namespace
{

constexpr uint32_t NONE = std::numeric_limits<uint32_t>::max();
constexpr uint32_t N_PRIO = PfcNetDevice::N_PRIORITIES;

/// The channel-dependency graph: vertex = lossless channel, edge = dependency.
typedef boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS> DependencyGraph;
typedef boost::graph_traits<DependencyGraph>::vertex_descriptor DependencyVertex;

/// Keeps the vertices of one strongly connected component.
struct InComponent
{
    const std::vector<uint32_t>* component; //!< component of every vertex
    uint32_t which;                         //!< the one kept

    /// @return true for a vertex of the component
    bool operator()(DependencyVertex v) const
    {
        return (*component)[v] == which;
    }
};

/// One switch of the network, indexed.
struct SwitchEntry
{
    Ptr<Node> node;     //!< its node
    Ptr<RoceSwitch> sw; //!< its switch
    uint32_t base;      //!< global index of its port 0
    uint8_t lossless;   //!< lossless priorities, bit i = priority i
};

} // namespace

DeadlockCheck::DeadlockCheck()
    : m_namer([](Ptr<Node> n) { return "node " + std::to_string(n->GetId()); }),
      m_channelsPer(N_PRIO, 0),
      m_channels(0),
      m_dependencies(0),
      m_noRoute(0),
      m_ran(false)
{
}

void
DeadlockCheck::SetNodeNamer(NodeNamer namer)
{
    m_namer = namer;
}

void
DeadlockCheck::Run(const NodeContainer& nodes)
{
    NS_LOG_FUNCTION(this << nodes.GetN());
    m_cycles.clear();
    m_channelsPer.assign(N_PRIO, 0);
    m_channels = 0;
    m_dependencies = 0;
    m_noRoute = 0;
    m_ran = true;

    // 1. Index the network: switch ports get global numbers; every port knows its peer.
    std::vector<SwitchEntry> switches;
    std::vector<Ptr<RdmaNic>> nics;
    std::vector<Ptr<Node>> hostNodes;
    std::unordered_map<const NetDevice*, uint32_t> portOfDevice; // switch port -> global index
    std::vector<uint32_t> ownerOf;                               // global port -> switch
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        if (Ptr<RoceSwitch> sw = (*it)->GetObject<RoceSwitch>())
        {
            SwitchEntry e{*it, sw, static_cast<uint32_t>(ownerOf.size()), 0};
            for (uint8_t p = 0; p < N_PRIO; ++p)
            {
                e.lossless |= sw->GetMmu()->IsLossless(p) ? (1u << p) : 0u;
            }
            for (uint32_t i = 0; i < sw->GetNPorts(); ++i)
            {
                portOfDevice[PeekPointer(sw->GetPort(i))] = e.base + i;
                ownerOf.push_back(static_cast<uint32_t>(switches.size()));
            }
            switches.push_back(e);
        }
        else if (Ptr<RdmaNic> nic = (*it)->GetObject<RdmaNic>())
        {
            nics.push_back(nic);
            hostNodes.push_back(*it);
        }
    }
    const uint32_t nPorts = static_cast<uint32_t>(ownerOf.size());
    std::vector<uint32_t> peerPort(nPorts, NONE); // the switch port at the other end
    std::vector<Ptr<Node>> peerNode(nPorts);      // the node at the other end
    for (uint32_t g = 0; g < nPorts; ++g)
    {
        const SwitchEntry& s = switches[ownerOf[g]];
        Ptr<PfcNetDevice> peer = s.sw->GetPort(g - s.base)->GetPeer();
        if (peer)
        {
            peerNode[g] = peer->GetNode();
            auto found = portOfDevice.find(PeekPointer(peer));
            peerPort[g] = found == portOfDevice.end() ? NONE : found->second;
        }
    }
    std::vector<uint32_t> attach(nics.size(), NONE); // host -> the switch port it sends into
    std::vector<uint8_t> injected(nics.size(), 0);   // host -> priorities it sends on
    for (std::size_t h = 0; h < nics.size(); ++h)
    {
        Ptr<PfcNetDevice> device = nics[h]->GetDevice();
        Ptr<PfcNetDevice> peer = device ? device->GetPeer() : nullptr;
        auto found = peer ? portOfDevice.find(PeekPointer(peer)) : portOfDevice.end();
        if (found != portOfDevice.end())
        {
            attach[h] = found->second;
        }
        for (const char* attribute : {"Dscp", "CnpDscp"})
        {
            UintegerValue dscp;
            if (nics[h]->GetAttributeFailSafe(attribute, dscp))
            {
                injected[h] |= static_cast<uint8_t>(1u << ((dscp.Get() >> 3) & 0x7));
            }
        }
    }

    // 2. Follow the traffic to every destination along the installed routes. A switch records
    // the dependencies it creates in a bit set over (in port, in priority, out port, out
    // priority); a channel is (the switch port it arrives on, its priority).
    std::vector<std::vector<uint64_t>> deps(switches.size());
    for (std::size_t s = 0; s < switches.size(); ++s)
    {
        const uint64_t n = switches[s].sw->GetNPorts();
        deps[s].assign((n * N_PRIO * n * N_PRIO + 63) / 64, 0);
    }
    std::vector<uint8_t> carried(nPorts, 0); // priorities seen on each channel, all destinations
    std::vector<uint8_t> visited(nPorts, 0);
    std::vector<const std::vector<uint32_t>*> routes(switches.size());
    std::vector<std::pair<uint32_t, uint8_t>> queue;
    for (std::size_t d = 0; d < nics.size(); ++d)
    {
        const Ipv4Address destination = nics[d]->GetAddress();
        std::fill(visited.begin(), visited.end(), 0);
        std::fill(routes.begin(), routes.end(), nullptr);
        queue.clear();
        auto push = [&](uint32_t g, uint8_t q) {
            if (!(visited[g] & (1u << q)))
            {
                visited[g] |= static_cast<uint8_t>(1u << q);
                queue.emplace_back(g, q);
            }
        };
        for (std::size_t h = 0; h < nics.size(); ++h)
        {
            for (uint8_t q = 0; h != d && attach[h] != NONE && q < N_PRIO; ++q)
            {
                if (injected[h] & (1u << q))
                {
                    push(attach[h], q);
                }
            }
        }
        for (std::size_t next = 0; next < queue.size(); ++next)
        {
            const uint32_t g = queue[next].first;
            const uint8_t q = queue[next].second;
            const uint32_t s = ownerOf[g];
            const SwitchEntry& entry = switches[s];
            if (!routes[s])
            {
                routes[s] = &entry.sw->GetRoute(destination);
                if (routes[s]->empty())
                {
                    ++m_noRoute;
                }
            }
            carried[g] |= static_cast<uint8_t>(1u << q);
            const uint32_t in = g - entry.base;
            const uint64_t n = entry.sw->GetNPorts();
            for (uint32_t out : *routes[s])
            {
                const uint8_t q2 = entry.sw->GetPriorityRemap(in, out, q);
                const uint32_t g2 = peerPort[entry.base + out];
                if (g2 == NONE)
                {
                    continue; // delivered to a host (or a dead end)
                }
                if (((entry.lossless >> q) & 1) && ((switches[ownerOf[g2]].lossless >> q2) & 1))
                {
                    const uint64_t bit = ((in * N_PRIO + q) * n + out) * N_PRIO + q2;
                    deps[s][bit / 64] |= uint64_t{1} << (bit % 64);
                }
                push(g2, q2);
            }
        }
    }

    // 3. The graph: one vertex per lossless channel that carries traffic.
    std::vector<uint32_t> vertexOf(static_cast<std::size_t>(nPorts) * N_PRIO, NONE);
    std::vector<std::pair<uint32_t, uint8_t>> channelOf;
    for (uint32_t g = 0; g < nPorts; ++g)
    {
        for (uint8_t q = 0; q < N_PRIO; ++q)
        {
            if (((carried[g] >> q) & 1) && ((switches[ownerOf[g]].lossless >> q) & 1))
            {
                vertexOf[g * N_PRIO + q] = static_cast<uint32_t>(channelOf.size());
                channelOf.emplace_back(g, q);
                ++m_channelsPer[q];
            }
        }
    }
    m_channels = static_cast<uint32_t>(channelOf.size());
    std::vector<std::pair<uint32_t, uint32_t>> edges;
    for (std::size_t s = 0; s < switches.size(); ++s)
    {
        const uint64_t n = switches[s].sw->GetNPorts();
        for (std::size_t word = 0; word < deps[s].size(); ++word)
        {
            for (uint64_t bits = deps[s][word]; bits != 0; bits &= bits - 1)
            {
                const uint64_t bit = word * 64 + static_cast<uint64_t>(__builtin_ctzll(bits));
                const auto q2 = static_cast<uint8_t>(bit % N_PRIO);
                const uint64_t out = bit / N_PRIO % n;
                const auto q = static_cast<uint8_t>(bit / N_PRIO / n % N_PRIO);
                const uint64_t in = bit / N_PRIO / n / N_PRIO;
                const uint32_t from = vertexOf[(switches[s].base + in) * N_PRIO + q];
                const uint32_t to = vertexOf[peerPort[switches[s].base + out] * N_PRIO + q2];
                NS_ASSERT(from != NONE && to != NONE);
                edges.emplace_back(from, to);
                ++m_dependencies;
            }
        }
    }

    // 4. Cycles.
    for (const std::vector<uint32_t>& path :
         ShortestCycles(static_cast<uint32_t>(channelOf.size()), edges))
    {
        Cycle cycle;
        for (uint32_t v : path)
        {
            const uint32_t g = channelOf[v].first;
            cycle.push_back(Channel{peerNode[g], switches[ownerOf[g]].node, channelOf[v].second});
        }
        m_cycles.push_back(cycle);
    }
}

std::vector<std::vector<uint32_t>>
DeadlockCheck::ShortestCycles(uint32_t vertices,
                              const std::vector<std::pair<uint32_t, uint32_t>>& edges)
{
    DependencyGraph graph(vertices);
    for (const auto& [from, to] : edges)
    {
        boost::add_edge(from, to, graph);
    }
    std::vector<std::vector<uint32_t>> cycles;
    // One shortest cycle through the first vertex of every strongly connected component with
    // more than one vertex (Boost.Graph's strong_components, then a breadth-first search).
    std::vector<uint32_t> component(boost::num_vertices(graph));
    const uint32_t nComponents = static_cast<uint32_t>(boost::strong_components(
        graph,
        boost::make_iterator_property_map(component.begin(),
                                          boost::get(boost::vertex_index, graph))));
    std::vector<uint32_t> size(nComponents, 0);
    std::vector<uint32_t> first(nComponents, NONE);
    for (uint32_t v = 0; v < component.size(); ++v)
    {
        ++size[component[v]];
        first[component[v]] = std::min(first[component[v]], v);
    }
    std::vector<uint32_t> order; // components in the order of their first channel
    for (uint32_t c = 0; c < nComponents; ++c)
    {
        if (size[c] > 1)
        {
            order.push_back(c);
        }
    }
    std::sort(order.begin(), order.end(), [&first](uint32_t a, uint32_t b) {
        return first[a] < first[b];
    });
    std::vector<DependencyVertex> parent(boost::num_vertices(graph));
    std::vector<uint32_t> distance(boost::num_vertices(graph));
    for (uint32_t c : order)
    {
        const DependencyVertex root = first[c];
        boost::filtered_graph<DependencyGraph, boost::keep_all, InComponent> inside(
            graph,
            boost::keep_all(),
            InComponent{&component, c});
        distance[root] = 0;
        parent[root] = root;
        boost::breadth_first_search(
            inside,
            root,
            boost::visitor(boost::make_bfs_visitor(
                std::make_pair(boost::record_predecessors(parent.data(), boost::on_tree_edge()),
                               boost::record_distances(distance.data(), boost::on_tree_edge())))));
        // The channel of the component closest to the root that leads back to it.
        DependencyVertex last = root;
        uint32_t best = NONE;
        for (uint32_t v = 0; v < component.size(); ++v)
        {
            if (component[v] != c || distance[v] >= best)
            {
                continue;
            }
            for (auto [e, end] = boost::out_edges(v, graph); e != end; ++e)
            {
                if (boost::target(*e, graph) == root)
                {
                    best = distance[v];
                    last = v;
                    break;
                }
            }
        }
        std::vector<DependencyVertex> path;
        for (DependencyVertex v = last; v != root; v = parent[v])
        {
            path.push_back(v);
        }
        path.push_back(root);
        std::reverse(path.begin(), path.end());
        cycles.emplace_back(path.begin(), path.end());
    }
    return cycles;
}

bool
DeadlockCheck::IsDeadlockFree() const
{
    NS_ABORT_MSG_UNLESS(m_ran, "DeadlockCheck: call Run first");
    return m_cycles.empty();
}

const std::vector<DeadlockCheck::Cycle>&
DeadlockCheck::GetCycles() const
{
    return m_cycles;
}

uint32_t
DeadlockCheck::GetNChannels() const
{
    return m_channels;
}

uint64_t
DeadlockCheck::GetNDependencies() const
{
    return m_dependencies;
}

std::vector<uint8_t>
DeadlockCheck::GetPriorities() const
{
    std::vector<uint8_t> priorities;
    for (uint8_t p = 0; p < N_PRIO; ++p)
    {
        if (m_channelsPer[p] != 0)
        {
            priorities.push_back(p);
        }
    }
    return priorities;
}

uint32_t
DeadlockCheck::GetNChannels(uint8_t priority) const
{
    return priority < N_PRIO ? m_channelsPer[priority] : 0;
}

uint64_t
DeadlockCheck::GetNoRoute() const
{
    return m_noRoute;
}

std::string
DeadlockCheck::DescribeCycle(const Cycle& cycle) const
{
    std::ostringstream os;
    if (cycle.empty())
    {
        return "";
    }
    os << m_namer(cycle.front().from);
    for (const auto& channel : cycle)
    {
        os << " -> " << m_namer(channel.to) << " (" << +channel.priority << ")";
    }
    return os.str();
}

std::string
DeadlockCheck::Describe(uint32_t maxCycles) const
{
    std::ostringstream os;
    os << "deadlock check: " << m_channels << " lossless channels (";
    const std::vector<uint8_t> priorities = GetPriorities();
    for (std::size_t i = 0; i < priorities.size(); ++i)
    {
        os << (i ? ", " : "") << "priority " << +priorities[i] << ": "
           << m_channelsPer[priorities[i]];
    }
    os << (priorities.empty() ? "none" : "") << "), " << m_dependencies << " dependencies: ";
    if (m_cycles.empty())
    {
        os << "no cycle, deadlock-free";
    }
    else
    {
        os << m_cycles.size() << (m_cycles.size() == 1 ? " cycle" : " cycles")
           << ", DEADLOCK-PRONE";
    }
    if (m_noRoute != 0)
    {
        os << "; " << m_noRoute << " (switch, destination) pairs without a route";
    }
    os << "\n";
    for (uint32_t i = 0; i < m_cycles.size() && i < maxCycles; ++i)
    {
        os << "  cycle " << i + 1 << ": " << DescribeCycle(m_cycles[i]) << "\n";
    }
    if (m_cycles.size() > maxCycles)
    {
        os << "  ... and " << m_cycles.size() - maxCycles << " more\n";
    }
    return os.str();
}

DeadlockCheck
DeadlockCheck::ForFabric(const Fabric& fabric)
{
    NS_ABORT_MSG_IF(fabric.GetNodes().empty() || !fabric.GetNodes().front().node,
                    "DeadlockCheck::ForFabric: install the fabric first (RoceHelper::Build)");
    NodeContainer nodes;
    std::map<uint32_t, std::string> names;
    for (const FabricNode& n : fabric.GetNodes())
    {
        nodes.Add(n.node);
        names[n.node->GetId()] = n.name;
    }
    DeadlockCheck check;
    check.SetNodeNamer([names](Ptr<Node> node) {
        auto it = names.find(node->GetId());
        return it == names.end() ? "node " + std::to_string(node->GetId()) : it->second;
    });
    check.Run(nodes);
    return check;
}

} // namespace ns3
