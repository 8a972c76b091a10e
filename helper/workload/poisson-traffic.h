/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef POISSON_TRAFFIC_H
#define POISSON_TRAFFIC_H

#include "ns3/data-rate.h"
#include "ns3/flow-size-distribution.h"
#include "ns3/flow-spec.h"

#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief Poisson flow arrivals at a target load, sizes from an empirical distribution.
 *
 * Load is the fraction of each host's link capacity its flows offer: every host starts flows
 * as a Poisson process of rate lambda = load x host link rate / (8 x mean flow size), each to
 * a destination drawn uniformly among the other hosts. (On an oversubscribed fabric the core
 * sees load x oversubscription of its capacity for traffic that crosses it.) The flows are
 * drawn from fixed random streams, so the same seed, run and stream give the same list.
 */
class PoissonTraffic
{
  public:
    /**
     * @param sizes the flow-size distribution
     * @param load fraction of the host link capacity, in (0, 1]
     * @param hostRate the host link rate
     */
    PoissonTraffic(const FlowSizeDistribution& sizes, double load, DataRate hostRate);

    /**
     * The arrivals to generate: flows start in [start, stop).
     * @param start first possible start
     * @param stop no start at or after this
     */
    void SetWindow(Time start, Time stop);

    /// @return the arrival rate per host, flows per second
    double GetArrivalRate() const;

    /**
     * Draw the flows.
     * @param hosts number of hosts (>= 2)
     * @param stream first random stream to use (three are used)
     * @return the flows, ordered by start time
     */
    std::vector<FlowSpec> Generate(uint32_t hosts, int64_t stream) const;

  private:
    FlowSizeDistribution m_sizes; //!< sizes
    double m_load;                //!< target load
    DataRate m_hostRate;          //!< host link rate
    Time m_start;                 //!< window start
    Time m_stop;                  //!< window end
};

} // namespace ns3

#endif // POISSON_TRAFFIC_H
