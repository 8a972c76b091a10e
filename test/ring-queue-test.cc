/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RingQueue, the FIFO of ports, queue pairs and adapters: it must behave as the std::deque it
// replaced, in particular never overwrite its oldest element when full (a bare
// boost::circular_buffer does), and allocate nothing while it has never held anything; an
// emptied ring starts again at its first slot, or gives its room back if it had grown beyond a
// kilobyte; rings of up to 8 KB share blocks by size class, and one that fills again takes
// nothing from the heap. InlineRingQueue, the frames in flight on a cable: the same FIFO, its
// first elements inside the object.

#include "ns3/ptr.h"
#include "ns3/ring-queue.h"
#include "ns3/simple-ref-count.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <gtest/gtest.h>
#include <limits>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <memory>
#include <random>
#include <set>
#include <vector>

using namespace ns3;

namespace
{

TEST(RingQueue, BehavesAsADequeThroughGrowthAndWrapAround)
{
    RingQueue<int> ring;
    std::deque<int> reference;
    EXPECT_EQ(ring.capacity(), 0u);
    std::mt19937 rng(3);
    int next = 0;
    for (int step = 0; step < 20000; ++step)
    {
        const uint32_t op = rng() % 8;
        if (op < 3 || reference.empty())
        {
            ring.push_back(next);
            reference.push_back(next++);
        }
        else if (op == 3)
        {
            ring.push_front(next);
            reference.push_front(next++);
        }
        else if (op < 6)
        {
            ring.pop_front();
            reference.pop_front();
        }
        else if (op == 6)
        {
            ring.pop_back();
            reference.pop_back();
        }
        else
        {
            const std::size_t n = rng() % (reference.size() + 3);
            ring.resize(n, -1);
            reference.resize(n, -1);
        }
        ASSERT_EQ(ring.size(), reference.size()) << "step " << step;
        if (!reference.empty())
        {
            ASSERT_EQ(ring.front(), reference.front()) << "step " << step;
            ASSERT_EQ(ring.back(), reference.back()) << "step " << step;
            const std::size_t i = rng() % reference.size();
            ASSERT_EQ(ring[i], reference[i]) << "step " << step;
        }
    }
    const std::size_t drop = reference.size() / 2;
    ring.erase_begin(drop);
    reference.erase(reference.begin(), reference.begin() + drop);
    ASSERT_EQ(std::deque<int>(ring.begin(), ring.end()), reference);
}

/// Counts its live instances.
struct Counted : public SimpleRefCount<Counted>
{
    static int live; //!< instances alive

    Counted()
    {
        ++live;
    }

    ~Counted()
    {
        --live;
    }
};

int Counted::live = 0;

TEST(RingQueue, HoldsAndReleasesReferences)
{
    {
        RingQueue<Ptr<Counted>> ring;
        for (int i = 0; i < 100; ++i)
        {
            ring.push_back(Create<Counted>());
            if (i % 3 == 0)
            {
                ring.pop_front();
            }
        }
        EXPECT_EQ(Counted::live, static_cast<int>(ring.size()));
        ring.pop_front();
        EXPECT_EQ(Counted::live, static_cast<int>(ring.size()));
    }
    EXPECT_EQ(Counted::live, 0);
}

/**
 * Empty a ring one of the four ways that rewind it.
 * @tparam T its element
 * @param ring the ring
 * @param way 0: pop_front, 1: pop_back, 2: erase_begin, 3: clear
 */
template <typename T>
void
Empty(RingQueue<T>& ring, int way)
{
    if (way == 0)
    {
        while (!ring.empty())
        {
            ring.pop_front();
        }
    }
    else if (way == 1)
    {
        while (!ring.empty())
        {
            ring.pop_back();
        }
    }
    else if (way == 2)
    {
        ring.erase_begin(ring.size());
    }
    else
    {
        ring.clear();
    }
}

TEST(RingQueue, AnEmptiedRingStartsAgainAtItsFirstSlot)
{
    RingQueue<int> ring;
    for (int i = 0; i < 10; ++i)
    {
        ring.push_back(i);
    }
    const std::size_t capacity = ring.capacity();
    const int* first = ring.linearize();
    // Each way of emptying it: pop_front, pop_back, erase_begin, clear, after the front has
    // moved on.
    for (int way = 0; way < 4; ++way)
    {
        for (int i = 0; i < 7; ++i)
        {
            ring.pop_front();
            ring.push_back(i);
        }
        ASSERT_NE(&ring.front(), first) << "way " << way; // (the front has moved on)
        Empty(ring, way);
        ring.push_back(42);
        EXPECT_EQ(&ring.front(), first) << "way " << way;
        EXPECT_EQ(ring.capacity(), capacity) << "way " << way; // (nothing allocated)
        EXPECT_EQ(ring.front(), 42);
        for (int i = 1; i < 10; ++i)
        {
            ring.push_back(i);
        }
    }
}

// A ring that grew beyond a kilobyte (a port's queue in a burst) gives its room back when it is
// emptied, by any of the four ways, and goes on as a FIFO of its elements (move-only ones too);
// one that never grew that far keeps its room (the test above).
TEST(RingQueue, AnEmptiedRingThatGrewBeyondAKilobyteGivesItsRoomBack)
{
    RingQueue<std::unique_ptr<uint64_t>> ring;
    for (int way = 0; way < 4; ++way)
    {
        for (uint64_t i = 0; i < 300; ++i)
        {
            ring.push_back(std::make_unique<uint64_t>(i));
        }
        ASSERT_GT(ring.capacity() * sizeof(ring.front()), 1024u);
        for (uint64_t i = 0; i < 150; ++i)
        {
            ASSERT_EQ(*ring.front(), i);
            ring.pop_front();
        }
        EXPECT_GT(ring.capacity() * sizeof(ring.front()), 1024u) << "way " << way;
        Empty(ring, way);
        EXPECT_EQ(ring.capacity(), 0u) << "way " << way;
        ring.push_back(std::make_unique<uint64_t>(7));
        ring.push_back(std::make_unique<uint64_t>(8));
        EXPECT_EQ(*ring.front(), 7u);
        EXPECT_EQ(*ring.back(), 8u);
        ring.clear();
    }
}

// Small rings (up to 256 bytes) share blocks with each other, whatever the program allocates
// between them: a hundred rings of four 8-byte elements made 4 KB apart lie on a page or two
// (on a hundred from the heap).
TEST(RingQueue, SmallRingsLieSideBySide)
{
    std::vector<RingQueue<uint64_t>> rings(100);
    std::vector<std::unique_ptr<char[]>> between;
    std::set<uintptr_t> pages;
    for (auto& ring : rings)
    {
        between.emplace_back(new char[4096]);
        for (uint64_t i = 0; i < 4; ++i)
        {
            ring.push_back(i);
        }
        pages.insert(reinterpret_cast<uintptr_t>(&ring.front()) / 4096);
        EXPECT_EQ(reinterpret_cast<uintptr_t>(&ring.front()) % 64, 0u);
    }
    EXPECT_LE(pages.size(), 4u);
}

// A resize past what any ring can hold throws and leaves the ring as it was: the size class's
// rounding (RingClassBytes) must not see a wrapped-around byte count as a small ring and shrink
// it first.
TEST(RingQueue, AResizeBeyondAnyRingThrowsAndKeepsTheElements)
{
    RingQueue<uint64_t> ring;
    for (uint64_t i = 0; i < 10; ++i)
    {
        ring.push_back(i);
    }
    const std::size_t wraps = std::numeric_limits<std::size_t>::max() / sizeof(uint64_t) + 1;
    EXPECT_ANY_THROW(ring.resize(wraps));
    ASSERT_EQ(ring.size(), 10u);
    for (uint64_t i = 0; i < 10; ++i)
    {
        EXPECT_EQ(ring[i], i);
    }
}

// Rings of up to 8 KB share blocks with the rings of their size class too: twenty rings grown
// past 2 KB (to 3 KB, a class of five to a block) with 64 KB of the heap taken between each two
// lie side by side, but where a block ends (on the heap, every two are 64 KB apart).
TEST(RingQueue, RingsOfAFewKilobytesLieSideBySide)
{
    std::vector<RingQueue<uint64_t>> rings(20);
    std::vector<std::unique_ptr<char[]>> between;
    for (auto& ring : rings)
    {
        between.emplace_back(new char[65536]);
        while (ring.capacity() * sizeof(uint64_t) < 2048)
        {
            ring.push_back(ring.size());
        }
    }
    const std::size_t bytes = rings.front().capacity() * sizeof(uint64_t);
    ASSERT_LE(bytes, RING_POOLED_BYTES);
    int adjacent = 0;
    for (std::size_t i = 1; i < rings.size(); ++i)
    {
        ASSERT_EQ(rings[i].capacity() * sizeof(uint64_t), bytes);
        const auto a = reinterpret_cast<uintptr_t>(rings[i - 1].linearize());
        const auto b = reinterpret_cast<uintptr_t>(rings[i].linearize());
        adjacent += (b > a ? b - a : a - b) == bytes;
    }
    // (16 of the 19 pairs in blocks of five made for this test, or freed slots taken back in the
    // order of their addresses: ctest runs each test in a process of its own.)
    EXPECT_GE(adjacent, 15);
}

// A ring that fills and empties again and again, past a kilobyte each time (a port's queue
// through a run's bursts), grows each time with room that its size classes' blocks gave back,
// taking none from the heap (glibc's count of the heap in use does not move while it fills).
TEST(RingQueue, ARingThatFillsAgainTakesNothingFromTheHeap)
{
#if defined(__SANITIZE_ADDRESS__) || !defined(__GLIBC__)
    GTEST_SKIP() << "glibc's count of its heap (mallinfo2) does not see this build's allocator";
#else
    RingQueue<uint64_t> ring;
    const auto fillAndEmpty = [&ring]() {
        for (uint64_t i = 0; i < 700; ++i) // (5600 bytes: through the classes to 6 KB)
        {
            ring.push_back(i);
        }
        ring.clear();
    };
    fillAndEmpty(); // (the classes' blocks: made once)
    int64_t fromHeap = 0;
    for (int round = 0; round < 20; ++round)
    {
        const auto before = static_cast<int64_t>(mallinfo2().uordblks);
        for (uint64_t i = 0; i < 700; ++i)
        {
            ring.push_back(i);
        }
        fromHeap = std::max(fromHeap, static_cast<int64_t>(mallinfo2().uordblks) - before);
        ring.clear();
    }
    EXPECT_EQ(fromHeap, 0);
#endif
}

TEST(InlineRingQueue, BehavesAsADequeAcrossItsSlotsAndOverflow)
{
    InlineRingQueue<int, 4> queue;
    std::deque<int> reference;
    std::mt19937 rng(5);
    int next = 0;
    for (int step = 0; step < 20000; ++step)
    {
        // Runs of pushes and pops, so that it goes from empty to far past its four slots.
        const bool pushing = (step / 50) % 2 == 0;
        const bool push = reference.empty() || (pushing ? rng() % 4 != 0 : rng() % 4 == 0);
        if (push)
        {
            int value = next++;
            queue.push_back(std::move(value));
            reference.push_back(value);
        }
        else
        {
            queue.pop_front();
            reference.pop_front();
        }
        ASSERT_EQ(queue.size(), reference.size()) << "step " << step;
        ASSERT_EQ(queue.empty(), reference.empty()) << "step " << step;
        if (!reference.empty())
        {
            ASSERT_EQ(queue.front(), reference.front()) << "step " << step;
            // The oldest is always in the object itself.
            const auto* front = reinterpret_cast<const char*>(&queue.front());
            const auto* object = reinterpret_cast<const char*>(&queue);
            ASSERT_TRUE(front >= object && front < object + sizeof(queue)) << "step " << step;
        }
    }
}

TEST(InlineRingQueue, HoldsAndReleasesReferences)
{
    {
        InlineRingQueue<Ptr<Counted>, 2> queue;
        for (int i = 0; i < 10; ++i)
        {
            queue.push_back(Create<Counted>());
        }
        EXPECT_EQ(Counted::live, 10);
        for (int i = 0; i < 9; ++i)
        {
            queue.pop_front(); // (a popped slot keeps no reference)
            EXPECT_EQ(Counted::live, static_cast<int>(queue.size()));
        }
        queue.clear();
        EXPECT_EQ(Counted::live, 0);
        queue.push_back(Create<Counted>());
        queue.push_back(Create<Counted>());
        queue.push_back(Create<Counted>());
    }
    EXPECT_EQ(Counted::live, 0);
}

} // namespace
