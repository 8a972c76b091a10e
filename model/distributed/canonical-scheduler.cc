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
#include <new>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CanonicalScheduler");

NS_OBJECT_ENSURE_REGISTERED(CanonicalScheduler);

uint32_t CanonicalScheduler::s_instances = 0;
bool CanonicalScheduler::s_keyed = false;
uint32_t CanonicalScheduler::s_nextDevice = 0;
uint64_t CanonicalScheduler::s_nextSeq = 0;
const void* const* CanonicalScheduler::s_nextHints = nullptr;
bool CanonicalScheduler::s_nextDirect = false;

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
    : m_buckets{},
      m_headUsed{},
      m_filled{},
      m_last(0),
      m_size(0),
      m_inserted(0)
{
    NS_LOG_FUNCTION(this);
    ++s_instances;
    // (A hint named while no CanonicalScheduler was installed, never taken by an insert, may
    // name an array gone since: the first event inserted here must not take it.)
    s_nextHints = nullptr;
    s_nextDirect = false;
}

CanonicalScheduler::~CanonicalScheduler()
{
    NS_LOG_FUNCTION(this);
    --s_instances;
    s_keyed = false;
    for (Chunk* list : m_buckets)
    {
        while (list)
        {
            Chunk* c = list;
            list = c->next;
            delete c;
        }
    }
    while (m_free)
    {
        Chunk* c = m_free;
        m_free = c->next;
        delete c;
    }
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
    Insert(ev.key.m_ts, ev.key.m_context, ev.key.m_uid, ev.impl);
}

void
CanonicalScheduler::Insert(uint64_t ts, uint32_t context, uint32_t uid, EventImpl* impl)
{
    const uint64_t node = uint64_t{context} << 32;
    uint64_t where = node | std::numeric_limits<uint32_t>::max();
    uint64_t order = m_inserted++;
    if (s_keyed)
    {
        s_keyed = false;
        where = node | s_nextDevice;
        order = s_nextSeq;
    }
    const void* const* hints = s_nextHints;
    const uint32_t direct = s_nextDirect ? 1 : 0;
    s_nextHints = nullptr;
    s_nextDirect = false;
    if (ts > m_last)
    {
        new (PushRoom(BucketOf(ts))) Entry(ts, where, order, impl, hints, uid, direct);
    }
    // The run's span (an event for now, or one between two of the run's times). The run is
    // sorted, the next event last; an event that does not run next waits aside until the next
    // peek merges all of them in at once: one insert in place each would move the run each
    // time, and a collective posts thousands of messages at the current time from one event.
    else if (!m_run.empty() && Later(ts, where, order, m_run.back()))
    {
        m_unsorted.emplace_back(ts, where, order, impl, hints, uid, direct);
    }
    else
    {
        m_run.emplace_back(ts, where, order, impl, hints, uid, direct); // the new next event
    }
    ++m_size;
}

CanonicalScheduler::Entry*
CanonicalScheduler::PushRoom(std::size_t b) const
{
    Chunk* head = m_buckets[b];
    uint32_t& used = m_headUsed[b];
    if (head == nullptr || used == CHUNK)
    {
        Chunk* c = m_free;
        if (c)
        {
            m_free = c->next;
        }
        else
        {
            c = new Chunk;
        }
        c->next = head;
        used = 0;
        m_buckets[b] = c;
        head = c;
        m_filled[(b - 1) / 64] |= uint64_t{1} << ((b - 1) % 64);
    }
    return &head->entries[used++];
}

void
CanonicalScheduler::Release(Chunk* c) const
{
    c->next = m_free;
    m_free = c;
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
    Chunk* list = m_buckets[b];
    const std::size_t headUsed = m_headUsed[b];
    m_buckets[b] = nullptr;
    // Every entry of bucket b is before every entry of the buckets above it. A few (one chunk)
    // become the run whole, m_last their latest time; more are spread over the digits below
    // b's around their earliest time, which becomes m_last with the run of its events. Either
    // way the new m_last has the old one's digits above b's and b's value in b's digit, so the
    // buckets above keep their entries.
    if (list->next == nullptr)
    {
        uint64_t latest = 0;
        for (std::size_t i = 0; i < headUsed; ++i)
        {
            latest = std::max(latest, list->entries[i].ts);
        }
        m_last = latest;
        m_run.assign(list->entries, list->entries + headUsed);
        Release(list);
    }
    else
    {
        uint64_t earliest = std::numeric_limits<uint64_t>::max();
        std::size_t used = headUsed; // (the chunks after the newest are full)
        for (const Chunk* c = list; c; c = c->next, used = CHUNK)
        {
            for (std::size_t i = 0; i < used; ++i)
            {
                earliest = std::min(earliest, c->entries[i].ts);
            }
        }
        m_last = earliest;
        used = headUsed;
        while (list)
        {
            Chunk* c = list;
            list = c->next;
            for (std::size_t i = 0; i < used; ++i)
            {
                const Entry& e = c->entries[i];
                const std::size_t to = BucketOf(e.ts);
                if (to == 0)
                {
                    m_run.push_back(e);
                }
                else
                {
                    Push(to, e);
                }
            }
            Release(c); // (after its entries moved: Push may take chunks from the free list)
            used = CHUNK;
        }
        if (m_run.size() >= RADIX_MIN && SortOneTime())
        {
            return;
        }
    }
    std::sort(m_run.begin(), m_run.end(), LaterOrder{});
}

bool
CanonicalScheduler::SortOneTime() const
{
    // The run's events are all of one time (m_last): their order is that of (node, device,
    // order), the device of a node's own events (UINT32_MAX) after all of its links. Node and
    // device, made one key of as few bits as the run's largest of them need, are sorted on
    // with a least-significant-digit radix sort, a byte a pass (stable); ties, a node's own
    // events or a link's frames of one time, then on their order. std::sort's comparisons of
    // such runs are branches no predictor learns (a k=16 fat-tree's frames move in step: runs
    // of a thousand events or more).
    auto& run = m_run;
    const std::size_t n = run.size();
    uint32_t maxNode = 0;
    uint32_t maxDevice = 0;
    for (const Entry& e : run)
    {
        NS_ASSERT(e.ts == m_last);
        maxNode = std::max(maxNode, static_cast<uint32_t>(e.where >> 32));
        const auto device = static_cast<uint32_t>(e.where);
        if (device != std::numeric_limits<uint32_t>::max())
        {
            maxDevice = std::max(maxDevice, device);
        }
    }
    // (Devices 0 to maxDevice, a node's own events maxDevice + 1.)
    const auto bitsOf = [](uint64_t v) {
        return v == 0 ? 0U : 64U - static_cast<unsigned>(__builtin_clzll(v));
    };
    const unsigned deviceBits = bitsOf(uint64_t{maxDevice} + 1);
    const unsigned keyBits = bitsOf(maxNode) + deviceBits;
    if (keyBits > 32 || n > std::numeric_limits<uint32_t>::max())
    {
        return false; // (std::sort's)
    }
    auto& keys = m_sortKeys; // key << 32 | the entry's index
    auto& spare = m_sortSpare;
    keys.resize(n);
    spare.resize(n);
    for (std::size_t i = 0; i < n; ++i)
    {
        const auto device = static_cast<uint32_t>(run[i].where);
        const uint64_t low =
            device == std::numeric_limits<uint32_t>::max() ? uint64_t{maxDevice} + 1 : device;
        const uint64_t key = ((run[i].where >> 32) << deviceBits) | low;
        keys[i] = (key << 32) | i;
    }
    for (unsigned shift = 32; shift < 32 + keyBits; shift += 8)
    {
        std::array<uint32_t, 257> start{}; // (start[d + 1] counts digit d, then where d starts)
        for (const uint64_t k : keys)
        {
            ++start[((k >> shift) & 0xFF) + 1];
        }
        for (std::size_t d = 1; d < start.size(); ++d)
        {
            start[d] += start[d - 1];
        }
        for (const uint64_t k : keys)
        {
            spare[start[(k >> shift) & 0xFF]++] = k;
        }
        keys.swap(spare);
    }
    // Into the run's order (the next event last). A run of up to GATHER_MAX is gathered into
    // an array apart and copied back (its loads independent of each other); a longer one is
    // moved in place, place d taking the entry at source[d], cycle by cycle (an entry apart for
    // each cycle: each load waits for the one before, 0.98 times perm1024's speed in 30 rounds
    // had every run been moved so), so that no second array as long as the longest run is held
    // (a2a128's start holds runs of thousands: its peak RSS 1.5 MB more with one).
    if (n <= GATHER_MAX)
    {
        auto& gathered = m_sortEntries;
        gathered.resize(n);
        for (std::size_t j = 0; j < n; ++j)
        {
            gathered[n - 1 - j] = run[static_cast<uint32_t>(keys[j])];
        }
        std::copy(gathered.begin(), gathered.end(), run.begin());
    }
    else
    {
        auto& source = spare; // (the last pass's spare keys)
        for (std::size_t j = 0; j < n; ++j)
        {
            source[n - 1 - j] = static_cast<uint32_t>(keys[j]);
        }
        constexpr uint64_t PLACED = std::numeric_limits<uint64_t>::max();
        for (std::size_t d = 0; d < n; ++d)
        {
            if (source[d] == PLACED || source[d] == d)
            {
                continue;
            }
            const Entry apart = run[d];
            std::size_t to = d;
            while (source[to] != d)
            {
                const auto from = static_cast<std::size_t>(source[to]);
                run[to] = run[from];
                source[to] = PLACED;
                to = from;
            }
            run[to] = apart;
            source[to] = PLACED;
        }
    }
    // Then each group of one key on its order.
    for (std::size_t first = 0; first < n;)
    {
        std::size_t end = first + 1;
        while (end < n && (keys[end] >> 32) == (keys[first] >> 32))
        {
            ++end;
        }
        if (end - first > 1)
        {
            std::sort(run.begin() + static_cast<std::ptrdiff_t>(n - end),
                      run.begin() + static_cast<std::ptrdiff_t>(n - first),
                      LaterOrder{});
        }
        first = end;
    }
    ++m_radixSorted;
    return true;
}

Scheduler::Event
CanonicalScheduler::PeekNext() const
{
    NS_ASSERT(m_size > 0);
    if (!m_unsorted.empty())
    {
        // Events of the run's span that came aside: sorted once, merged in from the run's
        // next end, each place filled with the earlier of the two sequences' next entries (the
        // run's free places are all ahead of its entries still to move). std::inplace_merge
        // took a buffer from the heap for each merge: on incast64 one in 22 events, 4 M of its
        // 449 M instructions with the merge.
        auto& run = m_run;
        std::sort(m_unsorted.begin(), m_unsorted.end(), LaterOrder{});
        std::size_t i = run.size();
        std::size_t j = m_unsorted.size();
        run.insert(run.end(), m_unsorted.begin(), m_unsorted.end()); // (places; overwritten)
        for (std::size_t to = i + j; j > 0;)
        {
            --to;
            if (i > 0 && Later(m_unsorted[j - 1], run[i - 1]))
            {
                run[to] = run[--i];
            }
            else
            {
                run[to] = m_unsorted[--j];
            }
        }
        m_unsorted.clear();
    }
    if (m_run.empty())
    {
        Refill();
    }
    const Entry& e = m_run.back();
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
    const auto same = [&ev](const Entry& e) { return e.impl == ev.impl && e.uid == ev.key.m_uid; };
    for (auto* vector : {&m_run, &m_unsorted})
    {
        auto it = std::find_if(vector->begin(), vector->end(), same);
        if (it != vector->end())
        {
            vector->erase(it); // (the run stays sorted)
            --m_size;
            return;
        }
    }
    for (std::size_t b = 1; b < BUCKETS; ++b)
    {
        Chunk* head = m_buckets[b];
        std::size_t used = m_headUsed[b];
        for (Chunk* c = head; c; c = c->next, used = CHUNK)
        {
            Entry* it = std::find_if(c->entries, c->entries + used, same);
            if (it == c->entries + used)
            {
                continue;
            }
            // (A bucket's entries are in no order, and only its newest chunk is not full.)
            *it = head->entries[--m_headUsed[b]];
            if (m_headUsed[b] == 0)
            {
                m_buckets[b] = head->next;
                m_headUsed[b] = head->next ? CHUNK : 0;
                Release(head);
                if (m_buckets[b] == nullptr)
                {
                    m_filled[(b - 1) / 64] &= ~(uint64_t{1} << ((b - 1) % 64));
                }
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
