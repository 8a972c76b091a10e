/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_SWITCH_H
#define IB_SWITCH_H

#include "ib-net-device.h"

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/sharp-aggregation-node.h"

#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief An InfiniBand switch: a linear forwarding table (DLID -> output port) filled by the
 * subnet manager, input buffering per VL, and a port-to-port latency.
 *
 * A packet that arrives on a port occupies that port's receive buffer (its VL's credits) until
 * it starts on the wire at the output port; then the input port releases the blocks and
 * advertises them upstream. So the switch never drops a packet for lack of buffer: the credit
 * loop holds it back at the previous hop. The output VL is the output port's SL-to-VL mapping
 * of the packet's SL (LRH), written into the LRH. A DLID without an entry is dropped and
 * counted. Store and forward (cut-through is not modelled). With FecnThreshold, a packet that
 * joins an output VL queue at least that long is marked FECN (IBTA annex A10), unless the port
 * waited for credits on that VL within VictimWindow: then it is a victim of congestion further
 * on, not its root. With IntEnabled, a data packet that carries an RdmaIntTag (its queue pair's
 * congestion control asks for telemetry, e.g. HPCC) gets a hop appended as it leaves an output
 * port: the port's bytes sent, its VL's queue, the time and the line rate.
 */
class IbSwitch : public Object
{
  public:
    /// No output port.
    static constexpr uint32_t NO_PORT = 0xFFFFFFFF;

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    IbSwitch();

    /// @param device a port @return its port number
    uint32_t AddPort(Ptr<IbNetDevice> device);
    /// @return the number of ports
    uint32_t GetNPorts() const;
    /// @param i a port number @return the port
    Ptr<IbNetDevice> GetPort(uint32_t i) const;

    /**
     * @param dlid a destination LID
     * @param port the output port for it
     */
    void SetLft(uint16_t dlid, uint32_t port);
    /// @param dlid a destination LID @return its output port, or NO_PORT
    uint32_t GetLft(uint16_t dlid) const;

    /// @return packets forwarded
    uint64_t GetForwarded() const;
    /// @return packets dropped for a DLID without a forwarding entry
    uint64_t GetNoRouteDrops() const;
    /// @return packets marked with FECN
    uint64_t GetFecnMarks() const;

    /**
     * Give the switch an aggregation node (SHARP), addressed by the switch's own LID: packets to
     * that LID go to the node instead of the forwarding table, and the node sends through the
     * switch's ports. Aggregation packets are one hop long (host to its switch, switch to its
     * parent in the tree, and back), so the LID needs no route.
     * @param node the node
     * @param lid the switch's LID (its management port's, in a real subnet)
     */
    void SetAggregationNode(Ptr<SharpAggregationNode> node, uint16_t lid);
    /// @return the aggregation node, or nullptr
    Ptr<SharpAggregationNode> GetAggregationNode() const;
    /// @return the switch's LID (0 without an aggregation node)
    uint16_t GetLid() const;

  protected:
    void DoDispose() override;

  private:
    /// The tag of packets the aggregation node sends: no input buffer to release.
    static constexpr uint32_t AGGREGATION_TAG = 0xFFFFFFFF;

    /// A packet for the aggregation node arrived: its input buffer is free at once.
    void ReceiveAggregation(uint32_t inPort,
                            Ptr<IbNetDevice> device,
                            Ptr<Packet> packet,
                            uint8_t vl);
    /// The aggregation node sends: LRH, BTH and ICRC around it, then the port's VL queue.
    void SendAggregation(uint32_t port, uint32_t peer, Ptr<Packet> packet, uint8_t sl);

    /// A packet arrived on a port.
    void Receive(uint32_t inPort, Ptr<IbNetDevice> device, Ptr<Packet> packet, uint8_t vl);
    /// A packet left output port `outPort`: free its input buffer; append INT.
    void Dequeued(uint32_t outPort, Ptr<Packet> packet, uint8_t vl, uint32_t tag);

    std::vector<Ptr<IbNetDevice>> m_ports; //!< ports
    std::vector<uint32_t> m_lft;           //!< DLID -> port
    Time m_latency;                        //!< port-to-port latency
    bool m_cutThrough;                     //!< virtual cut-through
    bool m_intEnabled;                     //!< append INT hops
    uint32_t m_fecnThreshold;              //!< FECN marking threshold, bytes (0: off)
    Time m_victimWindow;                   //!< credit waits within this make a port a victim
    uint64_t m_forwarded;                  //!< packets forwarded
    uint64_t m_noRoute;                    //!< dropped without a route
    uint64_t m_fecnMarks;                  //!< FECN marks
    Ptr<SharpAggregationNode> m_sharp;     //!< aggregation node, or nullptr
    uint16_t m_lid{0};                     //!< the switch's LID (with an aggregation node)
};

} // namespace ns3

#endif // IB_SWITCH_H
