/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_HELPER_H
#define COLLECTIVE_HELPER_H

#include "ns3/moe-traffic.h"
#include "ns3/nstime.h"
#include "ns3/roce-helper.h"

#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * One collective operation (or one phase of one), for the collectives CSV.
 */
struct CollectiveRecord
{
    std::string kind;  //!< e.g. "all-to-all", "ring-allreduce", "moe-dispatch"
    std::string group; //!< the hosts, as "first-last" or a name
    uint64_t bytes;    //!< payload moved over the network
    Time start;        //!< when it started
    Time end;          //!< when its last transfer completed (zero while running)
    Time lowerBound;   //!< its duration if every host link ran at line rate throughout
};

/**
 * @brief Collectives and MoE layers on a RoceHelper network, with their completion times.
 * @ingroup interconnect
 *
 * A phase is a traffic matrix among a group of hosts: every non-zero (i, j) entry is one RDMA
 * WRITE from host i to host j, all posted at once; the phase ends when the last completes.
 * Its lower bound is the busiest host link: max over hosts of the wire bytes it must send or
 * receive (every frame's headers and per-frame overheads included) over its line rate.
 * - AllToAll: direct, every host sends the same bytes to every other host in one phase;
 * - RingAllReduce: 2 (N - 1) phases in which every host sends bytes / N to its ring successor
 *   (reduce-scatter, then all-gather), each phase after the previous one;
 * - MoeLayers: per layer, the dispatch phase (MoeTraffic's routing), a compute gap, the
 *   combine phase (the transpose), a compute gap; layers and iterations in sequence.
 */
class CollectiveHelper
{
  public:
    /// A traffic matrix: bytes[i][j] from group host i to group host j.
    typedef std::vector<std::vector<uint64_t>> Matrix;

    /// @param roce the finalized network to run on (kept by reference)
    explicit CollectiveHelper(RoceHelper& roce);

    /**
     * Run one phase.
     * @param kind the record's kind
     * @param hosts the group (matrix index -> host index)
     * @param bytes the traffic matrix
     * @param start when to post it
     * @param done called when it completes (may be empty)
     */
    void RunMatrix(const std::string& kind,
                   const std::vector<uint32_t>& hosts,
                   const Matrix& bytes,
                   Time start,
                   std::function<void()> done = {});

    /**
     * Direct all-to-all.
     * @param hosts the group
     * @param bytesPerPair bytes each host sends to each other host
     * @param start when
     * @param done called at completion
     */
    void AllToAll(const std::vector<uint32_t>& hosts,
                  uint64_t bytesPerPair,
                  Time start,
                  std::function<void()> done = {});

    /**
     * Ring all-reduce of `bytes` per host.
     * @param hosts the group, in ring order
     * @param bytes the buffer each host reduces
     * @param start when
     * @param done called at completion
     */
    void RingAllReduce(const std::vector<uint32_t>& hosts,
                       uint64_t bytes,
                       Time start,
                       std::function<void()> done = {});

    /**
     * MoE layers: dispatch, gap, combine, gap; `layers` per iteration.
     * @param hosts the GPUs (one per host for now)
     * @param moe the routing model
     * @param layers layers per iteration
     * @param iterations iterations
     * @param computeGap time between phases
     * @param start when
     * @param stream first random stream (one per layer and iteration)
     */
    void MoeLayers(const std::vector<uint32_t>& hosts,
                   const MoeTraffic& moe,
                   uint32_t layers,
                   uint32_t iterations,
                   Time computeGap,
                   Time start,
                   int64_t stream);

    /**
     * @param hosts the group
     * @param bytes the traffic matrix
     * @return the phase's lower bound (see the class description)
     */
    Time LowerBound(const std::vector<uint32_t>& hosts, const Matrix& bytes) const;

    /// @return every phase so far
    const std::vector<CollectiveRecord>& GetRecords() const;

    /**
     * Write kind,group,bytes,start_ns,end_ns,time_ns,lower_bound_ns,ratio.
     * @param path the file
     * @return true on success
     */
    bool WriteCsv(const std::string& path) const;

  private:
    /// Run MoE layer `index` of `total`, then the next.
    void MoeStep(std::vector<uint32_t> hosts,
                 const MoeTraffic& moe,
                 uint32_t index,
                 uint32_t total,
                 Time gap,
                 int64_t stream);

    RoceHelper& m_roce;                      //!< the network
    std::vector<CollectiveRecord> m_records; //!< phases
};

} // namespace ns3

#endif // COLLECTIVE_HELPER_H
