/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SHARP_AGGREGATION_NODE_H
#define SHARP_AGGREGATION_NODE_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/sharp-header.h"

#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief The aggregation node of a switch: the in-network reduction engine of SHARP (NVIDIA's
 * Scalable Hierarchical Aggregation and Reduction Protocol), independent of the link.
 *
 * A job is one reduction tree through this node: its children (hosts, or switches lower in the
 * tree) and its parent (none at the root). A job holds one of the node's `Units` aggregation
 * units and part of its `BufferSize` bytes from Reserve() to Free(); a job that finds either
 * exhausted anywhere on its tree is refused, and its caller falls back to a host-based
 * algorithm (SharpAggregationManager).
 *
 * Reduction is streaming and per chunk (SHARPv2's streaming aggregation, NVIDIA Quantum
 * switches): a chunk of a job is one packet (SharpHeader and data). When every child's
 * contribution to a chunk has arrived, the job's unit reduces it, which takes the chunk's data
 * bytes at `AggregationRate`, one chunk after another; the result goes to the parent, or, at the
 * root, to every child as a result. A result from the parent is copied to every child (the
 * multicast down the tree). While a chunk waits for its contributions it holds its data bytes
 * of the job's buffer; the members' window (outstanding chunks) is what keeps that within the
 * reservation, and a chunk beyond it is counted as an overflow (a configuration error the
 * manager prevents).
 *
 * The values are not computed: what the model keeps is when each chunk can be reduced and sent,
 * and what it occupies. The binding to a switch (IbSwitch::SetAggregationNode) delivers the
 * packets addressed to the node and sends what it emits through the SendCallback.
 */
class SharpAggregationNode : public Object
{
  public:
    /// No port: the root's parent.
    static constexpr uint32_t NO_PORT = 0xFFFFFFFF;

    /// One end of a job's tree edge, seen from this node.
    struct Link
    {
        uint32_t port; //!< the switch port it is reached over (NO_PORT: none)
        uint32_t peer; //!< the address of the node beyond (InfiniBand: its LID)
    };

    /// Send a packet (SharpHeader and data) over a port to a peer, on a service level.
    typedef Callback<void, uint32_t, uint32_t, Ptr<Packet>, uint8_t> SendCallback;

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    SharpAggregationNode();

    /// @param send how emitted packets leave (the switch binding)
    void SetSendCallback(SendCallback send);

    /**
     * Take an aggregation unit and buffer for a job.
     * @param job the job
     * @param bufferBytes its buffer
     * @return false, taking nothing, if no unit or not enough buffer is free (or the job exists)
     */
    bool Reserve(uint16_t job, uint64_t bufferBytes);

    /**
     * Set a reserved job's tree at this node.
     * @param job the job
     * @param children its children (hosts and switches)
     * @param parent its parent (port NO_PORT at the root)
     * @param serviceLevel the service level (priority) of its packets
     */
    void Configure(uint16_t job, std::vector<Link> children, Link parent, uint8_t serviceLevel);

    /// @param job a job: give back its unit and buffer (its state is dropped)
    void Free(uint16_t job);

    /**
     * A packet for this node arrived.
     * @param inPort the port it came in on
     * @param packet SharpHeader and data
     */
    void Receive(uint32_t inPort, Ptr<Packet> packet);

    /**
     * @param opcode reduce or result
     * @param job the job
     * @param sequence the chunk's number
     * @param bytes its data bytes
     * @return the chunk's packet: its SharpHeader and data
     */
    static Ptr<Packet> Chunk(SharpHeader::Opcode opcode,
                             uint16_t job,
                             uint32_t sequence,
                             uint32_t bytes);

    /// @return aggregation units held by jobs
    uint32_t GetUnitsInUse() const;
    /// @return buffer bytes reserved by jobs
    uint64_t GetBufferInUse() const;
    /// @return chunks reduced (all jobs)
    uint64_t GetReductions() const;
    /// @return the most data bytes one job held at once
    uint64_t GetPeakHeld() const;
    /// @return chunks that arrived beyond their job's reservation
    uint64_t GetOverflows() const;
    /// @return packets for no job, from a port that is not the job's, or with an unknown opcode
    uint64_t GetMisdelivered() const;

  protected:
    void DoDispose() override;

  private:
    /// A chunk waiting for contributions.
    struct Partial
    {
        uint32_t count{0}; //!< contributions so far
        uint32_t bytes{0}; //!< data bytes
    };

    /// A job's state here.
    struct Job
    {
        uint64_t reserved{0};                          //!< buffer bytes
        uint64_t held{0};                              //!< data bytes of waiting chunks
        std::vector<Link> children;                    //!< children
        Link parent{NO_PORT, 0};                       //!< parent
        uint8_t serviceLevel{0};                       //!< SL of its packets
        Time unitFree;                                 //!< when its unit is next free
        std::unordered_map<uint32_t, Partial> partial; //!< chunks waiting, by sequence
    };

    /// Send the reduced chunk up, or at the root down to every child.
    void Reduced(uint16_t job, uint32_t sequence, uint32_t bytes);
    /// Send a result chunk to every child of a job.
    void SendDown(const Job& j, uint16_t job, uint32_t sequence, uint32_t bytes) const;

    uint32_t m_units;               //!< aggregation units
    uint64_t m_bufferSize;          //!< buffer bytes
    DataRate m_rate;                //!< reduction rate of a unit
    SendCallback m_send;            //!< the binding
    std::map<uint16_t, Job> m_jobs; //!< reserved jobs
    uint64_t m_bufferInUse{0};      //!< reserved bytes
    uint64_t m_reductions{0};       //!< chunks reduced
    uint64_t m_peakHeld{0};         //!< most one job held
    uint64_t m_overflows{0};        //!< chunks beyond a reservation
    uint64_t m_misdelivered{0};     //!< packets for no job
};

} // namespace ns3

#endif // SHARP_AGGREGATION_NODE_H
