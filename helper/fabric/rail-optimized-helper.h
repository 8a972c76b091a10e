/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RAIL_OPTIMIZED_HELPER_H
#define RAIL_OPTIMIZED_HELPER_H

#include "ns3/fabric-helper.h"

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief A rail-optimized GPU cluster: NIC i of every server on rail i's leaf, rails joined by
 * spines (as in NVIDIA's DGX SuperPOD reference architecture).
 *
 * `servers` servers with `nicsPerServer` NICs each (one per GPU). NIC r of every server links
 * to the leaf of rail r, so GPUs of the same rank on different servers are one switch apart;
 * with SetServersPerLeaf(n) the servers form groups of n ("scalable units") and each group has
 * its own leaf per rail. Every leaf links to every one of `spines` spines, which join the rails
 * and the groups. NIC links run at the host rate, leaf-spine links at the fabric rate.
 *
 * A RoceHelper host has one port, so each GPU NIC is a host of its own: host index = server x
 * nicsPerServer + rail, named server<s>-nic<r>, its group the server. The NVLink/PCIe paths
 * between the GPUs of one server are not part of this fabric (traffic between two NICs of one
 * server, or between rails, crosses a spine; no PXN-style forwarding through another GPU).
 * Switches: the leaves (group by group, rail by rail, named rail<r>-<group>), then the spines
 * (spine<i>). Routes: ECMP over all shortest paths.
 */
class RailOptimizedHelper : public FabricHelper
{
  public:
    /**
     * @param servers servers (>= 1)
     * @param nicsPerServer NICs (GPUs, rails) per server (>= 1)
     * @param spines spine switches (>= 1)
     */
    RailOptimizedHelper(uint32_t servers, uint32_t nicsPerServer, uint32_t spines);

    /// @param servers servers per rail leaf, dividing the servers (0: all, one leaf per rail)
    void SetServersPerLeaf(uint32_t servers);

  protected:
    std::string GetName() const override;
    std::string GetKind() const override;
    void DoCreate(Fabric& fabric) const override;

  private:
    uint32_t m_servers;        //!< servers
    uint32_t m_nicsPerServer;  //!< NICs per server = rails
    uint32_t m_spines;         //!< spine switches
    uint32_t m_serversPerLeaf; //!< servers per group (0: all)
};

} // namespace ns3

#endif // RAIL_OPTIMIZED_HELPER_H
