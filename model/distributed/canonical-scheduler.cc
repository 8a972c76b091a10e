/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "canonical-scheduler.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/event-impl.h"
#include "ns3/log.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CanonicalScheduler");

NS_OBJECT_ENSURE_REGISTERED(CanonicalScheduler);

uint32_t CanonicalScheduler::s_instances = 0;
bool CanonicalScheduler::s_keyed = false;
uint32_t CanonicalScheduler::s_nextDevice = 0;
uint64_t CanonicalScheduler::s_nextSeq = 0;
const void* const* CanonicalScheduler::s_nextHints = nullptr;

TypeId
CanonicalScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CanonicalScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("Interconnect")
                            .AddConstructor<CanonicalScheduler>();
    return tid;
}

CanonicalScheduler::CanonicalScheduler()
    : m_filled{},
      m_last(0),
      m_size(0),
      m_inserted(0)
{
    NS_LOG_FUNCTION(this);
    ++s_instances;
}

CanonicalScheduler::~CanonicalScheduler()
{
    NS_LOG_FUNCTION(this);
    --s_instances;
    s_keyed = false;
}

void
CanonicalScheduler::KeyNextEvent(uint32_t device, uint64_t sequence)
{
    NS_ASSERT(device != std::numeric_limits<uint32_t>::max());
    s_keyed = s_instances > 0;
    s_nextDevice = device;
    s_nextSeq = sequence;
}

bool
CanonicalScheduler::IsActive()
{
    return s_instances > 0;
}

void
CanonicalScheduler::Insert(const Event& ev)
{
    const uint64_t node = uint64_t{ev.key.m_context} << 32;
    Entry e{ev.key.m_ts,
            node | std::numeric_limits<uint32_t>::max(),
            m_inserted++,
            ev.impl,
            s_nextHints,
            ev.key.m_uid};
    s_nextHints = nullptr;
    if (s_keyed)
    {
        s_keyed = false;
        e.where = node | s_nextDevice;
        e.order = s_nextSeq;
    }
    Place(e);
    ++m_size;
}

void
CanonicalScheduler::Place(const Entry& e)
{
    if (e.ts <= m_last)
    {
        // The run's span (an event for now, or one between two of the run's times). The run
        // is sorted, the next event last; an event that does not run next waits aside until
        // the next peek merges all of them in at once: one insert in place each would move the
        // run each time, and a collective posts thousands of messages at the current time
        // from one event.
        auto& run = m_buckets[0];
        if (!run.empty() && Later(e, run.back()))
        {
            m_unsorted.push_back(e);
            return;
        }
        run.push_back(e); // the new next event
        return;
    }
    const std::size_t b = BucketOf(e.ts);
    m_buckets[b].push_back(e);
    m_filled[(b - 1) / 64] |= uint64_t{1} << ((b - 1) % 64);
}

void
CanonicalScheduler::Refill() const
{
    std::size_t word = 0;
    while (m_filled[word] == 0)
    {
        ++word;
    }
    const std::size_t b = 1 + word * 64 + static_cast<std::size_t>(__builtin_ctzll(m_filled[word]));
    m_filled[word] &= m_filled[word] - 1; // bucket b empties
    auto& from = m_buckets[b];
    auto& run = m_buckets[0];
    // Every entry of bucket b is before every entry of the buckets above it. A few become the
    // run whole, m_last their latest time; more are spread over the digits below b's around
    // their earliest time, which becomes m_last with the run of its events. Either way the new
    // m_last has the old one's digits above b's and b's value in b's digit, so the buckets
    // above keep their entries.
    if (from.size() <= RUN_MAX)
    {
        uint64_t latest = 0;
        for (const Entry& e : from)
        {
            latest = std::max(latest, e.ts);
        }
        m_last = latest;
        run.swap(from);
    }
    else
    {
        uint64_t earliest = std::numeric_limits<uint64_t>::max();
        for (const Entry& e : from)
        {
            earliest = std::min(earliest, e.ts);
        }
        m_last = earliest;
        for (const Entry& e : from)
        {
            const std::size_t to = BucketOf(e.ts);
            m_buckets[to].push_back(e);
            if (to != 0)
            {
                m_filled[(to - 1) / 64] |= uint64_t{1} << ((to - 1) % 64);
            }
        }
        from.clear();
    }
    if (from.capacity() > RUN_MAX * 4)
    {
        // A bucket that held many events (high digits, rarely taken) gives its memory back: the
        // buckets' capacities would otherwise add up to several times the events queued.
        std::vector<Entry>().swap(from);
    }
    std::sort(run.begin(), run.end(), LaterOrder{});
}

Scheduler::Event
CanonicalScheduler::PeekNext() const
{
    NS_ASSERT(m_size > 0);
    if (!m_unsorted.empty())
    {
        // Events of the run's span that came aside: sorted once, merged in.
        auto& now = m_buckets[0];
        std::sort(m_unsorted.begin(), m_unsorted.end(), LaterOrder{});
        const auto sorted = static_cast<std::ptrdiff_t>(now.size());
        now.insert(now.end(), m_unsorted.begin(), m_unsorted.end());
        std::inplace_merge(now.begin(), now.begin() + sorted, now.end(), LaterOrder{});
        m_unsorted.clear();
    }
    if (m_buckets[0].empty())
    {
        Refill();
    }
    const Entry& e = m_buckets[0].back();
    Event ev;
    ev.impl = e.impl;
    ev.key.m_ts = e.ts;
    ev.key.m_uid = e.uid;
    ev.key.m_context = static_cast<uint32_t>(e.where >> 32);
    return ev;
}

void
CanonicalScheduler::Remove(const Event& ev)
{
    // Rare (Simulator::Remove): a linear search for the event.
    for (std::size_t b = 0; b <= BUCKETS; ++b)
    {
        auto& bucket = b < BUCKETS ? m_buckets[b] : m_unsorted;
        auto it = std::find_if(bucket.begin(), bucket.end(), [&ev](const Entry& e) {
            return e.impl == ev.impl && e.uid == ev.key.m_uid;
        });
        if (it != bucket.end())
        {
            bucket.erase(it); // (bucket 0 stays sorted)
            if (b != 0 && b < BUCKETS && bucket.empty())
            {
                m_filled[(b - 1) / 64] &= ~(uint64_t{1} << ((b - 1) % 64));
            }
            --m_size;
            return;
        }
    }
    // (Simulator::Remove found the event pending by EventId::IsExpired, which judges an event
    // of the current time by its uid; this scheduler's order is not the uids', so it may have
    // run. Going on would release it twice.)
    NS_ABORT_MSG("CanonicalScheduler::Remove: event " << ev.key.m_uid << " at time step "
                                                      << ev.key.m_ts
                                                      << " is not queued: it has run already "
                                                         "(cancel a timer of the current time "
                                                         "with EventId::Cancel instead)");
}

} // namespace ns3
