/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_HELPER_H
#define COLLECTIVE_HELPER_H

#include "ns3/in-network-reduction.h"
#include "ns3/intra-host-helper.h"
#include "ns3/message-transport.h"
#include "ns3/moe-traffic.h"
#include "ns3/nstime.h"

#include <functional>
#include <memory>
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
 * @brief Collectives and MoE layers on any network (a MessageTransport: RoCEv2, iWARP or
 * InfiniBand), with their completion times.
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
 *
 * With SetGpuServers() the endpoints are GPUs instead of hosts: GPU s x G + g is GPU g of server
 * s. Traffic between GPUs of one server crosses the server's IntraHostFabric (NVLink, or PCIe
 * without it); traffic between servers is an RDMA WRITE from the source GPU's NIC to the
 * destination GPU's NIC (each GPU's rail NIC). The lower bound is then the busiest of the NIC
 * links (at line rate, or the GPU-to-NIC path's rate if slower) and of the GPUs' links inside
 * their servers. A HIERARCHICAL all-to-all (or MoE phase) first moves every byte over NVLink to
 * the local GPU on the destination's rail (with the server-local traffic), then, when all of that
 * has arrived, sends it rail-aligned to the destination server: two recorded phases,
 * KIND:nvlink and KIND:rail.
 */
class CollectiveHelper
{
  public:
    /// A traffic matrix: bytes[i][j] from group host i to group host j.
    typedef std::vector<std::vector<uint64_t>> Matrix;

    /// How an all-to-all-like phase moves between servers.
    enum Algorithm
    {
        DIRECT,      //!< every GPU to every GPU, across the fabric when in another server
        HIERARCHICAL //!< NVLink to the destination's rail GPU first, then rail-aligned
    };

    /// How an all-reduce runs (AllReduce).
    enum AllReduceAlgorithm
    {
        RING,       //!< RingAllReduce: 2 (N - 1) steps between neighbours
        IN_NETWORK, //!< the network's in-network reduction (SHARP), or the ring if refused
        HIERARCHICAL_DOMAINS, //!< HierarchicalAllReduce: within domains, across them, within again
        NVLS,                 //!< NvlsAllReduce, the ring between servers
        NVLS_IN_NETWORK       //!< NvlsAllReduce, the in-network reduction between servers
    };

    /// @param network the finalized network to run on (kept by reference)
    explicit CollectiveHelper(MessageTransport& network);

    /**
     * How the collectives' messages share queue pairs. By default one connection per pair of
     * endpoints carries every phase both ways, as NCCL and MPI keep theirs; the transport's own
     * mapping (a queue pair per message by default) stays for other workloads.
     * @param mapping the mapping
     */
    void SetQueuePairMapping(const QueuePairMapping& mapping);

    /**
     * Make GPUs the endpoints (see the class description).
     * @param servers the servers, each with the same number of GPUs
     * @param nicHost per server, per GPU: the host index (in the network) of its NIC
     */
    void SetGpuServers(std::vector<IntraHostServer> servers,
                       std::vector<std::vector<uint32_t>> nicHost);

    /// @return GPUs per server (0 without SetGpuServers)
    uint32_t GetGpusPerServer() const;

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
     * All-to-all among GPUs (after SetGpuServers), direct or hierarchical.
     * @param gpus the group: whole servers for HIERARCHICAL
     * @param bytesPerPair bytes each GPU sends to each other GPU
     * @param algorithm direct or hierarchical
     * @param start when
     * @param done called at completion
     */
    void AllToAll(const std::vector<uint32_t>& gpus,
                  uint64_t bytesPerPair,
                  Algorithm algorithm,
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
     * A hierarchical all-reduce of `bytes` per member over `domains` equal blocks of consecutive
     * members (e.g. the data centres of a two-dc fabric, whose hosts are numbered centre by
     * centre): a reduce-scatter within every domain at once (M - 1 ring steps of S / M, M
     * members a domain), then the shards across domains among the members of the same rank,
     * then an all-gather within every domain (M - 1 steps). Across two domains it is one phase
     * in which every member sends its shard (S / M) to its counterpart; across D > 2, a ring
     * all-reduce of the shard among the D counterparts (2 (D - 1) steps of S / (M D)). Recorded
     * phases: hierarchical:reduce-scatter, hierarchical:cross, hierarchical:all-gather. Only
     * the cross phases leave a domain: what a long haul between data centres carries.
     * @param hosts the group (a multiple of `domains` members)
     * @param bytes the vector each member reduces
     * @param domains blocks (at least 2)
     * @param start when
     * @param done called at completion
     */
    void HierarchicalAllReduce(const std::vector<uint32_t>& hosts,
                               uint64_t bytes,
                               uint32_t domains,
                               Time start,
                               std::function<void()> done = {});

    /**
     * An all-reduce through the NVSwitches' multimem reductions (NVLink SHARP, NVLS), among the
     * GPUs of whole servers (after SetGpuServers; servers whose NVSwitch reduces: NvlsCapable).
     * Inside a server (NCCL's NVLS algorithm): each GPU reduces its 1/G of the vector from all
     * G GPUs (multimem.ld_reduce: it sends S, in slices, and receives S / G) and multicasts the
     * result (multimem.st: it sends S / G, and receives S): (1 + 1/G) S each way over its
     * NVLinks, one phase "nvls:allreduce", against 2 (G - 1) / G S for the ring. Across servers,
     * in two levels: the reduce-scatter half inside every server ("nvls:reduce-scatter", S up,
     * S / G down), an all-reduce of every rail's shard S / G between the servers (GPU g of
     * every server through its NIC: the ring, "ring-allreduce-step", or with `inNetwork` the
     * network's in-network reduction, per rail, the ring for a rail it refuses), then the
     * all-gather half inside ("nvls:all-gather", S / G up, S down). Recorded as one operation,
     * "allreduce:nvls", "allreduce:nvls-ring" or "allreduce:nvls-NAME".
     * The fluid model: every GPU's bytes to and from its server's NVSwitch, in one phase, both
     * ways at once, the down direction starting one NVLink latency after the up one (the
     * first contributions reach the switch); the NVSwitch reduces at its links' rate.
     * @param gpus whole servers' GPUs, server by server
     * @param bytes the vector each GPU reduces
     * @param inNetwork between servers: the in-network reduction (SetInNetworkReduction)
     * @param start when
     * @param done called at completion
     */
    void NvlsAllReduce(const std::vector<uint32_t>& gpus,
                       uint64_t bytes,
                       bool inNetwork,
                       Time start,
                       std::function<void()> done = {});

    /**
     * @param server a server (after SetGpuServers)
     * @return whether its NVSwitch reduces (NVLS: third-generation NVSwitch and later: the
     *         dgx-h100 and nvl72 layouts)
     */
    bool NvlsCapable(uint32_t server) const;

    /**
     * Give the collectives the network's in-network reduction (kept by pointer; nullptr: none).
     * @param reduction the service
     */
    void SetInNetworkReduction(InNetworkReduction* reduction);

    /**
     * An all-reduce of `bytes` per member, recorded as one operation: kind "allreduce:ring",
     * "allreduce:NAME" (the in-network service's name, e.g. sharp), or
     * "allreduce:NAME-fallback-ring" when the service refused it at its start for lack of
     * resources (it then runs as the ring; counted by GetInNetworkFallbacks). Its bytes are those
     * the members send (ring: 2 (N - 1) S in all; in-network: N S), its lower bound that of the
     * algorithm run (ring: the sum of its steps' bounds).
     * @param hosts the group (ring order for the ring; at least two)
     * @param bytes the vector each member reduces
     * @param algorithm ring, in-network (which needs SetInNetworkReduction) or hierarchical
     *        ("allreduce:hierarchical", its bound the sum of its phases')
     * @param start when
     * @param done called at completion
     * @param domains the hierarchical algorithm's domains
     */
    void AllReduce(const std::vector<uint32_t>& hosts,
                   uint64_t bytes,
                   AllReduceAlgorithm algorithm,
                   Time start,
                   std::function<void()> done = {},
                   uint32_t domains = 2);

    /// @return in-network all-reduces that fell back to the ring
    uint64_t GetInNetworkFallbacks() const;

    /**
     * MoE layers: dispatch, gap, combine, gap; `layers` per iteration.
     * @param hosts the GPUs (one per host for now)
     * @param moe the routing model
     * @param layers layers per iteration
     * @param iterations iterations
     * @param computeGap time between phases
     * @param start when
     * @param stream first random stream (one per layer and iteration)
     * @param algorithm direct or hierarchical (GPU endpoints only)
     */
    void MoeLayers(const std::vector<uint32_t>& hosts,
                   const MoeTraffic& moe,
                   uint32_t layers,
                   uint32_t iterations,
                   Time computeGap,
                   Time start,
                   int64_t stream,
                   Algorithm algorithm = DIRECT);

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
                 int64_t stream,
                 Algorithm algorithm);

    /// Run a phase directly, or as its two hierarchical phases.
    void RunPhase(const std::string& kind,
                  const std::vector<uint32_t>& group,
                  const Matrix& bytes,
                  Algorithm algorithm,
                  Time start,
                  std::function<void()> done);

    /// The GPU-endpoint version of RunMatrix.
    void RunGpuMatrix(const std::vector<uint32_t>& gpus,
                      const Matrix& bytes,
                      Time start,
                      std::shared_ptr<std::function<void()>> finish);

    /**
     * @param index a record
     * @param done what to call then (may be empty)
     * @return a function that ends the record now, then calls `done`
     */
    std::function<void()> EndRecord(std::size_t index, std::function<void()> done);

    /**
     * @param f what to run later
     * @return f, to run with the transport's workload of now (so that the messages of a
     *         collective's later phases are recorded as its workload's)
     */
    std::function<void()> InCurrentWorkload(std::function<void()> f) const;

    /// Post a WRITE of a phase under the collectives' queue-pair mapping.
    uint64_t Post(uint32_t src,
                  uint32_t dst,
                  uint64_t bytes,
                  Time at,
                  RdmaQueuePair::CompletionCallback done);

    /// The GPU-endpoint version of LowerBound.
    Time GpuLowerBound(const std::vector<uint32_t>& gpus, const Matrix& bytes) const;

    std::vector<IntraHostServer> m_servers;       //!< GPU servers (empty: host endpoints)
    std::vector<std::vector<uint32_t>> m_nicHost; //!< per server, per GPU: its NIC's host

    /// One NVLS phase in the servers `servers`: every GPU sends `up` bytes to its NVSwitch and
    /// receives `down` from it (see NvlsAllReduce); recorded as `kind`.
    void NvlsPhase(const std::string& kind,
                   const std::vector<uint32_t>& servers,
                   uint64_t up,
                   uint64_t down,
                   Time start,
                   std::function<void()> done);
    /// @return the NVLS phase's bound: the larger direction over a GPU's NVLink bandwidth
    Time NvlsBound(uint32_t server, uint64_t up, uint64_t down) const;
    /// @return the NVSwitch component of a server
    uint32_t NvSwitchOf(uint32_t server) const;

    /// A hierarchical all-reduce's phases: kind and matrix, in order (matrices shared).
    typedef std::vector<std::pair<std::string, std::shared_ptr<const Matrix>>> PhaseList;
    /// @return the phases of HierarchicalAllReduce
    static PhaseList HierarchicalPhases(std::size_t members, uint64_t bytes, uint32_t domains);
    /// Run phases one after another from `start`, then `done`.
    void RunPhases(const std::vector<uint32_t>& hosts,
                   std::shared_ptr<const PhaseList> phases,
                   Time start,
                   std::function<void()> done);

    /// The lower bound of a ring all-reduce: its 2 (N - 1) steps' bounds.
    Time RingLowerBound(const std::vector<uint32_t>& hosts, uint64_t bytes) const;

    MessageTransport& m_network;              //!< the network
    InNetworkReduction* m_inNetwork{nullptr}; //!< in-network reduction, or nullptr
    uint64_t m_fallbacks{0};                  //!< in-network all-reduces run as the ring
    QueuePairMapping m_mapping;               //!< how the collectives' messages share QPs
    std::vector<CollectiveRecord> m_records;  //!< phases
};

} // namespace ns3

#endif // COLLECTIVE_HELPER_H
