/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ring-queue.h"

#include "ns3/slot-pool.h"

#include <algorithm>
#include <array>

namespace ns3
{

namespace
{

/// Bytes of a block of a size class's rings, at most (and at least two slots).
constexpr std::size_t RING_BLOCK_BYTES = 16384;

/// @return the index of @p bytes' size class: 0 for 64 bytes, 1 for 128, 2 for 192, ...
constexpr std::size_t
RingClassIndex(std::size_t bytes)
{
    std::size_t index = 0;
    for (std::size_t size = 64; size < bytes; size = RingClassBytes(size + 1))
    {
        ++index;
    }
    return index;
}

/// The most size classes RingSlots has pools for.
constexpr std::size_t RING_CLASSES = 16;

static_assert(RingClassBytes(RING_POOLED_BYTES) == RING_POOLED_BYTES, "the last class");
static_assert(RingClassIndex(RING_POOLED_BYTES) < RING_CLASSES, "a pool for each class");

/// @return the blocks of the rings of @p bytes' size class (RingClassBytes)
SlotPool&
RingSlots(std::size_t bytes)
{
    // A pool per class, made at its first ring, never destroyed (a ring may be emptied as the
    // program exits).
    static std::array<SlotPool*, RING_CLASSES> pools{};
    SlotPool*& pool = pools[RingClassIndex(bytes)];
    if (pool == nullptr)
    {
        const std::size_t size = RingClassBytes(bytes);
        pool = new SlotPool(size, std::max<std::size_t>(2, RING_BLOCK_BYTES / size));
    }
    return *pool;
}

} // namespace

void*
AllocateRing(std::size_t bytes)
{
    if (bytes > RING_POOLED_BYTES)
    {
        return ::operator new(bytes);
    }
    return RingSlots(bytes).Allocate(bytes);
}

void
FreeRing(void* ring, std::size_t bytes)
{
    if (bytes > RING_POOLED_BYTES)
    {
        ::operator delete(ring);
        return;
    }
    RingSlots(bytes).Free(ring, bytes);
}

} // namespace ns3
