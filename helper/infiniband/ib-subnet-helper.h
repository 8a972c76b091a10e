/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_SUBNET_HELPER_H
#define IB_SUBNET_HELPER_H

#include "ns3/fabric-helper.h"
#include "ns3/fabric.h"
#include "ns3/ib-host-adapter.h"
#include "ns3/ib-switch.h"
#include "ns3/object-factory.h"

#include <functional>
#include <tuple>
#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief An InfiniBand subnet built by IbSubnetHelper: the fabric, its hosts' adapters and its
 * switches, with their LIDs.
 */
struct IbSubnet
{
    Fabric fabric;                            //!< the topology (FabricHelper's description)
    std::vector<Ptr<Node>> hostNodes;         //!< host nodes, by host index
    std::vector<Ptr<IbHostAdapter>> adapters; //!< host adapters, by host index
    std::vector<Ptr<Node>> switchNodes;       //!< switch nodes, by switch index
    std::vector<Ptr<IbSwitch>> switches;      //!< switches, by switch index
    std::vector<Ptr<IbNetDevice>> ports;      //!< every port, two per fabric link
    bool datelines{false};                    //!< a torus with VL datelines (path SLs)

    /// @param host a host index @return its (base) LID
    uint16_t GetLid(uint32_t host) const;

    /**
     * The SL a path must use, as a subnet manager's path record gives it. On a Clos fabric,
     * the QoS class itself; on a torus with datelines, torus-2QoS's encoding: bit d set if the
     * path crosses dimension d's dateline (takes its wrap-around link), bit 3 the QoS class.
     * @param src source host
     * @param dst destination host
     * @param qos the service class (on a torus: 0 or 1)
     * @return the SL
     */
    uint8_t GetPathSl(uint32_t src, uint32_t dst, uint8_t qos = 0) const;

    /**
     * The path a packet takes, following the switches' forwarding tables.
     * @param src source host
     * @param dst destination host
     * @return the fabric node ids from src to dst (empty if the tables do not get there)
     */
    std::vector<uint32_t> TracePath(uint32_t src, uint32_t dst) const;
    /**
     * @param host a host index
     * @param path 0..2^LMC-1
     * @return the LID that reaches the host over that path
     */
    uint16_t GetLid(uint32_t host, uint32_t path) const;
};

/**
 * @ingroup interconnect
 * @brief The credit loops of an InfiniBand subnet's forwarding tables, before a simulation
 * runs: channels are (link direction, VL); a packet held in one channel's receive buffer waits
 * for the channel it leaves over, so every route gives dependencies between consecutive
 * channels, and a cycle of them can deadlock the credit loop (the same analysis as the PFC
 * check, DeadlockCheck, applied to VLs). Routes are followed from every host adapter to every
 * LID of every other one (all 2^LMC of them) for every SL, through the switches' linear
 * forwarding tables and the ports' SL-to-VL maps.
 */
struct IbCreditLoopCheck
{
    uint32_t channels{0};                         //!< channels some route uses
    uint32_t dependencies{0};                     //!< dependencies between them
    uint32_t unrouted{0};                         //!< (source, destination) pairs without a route
    std::vector<std::vector<std::string>> cycles; //!< each cycle, as "node->node vl N" channels

    /**
     * Run the check.
     * @param adapters the host adapters (their LIDs are the destinations)
     * @param switches the switches
     * @param sls the service levels to follow (default: SL 0)
     * @return the result
     */
    static IbCreditLoopCheck Run(const std::vector<Ptr<IbHostAdapter>>& adapters,
                                 const std::vector<Ptr<IbSwitch>>& switches,
                                 const std::vector<uint8_t>& sls = {0});

    /**
     * Run the check with the SL each path uses (IbSubnet::GetPathSl).
     * @param subnet the subnet
     * @param qos the service class
     * @return the result
     */
    static IbCreditLoopCheck Run(const IbSubnet& subnet, uint8_t qos = 0);

    /**
     * Run the check with the SLs a function gives for each (source, destination) host pair.
     * @param adapters the host adapters
     * @param switches the switches
     * @param slsOf the SLs of a pair, by host indexes
     * @return the result
     */
    static IbCreditLoopCheck RunWithSls(
        const std::vector<Ptr<IbHostAdapter>>& adapters,
        const std::vector<Ptr<IbSwitch>>& switches,
        const std::function<std::vector<uint8_t>(uint32_t, uint32_t)>& slsOf);

    /// @return true if no cycle and every pair routed
    bool IsDeadlockFree() const;
};

/**
 * @ingroup interconnect
 * @brief Builds any fabric of the fabric helpers as an InfiniBand subnet, and acts as its
 * subnet manager: it assigns LIDs (host h: LID h + 1, or with LMC (h + 1) x 2^LMC) and fills
 * every switch's linear forwarding table with min-hop routes balanced over the equal-cost
 * ports by destination (DLID modulo the number of ports of the group), the way OpenSM's
 * min-hop engine spreads destinations. On Clos fabrics (fat-tree, spine-leaf, three-tier,
 * rail-optimized) the min-hop routes go up, then down, so they hold no credit loop. On a torus
 * (TorusHelper with its dateline) the tables follow dimension order, minimal direction per
 * dimension, and the datelines are VLs, as OpenSM's torus-2QoS engine sets them up: a path's
 * SL records which dimensions' wrap-around links it takes (IbSubnet::GetPathSl), and every port
 * of a link in dimension d maps SL to VL by that dimension's bit (and the QoS class, SL bit 3, to
 * VL bit 1). A ring's paths that cross its dateline then use VL 1 on all of its links they take,
 * the others VL 0, which never take the wrap-around link: minimal paths are at most half a ring
 * long, so neither VL's dependencies close the ring. A torus without its dateline gets no VL
 * separation, and the credit-loop check shows its cycles.
 */
class IbSubnetHelper
{
  public:
    IbSubnetHelper();

    /// @param name an IbNetDevice attribute @param value its value, for every port
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);
    /**
     * Set a port attribute on the links between two switches of one layer (e.g. "dci": a
     * two-dc fabric's long hauls, for long-haul extenders), over SetDeviceAttribute's.
     * @param layer the FabricNode layer of both ends
     * @param name an IbNetDevice attribute
     * @param value its value
     */
    void SetLayerLinkDeviceAttribute(const std::string& layer,
                                     const std::string& name,
                                     const AttributeValue& value);
    /// @param name an IbSwitch attribute @param value its value, for every switch
    void SetSwitchAttribute(const std::string& name, const AttributeValue& value);
    /**
     * LID mask control: every host gets 2^lmc LIDs (base LID (h + 1) x 2^lmc), and each of a
     * destination's LIDs is routed over a different member of the equal-cost port groups
     * (LID modulo the group's size), so a sender picks a path by picking the DLID.
     * @param lmc 0..7 (default 0: one LID, one path per destination)
     */
    void SetLmc(uint8_t lmc);

    /**
     * Give every port the speed and width whose data rate is its fabric link's rate (e.g.
     * 100 Gb/s: EDR 4x; 200 Gb/s: HDR 4x), instead of the device attributes' Speed and Width.
     * A rate no IB link has is a configuration error that lists the ones it could be.
     * @param enable on or off (default off)
     */
    void SetLinkRatesFromFabric(bool enable);

    /// How the subnet manager routes.
    enum Routing
    {
        AUTO,   //!< the fabric's own routes: min-hop on Clos fabrics, dimension order on tori
        UP_DOWN //!< up/down from root switches, on any fabric, no VLs needed
    };

    /**
     * Choose the routing engine (default AUTO). UP_DOWN, as OpenSM's updn engine: switches are
     * ranked by their distance from the roots (the switches farthest from any host, or switch 0
     * when all are equally far, as on a torus), a hop is "up" towards a lower (rank, node id)
     * and "down" otherwise, and every route is some up hops then some down hops: its channel
     * dependencies cannot close a cycle. A switch sends down when a down-only path exists
     * (shortest, balanced over ports by destination), else up towards the nearest legal path.
     * On a torus the routes are then not minimal but need one VL only.
     * @param routing the engine
     */
    void SetRouting(Routing routing);

    /**
     * Build the subnet (link delays from the fabric helper; rates from the ports' Speed and
     * Width). With the helper's SetPartition, every node gets its rank as system id and a link
     * between ranks is an IbRemoteChannel; every rank keeps every switch's forwarding table
     * (TracePath, hence the ideal FCTs, follows them).
     * @param helper a fabric helper
     * @return the subnet
     */
    IbSubnet Build(const FabricHelper& helper) const;

  private:
    ObjectFactory m_device; //!< ports
    /// Per layer: attributes of the ports of links within it (SetLayerLinkDeviceAttribute).
    std::vector<std::tuple<std::string, std::string, Ptr<AttributeValue>>> m_layerLinks;
    ObjectFactory m_switch; //!< switches
    uint8_t m_lmc;          //!< LID mask control
    bool m_ratesFromFabric; //!< ports take their links' rates
    Routing m_routing;      //!< routing engine
};

} // namespace ns3

#endif // IB_SUBNET_HELPER_H
