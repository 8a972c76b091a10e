/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-icrc-trailer.h"

#include "ns3/assert.h"
#include "ns3/log.h"
#include "ns3/packet.h"

#include <array>
#include <cstdio>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceIcrcTrailer");

NS_OBJECT_ENSURE_REGISTERED(RoceIcrcTrailer);

namespace
{

/// The reflected form of the IEEE 802.3 CRC-32 polynomial 0x04C11DB7 (LSB-first processing).
constexpr uint32_t CRC32_POLY_REFLECTED = 0xEDB88320;

/// The byte-at-a-time lookup table of the reflected CRC-32.
constexpr std::array<uint32_t, 256>
MakeCrcTable()
{
    std::array<uint32_t, 256> table{};
    for (uint32_t n = 0; n < 256; ++n)
    {
        uint32_t c = n;
        for (int k = 0; k < 8; ++k)
        {
            c = (c & 1) ? (CRC32_POLY_REFLECTED ^ (c >> 1)) : (c >> 1);
        }
        table[n] = c;
    }
    return table;
}

constexpr std::array<uint32_t, 256> CRC_TABLE = MakeCrcTable();

/// Feed one byte to the CRC register.
inline uint32_t
CrcUpdate(uint32_t crc, uint8_t byte)
{
    return CRC_TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8);
}

// Byte offsets of the variant fields replaced by ones (IBTA RoCEv2 annex A17).
constexpr uint32_t IPV4_TOS = 1;
constexpr uint32_t IPV4_TTL = 8;
constexpr uint32_t IPV4_CHECKSUM = 10; // 2 bytes
constexpr uint32_t UDP_CHECKSUM = 6;   // 2 bytes
constexpr uint32_t UDP_SIZE = 8;
constexpr uint32_t BTH_RESV8A = 4; // FECN, BECN, 6 reserved bits
constexpr uint32_t BTH_SIZE = 12;
constexpr uint32_t LRH_SIZE = 8; // the masked LRH of native IB: 8 bytes of ones

} // namespace

TypeId
RoceIcrcTrailer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceIcrcTrailer")
                            .SetParent<Trailer>()
                            .SetGroupName("Interconnect")
                            .AddConstructor<RoceIcrcTrailer>();
    return tid;
}

TypeId
RoceIcrcTrailer::GetInstanceTypeId() const
{
    return GetTypeId();
}

RoceIcrcTrailer::RoceIcrcTrailer()
    : m_icrc(0)
{
}

void
RoceIcrcTrailer::SetIcrc(uint32_t icrc)
{
    NS_LOG_FUNCTION(this << icrc);
    m_icrc = icrc;
}

uint32_t
RoceIcrcTrailer::GetIcrc() const
{
    return m_icrc;
}

uint32_t
RoceIcrcTrailer::Compute(const uint8_t* ipv4HeaderStart, uint32_t length)
{
    NS_LOG_FUNCTION(static_cast<const void*>(ipv4HeaderStart) << length);
    NS_ASSERT_MSG(ipv4HeaderStart != nullptr && length >= 1, "ICRC: no packet bytes");
    NS_ASSERT_MSG((ipv4HeaderStart[0] >> 4) == 4, "ICRC: the packet does not start with IPv4");
    const uint32_t ipHeaderSize = (ipv4HeaderStart[0] & 0x0F) * 4u;
    NS_ASSERT_MSG(ipHeaderSize >= 20, "ICRC: IPv4 IHL below 5");
    NS_ASSERT_MSG(length >= ipHeaderSize + UDP_SIZE + BTH_SIZE + SIZE,
                  "ICRC: " << length << " bytes cannot hold IPv4, UDP, BTH and ICRC");
    const uint32_t totalLength = (static_cast<uint32_t>(ipv4HeaderStart[2]) << 8) |
                                 static_cast<uint32_t>(ipv4HeaderStart[3]);
    NS_ASSERT_MSG(totalLength == length,
                  "ICRC: length " << length << " is not the IPv4 Total Length " << totalLength
                                  << " (pass the whole IPv4 packet, ICRC included)");

    const uint32_t udpStart = ipHeaderSize;
    const uint32_t bthStart = udpStart + UDP_SIZE;
    const uint32_t covered = length - SIZE; // everything but the ICRC itself
    uint32_t crc = 0xFFFFFFFF;
    for (uint32_t k = 0; k < LRH_SIZE; ++k)
    {
        crc = CrcUpdate(crc, 0xFF);
    }
    for (uint32_t k = 0; k < covered; ++k)
    {
        const bool masked = k == IPV4_TOS || k == IPV4_TTL || k == IPV4_CHECKSUM ||
                            k == IPV4_CHECKSUM + 1 || k == udpStart + UDP_CHECKSUM ||
                            k == udpStart + UDP_CHECKSUM + 1 || k == bthStart + BTH_RESV8A;
        crc = CrcUpdate(crc, masked ? 0xFF : ipv4HeaderStart[k]);
    }
    crc = ~crc;
    // The CRC register's least significant byte goes on the wire first; return the wire bytes
    // read in network order.
    return ((crc & 0x000000FF) << 24) | ((crc & 0x0000FF00) << 8) | ((crc & 0x00FF0000) >> 8) |
           ((crc & 0xFF000000) >> 24);
}

uint32_t
RoceIcrcTrailer::Compute(Ptr<const Packet> ipv4Packet)
{
    NS_LOG_FUNCTION(ipv4Packet);
    NS_ASSERT_MSG(ipv4Packet, "ICRC: null packet");
    std::vector<uint8_t> bytes(ipv4Packet->GetSize());
    ipv4Packet->CopyData(bytes.data(), static_cast<uint32_t>(bytes.size()));
    return Compute(bytes.data(), static_cast<uint32_t>(bytes.size()));
}

void
RoceIcrcTrailer::Stamp(Ptr<Packet> ipv4Packet)
{
    NS_LOG_FUNCTION(ipv4Packet);
    const uint32_t value = Compute(ipv4Packet);
    RoceIcrcTrailer icrc;
    ipv4Packet->RemoveTrailer(icrc);
    icrc.SetIcrc(value);
    ipv4Packet->AddTrailer(icrc);
}

void
RoceIcrcTrailer::Print(std::ostream& os) const
{
    char text[32];
    std::snprintf(text, sizeof(text), "icrc=0x%08lX", static_cast<unsigned long>(m_icrc));
    os << text;
}

uint32_t
RoceIcrcTrailer::GetSerializedSize() const
{
    return SIZE;
}

void
RoceIcrcTrailer::Serialize(Buffer::Iterator end) const
{
    NS_LOG_FUNCTION(this);
    Buffer::Iterator i = end;
    i.Prev(SIZE);
    i.WriteHtonU32(m_icrc);
}

uint32_t
RoceIcrcTrailer::Deserialize(Buffer::Iterator end)
{
    NS_LOG_FUNCTION(this);
    Buffer::Iterator i = end;
    i.Prev(SIZE);
    m_icrc = i.ReadNtohU32();
    return SIZE;
}

} // namespace ns3
