/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_HELPER_H
#define ROCE_HELPER_H

#include "ns3/ipv4-address.h"
#include "ns3/message-transport.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/pfc-net-device.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-switch.h"
#include "ns3/run-record.h"

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
 * installs on every switch the equal-cost shortest routes to every host (or Build() a whole
 * fabric). The helper builds; messages go through a transport made over the built network:
 * RoceTransport (RoCEv2 queue pairs on the NICs) or IwarpTransport (iWARP over ns-3 TCP on
 * the same ports, with SetInternetStack), each a MessageTransport, as IbRcTransport is over
 * what IbSubnetHelper builds.
 *
 * Distributed runs (ns-3's MPI simulator): give every host and switch the rank it lives on
 * (AddHost(systemId), AddSwitch(systemId)); a cable between ranks becomes a PfcRemoteChannel,
 * every rank creates the same nodes and devices (ids must agree across ranks) and the queue
 * pairs with an end on it (only the QPNs of other ranks' pairs), and a transport starts a
 * message only on its source's rank; flows are recorded everywhere, completed (and given their
 * ideal FCT) only where their source lives (IsLocalHost).
 *
 * The helper wires; the model objects (PfcNetDevice, PfcChannel, RoceSwitch, RdmaNic) do the
 * work and can be used without it. Topology helpers for whole fabrics build on the same calls.
 */
class RoceHelper
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
    /**
     * Set a buffer-manager attribute for the switches of one layer of a fabric Build() builds
     * (e.g. "dci": a two-dc fabric's border switches with deep buffers), over SetMmuAttribute's.
     * @param layer the switches' FabricNode layer
     * @param name a RoceSwitchMmu attribute
     * @param value its value
     */
    void SetLayerMmuAttribute(const std::string& layer,
                              const std::string& name,
                              const AttributeValue& value);
    /// @param name RdmaNic attribute for every NIC @param value value
    void SetNicAttribute(const std::string& name, const AttributeValue& value);
    /// @param name RdmaQueuePair attribute for every queue pair @param value value
    void SetQueuePairAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Install ns-3's Internet stack on the hosts at Finalize (iWARP's TCP, or any TCP next to
     * RDMA on the same ports); before Finalize.
     * @param enable whether to
     */
    void SetInternetStack(bool enable);
    /// @return whether the hosts get (or have) the Internet stack
    bool GetInternetStack() const;

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
    bool IsLocalHost(uint32_t host) const;
    /// @return the number of hosts
    uint32_t GetNHosts() const;
    /// @param host a host index @return its node
    Ptr<Node> GetHost(uint32_t host) const;
    /// @return whether Finalize (or Build) has been called
    bool IsFinalized() const;
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
     * Install a fabric as a RoCEv2 (or, with SetInternetStack, iWARP) network: the
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
     * The ports of the first shortest path (the ideal FCT's path).
     * @param src source host index
     * @param dst destination host index
     * @return the egress port of every hop, from src's NIC port on
     */
    std::vector<Ptr<PfcNetDevice>> PathDevices(uint32_t src, uint32_t dst) const;

    /**
     * Store-and-forward time of frames along a path of ports, each frame given without its
     * FCS, preamble and gap (as the devices count it): the ideal-FCT arithmetic.
     * @param frames the frames' bytes
     * @param path the egress ports, in order (PathDevices)
     * @return from the first bit of the first frame out to the last bit of the last one in
     */
    static Time StoreAndForward(const std::vector<uint32_t>& frames,
                                const std::vector<Ptr<PfcNetDevice>>& path);

    /**
     * Write pcap files of every port, PREFIX-NODE-DEVICE.pcap (DLT_EN10MB).
     * @param prefix path prefix
     */
    void EnablePcapAll(const std::string& prefix);

    /**
     * The counters of the network itself: switches (drops, ECN marks, buffer) and ports (PFC
     * frames, pause time, link drops, frames sent); a transport adds its own.
     * @return the counters now
     */
    TransportStatistics CollectFabricStatistics() const;
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
    /// @param host a host @return its NIC port's rate
    DataRate GetHostRate(uint32_t host) const;
    /// @param host a host @return the rate it can send at: its port's, or its NIC's
    ///        HostReadRate when lower (RdmaNic)
    DataRate GetHostSendRate(uint32_t host) const;
    /// @return the address of host i
    Ipv4Address GetAddress(uint32_t host) const;
    /// @return the switch object of a switch node
    Ptr<RoceSwitch> GetSwitch(uint32_t index) const;

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
    ObjectFactory m_deviceFactory;                                           //!< ports
    ObjectFactory m_channelFactory;                                          //!< cables
    ObjectFactory m_switchFactory;                                           //!< switches
    ObjectFactory m_mmuFactory;                                              //!< buffer managers
    ObjectFactory m_nicFactory;                                              //!< NICs
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_qpAttributes; //!< QP attributes
    /// Per fabric layer: buffer-manager attributes (SetLayerMmuAttribute), in order.
    std::vector<std::tuple<std::string, std::string, Ptr<AttributeValue>>> m_layerMmu;

    std::vector<Ptr<Node>> m_nodes;           //!< hosts and switches
    std::vector<bool> m_isSwitch;             //!< per node
    std::vector<uint32_t> m_hostNode;         //!< host index -> node index
    std::vector<uint32_t> m_switchNode;       //!< switch index -> node index
    std::vector<std::vector<Adjacent>> m_adj; //!< cables per node
    std::vector<Ptr<RdmaNic>> m_nics;         //!< per host
    std::vector<Ipv4Address> m_addresses;     //!< per host
    std::vector<Ptr<RoceSwitch>> m_switches;  //!< per switch

    uint32_t m_qpMtu;     //!< path MTU of the queue pairs
    bool m_finalized;     //!< Finalize() done
    bool m_internetStack; //!< SetInternetStack
};

} // namespace ns3

#endif // ROCE_HELPER_H
