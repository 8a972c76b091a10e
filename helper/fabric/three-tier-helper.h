/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef THREE_TIER_HELPER_H
#define THREE_TIER_HELPER_H

#include "ns3/fabric-helper.h"

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief The classic three-tier data-center tree: access, aggregation and core layers, with an
 * oversubscription per layer.
 *
 * `pods` pods, each with `accessPerPod` access switches and `aggregationPerPod` aggregation
 * switches; every access switch has `hostsPerAccess` hosts at the host rate and links to every
 * aggregation switch of its pod; every aggregation switch links to every one of `cores` core
 * switches. Links between switches run at the fabric rate; the oversubscriptions set how many
 * parallel links each pair of switches gets:
 *
 * - access: hostsPerAccess x hostRate = accessOversubscription x aggregationPerPod x n1 x
 *   fabricRate, n1 links from each access switch to each aggregation switch;
 * - aggregation: accessPerPod x n1 x fabricRate = aggregationOversubscription x cores x n2 x
 *   fabricRate, n2 links from each aggregation switch to each core.
 *
 * An oversubscription that does not give whole numbers n1, n2 >= 1 cannot be built and ends the
 * program with a message naming it. Hosts are numbered pod by pod, access switch by access
 * switch; switches: per pod its access then its aggregation switches, then the cores. Names:
 * host<i>, access<pod>-<i>, aggregation<pod>-<i>, core<i>. Routes: ECMP over all shortest
 * paths, parallel links included.
 */
class ThreeTierHelper : public FabricHelper
{
  public:
    /**
     * @param pods pods (>= 1)
     * @param accessPerPod access switches per pod (>= 1)
     * @param aggregationPerPod aggregation switches per pod (>= 1)
     * @param cores core switches (>= 1)
     * @param hostsPerAccess hosts per access switch (>= 1)
     */
    ThreeTierHelper(uint32_t pods,
                    uint32_t accessPerPod,
                    uint32_t aggregationPerPod,
                    uint32_t cores,
                    uint32_t hostsPerAccess);

    /// @param ratio access layer oversubscription, host capacity : uplink capacity (default 1)
    void SetAccessOversubscription(double ratio);
    /// @param ratio aggregation layer oversubscription, downlink : uplink capacity (default 1)
    void SetAggregationOversubscription(double ratio);

  protected:
    std::string GetName() const override;
    std::string GetKind() const override;
    void DoCreate(Fabric& fabric) const override;

  private:
    /**
     * The number of parallel links an oversubscription asks for, or the end of the program.
     * @param parameter the oversubscription's name
     * @param ratio its value
     * @param links the exact number of links it gives
     * @param what the pair of layers, for the message
     * @return the whole number of links
     */
    uint32_t WholeLinks(const std::string& parameter,
                        double ratio,
                        double links,
                        const std::string& what) const;

    uint32_t m_pods;                      //!< pods
    uint32_t m_accessPerPod;              //!< access switches per pod
    uint32_t m_aggregationPerPod;         //!< aggregation switches per pod
    uint32_t m_cores;                     //!< core switches
    uint32_t m_hostsPerAccess;            //!< hosts per access switch
    double m_accessOversubscription;      //!< access layer
    double m_aggregationOversubscription; //!< aggregation layer
};

} // namespace ns3

#endif // THREE_TIER_HELPER_H
