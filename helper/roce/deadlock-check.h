/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DEADLOCK_CHECK_H
#define DEADLOCK_CHECK_H

#include "ns3/node-container.h"
#include "ns3/node.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

class Fabric;

/**
 * @ingroup interconnect
 * @brief Finds the routing configurations in which PFC can deadlock, before a simulation runs.
 *
 * A lossless channel is one direction of a cable on one priority whose receiving switch pauses
 * the sender (PFC) instead of dropping. A frame held in the ingress buffer of channel A waits
 * for the channel B it leaves over; if B's receiver pauses, A's buffer fills and pauses A's
 * sender in turn. So routes create dependencies A -> B between lossless channels, and a cycle
 * of them can freeze for good: a PFC deadlock (Hu et al., "Deadlocks in Datacenter Networks:
 * Why Do They Form, and How to Avoid Them", HotNets 2016). The check builds this
 * channel-dependency graph (Dally and Seitz, IEEE Trans. Computers 1987) from what is
 * installed, not from what a helper meant to install:
 *
 * - the routes of every RoceSwitch (RoceSwitch::GetRoute), all members of every ECMP group;
 * - the priority remap rules (RoceSwitch::GetPriorityRemap), so a dependency may lead from one
 *   priority to another;
 * - the lossless priorities of every switch's buffer manager (RoceSwitchMmu::IsLossless);
 * - the priorities the hosts send on: the classes (DSCP / 8) of every RdmaNic's Dscp and
 *   CnpDscp attributes.
 *
 * Only dependencies some traffic can create are counted: for every destination host, frames are
 * followed from every other host along the routes. Every strongly connected component of the
 * graph (Boost.Graph's strong_components) with more than one channel holds a cycle; the check
 * reports one shortest cycle through each such component (a breadth-first search inside it),
 * as the list of channels on it. It also counts (switch, destination) pairs that traffic
 * reaches without a route.
 *
 * @code
 *   DeadlockCheck check;
 *   check.Run(NodeContainer(roce.GetHosts(), roce.GetSwitches()));
 *   if (!check.IsDeadlockFree()) { std::cerr << check.Describe(); }
 * @endcode
 */
class DeadlockCheck
{
  public:
    /// A lossless channel: frames sent by `from` to the switch `to` on `priority`.
    struct Channel
    {
        Ptr<Node> from;   //!< the sending node (host or switch)
        Ptr<Node> to;     //!< the receiving switch
        uint8_t priority; //!< the priority
    };

    /// A cycle of dependencies: each channel waits for the next, the last one for the first.
    typedef std::vector<Channel> Cycle;

    /// Names nodes in messages.
    typedef std::function<std::string(Ptr<Node>)> NodeNamer;

    DeadlockCheck();

    /**
     * @param namer names nodes in Describe() (default: "node <id>")
     */
    void SetNodeNamer(NodeNamer namer);

    /**
     * Build the channel-dependency graph of the network and look for cycles.
     * @param nodes the hosts (each with an RdmaNic) and switches (each with a RoceSwitch) of
     *        one network; other nodes are ignored
     */
    void Run(const NodeContainer& nodes);

    /**
     * Check a fabric that RoceHelper::Build installed, naming channels by the fabric's node
     * names: the PFC analysis of a Fabric, as IbCreditLoopCheck is InfiniBand's.
     * @param fabric the fabric, its nodes bound
     * @return the check, run
     */
    static DeadlockCheck ForFabric(const Fabric& fabric);

    /**
     * The cycles of a dependency graph: one shortest cycle through the first vertex of every
     * strongly connected component with more than one vertex. Shared by the checks of other
     * link technologies (InfiniBand's credit loops).
     * @param vertices number of vertices (channels)
     * @param edges dependencies, (from, to)
     * @return the cycles, as vertex lists in dependency order
     */
    static std::vector<std::vector<uint32_t>> ShortestCycles(
        uint32_t vertices,
        const std::vector<std::pair<uint32_t, uint32_t>>& edges);

    /// @return true if Run() found no cycle
    bool IsDeadlockFree() const;
    /// @return one cycle per strongly connected component of the dependency graph
    const std::vector<Cycle>& GetCycles() const;
    /// @return lossless channels that carry traffic (vertices of the graph)
    uint32_t GetNChannels() const;
    /// @return dependencies between them (edges of the graph)
    uint64_t GetNDependencies() const;
    /// @return the lossless priorities that carry traffic, in increasing order
    std::vector<uint8_t> GetPriorities() const;
    /**
     * @param priority a priority
     * @return lossless channels of that priority that carry traffic
     */
    uint32_t GetNChannels(uint8_t priority) const;
    /// @return (switch, destination host) pairs that traffic reaches without a route
    uint64_t GetNoRoute() const;

    /**
     * @param cycle a cycle
     * @return "a -> b (3) -> c (3) -> a (4)": the nodes along it, each hop's priority in
     *         parentheses
     */
    std::string DescribeCycle(const Cycle& cycle) const;
    /**
     * A summary line, then up to `maxCycles` cycles, one per line.
     * @param maxCycles cycles to list
     * @return the text
     */
    std::string Describe(uint32_t maxCycles = 4) const;

  private:
    NodeNamer m_namer;                   //!< names nodes
    std::vector<Cycle> m_cycles;         //!< one per cyclic component
    std::vector<uint32_t> m_channelsPer; //!< channels per priority (8)
    uint32_t m_channels;                 //!< vertices
    uint64_t m_dependencies;             //!< edges
    uint64_t m_noRoute;                  //!< (switch, destination) pairs without a route
    bool m_ran;                          //!< Run() done
};

} // namespace ns3

#endif // DEADLOCK_CHECK_H
