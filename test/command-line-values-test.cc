/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "config-error-test.h"

#include "ns3/command-line-values.h"

#include <gtest/gtest.h>

using namespace ns3;

TEST(CommandLineValues, BytesWithUnits)
{
    EXPECT_EQ(CommandLineValues::Bytes("--x", "1500"), 1500u);
    EXPECT_EQ(CommandLineValues::Bytes("--x", "64KB"), 64000u);
    EXPECT_EQ(CommandLineValues::Bytes("--x", "2MiB"), 2u * 1024 * 1024);
    EXPECT_EQ(CommandLineValues::Bytes("--x", "1GB"), 1000000000u);
    EXPECT_EQ(CommandLineValues::Bytes("--x", "7B"), 7u);
}

TEST(CommandLineValues, NegativeBytesAreRejectedNotWrapped)
{
    EXPECT_CONFIG_ERROR(CommandLineValues::Bytes("--bufferSize", "-5"),
                        "error: --bufferSize = -5: accepted: a whole number of bytes");
}

TEST(CommandLineValues, BytesOutOfRangeOrMalformedAreRejected)
{
    EXPECT_CONFIG_ERROR(CommandLineValues::Bytes("--flowSize", "0", 1),
                        "--flowSize = 0: accepted: a whole number of bytes from 1");
    EXPECT_CONFIG_ERROR(CommandLineValues::Bytes("--flowSize", "3TB"), "--flowSize = 3TB");
    EXPECT_CONFIG_ERROR(CommandLineValues::Bytes("--flowSize", "99999999999999999999"),
                        "--flowSize = 99999999999999999999");
    EXPECT_CONFIG_ERROR(CommandLineValues::Bytes("--flowSize", "20000000000GiB"),
                        "--flowSize = 20000000000GiB");
}

TEST(CommandLineValues, RatesAndTimes)
{
    EXPECT_EQ(CommandLineValues::Rate("--rate", "25Gbps").GetBitRate(), 25000000000u);
    EXPECT_EQ(CommandLineValues::Duration("--delay", "1.5us"), NanoSeconds(1500));
    EXPECT_CONFIG_ERROR(CommandLineValues::Rate("--rate", "0Gbps"),
                        "--rate = 0Gbps: accepted: a rate above 0");
    EXPECT_CONFIG_ERROR(CommandLineValues::Rate("--rate", "fast"), "--rate = fast");
    // ns-3's Time parser aborts on such text; ours reports it.
    EXPECT_CONFIG_ERROR(CommandLineValues::Duration("--delay", "soon"),
                        "--delay = soon: accepted: a time from 0ns to 86400s");
    EXPECT_CONFIG_ERROR(CommandLineValues::Duration("--delay", "-1us"), "--delay = -1us");
}

TEST(CommandLineValues, WhatNs3WouldAbortOrWrapIsRefused)
{
    // ns-3's DataRate parser aborts on a space and wraps around past 2^64 bit/s; its Time
    // overflows past 2^63 steps (292 years at 1 ns).
    for (const char* rate : {"100 Gbps",
                             " 100Gbps",
                             "100Gbps ",
                             "1e30Gbps",
                             "200Tbps",
                             "-5Gbps",
                             "Gbps",
                             "100",
                             "100Gbit",
                             "0.5bps",
                             "nanGbps",
                             "1.6e3Gbps"})
    {
        SCOPED_TRACE(rate);
        EXPECT_CONFIG_ERROR(CommandLineValues::Rate("--rate", rate),
                            "--rate = .*: accepted: a rate above 0 and at most 100 Tb/s");
    }
    EXPECT_EQ(CommandLineValues::Rate("--rate", "400Gb/s").GetBitRate(), 400000000000u);
    EXPECT_EQ(CommandLineValues::Rate("--rate", "1600Gbps").GetBitRate(), 1600000000000u);
    EXPECT_EQ(CommandLineValues::Rate("--rate", "12.5GBps").GetBitRate(), 100000000000u);
    for (const char* time : {"1e30s", "1e12ms", "100000s", "1 us", "1e400s"})
    {
        SCOPED_TRACE(time);
        EXPECT_CONFIG_ERROR(CommandLineValues::Duration("--stop", time),
                            "--stop = .*: accepted: a time from 0ns to 86400s");
    }
    EXPECT_EQ(CommandLineValues::Duration("--stop", "86400s"), Seconds(86400));
    EXPECT_CONFIG_ERROR(CommandLineValues::Duration("--stop", "0.5ns", NanoSeconds(1)),
                        "--stop = 0.5ns: accepted: a time from 1ns");
}
