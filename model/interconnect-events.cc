/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "interconnect-events.h"

#include "ns3/slot-pool.h"

namespace ns3
{

namespace
{

/// A class that a ReusableEvent may run a method of (for the size of its event object).
struct Example
{
    /// A method.
    void Run()
    {
    }
};

} // namespace

SlotPool&
ReusableEvent::Slots()
{
    static SlotPool& slots = *new SlotPool(OBJECT_SLOT, 1024); // 64 KB a block, never destroyed
    return slots;
}

void*
ReusableEvent::AllocateObject(std::size_t size)
{
    static_assert(sizeof(Member<Example, &Example::Run>) <= OBJECT_SLOT,
                  "an event object fits its slot: one cache line");
    return Slots().Allocate(size);
}

void
ReusableEvent::FreeObject(void* object, std::size_t size)
{
    Slots().Free(object, size);
}

} // namespace ns3
