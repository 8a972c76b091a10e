/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_HELPER_H
#define ROCE_HELPER_H

#include "ns3/ipv4-address.h"
#include "ns3/iwarp-helper.h"
#include "ns3/message-transport.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/pfc-net-device.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-switch.h"
#include "ns3/run-record.h"

#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{

class Fabric;
class FabricHelper;

/// The counters of a RoCEv2 or iWARP network (the name before MessageTransport).
using RoceStatistics = TransportStatistics;

/**
 * @ingroup interconnect
 * @brief Builds a small RoCEv2 network by hand: hosts with one RDMA NIC, switches, cables.
 *
 * Create hosts and switches, join them with Link(), then Finalize(): it gives every host an
 * address (10.x.y.z, by host index), installs the NICs, sizes the switches' buffers and
 * installs on every switch the equal-cost shortest routes to every host. Then post messages:
 * Post() connects queue pairs as the QueuePairMapping says (a pair of its own per message
 * unless SetQueuePairMapping chose otherwise) and records every message for the flows CSV,
 * with its ideal FCT on the idle network.
 *
 * Distributed runs (ns-3's MPI simulator): give every host and switch the rank it lives on
 * (AddHost(systemId), AddSwitch(systemId)); a cable between ranks becomes a PfcRemoteChannel,
 * every rank creates the same nodes and devices (ids must agree across ranks) and the queue
 * pairs with an end on it (only the QPNs of other ranks' pairs), and Post() starts a message
 * only on its source's rank; flows are recorded everywhere, completed (and given their ideal
 * FCT) only where their source lives (IsLocalHost).
 *
 * The helper wires; the model objects (PfcNetDevice, PfcChannel, RoceSwitch, RdmaNic) do the
 * work and can be used without it. Topology helpers for whole fabrics build on the same calls.
 */
class RoceHelper : public MessageTransport
{
  public:
    RoceHelper();

    /// @param name PfcNetDevice attribute for every port created from now on @param value value
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);
    /// @param name PfcChannel attribute for every cable created from now on @param value value
    void SetChannelAttribute(const std::string& name, const AttributeValue& value);
    /// @param name RoceSwitch attribute for every switch created from now on @param value value
    void SetSwitchAttribute(const std::string& name, const AttributeValue& value);
    /// @param name RoceSwitchMmu attribute for every switch created from now on @param value value
    void SetMmuAttribute(const std::string& name, const AttributeValue& value);
    /// @param name RdmaNic attribute for every NIC @param value value
    void SetNicAttribute(const std::string& name, const AttributeValue& value);
    /// @param name RdmaQueuePair attribute for every queue pair @param value value
    void SetQueuePairAttribute(const std::string& name, const AttributeValue& value);

    /// How Post() carries messages.
    enum Transport
    {
        ROCE, //!< RoCEv2 queue pairs on the RdmaNics (default)
        IWARP //!< iWARP connections (IwarpSocket) over ns-3 TCP on the same ports
    };

    /**
     * Choose the transport of Post(); before Finalize. IWARP installs the Internet stack.
     * @param transport the transport
     */
    void SetTransport(Transport transport);
    /// @return the transport
    Transport GetTransport() const;
    /// @param priority the priority workload helpers post on (0..7)
    void SetDefaultPriority(uint8_t priority);
    /// @return that priority: as set, else 3 for RoCE (lossless) and 0 for iWARP (lossy)
    uint8_t GetDefaultPriority() const override;
    /**
     * @param name "roce" or "iwarp"
     * @return the transport; anything else is a configuration error naming `parameter`
     * @param parameter the name of the setting, for the error
     */
    static Transport ParseTransport(const std::string& parameter, const std::string& name);
    /// @param name IwarpSocket attribute for every iWARP connection @param value value
    void SetIwarpAttribute(const std::string& name, const AttributeValue& value);
    /// @param name TcpSocket attribute for every iWARP connection @param value value
    void SetTcpAttribute(const std::string& name, const AttributeValue& value);
    /// @param typeName the hosts' TCP congestion control (a TcpCongestionOps TypeId name)
    void SetTcpCongestionControl(const std::string& typeName);
    /// @return the iWARP connections' helper (listeners, per-connection counters)
    const IwarpHelper& GetIwarpHelper() const;

    /**
     * @param systemId the rank the host lives on in a distributed run (0 otherwise)
     * @return a new host (its index is the order of creation)
     */
    Ptr<Node> AddHost(uint32_t systemId = 0);
    /**
     * @param systemId the rank the switch lives on in a distributed run (0 otherwise)
     * @return a new switch
     */
    Ptr<Node> AddSwitch(uint32_t systemId = 0);
    /**
     * @param host a host index
     * @return whether the host lives on this rank (always, unless a distributed run)
     */
    bool IsLocalHost(uint32_t host) const override;
    /**
     * Join two nodes with a cable, with the current device and channel attributes.
     * @param a one node
     * @param b the other
     * @return the device on a, then the device on b
     */
    std::pair<Ptr<PfcNetDevice>, Ptr<PfcNetDevice>> Link(Ptr<Node> a, Ptr<Node> b);

    /**
     * Join two nodes with a cable of its own rate and delay (the other device and channel
     * attributes as set).
     * @param a one node
     * @param b the other
     * @param rate the rate of both ports
     * @param delay the cable's propagation delay
     * @return the device on a, then the device on b
     */
    std::pair<Ptr<PfcNetDevice>, Ptr<PfcNetDevice>> Link(Ptr<Node> a,
                                                         Ptr<Node> b,
                                                         DataRate rate,
                                                         Time delay);

    /**
     * Addresses, NICs, switch buffers and routes. Call once, after the last Link().
     * @param internetStack also install ns-3's Internet stack on the hosts (for TCP next to RDMA)
     * @param shortestPathRoutes install on every switch all equal-cost shortest routes to every
     *        host; false leaves the switches without routes, for a caller that installs its own
     *        with RoceSwitch::SetRoute (the fabric helpers do)
     */
    void Finalize(bool internetStack = false, bool shortestPathRoutes = true);

    /**
     * Install a fabric as a RoCEv2 (or, with SetTransport(IWARP), iWARP) network: the
     * installer of the Ethernet technologies, as IbSubnetHelper::Build is InfiniBand's. One
     * host per host and one switch per switch of helper.Describe() (with this helper's device,
     * switch, buffer and NIC attributes), each link with its own rate and delay, Finalize
     * without its own routes, then the fabric's routes and priority remap rules on every
     * RoceSwitch. Priorities the routing moves traffic to are made lossless on every switch
     * (RoceSwitchMmu's LosslessPriorities). Call it on a helper without hosts or switches.
     * @param helper the topology
     * @return the fabric, its nodes and links bound to what was built
     */
    Fabric Build(const FabricHelper& helper);

    /**
     * Post a message from one host to another at a time.
     * @param src source host index
     * @param dst destination host index
     * @param verb WRITE, SEND or READ (READ moves bytes from dst to src)
     * @param bytes message size
     * @param at when to post it (absolute simulation time)
     * @param priority priority of its packets
     * @param done called at completion (may be null)
     * @return the flow id
     */
    uint64_t Post(
        uint32_t src,
        uint32_t dst,
        RdmaVerb verb,
        uint64_t bytes,
        Time at,
        uint8_t priority,
        RdmaQueuePair::CompletionCallback done = RdmaQueuePair::CompletionCallback()) override;

    /**
     * The host pair's own iWARP connection from src to dst on a priority (created on first use;
     * its packets carry DSCP 8 x priority; Post uses it under QueuePairMapping::PerHostPair).
     * Transport IWARP only.
     * @param src source host index
     * @param dst destination host index
     * @param priority the priority
     * @return the initiator's end, on src
     */
    Ptr<IwarpSocket> GetIwarpSocket(uint32_t src, uint32_t dst, uint8_t priority);

    /**
     * The host pair's own connected queue pair from src to dst on a priority (created on first
     * use; Post uses it under QueuePairMapping::PerHostPair, and as the pool's first).
     * @param src source host index
     * @param dst destination host index
     * @param priority the priority
     * @return the queue pair on src; nullptr in a distributed run when neither host is on this
     *         rank (their QPNs are only reserved here: RdmaNic::ReserveQueuePair)
     */
    Ptr<RdmaQueuePair> GetQueuePair(uint32_t src, uint32_t dst, uint8_t priority);

    /**
     * The queue pair a posted RoCE message travels on.
     * @param flow the flow id Post returned
     * @param responder false: the requester's end (on the source); true: the responder's
     * @return that queue pair; nullptr in a distributed run where that end is on another rank
     */
    Ptr<RdmaQueuePair> GetFlowQueuePair(uint64_t flow, bool responder = false) const;

    /**
     * FCT of a message alone on the idle network: store-and-forward of every frame along the
     * first shortest path at each link's rate with all per-frame overheads, propagation,
     * switch latency, and the final ACK (WRITE/SEND) back to the requester.
     * @param src source host index
     * @param dst destination host index
     * @param verb the verb
     * @param bytes message size
     * @return the ideal FCT
     */
    Time IdealFct(uint32_t src, uint32_t dst, RdmaVerb verb, uint64_t bytes) const override;

    /**
     * Write pcap files of every port, PREFIX-NODE-DEVICE.pcap (DLT_EN10MB).
     * @param prefix path prefix
     */
    void EnablePcapAll(const std::string& prefix);

    /**
     * Write the flows CSV: id,src,dst,verb,size,priority,start_ns,end_ns,fct_ns,ideal_fct_ns,
     * slowdown (incomplete flows have empty end and FCT).
     * @param path the file
     * @return true on success
     */
    bool WriteFlowsCsv(const std::string& path) const;

    /**
     * Write a run's outputs into a directory (created if needed): flows.csv, summary.json (the
     * statistics and the event count) and config.json (the record). An InterconnectConfigException
     * names what could not be written.
     * @param dir the output directory
     * @param record the run's resolved configuration and seed
     */
    void WriteOutputs(const std::string& dir, const RunRecord& record) const;

    /// @return the flow records
    /// @return the counters of all switches, ports, NICs and queue pairs now
    TransportStatistics CollectStatistics() const override;
    /**
     * Fix the random streams of every switch (ECN marking), for reproducible runs.
     * @param stream the first stream index
     * @return the number of streams used
     */
    int64_t AssignStreams(int64_t stream);
    /// @return all hosts
    NodeContainer GetHosts() const;
    /// @return all switches
    NodeContainer GetSwitches() const;
    /// @return the NIC of host i
    Ptr<RdmaNic> GetNic(uint32_t host) const;
    /// @return the path MTU of the queue pairs (payload bytes per packet), after Finalize
    uint32_t GetQueuePairMtu() const;
    /**
     * Bytes a message occupies on its first link: every frame with its headers, padding,
     * FCS, preamble and gap.
     * @param verb the verb (WRITE's first frame carries a RETH)
     * @param bytes message size
     * @return wire bytes
     */
    uint64_t WireBytes(RdmaVerb verb, uint64_t bytes) const override;
    DataRate GetHostRate(uint32_t host) const override;
    DataRate GetHostSendRate(uint32_t host) const override;
    /// @return the address of host i
    Ipv4Address GetAddress(uint32_t host) const;
    /// @return the switch object of a switch node
    Ptr<RoceSwitch> GetSwitch(uint32_t index) const;

  protected:
    void DoTraceCongestionState() override;

  private:
    /// One cable end, for route computation.
    struct Adjacent
    {
        uint32_t node;            //!< neighbour's index in m_nodes
        Ptr<PfcNetDevice> device; //!< local device
        uint32_t port;            //!< switch port index (switches only)
    };

    /// @return index in m_nodes of a node
    uint32_t IndexOf(Ptr<Node> node) const;
    /// Hop-count distances from node `from` to all nodes.
    std::vector<uint32_t> Distances(uint32_t from) const;
    /// IdealFct of the IWARP transport.
    Time IdealIwarpFct(uint32_t src, uint32_t dst, RdmaVerb verb, uint64_t bytes) const;
    /// The devices along the first shortest path from host src to host dst.
    std::vector<Ptr<PfcNetDevice>> PathDevices(uint32_t src, uint32_t dst) const;

    ObjectFactory m_deviceFactory;                                           //!< ports
    ObjectFactory m_channelFactory;                                          //!< cables
    ObjectFactory m_switchFactory;                                           //!< switches
    ObjectFactory m_mmuFactory;                                              //!< buffer managers
    ObjectFactory m_nicFactory;                                              //!< NICs
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_qpAttributes; //!< QP attributes

    std::vector<Ptr<Node>> m_nodes;           //!< hosts and switches
    std::vector<bool> m_isSwitch;             //!< per node
    std::vector<uint32_t> m_hostNode;         //!< host index -> node index
    std::vector<uint32_t> m_switchNode;       //!< switch index -> node index
    std::vector<std::vector<Adjacent>> m_adj; //!< cables per node
    std::vector<Ptr<RdmaNic>> m_nics;         //!< per host
    std::vector<Ipv4Address> m_addresses;     //!< per host
    std::vector<Ptr<RoceSwitch>> m_switches;  //!< per switch

    /// The two ends of a connection and the QPN at its first end.
    struct QueuePairs
    {
        Ptr<RdmaQueuePair> first;  //!< the requester's end (nullptr: on another rank)
        Ptr<RdmaQueuePair> second; //!< the responder's end (nullptr: on another rank)
        uint32_t qpn{0};           //!< the requester end's QPN
    };

    /// The connection of (src, dst, priority) in a slot (NEW_CONNECTION: a new one, unkept).
    QueuePairs Connection(uint32_t src, uint32_t dst, uint8_t priority, uint32_t slot);
    /// The iWARP connection of (src, dst, priority) in a slot, and its number.
    std::pair<Ptr<IwarpSocket>, uint32_t> IwarpConnection(uint32_t src,
                                                          uint32_t dst,
                                                          uint8_t priority,
                                                          uint32_t slot);

    std::map<std::tuple<uint32_t, uint32_t, uint8_t, uint32_t>, QueuePairs>
        m_qps; //!< connections by host pair, priority and slot
    std::vector<std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>>
        m_flowQps;                                //!< each RoCE flow's two ends, by flow id
    uint32_t m_qpMtu;                             //!< path MTU of the queue pairs
    bool m_finalized;                             //!< Finalize() done
    Transport m_transport;                        //!< what Post() uses
    uint32_t m_defaultPriority;                   //!< SetDefaultPriority (8: unset)
    IwarpHelper m_iwarp;                          //!< iWARP connections
    std::string m_tcpCc;                          //!< TCP congestion control ("" : ns-3's default)
    std::vector<Ptr<IwarpSocket>> m_iwarpSockets; //!< initiators, in order of creation
    std::vector<uint32_t> m_iwarpSources;         //!< each initiator's host
    /// Report the congestion window of an iWARP connection.
    void TraceIwarpWindow(uint32_t connection);
    std::map<std::tuple<uint32_t, uint32_t, uint8_t, uint32_t>,
             std::pair<Ptr<IwarpSocket>, uint32_t>>
        m_iwarpBy; //!< connections and their numbers by host pair, priority and slot
};

} // namespace ns3

#endif // ROCE_HELPER_H
