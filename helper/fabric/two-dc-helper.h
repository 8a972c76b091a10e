/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TWO_DC_HELPER_H
#define TWO_DC_HELPER_H

#include "ns3/fabric-helper.h"

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief Two data centres joined by long-haul links (scale-across): two k-ary fat-trees, each
 * with `dciLinks` border (DCI) switches linked to every core switch of its own data centre, and
 * DCI switch i of the first joined to DCI switch i of the second by one long-haul link of its
 * own rate and delay (light takes about 5 us per km of fibre: 10 km is 50 us).
 *
 * Hosts: the first data centre's k^3/4 (pod by pod, as FatTreeHelper numbers them), then the
 * second's; switches: per data centre its pods' edge and aggregation switches, its cores and its
 * DCI switches. Names carry the data centre: dc0-host3, dc1-edge2-0, dc0-core1, dc1-dci0.
 * Groups (for partitions): the pods, numbered across both data centres. Routes: ECMP over all
 * shortest paths, so traffic between the data centres spreads over every core and every long
 * haul, and traffic inside one stays there. Between data centres a path has 9 links: host,
 * edge, aggregation, core, DCI, long haul, and down again.
 */
class TwoDcHelper : public FabricHelper
{
  public:
    /**
     * @param k each data centre's fat-tree radix (even, >= 2)
     * @param dciLinks long-haul links, one per DCI switch pair (>= 1)
     */
    TwoDcHelper(uint32_t k, uint32_t dciLinks);

    /// @param rate the long-haul links' rate (> 0; default 400 Gb/s)
    void SetLongHaulRate(DataRate rate);
    /// @param delay the long-haul links' one-way propagation delay (>= 0; default 50 us)
    void SetLongHaulDelay(Time delay);

  protected:
    std::string GetName() const override;
    std::string GetKind() const override;
    void DoCreate(Fabric& fabric) const override;
    bool EstimateSize(Size& size) const override;

  private:
    uint32_t m_k;            //!< each fat-tree's radix
    uint32_t m_dciLinks;     //!< long-haul links
    DataRate m_longHaulRate; //!< their rate
    Time m_longHaulDelay;    //!< their delay
};

} // namespace ns3

#endif // TWO_DC_HELPER_H
