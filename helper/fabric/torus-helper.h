/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TORUS_HELPER_H
#define TORUS_HELPER_H

#include "ns3/fabric-helper.h"

#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief A 2D or 3D torus of switches, hosts attached to every switch, with dimension-order
 * routing and the dateline rule.
 *
 * Switches sit at the points of a k0 x k1 (x k2) grid; in each dimension every switch links to
 * its + neighbour, and the last one back to the first (the wrap-around link, every link at the
 * fabric rate). A dimension of size 2 therefore has two parallel links. Each switch has
 * `hostsPerSwitch` hosts at the host rate. Switches are numbered with the first coordinate
 * fastest (index = c0 + k0 x (c1 + k1 x c2)) and named sw<c0>-<c1>(-<c2>); host index =
 * switch index x hostsPerSwitch + i, named host<i>.
 *
 * Routes: dimension-order (Dally and Seitz, IEEE Trans. Computers 1987): a frame corrects
 * dimension 0 first, then 1, then 2, each the shorter way around its ring (the + way on a tie).
 * Around a ring these routes make the lossless channels depend on each other in a cycle, and
 * PFC can deadlock. The dateline rule (on by default) breaks the cycles with a second lossless
 * priority, as virtual channels do in the paper: a frame that has crossed the wrap-around link
 * of a dimension and goes on in that dimension leaves on the dateline priority (4), and a frame
 * on the dateline priority that turns into the next dimension goes back to the traffic priority
 * (3) - RoceSwitch::SetPriorityRemap rules on the switches. The dateline priority is made
 * lossless on every switch by RoceHelper::Build. One extra priority suffices in any number of
 * dimensions because dimension order never returns to an earlier dimension. Without the rule
 * (SetDateline(false)) DeadlockCheck reports the cycles of every ring with k >= 4.
 *
 * Not modelled: switchless tori (hosts with several ports forwarding for each other), since
 * RoceHelper hosts have one port; adaptive routing.
 */
class TorusHelper : public FabricHelper
{
  public:
    /**
     * @param dimensions switches per dimension: 2 or 3 values, each >= 2
     */
    explicit TorusHelper(const std::vector<uint32_t>& dimensions);

    /// @param hosts hosts attached to each switch (>= 1; default 1)
    void SetHostsPerSwitch(uint32_t hosts);
    /// @param enable apply the dateline rule (default true)
    void SetDateline(bool enable);
    /**
     * @param traffic the priority the hosts' RDMA traffic arrives on (DSCP / 8; default 3)
     * @param dateline the priority of frames past a dateline (default 4; made lossless)
     */
    void SetPriorities(uint8_t traffic, uint8_t dateline);

  protected:
    std::string GetName() const override;
    std::string GetKind() const override;
    void DoCreate(Fabric& fabric) const override;
    bool EstimateSize(Size& size) const override;
    void DoRoute(Fabric& fabric) const override;

  private:
    /// @return the coordinates of a switch index
    std::vector<uint32_t> Coordinates(uint32_t index) const;

    std::vector<uint32_t> m_dimensions; //!< switches per dimension
    uint32_t m_hostsPerSwitch;          //!< hosts per switch
    bool m_dateline;                    //!< apply the dateline rule
    uint8_t m_trafficPriority;          //!< priority of the hosts' traffic
    uint8_t m_datelinePriority;         //!< priority past a dateline
};

} // namespace ns3

#endif // TORUS_HELPER_H
