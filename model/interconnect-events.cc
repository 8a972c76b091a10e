/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "interconnect-events.h"

#include <new>

namespace ns3
{

namespace
{

/// A free slot: the next one, in its first bytes.
struct FreeSlot
{
    FreeSlot* next; //!< the next free slot, or null
};

/// Slots in a block (64 KB of them).
constexpr std::size_t SLOTS_PER_BLOCK = 512;

FreeSlot* g_freeSlots = nullptr; //!< the free slots, last freed first

/// A class that a ReusableEvent may run a method of (for the size of its event object).
struct Example
{
    /// A method.
    void Run()
    {
    }
};

} // namespace

void*
ReusableEvent::AllocateObject(std::size_t size)
{
    static_assert(sizeof(Member<Example>) <= OBJECT_SLOT, "an event object fits its slot");
    static_assert(OBJECT_SLOT % 64 == 0 && OBJECT_SLOT >= sizeof(FreeSlot), "slots of lines");
    if (size > OBJECT_SLOT)
    {
        return ::operator new(size);
    }
    if (g_freeSlots == nullptr)
    {
        // A new block, its slots in the list in address order (blocks are kept for the
        // process: events are made as a network is, and a network's next run reuses them).
        auto* block = static_cast<char*>(
            ::operator new(SLOTS_PER_BLOCK* OBJECT_SLOT, std::align_val_t(OBJECT_SLOT)));
        for (std::size_t i = SLOTS_PER_BLOCK; i-- > 0;)
        {
            auto* slot = reinterpret_cast<FreeSlot*>(block + i * OBJECT_SLOT);
            slot->next = g_freeSlots;
            g_freeSlots = slot;
        }
    }
    FreeSlot* slot = g_freeSlots;
    g_freeSlots = slot->next;
    return slot;
}

void
ReusableEvent::FreeObject(void* object, std::size_t size)
{
    if (size > OBJECT_SLOT)
    {
        ::operator delete(object);
        return;
    }
    auto* slot = static_cast<FreeSlot*>(object);
    slot->next = g_freeSlots;
    g_freeSlots = slot;
}

} // namespace ns3
