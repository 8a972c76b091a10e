/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-packet-pool.h"

#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

std::array<RdmaPacketPool::SizeClass, RdmaPacketPool::CLASSES> RdmaPacketPool::s_classes;
bool RdmaPacketPool::s_clearScheduled = false;
bool RdmaPacketPool::s_stampedTails = false;
bool RdmaPacketPool::s_otherRanks = false;
uint64_t RdmaPacketPool::s_clock = 0;
uint64_t RdmaPacketPool::s_taken = 0;

bool
RdmaPacketPool::Give(const Ptr<Packet>& packet)
{
    Packet* p = PeekPointer(packet);
    if (p->GetReferenceCount() != 1 || p->GetNixVector())
    {
        return false;
    }
    const uint32_t size = p->GetSize();
    SizeClass* into = nullptr;
    for (auto& c : s_classes)
    {
        if (c.size == size)
        {
            into = &c;
            break;
        }
        if (into == nullptr || c.used < into->used)
        {
            into = &c; // (one not claimed, used 0, else the least recently used)
        }
    }
    if (into->size != size)
    {
        for (Packet* old : into->packets)
        {
            old->Unref();
        }
        into->packets.clear();
        into->size = size;
        into->made = 0;
    }
    const uint64_t bound =
        s_otherRanks ? CAPACITY
                     : std::min<uint64_t>(MAX_CAPACITY, std::max<uint64_t>(CAPACITY, into->made));
    if (into->packets.size() >= bound)
    {
        return false;
    }
    p->RemoveAllPacketTags();
    p->RemoveAllByteTags();
    ClearAtDestroy();
    into->used = ++s_clock;
    p->Ref();
    into->packets.push_back(p);
    return true;
}

void
RdmaPacketPool::ClearAtDestroy()
{
    if (!s_clearScheduled)
    {
        Simulator::ScheduleDestroy(&RdmaPacketPool::Clear);
        s_clearScheduled = true;
    }
}

void
RdmaPacketPool::Clear()
{
    for (auto& c : s_classes)
    {
        for (Packet* p : c.packets)
        {
            p->Unref();
        }
        c.packets.clear();
        c.size = 0;
        c.used = 0;
        c.made = 0;
    }
    s_clearScheduled = false;
    s_stampedTails = false;
    s_otherRanks = false;
}

std::size_t
RdmaPacketPool::GetSize()
{
    std::size_t n = 0;
    for (const auto& c : s_classes)
    {
        n += c.packets.size();
    }
    return n;
}

} // namespace ns3
