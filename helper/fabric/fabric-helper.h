/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FABRIC_HELPER_H
#define FABRIC_HELPER_H

#include "ns3/data-rate.h"
#include "ns3/fabric.h"
#include "ns3/nstime.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief The base of the fabric helpers: builds a whole network from a few parameters.
 *
 * A subclass (SpineLeafHelper, ThreeTierHelper, FatTreeHelper, RailOptimizedHelper,
 * TorusHelper) says which nodes and links the fabric has and how it routes; this class does
 * the rest in two steps that keep the topology apart from the link technology:
 *
 * 1. Describe(): the topology (a Fabric with nodes, links, rates and delays), its routes
 *    computed on the Boost.Graph graph, and its metrics. No simulation object exists yet; bad
 *    parameters are configuration errors naming them (InterconnectConfigError).
 * 2. A technology's installer turns the description into devices: RoceHelper::Build (RoCEv2
 *    and iWARP) and IbSubnetHelper::Build (InfiniBand) each take a FabricHelper; the topology
 *    knows no technology.
 *
 * Rates and delay: SetHostRate for the links of hosts, SetFabricRate for links between
 * switches (a helper may derive other rates from them), SetDelay for every link.
 */
class FabricHelper
{
  public:
    FabricHelper();
    virtual ~FabricHelper();

    /// @param rate line rate of the hosts' links (> 0; default 100 Gb/s)
    void SetHostRate(DataRate rate);
    /// @param rate line rate of the links between switches (> 0; default 100 Gb/s)
    void SetFabricRate(DataRate rate);
    /// @param delay propagation delay of every link (>= 0; default 1 us)
    void SetDelay(Time delay);
    /// @param enable also install ns-3's Internet stack on the hosts (TCP next to RDMA)
    void SetInternetStack(bool enable);
    /**
     * Spread the nodes over the ranks of a distributed run (Fabric::Partition, which refuses
     * a zero-delay link across ranks); Describe() records it (Fabric::GetPartition). Build then
     * gives every node its rank as system id, joins nodes of different ranks with
     * PfcRemoteChannel, and installs routes only on this rank's switches; IbSubnetHelper::Build
     * does the same with IbRemoteChannel. Default: one rank.
     * @param policy auto, group, slab or given
     * @param ranks number of ranks
     * @param given for "given": the rank of every node id
     */
    void SetPartition(const std::string& policy,
                      uint32_t ranks,
                      const std::vector<uint32_t>& given = {});

    /**
     * The topology, its routes and its metrics, without simulation objects.
     * @return the fabric
     */
    Fabric Describe() const;

    /// @return whether installers put the Internet stack on the hosts (SetInternetStack)
    bool GetInternetStack() const;

  protected:
    /// @return the helper's name, for messages ("FatTreeHelper")
    virtual std::string GetName() const = 0;
    /// @return what the fabric is, e.g. "fat-tree k=4" (first words of Fabric::Describe())
    virtual std::string GetKind() const = 0;
    /**
     * Check the parameters (InterconnectConfigError on a bad one) and add the nodes (hosts
     * first) and links.
     * @param fabric an empty fabric
     */
    virtual void DoCreate(Fabric& fabric) const = 0;

    /// The size of a fabric before it is created, for the memory estimate.
    struct Size
    {
        double hosts;    //!< hosts
        double switches; //!< switches
        double links;    //!< links
    };

    /**
     * @param[out] size the fabric's size, from the parameters alone
     * @return whether the helper can tell (the default cannot: the check then waits for the
     *         created fabric)
     */
    virtual bool EstimateSize(Size& size) const;
    /**
     * Compute and set the routes; the default is RouteShortestPaths().
     * @param fabric the fabric with its nodes and links
     */
    virtual void DoRoute(Fabric& fabric) const;

    /**
     * ECMP over all shortest paths: on every switch, towards every host, every link to a
     * neighbour one hop closer to it (a breadth-first search from every host on the graph).
     * In the Clos fabrics these are exactly the up/down paths.
     * @param fabric the fabric
     */
    static void RouteShortestPaths(Fabric& fabric);

    /// The switches of a pod-structured Clos fabric, as AddPods() creates them.
    struct Pods
    {
        std::vector<std::vector<uint32_t>> lower; //!< per pod, the host-facing switches
        std::vector<std::vector<uint32_t>> upper; //!< per pod, the switches above them
        std::vector<uint32_t> cores;              //!< the core switches
    };

    /**
     * Add the nodes of a pod-structured Clos fabric: `pods` x `hostsPerPod` hosts (grouped by
     * pod), then per pod `lower` switches of layer `lowerName` and `upper` of layer "aggregation",
     * then `cores` core switches. Links are the caller's.
     * @param fabric the fabric
     * @param pods pods
     * @param hostsPerPod hosts per pod
     * @param lowerName name of the host-facing layer ("edge", "access")
     * @param lower host-facing switches per pod
     * @param upper aggregation switches per pod
     * @param cores core switches
     * @return the switch ids
     */
    static Pods AddPods(Fabric& fabric,
                        uint32_t pods,
                        uint32_t hostsPerPod,
                        const std::string& lowerName,
                        uint32_t lower,
                        uint32_t upper,
                        uint32_t cores);

    /**
     * End the program if a count is below a minimum.
     * @param parameter the parameter's name (after the helper's name)
     * @param value its value
     * @param min the smallest accepted value
     */
    void CheckAtLeast(const std::string& parameter, uint64_t value, uint64_t min) const;

    /**
     * End the program if the fabric would not fit the machine's memory once built (routes and
     * simulation objects), naming its size and the estimate.
     * @param fabric the fabric with its nodes and links, before routing
     */
    void CheckMemory(const Fabric& fabric) const;

    /**
     * End the program if a fabric of this size would not fit the machine's memory.
     * @param size its hosts, switches and links
     */
    void CheckMemory(const Size& size) const;

    DataRate m_hostRate;                    //!< rate of the hosts' links
    DataRate m_fabricRate;                  //!< rate of the links between switches
    Time m_delay;                           //!< propagation delay of every link
    bool m_internetStack;                   //!< install the Internet stack on the hosts
    std::string m_partitionPolicy;          //!< partition policy
    uint32_t m_ranks;                       //!< ranks
    std::vector<uint32_t> m_partitionGiven; //!< the "given" partition
};

} // namespace ns3

#endif // FABRIC_HELPER_H
