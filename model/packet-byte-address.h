/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef INTERCONNECT_PACKET_BYTE_ADDRESS_H
#define INTERCONNECT_PACKET_BYTE_ADDRESS_H

#include "ns3/packet.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup interconnect
 * Where a packet keeps its first byte: the start of its headers in its buffer's data block
 * (ns-3's Buffer, "Real byte buffer" part), so that the code about to read the headers can
 * fetch their lines ahead, and read them there (PacketStoredRun).
 *
 * A NIC reads a frame's headers where the sending NIC wrote them, microseconds and thousands of
 * events before: at fabric scale the block has left the cache, and nothing else reaches it, as
 * ns-3's Packet gives no address of its bytes (CopyData copies them). ArrivalQueue fetches them
 * for the next frame as one arrives (Item::FetchBytes), once that frame's Packet, fetched first,
 * is in.
 *
 * The bytes there are the packet's, as Packet::CopyData would copy them, for as many as
 * PacketStoredRun counts (a packet of virtual, zero-filled payload stores its headers and, right
 * after them, its trailers; the address is valid but may hold nothing of the packet's if it
 * stores no byte): read no more than that. Reads Packet's and Buffer's private members (m_buffer;
 * m_data, m_start), which ns-3 has kept since its first releases and through ns-3.48.
 * @param packet the packet
 * @return the address of its first stored byte
 */
const uint8_t* PacketBytesAddress(const Packet& packet);

/**
 * @ingroup interconnect
 * How many of a packet's first bytes its buffer stores in a row from PacketBytesAddress: up to its
 * virtual zero-filled area (ns-3's Buffer keeps no bytes for that, and stores what follows it, a
 * trailer, right after the bytes before it, where CopyData gives the zeros), or all of them if it
 * has none. Those bytes may be read in place, as Packet::CopyData would copy them, for as long as
 * the packet keeps its buffer unchanged. A NIC reads a frame's headers so (RdmaNic::PortReceive),
 * where the packet stores them: ns-3's CopyData took some 120 instructions a frame, a call into its
 * library that copies. Reads Buffer's private members (m_start, m_zeroAreaStart, m_zeroAreaEnd,
 * m_end: its invariant m_start <= m_zeroAreaStart <= m_zeroAreaEnd <= m_end), kept from ns-3's
 * first releases through ns-3.48.
 * @param packet the packet
 * @return the count, at most its size
 */
uint32_t PacketStoredRun(const Packet& packet);

/**
 * @ingroup interconnect
 * Fetch the lines of a packet's first stored bytes (PacketBytesAddress): the line of the first
 * and the line of the last, so that they are at most 65. Always inlined: GCC deletes a call whose
 * only effect is a prefetch.
 * @tparam BYTES how many, 1 to 65
 * @param packet the packet, or null (nothing is fetched)
 */
template <uint32_t BYTES>
__attribute__((always_inline)) inline void
FetchFirstBytes(const Packet* packet)
{
    static_assert(BYTES >= 1 && BYTES <= 65, "the first and the last byte's lines: 65 at most");
    if (packet != nullptr)
    {
        const uint8_t* first = PacketBytesAddress(*packet);
        __builtin_prefetch(first);
        __builtin_prefetch(first + BYTES - 1);
    }
}

} // namespace ns3

#endif // INTERCONNECT_PACKET_BYTE_ADDRESS_H
