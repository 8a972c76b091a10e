/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef LOCAL_RANK_H
#define LOCAL_RANK_H

#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

class Node;

/**
 * @ingroup interconnect
 * @return this process's rank: MpiInterface's system id in a distributed run, else 0
 */
uint32_t GetLocalRank();

/**
 * @ingroup interconnect
 * @return the number of ranks: MpiInterface's size in a distributed run, else 1
 */
uint32_t GetRankCount();

/**
 * @ingroup interconnect
 * In a distributed run every rank holds every node (ns-3 addresses a frame from another rank by
 * node id and device index), but only the node's own rank simulates it: the copies elsewhere
 * must not transmit or run timers.
 * @param node a node
 * @return whether the node lives on this rank (always, on one rank)
 */
bool IsOnThisRank(Ptr<const Node> node);

} // namespace ns3

#endif // LOCAL_RANK_H
