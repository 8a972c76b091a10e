/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SHARP_AGGREGATION_MANAGER_H
#define SHARP_AGGREGATION_MANAGER_H

#include "ns3/fabric.h"
#include "ns3/ib-subnet-helper.h"
#include "ns3/in-network-reduction.h"
#include "ns3/object-factory.h"
#include "ns3/roce-helper.h"
#include "ns3/sharp-aggregation-node.h"

#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief SHARP on an InfiniBand subnet: an aggregation node in every switch, the aggregation
 * manager that builds a job's tree and reserves its resources, and the members' side of the
 * streaming all-reduce.
 *
 * The tree of a group (BuildTree): its leaves are the switches the members are attached to; its
 * root is the switch nearest to all of them (the least largest hop count to a leaf, over
 * switch-to-switch links; the lowest switch index among equals); every other tree switch is on a
 * shortest path from a leaf to the root, and its parent is its first link (in port order) one
 * hop nearer the root. A group within one switch is a tree of one node.
 *
 * A job (TryStart) reserves, on every tree switch, one aggregation unit and `window` chunks of
 * buffer; if one is short anywhere it takes nothing and is refused (the caller falls back to a
 * host-based all-reduce). Each member then sends its vector as chunks of at most the MTU less
 * the SharpHeader, with at most `window` chunks whose result it has not received (SHARP's
 * outstanding-operation limit, which keeps a switch within the job's buffer); each result lets
 * the next chunk go. The job ends when every member holds every result, and its resources are
 * given back.
 *
 * What this leaves out of a real deployment: the reliable transport between tree nodes (packets
 * go on a lossless VL, and none is lost), the subnet manager's and aggregation manager's
 * messages (trees are set up instantly), the data types and operations (values are not
 * computed), and the small-message latency path (SHARP's "low-latency" operations).
 */
class SharpAggregationManager : public InNetworkReduction
{
  public:
    /// A job's tree.
    struct Tree
    {
        uint32_t root{0};                 //!< the root (switch index)
        uint32_t height{0};               //!< switch levels: 1 for a tree of one switch
        std::vector<uint32_t> switches;   //!< its switches (switch indices), ascending
        std::vector<uint32_t> parentLink; //!< per entry of `switches`: its link to the parent
                                          //!< (the root's: unused)
    };

    /// @param subnet the subnet (its switches get aggregation nodes at Install)
    explicit SharpAggregationManager(const IbSubnet& subnet);

    /**
     * SHARP on a RoCEv2 fabric (switches with aggregation nodes, as NVIDIA's Spectrum-X
     * offers): the node of switch s answers at 11.0.0.0 + 1 + s; aggregation packets are IPv4,
     * UDP to 4791 and a BTH with opcode SharpHeader::BTH_OPCODE around the SharpHeader, at the
     * service level's priority (DSCP 8 x priority).
     * @param roce the finalized network (kept by reference)
     * @param fabric its fabric (RoceHelper::Build's)
     */
    SharpAggregationManager(RoceHelper& roce, const Fabric& fabric);

    /// @param name a SharpAggregationNode attribute @param value its value, for every switch
    void SetNodeAttribute(const std::string& name, const AttributeValue& value);
    /// @param chunks chunks a member may have outstanding (>= 1; default 64)
    void SetWindow(uint32_t chunks);
    /// @param sl the service level (RoCE: priority) of aggregation packets (default 0)
    void SetServiceLevel(uint8_t sl);

    /**
     * Give every switch an aggregation node and an address (InfiniBand: a LID after the
     * hosts', switch s the hosts' last LID + 1 + s; RoCE: 11.0.0.0 + 1 + s), and every host the
     * members' side.
     */
    void Install();

    /// @param hosts a group (at least one host) @return its tree
    Tree BuildTree(const std::vector<uint32_t>& hosts) const;

    bool TryStart(const std::vector<uint32_t>& hosts,
                  uint64_t bytes,
                  std::function<void()> done) override;
    Time LowerBound(const std::vector<uint32_t>& hosts, uint64_t bytes) const override;
    std::string GetName() const override;

    /// @return data bytes a chunk carries (the MTU less the SharpHeader)
    uint32_t GetChunkBytes() const;
    /// @param bytes a vector @return the bytes a member's link carries each way for it
    uint64_t WireBytes(uint64_t bytes) const;
    /// @param switchIndex a switch @return its aggregation node (after Install)
    Ptr<SharpAggregationNode> GetNode(uint32_t switchIndex) const;
    /// @return jobs started
    uint64_t GetJobsStarted() const;
    /// @return jobs refused for lack of units or buffer
    uint64_t GetJobsRefused() const;
    /// @return jobs completed
    uint64_t GetJobsCompleted() const;

  private:
    /// A member's progress in a job.
    struct Member
    {
        uint32_t host;          //!< host index
        uint32_t switchAddress; //!< the address of its switch
        uint32_t nextSend{0};   //!< next chunk to send
        uint32_t results{0};    //!< results received
    };

    /// A running job.
    struct Job
    {
        uint64_t bytes;                        //!< the vector
        uint32_t chunks;                       //!< its chunks
        std::vector<uint32_t> switches;        //!< tree switches, to free
        std::vector<Member> members;           //!< members
        std::map<uint32_t, uint32_t> memberOf; //!< host -> index in members
        uint32_t finished{0};                  //!< members holding every result
        std::function<void()> done;            //!< completion
    };

    /// Send a member's chunks while its window allows.
    void Pump(uint16_t job, Member& m);
    /// A result reached host `host`.
    void Result(uint32_t host, Ptr<Packet> packet);

    /// What the manager needs of a technology.
    struct Binding
    {
        Fabric fabric;      //!< the topology
        uint32_t chunkData; //!< data bytes a chunk carries (the path MTU less the SharpHeader)
        std::function<uint64_t(uint32_t data)> chunkWire;   //!< wire bytes of a chunk of `data`
        std::function<DataRate(uint32_t host)> hostRate;    //!< a host link's rate
        std::function<uint32_t(uint32_t host)> hostAddress; //!< a host's address (LID, IPv4)
        /// Give switch s its node; @return the switch's address
        std::function<uint32_t(uint32_t s, Ptr<SharpAggregationNode> node)> install;
        /// Deliver the aggregation packets that reach a host to a callback
        std::function<void(uint32_t host, Callback<void, Ptr<Packet>> receive)> receive;
        /// Send an aggregation packet from a host to a switch's address, on a service level
        std::function<void(uint32_t host, uint32_t to, Ptr<Packet> packet, uint8_t sl)> send;
    };

    Binding m_binding;                              //!< the technology
    ObjectFactory m_factory;                        //!< aggregation nodes
    std::vector<Ptr<SharpAggregationNode>> m_nodes; //!< by switch index
    std::vector<uint32_t> m_switchAddress;          //!< by switch index
    uint32_t m_window{64};                          //!< outstanding chunks per member
    uint8_t m_sl{0};                                //!< service level
    uint16_t m_nextJob{1};                          //!< next job number to try
    std::map<uint16_t, Job> m_jobs;                 //!< running jobs
    uint64_t m_started{0};                          //!< jobs started
    uint64_t m_refused{0};                          //!< jobs refused
    uint64_t m_completed{0};                        //!< jobs completed
};

} // namespace ns3

#endif // SHARP_AGGREGATION_MANAGER_H
