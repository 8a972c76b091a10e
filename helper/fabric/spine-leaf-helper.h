/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SPINE_LEAF_HELPER_H
#define SPINE_LEAF_HELPER_H

#include "ns3/fabric-helper.h"

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief A two-tier Clos (Spine-Leaf) fabric: every leaf joined to every spine.
 *
 * Each of `leaves` leaf switches has `hostsPerLeaf` hosts at the host rate and one link at the
 * fabric rate to each of `spines` spine switches. The oversubscription of a leaf follows:
 * hostsPerLeaf x hostRate / (spines x fabricRate). Hosts are numbered leaf by leaf; switches:
 * the leaves, then the spines. Names: host<i>, leaf<l>, spine<s>. Routes: ECMP over all
 * shortest (leaf-spine-leaf) paths.
 *
 * @code
 *   SpineLeafHelper spineLeaf(8, 4, 16); // 8 leaves, 4 spines, 16 hosts per leaf
 *   spineLeaf.SetHostRate(DataRate("100Gbps"));
 *   spineLeaf.SetFabricRate(DataRate("400Gbps")); // 1600 : 1600, non-blocking
 *   Fabric fabric = roce.Build(spineLeaf);
 * @endcode
 */
class SpineLeafHelper : public FabricHelper
{
  public:
    /**
     * @param leaves leaf switches (>= 1)
     * @param spines spine switches (>= 1)
     * @param hostsPerLeaf hosts on each leaf (>= 1)
     */
    SpineLeafHelper(uint32_t leaves, uint32_t spines, uint32_t hostsPerLeaf);

    /// @return the leaves' oversubscription: host capacity over uplink capacity
    double GetOversubscription() const;

  protected:
    std::string GetName() const override;
    std::string GetKind() const override;
    void DoCreate(Fabric& fabric) const override;
    bool EstimateSize(Size& size) const override;

  private:
    uint32_t m_leaves;       //!< leaf switches
    uint32_t m_spines;       //!< spine switches
    uint32_t m_hostsPerLeaf; //!< hosts per leaf
};

} // namespace ns3

#endif // SPINE_LEAF_HELPER_H
