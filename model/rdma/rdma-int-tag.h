/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_INT_TAG_H
#define RDMA_INT_TAG_H

#include "ns3/tag.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * @ingroup interconnect
 * One hop's in-band network telemetry, as HPCC uses it (Li et al., SIGCOMM 2019, section 4.1):
 * what the egress port looked like when the packet left it.
 */
struct RdmaIntHop
{
    uint64_t txBytes;  //!< bytes the egress port had sent, cumulative, when the packet left
    uint32_t qlen;     //!< bytes queued at the egress (the packet's priority) when it left
    int64_t timestamp; //!< when it left, in simulator time steps
    uint64_t rateBps;  //!< the egress port's line rate, bit/s (any rate, no table)
};

/**
 * @ingroup interconnect
 * @brief In-band network telemetry carried with a RoCEv2 data packet and echoed in its ACK.
 *
 * A NIC whose congestion control asks for INT attaches an empty tag to each data packet; every
 * switch with IntEnabled appends its egress hop; the receiving NIC copies the stack into the
 * ACK. The telemetry travels as ns-3 packet metadata: its bytes (about 8 per hop in HPCC's
 * encoding) are not on the modelled wire and do not appear in pcap captures.
 */
class RdmaIntTag : public Tag
{
  public:
    /// Most hops recorded (a 5-hop path: host-ToR-Agg-Core-Agg-ToR-host has 5 switch egresses).
    static constexpr uint32_t MAX_HOPS = 8;

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    RdmaIntTag();

    /**
     * Append a hop (ignored beyond MAX_HOPS).
     * @param hop the hop
     */
    void Push(const RdmaIntHop& hop);
    /// @return the number of hops recorded
    uint32_t GetNHops() const;
    /// Mark the stack as echoed in an ACK: switches no longer append to it.
    void SetEcho();
    /// @return true if the stack is an echo (carried by an ACK)
    bool IsEcho() const;
    /// @return hop i
    const RdmaIntHop& GetHop(uint32_t i) const;

    /**
     * Whether a packet of this process may carry the tag: one has been added to a packet (the
     * packet's tag list serializes it), or a packet came from another rank (NoteMayBeCarried).
     * A switch and a NIC read a packet's tag list only then: its pointer is on the packet's
     * second cache line, which nothing else of a switch's pass reads (at k=16, a miss on every
     * hop of a run without INT).
     * @return false while no packet can carry one
     */
    static bool MayBeCarried()
    {
        return s_mayBeCarried;
    }

    /// Packets from another rank have come: they may carry the tag.
    static void NoteMayBeCarried()
    {
        s_mayBeCarried = true;
    }

    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer i) const override;
    void Deserialize(TagBuffer i) override;
    void Print(std::ostream& os) const override;

  private:
    uint32_t m_nHops;                        //!< hops recorded
    bool m_echo;                             //!< carried back by an ACK: frozen
    std::array<RdmaIntHop, MAX_HOPS> m_hops; //!< the hops

    static bool s_mayBeCarried; //!< see MayBeCarried
};

} // namespace ns3

#endif // RDMA_INT_TAG_H
