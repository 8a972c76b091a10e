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
#include "ns3/random-variable-stream.h"

#include <functional>
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
 * sees load x oversubscription of its capacity for traffic that crosses it.)
 *
 * The hosts' processes are drawn as their superposition: one Poisson process of rate
 * hosts x lambda whose every arrival picks its source host uniformly. That is the same process
 * (the uniform thinning of a Poisson process gives independent Poisson processes, each of rate
 * lambda), drawn in time order, so the flows can be made one at a time as the simulation reaches
 * them (Schedule): the work and memory of a run are bounded by its stop time, however many
 * flows the window would hold. The flows are drawn from fixed random streams, so the same
 * seed, run and stream give the same flows, one by one or all at once (Generate).
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
     * @brief The arrivals of all hosts, drawn one at a time in time order.
     */
    class Arrivals
    {
      public:
        /**
         * @param traffic the process to draw
         * @param hosts number of hosts (>= 2)
         * @param stream first random stream to use (four are used)
         */
        Arrivals(const PoissonTraffic& traffic, uint32_t hosts, int64_t stream);

        /**
         * Draw the next flow.
         * @param flow set to the next flow
         * @return false when the window has no more flows (flow is then unchanged)
         */
        bool Next(FlowSpec* flow);

      private:
        FlowSizeDistribution m_sizes;         //!< sizes
        uint32_t m_hosts;                     //!< hosts
        double m_t;                           //!< last arrival, seconds
        double m_stop;                        //!< window end, seconds
        Ptr<ExponentialRandomVariable> m_gap; //!< inter-arrival times of the superposition
        Ptr<UniformRandomVariable> m_size;    //!< size quantiles
        Ptr<UniformRandomVariable> m_source;  //!< source hosts
        Ptr<UniformRandomVariable> m_peer;    //!< destination hosts
    };

    /**
     * Draw every flow at once (for analysis; a simulation posts them with Schedule).
     * @param hosts number of hosts (>= 2)
     * @param stream first random stream to use (four are used)
     * @return the flows, ordered by start time
     */
    std::vector<FlowSpec> Generate(uint32_t hosts, int64_t stream) const;

    /// Called with each flow at its start time.
    using PostCallback = std::function<void(const FlowSpec&)>;

    /**
     * Post the flows as the simulation reaches them: an event at each flow's start time posts
     * it and draws the next, so one flow at most is drawn ahead of the simulation clock. The
     * same flows as Generate, in the same order.
     * @param hosts number of hosts (>= 2)
     * @param stream first random stream to use (four are used)
     * @param post called with each flow at its start time
     */
    void Schedule(uint32_t hosts, int64_t stream, PostCallback post) const;

  private:
    FlowSizeDistribution m_sizes; //!< sizes
    double m_load;                //!< target load
    DataRate m_hostRate;          //!< host link rate
    Time m_start;                 //!< window start
    Time m_stop;                  //!< window end
};

} // namespace ns3

#endif // POISSON_TRAFFIC_H
