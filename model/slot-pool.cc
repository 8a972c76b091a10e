/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "slot-pool.h"

#include "ns3/abort.h"

#include <new>

namespace ns3
{

SlotPool::SlotPool(std::size_t slotSize, std::size_t slotsPerBlock)
    : m_slotSize(slotSize),
      m_slotsPerBlock(slotsPerBlock)
{
    NS_ABORT_MSG_UNLESS(slotSize % 64 == 0 && slotSize >= sizeof(FreeSlot) && slotsPerBlock > 0,
                        "SlotPool: slots of whole cache lines, at least one a block (slot "
                            << slotSize << " bytes, " << slotsPerBlock << " a block)");
}

void*
SlotPool::Allocate(std::size_t size)
{
    if (size > m_slotSize)
    {
        return ::operator new(size, std::align_val_t(64));
    }
    if (m_free == nullptr)
    {
        // A new block, its slots in the list in address order.
        auto* block =
            static_cast<char*>(::operator new(m_slotsPerBlock* m_slotSize, std::align_val_t(64)));
        for (std::size_t i = m_slotsPerBlock; i-- > 0;)
        {
            auto* slot = reinterpret_cast<FreeSlot*>(block + i * m_slotSize);
            slot->next = m_free;
            m_free = slot;
        }
    }
    FreeSlot* slot = m_free;
    m_free = slot->next;
    return slot;
}

void
SlotPool::Free(void* object, std::size_t size)
{
    if (size > m_slotSize)
    {
        ::operator delete(object, std::align_val_t(64));
        return;
    }
    auto* slot = static_cast<FreeSlot*>(object);
    slot->next = m_free;
    m_free = slot;
}

} // namespace ns3
