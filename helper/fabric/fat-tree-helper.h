/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FAT_TREE_HELPER_H
#define FAT_TREE_HELPER_H

#include "ns3/fabric-helper.h"

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief A k-ary fat-tree (Al-Fares, Loukissas and Vahdat, "A Scalable, Commodity Data Center
 * Network Architecture", SIGCOMM 2008).
 *
 * Built of k-port switches, k even: k pods, each with k/2 edge and k/2 aggregation switches;
 * every edge switch has k/2 hosts and a link to every aggregation switch of its pod;
 * aggregation switch a of every pod links to core switches a x k/2 ... a x k/2 + k/2 - 1 of the
 * (k/2)^2 cores. So k^3/4 hosts, 5k^2/4 switches, 3k^3/4 links; with equal host and fabric
 * rates it is non-blocking (full bisection bandwidth), and two hosts in different pods have
 * (k/2)^2 equal-cost paths. Hosts are numbered pod by pod, edge switch by edge switch;
 * switches: per pod its edge then its aggregation switches, then the cores. Names: host<i>,
 * edge<pod>-<i>, aggregation<pod>-<i>, core<i>. Routes: ECMP over all shortest paths (up/down).
 */
class FatTreeHelper : public FabricHelper
{
  public:
    /**
     * @param k switch radix: pods, ports per switch (even, >= 2)
     */
    explicit FatTreeHelper(uint32_t k);

    /**
     * Join a fat-tree's hosts and switches (as this helper's DoCreate does; TwoDcHelper joins two).
     * @param fabric the fabric
     * @param k the radix
     * @param firstHost the node id of its first host (its k^3/4 hosts are consecutive)
     * @param pods its switches, as AddPods would make them
     * @param hostRate the host links' rate
     * @param fabricRate the switch links' rate
     * @param delay every link's delay
     */
    static void JoinFatTree(Fabric& fabric,
                            uint32_t k,
                            uint32_t firstHost,
                            const Pods& pods,
                            DataRate hostRate,
                            DataRate fabricRate,
                            Time delay);

  protected:
    std::string GetName() const override;
    std::string GetKind() const override;
    void DoCreate(Fabric& fabric) const override;
    bool EstimateSize(Size& size) const override;

  private:
    uint32_t m_k; //!< the radix
};

} // namespace ns3

#endif // FAT_TREE_HELPER_H
