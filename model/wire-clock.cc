/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wire-clock.h"

#include "ns3/abort.h"
#include "ns3/assert.h"

#include <limits>

namespace ns3
{

namespace
{

/// @return time steps per second at the simulator's resolution
uint64_t
StepsPerSecond()
{
    switch (Time::GetResolution())
    {
    case Time::FS:
        return 1000000000000000ULL;
    case Time::PS:
        return 1000000000000ULL;
    case Time::NS:
        return 1000000000ULL;
    case Time::US:
        return 1000000ULL;
    case Time::MS:
        return 1000ULL;
    case Time::S:
        return 1ULL;
    default:
        NS_FATAL_ERROR("WireClock: a time resolution coarser than a second");
    }
    return 1;
}

} // namespace

WireClock::WireClock(Rounding rounding)
    : m_bps(0),
      m_stepsPerSecond(0),
      m_fastBits(0),
      m_rounding(rounding),
      m_remainder(0),
      m_end(0)
{
}

WireClock::WireClock(DataRate rate, Rounding rounding)
    : WireClock(rounding)
{
    SetRate(rate);
}

void
WireClock::SetRate(DataRate rate)
{
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0 ||
                        rate.GetBitRate() > std::numeric_limits<uint64_t>::max() / 2,
                    "WireClock: a rate of " << rate.GetBitRate() << " b/s");
    m_bps = rate.GetBitRate();
    m_stepsPerSecond = StepsPerSecond();
    m_fastBits = std::numeric_limits<uint64_t>::max() / m_stepsPerSecond;
    Restart();
}

DataRate
WireClock::GetRate() const
{
    return DataRate(m_bps);
}

void
WireClock::Restart()
{
    // Nearest: start half a step ahead, so that the carry comes at the half step.
    m_remainder = m_rounding == NEAREST ? m_bps / 2 : 0;
}

void
WireClock::Split(uint32_t bytes, int64_t& steps, uint64_t& remainder) const
{
    NS_ASSERT_MSG(m_bps > 0, "WireClock: no rate set");
    const uint64_t bits = uint64_t{bytes} * 8;
    uint64_t quotient = 0;
    if (bits <= m_fastBits)
    {
        const uint64_t n = bits * m_stepsPerSecond; // no overflow: checked above
        quotient = n / m_bps;
        remainder = n % m_bps;
    }
    else
    {
        // A frame of gigabytes at femtosecond resolution: the product needs 128 bits (GCC's and
        // Clang's built-in type; __extension__ keeps -Wpedantic quiet).
        __extension__ typedef unsigned __int128 Wide;
        const Wide n = static_cast<Wide>(bits) * m_stepsPerSecond;
        quotient = static_cast<uint64_t>(n / m_bps);
        remainder = static_cast<uint64_t>(n % m_bps);
    }
    steps = static_cast<int64_t>(quotient);
}

int64_t
WireClock::Send(int64_t start, uint32_t bytes)
{
    if (start != m_end)
    {
        Restart(); // the wire was idle: a new busy period
    }
    int64_t steps = 0;
    uint64_t remainder = 0;
    Split(bytes, steps, remainder);
    m_end = start + steps;
    m_remainder += remainder; // both below m_bps < 2^63: no overflow
    if (m_remainder >= m_bps)
    {
        m_remainder -= m_bps;
        ++m_end;
    }
    return m_end;
}

Time
WireClock::GetTxTime(uint32_t bytes) const
{
    int64_t steps = 0;
    uint64_t remainder = 0;
    Split(bytes, steps, remainder);
    const uint64_t first = (m_rounding == NEAREST ? m_bps / 2 : 0) + remainder;
    return TimeStep(steps + (first >= m_bps ? 1 : 0));
}

} // namespace ns3
