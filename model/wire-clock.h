/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WIRE_CLOCK_H
#define WIRE_CLOCK_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief When back-to-back frames leave a wire of a given rate: exact over a burst, in whole
 * time steps, with integer arithmetic only.
 *
 * A frame of b bits takes b / rate seconds, which is rarely a whole number of time steps (88.48
 * ns for 1106 bytes at 100 Gb/s). Rounding every frame on its own makes a long burst drift by
 * the rounding error times the number of frames (88 ns for those: -0.5%; 7 ns for the 6.76 ns of
 * a 338-byte frame at 400 Gb/s: +3.6%). A WireClock instead carries the fraction of a time step a
 * frame leaves over to the next one, as an integer remainder in units of 1 / rate of a time step: a
 * frame adds (bits x steps per second) modulo rate to it, and a whole step to the frame's time
 * whenever it reaches the rate. So within a busy period the k-th frame ends at the exact cumulative
 * time of frames 1..k from the period's start, rounded (to nearest, or down), and never drifts.
 *
 * A busy period is a run of frames each starting when the previous one ended. When a frame
 * starts later (the wire was idle), the remainder restarts: the idle gap already is a whole
 * number of steps, and a frame sent alone takes the same time whatever the wire carried before
 * (to nearest: its own time rounded, as DataRate::CalculateBytesTxTime gives it).
 *
 * A frame shorter than a time step may take 0 steps (a 6-byte InfiniBand credit update is 0.48
 * ns at 100 Gb/s); the channels still deliver every frame at least one time step after it
 * started (see PfcChannel and IbChannel), which is what a distributed run's lookahead needs.
 *
 * The hot path is a multiplication and one 64-bit integer division per frame (about 4 ns here,
 * call included, with or without a cache of frame sizes, which the ports kept while a frame's
 * time was an int64x64_t division); a clock is a few words, so every queue pair paces on one.
 * The time resolution is read when the rate is set: set it before creating simulation objects,
 * as ns-3 requires anyway.
 */
class WireClock
{
  public:
    /// How a frame's end is rounded to a time step.
    enum Rounding
    {
        NEAREST, //!< to the nearest step (halves up): a port's wire
        DOWN     //!< down: a pacer, which must never hold a frame later than its exact time
    };

    /**
     * A clock without a rate; SetRate before the first frame.
     * @param rounding how frame ends are rounded
     */
    explicit WireClock(Rounding rounding = NEAREST);

    /**
     * @param rate the wire's rate (above 0 b/s)
     * @param rounding how frame ends are rounded
     */
    explicit WireClock(DataRate rate, Rounding rounding = NEAREST);

    /**
     * Change the rate; the remainder restarts.
     * @param rate the wire's rate (above 0 b/s)
     */
    void SetRate(DataRate rate);

    /// @return the rate
    DataRate GetRate() const;

    /**
     * A frame goes on the wire.
     * @param start the time step its first bit leaves (not before the previous frame's end)
     * @param bytes its size on the wire, every per-frame overhead included
     * @return the time step its last bit leaves (start, or later)
     */
    int64_t Send(int64_t start, uint32_t bytes);

    /**
     * @param bytes a frame's size on the wire
     * @return the time it takes when sent alone (the first frame of a busy period)
     */
    Time GetTxTime(uint32_t bytes) const;

    /// Forget the remainder: the next frame starts a busy period.
    void Restart();

  private:
    /**
     * The time a frame takes, in whole steps and what is left.
     * @param bytes its size on the wire
     * @param steps set to the whole time steps of bytes x 8 / rate
     * @param remainder set to what is left, in units of 1 / rate of a step
     */
    void Split(uint32_t bytes, int64_t& steps, uint64_t& remainder) const;

    uint64_t m_bps;            //!< rate, bits per second
    uint64_t m_stepsPerSecond; //!< time steps per second at the resolution
    uint64_t m_fastBits;       //!< frames up to this many bits need no 128-bit product
    Rounding m_rounding;       //!< how frame ends are rounded
    uint64_t m_remainder;      //!< carried fraction of a step, in 1 / m_bps steps
    int64_t m_end;             //!< time step the last frame ended
};

} // namespace ns3

#endif // WIRE_CLOCK_H
