/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RingQueue, the FIFO of ports, queue pairs and adapters: it must behave as the std::deque it
// replaced, in particular never overwrite its oldest element when full (a bare
// boost::circular_buffer does), and allocate nothing while it has never held anything.

#include "ns3/ptr.h"
#include "ns3/ring-queue.h"
#include "ns3/simple-ref-count.h"

#include <deque>
#include <gtest/gtest.h>
#include <random>

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

} // namespace
