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
        MEMORY
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
    };

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
