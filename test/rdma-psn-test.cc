/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// 24-bit PSN arithmetic: wrap-around, signed distance limits and RFC 1982 serial-number order.

#include "ns3/rdma-psn.h"

#include <cstdint>
#include <gtest/gtest.h>

using namespace ns3::rdma;

// Usable in constant expressions.
static_assert(PsnAdd(0xFFFFFF, 1) == 0, "PsnAdd wraps");
static_assert(PsnDiff(0, 0xFFFFFF) == 1, "PsnDiff wraps");
static_assert(PsnLess(0xFFFFFF, 0), "PsnLess wraps");

TEST(RdmaPsn, AddWrapsAround)
{
    EXPECT_EQ(PsnAdd(0xFFFFFF, 1), 0u);
    EXPECT_EQ(PsnAdd(0xFFFFF0, 0x20), 0x10u);
    EXPECT_EQ(PsnAdd(0, 0xFFFFFF), 0xFFFFFFu);
    EXPECT_EQ(PsnAdd(5, 0x1000000), 5u); // a whole turn
    EXPECT_EQ(PsnAdd(0x123456, 0), 0x123456u);
    EXPECT_EQ(PsnAdd(0xFF000001, 1), 2u); // upper bits of the input are ignored
    EXPECT_EQ(PsnAdd(0xFFFFFF, 0xFFFFFFFF), 0xFFFFFEu);
}

TEST(RdmaPsn, DiffIsSignedOnTheCircle)
{
    EXPECT_EQ(PsnDiff(0, 0xFFFFFF), 1);
    EXPECT_EQ(PsnDiff(0xFFFFFF, 0), -1);
    EXPECT_EQ(PsnDiff(0x10, 0xFFFFF0), 0x20);
    EXPECT_EQ(PsnDiff(0xFFFFF0, 0x10), -0x20);
    EXPECT_EQ(PsnDiff(77, 77), 0);
    EXPECT_EQ(PsnDiff(100, 40), 60);
    EXPECT_EQ(PsnDiff(40, 100), -60);
}

TEST(RdmaPsn, DiffLimits)
{
    // The range is [-2^23, 2^23 - 1].
    EXPECT_EQ(PsnDiff(0x7FFFFF, 0), 0x7FFFFF);
    EXPECT_EQ(PsnDiff(0x800000, 0), -0x800000);
    EXPECT_EQ(PsnDiff(0, 0x800000), -0x800000);
    EXPECT_EQ(PsnDiff(0x800001, 0), -0x7FFFFF);
    EXPECT_EQ(PsnDiff(0, 0x7FFFFF), -0x7FFFFF);
    EXPECT_EQ(PsnDiff(0x7FFFFF, 0xFFFFFF), -0x800000);
    EXPECT_EQ(PsnDiff(0x7FFFFE, 0xFFFFFF), 0x7FFFFF);

    // PsnDiff inverts PsnAdd for every distance in the range, from bases around the wrap.
    for (uint32_t base : {0u, 1u, 0x7FFFFFu, 0x800000u, 0xFFFFFEu, 0xFFFFFFu})
    {
        for (int32_t d : {-0x800000, -0x7FFFFF, -1000, -1, 0, 1, 1000, 0x7FFFFE, 0x7FFFFF})
        {
            const uint32_t a = PsnAdd(base, static_cast<uint32_t>(d));
            EXPECT_EQ(PsnDiff(a, base), d) << "base " << base << " d " << d;
        }
    }
}

TEST(RdmaPsn, LessAcrossTheWrap)
{
    EXPECT_TRUE(PsnLess(0xFFFFFF, 0));
    EXPECT_FALSE(PsnLess(0, 0xFFFFFF));
    EXPECT_TRUE(PsnLess(0xFFFFF0, 0x10));
    EXPECT_FALSE(PsnLess(0x10, 0xFFFFF0));
    EXPECT_TRUE(PsnLess(1, 2));
    EXPECT_FALSE(PsnLess(2, 1));
    EXPECT_FALSE(PsnLess(42, 42));
    EXPECT_TRUE(PsnLessOrEqual(42, 42));
    EXPECT_TRUE(PsnLessOrEqual(0xFFFFFF, 0));
    EXPECT_FALSE(PsnLessOrEqual(0, 0xFFFFFF));

    // The farthest ordered pairs: 2^23 - 1 apart.
    EXPECT_TRUE(PsnLess(0, 0x7FFFFF));
    EXPECT_FALSE(PsnLess(0x7FFFFF, 0));
    EXPECT_TRUE(PsnLess(0x800001, 0));
    EXPECT_FALSE(PsnLess(0, 0x800001));

    // Exactly 2^23 apart the order is undefined (RFC 1982 3.2): neither is before the other.
    EXPECT_FALSE(PsnLess(0, 0x800000));
    EXPECT_FALSE(PsnLess(0x800000, 0));
    EXPECT_FALSE(PsnLess(0xC00000, 0x400000));
    EXPECT_FALSE(PsnLess(0x400000, 0xC00000));

    // Elsewhere PsnLess agrees with the sign of PsnDiff and is antisymmetric.
    for (uint32_t base : {0u, 0x400000u, 0xFFFFFFu})
    {
        for (int32_t d : {-0x7FFFFF, -3, -1, 1, 3, 0x7FFFFF})
        {
            const uint32_t a = PsnAdd(base, static_cast<uint32_t>(d));
            EXPECT_EQ(PsnLess(a, base), d < 0) << "base " << base << " d " << d;
            EXPECT_EQ(PsnLess(base, a), d > 0) << "base " << base << " d " << d;
        }
    }
}
