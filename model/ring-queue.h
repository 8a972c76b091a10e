/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef INTERCONNECT_RING_QUEUE_H
#define INTERCONNECT_RING_QUEUE_H

#include <algorithm>
#include <array>
#include <boost/circular_buffer.hpp>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <new>
#include <utility>

namespace ns3
{

/**
 * @ingroup interconnect
 * Room for a ring's slots: a ring of at most RING_POOLED_BYTES shares blocks with other rings
 * of its size class (RingClassBytes; each slot aligned on a cache line: SlotPool), a larger one
 * has a block of the heap.
 * @param bytes the slots' bytes
 * @return the room
 */
void* AllocateRing(std::size_t bytes);

/**
 * @ingroup interconnect
 * Give back the room AllocateRing gave.
 * @param ring the room
 * @param bytes the slots' bytes, as given to AllocateRing
 */
void FreeRing(void* ring, std::size_t bytes);

/// @ingroup interconnect
/// The largest ring that AllocateRing takes from a size class's blocks, in bytes.
constexpr std::size_t RING_POOLED_BYTES = 8192;

/**
 * @ingroup interconnect
 * The size classes of the rings that AllocateRing takes from blocks: whole cache lines, each
 * class from 128 bytes on a half or a third larger than the one before (64, 128, 192, 256, 384,
 * 512, 768, ..., 6144, 8192 bytes), as a ring grows by half (RingQueue).
 * @param bytes a ring's slots' bytes, at most RING_POOLED_BYTES
 * @return the bytes of the least class that holds them
 */
constexpr std::size_t
RingClassBytes(std::size_t bytes)
{
    std::size_t power = 64;
    while (power < bytes)
    {
        if (power >= 128 && power + power / 2 >= bytes)
        {
            return power + power / 2;
        }
        power *= 2;
    }
    return power;
}

/**
 * @ingroup interconnect
 * @brief The allocator of RingQueue's slots (AllocateRing). Not thread-safe, as the pools are
 * the process's.
 * @tparam T the element, aligned as the heap aligns (a larger ring is from it)
 */
template <typename T>
struct RingAllocator
{
    static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__, "the heap's alignment");

    typedef T value_type; //!< what it allocates

    RingAllocator() = default;

    /// From another element type's. @param other the other allocator
    template <typename U>
    RingAllocator(const RingAllocator<U>& other)
    {
        (void)other;
    }

    /// @param n elements @return room for them
    T* allocate(std::size_t n)
    {
        return static_cast<T*>(AllocateRing(n * sizeof(T)));
    }

    /// Give back room for n elements. @param ring the room @param n the elements
    void deallocate(T* ring, std::size_t n)
    {
        FreeRing(ring, n * sizeof(T));
    }

    /// @return true: any one frees what another allocated
    template <typename U>
    bool operator==(const RingAllocator<U>&) const
    {
        return true;
    }

    /// @return false
    template <typename U>
    bool operator!=(const RingAllocator<U>&) const
    {
        return false;
    }
};

/**
 * @ingroup interconnect
 * @brief A FIFO in one contiguous ring that grows when full (Boost's circular_buffer).
 *
 * The queues of ports, queue pairs and adapters: most of them are empty most of the time,
 * and a fabric has thousands of each. libstdc++'s std::deque allocates a 512-byte node and
 * its map even while empty and is 80 bytes itself; this is 40 bytes and allocates nothing
 * until the first element, then grows by half when full (doubling leaves up to half of a
 * ring unused at its peak: perm128's peak RSS 17.5 MB doubling, 17.3 MB by half, the same
 * instructions). The operations are std::deque's that the models use:
 * push at either end (amortised O(1)), pop at either end, index, resize; circular_buffer's
 * erase_begin(n) drops n from the front. (circular_buffer's insert and rinsert, still public
 * here, overwrite an end when the ring is full: the models do not use them.)
 *
 * A ring that pop_front, pop_back, erase_begin or clear empties starts again at its first slot
 * (circular_buffer's other erasures do not: the models do not use them): a port's queue that
 * held a thousand frames in a burst and then holds one or none would otherwise walk all of its
 * slots, a line not touched since the last lap every few frames, where from its first slot it
 * reuses the same few lines. If it had grown beyond a kilobyte (RING_SHRINK_ABOVE_BYTES), it
 * gives its room back, as a new ring that has never held anything, and rings of up to 8 KB
 * share blocks with the rings of their size class (RingAllocator, AllocateRing, RingClassBytes),
 * each filling its class's slot: a fabric's thousands of queues, grown in a burst among its
 * packets, each kept a page of its own after it, beyond what address translation reaches at
 * k=16, and a ring that empties and fills again past a kilobyte, which grows again each time (by
 * half, as always), takes its room from its classes' blocks, not from the heap (perm1024's event
 * loop: 634 rings from the heap, 15 307 with classes up to 256 bytes; doc/performance-log.rst).
 * Emptying a ring allocates nothing and does not throw.
 */
template <typename T>
class RingQueue : public boost::circular_buffer<T, RingAllocator<T>>
{
  public:
    /// The ring.
    typedef boost::circular_buffer<T, RingAllocator<T>> Base;

    /// Append, growing the ring if it is full. @param value the element
    void push_back(const T& value)
    {
        Reserve(this->size() + 1);
        Base::push_back(value);
    }

    /// Append, growing the ring if it is full. @param value the element
    void push_back(T&& value)
    {
        Reserve(this->size() + 1);
        Base::push_back(std::move(value));
    }

    /// Prepend, growing the ring if it is full. @param value the element
    void push_front(const T& value)
    {
        Reserve(this->size() + 1);
        Base::push_front(value);
    }

    /// Remove the first element (the ring must not be empty).
    void pop_front()
    {
        Base::pop_front();
        RewindIfEmpty();
    }

    /// Remove the last element (the ring must not be empty).
    void pop_back()
    {
        Base::pop_back();
        RewindIfEmpty();
    }

    /// Remove the first n elements. @param n how many (at most the size)
    void erase_begin(std::size_t n)
    {
        Base::erase_begin(n);
        RewindIfEmpty();
    }

    /// Remove every element (and start again at the first slot).
    void clear()
    {
        Base::clear();
        RewindIfEmpty();
    }

    /**
     * Grow or shrink to n elements (new ones copies of value), as std::deque::resize.
     * @param n the size
     * @param value what new elements are
     */
    void resize(std::size_t n, const T& value = T())
    {
        Reserve(n);
        Base::resize(n, value);
    }

  private:
    /// Start again at the first slot if empty; a ring larger than RING_SHRINK_ABOVE_BYTES gives
    /// its room back (without allocating: swapped with a ring that has none).
    void RewindIfEmpty()
    {
        if (this->empty())
        {
            if (this->capacity() * sizeof(T) > RING_SHRINK_ABOVE_BYTES)
            {
                Base none;
                Base::swap(none);
                return;
            }
            // (Assigning an empty range at the same capacity puts the front at the first slot;
            // through move iterators, as the elements may be move-only.)
            const std::move_iterator<T*> none(nullptr);
            this->assign(this->capacity(), none, none);
        }
    }

    /// An emptied ring larger than this many bytes gives its room back.
    static constexpr std::size_t RING_SHRINK_ABOVE_BYTES = 1024;

    /// Make room for n elements, growing the capacity by half, and in a size class's block to
    /// all of the block's slot (RingClassBytes). @param n the elements to hold
    void Reserve(std::size_t n)
    {
        if (n > this->capacity())
        {
            std::size_t capacity = std::max(n, this->capacity() + this->capacity() / 2);
            if (capacity <= RING_POOLED_BYTES / sizeof(T)) // (no product to overflow)
            {
                capacity = RingClassBytes(capacity * sizeof(T)) / sizeof(T);
            }
            this->set_capacity(capacity);
        }
    }
};

/**
 * @ingroup interconnect
 * @brief A FIFO whose first N elements live in the object itself, the rest in a RingQueue.
 *
 * For a queue that usually holds a few elements and is read where its owner is: a cable's
 * frames in flight, kept in the sending port, which at 100 Gb/s over a 1 us cable are three or
 * four data frames of a 4096-byte MTU at a time (some twelve of a 1024-byte MTU: the oldest four
 * are then inline, the first read at an arrival). Their slots are then on the port's own lines, not
 * in a block of the heap of their own, which a fabric's thousands of ports scatter over its memory
 * (at k=16, as many more pages for a hop to translate). The oldest N elements are inline in arrival
 * order (a ring of N), the younger ones wait in the overflow, and each pop moves the oldest of
 * those in: order is kept, and an element's address stays fixed while it is in a slot, not
 * beyond. The operations are those of RingQueue that ArrivalQueue uses.
 * @tparam T the element, whose move (or copy) does not throw: a pop that moves one in from the
 *         overflow has no way back
 * @tparam N the inline slots, a power of two
 */
template <typename T, std::size_t N>
class InlineRingQueue
{
    static_assert(N > 0 && (N & (N - 1)) == 0, "N must be a power of two");

  public:
    InlineRingQueue() = default;
    InlineRingQueue(const InlineRingQueue&) = delete;
    InlineRingQueue& operator=(const InlineRingQueue&) = delete;

    ~InlineRingQueue()
    {
        clear();
    }

    /// @return whether it holds nothing
    bool empty() const
    {
        return m_count == 0;
    }

    /// @return the elements it holds
    std::size_t size() const
    {
        return m_count + m_overflow.size();
    }

    /// @return the oldest element (it must not be empty)
    T& front()
    {
        return Slot(m_head);
    }

    /// @return the oldest element (it must not be empty)
    const T& front() const
    {
        return const_cast<InlineRingQueue*>(this)->Slot(m_head);
    }

    /// Append. @param value the element
    void push_back(T&& value)
    {
        if (m_count < N) // (the overflow is then empty: each pop refills the slots from it)
        {
            ::new (static_cast<void*>(&m_slots[(m_head + m_count) & (N - 1)])) T(std::move(value));
            ++m_count;
        }
        else
        {
            m_overflow.push_back(std::move(value));
        }
    }

    /// @return where its slots start, after its counts and the overflow's fields
    const void* Slots() const
    {
        return m_slots.data();
    }

    /// Remove the oldest element (it must not be empty); the oldest waiting takes a slot.
    void pop_front()
    {
        Slot(m_head).~T();
        m_head = (m_head + 1) & (N - 1);
        --m_count;
        if (!m_overflow.empty())
        {
            ::new (static_cast<void*>(&m_slots[(m_head + m_count) & (N - 1)]))
                T(std::move(m_overflow.front()));
            ++m_count;
            m_overflow.pop_front();
            // The one the next pop moves in, fetched now: its line of the heap has left the
            // cache since it was pushed, where the next pop comes soon enough to find it in.
            // (The arrival's hints, which are full, do not name it.)
            if (!m_overflow.empty())
            {
                __builtin_prefetch(&m_overflow.front());
            }
        }
    }

    /// Remove every element.
    void clear()
    {
        while (m_count > 0)
        {
            Slot(m_head).~T();
            m_head = (m_head + 1) & (N - 1);
            --m_count;
        }
        m_head = 0;
        m_overflow.clear();
    }

  private:
    /// @return the element in a slot (it must hold one) @param i the slot
    T& Slot(uint32_t i)
    {
        return *std::launder(reinterpret_cast<T*>(&m_slots[i]));
    }

    /// Room for one element.
    struct alignas(T) Storage
    {
        unsigned char bytes[sizeof(T)]; //!< the element, once constructed
    };

    uint32_t m_head{0};             //!< the oldest one's slot
    uint32_t m_count{0};            //!< elements in slots (N before any waits in the overflow)
    RingQueue<T> m_overflow;        //!< the younger ones, in order
    std::array<Storage, N> m_slots; //!< the oldest m_count elements, from m_head round the ring
};

} // namespace ns3

#endif // INTERCONNECT_RING_QUEUE_H
