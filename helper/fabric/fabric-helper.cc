/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-helper.h"

#include "ns3/abort.h"
#include "ns3/interconnect-config-error.h"
#include "ns3/local-rank.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <boost/graph/breadth_first_search.hpp>
#include <cstdio>
#include <limits>
#include <unistd.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricHelper");

FabricHelper::FabricHelper()
    : m_hostRate("100Gbps"),
      m_fabricRate("100Gbps"),
      m_delay(MicroSeconds(1)),
      m_internetStack(false),
      m_partitionPolicy("auto"),
      m_ranks(1)
{
}

FabricHelper::~FabricHelper()
{
}

FabricHelper::Pods
FabricHelper::AddPods(Fabric& fabric,
                      uint32_t pods,
                      uint32_t hostsPerPod,
                      const std::string& lowerName,
                      uint32_t lower,
                      uint32_t upper,
                      uint32_t cores)
{
    for (uint32_t h = 0; h < pods * hostsPerPod; ++h)
    {
        fabric.AddHost("host" + std::to_string(h), static_cast<int32_t>(h / hostsPerPod));
    }
    Pods result;
    result.lower.resize(pods);
    result.upper.resize(pods);
    for (uint32_t p = 0; p < pods; ++p)
    {
        const std::string pod = std::to_string(p) + "-";
        for (uint32_t i = 0; i < lower; ++i)
        {
            result.lower[p].push_back(fabric.AddSwitch(lowerName + pod + std::to_string(i),
                                                       lowerName,
                                                       static_cast<int32_t>(p)));
        }
        for (uint32_t i = 0; i < upper; ++i)
        {
            result.upper[p].push_back(fabric.AddSwitch("aggregation" + pod + std::to_string(i),
                                                       "aggregation",
                                                       static_cast<int32_t>(p)));
        }
    }
    for (uint32_t c = 0; c < cores; ++c)
    {
        result.cores.push_back(fabric.AddSwitch("core" + std::to_string(c), "core"));
    }
    return result;
}

void
FabricHelper::SetHostRate(DataRate rate)
{
    m_hostRate = rate;
}

void
FabricHelper::SetFabricRate(DataRate rate)
{
    m_fabricRate = rate;
}

void
FabricHelper::SetDelay(Time delay)
{
    m_delay = delay;
}

void
FabricHelper::SetInternetStack(bool enable)
{
    m_internetStack = enable;
}

void
FabricHelper::SetPartition(const std::string& policy,
                           uint32_t ranks,
                           const std::vector<uint32_t>& given)
{
    m_partitionPolicy = policy;
    m_ranks = ranks;
    m_partitionGiven = given;
}

void
FabricHelper::CheckAtLeast(const std::string& parameter, uint64_t value, uint64_t min) const
{
    if (value < min)
    {
        InterconnectConfigError(GetName() + "::" + parameter,
                                std::to_string(value),
                                "a whole number >= " + std::to_string(min));
    }
}

Fabric
FabricHelper::Describe() const
{
    NS_LOG_FUNCTION(this);
    if (m_hostRate.GetBitRate() == 0)
    {
        InterconnectConfigError(GetName() + "::hostRate", "0bps", "a rate above 0 bps");
    }
    if (m_fabricRate.GetBitRate() == 0)
    {
        InterconnectConfigError(GetName() + "::fabricRate", "0bps", "a rate above 0 bps");
    }
    if (m_delay.IsStrictlyNegative())
    {
        InterconnectConfigError(GetName() + "::delay",
                                std::to_string(m_delay.GetNanoSeconds()) + "ns",
                                "a delay >= 0");
    }
    Size size{0, 0, 0};
    if (EstimateSize(size))
    {
        CheckMemory(size); // before a node is made: a huge fabric takes long to create
    }
    Fabric fabric(GetKind());
    DoCreate(fabric);
    NS_ABORT_MSG_IF(fabric.GetNHosts() == 0, GetName() << ": no hosts");
    CheckMemory(fabric);
    DoRoute(fabric);
    fabric.ComputeMetrics();
    fabric.m_partition = fabric.Partition(m_partitionPolicy, m_ranks, m_partitionGiven);
    return fabric;
}

bool
FabricHelper::EstimateSize(Size& /* size */) const
{
    return false;
}

void
FabricHelper::CheckMemory(const Fabric& fabric) const
{
    CheckMemory(Size{static_cast<double>(fabric.GetNHosts()),
                     static_cast<double>(fabric.GetNSwitches()),
                     static_cast<double>(fabric.GetNLinks())});
}

void
FabricHelper::CheckMemory(const Size& size) const
{
    // Measured on this module's builds (k=8, 16 and 24 fat-trees): about 200 bytes per route
    // entry (every switch has one per host) and 20 KB per node and per link for the simulation
    // objects. A fabric whose estimate exceeds the machine's memory is refused before it is
    // built, rather than ending in std::bad_alloc after minutes of building.
    const double estimate =
        size.hosts * size.switches * 200 + (size.hosts + size.switches + size.links) * 20e3;
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGE_SIZE);
    const double physical = pages > 0 && pageSize > 0 ? static_cast<double>(pages) * pageSize : 0;
    if (physical > 0 && estimate > physical)
    {
        char figures[256];
        std::snprintf(figures,
                      sizeof(figures),
                      "%s: %.0f hosts, %.0f switches, %.0f links, about %.1f GB to simulate",
                      GetKind().c_str(),
                      size.hosts,
                      size.switches,
                      size.links,
                      estimate / 1e9);
        InterconnectConfigError(GetName() + " size",
                                figures,
                                "a fabric that fits this machine's " +
                                    std::to_string(static_cast<int>(physical / 1e9)) +
                                    " GB of memory (make it smaller)");
    }
}

void
FabricHelper::DoRoute(Fabric& fabric) const
{
    RouteShortestPaths(fabric);
}

void
FabricHelper::RouteShortestPaths(Fabric& fabric)
{
    constexpr uint32_t inf = std::numeric_limits<uint32_t>::max();
    const Fabric::Graph& graph = fabric.GetGraph();
    const uint32_t nSwitches = fabric.GetNSwitches();
    std::vector<uint32_t> dist(boost::num_vertices(graph));
    std::vector<std::vector<uint32_t>> routes(nSwitches);
    uint32_t searched = inf; // the vertex dist and routes were computed from
    for (uint32_t h = 0; h < fabric.GetNHosts(); ++h)
    {
        // Hosts have one link, so a host is never a transit node of a shortest path, and the
        // hosts of one switch share their routes everywhere but on that switch: one search
        // from the switch serves them all.
        const uint32_t hostLink = fabric.GetHostLink(h);
        const uint32_t attached = fabric.GetPeer(hostLink, h);
        const bool viaSwitch = fabric.GetNode(attached).kind == FabricNodeKind::SWITCH;
        const uint32_t from = viaSwitch ? attached : h;
        if (from != searched)
        {
            std::fill(dist.begin(), dist.end(), inf);
            dist[from] = 0;
            boost::breadth_first_search(
                graph,
                boost::vertex(from, graph),
                boost::visitor(boost::make_bfs_visitor(
                    boost::record_distances(dist.data(), boost::on_tree_edge()))));
            searched = from;
            for (uint32_t s = 0; s < nSwitches; ++s)
            {
                routes[s].clear();
                const uint32_t u = fabric.GetSwitchNodeId(s);
                if (dist[u] == inf)
                {
                    continue;
                }
                for (uint32_t l : fabric.GetNodeLinks(u))
                {
                    const FabricLink& link = fabric.GetLink(l);
                    if (dist[link.a == u ? link.b : link.a] + 1 == dist[u])
                    {
                        routes[s].push_back(l);
                    }
                }
            }
        }
        if (viaSwitch)
        {
            routes[fabric.GetNode(attached).index].assign(1, hostLink);
        }
        fabric.SetRoutesTo(h, routes);
    }
    fabric.SetRoutingName("ECMP over all shortest paths");
}

bool
FabricHelper::GetInternetStack() const
{
    return m_internetStack;
}

} // namespace ns3
