/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FABRIC_H
#define FABRIC_H

#include "ns3/data-rate.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/nstime.h"

#include <boost/graph/adjacency_list.hpp>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * What a fabric node is.
 */
enum class FabricNodeKind : uint8_t
{
    HOST,  //!< an end host with one port (one NIC)
    SWITCH //!< a switch
};

/**
 * @ingroup interconnect
 * A host or a switch of a Fabric.
 */
struct FabricNode
{
    FabricNodeKind kind;               //!< host or switch
    std::string name;                  //!< unique name: "host5", "edge1-0", "spine2", "sw1-3"
    std::string layer;                 //!< "host", "leaf", "spine", "edge", "aggregation", ...
    uint32_t index;                    //!< host index or switch index (RoceHelper's numbering)
    int32_t group;                     //!< pod, leaf, server or rail it belongs to; -1 if none
    std::vector<uint32_t> coordinates; //!< torus coordinates (a host: those of its switch)
    Ptr<Node> node;                    //!< the ns-3 node (null until an installer binds it)
};

/**
 * @ingroup interconnect
 * A cable of a Fabric: full duplex, the same rate both ways.
 */
struct FabricLink
{
    uint32_t a;             //!< one end (node id)
    uint32_t b;             //!< the other end (node id); in a torus, a's neighbour in + direction
    DataRate rate;          //!< line rate of both ports
    Time delay;             //!< propagation delay
    int32_t dimension;      //!< torus dimension; -1 in other fabrics
    bool wrapAround;        //!< torus wrap-around link (coordinate k-1 to 0): the dateline
    uint32_t portA;         //!< port index on a: the number of a's links before this one
    uint32_t portB;         //!< port index on b: the number of b's links before this one
    Ptr<NetDevice> deviceA; //!< the device on a (null until Build)
    Ptr<NetDevice> deviceB; //!< the device on b (null until Build)
};

/**
 * @ingroup interconnect
 * A rule of a fabric's routing that moves frames to another priority at a switch (see
 * RoceSwitch::SetPriorityRemap): frames arriving over `inLink` on `fromPriority` and leaving
 * over `outLink` leave on `toPriority`.
 */
struct FabricPriorityRemap
{
    uint32_t node;        //!< the switch (node id)
    uint32_t inLink;      //!< the link the frame arrives over
    uint32_t outLink;     //!< the link it leaves over
    uint8_t fromPriority; //!< its priority on arrival
    uint8_t toPriority;   //!< its priority on departure
};

/**
 * @ingroup interconnect
 * Edge property of a Fabric's graph: the link the edge stands for.
 */
struct FabricGraphEdge
{
    uint32_t link{0}; //!< index into Fabric::GetLinks()
};

/**
 * @ingroup interconnect
 * Which simulation rank (MPI process, ns-3 system id) each node of a Fabric lives on, for ns-3's
 * distributed simulator; see Fabric::Partition.
 */
struct FabricPartition
{
    std::string policy;                 //!< how it was made: group, slab or given
    uint32_t ranks{1};                  //!< number of ranks
    std::vector<uint32_t> rank;         //!< per node id: its rank
    std::vector<uint32_t> nodesPerRank; //!< hosts and switches on each rank
    std::vector<uint32_t> hostsPerRank; //!< hosts on each rank
    uint32_t crossLinks{0};             //!< links whose ends are on different ranks
    Time lookahead;                     //!< the smallest delay of those links (the window of the
                                        //!< conservative synchronisation); zero if none cross

    /// @return one line: ranks, nodes and hosts per rank, links across, lookahead
    std::string Describe() const;
};

/**
 * @ingroup interconnect
 * @brief A whole network built by a fabric helper: hosts, switches, links, routes, and a graph.
 *
 * Node ids: the hosts come first (node id = host index), then the switches (node id = number
 * of hosts + switch index), in the order RoceHelper numbers them. Links are numbered in order of
 * creation: the hosts' links first. The graph (Boost.Graph, undirected, parallel edges allowed)
 * has one vertex per node (vertex = node id) and one edge per link, carrying the link's index.
 *
 * The routing state is technology-independent: for every switch and every destination host,
 * the links a frame may leave over (an ECMP group; each distinct group is stored once, so the
 * table costs 4 bytes per switch and host), and the priority remap rules. A fabric
 * helper computes it on the graph and installs it on the switches (RoceHelper::Build); the
 * path functions below walk it.
 *
 * Metrics: the diameter is the largest number of links between two hosts on a shortest path;
 * the bisection bandwidth is the largest rate at which the first half of the hosts (by index)
 * can send to the second half at once, a maximum flow on the graph (push-relabel). The helpers
 * number hosts by locality (pod, leaf, torus coordinate), so this cut is the fabric's narrowest
 * balanced one for the symmetric fabrics built here.
 */
class Fabric
{
  public:
    /// The topology graph: vertex = node id, edge = link.
    typedef boost::adjacency_list<boost::vecS,
                                  boost::vecS,
                                  boost::undirectedS,
                                  boost::no_property,
                                  FabricGraphEdge>
        Graph;

    /**
     * @param kind what the fabric is, e.g. "fat-tree k=4" (first words of Describe())
     */
    explicit Fabric(const std::string& kind = "fabric");

    /**
     * Add a host; hosts must all be added before the first switch.
     * @param name unique name
     * @param group pod, leaf, server... (-1 if none)
     * @param coordinates torus coordinates, or empty
     * @return the node id (= host index)
     */
    uint32_t AddHost(const std::string& name,
                     int32_t group = -1,
                     const std::vector<uint32_t>& coordinates = {});
    /**
     * Add a switch.
     * @param name unique name
     * @param layer its layer: "leaf", "spine", "edge", "aggregation", "core", "access", ...
     * @param group pod or rail (-1 if none)
     * @param coordinates torus coordinates, or empty
     * @return the node id
     */
    uint32_t AddSwitch(const std::string& name,
                       const std::string& layer,
                       int32_t group = -1,
                       const std::vector<uint32_t>& coordinates = {});
    /**
     * Add a cable. A host has one port: a second link to a host is a programming error.
     * @param a one end (node id)
     * @param b the other end
     * @param rate line rate
     * @param delay propagation delay
     * @param dimension torus dimension, or -1
     * @param wrapAround a torus wrap-around link
     * @return the link index
     */
    uint32_t AddLink(uint32_t a,
                     uint32_t b,
                     DataRate rate,
                     Time delay,
                     int32_t dimension = -1,
                     bool wrapAround = false);

    /**
     * Set the routes towards one host: for each switch (by switch index) the links it forwards
     * over. Call once per host, in host order (0, 1, ...), after the last AddLink.
     * @param host the destination host
     * @param links per switch index, the egress links (empty: no route from that switch)
     */
    void SetRoutesTo(uint32_t host, const std::vector<std::vector<uint32_t>>& links);
    /// @param rule a priority remap rule of the routing (see FabricPriorityRemap)
    void AddPriorityRemap(const FabricPriorityRemap& rule);
    /// @param routing how routes were computed, e.g. "ECMP over all shortest paths"
    void SetRoutingName(const std::string& routing);

    /// Compute the diameter and the bisection bandwidth (FabricHelper does after routing).
    void ComputeMetrics();

    /// @return what the fabric is, e.g. "fat-tree k=4"
    const std::string& GetKind() const;
    /// @return how its routes were computed
    const std::string& GetRoutingName() const;
    /// @return the number of hosts
    uint32_t GetNHosts() const;
    /// @return the number of switches
    uint32_t GetNSwitches() const;
    /// @return the number of links
    uint32_t GetNLinks() const;
    /// @return all nodes, by node id
    const std::vector<FabricNode>& GetNodes() const;
    /// @return one node
    const FabricNode& GetNode(uint32_t id) const;
    /// @return the node id of a host
    uint32_t GetHostNodeId(uint32_t host) const;
    /// @return the node id of a switch
    uint32_t GetSwitchNodeId(uint32_t switchIndex) const;
    /// @return all links, by index
    const std::vector<FabricLink>& GetLinks() const;
    /// @return one link
    const FabricLink& GetLink(uint32_t link) const;
    /// @return the graph
    const Graph& GetGraph() const;
    /// @return the links of a node, in port order (link i is on port i)
    const std::vector<uint32_t>& GetNodeLinks(uint32_t node) const;
    /// @return the link of a host (its only one)
    uint32_t GetHostLink(uint32_t host) const;
    /**
     * @param link a link
     * @param node one of its ends
     * @return the other end
     */
    uint32_t GetPeer(uint32_t link, uint32_t node) const;
    /**
     * @param link a link
     * @param node one of its ends
     * @return the port index of the link on that node
     */
    uint32_t GetPort(uint32_t link, uint32_t node) const;

    /**
     * @param switchIndex a switch
     * @param host the destination host
     * @return the links the switch forwards frames to the host over (empty if none)
     */
    std::vector<uint32_t> GetRoute(uint32_t switchIndex, uint32_t host) const;
    /// @return the priority remap rules of the routing
    const std::vector<FabricPriorityRemap>& GetPriorityRemaps() const;

    /**
     * The path from one host to another along the routes, taking the first link of every
     * ECMP group.
     * @param src source host
     * @param dst destination host
     * @return the node ids from src to dst; empty if the routes do not reach dst
     */
    std::vector<uint32_t> TracePath(uint32_t src, uint32_t dst) const;
    /**
     * @param src source host
     * @param dst destination host
     * @return the number of links from src to dst along the routes (0 if unreachable)
     */
    uint32_t GetHopCount(uint32_t src, uint32_t dst) const;
    /**
     * The number of distinct paths the routes allow from one host to another (all members of
     * every ECMP group).
     * @param src source host
     * @param dst destination host
     * @return the number of paths; 0 if none reaches dst or the routes loop
     */
    uint64_t CountPaths(uint32_t src, uint32_t dst) const;

    /// @return the largest number of links between two hosts on a shortest path
    uint32_t GetDiameter() const;
    /// @return the bisection bandwidth (see the class description), bit/s
    uint64_t GetBisectionBandwidth() const;
    /**
     * One line: "fat-tree k=4: 16 hosts, 20 switches, 48 links, bisection 800 Gb/s,
     * diameter 6 hops".
     * @return the description
     */
    std::string Describe() const;

    /// @return the fabric as a Graphviz graph (switches as boxes, links labelled by rate)
    std::string ToDot() const;
    /// @return the fabric as JSON: the metrics, "nodes" and "links" (rates in bit/s)
    std::string ToJson() const;
    /**
     * @param path the file
     * @return true on success
     */
    bool WriteDot(const std::string& path) const;
    /**
     * @param path the file
     * @return true on success
     */
    bool WriteJson(const std::string& path) const;

    /**
     * An installer (RoceHelper::Build) binds the description to what it built.
     * @param v a node id
     * @param node its ns-3 node
     */
    void BindNode(uint32_t v, Ptr<Node> node);
    /**
     * @param l a link index
     * @param a the device on its end a
     * @param b the device on its end b
     */
    void BindLink(uint32_t l, Ptr<NetDevice> a, Ptr<NetDevice> b);

    /**
     * Deal the nodes to ranks for a distributed run. Policies: "group" gives each rank a
     * contiguous block of groups (pods, leaves, servers) with their hosts and switches, and the
     * switches outside groups (cores, spines) round robin; "slab" cuts a torus along its first
     * dimension; "auto" is slab for tori and group otherwise; "given" takes `given` (a rank per
     * node id). A host without a group goes with its switch. A link across ranks must have a
     * delay above zero (it is the lookahead of the synchronisation): a partition that puts a
     * zero-delay link across ranks is a configuration error naming the link.
     * @param policy auto, group, slab or given
     * @param ranks number of ranks (1..number of nodes)
     * @param given for "given": the rank of every node id
     * @return the partition
     */
    FabricPartition Partition(const std::string& policy,
                              uint32_t ranks,
                              const std::vector<uint32_t>& given = {}) const;

    /// @return the ranks of its nodes, as FabricHelper::SetPartition asked (default: one rank)
    const FabricPartition& GetPartition() const;

  private:
    friend class FabricHelper;

    std::string m_kind;                                     //!< what it is
    std::string m_routing;                                  //!< how routes were computed
    FabricPartition m_partition;                            //!< ranks of the nodes (Build)
    std::vector<FabricNode> m_nodes;                        //!< by node id
    std::vector<FabricLink> m_links;                        //!< by link index
    std::vector<std::vector<uint32_t>> m_adj;               //!< links of each node
    Graph m_graph;                                          //!< the topology graph
    uint32_t m_nHosts;                                      //!< hosts (ids 0 .. m_nHosts-1)
    std::vector<uint32_t> m_route;                          //!< (host x switches + switch) -> group
    std::vector<std::vector<uint32_t>> m_groups;            //!< distinct ECMP groups (0: none)
    std::map<std::vector<uint32_t>, uint32_t> m_groupIndex; //!< group -> index in m_groups
    std::vector<FabricPriorityRemap> m_remaps;              //!< priority remap rules
    uint32_t m_diameter;                                    //!< hops
    uint64_t m_bisection;                                   //!< bit/s
};

} // namespace ns3

#endif // FABRIC_H
