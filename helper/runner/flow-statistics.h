/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_STATISTICS_H
#define FLOW_STATISTICS_H

#include "ns3/message-transport.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * FCT slowdown figures of a group of flows (all of a run's, or those of one size bucket).
 */
struct SlowdownFigures
{
    std::string name;        //!< "all", or the bucket's sizes, e.g. "10KB-30KB"
    uint64_t minBytes{0};    //!< smallest flow size in the group
    uint64_t maxBytes{0};    //!< sizes below this (0: no limit)
    uint64_t posted{0};      //!< flows posted
    uint64_t completed{0};   //!< of which completed
    uint64_t unfinished{0};  //!< started before the end of the run but not completed
    uint64_t notStarted{0};  //!< posted for a time at or after the end of the run
    uint64_t medianBytes{0}; //!< median size of the started flows (0 when there are none)
    double p50{0};           //!< slowdown percentiles over the started flows, each unfinished one
    double p95{0};           //!< at its lower bound (see FlowStatistics); meaningful only
    double p99{0};           //!< when HasFigures()

    /// @return whether any flow started, so that the percentiles mean something
    bool HasFigures() const;
};

/**
 * @ingroup interconnect
 * @brief FCT slowdown percentiles of a run, computed once, for every output that shows them.
 *
 * Every posted flow counts. A completed flow's slowdown is its FCT over its ideal FCT. A flow
 * that started but did not complete by the end of the run counts at its lower bound,
 * max(time so far, ideal FCT) / ideal FCT: its true slowdown is at least that, so percentiles
 * over such a mix are lower bounds of the true ones, never figures from the lucky flows only.
 * A flow posted for a time at or after the end of the run never started: it is counted
 * (notStarted) but has no slowdown.
 *
 * Percentiles use the nearest-rank method: the p-th percentile of n sorted values is the
 * value of rank ceil(p/100 x n), a value that occurred, with at least p% of the values at or
 * below it (so the p99 of 10 flows is their largest).
 *
 * Size buckets: [0, e1), [e1, e2), ..., [ek, inf) for edges e1 < ... < ek; by default the
 * 1-3-10 series from 1 KB to 30 MB (decimal), 11 buckets. summary.json, the terminal report
 * and the slowdown-vs-size figure all read these figures (the figure through slowdown.csv).
 */
class FlowStatistics
{
  public:
    /**
     * @param flows the run's flows
     * @param end the end of the run (flows posted before it started)
     * @param edges bucket edges in bytes, increasing (empty: the default)
     */
    FlowStatistics(const std::vector<FlowRecord>& flows,
                   Time end,
                   std::vector<uint64_t> edges = std::vector<uint64_t>());

    /// @return the default bucket edges: 1, 3, 10, 30, 100, 300 KB, 1, 3, 10, 30 MB
    static std::vector<uint64_t> DefaultEdges();

    /**
     * Nearest-rank percentile.
     * @param sorted values in increasing order (not empty)
     * @param p the percentile, in (0, 100]
     * @return the value of rank ceil(p/100 x n)
     */
    static double Percentile(const std::vector<double>& sorted, double p);

    /**
     * @param flow a flow
     * @param end the end of the run
     * @return its slowdown, or its lower bound if unfinished; negative if it never started
     */
    static double Slowdown(const FlowRecord& flow, Time end);

    /// @return the figures over all flows
    const SlowdownFigures& GetOverall() const;
    /// @return the figures per size bucket, smallest sizes first
    const std::vector<SlowdownFigures>& GetBuckets() const;

    /**
     * Write slowdown.csv: one row per bucket, then one for all flows: bucket, min_bytes,
     * max_bytes (empty: no limit), posted, completed, unfinished, not_started, median_bytes,
     * p50, p95, p99 (n/a when no flow of the bucket started).
     * @param path the file
     * @return true on success
     */
    bool WriteCsv(const std::string& path) const;

    /**
     * @param indent spaces before each line
     * @return the JSON members "flows", "slowdown" and "slowdownBySize" (no braces around
     *         them; percentiles null when no flow started)
     */
    std::string ToJsonMembers(const std::string& indent) const;

    /**
     * @return a table for the terminal: posted, completed and the percentiles per bucket
     *         (n/a where no flow started)
     */
    std::string Report() const;

  private:
    SlowdownFigures m_overall;              //!< all flows
    std::vector<SlowdownFigures> m_buckets; //!< per size bucket
};

} // namespace ns3

#endif // FLOW_STATISTICS_H
