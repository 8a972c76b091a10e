/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Serialization without drift: WireClock's arithmetic.

#include "ns3/core-module.h"
#include "ns3/wire-clock.h"

#include <cstdint>
#include <gtest/gtest.h>

using namespace ns3;

TEST(WireClock, BackToBackFramesEndAtTheExactTimeRounded)
{
    // 1106-byte frames (1024 bytes of payload in RoCEv2) at 100, 200, 400, 800 Gb/s: the k-th
    // ends at k x 8848 / rate ns rounded to the nearest ns (halves up), for every k.
    for (const uint64_t gbps : {100, 200, 400, 800})
    {
        WireClock clock(DataRate(gbps * 1000000000));
        int64_t end = 0;
        bool exact = true;
        for (uint64_t k = 1; k <= 16384 && exact; ++k)
        {
            end = clock.Send(end, 1106);
            const int64_t expected = static_cast<int64_t>((2 * k * 8848 + gbps) / (2 * gbps));
            exact = end == expected;
            EXPECT_EQ(end, expected) << gbps << " Gb/s, frame " << k;
        }
        EXPECT_EQ(clock.GetTxTime(1106), NanoSeconds((2 * 8848 + gbps) / (2 * gbps)));
    }
}

TEST(WireClock, RoundingDownNeverEndsAFrameLate)
{
    WireClock clock(DataRate("400Gbps"), WireClock::DOWN);
    int64_t end = 0;
    for (uint64_t k = 1; k <= 1000; ++k)
    {
        end = clock.Send(end, 338); // 2704 bits: 6.76 ns
        EXPECT_EQ(end, static_cast<int64_t>(k * 2704 / 400)) << k;
    }
    EXPECT_EQ(clock.GetTxTime(338), NanoSeconds(6));
}

TEST(WireClock, AnIdleWireStartsAfresh)
{
    WireClock clock(DataRate("100Gbps"));
    EXPECT_EQ(clock.Send(0, 1106), 88);   // 88.48
    EXPECT_EQ(clock.Send(88, 1106), 177); // 176.96
    // Idle from 177 to 1000: the next frame takes its own 88.48 ns rounded, as if alone.
    EXPECT_EQ(clock.Send(1000, 1106), 1088);
    EXPECT_EQ(clock.Send(1088, 1106), 1177);
    // A new rate starts afresh too.
    clock.SetRate(DataRate("400Gbps"));
    EXPECT_EQ(clock.Send(1177, 1106), 1177 + 22); // 22.12
}

TEST(WireClock, TinyPacketsMayTakeNoStepButAddUp)
{
    // A 6-byte credit update at 100 Gb/s is 0.48 ns: alone it rounds to 0, and a hundred back
    // to back take 48 ns.
    WireClock clock(DataRate("100Gbps"));
    EXPECT_EQ(clock.GetTxTime(6), NanoSeconds(0));
    int64_t end = 0;
    for (int k = 0; k < 100; ++k)
    {
        end = clock.Send(end, 6);
    }
    EXPECT_EQ(end, 48);
}

TEST(WireClock, HugeFramesAndOddRatesStayExact)
{
    // 4e9 bytes at 1 Gb/s: 32 s exactly; at 7 b/s: 32e18 / 7 ns, rounded (the product of bits
    // and steps per second exceeds 64 bits).
    EXPECT_EQ(WireClock(DataRate("1Gbps")).GetTxTime(4000000000U), Seconds(32));
    EXPECT_EQ(WireClock(DataRate(7)).GetTxTime(4000000000U).GetTimeStep(), 4571428571428571429LL);
    EXPECT_EQ(WireClock(DataRate(7), WireClock::DOWN).GetTxTime(4000000000U).GetTimeStep(),
              4571428571428571428LL);
}
