/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_TIME_SERIES_H
#define ROCE_TIME_SERIES_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-switch.h"

#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief Samples flow rates and switch queue lengths at a fixed interval.
 *
 * A flow's rate over an interval is the payload its responder queue pair delivered in order
 * during it; a queue's length is the bytes queued for a (switch port, priority) at the sample
 * instant. The samples can be written as CSV and summarized (means over a time window, Jain's
 * fairness index).
 */
class RoceTimeSeries
{
  public:
    /// @param interval the sampling interval (> 0)
    explicit RoceTimeSeries(Time interval);

    /**
     * Follow a flow.
     * @param name its label in the CSV
     * @param responder the queue pair that receives its data
     */
    void AddFlow(const std::string& name, Ptr<RdmaQueuePair> responder);

    /**
     * Follow a switch egress queue.
     * @param name its label in the CSV
     * @param sw the switch
     * @param port the egress port
     * @param priority the priority
     */
    void AddQueue(const std::string& name, Ptr<RoceSwitch> sw, uint32_t port, uint8_t priority);

    /**
     * Follow any queue (an InfiniBand port's VL, say).
     * @param name its label in the CSV
     * @param length its length in bytes now
     * @param keep asked when the CSV is written: false leaves the queue out (e.g. a VL that
     *        carried nothing); null: always written
     */
    void AddQueue(const std::string& name,
                  std::function<uint64_t()> length,
                  std::function<bool()> keep = {});

    /**
     * Sample from `start` to `stop`.
     * @param start first sample (it only sets the baseline of the rates)
     * @param stop last sample
     */
    void Start(Time start, Time stop);

    /**
     * @param flow index in AddFlow order
     * @param from window start
     * @param to window end
     * @return the flow's mean rate (bit/s) over the samples in [from, to]
     */
    double MeanRate(std::size_t flow, Time from, Time to) const;

    /**
     * @param queue index in AddQueue order
     * @param from window start
     * @param to window end
     * @return the queue's mean length (bytes) over the samples in [from, to]
     */
    double MeanQueue(std::size_t queue, Time from, Time to) const;

    /**
     * Jain's fairness index (sum x)^2 / (n sum x^2): 1 when equal, 1/n when one takes all.
     * @param x the allocations
     * @return the index
     */
    static double JainIndex(const std::vector<double>& x);

    /// @param path CSV with time_ns,flow,rate_bps  @return true on success
    bool WriteRatesCsv(const std::string& path) const;
    /// @param path CSV with time_ns,queue,bytes  @return true on success
    bool WriteQueuesCsv(const std::string& path) const;

  private:
    /// Take one sample and schedule the next.
    void Sample();

    /// One followed flow.
    struct Flow
    {
        std::string name;             //!< label
        Ptr<RdmaQueuePair> responder; //!< receiving end
        uint64_t lastBytes;           //!< delivered at the previous sample
    };

    /// One followed queue.
    struct Queue
    {
        std::string name;                 //!< label
        std::function<uint64_t()> length; //!< its length now
        std::function<bool()> keep;       //!< write it (null: always)
    };

    Time m_interval;                              //!< sampling interval
    Time m_stop;                                  //!< last sample
    std::vector<Flow> m_flows;                    //!< followed flows
    std::vector<Queue> m_queues;                  //!< followed queues
    std::vector<int64_t> m_times;                 //!< sample times (ns), from the second on
    std::vector<std::vector<double>> m_rates;     //!< per sample, per flow (bit/s)
    std::vector<std::vector<uint64_t>> m_lengths; //!< per sample, per queue (bytes)
    bool m_baseline;                              //!< the next sample only sets baselines
};

} // namespace ns3

#endif // ROCE_TIME_SERIES_H
