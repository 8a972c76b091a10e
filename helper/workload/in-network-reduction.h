/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IN_NETWORK_REDUCTION_H
#define IN_NETWORK_REDUCTION_H

#include "ns3/nstime.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief A network's in-network all-reduce (SHARP on InfiniBand: SharpAggregationManager), for
 * CollectiveHelper::AllReduce.
 */
class InNetworkReduction
{
  public:
    virtual ~InNetworkReduction() = default;

    /**
     * Start an all-reduce of `bytes` per member now, if the switches have the resources.
     * @param hosts the members (host indices, at least two)
     * @param bytes the vector each member reduces (> 0)
     * @param done called when every member holds the result
     * @return false, starting nothing, if an aggregation unit or buffer is short on its tree
     */
    virtual bool TryStart(const std::vector<uint32_t>& hosts,
                          uint64_t bytes,
                          std::function<void()> done) = 0;

    /**
     * @param hosts the members
     * @param bytes the vector each reduces
     * @return the all-reduce's duration if every member's link ran at line rate throughout
     *         (each sends its vector once and receives the result once, in its packets)
     */
    virtual Time LowerBound(const std::vector<uint32_t>& hosts, uint64_t bytes) const = 0;

    /// @return the name of the algorithm, for records ("sharp")
    virtual std::string GetName() const = 0;
};

} // namespace ns3

#endif // IN_NETWORK_REDUCTION_H
