/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric.h"

#include "ns3/abort.h"
#include "ns3/interconnect-config-error.h"
#include "ns3/log.h"
#include "ns3/node-container.h"

#include <algorithm>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/graphviz.hpp>
#include <boost/graph/push_relabel_max_flow.hpp>
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Fabric");

namespace
{

constexpr uint32_t INF = std::numeric_limits<uint32_t>::max();

/// A rate for people: "800 Gb/s", "51.2 Tb/s".
std::string
FormatRate(uint64_t bps)
{
    char text[64];
    if (bps >= 1000000000000ULL)
    {
        std::snprintf(text, sizeof(text), "%g Tb/s", static_cast<double>(bps) / 1e12);
    }
    else if (bps >= 1000000000ULL)
    {
        std::snprintf(text, sizeof(text), "%g Gb/s", static_cast<double>(bps) / 1e9);
    }
    else
    {
        std::snprintf(text, sizeof(text), "%g Mb/s", static_cast<double>(bps) / 1e6);
    }
    return text;
}

/// A JSON string literal.
std::string
Quote(const std::string& text)
{
    std::string out = "\"";
    for (char c : text)
    {
        if (c == '"' || c == '\\')
        {
            out += '\\';
        }
        out += c;
    }
    return out + "\"";
}

/// Writes the attributes of a node in DOT.
struct DotNodeWriter
{
    const std::vector<FabricNode>* nodes; //!< the nodes

    /// Write `[label=..., shape=...]`.
    void operator()(std::ostream& os, std::size_t v) const
    {
        const FabricNode& n = (*nodes)[v];
        os << "[label=" << Quote(n.name)
           << (n.kind == FabricNodeKind::HOST ? ",shape=ellipse" : ",shape=box")
           << ",tier=" << Quote(n.layer) << "]";
    }
};

/// Writes the attributes of a link in DOT.
struct DotLinkWriter
{
    const Fabric::Graph* graph;           //!< the graph
    const std::vector<FabricLink>* links; //!< the links

    /// Write `[label=rate, style=dashed if wrap-around]`.
    template <typename Edge>
    void operator()(std::ostream& os, const Edge& e) const
    {
        const FabricLink& l = (*links)[(*graph)[e].link];
        os << "[label=" << Quote(FormatRate(l.rate.GetBitRate()))
           << (l.wrapAround ? ",style=dashed" : "") << "]";
    }
};

/// Writes the graph attributes in DOT.
struct DotGraphWriter
{
    std::string label; //!< the fabric's description

    /// Write the graph, node and edge defaults.
    void operator()(std::ostream& os) const
    {
        os << "graph [label=" << Quote(label) << ",overlap=false,splines=true];\n";
        os << "node [fontsize=10];\nedge [fontsize=8];\n";
    }
};

} // namespace

Fabric::Fabric(const std::string& kind)
    : m_kind(kind),
      m_routing("none"),
      m_nHosts(0),
      m_diameter(0),
      m_bisection(0)
{
}

uint32_t
Fabric::AddHost(const std::string& name, int32_t group, const std::vector<uint32_t>& coordinates)
{
    NS_ABORT_MSG_IF(m_nodes.size() != m_nHosts, "Fabric: add every host before the switches");
    const auto id = static_cast<uint32_t>(m_nodes.size());
    m_nodes.push_back(FabricNode{FabricNodeKind::HOST, name, "host", id, group, coordinates, {}});
    m_adj.emplace_back();
    boost::add_vertex(m_graph);
    ++m_nHosts;
    return id;
}

uint32_t
Fabric::AddSwitch(const std::string& name,
                  const std::string& layer,
                  int32_t group,
                  const std::vector<uint32_t>& coordinates)
{
    const auto id = static_cast<uint32_t>(m_nodes.size());
    m_nodes.push_back(
        FabricNode{FabricNodeKind::SWITCH, name, layer, id - m_nHosts, group, coordinates, {}});
    m_adj.emplace_back();
    boost::add_vertex(m_graph);
    return id;
}

uint32_t
Fabric::AddLink(uint32_t a, uint32_t b, DataRate rate, Time delay, int32_t dimension, bool wrap)
{
    NS_ABORT_MSG_IF(a >= m_nodes.size() || b >= m_nodes.size() || a == b,
                    "Fabric::AddLink: bad ends " << a << ", " << b);
    for (uint32_t end : {a, b})
    {
        NS_ABORT_MSG_IF(m_nodes[end].kind == FabricNodeKind::HOST && !m_adj[end].empty(),
                        "Fabric::AddLink: a host has one port (" << m_nodes[end].name << ")");
    }
    NS_ABORT_MSG_IF(!m_route.empty(), "Fabric::AddLink after the routes were set");
    const auto id = static_cast<uint32_t>(m_links.size());
    m_links.push_back(FabricLink{a,
                                 b,
                                 rate,
                                 delay,
                                 dimension,
                                 wrap,
                                 static_cast<uint32_t>(m_adj[a].size()),
                                 static_cast<uint32_t>(m_adj[b].size()),
                                 nullptr,
                                 nullptr});
    m_adj[a].push_back(id);
    m_adj[b].push_back(id);
    boost::add_edge(a, b, FabricGraphEdge{id}, m_graph);
    return id;
}

void
Fabric::SetRoutesTo(uint32_t host, const std::vector<std::vector<uint32_t>>& links)
{
    const uint32_t nSwitches = GetNSwitches();
    if (m_groups.empty())
    {
        m_route.reserve(static_cast<std::size_t>(m_nHosts) * nSwitches);
        m_groups.emplace_back(); // group 0: no route
        m_groupIndex[m_groups.front()] = 0;
    }
    NS_ABORT_MSG_UNLESS(m_route.size() == static_cast<std::size_t>(host) * nSwitches,
                        "Fabric::SetRoutesTo: set the routes to host " << host << " in order");
    NS_ABORT_MSG_UNLESS(links.size() == nSwitches, "Fabric::SetRoutesTo: one entry per switch");
    for (uint32_t s = 0; s < nSwitches; ++s)
    {
        // Most switches forward to the next host as to the previous one: reuse its group.
        if (host > 0)
        {
            const uint32_t previous = m_route[m_route.size() - nSwitches];
            if (m_groups[previous] == links[s])
            {
                m_route.push_back(previous);
                continue;
            }
        }
        for (uint32_t l : links[s])
        {
            NS_ABORT_MSG_UNLESS(l < m_links.size() && (m_links[l].a == GetSwitchNodeId(s) ||
                                                       m_links[l].b == GetSwitchNodeId(s)),
                                "Fabric::SetRoutesTo: link " << l << " is not on switch " << s);
        }
        auto found = m_groupIndex.find(links[s]);
        if (found == m_groupIndex.end())
        {
            found = m_groupIndex.emplace(links[s], static_cast<uint32_t>(m_groups.size())).first;
            m_groups.push_back(links[s]);
        }
        m_route.push_back(found->second);
    }
}

void
Fabric::AddPriorityRemap(const FabricPriorityRemap& rule)
{
    m_remaps.push_back(rule);
}

void
Fabric::SetRoutingName(const std::string& routing)
{
    m_routing = routing;
}

const std::string&
Fabric::GetKind() const
{
    return m_kind;
}

const std::string&
Fabric::GetRoutingName() const
{
    return m_routing;
}

uint32_t
Fabric::GetNHosts() const
{
    return m_nHosts;
}

uint32_t
Fabric::GetNSwitches() const
{
    return static_cast<uint32_t>(m_nodes.size()) - m_nHosts;
}

uint32_t
Fabric::GetNLinks() const
{
    return static_cast<uint32_t>(m_links.size());
}

const std::vector<FabricNode>&
Fabric::GetNodes() const
{
    return m_nodes;
}

const FabricNode&
Fabric::GetNode(uint32_t id) const
{
    return m_nodes.at(id);
}

uint32_t
Fabric::GetHostNodeId(uint32_t host) const
{
    NS_ABORT_MSG_UNLESS(host < m_nHosts, "Fabric: no host " << host);
    return host;
}

uint32_t
Fabric::GetSwitchNodeId(uint32_t switchIndex) const
{
    NS_ABORT_MSG_UNLESS(switchIndex < GetNSwitches(), "Fabric: no switch " << switchIndex);
    return m_nHosts + switchIndex;
}

const std::vector<FabricLink>&
Fabric::GetLinks() const
{
    return m_links;
}

const FabricLink&
Fabric::GetLink(uint32_t link) const
{
    return m_links.at(link);
}

const Fabric::Graph&
Fabric::GetGraph() const
{
    return m_graph;
}

const std::vector<uint32_t>&
Fabric::GetNodeLinks(uint32_t node) const
{
    return m_adj.at(node);
}

uint32_t
Fabric::GetHostLink(uint32_t host) const
{
    NS_ABORT_MSG_IF(m_adj.at(GetHostNodeId(host)).empty(), "Fabric: host " << host << " unlinked");
    return m_adj[host].front();
}

uint32_t
Fabric::GetPeer(uint32_t link, uint32_t node) const
{
    const FabricLink& l = m_links.at(link);
    NS_ABORT_MSG_UNLESS(l.a == node || l.b == node, "Fabric: link " << link << " misses " << node);
    return l.a == node ? l.b : l.a;
}

uint32_t
Fabric::GetPort(uint32_t link, uint32_t node) const
{
    const FabricLink& l = m_links.at(link);
    NS_ABORT_MSG_UNLESS(l.a == node || l.b == node, "Fabric: link " << link << " misses " << node);
    return l.a == node ? l.portA : l.portB;
}

std::vector<uint32_t>
Fabric::GetRoute(uint32_t switchIndex, uint32_t host) const
{
    const std::size_t i = static_cast<std::size_t>(host) * GetNSwitches() + switchIndex;
    if (switchIndex >= GetNSwitches() || i >= m_route.size())
    {
        return {};
    }
    return m_groups[m_route[i]];
}

const std::vector<FabricPriorityRemap>&
Fabric::GetPriorityRemaps() const
{
    return m_remaps;
}

std::vector<uint32_t>
Fabric::TracePath(uint32_t src, uint32_t dst) const
{
    std::vector<uint32_t> path{GetHostNodeId(src)};
    uint32_t at = GetPeer(GetHostLink(src), src);
    path.push_back(at);
    while (at != GetHostNodeId(dst))
    {
        if (m_nodes[at].kind == FabricNodeKind::HOST || path.size() > m_nodes.size())
        {
            return {}; // delivered to the wrong host, or a loop
        }
        const std::vector<uint32_t> route = GetRoute(m_nodes[at].index, dst);
        if (route.empty())
        {
            return {};
        }
        at = GetPeer(route.front(), at);
        path.push_back(at);
    }
    return path;
}

uint32_t
Fabric::GetHopCount(uint32_t src, uint32_t dst) const
{
    const std::vector<uint32_t> path = TracePath(src, dst);
    return path.empty() ? 0 : static_cast<uint32_t>(path.size() - 1);
}

uint64_t
Fabric::CountPaths(uint32_t src, uint32_t dst) const
{
    // Paths from each switch to dst, memoized; a switch met again while its count is being
    // computed means the routes loop.
    const uint32_t target = GetHostNodeId(dst);
    std::vector<uint64_t> count(m_nodes.size(), 0);
    std::vector<uint8_t> state(m_nodes.size(), 0); // 0 new, 1 in progress, 2 done
    bool loop = false;
    std::function<uint64_t(uint32_t)> paths = [&](uint32_t node) -> uint64_t {
        if (node == target)
        {
            return 1;
        }
        if (m_nodes[node].kind == FabricNodeKind::HOST)
        {
            return 0;
        }
        if (state[node] == 1)
        {
            loop = true;
            return 0;
        }
        if (state[node] == 2)
        {
            return count[node];
        }
        state[node] = 1;
        uint64_t total = 0;
        for (uint32_t l : GetRoute(m_nodes[node].index, dst))
        {
            total += paths(GetPeer(l, node));
        }
        state[node] = 2;
        count[node] = total;
        return total;
    };
    const uint64_t total = paths(GetPeer(GetHostLink(src), GetHostNodeId(src)));
    return loop ? 0 : total;
}

void
Fabric::ComputeMetrics()
{
    NS_LOG_FUNCTION(this);
    // Diameter: breadth-first searches from the hosts. The hosts of one switch are all one
    // link further from everything than their switch, so one search per switch serves them.
    m_diameter = 0;
    std::vector<uint32_t> dist(m_nodes.size());
    uint32_t searched = INF;
    for (uint32_t h = 0; h < m_nHosts && m_nHosts > 1; ++h)
    {
        const uint32_t attached = GetPeer(GetHostLink(h), h);
        const bool viaSwitch = m_nodes[attached].kind == FabricNodeKind::SWITCH;
        const uint32_t from = viaSwitch ? attached : h;
        if (from == searched)
        {
            continue;
        }
        searched = from;
        std::fill(dist.begin(), dist.end(), INF);
        dist[from] = 0;
        boost::breadth_first_search(
            m_graph,
            boost::vertex(from, m_graph),
            boost::visitor(boost::make_bfs_visitor(
                boost::record_distances(dist.data(), boost::on_tree_edge()))));
        for (uint32_t other = 0; other < m_nHosts; ++other)
        {
            if (dist[other] != INF && other != from)
            {
                m_diameter = std::max(m_diameter, dist[other] + (viaSwitch ? 1 : 0));
            }
        }
    }

    // Bisection: maximum flow from the first half of the hosts to the second half, every
    // link a pair of opposite arcs of its rate.
    typedef boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS> Traits;
    typedef boost::adjacency_list<
        boost::vecS,
        boost::vecS,
        boost::directedS,
        boost::no_property,
        boost::property<
            boost::edge_capacity_t,
            int64_t,
            boost::property<boost::edge_residual_capacity_t,
                            int64_t,
                            boost::property<boost::edge_reverse_t, Traits::edge_descriptor>>>>
        FlowGraph;
    m_bisection = 0;
    if (m_nHosts < 2)
    {
        return;
    }
    const auto n = static_cast<uint32_t>(m_nodes.size());
    FlowGraph flow(n + 2);
    auto capacity = boost::get(boost::edge_capacity, flow);
    auto reverse = boost::get(boost::edge_reverse, flow);
    auto arc = [&](uint32_t u, uint32_t v, int64_t c) {
        const auto e = boost::add_edge(u, v, flow).first;
        const auto r = boost::add_edge(v, u, flow).first;
        capacity[e] = c;
        capacity[r] = 0;
        reverse[e] = r;
        reverse[r] = e;
    };
    int64_t total = 0;
    for (const FabricLink& l : m_links)
    {
        const auto c = static_cast<int64_t>(l.rate.GetBitRate());
        arc(l.a, l.b, c);
        arc(l.b, l.a, c);
        total += c;
    }
    const uint32_t source = n;
    const uint32_t sink = n + 1;
    for (uint32_t h = 0; h < m_nHosts; ++h)
    {
        if (h < m_nHosts / 2)
        {
            arc(source, h, total);
        }
        else
        {
            arc(h, sink, total);
        }
    }
    m_bisection = static_cast<uint64_t>(boost::push_relabel_max_flow(flow, source, sink));
}

uint32_t
Fabric::GetDiameter() const
{
    return m_diameter;
}

uint64_t
Fabric::GetBisectionBandwidth() const
{
    return m_bisection;
}

std::string
Fabric::Describe() const
{
    std::ostringstream os;
    os << m_kind << ": " << m_nHosts << " hosts, " << GetNSwitches() << " switches, "
       << m_links.size() << " links, bisection " << FormatRate(m_bisection) << ", diameter "
       << m_diameter << " hops";
    return os.str();
}

std::string
Fabric::ToDot() const
{
    std::ostringstream os;
    boost::write_graphviz(os,
                          m_graph,
                          DotNodeWriter{&m_nodes},
                          DotLinkWriter{&m_graph, &m_links},
                          DotGraphWriter{Describe()});
    return os.str();
}

std::string
Fabric::ToJson() const
{
    std::ostringstream os;
    os << "{\n  \"fabric\": " << Quote(m_kind) << ",\n  \"description\": " << Quote(Describe())
       << ",\n  \"routing\": " << Quote(m_routing) << ",\n  \"hosts\": " << m_nHosts
       << ",\n  \"switches\": " << GetNSwitches() << ",\n  \"bisectionBps\": " << m_bisection
       << ",\n  \"diameterHops\": " << m_diameter << ",\n  \"priorityRemaps\": " << m_remaps.size()
       << ",\n  \"nodes\": [";
    for (std::size_t i = 0; i < m_nodes.size(); ++i)
    {
        const FabricNode& n = m_nodes[i];
        os << (i ? "," : "") << "\n    {\"id\": " << i << ", \"name\": " << Quote(n.name)
           << ", \"kind\": " << (n.kind == FabricNodeKind::HOST ? "\"host\"" : "\"switch\"")
           << ", \"layer\": " << Quote(n.layer) << ", \"index\": " << n.index
           << ", \"group\": " << n.group << ", \"coordinates\": [";
        for (std::size_t c = 0; c < n.coordinates.size(); ++c)
        {
            os << (c ? ", " : "") << n.coordinates[c];
        }
        os << "]}";
    }
    os << "\n  ],\n  \"links\": [";
    for (std::size_t i = 0; i < m_links.size(); ++i)
    {
        const FabricLink& l = m_links[i];
        os << (i ? "," : "") << "\n    {\"id\": " << i << ", \"a\": " << l.a << ", \"b\": " << l.b
           << ", \"rateBps\": " << l.rate.GetBitRate()
           << ", \"delayNs\": " << l.delay.GetNanoSeconds() << ", \"portA\": " << l.portA
           << ", \"portB\": " << l.portB << ", \"dimension\": " << l.dimension
           << ", \"wrapAround\": " << (l.wrapAround ? "true" : "false") << "}";
    }
    os << "\n  ]\n}\n";
    return os.str();
}

bool
Fabric::WriteDot(const std::string& path) const
{
    std::ofstream out(path);
    out << ToDot();
    out.close();
    return !out.fail();
}

bool
Fabric::WriteJson(const std::string& path) const
{
    std::ofstream out(path);
    out << ToJson();
    out.close();
    return !out.fail();
}

void
Fabric::BindNode(uint32_t v, Ptr<Node> node)
{
    NS_ABORT_MSG_IF(v >= m_nodes.size(), "Fabric::BindNode: no node " << v);
    m_nodes[v].node = node;
}

void
Fabric::BindLink(uint32_t l, Ptr<NetDevice> a, Ptr<NetDevice> b)
{
    NS_ABORT_MSG_IF(l >= m_links.size(), "Fabric::BindLink: no link " << l);
    m_links[l].deviceA = a;
    m_links[l].deviceB = b;
}

} // namespace ns3

namespace ns3
{

std::string
FabricPartition::Describe() const
{
    std::ostringstream os;
    os << ranks << " ranks (" << policy << "): nodes per rank";
    for (uint32_t r = 0; r < ranks; ++r)
    {
        os << (r == 0 ? " " : "/") << nodesPerRank[r];
    }
    os << ", hosts per rank";
    for (uint32_t r = 0; r < ranks; ++r)
    {
        os << (r == 0 ? " " : "/") << hostsPerRank[r];
    }
    os << "; " << crossLinks << " links across ranks";
    if (crossLinks > 0)
    {
        os << ", lookahead " << lookahead.GetNanoSeconds() << " ns";
    }
    return os.str();
}

const FabricPartition&
Fabric::GetPartition() const
{
    return m_partition;
}

FabricPartition
Fabric::Partition(const std::string& policy,
                  uint32_t ranks,
                  const std::vector<uint32_t>& given) const
{
    const uint32_t n = static_cast<uint32_t>(m_nodes.size());
    if (ranks == 0 || ranks > n)
    {
        InterconnectConfigError("ranks",
                                std::to_string(ranks),
                                "1.." + std::to_string(n) + " (the fabric's nodes)");
    }
    FabricPartition p;
    p.ranks = ranks;
    p.policy = policy == "auto" ? (m_kind.rfind("torus", 0) == 0 ? "slab" : "group") : policy;
    p.rank.assign(n, 0);
    if (p.policy == "given")
    {
        if (given.size() != n)
        {
            InterconnectConfigError("partition",
                                    std::to_string(given.size()) + " ranks given",
                                    "one rank per node: " + std::to_string(n));
        }
        for (uint32_t v = 0; v < n; ++v)
        {
            if (given[v] >= ranks)
            {
                InterconnectConfigError("partition",
                                        m_nodes[v].name + " on rank " + std::to_string(given[v]),
                                        "ranks 0.." + std::to_string(ranks - 1));
            }
        }
        p.rank = given;
    }
    else if (p.policy == "group")
    {
        int32_t groups = 0;
        for (const FabricNode& v : m_nodes)
        {
            groups = std::max(groups, v.group + 1);
        }
        uint32_t ungrouped = 0;
        for (uint32_t v = 0; v < n; ++v)
        {
            const FabricNode& node = m_nodes[v];
            if (node.group >= 0)
            {
                p.rank[v] = static_cast<uint32_t>(uint64_t(node.group) * ranks / groups);
            }
            else if (node.kind == FabricNodeKind::SWITCH)
            {
                p.rank[v] = ungrouped++ % ranks;
            }
        }
        for (uint32_t v = 0; v < n; ++v)
        {
            if (m_nodes[v].kind == FabricNodeKind::HOST && m_nodes[v].group < 0)
            {
                p.rank[v] = p.rank[GetPeer(GetNodeLinks(v).front(), v)];
            }
        }
    }
    else if (p.policy == "slab")
    {
        uint32_t extent = 0;
        for (const FabricNode& v : m_nodes)
        {
            if (v.coordinates.empty())
            {
                InterconnectConfigError("partition",
                                        "slab",
                                        "a torus (nodes with coordinates); this fabric is " +
                                            m_kind);
            }
            extent = std::max(extent, v.coordinates[0] + 1);
        }
        for (uint32_t v = 0; v < n; ++v)
        {
            p.rank[v] = static_cast<uint32_t>(uint64_t(m_nodes[v].coordinates[0]) * ranks / extent);
        }
    }
    else
    {
        InterconnectConfigError("partition", policy, "auto, group, slab or given");
    }
    p.nodesPerRank.assign(ranks, 0);
    p.hostsPerRank.assign(ranks, 0);
    for (uint32_t v = 0; v < n; ++v)
    {
        ++p.nodesPerRank[p.rank[v]];
        p.hostsPerRank[p.rank[v]] += m_nodes[v].kind == FabricNodeKind::HOST ? 1 : 0;
    }
    p.crossLinks = 0;
    p.lookahead = Time::Max();
    for (const FabricLink& l : m_links)
    {
        if (p.rank[l.a] == p.rank[l.b])
        {
            continue;
        }
        if (!l.delay.IsStrictlyPositive())
        {
            InterconnectConfigError(
                "partition",
                p.policy + " over " + std::to_string(ranks) + " ranks",
                "no zero-delay link across ranks, but " + m_nodes[l.a].name + " (rank " +
                    std::to_string(p.rank[l.a]) + ") - " + m_nodes[l.b].name + " (rank " +
                    std::to_string(p.rank[l.b]) +
                    ") has delay 0: the synchronisation of ranks needs a lookahead; give the "
                    "links a delay, or a partition that keeps this link inside one rank");
        }
        ++p.crossLinks;
        p.lookahead = std::min(p.lookahead, l.delay);
    }
    if (p.crossLinks == 0)
    {
        p.lookahead = Time(0);
    }
    return p;
}

} // namespace ns3
