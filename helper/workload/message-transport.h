/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MESSAGE_TRANSPORT_H
#define MESSAGE_TRANSPORT_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/rdma-channel-adapter.h"
#include "ns3/rdma-queue-pair.h"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * One message of a run, for the flows CSV: from post to completion.
 */
struct FlowRecord
{
    uint64_t id;        //!< flow id, in post order
    uint32_t src;       //!< source host index
    uint32_t dst;       //!< destination host index
    RdmaVerb verb;      //!< verb
    uint64_t bytes;     //!< message size
    uint8_t priority;   //!< priority
    Time start;         //!< post time
    Time end;           //!< completion time (zero while incomplete)
    Time idealFct;      //!< FCT alone on an idle fabric
    uint32_t workload;  //!< which workload posted it (MessageTransport::AddWorkload)
    uint32_t queuePair; //!< its queue pair's QPN at the source (iWARP: connection number)
};

/**
 * @ingroup interconnect
 * How a transport maps the messages between two hosts onto queue pairs (iWARP: connections),
 * the scenario key `nic.queuePairs`.
 *
 * PER_FLOW, the default, gives every message a queue pair of its own, as the published RDMA
 * simulators do (the HPCC simulator creates one per flow): a short message never waits behind
 * a long one of the same host pair, and each has its own ECMP entropy (the UDP source port
 * follows the QPN) and its own congestion-control state. PER_HOST_PAIR puts all messages of a
 * host pair and priority on one connection, in post order, as an application with one
 * connection per peer does. POOL spreads them over N connections per host pair and priority,
 * taken in turn.
 */
class QueuePairMapping
{
  public:
    /// The kinds of mapping.
    enum Mode : uint8_t
    {
        PER_FLOW,      //!< a queue pair per message
        PER_HOST_PAIR, //!< one per host pair and priority
        POOL           //!< N per host pair and priority, in turn
    };

    /// Per flow.
    QueuePairMapping();

    /// @return a queue pair per message
    static QueuePairMapping PerFlow();
    /// @return one queue pair per host pair and priority
    static QueuePairMapping PerHostPair();
    /// @param n queue pairs per host pair and priority (at least 1) @return a pool of n
    static QueuePairMapping Pool(uint32_t n);

    /**
     * Read the scenario form: "per-flow", "per-host-pair" or a count N (1..65536).
     * @param text the value
     * @param mapping set on success
     * @return false if the text is none of those
     */
    static bool Parse(const std::string& text, QueuePairMapping* mapping);

    /// @return what Parse accepts, for error messages
    static std::string Accepted();

    /// @return the scenario form ("per-flow", "per-host-pair" or N)
    std::string ToString() const;

    /// @return the mode
    Mode GetMode() const;
    /// @return queue pairs per host pair and priority (POOL; 1 for PER_HOST_PAIR)
    uint32_t GetCount() const;

  private:
    Mode m_mode;      //!< mode
    uint32_t m_count; //!< POOL size
};

/**
 * @ingroup interconnect
 * Counters of a whole network after (or during) a run; what a technology lacks stays 0 (an
 * InfiniBand subnet has no drops, PFC or ECN: its FECN marks count as ecnMarks, its CNPs as
 * cnpsSent).
 */
struct TransportStatistics
{
    uint64_t dropsBuffer{0};          //!< lossy frames dropped for lack of buffer (switches)
    uint64_t trimmed{0};              //!< data packets trimmed to their headers (switches)
    uint64_t dropsNoRoute{0};         //!< frames without a route (switches)
    uint64_t dropsNotIpv4{0};         //!< non-IPv4 frames (switches)
    uint64_t dropsLink{0};            //!< frames lost by receive error models (all ports)
    uint64_t headroomOverflows{0};    //!< lossless frames beyond the headroom (configuration error)
    uint64_t pfcSent{0};              //!< PFC frames sent (pause and resume), all ports
    uint64_t pfcReceived{0};          //!< PFC frames received, all ports
    uint64_t pausedTimeNs{0};         //!< sum over ports and priorities of time egress was paused
    uint64_t pausedPorts{0};          //!< ports whose egress was ever paused (how far PFC spread)
    uint64_t watchdogTrips{0};        //!< priorities the PFC watchdog declared stormed, all ports
    uint64_t dropsWatchdog{0};        //!< frames the PFC watchdog dropped
    uint64_t creditStallNs{0};        //!< InfiniBand: sum over ports and VLs of time waiting for
                                      //!< credits (the counterpart of pausedTimeNs)
    uint64_t ecnMarks{0};             //!< CE marks made by switches
    uint64_t cnpsSent{0};             //!< CNPs sent by NICs
    uint64_t cnpsReceived{0};         //!< CNPs received by queue pairs
    uint64_t retransmitted{0};        //!< packets sent again
    uint64_t retransmittedBytes{0};   //!< their payload bytes
    uint64_t spurious{0};             //!< request packets that reached a responder a second time
    uint64_t timeouts{0};             //!< retransmission timeouts
    uint64_t naks{0};                 //!< NAKs received
    uint64_t dataFrames{0};           //!< data frames sent by NICs
    uint64_t bytesDelivered{0};       //!< payload delivered in order (WRITE/SEND at the responder,
                                      //!< READ at the requester)
    uint64_t messagesPosted{0};       //!< messages posted through the helper
    uint64_t messagesCompleted{0};    //!< of which completed
    uint64_t peakBufferBytes{0};      //!< largest switch buffer occupancy seen
    uint64_t peakHeadroomBytes{0};    //!< most headroom one switch (port, priority) held
    uint64_t peakHeadroomPermille{0}; //!< that, over its port's reserve, in tenths of a percent
    uint64_t packetHops{0};           //!< frames put on a wire by any port (data, ACK, CNP, PFC)
    std::array<uint64_t, 8> dropsByPriority{}; //!< switch drops (buffer, no route) per priority
    uint8_t losslessPriorities{0}; //!< bit p set: priority p is lossless (PFC) in the switches

    /**
     * Write as a JSON object (fixed key order, integers only: byte-identical across runs).
     * @param path the file
     * @param events simulator events executed so far
     * @return true on success
     */
    bool WriteJson(const std::string& path, uint64_t events) const;

    /**
     * Read what WriteJson wrote (a distributed run's per-rank counters).
     * @param path the file
     * @param events set to the "events" figure
     * @param error set to what went wrong, on failure
     * @return true on success
     */
    bool ReadJson(const std::string& path, uint64_t* events, std::string* error);

    /**
     * Add the counters of another part of the network (another rank): sums, and the larger
     * peakBufferBytes, peakHeadroomBytes and peakHeadroomPermille.
     * @param other the other part's counters
     * @return this
     */
    TransportStatistics& operator+=(const TransportStatistics& other);

    /// @return every counter by its JSON name (fixed order), for reading, writing and adding
    std::vector<std::pair<const char*, uint64_t TransportStatistics::*>> static Fields();
};

/**
 * @ingroup interconnect
 * @brief What workload generators need of a network: post messages between hosts and learn
 * what they cost. RoceTransport (RoCEv2) and IwarpTransport (iWARP) over a network RoceHelper
 * built, and IbRcTransport (RC over InfiniBand) over an IbSubnet implement it, so the same
 * workloads, collectives and scenario runner drive any link technology.
 */
class MessageTransport
{
  public:
    virtual ~MessageTransport() = default;

    /**
     * Post a message from one host to another at a time.
     * @param src source host index
     * @param dst destination host index
     * @param verb WRITE, SEND or READ (READ moves bytes from dst to src)
     * @param bytes message size
     * @param at when to post it (absolute simulation time)
     * @param priority priority (Ethernet) or service level (InfiniBand) of its packets
     * @param done called at completion (may be null)
     * @return the flow id
     */
    virtual uint64_t Post(
        uint32_t src,
        uint32_t dst,
        RdmaVerb verb,
        uint64_t bytes,
        Time at,
        uint8_t priority,
        RdmaQueuePair::CompletionCallback done = RdmaQueuePair::CompletionCallback()) = 0;

    /// @return the priority (or SL) workloads post on by default
    virtual uint8_t GetDefaultPriority() const = 0;

    /**
     * @param verb the verb
     * @param bytes a message size
     * @return the bytes its data packets put on a link, every header and overhead included
     */
    virtual uint64_t WireBytes(RdmaVerb verb, uint64_t bytes) const = 0;

    /// @param host a host index @return the line rate of its link
    virtual DataRate GetHostRate(uint32_t host) const = 0;

    /// @param host a host index @return the rate it can send at (its line rate, or less when
    /// its memory or PCIe path is slower)
    virtual DataRate GetHostSendRate(uint32_t host) const = 0;

    /**
     * FCT of a message alone on the idle network, with every header and overhead of the
     * technology.
     * @param src source host index
     * @param dst destination host index
     * @param verb the verb
     * @param bytes message size
     * @return the time from post to completion
     */
    virtual Time IdealFct(uint32_t src, uint32_t dst, RdmaVerb verb, uint64_t bytes) const = 0;

    /// @return every posted message, in post order (completed only where its source lives)
    const std::vector<FlowRecord>& GetFlows() const;

    /**
     * How messages share queue pairs (iWARP: connections) from now on; per flow unless set.
     * @param mapping the mapping
     */
    void SetQueuePairMapping(const QueuePairMapping& mapping);
    /// @return how messages share queue pairs
    const QueuePairMapping& GetQueuePairMapping() const;

    /**
     * Name a workload, so that the flows it posts can be told apart in the records.
     * @param name its name (written into the flows CSV; no comma or newline)
     * @return its number, for SetWorkload
     */
    uint32_t AddWorkload(const std::string& name);
    /**
     * Messages posted from now on belong to this workload (0, "default", until set).
     * @param workload a number AddWorkload returned
     */
    void SetWorkload(uint32_t workload);
    /// @return the workload messages are posted for now
    uint32_t GetWorkload() const;
    /// @return the workloads' names, by number
    const std::vector<std::string>& GetWorkloadNames() const;

    /// @return the network's counters now
    virtual TransportStatistics CollectStatistics() const = 0;

    /**
     * @param host a host index
     * @return whether the host lives on this rank of a distributed run (its messages are posted,
     *         completed and counted here); always true on one rank
     */
    virtual bool IsLocalHost(uint32_t host) const = 0;

    /// What a connection's congestion control holds, at one of its changes.
    struct CongestionState
    {
        uint32_t host;       //!< the connection's source host
        uint32_t connection; //!< its QPN at the source (iWARP: its connection number), as in
                             //!< FlowRecord::queuePair
        DataRate rate;       //!< sending rate (iWARP: 0, TCP keeps a window)
        uint64_t window;     //!< window, bytes (0: none; iWARP: TCP's congestion window)
        Time gap;            //!< gap kept between packets (InfiniBand CC's CCT entry; 0: none)
    };

    /// Called at each change of a connection's congestion-control state.
    using CongestionStateCallback = std::function<void(const CongestionState&)>;

    /**
     * Report every change of congestion-control state of the connections this rank's hosts
     * start, those there are and those opened later: RDMA queue pairs (their Rate, Window and
     * InterPacketDelay traces) or iWARP connections (TCP's CongestionWindow). One callback: a
     * second call replaces the first.
     * @param callback where the changes go
     */
    void TraceCongestionState(CongestionStateCallback callback);

  protected:
    /// NextConnection's answer under PER_FLOW: a new connection for this message alone.
    static constexpr uint32_t NEW_CONNECTION = 0xffffffff;

    /**
     * The connections a transport keeps for reuse, by host pair, class (priority or SL) and
     * slot (NextConnection's answer; NEW_CONNECTION's are never kept), each as its ends seen
     * from the first host.
     */
    template <typename Ends>
    class ConnectionTable
    {
      public:
        /// @return the connection kept in the slot, or nullptr (none yet; NEW_CONNECTION)
        const Ends* Find(uint32_t src, uint32_t dst, uint8_t cls, uint32_t slot) const
        {
            if (slot == NEW_CONNECTION)
            {
                return nullptr;
            }
            const auto it = m_kept.find(std::make_tuple(src, dst, cls, slot));
            return it == m_kept.end() ? nullptr : &it->second;
        }

        /**
         * Keep a connection in its slot (nothing for NEW_CONNECTION).
         * @param src first host @param dst second host @param cls class @param slot slot
         * @param ends its ends as src sees them
         * @param reverse null, or its ends as dst sees them: a connection that carries
         *        messages both ways is dst's connection to src in the same slot too
         */
        void Keep(uint32_t src,
                  uint32_t dst,
                  uint8_t cls,
                  uint32_t slot,
                  const Ends& ends,
                  const Ends* reverse = nullptr)
        {
            if (slot == NEW_CONNECTION)
            {
                return;
            }
            m_kept[std::make_tuple(src, dst, cls, slot)] = ends;
            if (reverse)
            {
                m_kept[std::make_tuple(dst, src, cls, slot)] = *reverse;
            }
        }

      private:
        std::map<std::tuple<uint32_t, uint32_t, uint8_t, uint32_t>, Ends> m_kept; //!< kept
    };

    /**
     * Connect the congestion-control state of every connection of this rank's hosts, and of
     * those opened later, to ReportCongestionState (called once, by TraceCongestionState).
     */
    virtual void DoTraceCongestionState() = 0;

    /**
     * Connect an RDMA channel adapter's CongestionState trace (every queue pair it has or
     * gets) to ReportCongestionState.
     * @param host the adapter's host
     * @param adapter the adapter
     */
    void TraceAdapterCongestionState(uint32_t host, Ptr<RdmaChannelAdapter> adapter);

    /// @return whether TraceCongestionState was called (connections opened now must be traced)
    bool IsTracingCongestionState() const;

    /// @param state a change, for the TraceCongestionState callback
    void ReportCongestionState(const CongestionState& state) const;

    /**
     * Which connection of a host pair and priority the next message takes, by the mapping:
     * messages given the same slot share a connection; slot 0 is also the host pair's own
     * connection (GetQueuePair). Call once per posted message.
     * @param src source host index
     * @param dst destination host index
     * @param priority priority or service level
     * @return the slot, or NEW_CONNECTION for a connection of its own
     */
    uint32_t NextConnection(uint32_t src, uint32_t dst, uint8_t priority);

    /**
     * What every Post() does around the technology's own posting: record the message (with
     * its ideal FCT where its source lives) and, if its source is on this rank, call `start`
     * at `at` in the source node's context with the completion callback that ends the record
     * and then calls `done`.
     * @param src source host index
     * @param dst destination host index
     * @param verb the verb
     * @param bytes message size
     * @param at when to post it (absolute simulation time)
     * @param priority priority or service level
     * @param node the source host's node id (the context of its events)
     * @param queuePair the QPN of its queue pair at the source (iWARP: connection number)
     * @param done the caller's completion callback (may be null)
     * @param start posts the message on the technology's queue pair or connection
     * @return the flow id
     */
    uint64_t RecordAndStart(uint32_t src,
                            uint32_t dst,
                            RdmaVerb verb,
                            uint64_t bytes,
                            Time at,
                            uint8_t priority,
                            uint32_t node,
                            uint32_t queuePair,
                            RdmaQueuePair::CompletionCallback done,
                            std::function<void(RdmaQueuePair::CompletionCallback)> start);

    /**
     * Add this rank's messages to the counters: posted, completed, and READ bytes (counted at
     * the requester's completion).
     * @param st the counters
     */
    void CountMessages(TransportStatistics& st) const;

    std::vector<FlowRecord> m_flows; //!< every posted message, in post order

  private:
    QueuePairMapping m_mapping;                      //!< how messages share queue pairs
    std::vector<std::string> m_workloads{"default"}; //!< workload names, by number
    uint32_t m_workload{0};                          //!< the workload posting now
    std::map<std::tuple<uint32_t, uint32_t, uint8_t>, uint32_t> m_poolNext; //!< POOL: next slot
    CongestionStateCallback m_congestionState; //!< TraceCongestionState's callback
};

/**
 * @ingroup interconnect
 * One link of a path, for the ideal-FCT arithmetic.
 */
struct PathHop
{
    DataRate rate; //!< the link's rate
    Time delay;    //!< propagation delay
    Time latency;  //!< forwarding latency of the switch at its far end
};

/**
 * @ingroup interconnect
 * Store and forward: when the last of some packets, sent back to back from the source, has
 * arrived at the end of a path (every hop waits for a whole packet, then its link and delay).
 * Each link serializes as the devices do, on a WireClock rounding to nearest: back-to-back
 * packets end at their exact cumulative time, and a packet after an idle gap starts afresh; a
 * packet arrives at least one time step after it started, as the channels deliver it.
 * @param packets their sizes on the wire (every per-packet overhead included), in order
 * @param path the hops
 * @return that time, from the first packet's start
 */
Time StoreAndForward(const std::vector<uint32_t>& packets, const std::vector<PathHop>& path);

/**
 * @ingroup interconnect
 * Write a flows CSV: id, src, dst, verb, size, priority, workload, queue_pair, start_ns,
 * end_ns, fct_ns, ideal_fct_ns, slowdown (end, fct and slowdown empty while incomplete).
 * @param path the file
 * @param flows the messages
 * @param workloads workload names by number (the workload column)
 * @return true on success
 */
bool WriteFlowsCsv(const std::string& path,
                   const std::vector<FlowRecord>& flows,
                   const std::vector<std::string>& workloads);

/**
 * @ingroup interconnect
 * Read a flows CSV that WriteFlowsCsv wrote (a distributed run's per-rank flows); append its
 * records to `flows`.
 * @param path the file
 * @param flows the records read are appended here
 * @param workloads workload names by number: a name not there yet is added
 * @param error set to the file and line that could not be read, on failure
 * @return true on success
 */
bool ReadFlowsCsv(const std::string& path,
                  std::vector<FlowRecord>* flows,
                  std::vector<std::string>* workloads,
                  std::string* error);

} // namespace ns3

#endif // MESSAGE_TRANSPORT_H
