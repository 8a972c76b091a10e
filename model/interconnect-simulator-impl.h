/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef INTERCONNECT_SIMULATOR_IMPL_H
#define INTERCONNECT_SIMULATOR_IMPL_H

#include "ns3/canonical-scheduler.h"
#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/interconnect-compat.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/scheduler.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"

#include <cstdint>
#include <list>
#include <thread>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief An event object of the module's own, which InterconnectSimulatorImpl runs by an inline
 * call when it was scheduled through ScheduleWithContextNow: ReusableEvent's and ReusableTimer's,
 * which run once per packet-hop or more. Cancelled only for good, with CancelForGood (no EventId
 * names it: nothing else cancels it); a simulator that runs it through EventImpl::Invoke sees
 * that too.
 */
class InterconnectEvent : public EventImpl
{
  public:
    /// Run it, unless cancelled (EventImpl::Invoke's work, inline).
    void RunNow()
    {
        if (!m_cancelled)
        {
            Notify();
        }
    }

    /// Cancel it for good: every occurrence queued, whichever simulator runs it.
    void CancelForGood()
    {
        m_cancelled = true;
        Cancel();
    }

  private:
    bool m_cancelled{false}; //!< CancelForGood was called
};

/**
 * @ingroup interconnect
 * @brief The event loop of a single-process, single-threaded simulation, for the module's
 * per-frame rate of events.
 *
 * It runs the same events in the same order as ns-3's DefaultSimulatorImpl with the same
 * scheduler, with the same uids, contexts, event count and expiry (EventId::IsExpired), so that a
 * run's records do not depend on which of the two runs it. What it leaves out is per-event cost
 * that a packet-level fabric pays a million times a simulated millisecond:
 * - the run loop takes events from a CanonicalScheduler by direct calls, not through the
 *   Scheduler interface (other schedulers still work, through it);
 * - no EventId is built per event run (DefaultSimulatorImpl builds one for PreEventHook), and no
 *   log-level checks sit on the paths of Schedule, ScheduleWithContext and the run loop (Debian's
 *   ns-3 is built with logging, which costs a call per NS_LOG_FUNCTION even when off);
 * - models on the per-frame path read the time and context and schedule through NowStep(),
 *   ContextNow() and ScheduleWithContextNow() below, which reach the implementation without the
 *   Simulator singleton's look-up and a virtual call when it is the one installed (and go
 *   through Simulator when it is not);
 * - the module's own reusable events (InterconnectEvent: a port's arrivals and transmit
 *   completions, the timers) run by an inline call, not through EventImpl::Invoke, which is
 *   out of line in ns-3 and checks a log level (so EventImpl's log shows only the other events).
 *
 * It is for one thread: a ScheduleWithContext from another thread aborts, naming the
 * DefaultSimulatorImpl (which takes those through a lock) as the implementation to use. Select it
 * with the global value SimulatorImplementationType, "ns3::InterconnectSimulatorImpl", before the
 * first event (interconnect-run and interconnect-bench do, on one rank).
 */
class InterconnectSimulatorImpl : public SimulatorImpl
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    InterconnectSimulatorImpl();
    ~InterconnectSimulatorImpl() override;

    void Destroy() override;
    bool IsFinished() const override;
    void Stop() override;
#if INTERCONNECT_NS3_AT_LEAST(41)
    EventId Stop(const Time& delay) override; // (ns-3.41 made it return the stop event)
#else
    void Stop(const Time& delay) override;
#endif
    EventId Schedule(const Time& delay, EventImpl* event) override;
    void ScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event) override;
    EventId ScheduleNow(EventImpl* event) override;
    EventId ScheduleDestroy(EventImpl* event) override;
    void Remove(const EventId& id) override;
    void Cancel(const EventId& id) override;
    bool IsExpired(const EventId& id) const override;
    void Run() override;
    Time Now() const override;
    Time GetDelayLeft(const EventId& id) const override;
    Time GetMaximumSimulationTime() const override;
    void SetScheduler(ObjectFactory schedulerFactory) override;
    uint32_t GetSystemId() const override;
    uint32_t GetContext() const override;
    uint64_t GetEventCount() const override;

    /**
     * @return the implementation Simulator runs, when it is an InterconnectSimulatorImpl, else
     * nullptr (then the models go through Simulator as usual): the last one whose scheduler was
     * set (Simulator sets it when it installs an implementation), until its Destroy
     */
    static InterconnectSimulatorImpl* Active()
    {
        return s_active;
    }

    /// @return the current time step, as Simulator::Now().GetTimeStep()
    static int64_t NowStep()
    {
        return s_active != nullptr ? static_cast<int64_t>(s_active->m_currentTs)
                                   : Simulator::Now().GetTimeStep();
    }

    /// @return the running event's context, as Simulator::GetContext()
    static uint32_t ContextNow()
    {
        return s_active != nullptr ? s_active->m_currentContext : Simulator::GetContext();
    }

    /**
     * As Simulator::ScheduleWithContext (context, delay, event), with the simulator's reference
     * to the event, which the caller has taken.
     * @param context the node
     * @param delay after how long
     * @param event the event
     */
    static void ScheduleWithContextNow(uint32_t context, const Time& delay, EventImpl* event)
    {
        if (s_active != nullptr)
        {
            s_active->Insert(context, s_active->m_currentTs + delay.GetTimeStep(), event);
            return;
        }
        Simulator::ScheduleWithContext(context, delay, event);
    }

    /**
     * As ScheduleWithContextNow, for one of the module's own events: this implementation, with a
     * CanonicalScheduler, runs it by an inline call (InterconnectEvent::RunNow).
     * @param context the node
     * @param delay after how long
     * @param event the event
     */
    static void ScheduleWithContextNow(uint32_t context,
                                       const Time& delay,
                                       InterconnectEvent* event)
    {
        if (s_active != nullptr)
        {
            if (s_active->m_canonical != nullptr)
            {
                CanonicalScheduler::MarkNextDirect();
            }
            s_active->Insert(context, s_active->m_currentTs + delay.GetTimeStep(), event);
            return;
        }
        Simulator::ScheduleWithContext(context, delay, event);
    }

  private:
    void DoDispose() override;

    /// Queue an event. @param context its node @param ts its time step @param event the event
    void Insert(uint32_t context, uint64_t ts, EventImpl* event)
    {
        const uint32_t uid = m_uid++;
        ++m_unscheduledEvents;
        if (m_canonical != nullptr)
        {
            m_canonical->Insert(ts, context, uid, event); // (no Event built to be copied)
            return;
        }
        Scheduler::Event ev;
        ev.impl = event;
        ev.key.m_ts = ts;
        ev.key.m_context = context;
        ev.key.m_uid = uid;
        m_events->Insert(ev);
    }

    /// @return the next event, taken from the queue
    Scheduler::Event TakeNext();
    /// @return whether no event is queued
    bool QueueEmpty() const;
    /// Abort unless on the thread that created the implementation or last ran it.
    /// @param what the call
    void CheckThread(const char* what) const;

    Ptr<Scheduler> m_events;            //!< the queue
    CanonicalScheduler* m_canonical;    //!< m_events, when it is a CanonicalScheduler
    std::list<EventId> m_destroyEvents; //!< the events Destroy runs
    bool m_stop;                        //!< Stop was called
    uint32_t m_uid;                     //!< the next event's uid (from 4; 0-3 are EventId's)
    uint32_t m_currentUid;              //!< the running event's uid
    uint64_t m_currentTs;               //!< the current time step
    uint32_t m_currentContext;          //!< the running event's context
    uint64_t m_eventCount;              //!< events run
    int64_t m_unscheduledEvents;        //!< events queued and not run nor removed
    std::thread::id m_main;             //!< the thread that schedules and runs

    static InterconnectSimulatorImpl* s_active; //!< the one installed, if any
};

} // namespace ns3

#endif // INTERCONNECT_SIMULATOR_IMPL_H
