/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "iwarp-mpa.h"

#include "iwarp-crc32c.h"
#include "iwarp-ddp-header.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cstring>

namespace ns3
{

namespace
{
const char REQUEST_KEY[] = "MPA ID Req Frame";
const char REPLY_KEY[] = "MPA ID Rep Frame";
constexpr uint32_t KEY_SIZE = 16;
constexpr uint32_t MAX_PRIVATE_DATA = 512;
} // namespace

uint32_t
IwarpMpa::Mulpdu(uint32_t emss, bool markers)
{
    const uint32_t markerBytes = markers ? 4 * ((emss + MARKER_INTERVAL - 1) / MARKER_INTERVAL) : 0;
    const uint32_t overhead = OVERHEAD + markerBytes + emss % 4;
    return emss > overhead ? emss - overhead : 0;
}

uint32_t
IwarpMpa::PadLength(uint32_t ulpduLength)
{
    return (4 - (2 + ulpduLength) % 4) % 4;
}

std::vector<uint8_t>
IwarpMpa::StartupFrame(bool request,
                       bool markers,
                       bool crc,
                       bool reject,
                       const std::vector<uint8_t>& privateData)
{
    NS_ABORT_MSG_IF(privateData.size() > MAX_PRIVATE_DATA,
                    "IwarpMpa: private data of " << privateData.size() << " bytes (at most 512)");
    std::vector<uint8_t> f(request ? REQUEST_KEY : REPLY_KEY,
                           (request ? REQUEST_KEY : REPLY_KEY) + KEY_SIZE);
    f.push_back(
        static_cast<uint8_t>((markers ? 0x80 : 0) | (crc ? 0x40 : 0) | (reject ? 0x20 : 0)));
    f.push_back(1); // Rev
    f.push_back(static_cast<uint8_t>(privateData.size() >> 8));
    f.push_back(static_cast<uint8_t>(privateData.size() & 0xFF));
    f.insert(f.end(), privateData.begin(), privateData.end());
    return f;
}

bool
IwarpMpa::ParseStartupFrame(const std::vector<uint8_t>& bytes, Startup& out, std::string& error)
{
    if (bytes.size() < KEY_SIZE + 4)
    {
        error = "MPA start-up frame shorter than its 20-byte header";
        return false;
    }
    if (std::memcmp(bytes.data(), REQUEST_KEY, KEY_SIZE) == 0)
    {
        out.request = true;
    }
    else if (std::memcmp(bytes.data(), REPLY_KEY, KEY_SIZE) == 0)
    {
        out.request = false;
    }
    else
    {
        error = "MPA start-up frame without the key \"MPA ID Req Frame\" or \"MPA ID Rep Frame\"";
        return false;
    }
    const uint8_t flags = bytes[KEY_SIZE];
    out.markers = (flags & 0x80) != 0;
    out.crc = (flags & 0x40) != 0;
    out.reject = (flags & 0x20) != 0;
    out.revision = bytes[KEY_SIZE + 1];
    const uint32_t pd = (uint32_t(bytes[KEY_SIZE + 2]) << 8) | bytes[KEY_SIZE + 3];
    if (pd > MAX_PRIVATE_DATA || bytes.size() != KEY_SIZE + 4 + pd)
    {
        error = "MPA start-up frame with PD_Length " + std::to_string(pd) + " for " +
                std::to_string(bytes.size() - KEY_SIZE - 4) + " bytes of private data";
        return false;
    }
    out.privateData.assign(bytes.begin() + KEY_SIZE + 4, bytes.end());
    return true;
}

IwarpMpa::IwarpMpa(bool markers, bool crc)
    : m_markers(markers),
      m_crc(crc),
      m_txOffset(0),
      m_rxOffset(0),
      m_rxFpduStart(0),
      m_rxMarkerBytes(0),
      m_rxInMarker(false),
      m_dead(false),
      m_rxError(RX_OK)
{
}

IwarpMpa::RxError
IwarpMpa::GetRxError() const
{
    return m_rxError;
}

uint64_t
IwarpMpa::GetTxOffset() const
{
    return m_txOffset;
}

uint32_t
IwarpMpa::FpduLength(uint32_t ulpduLength) const
{
    uint32_t left = 2 + ulpduLength + PadLength(ulpduLength) + 4;
    uint64_t position = m_txOffset;
    while (left > 0)
    {
        if (m_markers && position % MARKER_INTERVAL == 0)
        {
            position += 4;
        }
        const uint32_t chunk = static_cast<uint32_t>(
            std::min<uint64_t>(left, MARKER_INTERVAL - position % MARKER_INTERVAL));
        position += chunk;
        left -= chunk;
    }
    return static_cast<uint32_t>(position - m_txOffset);
}

uint32_t
IwarpMpa::MaxUlpdu(uint32_t budget) const
{
    if (budget <= OVERHEAD)
    {
        return 0;
    }
    // Each marker or pad byte the guess brings costs at most a few steps down.
    uint32_t length = std::min<uint32_t>(budget - OVERHEAD, 0xFFFF);
    while (length > 0 && FpduLength(length) > budget)
    {
        --length;
    }
    return length;
}

void
IwarpMpa::Emit(std::vector<uint8_t>& out, const uint8_t* data, std::size_t size, uint64_t header)
{
    while (size > 0)
    {
        if (m_markers && m_txOffset % MARKER_INTERVAL == 0)
        {
            // Back to the FPDU's ULPDU_LENGTH field; 0 for a marker just before it.
            const uint16_t fpduPtr =
                static_cast<uint16_t>(m_txOffset > header ? m_txOffset - header : 0);
            const uint8_t marker[4] = {0,
                                       0,
                                       static_cast<uint8_t>(fpduPtr >> 8),
                                       static_cast<uint8_t>(fpduPtr & 0xFF)};
            out.insert(out.end(), marker, marker + 4);
            m_txOffset += 4;
        }
        // Up to the next marker position, in one copy.
        const std::size_t chunk =
            m_markers ? std::min<std::size_t>(size, MARKER_INTERVAL - m_txOffset % MARKER_INTERVAL)
                      : size;
        out.insert(out.end(), data, data + chunk);
        m_txOffset += chunk;
        data += chunk;
        size -= chunk;
    }
}

std::vector<uint8_t>
IwarpMpa::Frame(const std::vector<uint8_t>& ulpdu)
{
    NS_ABORT_MSG_IF(ulpdu.size() > 0xFFFF, "IwarpMpa: a ULPDU of " << ulpdu.size() << " bytes");
    const uint32_t length = static_cast<uint32_t>(ulpdu.size());
    std::vector<uint8_t> out;
    out.reserve(FpduLength(length));
    // A marker due where the FPDU begins precedes its ULPDU_LENGTH field.
    const uint64_t start = m_txOffset + (m_markers && m_txOffset % MARKER_INTERVAL == 0 ? 4 : 0);
    const uint8_t head[2] = {static_cast<uint8_t>(length >> 8),
                             static_cast<uint8_t>(length & 0xFF)};
    Emit(out, head, 2, start);
    Emit(out, ulpdu.data(), length, start);
    const uint8_t pad[3] = {0, 0, 0};
    Emit(out, pad, PadLength(length), start);
    // The CRC covers everything so far, markers included; it goes least significant byte
    // first, as iSCSI's digests (RFC 3720).
    const uint32_t crc = m_crc ? IwarpCrc32c(out.data(), out.size()) : 0;
    const uint8_t tail[4] = {static_cast<uint8_t>(crc),
                             static_cast<uint8_t>(crc >> 8),
                             static_cast<uint8_t>(crc >> 16),
                             static_cast<uint8_t>(crc >> 24)};
    Emit(out, tail, 4, start);
    return out;
}

bool
IwarpMpa::Receive(const std::vector<uint8_t>& bytes,
                  std::vector<std::vector<uint8_t>>& ulpdus,
                  std::string& error)
{
    if (m_dead)
    {
        error = "MPA: the stream is dead after a malformed FPDU";
        return false;
    }
    std::size_t i = 0;
    const std::size_t n = bytes.size();
    while (i < n)
    {
        if (m_markers && !m_rxInMarker && m_rxOffset % MARKER_INTERVAL == 0)
        {
            m_rxInMarker = true;
            m_marker.clear();
        }
        if (m_rxInMarker)
        {
            const std::size_t take = std::min<std::size_t>(4 - m_marker.size(), n - i);
            m_marker.insert(m_marker.end(), bytes.begin() + i, bytes.begin() + i + take);
            i += take;
            m_rxOffset += take;
            if (m_marker.size() < 4)
            {
                continue;
            }
            m_rxInMarker = false;
            const uint64_t at = m_rxOffset - 4;
            const uint16_t fpduPtr = static_cast<uint16_t>((m_marker[2] << 8) | m_marker[3]);
            const uint16_t expected = static_cast<uint16_t>(m_rx.empty() ? 0 : at - m_rxFpduStart);
            if (fpduPtr != expected)
            {
                m_dead = true;
                m_rxError = RX_FRAMING;
                error = "MPA: the marker at stream offset " + std::to_string(at) + " points " +
                        std::to_string(fpduPtr) + " bytes back, its FPDU starts " +
                        std::to_string(expected) + " bytes back";
                return false;
            }
            // A marker before the CRC field is covered by the CRC.
            if (m_rx.size() < 2 || m_rx.size() + 4 < FpduBytes(m_rx))
            {
                m_rxCrc.insert(m_rxCrc.end(), m_marker.begin(), m_marker.end());
            }
            continue;
        }
        if (m_rx.empty())
        {
            m_rxFpduStart = m_rxOffset; // the ULPDU_LENGTH field
        }
        // Take bytes up to the next marker, the end of the FPDU, or the end of the input.
        std::size_t take = n - i;
        if (m_markers)
        {
            take = std::min<std::size_t>(take, MARKER_INTERVAL - m_rxOffset % MARKER_INTERVAL);
        }
        const std::size_t total = m_rx.size() < 2 ? 2 : FpduBytes(m_rx);
        take = std::min(take, total - m_rx.size());
        // The CRC covers ULPDU_LENGTH, ULPDU and pad: the bytes before the last four.
        const std::size_t covered =
            m_rx.size() < 2 ? take
                            : std::min(take, total - 4 > m_rx.size() ? total - 4 - m_rx.size() : 0);
        m_rxCrc.insert(m_rxCrc.end(), bytes.begin() + i, bytes.begin() + i + covered);
        m_rx.insert(m_rx.end(), bytes.begin() + i, bytes.begin() + i + take);
        i += take;
        m_rxOffset += take;
        if (m_rx.size() < 2)
        {
            continue;
        }
        const uint32_t length = (uint32_t(m_rx[0]) << 8) | m_rx[1];
        if (length < IwarpDdpHeader::TAGGED_SIZE)
        {
            m_dead = true;
            m_rxError = RX_FRAMING;
            error = "MPA: ULPDU_LENGTH " + std::to_string(length) + " at stream offset " +
                    std::to_string(m_rxFpduStart) + " is shorter than a DDP header (14 bytes)";
            return false;
        }
        const std::size_t fpdu = FpduBytes(m_rx);
        if (m_rx.size() < fpdu)
        {
            continue;
        }
        const uint32_t crc = uint32_t(m_rx[fpdu - 4]) | (uint32_t(m_rx[fpdu - 3]) << 8) |
                             (uint32_t(m_rx[fpdu - 2]) << 16) | (uint32_t(m_rx[fpdu - 1]) << 24);
        if (m_crc && crc != IwarpCrc32c(m_rxCrc.data(), m_rxCrc.size()))
        {
            m_dead = true;
            m_rxError = RX_CRC;
            error = "MPA: CRC32c mismatch in the FPDU at stream offset " +
                    std::to_string(m_rxFpduStart);
            return false;
        }
        ulpdus.emplace_back(m_rx.begin() + 2, m_rx.begin() + 2 + length);
        m_rx.clear();
        m_rxCrc.clear();
    }
    return true;
}

std::size_t
IwarpMpa::FpduBytes(const std::vector<uint8_t>& head)
{
    const uint32_t length = (uint32_t(head[0]) << 8) | head[1];
    return 2 + length + PadLength(length) + 4;
}

} // namespace ns3
