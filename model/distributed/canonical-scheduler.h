/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CANONICAL_SCHEDULER_H
#define CANONICAL_SCHEDULER_H

#include "ns3/assert.h"
#include "ns3/event-impl.h"
#include "ns3/scheduler.h"

#include <array>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief An event scheduler whose order of simultaneous events does not depend on how the
 * simulation is split over processes.
 *
 * ns-3's schedulers run events of the same time in insertion order. In a distributed run a frame
 * from another rank is inserted when its message is received, at a window boundary, instead of
 * when its sender started it, so a tie between that arrival and a local event can resolve the
 * other way than in a run on one rank, and the records differ. This scheduler orders events by
 *
 *   (time, node, class, key, insertion order)
 *
 * where class 0 is a frame arriving on a link (keyed by the receiving device's index and the
 * frame's sequence number on that direction of the cable; PfcChannel and PfcRemoteChannel key
 * their deliveries with KeyNextEvent()) and class 1 every other event (insertion order). Every
 * arrival at a node at time t therefore runs before the node's other events of time t, in an
 * order fixed by the fabric, however the arrival reached the queue; the node's own events keep
 * ns-3's insertion order, which a node's own history fixes. Events of different nodes at the same
 * time run node by node: they cannot see each other (every link has a delay).
 *
 * Install it with Simulator::SetScheduler (ObjectFactory "ns3::CanonicalScheduler") or the
 * global value SchedulerType before the first event is scheduled; interconnect-run does.
 *
 * The queue is a radix heap on the time (Ahuja et al., J. ACM 1990) with digits of 6 bits (their
 * radix heap of a larger base): bucket (l, d) holds the events whose time first differs from
 * m_last in its l-th digit, where it has the value d; bucket 0 is the run, the events of times
 * up to m_last, sorted on the whole key with the next one last. When the run is empty, the lowest
 * non-empty bucket (from a mask of them) is taken: one of at most RUN_MAX events becomes the run
 * whole, sorted once, m_last its latest time; a larger one is spread over the digits below its
 * own around its earliest time, which becomes m_last with the run of its events (a run of one
 * time: a long one is sorted on node and device in a radix sort, SortOneTime). An event a
 * microsecond (2^20 ps) ahead is moved at most four times before it runs, where a heap with a
 * bucket per bit moved it up to twenty times, and most buckets are taken whole: a fat-tree's
 * frames move in step, so the lowest bucket holds a few events at a time (perm128: 2.5 moves per
 * event with a bucket per 4-bit digit and none taken whole, 1.4 with RUN_MAX 16). An event
 * inserted into the run's span joins its end if it runs next, else waits aside until the next
 * peek sorts and merges all of those in at once (a collective posts thousands of messages at the
 * current time, and in a distributed run frames from other ranks come below m_last). As every
 * event's key is distinct, the order does not depend on the structure.
 */
class CanonicalScheduler : public Scheduler
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    CanonicalScheduler();
    ~CanonicalScheduler() override;

    /**
     * Key the next event inserted as a link arrival. Call it right before the
     * Simulator::Schedule call whose event delivers the frame; it has no effect unless a
     * CanonicalScheduler is installed.
     * @param device index of the receiving device on its node
     * @param sequence the frame's number on that direction of the link
     */
    static void KeyNextEvent(uint32_t device, uint64_t sequence);

    /// As many addresses as a hint names: four lines, then a span of lines (SpanHint). (Five
    /// pointers after ns-3's EventImpl and before its object: a ReusableEvent's object on one
    /// cache line.)
    static constexpr std::size_t HINTS = 5;
    /// The low bits of a span hint, which count its lines after the first (up to 16 lines).
    static constexpr uintptr_t SPAN_MASK = 15;

    /**
     * The last of a hint's addresses: lines in a row (a port's send fields), fetched all at
     * once, so that the event does not wait on the first line it reads, then on the next.
     * @param start the first line's address (16-byte aligned at least, as malloc's blocks are)
     * @param lines how many lines, 1 to 16
     * @return the hint
     */
    static const void* SpanHint(const void* start, uint32_t lines)
    {
        NS_ASSERT_MSG(lines >= 1 && lines <= SPAN_MASK + 1, "a span of 1 to 16 lines");
        NS_ASSERT_MSG((reinterpret_cast<uintptr_t>(start) & SPAN_MASK) == 0, "an aligned span");
        return reinterpret_cast<const void*>(reinterpret_cast<uintptr_t>(start) |
                                             ((lines - 1) & SPAN_MASK));
    }

    /**
     * Name what the next event inserted will read first (a frame's slot in its queue, its
     * packet, its port), to be fetched into the cache while the event before it runs: at
     * fabric scale a port's state and its frames have left the core's caches by the time they
     * are next used. The addresses are read from @p hints, an array of HINTS that the caller
     * keeps up to date and readable for as long as the event is queued, cancelled or not (the
     * event object's own: ReusableEvent::Hints, as an ArrivalQueue and a port's transmit
     * completion use it, or a hinted ReusableTimer's, which the simulator keeps while it is
     * queued); it is itself fetched two events ahead and read one event ahead, so that the entry
     * stays small (a pointer, not HINTS of them: a2a128 holds some 10^5 pending timers). Only a
     * hint: an address may be stale, or null, and no event's result depends on it. It has no effect
     * unless a CanonicalScheduler is installed.
     * @param hints the addresses
     */
    static void HintNextEvent(const void* const* hints)
    {
        s_nextHints = hints;
    }

    /**
     * Mark the next event inserted as one that InterconnectSimulatorImpl may run without
     * EventImpl::Invoke (an InterconnectEvent: LastWasDirect says so when it is removed).
     */
    static void MarkNextDirect()
    {
        s_nextDirect = true;
    }

    /// @return whether the event RemoveNext returned last was marked with MarkNextDirect
    bool LastWasDirect() const
    {
        return m_lastDirect;
    }

    /// @return whether a CanonicalScheduler exists (then KeyNextEvent matters)
    static bool IsActive();

    void Insert(const Event& ev) override;

    /**
     * Insert's work from the event's fields, which InterconnectSimulatorImpl calls directly:
     * the entry is written in its place field by field, never built first and copied (a copy
     * of one built on the stack reads it back in 16-byte loads that its narrower stores cannot
     * forward to, so that each waits for every store before it to reach the cache, at k=16 some
     * of them to lines not in the cache; bench/profile.sh put 14.6 ns a packet-hop of
     * perm1024's loop on that copy, doc/performance-log.rst).
     * @param ts its time step
     * @param context its node
     * @param uid its uid
     * @param impl the event
     */
    void Insert(uint64_t ts, uint32_t context, uint32_t uid, EventImpl* impl);

    bool IsEmpty() const override
    {
        return m_size == 0;
    }

    Event PeekNext() const override;

    /// (Inline while the run holds the next event: InterconnectSimulatorImpl calls it directly.)
    Event RemoveNext() override
    {
        auto& run = m_run;
        if (!m_unsorted.empty() || run.empty())
        {
            PeekNext(); // merge or take a bucket: the next event is the run's last
        }
        const Entry& e = run.back();
        Event ev;
        ev.impl = e.impl;
        ev.key.m_ts = e.ts;
        ev.key.m_uid = e.uid;
        ev.key.m_context = static_cast<uint32_t>(e.where >> 32);
        m_lastDirect = e.direct != 0;
        run.pop_back();
        --m_size;
        // The next two events' objects, and what the next one was scheduled saying it reads
        // first (HintNextEvent), fetched while this one runs: at k=16 the state an event
        // touches has mostly left the core's caches since it last ran. perm1024, runs paired in
        // time with the code before (bench/paired.sh): the objects alone 1.07 times the
        // packet-hops per CPU-second (median of 21 pairs); the arrivals' hints, with the frames
        // in flight kept by their sender, 1.16 times more (6 pairs, 1.00-1.28). Reading through
        // an object not yet fetched, to fetch what it names, made the loop wait for it (0.91-0.93
        // times), so a hint's array is read only when it was fetched a step before; the four
        // addresses in each entry instead were 1.03 times as fast but took a2a128's peak RSS
        // from 61.8 to 65.4 MB (62.7 MB so). A run that empties is refilled now, so that its
        // next event is fetched too (18% of perm1024's events came first in a run, unfetched).
        if (run.empty() && m_size > 0)
        {
            Refill();
        }
        const std::size_t n = run.size();
        if (n >= 1)
        {
            const Entry& next = run[n - 1];
            __builtin_prefetch(next.impl);
            if (next.hints != nullptr)
            {
                if (next.impl == m_fetched) // (the array is the event's: readable)
                {
                    for (std::size_t i = 0; i + 1 < HINTS; ++i)
                    {
                        __builtin_prefetch(next.hints[i]); // (the array came in a step ago)
                    }
                    FetchSpan(next.hints[HINTS - 1]);
                }
                else
                {
                    __builtin_prefetch(next.hints);
                }
            }
            m_fetched = nullptr;
            if (n >= 2)
            {
                const Entry& after = run[n - 2];
                __builtin_prefetch(after.impl);
                if (after.hints != nullptr)
                {
                    __builtin_prefetch(after.hints);
                    // (Its last address too: a caller's array that is not within one line
                    // straddles two; a ReusableEvent's is within its object's one line.)
                    __builtin_prefetch(after.hints + HINTS - 1);
                    m_fetched = after.impl;
                }
            }
        }
        return ev;
    }

    void Remove(const Event& ev) override;

    /// @return how many runs of one time were sorted in the radix sort (SortOneTime), not by
    ///         std::sort (for tests and tools)
    uint64_t GetRadixSortedRuns() const
    {
        return m_radixSorted;
    }

  private:
    /**
     * Fetch the lines of a span hint (SpanHint), if any. Always inlined: GCC (12) finds a
     * function whose only effect is __builtin_prefetch free of side effects, and deletes the
     * call when it is not inlined first, so that no span was ever fetched (the test
     * scheduler.span-hints-fetched-in-the-built-code reads the built code).
     * @param hint the hint, or null
     */
    __attribute__((always_inline)) static void FetchSpan(const void* hint)
    {
        const auto span = reinterpret_cast<uintptr_t>(hint);
        const char* line = reinterpret_cast<const char*>(span & ~SPAN_MASK);
        if (line == nullptr)
        {
            return;
        }
        switch (span & SPAN_MASK) // (unrolled: a loop cost as many instructions as the fetches)
        {
        case 15:
            __builtin_prefetch(line + 15 * 64);
            [[fallthrough]];
        case 14:
            __builtin_prefetch(line + 14 * 64);
            [[fallthrough]];
        case 13:
            __builtin_prefetch(line + 13 * 64);
            [[fallthrough]];
        case 12:
            __builtin_prefetch(line + 12 * 64);
            [[fallthrough]];
        case 11:
            __builtin_prefetch(line + 11 * 64);
            [[fallthrough]];
        case 10:
            __builtin_prefetch(line + 10 * 64);
            [[fallthrough]];
        case 9:
            __builtin_prefetch(line + 9 * 64);
            [[fallthrough]];
        case 8:
            __builtin_prefetch(line + 8 * 64);
            [[fallthrough]];
        case 7:
            __builtin_prefetch(line + 7 * 64);
            [[fallthrough]];
        case 6:
            __builtin_prefetch(line + 6 * 64);
            [[fallthrough]];
        case 5:
            __builtin_prefetch(line + 5 * 64);
            [[fallthrough]];
        case 4:
            __builtin_prefetch(line + 4 * 64);
            [[fallthrough]];
        case 3:
            __builtin_prefetch(line + 3 * 64);
            [[fallthrough]];
        case 2:
            __builtin_prefetch(line + 2 * 64);
            [[fallthrough]];
        case 1:
            __builtin_prefetch(line + 64);
            [[fallthrough]];
        default:
            __builtin_prefetch(line);
        }
    }

    /// One queued event and its sort key.
    struct Entry
    {
        /// Uninitialized where default-initialized (a chunk's free entries), zeroed where
        /// value-initialized (a vector's resize)
        Entry() = default;

        /// @param ts time @param where node and device @param order order @param impl event
        /// @param hints its hints @param uid uid @param direct 1: marked with MarkNextDirect
        Entry(uint64_t ts,
              uint64_t where,
              uint64_t order,
              EventImpl* impl,
              const void* const* hints,
              uint32_t uid,
              uint32_t direct)
            : ts(ts),
              where(where),
              order(order),
              impl(impl),
              hints(hints),
              uid(uid),
              direct(direct)
        {
        }

        uint64_t ts;     //!< time
        uint64_t where;  //!< node (context) << 32 | arrivals: receiving device, others: UINT32_MAX
        uint64_t order;  //!< arrivals: sequence; others: insertion order
        EventImpl* impl; //!< the event
        const void* const* hints; //!< what it reads first (HintNextEvent), or null
        uint32_t uid;             //!< ns-3's event uid
        uint32_t direct;          //!< 1: marked with MarkNextDirect (in what was padding)
    };

    /// Later as a function object, which std::sort and std::inplace_merge inline.
    struct LaterOrder
    {
        /// @return Later(a, b) @param a an entry @param b another
        bool operator()(const Entry& a, const Entry& b) const
        {
            return Later(a, b);
        }
    };

    /// Bits per digit of the time (perm128's instructions, whole loop: 2.202 G with 4, 2.187 G
    /// with 6, 2.191 G with 8).
    static constexpr unsigned DIGIT_BITS = 6;
    /// Values of a digit.
    static constexpr std::size_t DIGIT_VALUES = std::size_t{1} << DIGIT_BITS;
    /// Bucket 0 and one per (digit, value).
    static constexpr std::size_t BUCKETS = 1 + ((64 + DIGIT_BITS - 1) / DIGIT_BITS) * DIGIT_VALUES;
    /// A bucket of at most this many events becomes the run whole when it is the lowest
    /// (perm128: 2.209 G instructions with 8, 2.202 G with 16, 2.211 G with 32, digits of 4 bits).
    static constexpr std::size_t RUN_MAX = 16;
    /// Words of the mask of non-empty buckets (bucket b > 0 is bit b - 1).
    static constexpr std::size_t MASK_WORDS = (BUCKETS - 1 + 63) / 64;

    /// @return whether a runs after b (bucket 0 is sorted on it: the next event last)
    static bool Later(const Entry& a, const Entry& b)
    {
        return Later(a.ts, a.where, a.order, b);
    }

    /**
     * @param ts a time @param where a node and device @param order an order
     * @param b an entry
     * @return whether an entry of that key runs after b
     */
    static bool Later(uint64_t ts, uint64_t where, uint64_t order, const Entry& b)
    {
        if (ts != b.ts)
        {
            return ts > b.ts;
        }
        if (where != b.where)
        {
            return where > b.where;
        }
        return order > b.order;
    }

    /**
     * @param ts a time at or after m_last
     * @return its bucket: 0 for m_last itself, else 1 + 64 l + d, where the l-th digit of 6 bits
     * (from the lowest) is the highest in which ts differs from m_last, and d is ts's value there
     */
    std::size_t BucketOf(uint64_t ts) const
    {
        const uint64_t differ = ts ^ m_last;
        if (differ == 0)
        {
            return 0;
        }
        const unsigned digit = (63 - static_cast<unsigned>(__builtin_clzll(differ))) / DIGIT_BITS;
        return 1 + digit * DIGIT_VALUES + ((ts >> (digit * DIGIT_BITS)) & (DIGIT_VALUES - 1));
    }

    /// A run of one time this long or longer is sorted by SortOneTime, a shorter one by
    /// std::sort (perm1024's loop: 1.011 times the packet-hops per CPU-second with 64, in 8
    /// rounds alternated with std::sort alone).
    static constexpr std::size_t RADIX_MIN = 64;
    /// SortOneTime gathers a run of up to this many into an array apart (192 KB at most), and
    /// moves a longer one in place.
    static constexpr std::size_t GATHER_MAX = 4096;

    /// Entries per chunk of a bucket: a bucket of one chunk becomes the run whole.
    static constexpr std::size_t CHUNK = RUN_MAX;

    /**
     * A piece of a bucket above 0: buckets are lists of chunks taken from a free list, so that
     * a bucket that fills never moves its entries to a larger array (perm1024: a reallocation
     * every 35 events, 3.4% of the loop's instructions and 5% of its cache misses, when buckets
     * were vectors), and one that empties keeps no array of its largest size.
     */
    struct Chunk
    {
        Chunk* next;          //!< the bucket's older chunk (full), or the free list's next
        Entry entries[CHUNK]; //!< the entries, in no order
    };

    /// Add an entry to a bucket above 0. @param b the bucket @param e the entry
    void Push(std::size_t b, const Entry& e) const
    {
        *PushRoom(b) = e;
    }

    /**
     * Room for one more entry at the end of a bucket above 0, already counted in the bucket
     * (its chunk's count and the mask of non-empty buckets): the caller constructs an entry
     * there at once.
     * @param b the bucket
     * @return the room
     */
    Entry* PushRoom(std::size_t b) const;
    /// Give a chunk back to the free list. @param c the chunk
    void Release(Chunk* c) const;
    /// The run is empty and events wait: take the lowest non-empty bucket.
    void Refill() const;
    /**
     * Sort the run, whose events are all of one time, on their nodes and devices in a radix
     * sort, then on their order where those tie.
     * @return false if a key of node and device would take more than 32 bits (the run is left
     *         as it was, for std::sort)
     */
    bool SortOneTime() const;

    mutable std::vector<Entry> m_run; //!< bucket 0, the run: sorted on Later, the next last
    /// Buckets 1 to BUCKETS - 1: the newest chunk of each (the one being filled), or null.
    mutable std::array<Chunk*, BUCKETS> m_buckets;
    /// Entries in use in each bucket's newest chunk, kept beside the pointer to it: a push
    /// writes the entry without first loading the chunk (a miss when the fabric is large).
    mutable std::array<uint32_t, BUCKETS> m_headUsed;
    mutable Chunk* m_free{nullptr}; //!< chunks not in use
    /// Bit b - 1 is set when bucket b > 0 holds events.
    mutable std::array<uint64_t, MASK_WORDS> m_filled;
    /// Events of the run's span inserted since the last peek that do not run next: merged
    /// into the run at once by the next peek.
    mutable std::vector<Entry> m_unsorted;
    mutable std::vector<uint64_t> m_sortKeys;  //!< SortOneTime's keys and indices
    mutable std::vector<uint64_t> m_sortSpare; //!< the keys of its pass before, then sources
    mutable std::vector<Entry> m_sortEntries;  //!< the run gathered, up to GATHER_MAX
    mutable uint64_t m_radixSorted{0};         //!< see GetRadixSortedRuns
    mutable uint64_t m_last; //!< the run's last time: the buckets hold the later ones
    std::size_t m_size;      //!< events queued
    uint64_t m_inserted;     //!< events inserted so far (the insertion order)
    /// The event after the next, when its hints' array was fetched (RemoveNext).
    const EventImpl* m_fetched{nullptr};
    bool m_lastDirect{false}; //!< see LastWasDirect

    static uint32_t s_instances;           //!< live instances
    static bool s_keyed;                   //!< the next Insert is an arrival
    static uint32_t s_nextDevice;          //!< its device
    static uint64_t s_nextSeq;             //!< its sequence number
    static const void* const* s_nextHints; //!< what it reads first
    static bool s_nextDirect;              //!< it was marked with MarkNextDirect
};

} // namespace ns3

#endif // CANONICAL_SCHEDULER_H
