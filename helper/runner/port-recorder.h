/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PORT_RECORDER_H
#define PORT_RECORDER_H

#include "ns3/nstime.h"
#include "ns3/roce-time-series.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief The port records of a run, the same for every link technology, fed by the ports' and
 * switches' trace sources: switch queues over time (queue.csv: per priority on Ethernet, per VL
 * and in all on InfiniBand), PFC frames sent (pfc.csv), InfiniBand credit stalls
 * (credits.csv), and every port's bytes and utilisation (links.csv).
 *
 * It finds what to watch on the nodes of this rank: RoceSwitch and IbSwitch ports, and every
 * PfcNetDevice and IbNetDevice. ScenarioRunner uses it; any program that builds a network with
 * the helpers can.
 */
class PortRecorder
{
  public:
    /**
     * @param queueInterval the sampling interval of queue.csv
     * @param queues which switch ports' queues to sample: none, host-ports (those facing a
     *        host) or all
     * @param priority the priority whose Ethernet queues are sampled (the workloads')
     */
    PortRecorder(Time queueInterval, const std::string& queues, uint8_t priority);

    /// Connect to the trace sources of this rank's switches and ports. Call once, after the
    /// network is built and before the simulation runs.
    void Watch();
    /**
     * Sample the queues from 0 to stop.
     * @param stop the end of the run
     */
    void Start(Time stop);
    /**
     * Write pfc.csv, credits.csv (with InfiniBand ports), links.csv and queue.csv; an
     * InterconnectConfigException names a file that could not be written.
     * @param dir the directory (it exists)
     */
    void Write(const std::string& dir) const;

  private:
    /// One PFC frame sent.
    struct PfcEvent
    {
        int64_t timeNs;   //!< when
        uint32_t node;    //!< switch node id
        uint32_t port;    //!< port
        uint8_t priority; //!< priority
        uint16_t quanta;  //!< quanta (0: resume)
    };

    /// An InfiniBand VL starting or ending a wait for credits.
    struct CreditStallEvent
    {
        int64_t timeNs;  //!< when
        uint32_t node;   //!< node id
        uint32_t device; //!< device index on the node
        uint8_t vl;      //!< VL
        bool stalled;    //!< started (true) or ended
    };

    /// Trace sink of PfcTx.
    static void RecordPfc(std::vector<PfcEvent>* events,
                          uint32_t node,
                          uint32_t port,
                          uint8_t priority,
                          uint16_t quanta);
    /// Trace sink of CreditStall.
    static void RecordCreditStall(std::vector<CreditStallEvent>* events,
                                  uint32_t node,
                                  uint32_t device,
                                  uint8_t vl,
                                  bool stalled);

    std::string m_queues;                   //!< none, host-ports or all
    uint8_t m_priority;                     //!< sampled Ethernet priority
    RoceTimeSeries m_series;                //!< queue samples
    std::vector<PfcEvent> m_pfc;            //!< PFC frames
    std::vector<CreditStallEvent> m_stalls; //!< credit stalls
    bool m_infiniband;                      //!< InfiniBand ports were watched
};

} // namespace ns3

#endif // PORT_RECORDER_H
