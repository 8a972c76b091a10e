/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "canonical-scheduler.h"

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
    : m_last(0),
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
            ev.key.m_uid};
    if (s_keyed)
    {
        s_keyed = false;
        e.where = node | s_nextDevice;
        e.order = s_nextSeq;
    }
    if (e.ts < m_last)
    {
        Rebase(e.ts);
    }
    Place(e);
    ++m_size;
}

void
CanonicalScheduler::Place(const Entry& e)
{
    const std::size_t b = BucketOf(e.ts);
    auto& bucket = m_buckets[b];
    if (b == 0 && !bucket.empty() && Later(e, bucket.back()))
    {
        // Bucket 0 is sorted, the next event last. An event of the current time that does not
        // run next waits aside until the next peek merges all of them in at once: one insert
        // in place each would move the bucket each time, and a collective posts thousands of
        // messages at the current time from one event.
        m_unsorted.push_back(e);
        return;
    }
    bucket.push_back(e); // (bucket 0: the new next event)
}

void
CanonicalScheduler::Refill() const
{
    std::size_t b = 1;
    while (m_buckets[b].empty())
    {
        ++b;
    }
    auto& from = m_buckets[b];
    uint64_t earliest = from.front().ts;
    for (const Entry& e : from)
    {
        earliest = std::min(earliest, e.ts);
    }
    m_last = earliest;
    // Every entry of bucket b goes to a lower one: they share bits above b - 1 with the old
    // m_last, and so with the new one, which is among them.
    for (const Entry& e : from)
    {
        m_buckets[BucketOf(e.ts)].push_back(e);
    }
    from.clear();
    std::sort(m_buckets[0].begin(), m_buckets[0].end(), LaterOrder{});
}

void
CanonicalScheduler::Rebase(uint64_t ts)
{
    std::vector<Entry> all;
    all.reserve(m_size);
    for (auto& bucket : m_buckets)
    {
        all.insert(all.end(), bucket.begin(), bucket.end());
        bucket.clear();
    }
    all.insert(all.end(), m_unsorted.begin(), m_unsorted.end());
    m_unsorted.clear();
    m_last = ts;
    for (const Entry& e : all)
    {
        Place(e);
    }
}

bool
CanonicalScheduler::IsEmpty() const
{
    return m_size == 0;
}

Scheduler::Event
CanonicalScheduler::PeekNext() const
{
    NS_ASSERT(m_size > 0);
    if (!m_unsorted.empty())
    {
        // Events of the current time that came aside: sorted once, merged in.
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

Scheduler::Event
CanonicalScheduler::RemoveNext()
{
    const Event ev = PeekNext();
    m_buckets[0].pop_back();
    --m_size;
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
            --m_size;
            return;
        }
    }
    NS_ASSERT_MSG(false, "CanonicalScheduler::Remove: no such event");
}

} // namespace ns3
