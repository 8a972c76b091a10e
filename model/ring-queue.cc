/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ring-queue.h"

#include "ns3/slot-pool.h"

namespace ns3
{

namespace
{

/// @return the blocks of the rings of up to @p bytes (64, 128 or 256)
SlotPool&
RingSlots(std::size_t bytes)
{
    // (16 KB a block; never destroyed, as a ring may be emptied as the program exits.)
    static SlotPool& slots64 = *new SlotPool(64, 256);
    static SlotPool& slots128 = *new SlotPool(128, 128);
    static SlotPool& slots256 = *new SlotPool(256, 64);
    static_assert(RING_POOLED_BYTES == 256, "a size class for each size up to it");
    return bytes <= 64 ? slots64 : bytes <= 128 ? slots128 : slots256;
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
