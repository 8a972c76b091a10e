/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef STAR_FABRIC_H
#define STAR_FABRIC_H

// For the tests that need the smallest fabric with a switch: n hosts on one switch.

#include "ns3/roce-helper.h"

#include <vector>

namespace ns3
{
namespace test
{

/**
 * Add n hosts (nodes 0..n-1), then one switch, and link every host to it; not finalized.
 * @param h the helper
 * @param n the hosts
 * @return the hosts
 */
inline std::vector<Ptr<Node>>
BuildStar(RoceHelper& h, uint32_t n)
{
    std::vector<Ptr<Node>> hosts;
    for (uint32_t i = 0; i < n; ++i)
    {
        hosts.push_back(h.AddHost());
    }
    Ptr<Node> sw = h.AddSwitch();
    for (auto& host : hosts)
    {
        h.Link(host, sw);
    }
    return hosts;
}

} // namespace test
} // namespace ns3

#endif // STAR_FABRIC_H
