/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "interconnect-simulator-impl.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/canonical-scheduler.h"
#include "ns3/log.h"

#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InterconnectSimulatorImpl");

NS_OBJECT_ENSURE_REGISTERED(InterconnectSimulatorImpl);

InterconnectSimulatorImpl* InterconnectSimulatorImpl::s_active = nullptr;

namespace
{
/// EventId's reserved uid of the events Destroy runs.
constexpr uint32_t DESTROY_UID = 2;
/// The first uid of a scheduled event (0: invalid, 1: now, 2: destroy, 3: reserved).
constexpr uint32_t FIRST_UID = 4;
} // namespace

TypeId
InterconnectSimulatorImpl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::InterconnectSimulatorImpl")
                            .SetParent<SimulatorImpl>()
                            .SetGroupName("Interconnect")
                            .AddConstructor<InterconnectSimulatorImpl>();
    return tid;
}

InterconnectSimulatorImpl::InterconnectSimulatorImpl()
    : m_canonical(nullptr),
      m_stop(false),
      m_uid(FIRST_UID),
      m_currentUid(0),
      m_currentTs(0),
      m_currentContext(Simulator::NO_CONTEXT),
      m_eventCount(0),
      m_unscheduledEvents(0),
      m_main(std::this_thread::get_id())
{
    NS_LOG_FUNCTION(this);
}

InterconnectSimulatorImpl::~InterconnectSimulatorImpl()
{
    NS_LOG_FUNCTION(this);
    if (s_active == this)
    {
        s_active = nullptr;
    }
}

void
InterconnectSimulatorImpl::DoDispose()
{
    NS_LOG_FUNCTION(this);
    if (s_active == this)
    {
        s_active = nullptr;
    }
    if (m_events)
    {
        while (!QueueEmpty())
        {
            TakeNext().impl->Unref();
        }
    }
    m_canonical = nullptr;
    m_events = nullptr;
    SimulatorImpl::DoDispose();
}

void
InterconnectSimulatorImpl::Destroy()
{
    NS_LOG_FUNCTION(this);
    while (!m_destroyEvents.empty())
    {
        Ptr<EventImpl> event = m_destroyEvents.front().PeekEventImpl();
        m_destroyEvents.pop_front();
        if (!event->IsCancelled())
        {
            event->Invoke();
        }
    }
    // Simulator drops its reference next; another one may keep the object alive, and the next
    // simulation may run another implementation: the models' fast paths stop here.
    if (s_active == this)
    {
        s_active = nullptr;
    }
}

void
InterconnectSimulatorImpl::SetScheduler(ObjectFactory schedulerFactory)
{
    NS_LOG_FUNCTION(this << schedulerFactory);
    Ptr<Scheduler> scheduler = schedulerFactory.Create<Scheduler>();
    if (m_events)
    {
        while (!QueueEmpty())
        {
            scheduler->Insert(TakeNext());
        }
    }
    m_events = scheduler;
    // (The exact type: a subclass's overrides must not be bypassed by the direct calls.)
    m_canonical = scheduler->GetInstanceTypeId() == CanonicalScheduler::GetTypeId()
                      ? static_cast<CanonicalScheduler*>(PeekPointer(scheduler))
                      : nullptr;
    // Simulator sets the scheduler of the implementation it installs, when it installs it
    // (SetImplementation, or the first call that needs one): from then on the models' fast
    // paths reach this one.
    s_active = this;
}

bool
InterconnectSimulatorImpl::QueueEmpty() const
{
    return m_canonical != nullptr ? m_canonical->CanonicalScheduler::IsEmpty()
                                  : m_events->IsEmpty();
}

Scheduler::Event
InterconnectSimulatorImpl::TakeNext()
{
    return m_canonical != nullptr ? m_canonical->CanonicalScheduler::RemoveNext()
                                  : m_events->RemoveNext();
}

void
InterconnectSimulatorImpl::CheckThread(const char* what) const
{
    NS_ABORT_MSG_UNLESS(std::this_thread::get_id() == m_main,
                        "InterconnectSimulatorImpl: "
                            << what
                            << " from a thread other than the simulation's; it runs one thread: "
                               "set SimulatorImplementationType to ns3::DefaultSimulatorImpl for "
                               "a program that schedules from several");
}

void
InterconnectSimulatorImpl::Run()
{
    NS_LOG_FUNCTION(this);
    m_main = std::this_thread::get_id();
    m_stop = false;
    while (!m_stop && !QueueEmpty())
    {
        const Scheduler::Event next = TakeNext();
        NS_ASSERT(next.key.m_ts >= m_currentTs);
        --m_unscheduledEvents;
        ++m_eventCount;
        m_currentTs = next.key.m_ts;
        m_currentContext = next.key.m_context;
        m_currentUid = next.key.m_uid;
        if (m_canonical != nullptr && m_canonical->LastWasDirect())
        {
            static_cast<InterconnectEvent*>(next.impl)->RunNow();
        }
        else
        {
            next.impl->Invoke();
        }
        next.impl->Unref();
    }
    // Stopped by running out of events: every event inserted has run or been removed.
    NS_ASSERT(!QueueEmpty() || m_unscheduledEvents == 0);
}

bool
InterconnectSimulatorImpl::IsFinished() const
{
    return m_stop || QueueEmpty();
}

void
InterconnectSimulatorImpl::Stop()
{
    NS_LOG_FUNCTION(this);
    m_stop = true;
}

#if INTERCONNECT_NS3_AT_LEAST(41)
EventId
#else
void
#endif
InterconnectSimulatorImpl::Stop(const Time& delay)
{
    NS_LOG_FUNCTION(this << delay.GetTimeStep());
#if INTERCONNECT_NS3_AT_LEAST(41)
    return Simulator::Schedule(delay, &Simulator::Stop);
#else
    Simulator::Schedule(delay, &Simulator::Stop);
#endif
}

EventId
InterconnectSimulatorImpl::Schedule(const Time& delay, EventImpl* event)
{
    CheckThread("Schedule");
    NS_ASSERT_MSG(delay.IsPositive(), "InterconnectSimulatorImpl::Schedule: negative delay");
    const uint32_t uid = m_uid;
    const uint64_t ts = m_currentTs + delay.GetTimeStep();
    Insert(m_currentContext, ts, event);
    return EventId(event, ts, m_currentContext, uid);
}

void
InterconnectSimulatorImpl::ScheduleWithContext(uint32_t context,
                                               const Time& delay,
                                               EventImpl* event)
{
    CheckThread("ScheduleWithContext");
    Insert(context, m_currentTs + delay.GetTimeStep(), event);
}

EventId
InterconnectSimulatorImpl::ScheduleNow(EventImpl* event)
{
    CheckThread("ScheduleNow");
    const uint32_t uid = m_uid;
    Insert(m_currentContext, m_currentTs, event);
    return EventId(event, m_currentTs, m_currentContext, uid);
}

EventId
InterconnectSimulatorImpl::ScheduleDestroy(EventImpl* event)
{
    CheckThread("ScheduleDestroy");
    EventId id(Ptr<EventImpl>(event, false), m_currentTs, Simulator::NO_CONTEXT, DESTROY_UID);
    m_destroyEvents.push_back(id);
    ++m_uid; // (as ns-3's implementations do: a destroy event takes a uid too)
    return id;
}

Time
InterconnectSimulatorImpl::Now() const
{
    return TimeStep(static_cast<int64_t>(m_currentTs));
}

Time
InterconnectSimulatorImpl::GetDelayLeft(const EventId& id) const
{
    if (IsExpired(id))
    {
        return TimeStep(0);
    }
    return TimeStep(static_cast<int64_t>(id.GetTs() - m_currentTs));
}

void
InterconnectSimulatorImpl::Remove(const EventId& id)
{
    if (id.GetUid() == DESTROY_UID)
    {
        for (auto it = m_destroyEvents.begin(); it != m_destroyEvents.end(); ++it)
        {
            if (*it == id)
            {
                m_destroyEvents.erase(it);
                break;
            }
        }
        return;
    }
    if (IsExpired(id))
    {
        return;
    }
    Scheduler::Event ev;
    ev.impl = id.PeekEventImpl();
    ev.key.m_ts = id.GetTs();
    ev.key.m_context = id.GetContext();
    ev.key.m_uid = id.GetUid();
    m_events->Remove(ev);
    ev.impl->Cancel();
    ev.impl->Unref(); // the queue's reference
    --m_unscheduledEvents;
}

void
InterconnectSimulatorImpl::Cancel(const EventId& id)
{
    if (!IsExpired(id))
    {
        id.PeekEventImpl()->Cancel();
    }
}

bool
InterconnectSimulatorImpl::IsExpired(const EventId& id) const
{
    EventImpl* event = id.PeekEventImpl();
    if (id.GetUid() == DESTROY_UID)
    {
        if (event == nullptr || event->IsCancelled())
        {
            return true;
        }
        for (const EventId& pending : m_destroyEvents)
        {
            if (pending == id)
            {
                return false;
            }
        }
        return true;
    }
    // Run (or removed) when its time has passed, or is now and its uid is at most the running
    // event's: uids grow in the order events are scheduled, and an event of the current time
    // scheduled after the running one has not run yet.
    return event == nullptr || id.GetTs() < m_currentTs ||
           (id.GetTs() == m_currentTs && id.GetUid() <= m_currentUid) || event->IsCancelled();
}

Time
InterconnectSimulatorImpl::GetMaximumSimulationTime() const
{
    return TimeStep(std::numeric_limits<int64_t>::max());
}

uint32_t
InterconnectSimulatorImpl::GetSystemId() const
{
    return 0;
}

uint32_t
InterconnectSimulatorImpl::GetContext() const
{
    return m_currentContext;
}

uint64_t
InterconnectSimulatorImpl::GetEventCount() const
{
    return m_eventCount;
}

} // namespace ns3
