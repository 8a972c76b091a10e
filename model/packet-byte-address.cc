/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "packet-byte-address.h"

#include "ns3/buffer.h"

namespace ns3
{

namespace
{

/**
 * A private member of ns-3's classes, by a member pointer that an explicit instantiation names
 * (C++ checks no access in an explicit instantiation's arguments, [temp.explicit]): the friend
 * function Member(TAG) returns it. One TAG per member; defined once, here.
 * @tparam TAG the member's tag
 * @tparam MEMBER the member pointer
 */
template <typename TAG, auto MEMBER>
struct Expose
{
    /// @return the member pointer
    friend constexpr auto Member(TAG)
    {
        return MEMBER;
    }
};

struct PacketBuffer // Packet::m_buffer
{
    friend constexpr auto Member(PacketBuffer);
};

struct BufferData // Buffer::m_data (its data block; Buffer::Data, whose m_data holds the bytes)
{
    friend constexpr auto Member(BufferData);
};

struct BufferStart // Buffer::m_start (the first byte's offset in the block's m_data)
{
    friend constexpr auto Member(BufferStart);
};

struct BufferZeroStart // Buffer::m_zeroAreaStart
{
    friend constexpr auto Member(BufferZeroStart);
};

struct BufferZeroEnd // Buffer::m_zeroAreaEnd
{
    friend constexpr auto Member(BufferZeroEnd);
};

struct BufferEnd // Buffer::m_end
{
    friend constexpr auto Member(BufferEnd);
};

template struct Expose<PacketBuffer, &Packet::m_buffer>;
template struct Expose<BufferZeroStart, &Buffer::m_zeroAreaStart>;
template struct Expose<BufferZeroEnd, &Buffer::m_zeroAreaEnd>;
template struct Expose<BufferEnd, &Buffer::m_end>;
template struct Expose<BufferData, &Buffer::m_data>;
template struct Expose<BufferStart, &Buffer::m_start>;

} // namespace

const uint8_t*
PacketBytesAddress(const Packet& packet)
{
    const Buffer& buffer = packet.*Member(PacketBuffer{});
    const auto* block = buffer.*Member(BufferData{}); // (a Buffer::Data, not named: private)
    return block->m_data + buffer.*Member(BufferStart{});
}

uint32_t
PacketStoredRun(const Packet& packet)
{
    const Buffer& buffer = packet.*Member(PacketBuffer{});
    const uint32_t start = buffer.*Member(BufferStart{});
    const uint32_t zeroStart = buffer.*Member(BufferZeroStart{});
    const uint32_t zeroEnd = buffer.*Member(BufferZeroEnd{});
    return (zeroStart == zeroEnd ? buffer.*Member(BufferEnd{}) : zeroStart) - start;
}

} // namespace ns3
