/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PACKET_BYTES_H
#define PACKET_BYTES_H

// For the tests that look at what a frame carries, byte for byte.

#include "ns3/packet.h"

#include <cstdint>
#include <string>

namespace ns3
{
namespace test
{

/// @return a packet's bytes, zero-filled ones written out @param p a packet
inline std::string
BytesOf(const Ptr<const Packet>& p)
{
    std::string bytes(p->GetSize(), '\0');
    p->CopyData(reinterpret_cast<uint8_t*>(bytes.data()), p->GetSize());
    return bytes;
}

/// @return a packet's last 4 bytes as one number, the first the highest @param p 4 bytes or more
inline uint32_t
LastWord(const Ptr<const Packet>& p)
{
    const std::string b = BytesOf(p);
    uint32_t word = 0;
    for (std::size_t i = b.size() - 4; i < b.size(); ++i)
    {
        word = (word << 8) | static_cast<uint8_t>(b[i]);
    }
    return word;
}

} // namespace test
} // namespace ns3

#endif // PACKET_BYTES_H
