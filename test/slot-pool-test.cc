/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// SlotPool, the room of the objects a packet-hop reads (events' objects, ports): slots of whole
// cache lines side by side in blocks of their own, whatever else the program allocates between
// them; a freed slot is the next one given; an object larger than a slot gets room of its own.
// And the ports, made from a pool of their own (SlotPooled).

#include "ns3/pfc-net-device.h"
#include "ns3/simulator.h"
#include "ns3/slot-pool.h"

#include <cstddef>
#include <cstdint>
#include <gtest/gtest.h>
#include <memory>
#include <set>
#include <vector>

using namespace ns3;

namespace
{

/// @return the 4 KB page of @p object
uintptr_t
Page(const void* object)
{
    return reinterpret_cast<uintptr_t>(object) / 4096;
}

TEST(SlotPool, SlotsLieSideBySideWhateverIsAllocatedBetweenThem)
{
    SlotPool pool(192, 16);
    std::vector<void*> slots;
    std::vector<std::unique_ptr<char[]>> between;
    for (int i = 0; i < 48; ++i)
    {
        between.emplace_back(new char[4096]);
        slots.push_back(pool.Allocate(150));
        EXPECT_EQ(reinterpret_cast<uintptr_t>(slots.back()) % 64, 0u) << "slot " << i;
    }
    // Within a block, each slot follows the one before it.
    for (int i = 1; i < 48; ++i)
    {
        if (i % 16 != 0)
        {
            EXPECT_EQ(static_cast<char*>(slots[i]) - static_cast<char*>(slots[i - 1]), 192)
                << "slot " << i;
        }
    }
    std::set<uintptr_t> pages;
    for (void* slot : slots)
    {
        pages.insert(Page(slot));
    }
    // 48 slots of 192 bytes are 9 KB: three blocks of 3 KB, on at most two pages each.
    EXPECT_LE(pages.size(), 6u);
    for (void* slot : slots)
    {
        pool.Free(slot, 150);
    }
}

TEST(SlotPool, AFreedSlotIsTheNextOneGiven)
{
    SlotPool pool(64, 4);
    void* a = pool.Allocate(64);
    void* b = pool.Allocate(8);
    pool.Free(a, 64);
    EXPECT_EQ(pool.Allocate(64), a);
    pool.Free(b, 8);
    pool.Free(a, 64);
    EXPECT_EQ(pool.Allocate(1), a);
    EXPECT_EQ(pool.Allocate(1), b);
    pool.Free(a, 1);
    pool.Free(b, 1);
}

TEST(SlotPool, AnObjectLargerThanASlotGetsRoomOfItsOwn)
{
    SlotPool pool(128, 8);
    void* slot = pool.Allocate(128);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(slot) % 128, 0u); // (a block aligned on its slot)
    void* large = pool.Allocate(129);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(large) % 64, 0u);
    // Not a slot: the block's slots follow the first one, and the next slot is given as if the
    // large object had not been made.
    void* next = pool.Allocate(128);
    EXPECT_EQ(static_cast<char*>(next) - static_cast<char*>(slot), 128);
    EXPECT_NE(large, next);
    pool.Free(large, 129);
    pool.Free(next, 128);
    pool.Free(slot, 128);
}

TEST(SlotPool, EachSlotIsAlignedOnTheLargestPowerOfTwoThatDividesIt)
{
    // 384 bytes: every slot on 128, though the size is no power of two (three 128-byte pairs
    // of lines, as a core's adjacent-line prefetcher fetches them). Eight pools, so that blocks
    // that the heap happens to give on 128 do not hide one aligned on 64 only.
    for (int p = 0; p < 8; ++p)
    {
        SlotPool pool(384, 3);
        std::vector<void*> slots;
        for (int i = 0; i < 7; ++i) // (three blocks)
        {
            slots.push_back(pool.Allocate(300));
            EXPECT_EQ(reinterpret_cast<uintptr_t>(slots.back()) % 128, 0u) << p << ", slot " << i;
        }
        void* large = pool.Allocate(500); // (beyond a slot: from the heap, aligned the same)
        EXPECT_EQ(reinterpret_cast<uintptr_t>(large) % 128, 0u) << p;
        pool.Free(large, 500);
        for (void* slot : slots)
        {
            pool.Free(slot, 300);
        }
    }
}

TEST(SlotPoolDeathTest, RefusesSlotsThatAreNotWholeCacheLines)
{
    EXPECT_DEATH(SlotPool(100, 8), "slots of whole cache lines.*slot 100 bytes, 8 a block");
    EXPECT_DEATH(SlotPool(128, 0), "slot 128 bytes, 0 a block");
}

/**
 * Make @p count objects of a pooled class, each after 8 KB of other objects (its node's, say),
 * and count the ones that are not next to the one made before them in memory.
 * @tparam T the class
 * @param count how many
 * @return the objects not next to their predecessor (at most one a block, the first)
 */
template <typename T>
int
ObjectsNotSideBySide(int count)
{
    const std::size_t align = alignof(T) > 64 ? alignof(T) : 64;
    const auto slot = static_cast<std::ptrdiff_t>((sizeof(T) + align - 1) / align * align);
    std::vector<Ptr<T>> objects;
    std::vector<std::unique_ptr<char[]>> between;
    int apart = 0;
    for (int i = 0; i < count; ++i)
    {
        between.emplace_back(new char[8192]);
        objects.push_back(CreateObject<T>());
        EXPECT_EQ(reinterpret_cast<uintptr_t>(PeekPointer(objects.back())) % alignof(T), 0u);
        EXPECT_EQ(reinterpret_cast<uintptr_t>(PeekPointer(objects.back())) % 64, 0u);
        if (i == 0)
        {
            continue;
        }
        // (Either way: slots freed in address order are given again the other way round.)
        const std::ptrdiff_t step = reinterpret_cast<const char*>(PeekPointer(objects[i])) -
                                    reinterpret_cast<const char*>(PeekPointer(objects[i - 1]));
        if (step != slot && step != -slot)
        {
            ++apart;
        }
    }
    // An object's room is given to the next one made once it is gone.
    const T* last = PeekPointer(objects.back());
    objects.back()->Dispose();
    objects.pop_back();
    Ptr<T> again = CreateObject<T>();
    EXPECT_EQ(PeekPointer(again), last);
    objects.push_back(again);
    for (const auto& object : objects)
    {
        object->Dispose();
    }
    Simulator::Destroy();
    return apart;
}

// A fabric's ports lie side by side, whatever their nodes' other objects made between them: at
// most one in a block of 32 starts a block of its own (from the heap, 8 KB apart).
TEST(SlotPooled, PortsLieSideBySide)
{
    EXPECT_LE(ObjectsNotSideBySide<PfcNetDevice>(100), 4);
}

// A port starts on a pair of lines (128 bytes), so that its fields fall at the same places in
// the pairs the hardware fetches for every port (on ns-3.37 none of the four frames in flight it
// keeps straddles two pairs).
TEST(SlotPooled, APortStartsOnAPairOfLines)
{
    EXPECT_EQ(alignof(PfcNetDevice) % 128, 0u);
    std::vector<Ptr<PfcNetDevice>> ports;
    for (int i = 0; i < 40; ++i)
    {
        ports.push_back(CreateObject<PfcNetDevice>());
        EXPECT_EQ(reinterpret_cast<uintptr_t>(PeekPointer(ports.back())) % 128, 0u) << i;
    }
    for (const auto& port : ports)
    {
        port->Dispose();
    }
    Simulator::Destroy();
}

} // namespace
