/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "intra-host-fabric.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IntraHostFabric");

NS_OBJECT_ENSURE_REGISTERED(IntraHostFabric);

namespace
{
/// Bytes below which a transfer counts as finished (rounding of rate x time).
constexpr double DONE_EPSILON = 1e-3;
} // namespace

TypeId
IntraHostFabric::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IntraHostFabric")
                            .SetParent<Object>()
                            .SetGroupName("Interconnect")
                            .AddConstructor<IntraHostFabric>();
    return tid;
}

IntraHostFabric::IntraHostFabric()
    : m_nextId(0)
{
}

void
IntraHostFabric::DoDispose()
{
    m_nextCompletion.Cancel();
    m_active.clear();
    Object::DoDispose();
}

uint32_t
IntraHostFabric::AddComponent(const std::string& name, Kind kind)
{
    NS_ABORT_MSG_IF(std::find(m_names.begin(), m_names.end(), name) != m_names.end(),
                    "IntraHostFabric: two components named " << name);
    m_names.push_back(name);
    m_kinds.push_back(kind);
    m_adjacent.emplace_back();
    return static_cast<uint32_t>(m_names.size() - 1);
}

uint32_t
IntraHostFabric::AddLink(uint32_t a, uint32_t b, double bytesPerSecond, Time latency)
{
    return AddLink(a, b, bytesPerSecond, latency, PCIE, 1);
}

uint32_t
IntraHostFabric::AddLink(uint32_t a,
                         uint32_t b,
                         double bytesPerSecond,
                         Time latency,
                         LinkKind kind,
                         uint32_t bonded)
{
    NS_ABORT_MSG_UNLESS(a < m_names.size() && b < m_names.size() && a != b,
                        "IntraHostFabric::AddLink: bad ends " << a << ", " << b);
    NS_ABORT_MSG_UNLESS(bytesPerSecond > 0, "IntraHostFabric::AddLink: bandwidth must be > 0");
    NS_ABORT_MSG_UNLESS(bonded > 0, "IntraHostFabric::AddLink: bonded must be > 0");
    const uint32_t id = static_cast<uint32_t>(m_links.size());
    m_links.push_back(Link{a, b, bytesPerSecond, latency, kind, bonded});
    m_adjacent[a].push_back(id);
    m_adjacent[b].push_back(id);
    return id;
}

std::vector<uint32_t>
IntraHostFabric::FilteredPath(uint32_t src,
                              uint32_t dst,
                              const std::function<bool(const Link&)>& accept) const
{
    const uint32_t none = std::numeric_limits<uint32_t>::max();
    std::vector<uint32_t> via(m_names.size(), none); // directed link that reached the node
    std::vector<bool> seen(m_names.size(), false);
    std::queue<uint32_t> q;
    q.push(src);
    seen[src] = true;
    while (!q.empty() && !seen[dst])
    {
        const uint32_t u = q.front();
        q.pop();
        for (uint32_t l : m_adjacent[u])
        {
            if (!accept(m_links[l]))
            {
                continue;
            }
            const bool forward = m_links[l].a == u;
            const uint32_t v = forward ? m_links[l].b : m_links[l].a;
            if (!seen[v])
            {
                seen[v] = true;
                via[v] = 2 * l + (forward ? 0 : 1);
                q.push(v);
            }
        }
    }
    std::vector<uint32_t> path;
    if (!seen[dst])
    {
        return path;
    }
    for (uint32_t v = dst; v != src;)
    {
        const uint32_t d = via[v];
        path.push_back(d);
        const Link& link = m_links[d / 2];
        v = (d % 2 == 0) ? link.a : link.b;
    }
    std::reverse(path.begin(), path.end());
    return path;
}

std::vector<uint32_t>
IntraHostFabric::Path(uint32_t src, uint32_t dst) const
{
    NS_ABORT_MSG_UNLESS(src < m_names.size() && dst < m_names.size(),
                        "IntraHostFabric::Path: no component " << std::max(src, dst));
    std::vector<uint32_t> path = FilteredPath(src, dst, [](const Link&) { return true; });
    NS_ABORT_MSG_IF(path.empty() && src != dst,
                    "IntraHostFabric: no path from " << m_names[src] << " to " << m_names[dst]);
    return path;
}

double
IntraHostFabric::Bottleneck(const std::vector<uint32_t>& path) const
{
    double b = std::numeric_limits<double>::infinity();
    for (uint32_t d : path)
    {
        b = std::min(b, m_links[d / 2].capacity);
    }
    return b;
}

Time
IntraHostFabric::Latency(const std::vector<uint32_t>& path) const
{
    Time t(0);
    for (uint32_t d : path)
    {
        t += m_links[d / 2].latency;
    }
    return t;
}

std::string
IntraHostFabric::TopologyLabel(uint32_t a, uint32_t b) const
{
    NS_ABORT_MSG_UNLESS(a < m_names.size() && b < m_names.size(),
                        "IntraHostFabric::TopologyLabel: no component " << std::max(a, b));
    if (a == b)
    {
        return "X";
    }
    const auto nv = FilteredPath(a, b, [](const Link& l) { return l.kind == NVLINK; });
    if (!nv.empty())
    {
        uint32_t links = std::numeric_limits<uint32_t>::max();
        for (uint32_t d : nv)
        {
            links = std::min(links, m_links[d / 2].bonded);
        }
        return "NV" + std::to_string(links);
    }
    const auto path = FilteredPath(a, b, [](const Link& l) { return l.kind != NVLINK; });
    NS_ABORT_MSG_IF(path.empty(),
                    "IntraHostFabric: no path from " << m_names[a] << " to " << m_names[b]);
    uint32_t bridges = 0;
    uint32_t hostBridges = 0;
    bool smp = false;
    for (std::size_t i = 0; i < path.size(); ++i)
    {
        const Link& l = m_links[path[i] / 2];
        smp = smp || l.kind == SMP;
        if (i + 1 < path.size())
        {
            const uint32_t via = (path[i] % 2 == 0) ? l.b : l.a; // the component after link i
            bridges += m_kinds[via] == PCIE_SWITCH ? 1 : 0;
            hostBridges += m_kinds[via] == HOST_BRIDGE ? 1 : 0;
        }
    }
    if (smp)
    {
        return "SYS";
    }
    if (hostBridges >= 2)
    {
        return "NODE";
    }
    if (hostBridges == 1)
    {
        return "PHB";
    }
    return bridges > 1 ? "PXB" : "PIX";
}

std::vector<double>
IntraHostFabric::MaxMinRates(const std::vector<std::vector<uint32_t>>& paths) const
{
    std::vector<double> rate(paths.size(), 0);
    std::map<uint32_t, double> capacity;
    std::map<uint32_t, uint32_t> users;
    std::vector<std::size_t> unfrozen;
    for (std::size_t i = 0; i < paths.size(); ++i)
    {
        if (paths[i].empty())
        {
            rate[i] = std::numeric_limits<double>::infinity(); // nothing to cross
            continue;
        }
        unfrozen.push_back(i);
        for (uint32_t d : paths[i])
        {
            capacity.emplace(d, m_links[d / 2].capacity);
            ++users[d];
        }
    }
    while (!unfrozen.empty())
    {
        uint32_t bottleneck = 0;
        double share = std::numeric_limits<double>::infinity();
        for (const auto& [d, n] : users)
        {
            if (n > 0 && capacity[d] / n < share)
            {
                share = capacity[d] / n;
                bottleneck = d;
            }
        }
        std::vector<std::size_t> still;
        for (std::size_t i : unfrozen)
        {
            const auto& path = paths[i];
            if (std::find(path.begin(), path.end(), bottleneck) == path.end())
            {
                still.push_back(i);
                continue;
            }
            rate[i] = share;
            for (uint32_t d : path)
            {
                capacity[d] -= share;
                --users[d];
            }
        }
        unfrozen.swap(still);
    }
    return rate;
}

uint64_t
IntraHostFabric::StartTransfer(uint32_t src,
                               uint32_t dst,
                               uint64_t bytes,
                               std::function<void()> done)
{
    Advance();
    Transfer t;
    t.path = Path(src, dst);
    t.remaining = static_cast<double>(bytes);
    t.rate = 0;
    t.latency = Time(0);
    for (uint32_t d : t.path)
    {
        t.latency += m_links[d / 2].latency;
    }
    t.done = std::move(done);
    const uint64_t id = m_nextId++;
    m_active.emplace(id, std::move(t));
    Reallocate();
    return id;
}

void
IntraHostFabric::Advance()
{
    const Time now = Simulator::Now();
    const double dt = (now - m_lastUpdate).GetSeconds();
    m_lastUpdate = now;
    if (dt <= 0)
    {
        return;
    }
    for (auto& [id, t] : m_active)
    {
        t.remaining = std::max(0.0, t.remaining - t.rate * dt);
    }
}

void
IntraHostFabric::Reallocate()
{
    std::vector<std::vector<uint32_t>> paths;
    paths.reserve(m_active.size());
    for (const auto& [id, t] : m_active)
    {
        paths.push_back(t.path);
    }
    const std::vector<double> rates = MaxMinRates(paths);
    std::size_t i = 0;
    for (auto& [id, t] : m_active)
    {
        t.rate = rates[i++];
    }
    // The next transfer to send its last byte.
    m_nextCompletion.Cancel();
    double soonest = std::numeric_limits<double>::infinity();
    for (const auto& [id, t] : m_active)
    {
        if (t.rate > 0)
        {
            soonest = std::min(soonest, t.remaining / t.rate);
        }
    }
    if (soonest != std::numeric_limits<double>::infinity())
    {
        m_nextCompletion =
            Simulator::Schedule(NanoSeconds(static_cast<int64_t>(std::ceil(soonest * 1e9))),
                                &IntraHostFabric::Complete,
                                this);
    }
}

void
IntraHostFabric::Complete()
{
    Advance();
    std::vector<std::pair<Time, std::function<void()>>> finished;
    for (auto it = m_active.begin(); it != m_active.end();)
    {
        if (it->second.remaining <= DONE_EPSILON)
        {
            finished.emplace_back(it->second.latency, std::move(it->second.done));
            it = m_active.erase(it);
        }
        else
        {
            ++it;
        }
    }
    Reallocate();
    // The last byte still has to cross the path: completion after its latency.
    for (auto& [latency, done] : finished)
    {
        if (done)
        {
            Simulator::Schedule(latency, done);
        }
    }
}

double
IntraHostFabric::GetRate(uint64_t transfer) const
{
    auto it = m_active.find(transfer);
    return it == m_active.end() ? 0 : it->second.rate;
}

uint32_t
IntraHostFabric::GetNComponents() const
{
    return static_cast<uint32_t>(m_names.size());
}

const std::string&
IntraHostFabric::GetName(uint32_t component) const
{
    return m_names.at(component);
}

IntraHostFabric::Kind
IntraHostFabric::GetKind(uint32_t component) const
{
    return m_kinds.at(component);
}

uint32_t
IntraHostFabric::Find(const std::string& name) const
{
    auto it = std::find(m_names.begin(), m_names.end(), name);
    NS_ABORT_MSG_IF(it == m_names.end(), "IntraHostFabric: no component named " << name);
    return static_cast<uint32_t>(it - m_names.begin());
}

} // namespace ns3
