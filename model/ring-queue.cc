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

/// @return the blocks of the rings of @p bytes' size class (RingClassBytes)
SlotPool&
RingSlots(std::size_t bytes)
{
    // A pool per class, made at its first ring, never destroyed (a ring may be emptied as the
    // program exits).
    static std::array<SlotPool*, 16> pools{};
    std::size_t index = 0;
    std::size_t size = 64;
    while (size < bytes)
    {
        size = RingClassBytes(size + 1);
        ++index;
    }
    if (pools[index] == nullptr)
    {
        pools[index] = new SlotPool(size, std::max<std::size_t>(2, RING_BLOCK_BYTES / size));
    }
    return *pools[index];
}

static_assert(RingClassBytes(RING_POOLED_BYTES) == RING_POOLED_BYTES, "the last class");

/// @return how many size classes there are, up to RING_POOLED_BYTES
constexpr std::size_t
RingClasses()
{
    std::size_t classes = 1;
    for (std::size_t size = 64; size < RING_POOLED_BYTES; size = RingClassBytes(size + 1))
    {
        ++classes;
    }
    return classes;
}

static_assert(RingClasses() <= 16, "a pool for each class (RingSlots)");

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
