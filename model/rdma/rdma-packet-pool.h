/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_PACKET_POOL_H
#define RDMA_PACKET_POOL_H

#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <array>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief The packets of frames that NICs have received, kept for the frames they build next.
 *
 * A NIC builds every transport frame on a packet of virtual, zero-filled payload
 * (RdmaChannelAdapter::NewTransportPacket) and the receiving NIC drops it once it has read the
 * headers. Making and freeing that ns-3 Packet, with its buffer's data block and its metadata's
 * block (made even when metadata is off), was a seventh of a fat-tree's instructions. A NIC that
 * holds the last reference to a frame whose headers it has removed gives the packet here, and the
 * next frame of that many payload bytes, at any NIC of the process, is built on it: its headers
 * go where the old ones were, without a new block.
 *
 * A packet given must be what a new one would be once its tags are gone (Give removes them):
 * zero bytes, no Nix-vector, no metadata, so that the frames built on it and their records are the
 * same byte for byte. RdmaNic gives only the payloads of RoCE transport frames, with packet
 * metadata off: what every RdmaChannelAdapter builds, bytes that ns-3 does not store (Packet's
 * "zero area"), then the ICRC, 0 unless a NIC stamped it. Once frames may end in a stamped ICRC
 * (NoteStampedTails: a NIC of this process stamps, or frames come from another rank, whose NICs
 * may), RdmaNic reads each payload's ICRC and gives only those that are 0. (Whether a packet
 * stores bytes shows through Packet's interface only in its serialized size, which costs a third
 * of what the reuse saves; it is not checked.)
 * InfiniBand ports give their received flow-control packets once emptied of their header (no
 * bytes, and no metadata item left even with metadata on) for the next ones
 * (IbNetDevice::ReusePackets). A packet's uid then names one frame at a time: from its
 * send to its receipt, not for the whole run (the ReusePackets attributes turn this off). The pool
 * empties itself at Simulator::Destroy.
 */
class RdmaPacketPool
{
  public:
    /**
     * @param size bytes of zero-filled payload
     * @return a packet of exactly that, without tags, or null when none is kept (the caller
     *         then makes one: counted as made, for that size's bound, if the size has a class)
     */
    static Ptr<Packet> Take(uint32_t size)
    {
        for (auto& c : s_classes)
        {
            if (c.size == size)
            {
                if (c.packets.empty())
                {
                    if (c.used != 0) // (a class a Give has claimed: not a fresh pool's size 0)
                    {
                        ++c.made;
                        c.used = ++s_clock; // (in use, though none is kept now)
                    }
                    return nullptr;
                }
                Packet* p = c.packets.back();
                c.packets.pop_back();
                c.used = ++s_clock;
                ++s_taken;
                return Ptr<Packet>(p, false); // (the pool's reference, handed over)
            }
        }
        return nullptr;
    }

    /**
     * Keep a packet for a frame to come, without its tags, unless it has a Nix-vector, something
     * else holds it, or its size's class is full. A size without a class takes one not yet
     * claimed, or else the one used least recently (given to, or taken from, or found empty by
     * Take), whose packets are let go: sizes that come once (a message's last packet) do not
     * keep the sizes of every frame out, nor take the class of a size whose packets are all in
     * flight.
     * @param packet zero bytes, the payload left of a frame
     * @return whether it was kept
     */
    static bool Give(const Ptr<Packet>& packet);

    /// Frames may end in a stamped ICRC from now until Clear (RdmaNic then reads each one's).
    static void NoteStampedTails()
    {
        if (!s_stampedTails)
        {
            s_stampedTails = true;
            ClearAtDestroy(); // (also when nothing is kept yet: the next run starts anew)
        }
    }

    /// @return whether NoteStampedTails was called since Clear
    static bool MayHaveStampedTails()
    {
        return s_stampedTails;
    }

    /// Frames come from other ranks from now until Clear: a size then keeps CAPACITY packets,
    /// not as many as this process made of it (what it made it may have sent away, and what it
    /// is given it may not have made). Called by the remote channels as frames come in.
    static void NoteOtherRanks()
    {
        if (!s_otherRanks)
        {
            s_otherRanks = true;
            ClearAtDestroy();
        }
    }

    /// Drop every packet kept (at Simulator::Destroy, and for tests).
    static void Clear();

    /// @return packets kept now
    static std::size_t GetSize();

    /// @return packets taken for new frames since the process started
    static uint64_t GetTaken()
    {
        return s_taken;
    }

    /// Payload sizes kept at once: RoCE's data packets, ACKs and CNPs, InfiniBand's flow control.
    static constexpr std::size_t CLASSES = 4;
    /// Packets a size keeps even if this process made none of them (some 1.5 MB of them).
    static constexpr std::size_t CAPACITY = 4096;
    /**
     * Packets kept per size at most: 2^18, more than a k=16 fat-tree's permutation has in flight
     * at its peak (some 146 000). Beyond CAPACITY a size keeps as many as Take found none kept
     * since the size took its class (each time, its caller made one): the frames of a burst are
     * taken again for the next one, not freed. With 4 096 at most, perm1024 freed some 100 000
     * packets after its first burst, and glibc merged their blocks (malloc_consolidate, 4.5 ns a
     * packet-hop of its 395) before making them again (doc/performance-log.rst, the round of
     * 2026-12-06, 15:20 UTC). Within one process a packet is made only when none is kept, so
     * that the pool never holds more than were made; the frames a size makes before its first
     * is given back are not counted. Once frames come from other ranks (NoteOtherRanks), where
     * what a process makes it may send away and what it is given it may not have made, a size
     * keeps CAPACITY, as before; so does a size that a NIC receives from a peer that makes each
     * frame anew (ReusePackets off), which Take never finds empty.
     */
    static constexpr std::size_t MAX_CAPACITY = std::size_t{1} << 18;

  private:
    /// Have Simulator::Destroy call Clear, once.
    static void ClearAtDestroy();

    /// Packets of one payload size.
    struct SizeClass
    {
        uint32_t size{0};             //!< their payload bytes
        uint64_t used{0};             //!< s_clock when last given to or taken from
        uint64_t made{0};             //!< times Take found none kept (the caller made one)
        std::vector<Packet*> packets; //!< each with one reference, the pool's
    };

    static std::array<SizeClass, CLASSES> s_classes; //!< the kept packets
    static bool s_clearScheduled;                    //!< Clear is due at Simulator::Destroy
    static bool s_stampedTails;                      //!< see NoteStampedTails
    static bool s_otherRanks;                        //!< see NoteOtherRanks
    static uint64_t s_clock;                         //!< gives and takes so far
    static uint64_t s_taken;                         //!< see GetTaken
};

} // namespace ns3

#endif // RDMA_PACKET_POOL_H
