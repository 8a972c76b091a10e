/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CANONICAL_SCHEDULER_H
#define CANONICAL_SCHEDULER_H

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
 * The queue is a radix heap on the time (Ahuja et al., J. ACM 1990): bucket b > 0 holds the
 * events whose time differs from the last time taken first in bit b - 1, and bucket 0 the
 * events of that time, sorted on the whole key with the next one last. When bucket 0 runs
 * dry, the lowest non-empty bucket is spread over the buckets below it around its earliest
 * time, and the new bucket 0 is sorted once (a fat-tree's frames move in step: it holds tens of
 * events at a time, where popping them one by one from a binary heap cost 6% more
 * instructions on an all-to-all). Events for the current time join it at the end if they run
 * next, else wait aside until the next peek sorts and merges them in together (a collective
 * posts thousands of messages at once). As every event's key is distinct, the order does not
 * depend on the structure.
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

    /// @return whether a CanonicalScheduler exists (then KeyNextEvent matters)
    static bool IsActive();

    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

  private:
    /// One queued event and its sort key.
    struct Entry
    {
        uint64_t ts;     //!< time
        uint64_t where;  //!< node (context) << 32 | arrivals: receiving device, others: UINT32_MAX
        uint64_t order;  //!< arrivals: sequence; others: insertion order
        EventImpl* impl; //!< the event
        uint32_t uid;    //!< ns-3's event uid
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

    /// Buckets: bucket b > 0 holds times whose highest bit differing from m_last is bit b - 1.
    static constexpr std::size_t BUCKETS = 65;

    /// @return whether a runs after b (bucket 0 is sorted on it: the next event last)
    static bool Later(const Entry& a, const Entry& b)
    {
        if (a.ts != b.ts)
        {
            return a.ts > b.ts;
        }
        if (a.where != b.where)
        {
            return a.where > b.where;
        }
        return a.order > b.order;
    }

    /**
     * @param ts a time at or after m_last
     * @return its bucket
     */
    std::size_t BucketOf(uint64_t ts) const
    {
        return ts == m_last ? 0 : 64 - static_cast<std::size_t>(__builtin_clzll(ts ^ m_last));
    }

    /// Put an entry in its bucket. @param e the entry
    void Place(const Entry& e);
    /// Bucket 0 is empty and events wait: spread the lowest non-empty bucket.
    void Refill() const;
    /// An entry before m_last came: the buckets again around its time. @param ts its time
    void Rebase(uint64_t ts);

    mutable std::array<std::vector<Entry>, BUCKETS> m_buckets; //!< bucket 0: sorted on Later
    /// Events of bucket 0's time inserted since the last peek that do not run next: merged
    /// into bucket 0 at once by the next peek.
    mutable std::vector<Entry> m_unsorted;
    mutable uint64_t m_last; //!< the time the buckets are relative to: the last one taken
    std::size_t m_size;      //!< events queued
    uint64_t m_inserted;     //!< events inserted so far (the insertion order)

    static uint32_t s_instances;  //!< live instances
    static bool s_keyed;          //!< the next Insert is an arrival
    static uint32_t s_nextDevice; //!< its device
    static uint64_t s_nextSeq;    //!< its sequence number
};

} // namespace ns3

#endif // CANONICAL_SCHEDULER_H
