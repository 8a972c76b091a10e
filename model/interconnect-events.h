/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef INTERCONNECT_EVENTS_H
#define INTERCONNECT_EVENTS_H

#include "ns3/canonical-scheduler.h"
#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/interconnect-simulator-impl.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/ring-queue.h"
#include "ns3/simulator.h"
#include "ns3/slot-pool.h"

#include <array>
#include <memory>
#include <type_traits>
#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief One event object that a model schedules again and again: a port's next arrival, its
 * transmit completion.
 *
 * Simulator::Schedule allocates an EventImpl (and returns an EventId) for every call; on the
 * per-frame paths that was a malloc, a free and two reference-counted copies per frame. A
 * ReusableEvent keeps one EventImpl, bound to a member function, and hands the simulator a
 * reference to it each time: scheduling it is what Simulator::Schedule does, less the
 * allocation, with the same context, event order and uid. It may be pending more than once; it
 * cannot be cancelled one occurrence at a time (Cancel, for disposal, cancels all of them for
 * good), so models use it where they never cancel.
 */
class ReusableEvent
{
  public:
    ReusableEvent() = default;

    /**
     * Bind the event to a method: event.Bind<&Port::Transmit>(port).
     * @tparam METHOD the method, of T, taking nothing (a template argument: the event object
     *         holds the object alone, and fits one cache line with its hints)
     * @param object the object it runs on; it must outlive the pending occurrences, or Cancel
     */
    template <auto METHOD, typename T>
    void Bind(T* object)
    {
        m_impl = Ptr<Impl>(new Member<T, METHOD>(object), false);
    }

    /**
     * What the next occurrence reads first, for CanonicalScheduler::HintNextEvent: an array in
     * the event object, which the simulator keeps while an occurrence is queued (cancelled or
     * not), so that the scheduler may read it without asking whether the event was cancelled.
     * Valid once bound.
     * @return the array
     */
    std::array<const void*, CanonicalScheduler::HINTS>& Hints()
    {
        return PeekPointer(m_impl)->hints;
    }

    /// @return the array Hints gives (valid once bound)
    const std::array<const void*, CanonicalScheduler::HINTS>& Hints() const
    {
        return PeekPointer(m_impl)->hints;
    }

    /**
     * Run the method after a delay, in the current context (as Simulator::Schedule).
     * @param delay the delay
     */
    void Schedule(const Time& delay) const
    {
        ScheduleWithContext(InterconnectSimulatorImpl::ContextNow(), delay);
    }

    /**
     * Run the method after a delay in a context (as Simulator::ScheduleWithContext).
     * @param context the context (node id)
     * @param delay the delay
     */
    void ScheduleWithContext(uint32_t context, const Time& delay) const
    {
        PeekPointer(m_impl)->Ref(); // the simulator's reference: it drops it when the event has run
        InterconnectSimulatorImpl::ScheduleWithContextNow(context, delay, PeekPointer(m_impl));
    }

    /// Cancel every pending occurrence, for good (the object is going away).
    void Cancel()
    {
        if (m_impl)
        {
            m_impl->CancelForGood();
        }
    }

  private:
    /// The event object, with its hints first (beside the reference count).
    class Impl : public InterconnectEvent
    {
      public:
        std::array<const void*, CanonicalScheduler::HINTS> hints{}; //!< see Hints

        /**
         * Event objects live side by side, in blocks of their own (AllocateObject): one is
         * read as its event runs and as the scheduler fetches its hints, and a fabric's
         * thousands of them, made among the ports' other objects, took a page each to
         * translate (at k=16 the event loop's share of a hop's pages beyond translation's
         * reach).
         * @param size the object's size
         * @return room for it
         */
        static void* operator new(std::size_t size)
        {
            return AllocateObject(size);
        }

        /**
         * Give back an event object's room.
         * @param object the room
         * @param size the object's size
         */
        static void operator delete(void* object, std::size_t size)
        {
            FreeObject(object, size);
        }
    };

    /**
     * Room for an event object, at most this many bytes, aligned on a cache line: one line,
     * which an event's hints (HintNextEvent) and its run read, fetched with them (ns-3's
     * EventImpl, 16 bytes up to ns-3.48 at least, the hints, the object: the method is a template
     * argument). At 128 bytes, with the method held as a pointer, each run read a second line
     * that no hint named: perm1024's event loop missed an 8 MB last level 22.12 M times then,
     * 17.81 M now (23.45 M and 21.37 M fetching lines in pairs; doc/performance-log.rst).
     */
    static constexpr std::size_t OBJECT_SLOT = 64;

    /// @return the slots of events' objects
    static SlotPool& Slots();

    /**
     * Room for an event object: a slot of OBJECT_SLOT bytes (Slots; a larger object: room from
     * the heap).
     * @param size the object's size
     * @return the room
     */
    static void* AllocateObject(std::size_t size);

    /**
     * Give back the room AllocateObject gave.
     * @param object the room
     * @param size the object's size
     */
    static void FreeObject(void* object, std::size_t size);

    /// The event: a method on a raw pointer. @tparam T the object's class @tparam METHOD the
    /// method
    template <typename T, void (T::*METHOD)()>
    class Member : public Impl
    {
      public:
        /// @param object the object
        explicit Member(T* object)
            : m_object(object)
        {
        }

      private:
        void Notify() override
        {
            (m_object->*METHOD)();
        }

        T* m_object; //!< the object
    };

    Ptr<Impl> m_impl; //!< the one event object
};

/**
 * @ingroup interconnect
 * @brief The frames in flight to a port, behind one event.
 *
 * A cable's frames arrive in the order it sent them, so they wait here in order of arrival and
 * one ReusableEvent delivers the first (htsim's pipes do the same), instead of an event each.
 * Each frame's event is keyed for the CanonicalScheduler by the receiving device and the
 * frame's sequence number, as a per-frame event was, and names for its prefetch what the
 * delivery reads first (the frame's slot and packet, the port, this queue, a line of the
 * port's owner). A frame due before the last one queued (not one cable's: a distributed run's
 * remote link) gets an event of its own. The queue may sit with either end: an Ethernet port
 * keeps the frames it sends on a cable within the process (PfcNetDevice::ScheduleDeparture), so
 * that a send touches only the sender's state; InfiniBand ports and remote links keep the
 * frames coming to them.
 * @tparam Owner the port
 * @tparam Item what a frame is to it: movable, with Touches() (what its arrival reads first, to
 *         be fetched ahead), TOUCHED_LINES (how many lines from there, 1 to 16) and
 *         FETCHES_BYTES; if that is true, FetchBytes() (fetch the bytes
 *         its arrival reads, which Touches leads to: called for the next frame as one arrives,
 *         where the port reads its frames, Touches fetched as the arrival began)
 * @tparam ARRIVE the port's method that takes an arriving frame
 * @tparam NEXT_HINT the port's method that names, for the frame next in line once one has
 *         arrived, the span of lines its arrival will read after the port's own
 *         (CanonicalScheduler::SpanHint), the event's last hint; asked only where the frames
 *         are not read (Bind's itemRead false). Null, and for a frame that finds the queue
 *         empty: the owner's span Bind was given. A switch names the egress port its route
 *         leads to: at k=16 the hint names the lines a hop waited on most.
 * @tparam INLINE frames kept in the queue itself (InlineRingQueue), the rest in a ring on the
 *         heap; 0: all of them on the heap (a queue that is seldom used, or whose owner does
 *         not read the frames where it reads the queue)
 */
template <typename Owner,
          typename Item,
          void (Owner::*ARRIVE)(Item&),
          const void* (Owner::*NEXT_HINT)(const Item&) const = nullptr,
          std::size_t INLINE = 0>
class ArrivalQueue
{
  public:
    /**
     * @param owner the port (it must outlive the queue's pending event, or Clear)
     * @param ownerHint what of the port a frame's arrival reads first, to be fetched ahead
     *        (CanonicalScheduler::HintNextEvent); null: the port's start
     * @param fixedHint one more line every arrival at the port reads, beyond the port (a
     *        switch's buffer accounting of the port as ingress), or null
     * @param itemRead whether an arrival reads what the frame's Item::Touches names (its
     *        packet; a switch that passes the frame on by reference does not): if not, the
     *        event names it for no fetch
     * @param ownerSpan where the frames are not read: what an arrival reads of the owner for a
     *        frame that the port does not name the egress for (NEXT_HINT), its event's last
     *        hint (CanonicalScheduler::SpanHint; a switch: its forwarding fields), or null
     */
    void Bind(Owner* owner,
              const void* ownerHint = nullptr,
              const void* fixedHint = nullptr,
              bool itemRead = true,
              const void* ownerSpan = nullptr)
    {
        m_owner = owner;
        m_ownerSpan = itemRead ? READS_ITEMS : ownerSpan;
        m_event.Bind<&ArrivalQueue::FirstArrives>(this);
        m_event.Hints()[1] = ownerHint ? ownerHint : owner;
        m_event.Hints()[2] = this;
        m_event.Hints()[3] = fixedHint;
    }

    /**
     * Queue a frame.
     * @param item the frame
     * @param now the current time step
     * @param delay when it arrives, from now, in time steps (a Time's copies and destruction
     *        each test whether ns-3 is marking times: on the path of every frame)
     * @param sequence its number on the cable's direction
     * @param context the receiving node's id
     * @param device the receiving device's index on its node
     */
    void Push(Item item,
              int64_t now,
              int64_t delay,
              uint64_t sequence,
              uint32_t context,
              uint32_t device)
    {
        const int64_t arrival = now + delay;
        if (!m_frames.empty() && arrival < m_lastArrival)
        {
            CanonicalScheduler::KeyNextEvent(device, sequence);
            Owner* owner = m_owner;
            // (Shared: an event's function is copied, and an Item may only move.)
            auto held = std::make_shared<Item>(std::move(item));
            Simulator::ScheduleWithContext(context, TimeStep(delay), [owner, held]() {
                (owner->*ARRIVE)(*held);
            });
            return;
        }
        m_context = context;
        m_device = device;
        m_lastArrival = arrival;
        m_frames.push_back(Entry{std::move(item), arrival, sequence});
        if (m_frames.size() == 1)
        {
            ScheduleFirst(now);
        }
    }

    /**
     * @return where the frames kept inline start (null if none are): everything of the queue
     *         before them is what an arrival and a push read of it, besides the frames
     */
    const void* InlineFrames() const
    {
        if constexpr (INLINE == 0)
        {
            return nullptr;
        }
        else
        {
            return m_frames.Slots();
        }
    }

    /// @return whether Bind was called
    bool IsBound() const
    {
        return m_owner != nullptr;
    }

    /// @return whether it delivers to this owner @param owner a port
    bool IsBoundTo(const Owner* owner) const
    {
        return m_owner == owner;
    }

    /// @return the hints of the event that delivers the first frame (valid once bound)
    const std::array<const void*, CanonicalScheduler::HINTS>& Hints() const
    {
        return m_event.Hints();
    }

    /// Drop the frames and cancel the event for good (the port is going away).
    void Clear()
    {
        m_frames.clear();
        m_event.Cancel();
    }

  private:
    /// @return whether an arrival reads what its frame's Item::Touches names (Bind)
    bool ReadsItems() const
    {
        return m_ownerSpan == READS_ITEMS;
    }

    /// A frame and when it arrives.
    struct Entry
    {
        Item item;         //!< the frame
        int64_t arrival;   //!< when it arrives (time step)
        uint64_t sequence; //!< its number on the cable's direction
    };

    /// Schedule the first frame's arrival. @param now the current time step
    void ScheduleFirst(int64_t now)
    {
        const Entry& first = m_frames.front();
        CanonicalScheduler::KeyNextEvent(m_device, first.sequence);
        auto& hints = m_event.Hints();
        hints[0] = &first; // ([1] to [3], the port, this and more, set by Bind)
        // The span: for a port that reads its frames (a NIC's; a switch's checking its carried
        // fields, CheckFrameInfo), the lines from what the frame touches (Item::TOUCHED_LINES:
        // a NIC's, the packet and the bytes that follow it); for one that does not, what
        // FirstArrives has the owner name (a switch: the egress port) for a frame behind
        // another, else what Bind named of the owner (a switch: its forwarding fields).
        const void* touched = ReadsItems() ? first.item.Touches() : nullptr;
        hints[CanonicalScheduler::HINTS - 1] =
            touched ? CanonicalScheduler::SpanHint(touched, Item::TOUCHED_LINES)
                    : (ReadsItems() ? nullptr : m_ownerSpan);
        CanonicalScheduler::HintNextEvent(hints.data());
        m_event.ScheduleWithContext(m_context, TimeStep(first.arrival - now));
    }

    /// The first frame arrives: the next one's event first, as if scheduled long ago.
    void FirstArrives()
    {
        Entry first = std::move(m_frames.front());
        m_frames.pop_front();
        if (!m_frames.empty())
        {
            ScheduleFirst(first.arrival); // this event runs at the frame's arrival
            if constexpr (Item::FETCHES_BYTES)
            {
                if (ReadsItems())
                {
                    __builtin_prefetch(m_frames.front().item.Touches()); // (for FetchBytes)
                }
            }
        }
        (m_owner->*ARRIVE)(first.item);
        // The next frame's bytes, whose address its packet holds: that packet's line, fetched
        // above, came in as this frame's arrival ran, and the bytes (which no hint can name,
        // their address not known before) come in long before that frame's own arrival. (The
        // arrival may have pushed frames or cleared the queue; the queue outlives it, as below.)
        if constexpr (Item::FETCHES_BYTES)
        {
            if (ReadsItems() && !m_frames.empty())
            {
                m_frames.front().item.FetchBytes();
            }
        }
        // The next frame's hint, once this one is through: the scheduler reads it only when
        // that event comes near, and the look-ups it takes do not hold this frame up. (Not where
        // the span names the frame's packet, which the arrival reads for certain.)
        if constexpr (NEXT_HINT != nullptr)
        {
            if (!ReadsItems() && !m_frames.empty())
            {
                if (const void* span = (m_owner->*NEXT_HINT)(m_frames.front().item))
                {
                    m_event.Hints()[CanonicalScheduler::HINTS - 1] = span;
                }
            }
        }
    }

    // (The last one's time, kept here: its slot has left the cache by the next push when the
    // fabric is large, and the push read it only to compare.)
    int64_t m_lastArrival{0}; //!< when the last one queued arrives (time step)
    /// Delivers the first; its hints name what the delivery reads first: the frame's slot, its
    /// packet, the port (what Bind named of it), this queue.
    ReusableEvent m_event;
    Owner* m_owner{nullptr}; //!< the port
    /// m_ownerSpan's value where an arrival reads what its Item::Touches names (no owner span
    /// is named there: one field for both, so that the queue's fields keep to their line).
    static inline const char READS_ITEMS_MARK{};
    static constexpr const void* READS_ITEMS = &READS_ITEMS_MARK; //!< (see m_ownerSpan)
    /// What an arrival reads of the owner, named for a frame that nothing else names (Bind),
    /// or null; READS_ITEMS: an arrival reads its frame's packet.
    const void* m_ownerSpan{READS_ITEMS};
    uint32_t m_context{0}; //!< the port's node
    uint32_t m_device{0};  //!< the port's index on it
    /// In order of arrival. Last: the fields above and its own come first, on the line that the
    /// event's hint names (this queue), then the frames it keeps inline.
    std::conditional_t<INLINE == 0, RingQueue<Entry>, InlineRingQueue<Entry, INLINE>> m_frames;
};

/**
 * @ingroup interconnect
 * @brief A timer's event that knows whether it is pending.
 *
 * ns-3's EventId::IsExpired (and so Cancel and Simulator::GetDelayLeft) decides whether an
 * event due at the current time has run by comparing its uid with the running event's: right
 * when events run in uid order, as ns-3's schedulers run them, wrong under CanonicalScheduler,
 * which orders the events of one time by node and link so that the records do not depend on
 * how a run is partitioned. There a timer could look expired while it was still to run (and a
 * second one was scheduled) or pending when it had run (and the timer stopped). A PendingEvent
 * keeps the answer itself: pending from Schedule until it runs or is cancelled.
 */
class PendingEvent
{
  public:
    PendingEvent() = default;

    /**
     * Schedule a method call, cancelling the pending one if any (as Simulator::Schedule).
     * @param delay the delay
     * @param method the method
     * @param object the object it runs on (a raw pointer or a Ptr)
     * @param args its arguments
     */
    template <typename MEM, typename OBJ, typename... Ts>
    void Schedule(const Time& delay, MEM method, OBJ object, Ts... args)
    {
        Cancel();
        m_pending = true;
        m_at = Simulator::Now() + delay;
        m_id = Simulator::Schedule(delay, [this, method, object, args...]() {
            m_pending = false;
            ((*object).*method)(args...);
        });
    }

    /// Cancel it if it is pending.
    void Cancel()
    {
        if (m_pending)
        {
            m_id.PeekEventImpl()->Cancel();
            m_pending = false;
        }
    }

    /// @return whether it is scheduled and has not run
    bool IsPending() const
    {
        return m_pending;
    }

    /// @return when it runs (meaningful while pending)
    Time GetTime() const
    {
        return m_at;
    }

  private:
    EventId m_id;          //!< the event
    Time m_at;             //!< when it runs
    bool m_pending{false}; //!< scheduled, not yet run or cancelled
};

/**
 * @ingroup interconnect
 * @brief A PendingEvent for one method without arguments, bound once, whose event objects are
 * reused: a NIC's wake-up for its next rate-limited send, rescheduled for nearly every packet,
 * and DCQCN's timers, restarted by every CNP.
 *
 * PendingEvent allocates an event (through Simulator::Schedule) for each Schedule and frees it
 * once run; here a timer keeps the few event objects it has had in the simulator's queue and
 * schedules a free one again (one that only the timer holds). Cancel leaves the occurrence in
 * the queue, inert, as ns-3's EventId::Cancel does: it runs, as a cancelled event does, and
 * calls nothing. So the events, their context, order and uids are those PendingEvent makes. An
 * inert occurrence touches only its own object, which the simulator keeps alive: the timer
 * (and its object) may be gone by then. A timer bound with BindHinted keeps, in each of its
 * event objects, the addresses its next call reads first (Schedule's hints), for
 * CanonicalScheduler::HintNextEvent: the scheduler reads them from the object, which outlives
 * the timer as long as it is queued.
 */
class ReusableTimer
{
  public:
    ReusableTimer() = default;
    ReusableTimer(const ReusableTimer&) = delete;
    ReusableTimer& operator=(const ReusableTimer&) = delete;

    ~ReusableTimer()
    {
        Cancel();
    }

    /**
     * Bind the timer to a method.
     * @tparam T the object's class
     * @tparam METHOD the method
     * @param object the object it runs on; it must outlive the pending occurrence, or Cancel
     */
    template <typename T, void (T::*METHOD)()>
    void Bind(T* object)
    {
        m_object = object;
        m_call = [](void* o) { (static_cast<T*>(o)->*METHOD)(); };
    }

    /**
     * Bind the timer to a method, its event objects made with room for hints (Schedule).
     * @tparam T the object's class
     * @tparam METHOD the method
     * @param object the object it runs on; it must outlive the pending occurrence, or Cancel
     */
    template <typename T, void (T::*METHOD)()>
    void BindHinted(T* object)
    {
        Bind<T, METHOD>(object);
        m_hinted = true;
    }

    /// What a call reads first: CanonicalScheduler::HINTS addresses (HintNextEvent).
    typedef std::array<const void*, CanonicalScheduler::HINTS> Hints;

    /**
     * Call the method after a delay, in the current context, cancelling the pending call if
     * any (as PendingEvent::Schedule).
     * @param delay the delay
     * @param hints what the call will read first, for CanonicalScheduler::HintNextEvent, copied
     *        into the event object (a timer bound with BindHinted); null: none
     */
    void Schedule(const Time& delay, const Hints* hints = nullptr)
    {
        Cancel();
        // The one that ran last, if not queued again since: at fabric scale the others (and
        // the list of them) have left the cache, and the one that ran is still in it when its
        // call schedules the next.
        Occurrence* next = m_free;
        m_free = nullptr;
        if (next == nullptr || m_occurrences.size() > 2)
        {
            // One that only this timer holds (out of the queue); the other such are let go, as
            // PendingEvent frees its events once run: a timer restarted many times within its
            // delay (DCQCN's, on a CNP each) keeps only as many as it has queued, plus one.
            for (std::size_t i = 0; i < m_occurrences.size();)
            {
                Occurrence* o = PeekPointer(m_occurrences[i]);
                if (o->GetReferenceCount() != 1 || o == next)
                {
                    ++i;
                }
                else if (next == nullptr)
                {
                    next = o;
                    ++i;
                }
                else
                {
                    m_occurrences[i] = m_occurrences.back(); // (o goes: i is looked at again)
                    m_occurrences.pop_back();
                }
            }
        }
        if (next == nullptr)
        {
            m_occurrences.push_back(m_hinted ? Ptr<Occurrence>(Create<HintedOccurrence>(this))
                                             : Create<Occurrence>(this));
            next = PeekPointer(m_occurrences.back());
        }
        next->m_live = true;
        m_live = next;
        m_at = TimeStep(InterconnectSimulatorImpl::NowStep()) + delay;
        next->Ref(); // the simulator's reference: it drops it when the occurrence has run
        if (hints != nullptr)
        {
            NS_ASSERT_MSG(m_hinted, "ReusableTimer: hints for a timer not bound with BindHinted");
            auto* hinted = static_cast<HintedOccurrence*>(next);
            hinted->hints = *hints;
            CanonicalScheduler::HintNextEvent(hinted->hints.data());
        }
        InterconnectSimulatorImpl::ScheduleWithContextNow(InterconnectSimulatorImpl::ContextNow(),
                                                          delay,
                                                          next);
    }

    /// Cancel the pending call if any.
    void Cancel()
    {
        if (m_live != nullptr)
        {
            m_live->m_live = false;
            m_live = nullptr;
        }
    }

    /// @return whether a call is scheduled and has not run
    bool IsPending() const
    {
        return m_live != nullptr;
    }

    /// @return when it runs (meaningful while pending)
    Time GetTime() const
    {
        return m_at;
    }

    /// @return how many event objects it keeps (queued, or kept for the next Schedule)
    std::size_t GetEventObjects() const
    {
        return m_occurrences.size();
    }

  private:
    /// One of the timer's event objects.
    class Occurrence : public InterconnectEvent
    {
      public:
        /// @param timer its timer
        explicit Occurrence(ReusableTimer* timer)
            : m_timer(timer)
        {
        }

        bool m_live{false}; //!< it is the timer's pending call (else inert, or not queued)

      private:
        void Notify() override
        {
            if (m_live)
            {
                m_live = false;
                m_timer->m_live = nullptr;
                m_timer->m_free = this; // out of the queue (its reference drops after this)
                m_timer->m_call(m_timer->m_object);
            }
        }

        ReusableTimer* m_timer; //!< its timer (read only while live)
    };

    /// An event object of a timer bound with BindHinted: the hints of the call it makes.
    class HintedOccurrence : public Occurrence
    {
      public:
        /// @param timer its timer
        explicit HintedOccurrence(ReusableTimer* timer)
            : Occurrence(timer)
        {
        }

        Hints hints{}; //!< what the call reads first (the scheduler reads them while queued)
    };

    std::vector<Ptr<Occurrence>> m_occurrences; //!< the event objects it has had queued
    Occurrence* m_live{nullptr};                //!< the pending call's, or null
    Occurrence* m_free{nullptr};    //!< the one that ran last, if not queued since, or null
    Time m_at;                      //!< when it runs
    void* m_object{nullptr};        //!< the bound object
    void (*m_call)(void*){nullptr}; //!< calls the bound method on it
    bool m_hinted{false};           //!< its event objects hold hints (BindHinted)
};

} // namespace ns3

#endif // INTERCONNECT_EVENTS_H
