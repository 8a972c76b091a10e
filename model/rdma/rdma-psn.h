/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_PSN_H
#define RDMA_PSN_H

#include <cstdint>

/**
 * @file
 * @ingroup interconnect
 * Arithmetic on the 24-bit packet sequence numbers (PSN) of the InfiniBand transport.
 *
 * PSNs live on a circle of 2^24 values (IBTA Vol. 1, 9.7): they wrap from 0xFFFFFF to 0. The
 * functions below are free constexpr functions in namespace ns3::rdma (no class), usable in
 * constant expressions:
 *
 * @code
 *   using namespace ns3::rdma;
 *   uint32_t next = PsnAdd(psn, 1);          // 0xFFFFFF + 1 == 0
 *   int32_t d = PsnDiff(received, expected); // < 0: duplicate, > 0: a gap (PSN sequence error)
 * @endcode
 *
 * Every argument is taken modulo 2^24 (its upper 8 bits are ignored), so no input is invalid.
 */

namespace ns3
{
namespace rdma
{

/// The PSN field is 24 bits wide: every PSN is in [0, PSN_MASK].
constexpr uint32_t PSN_MASK = 0xFFFFFF;

/// Half the PSN circle, 2^23: the largest distance at which an order is defined.
constexpr uint32_t PSN_HALF = 0x800000;

/**
 * @param psn a PSN
 * @param n how many steps to advance
 * @return psn + n modulo 2^24
 */
constexpr uint32_t
PsnAdd(uint32_t psn, uint32_t n)
{
    return (psn + n) & PSN_MASK;
}

/**
 * The signed distance from b to a on the 24-bit circle.
 *
 * The result is the unique d in [-2^23, 2^23 - 1] with a == b + d (mod 2^24). This is the split
 * IBTA Vol. 1, 9.7 makes at the responder: with b the expected PSN, the 2^23 PSNs before it
 * (d < 0) are duplicates and the PSNs after it (d > 0) are out of sequence.
 *
 * @param a a PSN
 * @param b a PSN
 * @return a - b as a signed 24-bit distance
 */
constexpr int32_t
PsnDiff(uint32_t a, uint32_t b)
{
    const uint32_t d = (a - b) & PSN_MASK;
    return d < PSN_HALF ? static_cast<int32_t>(d)
                        : static_cast<int32_t>(d) - static_cast<int32_t>(PSN_MASK + 1);
}

/**
 * Serial-number order (RFC 1982, section 3.2, with SERIAL_BITS = 24): a comes before b when b is
 * reached from a by a forward step of 1 .. 2^23 - 1.
 *
 * As RFC 1982 leaves the order of two numbers exactly 2^23 apart undefined, PsnLess is false in
 * both directions for them (while PsnDiff says -2^23 both ways); otherwise
 * PsnLess(a, b) == (PsnDiff(a, b) < 0).
 *
 * @param a a PSN
 * @param b a PSN
 * @return true if a is before b
 */
constexpr bool
PsnLess(uint32_t a, uint32_t b)
{
    const uint32_t forward = (b - a) & PSN_MASK;
    return forward != 0 && forward < PSN_HALF;
}

/**
 * @param a a PSN
 * @param b a PSN
 * @return true if a is b or before b (RFC 1982 order, see PsnLess)
 */
constexpr bool
PsnLessOrEqual(uint32_t a, uint32_t b)
{
    return ((a - b) & PSN_MASK) == 0 || PsnLess(a, b);
}

} // namespace rdma
} // namespace ns3

#endif // RDMA_PSN_H
