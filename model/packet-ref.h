/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef INTERCONNECT_PACKET_REF_H
#define INTERCONNECT_PACKET_REF_H

#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <new>

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
 * hands it over, uncounted, when the frame comes out (Release), or moves on with it (a frame
 * leaves its egress queue for its cable's frames in flight without its packet being read:
 * at fabric scale the packet has left the cache while it waited, Lend).
 *
 * The reference is held as a Ptr<Packet> object made without taking a count (Ptr(p, false)),
 * which Lend hands out as it is. A move gives the pointer to a new Ptr object made the same
 * way and puts an empty one in the old one's place, without the old one's destructor (whose
 * drop of the count is what moves on).
 */
class PacketRef
{
  public:
    PacketRef()
    {
        new (&m_ptr) Ptr<Packet>();
    }

    /// Take a reference. @param packet the packet (may be null)
    explicit PacketRef(const Ptr<Packet>& packet)
    {
        new (&m_ptr) Ptr<Packet>(packet);
    }

    /// Move: the reference changes hands. @param other the reference taken
    PacketRef(PacketRef&& other) noexcept
    {
        new (&m_ptr) Ptr<Packet>(other.Steal(), false);
    }

    /// Move: the references swap hands. @param other the reference taken @return this
    PacketRef& operator=(PacketRef&& other) noexcept
    {
        Packet* mine = Steal();
        new (&m_ptr) Ptr<Packet>(other.Steal(), false);
        new (&other.m_ptr) Ptr<Packet>(mine, false);
        return *this;
    }

    PacketRef(const PacketRef&) = delete;
    PacketRef& operator=(const PacketRef&) = delete;

    ~PacketRef()
    {
        // Most are empty (moved from, or Released as the frame left its queue): that test stays
        // inline, where the release's own code (the packet's deletion) had kept the whole
        // destructor out of line, a call for each of them (1.4 M on perm128).
        if (Packet* packet = PeekPointer(m_ptr))
        {
            Drop(packet);
        }
    }

    /// @return the packet, this reference kept
    Packet* operator->() const
    {
        return PeekPointer(m_ptr);
    }

    /// @return the packet, this reference kept (or null)
    const Packet* Peek() const
    {
        return PeekPointer(m_ptr);
    }

    /// @return a Ptr of its own to the packet (a second reference)
    Ptr<Packet> Share() const
    {
        return m_ptr;
    }

    /// @return the packet as a Ptr that holds this reference (this one is left empty)
    Ptr<Packet> Release()
    {
        return Ptr<Packet>(Steal(), false);
    }

    /**
     * @return the packet as a Ptr that this reference lends, no count taken: valid while this
     * PacketRef holds it, and to be copied (a count of its own) by whoever keeps it longer
     */
    const Ptr<Packet>& Lend() const
    {
        return m_ptr;
    }

  private:
    /// @return the packet, whose reference the caller takes over (this one is left empty)
    Packet* Steal()
    {
        Packet* packet = PeekPointer(m_ptr);
        new (&m_ptr) Ptr<Packet>(); // (in the old Ptr's place, its destructor not run)
        return packet;
    }

    /// Give up a reference. @param packet the packet
    [[gnu::noinline]] static void Drop(Packet* packet)
    {
        packet->Unref();
    }

    union {
        Ptr<Packet> m_ptr; //!< the packet, one reference held (made and replaced by hand)
    };
};

} // namespace ns3

#endif // INTERCONNECT_PACKET_REF_H
