/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef INTERCONNECT_SLOT_POOL_H
#define INTERCONNECT_SLOT_POOL_H

#include <cstddef>
#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief Room for objects of one size, side by side: slots of whole cache lines in blocks of
 * their own, taken in address order and reused last freed first.
 *
 * The objects a packet-hop reads (a port, an event) are made as a fabric is set up, among the
 * thousands of other objects of its nodes (their Internet stacks, traces, callbacks): from the
 * heap, they lie among those objects, a page holding one or two of them, and at k=16 the pages
 * a hop touches were more than address translation reaches (doc/performance-log.rst).
 * From a SlotPool they share pages with each other only. A pool keeps its blocks until it is
 * destroyed (a network's next run reuses their slots); the process's pools (SlotPooled's, the
 * events' and the rings') are never destroyed, so that an object freed as the program exits still
 * has its pool. Not thread-safe, as ns-3's objects are not.
 */
class SlotPool
{
  public:
    /**
     * @param slotSize a slot's bytes: a positive multiple of 64 (checked); a block, and so each
     *        slot, is aligned on the largest power of two that divides it, up to 4096
     * @param slotsPerBlock slots in each block taken from the heap (at least 1)
     */
    SlotPool(std::size_t slotSize, std::size_t slotsPerBlock);
    /// Give the blocks back (every object in them must be gone).
    ~SlotPool();
    SlotPool(const SlotPool&) = delete;
    SlotPool& operator=(const SlotPool&) = delete;

    /**
     * @param size the object's size
     * @return room for it, aligned as a slot is (on a cache line at least): a slot, or (larger
     *         than a slot) room from the heap
     */
    void* Allocate(std::size_t size);

    /**
     * Give back the room Allocate gave.
     * @param object the room
     * @param size the object's size, as given to Allocate
     */
    void Free(void* object, std::size_t size);

  private:
    /// A free slot: the next one, in its first bytes.
    struct FreeSlot
    {
        FreeSlot* next; //!< the next free slot, or null
    };

    std::size_t m_slotSize;      //!< a slot's bytes
    std::size_t m_slotsPerBlock; //!< slots in a block
    std::size_t m_blockAlign;    //!< a block's alignment
    FreeSlot* m_free{nullptr};   //!< the free slots, last freed first
    std::vector<void*> m_blocks; //!< the blocks taken from the heap
};

/**
 * @ingroup interconnect
 * @brief Gives a class's objects room from a SlotPool of their own: a class that a packet-hop
 * reads without its other objects (a port) derives from SlotPooled of itself, and its header
 * declares the instantiation extern, its source file defines it (one pool per class in the
 * process, whoever makes the object). Not for an object read with parts made just after it (a
 * queue pair and its DCQCN, a switch and its buffer accounting): a pool of its class would take
 * it away from their pages.
 *
 * A subclass larger than its base's slots gets room from the heap (SlotPool::Allocate).
 * @tparam T the class
 * @tparam SLOTS_PER_BLOCK objects in a block
 */
template <typename T, std::size_t SLOTS_PER_BLOCK>
class SlotPooled
{
  public:
    /**
     * @param size the object's size
     * @return room for it, from the class's slots
     */
    static void* operator new(std::size_t size);

    /**
     * Give back an object's room.
     * @param object the room
     * @param size the object's size
     */
    static void operator delete(void* object, std::size_t size);

  private:
    /// @return the class's slots: one a whole number of cache lines, of T's size, and of its
    /// alignment when that is more than a line's
    static SlotPool& Slots();
};

template <typename T, std::size_t SLOTS_PER_BLOCK>
void*
SlotPooled<T, SLOTS_PER_BLOCK>::operator new(std::size_t size)
{
    return Slots().Allocate(size);
}

template <typename T, std::size_t SLOTS_PER_BLOCK>
void
SlotPooled<T, SLOTS_PER_BLOCK>::operator delete(void* object, std::size_t size)
{
    Slots().Free(object, size);
}

template <typename T, std::size_t SLOTS_PER_BLOCK>
SlotPool&
SlotPooled<T, SLOTS_PER_BLOCK>::Slots()
{
    constexpr std::size_t align = alignof(T) > 64 ? alignof(T) : 64;
    static_assert(align <= 4096, "slots are aligned on a page at most");
    static SlotPool& slots =
        *new SlotPool((sizeof(T) + align - 1) / align * align, SLOTS_PER_BLOCK);
    return slots;
}

} // namespace ns3

#endif // INTERCONNECT_SLOT_POOL_H
