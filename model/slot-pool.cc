/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "slot-pool.h"

#include "ns3/abort.h"

#include <algorithm>
#include <new>

namespace ns3
{

SlotPool::SlotPool(std::size_t slotSize, std::size_t slotsPerBlock)
    : m_slotSize(slotSize),
      m_slotsPerBlock(slotsPerBlock),
      // (The largest power of two that divides the slot, up to a page: every slot of a block
      // so aligned is aligned as its first.)
      m_blockAlign(std::min<std::size_t>(slotSize & (~slotSize + 1), 4096))
{
    NS_ABORT_MSG_UNLESS(slotSize % 64 == 0 && slotSize > 0 && slotsPerBlock > 0 &&
                            slotsPerBlock <= (std::size_t{1} << 30) / slotSize,
                        "SlotPool: slots of whole cache lines, at least one a block and at most "
                        "1 GB a block (slot "
                            << slotSize << " bytes, " << slotsPerBlock << " a block)");
}

SlotPool::~SlotPool()
{
    for (void* block : m_blocks)
    {
        ::operator delete(block, std::align_val_t(m_blockAlign));
    }
}

void*
SlotPool::Allocate(std::size_t size)
{
    if (size > m_slotSize)
    {
        return ::operator new(size, std::align_val_t(m_blockAlign));
    }
    if (m_free == nullptr)
    {
        // A new block, its slots in the list in address order.
        m_blocks.push_back(nullptr); // (first: the block is not lost if this throws)
        const std::size_t blockBytes = m_slotsPerBlock * m_slotSize;
        auto* block =
            static_cast<char*>(::operator new(blockBytes, std::align_val_t(m_blockAlign)));
        m_blocks.back() = block;
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
        ::operator delete(object, std::align_val_t(m_blockAlign));
        return;
    }
    auto* slot = static_cast<FreeSlot*>(object);
    slot->next = m_free;
    m_free = slot;
}

} // namespace ns3
