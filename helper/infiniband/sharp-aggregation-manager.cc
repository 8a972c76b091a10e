/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sharp-aggregation-manager.h"

#include "ns3/abort.h"
#include "ns3/interconnect-config-error.h"
#include "ns3/log.h"
#include "ns3/sharp-header.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <boost/graph/breadth_first_search.hpp>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SharpAggregationManager");

namespace
{
/// Bytes around a chunk's data on the wire: LRH 8, BTH 12, SharpHeader 8, ICRC 4, VCRC 2.
constexpr uint32_t CHUNK_OVERHEAD = 8 + 12 + SharpHeader::SIZE + 4 + 2;
} // namespace

SharpAggregationManager::SharpAggregationManager(const IbSubnet& subnet)
{
    m_factory.SetTypeId("ns3::SharpAggregationNode");
    m_binding.fabric = subnet.fabric;
    m_binding.chunkData = subnet.adapters.front()->GetDevice()->GetMtu() - SharpHeader::SIZE;
    m_binding.chunkWire = [](uint32_t data) { return uint64_t(data) + CHUNK_OVERHEAD; };
    const std::vector<Ptr<IbHostAdapter>> adapters = subnet.adapters;
    const std::vector<Ptr<IbSwitch>> switches = subnet.switches;
    m_binding.hostRate = [adapters](uint32_t h) {
        return adapters.at(h)->GetDevice()->GetDataRate();
    };
    m_binding.hostAddress = [adapters](uint32_t h) { return uint32_t(adapters.at(h)->GetLid()); };
    uint32_t last = 0;
    for (const auto& adapter : adapters)
    {
        last = std::max<uint32_t>(last, adapter->GetLid() + (1u << adapter->GetLmc()) - 1);
    }
    if (last + switches.size() >= 0xC000)
    {
        InterconnectConfigError("ib.lmc",
                                std::to_string(adapters.front()->GetLmc()) + " (" +
                                    std::to_string(switches.size()) +
                                    " switch LIDs after host LID " + std::to_string(last) + ")",
                                "an LMC and fabric whose host and switch LIDs stay below 0xC000 "
                                "(the unicast range; SHARP gives every switch a LID)");
    }
    m_binding.install = [switches, last](uint32_t s, Ptr<SharpAggregationNode> node) {
        const auto lid = static_cast<uint16_t>(last + 1 + s);
        switches.at(s)->SetAggregationNode(node, lid);
        return uint32_t(lid);
    };
    m_binding.receive = [adapters](uint32_t h, Callback<void, Ptr<Packet>> cb) {
        adapters.at(h)->SetAggregationCallback(cb);
    };
    m_binding.send = [adapters](uint32_t h, uint32_t to, Ptr<Packet> p, uint8_t sl) {
        adapters.at(h)->SendAggregation(static_cast<uint16_t>(to), p, sl);
    };
}

SharpAggregationManager::SharpAggregationManager(RoceHelper& roce, const Fabric& fabric)
{
    m_factory.SetTypeId("ns3::SharpAggregationNode");
    m_binding.fabric = fabric;
    m_binding.chunkData = roce.GetQueuePairMtu() - SharpHeader::SIZE;
    m_binding.chunkWire = [](uint32_t data) {
        return uint64_t(PfcNetDevice::WireBytes(PfcNetDevice::ETHERNET_HEADER +
                                                RdmaNic::ROCE_HEADERS + SharpHeader::SIZE + data));
    };
    RoceHelper* network = &roce;
    m_binding.hostRate = [network](uint32_t h) { return network->GetHostRate(h); };
    m_binding.hostAddress = [network](uint32_t h) { return network->GetAddress(h).Get(); };
    m_binding.install = [network](uint32_t s, Ptr<SharpAggregationNode> node) {
        const Ipv4Address address((11u << 24) + 1 + s);
        network->GetSwitch(s)->SetAggregationNode(node, address);
        return address.Get();
    };
    m_binding.receive = [network](uint32_t h, Callback<void, Ptr<Packet>> cb) {
        network->GetNic(h)->SetAggregationCallback(cb);
    };
    m_binding.send = [network](uint32_t h, uint32_t to, Ptr<Packet> p, uint8_t sl) {
        network->GetNic(h)->SendAggregation(Ipv4Address(to), p, sl);
    };
}

void
SharpAggregationManager::SetNodeAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

void
SharpAggregationManager::SetWindow(uint32_t chunks)
{
    NS_ABORT_MSG_IF(chunks == 0, "SharpAggregationManager: a window of 0 chunks");
    m_window = chunks;
}

void
SharpAggregationManager::SetServiceLevel(uint8_t sl)
{
    NS_ABORT_MSG_IF(sl > 15, "SharpAggregationManager: SL " << +sl << " (0..15)");
    m_sl = sl;
}

void
SharpAggregationManager::Install()
{
    NS_ABORT_MSG_IF(!m_nodes.empty(), "SharpAggregationManager: installed twice");
    for (uint32_t s = 0; s < m_binding.fabric.GetNSwitches(); ++s)
    {
        Ptr<SharpAggregationNode> node = m_factory.Create<SharpAggregationNode>();
        m_switchAddress.push_back(m_binding.install(s, node));
        m_nodes.push_back(node);
    }
    for (uint32_t h = 0; h < m_binding.fabric.GetNHosts(); ++h)
    {
        m_binding.receive(h, MakeCallback(&SharpAggregationManager::Result, this).Bind(h));
    }
}

SharpAggregationManager::Tree
SharpAggregationManager::BuildTree(const std::vector<uint32_t>& hosts) const
{
    const Fabric& f = m_binding.fabric;
    NS_ABORT_MSG_IF(hosts.empty(), "SharpAggregationManager::BuildTree: no host");
    const uint32_t inf = std::numeric_limits<uint32_t>::max();
    const uint32_t nodes = static_cast<uint32_t>(f.GetNodes().size());
    // The members' switches, and the hop counts from each (a host has one link, so it is never
    // on a shortest path between switches: the search over the whole graph is one over the
    // switches).
    std::vector<uint32_t> leaves;
    for (uint32_t h : hosts)
    {
        NS_ABORT_MSG_IF(h >= f.GetNHosts(), "SharpAggregationManager: no host " << h);
        const uint32_t v = f.GetPeer(f.GetHostLink(h), f.GetHostNodeId(h));
        NS_ABORT_MSG_IF(f.GetNode(v).kind != FabricNodeKind::SWITCH,
                        "SharpAggregationManager: host " << h << " is not attached to a switch");
        leaves.push_back(v);
    }
    std::sort(leaves.begin(), leaves.end());
    leaves.erase(std::unique(leaves.begin(), leaves.end()), leaves.end());
    auto distancesFrom = [&](uint32_t from) {
        std::vector<uint32_t> dist(nodes, inf);
        dist[from] = 0;
        boost::breadth_first_search(
            f.GetGraph(),
            boost::vertex(from, f.GetGraph()),
            boost::visitor(boost::make_bfs_visitor(
                boost::record_distances(dist.data(), boost::on_tree_edge()))));
        return dist;
    };
    std::vector<uint32_t> farthest(f.GetNSwitches(), 0);
    for (uint32_t leaf : leaves)
    {
        const std::vector<uint32_t> dist = distancesFrom(leaf);
        for (uint32_t s = 0; s < f.GetNSwitches(); ++s)
        {
            farthest[s] = std::max(farthest[s], dist[f.GetSwitchNodeId(s)]);
        }
    }
    Tree tree;
    tree.root = static_cast<uint32_t>(std::min_element(farthest.begin(), farthest.end()) -
                                      farthest.begin());
    NS_ABORT_MSG_IF(farthest[tree.root] == inf,
                    "SharpAggregationManager: the group's switches are not connected");
    tree.height = farthest[tree.root] + 1;
    const uint32_t rootNode = f.GetSwitchNodeId(tree.root);
    const std::vector<uint32_t> toRoot = distancesFrom(rootNode);
    // Walk up from every leaf: each switch's parent is its first link one hop nearer the root.
    std::map<uint32_t, uint32_t> parentLink; // switch node -> link to its parent
    parentLink[rootNode] = inf;
    for (uint32_t leaf : leaves)
    {
        uint32_t v = leaf;
        while (!parentLink.count(v))
        {
            uint32_t up = inf;
            for (uint32_t l : f.GetNodeLinks(v))
            {
                const uint32_t w = f.GetPeer(l, v);
                if (f.GetNode(w).kind == FabricNodeKind::SWITCH && toRoot[w] + 1 == toRoot[v])
                {
                    up = l;
                    break;
                }
            }
            NS_ABORT_MSG_IF(up == inf, "SharpAggregationManager: no way to the root");
            parentLink[v] = up;
            v = f.GetPeer(up, v);
        }
    }
    for (const auto& [v, link] : parentLink)
    {
        tree.switches.push_back(f.GetNode(v).index);
        tree.parentLink.push_back(link);
    }
    return tree; // (node ids of switches ascend with their indices: sorted)
}

bool
SharpAggregationManager::TryStart(const std::vector<uint32_t>& hosts,
                                  uint64_t bytes,
                                  std::function<void()> done)
{
    NS_ABORT_MSG_IF(m_nodes.empty(), "SharpAggregationManager: not installed");
    NS_ABORT_MSG_IF(hosts.size() < 2, "SharpAggregationManager: at least two members");
    NS_ABORT_MSG_IF(bytes == 0, "SharpAggregationManager: an empty vector");
    const uint64_t chunks = (bytes + GetChunkBytes() - 1) / GetChunkBytes();
    NS_ABORT_MSG_IF(chunks > std::numeric_limits<uint32_t>::max(),
                    "SharpAggregationManager: " << bytes << " bytes is more than 2^32 chunks");
    // A job number not in use (16 bits, as the header's field).
    uint16_t job = m_nextJob;
    while (m_jobs.count(job) || job == 0)
    {
        ++job;
        NS_ABORT_MSG_IF(job == m_nextJob, "SharpAggregationManager: 65535 jobs at once");
    }
    std::vector<uint32_t> sorted = hosts;
    std::sort(sorted.begin(), sorted.end());
    NS_ABORT_MSG_IF(std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end(),
                    "SharpAggregationManager: a host twice in one job");
    const Tree tree = BuildTree(hosts);
    const uint64_t buffer = uint64_t(m_window) * GetChunkBytes();
    for (std::size_t i = 0; i < tree.switches.size(); ++i)
    {
        if (!m_nodes[tree.switches[i]]->Reserve(job, buffer))
        {
            for (std::size_t k = 0; k < i; ++k)
            {
                m_nodes[tree.switches[k]]->Free(job);
            }
            ++m_refused;
            return false;
        }
    }
    m_nextJob = static_cast<uint16_t>(job + 1);
    const Fabric& f = m_binding.fabric;
    // Each tree switch's children: its members' links and its child switches' parent links.
    std::map<uint32_t, std::vector<SharpAggregationNode::Link>> children; // by switch index
    std::map<uint32_t, std::size_t> position;                             // switch -> entry
    for (std::size_t i = 0; i < tree.switches.size(); ++i)
    {
        position[tree.switches[i]] = i;
    }
    Job j;
    j.bytes = bytes;
    j.chunks = static_cast<uint32_t>(chunks);
    j.switches = tree.switches;
    j.done = std::move(done);
    for (uint32_t h : hosts)
    {
        const uint32_t link = f.GetHostLink(h);
        const uint32_t v = f.GetPeer(link, f.GetHostNodeId(h));
        const uint32_t s = f.GetNode(v).index;
        children[s].push_back({f.GetPort(link, v), m_binding.hostAddress(h)});
        j.memberOf[h] = static_cast<uint32_t>(j.members.size());
        j.members.push_back(Member{h, m_switchAddress[s]});
    }
    for (std::size_t i = 0; i < tree.switches.size(); ++i)
    {
        const uint32_t s = tree.switches[i];
        if (s == tree.root)
        {
            continue;
        }
        const uint32_t link = tree.parentLink[i];
        const uint32_t v = f.GetSwitchNodeId(s);
        const uint32_t up = f.GetPeer(link, v);
        children[f.GetNode(up).index].push_back({f.GetPort(link, up), m_switchAddress[s]});
    }
    for (std::size_t i = 0; i < tree.switches.size(); ++i)
    {
        const uint32_t s = tree.switches[i];
        SharpAggregationNode::Link parent{SharpAggregationNode::NO_PORT, 0};
        if (s != tree.root)
        {
            const uint32_t v = f.GetSwitchNodeId(s);
            const uint32_t up = f.GetPeer(tree.parentLink[i], v);
            parent = {f.GetPort(tree.parentLink[i], v), m_switchAddress[f.GetNode(up).index]};
        }
        m_nodes[s]->Configure(job, children[s], parent, m_sl);
    }
    ++m_started;
    Job& running = m_jobs.emplace(job, std::move(j)).first->second;
    for (Member& m : running.members)
    {
        Pump(job, m);
    }
    return true;
}

void
SharpAggregationManager::Pump(uint16_t job, Member& m)
{
    const Job& j = m_jobs.at(job);
    while (m.nextSend < j.chunks && m.nextSend - m.results < m_window)
    {
        const uint64_t offset = uint64_t(m.nextSend) * GetChunkBytes();
        const auto data =
            static_cast<uint32_t>(std::min<uint64_t>(GetChunkBytes(), j.bytes - offset));
        m_binding.send(m.host,
                       m.switchAddress,
                       SharpAggregationNode::Chunk(SharpHeader::REDUCE, job, m.nextSend, data),
                       m_sl);
        ++m.nextSend;
    }
}

void
SharpAggregationManager::Result(uint32_t host, Ptr<Packet> packet)
{
    SharpHeader h;
    packet->RemoveHeader(h);
    const auto it = m_jobs.find(h.GetJob());
    NS_ABORT_MSG_IF(it == m_jobs.end() || h.GetOpcode() != SharpHeader::RESULT,
                    "SharpAggregationManager: host " << host << " got " << h);
    Job& j = it->second;
    const auto member = j.memberOf.find(host);
    NS_ABORT_MSG_IF(member == j.memberOf.end(),
                    "SharpAggregationManager: host " << host << " is not in job " << h.GetJob());
    Member& m = j.members[member->second];
    ++m.results;
    if (m.results < j.chunks)
    {
        Pump(h.GetJob(), m);
        return;
    }
    if (++j.finished < j.members.size())
    {
        return;
    }
    for (uint32_t s : j.switches)
    {
        m_nodes[s]->Free(h.GetJob());
    }
    std::function<void()> done = std::move(j.done);
    m_jobs.erase(it);
    ++m_completed;
    if (done)
    {
        done();
    }
}

Time
SharpAggregationManager::LowerBound(const std::vector<uint32_t>& hosts, uint64_t bytes) const
{
    Time bound;
    for (uint32_t h : hosts)
    {
        const DataRate rate = m_binding.hostRate(h);
        bound = std::max(bound, rate.CalculateBytesTxTime(WireBytes(bytes)));
    }
    return bound;
}

std::string
SharpAggregationManager::GetName() const
{
    return "sharp";
}

uint32_t
SharpAggregationManager::GetChunkBytes() const
{
    return m_binding.chunkData;
}

uint64_t
SharpAggregationManager::WireBytes(uint64_t bytes) const
{
    const uint64_t full = bytes / GetChunkBytes();
    const auto rest = static_cast<uint32_t>(bytes % GetChunkBytes());
    return full * m_binding.chunkWire(GetChunkBytes()) +
           (rest > 0 || full == 0 ? m_binding.chunkWire(rest) : 0);
}

Ptr<SharpAggregationNode>
SharpAggregationManager::GetNode(uint32_t switchIndex) const
{
    return m_nodes.at(switchIndex);
}

uint64_t
SharpAggregationManager::GetJobsStarted() const
{
    return m_started;
}

uint64_t
SharpAggregationManager::GetJobsRefused() const
{
    return m_refused;
}

uint64_t
SharpAggregationManager::GetJobsCompleted() const
{
    return m_completed;
}

} // namespace ns3
