/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef INTRA_HOST_FABRIC_H
#define INTRA_HOST_FABRIC_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief The inside of a server as a fluid model: components, links, and transfers that share
 * the links max-min fairly.
 *
 * Components (GPUs, NICs, CPU sockets, PCIe and NVLink switches, host memory) are joined by
 * full-duplex links with a bandwidth per direction and a latency. A transfer follows the path
 * with the fewest hops; while transfers are active every one gets its max-min fair rate
 * (progressive filling: the most contended link fixes the rate of the transfers that cross it,
 * which then leave their share to the others), recomputed whenever a transfer starts or ends.
 * A transfer of S bytes alone on its path therefore takes S / (bottleneck bandwidth) plus the
 * sum of the link latencies. No packets: this is a fluid model, cheap enough for eight GPUs'
 * all-to-all inside every server of a cluster.
 */
class IntraHostFabric : public Object
{
  public:
    /// What a component is (for naming and for the topology matrix).
    enum Kind
    {
        GPU,
        NIC,
        CPU,
        PCIE_SWITCH,
        NVSWITCH,
        MEMORY,
        HOST_BRIDGE
    };

    /// What a link is: it decides the path labels of the topology matrix.
    enum LinkKind
    {
        PCIE,    //!< a PCIe link (bridges: PCIe switches; host bridges: root complexes)
        NVLINK,  //!< a bonded set of NVLinks (GPU-GPU or GPU-NVSwitch)
        SMP,     //!< the interconnect between NUMA nodes (UPI, Infinity Fabric, ...)
        INTERNAL //!< inside a socket: CPU to its memory or to its host bridges
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    IntraHostFabric();

    /**
     * @param name a unique name
     * @param kind what it is
     * @return its id
     */
    uint32_t AddComponent(const std::string& name, Kind kind);

    /**
     * Join two components.
     * @param a one end
     * @param b the other
     * @param bytesPerSecond bandwidth of each direction (> 0)
     * @param latency one-way latency (>= 0)
     * @return the link's id
     */
    uint32_t AddLink(uint32_t a, uint32_t b, double bytesPerSecond, Time latency);

    /**
     * Join two components with a link of a given kind.
     * @param a one end
     * @param b the other
     * @param bytesPerSecond bandwidth of each direction (> 0)
     * @param latency one-way latency (>= 0)
     * @param kind what the link is
     * @param bonded how many physical links it stands for (NVLinks: the # of NV#)
     * @return the link's id
     */
    uint32_t AddLink(uint32_t a,
                     uint32_t b,
                     double bytesPerSecond,
                     Time latency,
                     LinkKind kind,
                     uint32_t bonded = 1);

    /**
     * @param src from
     * @param dst to
     * @return the directed links (2 x link id + direction) of the path with the fewest hops
     */
    std::vector<uint32_t> Path(uint32_t src, uint32_t dst) const;

    /**
     * Start moving bytes from one component to another now.
     * @param src from
     * @param dst to
     * @param bytes how many
     * @param done called when the last byte has arrived (may be empty)
     * @return the transfer's id
     */
    uint64_t StartTransfer(uint32_t src, uint32_t dst, uint64_t bytes, std::function<void()> done);

    /**
     * The max-min fair rates that transfers along these paths would get, alone together on the
     * fabric (no simulation: the steady state of progressive filling).
     * @param paths directed-link paths, as Path() gives them
     * @return bytes per second, one per path
     */
    std::vector<double> MaxMinRates(const std::vector<std::vector<uint32_t>>& paths) const;

    /// @return the smallest bandwidth along a path (bytes/s), its bottleneck
    double Bottleneck(const std::vector<uint32_t>& path) const;

    /// @return the sum of the latencies along a path
    Time Latency(const std::vector<uint32_t>& path) const;

    /**
     * How `nvidia-smi topo -m` would name the connection between two components: "X" (self),
     * "NV#" (a path over NVLink only, # the fewest bonded links along it), else along the path
     * that avoids NVLink: "SYS" (crosses the interconnect between NUMA nodes), "NODE" (crosses
     * between host bridges within a NUMA node), "PHB" (crosses a host bridge), "PXB" (more than
     * one PCIe switch), "PIX" (at most one PCIe switch).
     * @param a one component
     * @param b the other
     * @return the label
     */
    std::string TopologyLabel(uint32_t a, uint32_t b) const;

    /// @return the current rate of an active transfer, bytes per second (0 if not active)
    double GetRate(uint64_t transfer) const;
    /// @return the number of components
    uint32_t GetNComponents() const;
    /// @return a component's name
    const std::string& GetName(uint32_t component) const;
    /// @return a component's kind
    Kind GetKind(uint32_t component) const;
    /// @return the id of the component with this name (aborts if none)
    uint32_t Find(const std::string& name) const;

  protected:
    void DoDispose() override;

  private:
    /// A link between two components.
    struct Link
    {
        uint32_t a;      //!< one end
        uint32_t b;      //!< the other
        double capacity; //!< bytes/s per direction
        Time latency;    //!< one-way latency
        LinkKind kind;   //!< what it is
        uint32_t bonded; //!< physical links it stands for
    };

    /**
     * Fewest-hop path over the links a filter accepts.
     * @param src from
     * @param dst to
     * @param accept which links may be used
     * @return directed links; empty if none (or src == dst)
     */
    std::vector<uint32_t> FilteredPath(uint32_t src,
                                       uint32_t dst,
                                       const std::function<bool(const Link&)>& accept) const;

    /// An active transfer.
    struct Transfer
    {
        std::vector<uint32_t> path; //!< directed links
        double remaining;           //!< bytes still to send
        double rate;                //!< bytes/s
        Time latency;               //!< sum of the path's latencies
        std::function<void()> done; //!< completion
    };

    /// Account for the bytes moved since the last update.
    void Advance();
    /// Max-min fair rates by progressive filling; schedule the next completion.
    void Reallocate();
    /// The earliest transfer has sent its last byte.
    void Complete();

    std::vector<std::string> m_names;              //!< component names
    std::vector<Kind> m_kinds;                     //!< component kinds
    std::vector<Link> m_links;                     //!< links
    std::vector<std::vector<uint32_t>> m_adjacent; //!< component -> links
    std::map<uint64_t, Transfer> m_active;         //!< active transfers by id
    uint64_t m_nextId;                             //!< next transfer id
    Time m_lastUpdate;                             //!< time of the last Advance
    EventId m_nextCompletion;                      //!< the next completion
};

} // namespace ns3

#endif // INTRA_HOST_FABRIC_H
