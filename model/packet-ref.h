/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef INTERCONNECT_PACKET_REF_H
#define INTERCONNECT_PACKET_REF_H

#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <utility>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief One reference to a packet that moves without touching the packet's count.
 *
 * ns-3's Ptr has no move constructor up to ns-3.38, so every frame that passes through a
 * queue (pushed, popped, handed on) took a reference and dropped one several times per hop, on
 * the packet's cache line: two of the largest entries of a fat-tree's profile. The ports'
 * queues hold a PacketRef instead: it takes the reference once when the frame goes in and
 * hands it over, uncounted, when the frame comes out (Release).
 */
class PacketRef
{
  public:
    PacketRef() = default;

    /// Take a reference. @param packet the packet (may be null)
    explicit PacketRef(const Ptr<Packet>& packet)
        : m_packet(PeekPointer(packet))
    {
        if (m_packet)
        {
            m_packet->Ref();
        }
    }

    /// Move: the reference changes hands. @param other the reference taken
    PacketRef(PacketRef&& other) noexcept
        : m_packet(std::exchange(other.m_packet, nullptr))
    {
    }

    /// Move: the references swap hands. @param other the reference taken @return this
    PacketRef& operator=(PacketRef&& other) noexcept
    {
        std::swap(m_packet, other.m_packet);
        return *this;
    }

    PacketRef(const PacketRef&) = delete;
    PacketRef& operator=(const PacketRef&) = delete;

    ~PacketRef()
    {
        // Most are empty (moved from, or Released as the frame left its queue): that test stays
        // inline, where the release's own code (the packet's deletion) had kept the whole
        // destructor out of line, a call for each of them (1.4 M on perm128).
        if (m_packet)
        {
            Drop(m_packet);
        }
    }

    /// @return the packet, this reference kept
    Packet* operator->() const
    {
        return m_packet;
    }

    /// @return the packet, this reference kept (or null)
    const Packet* Peek() const
    {
        return m_packet;
    }

    /// @return a Ptr of its own to the packet (a second reference)
    Ptr<Packet> Share() const
    {
        return Ptr<Packet>(m_packet);
    }

    /// @return the packet as a Ptr that holds this reference (this one is left empty)
    Ptr<Packet> Release()
    {
        return Ptr<Packet>(std::exchange(m_packet, nullptr), false);
    }

  private:
    /// Give up a reference. @param packet the packet
    [[gnu::noinline]] static void Drop(Packet* packet)
    {
        packet->Unref();
    }

    Packet* m_packet{nullptr}; //!< the packet, one reference held
};

} // namespace ns3

#endif // INTERCONNECT_PACKET_REF_H
