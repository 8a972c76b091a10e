/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFC_DEADLOCK_MONITOR_H
#define PFC_DEADLOCK_MONITOR_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{

class RoceSwitch;

/**
 * @ingroup interconnect
 * @brief Finds PFC deadlocks while a simulation runs: a cycle of switch egress queues that are
 * paused by their peers and hold frames, each waiting for the next.
 *
 * DeadlockCheck finds the routes with which PFC can deadlock; this finds the deadlocks that do
 * form. Every interval it looks at every switch egress queue (a channel: switch, port,
 * priority) that its peer switch pauses and that holds frames. Channel A (s -> t) waits for
 * channel B (t -> u) when t's queue B holds a frame that came in over A's link: the frames that
 * fill t's ingress from s, and so keep A paused, cannot leave before B moves. A strongly
 * connected component of these waits (Boost.Graph's strong_components) with more than one
 * channel is a cycle of queues none of which can move; it is reported as a deadlock once every
 * channel in it has been paused without a break since the check before (so a pause that clears
 * within one interval is not taken for one), with the time and the cycle (Hu et al., "Deadlocks
 * in Datacenter Networks", HotNets 2016; Guo et al., SIGCOMM 2016, section 4.2). A deadlock is
 * reported once, however long it lasts; a new set of channels is a new one.
 */
class PfcDeadlockMonitor
{
  public:
    /// One deadlock found.
    struct Deadlock
    {
        Time time;                      //!< when it was found
        std::vector<std::string> cycle; //!< its channels, "switch S port P -> switch T (prio Q)"
    };

    /**
     * @param switches the switches to watch (their ports' peers that are switches count)
     */
    explicit PfcDeadlockMonitor(std::vector<Ptr<RoceSwitch>> switches);

    /**
     * Look every interval, from now on, until stop (as PortRecorder::Start: a pending check
     * must not keep a simulation without a stop time running).
     * @param interval the interval (above 0)
     * @param stop the last check is at or before this time
     */
    void Start(Time interval, Time stop);

    /// Look now (Start does it every interval).
    void Check();

    /// @return the deadlocks found so far, in the order found
    const std::vector<Deadlock>& GetDeadlocks() const;

  private:
    /// A switch egress queue: switch index, port, priority.
    using Channel = std::tuple<uint32_t, uint32_t, uint8_t>;

    /// Schedule the next check, if it comes before m_stop.
    void ScheduleCheck();

    /// @return the channel's text @param c the channel
    std::string Name(const Channel& c) const;

    std::vector<Ptr<RoceSwitch>> m_switches; //!< the switches
    std::map<std::pair<uint32_t, uint32_t>, std::pair<uint32_t, uint32_t>>
        m_peer;                             //!< (s, p) -> (t, q)
    Time m_interval;                        //!< between checks
    Time m_stop;                            //!< no check after it
    Time m_lastCheck{Time(-1)};             //!< the check before
    std::set<std::set<Channel>> m_reported; //!< the cycles reported
    std::vector<Deadlock> m_deadlocks;      //!< what was found
    EventId m_event;                        //!< the next check
};

} // namespace ns3

#endif // PFC_DEADLOCK_MONITOR_H
