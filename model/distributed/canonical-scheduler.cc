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
    : m_inserted(0)
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
    // Sift up from the new leaf.
    std::size_t i = m_heap.size();
    m_heap.push_back(e);
    while (i > 0)
    {
        const std::size_t parent = (i - 1) / ARITY;
        if (!Later(m_heap[parent], e))
        {
            break;
        }
        m_heap[i] = m_heap[parent];
        i = parent;
    }
    m_heap[i] = e;
}

void
CanonicalScheduler::SiftDown(std::size_t i)
{
    const std::size_t n = m_heap.size();
    const Entry e = m_heap[i];
    while (true)
    {
        const std::size_t first = ARITY * i + 1;
        if (first >= n)
        {
            break;
        }
        const std::size_t end = std::min(first + ARITY, n);
        std::size_t next = first;
        for (std::size_t c = first + 1; c < end; ++c)
        {
            if (Later(m_heap[next], m_heap[c]))
            {
                next = c;
            }
        }
        if (!Later(e, m_heap[next]))
        {
            break;
        }
        m_heap[i] = m_heap[next];
        i = next;
    }
    m_heap[i] = e;
}

bool
CanonicalScheduler::IsEmpty() const
{
    return m_heap.empty();
}

Scheduler::Event
CanonicalScheduler::PeekNext() const
{
    NS_ASSERT(!m_heap.empty());
    const Entry& e = m_heap.front();
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
    Event ev = PeekNext();
    m_heap.front() = m_heap.back();
    m_heap.pop_back();
    if (!m_heap.empty())
    {
        SiftDown(0);
    }
    return ev;
}

void
CanonicalScheduler::Remove(const Event& ev)
{
    // Rare (Simulator::Remove): a linear search for the event, then the heap rebuilt.
    auto it = std::find_if(m_heap.begin(), m_heap.end(), [&ev](const Entry& e) {
        return e.impl == ev.impl && e.uid == ev.key.m_uid;
    });
    NS_ASSERT_MSG(it != m_heap.end(), "CanonicalScheduler::Remove: no such event");
    m_heap.erase(it);
    for (std::size_t i = m_heap.size() / ARITY + 1; i-- > 0;)
    {
        if (i < m_heap.size())
        {
            SiftDown(i);
        }
    }
}

} // namespace ns3
