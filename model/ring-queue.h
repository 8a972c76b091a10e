/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef INTERCONNECT_RING_QUEUE_H
#define INTERCONNECT_RING_QUEUE_H

#include <algorithm>
#include <boost/circular_buffer.hpp>
#include <cstddef>
#include <utility>

namespace ns3
{

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
 */
template <typename T>
class RingQueue : public boost::circular_buffer<T>
{
  public:
    /// The ring.
    typedef boost::circular_buffer<T> Base;

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
    /// Make room for n elements, growing the capacity by half. @param n the elements to hold
    void Reserve(std::size_t n)
    {
        if (n > this->capacity())
        {
            this->set_capacity(std::max(n, this->capacity() + this->capacity() / 2));
        }
    }
};

} // namespace ns3

#endif // INTERCONNECT_RING_QUEUE_H
