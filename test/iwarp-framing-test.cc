/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// iWARP framing: CRC32c against the published test vectors, DDP/RDMAP headers byte for byte.

#include "ns3/core-module.h"
#include "ns3/iwarp-crc32c.h"
#include "ns3/iwarp-ddp-header.h"
#include "ns3/iwarp-mpa.h"
#include "ns3/iwarp-read-request-header.h"
#include "ns3/iwarp-terminate-header.h"
#include "ns3/network-module.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

TEST(IwarpCrc32c, MatchesTheRfc3720TestVectors)
{
    // RFC 3720, appendix B.4 (iSCSI), and the check value of CRC-32C over "123456789".
    const uint8_t check[] = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};
    EXPECT_EQ(IwarpCrc32c(check, sizeof(check)), 0xE3069283u);
    std::vector<uint8_t> zeros(32, 0x00);
    std::vector<uint8_t> ones(32, 0xFF);
    std::vector<uint8_t> up(32);
    std::vector<uint8_t> down(32);
    for (int i = 0; i < 32; ++i)
    {
        up[i] = static_cast<uint8_t>(i);
        down[i] = static_cast<uint8_t>(31 - i);
    }
    EXPECT_EQ(IwarpCrc32c(zeros.data(), 32), 0x8A9136AAu); // sent as aa 36 91 8a
    EXPECT_EQ(IwarpCrc32c(ones.data(), 32), 0x62A8AB43u);  // 43 ab a8 62
    EXPECT_EQ(IwarpCrc32c(up.data(), 32), 0x46DD794Eu);    // 4e 79 dd 46
    EXPECT_EQ(IwarpCrc32c(down.data(), 32), 0x113FDB5Cu);  // 5c db 3f 11
}

TEST(IwarpCrc32c, HardwareAndTablesAgreeAtEveryLengthAndAlignment)
{
    std::vector<uint8_t> data(300);
    uint32_t x = 12345;
    for (auto& b : data)
    {
        x = x * 1103515245 + 12345;
        b = static_cast<uint8_t>(x >> 16);
    }
    for (std::size_t start = 0; start < 8; ++start)
    {
        for (std::size_t n = 0; start + n <= data.size(); n += 7)
        {
            EXPECT_EQ(IwarpCrc32c(data.data() + start, n),
                      IwarpCrc32cPortable(data.data() + start, n))
                << start << "+" << n;
        }
    }
    // RFC 3720's 32 bytes of zeros through the portable path too.
    const std::vector<uint8_t> zeros(32, 0);
    EXPECT_EQ(IwarpCrc32cPortable(zeros.data(), zeros.size()), 0x8A9136AAu);
}

TEST(IwarpDdpHeader, TaggedRdmaWriteRoundTrips)
{
    IwarpDdpHeader h;
    h.SetTagged(true);
    h.SetLast(true);
    h.SetOpcode(IwarpDdpHeader::RDMA_WRITE);
    h.SetStag(0x11223344);
    h.SetTaggedOffset(0x0102030405060708ULL);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    ASSERT_EQ(p->GetSize(), 14u);
    uint8_t raw[14];
    p->CopyData(raw, 14);
    EXPECT_EQ(raw[0], 0xC1); // T, L, DV 1
    EXPECT_EQ(raw[1], 0x40); // RV 1, opcode 0
    EXPECT_EQ(raw[2], 0x11);
    EXPECT_EQ(raw[5], 0x44);
    EXPECT_EQ(raw[6], 0x01);
    EXPECT_EQ(raw[13], 0x08);
    IwarpDdpHeader back;
    p->RemoveHeader(back);
    EXPECT_TRUE(back.IsTagged());
    EXPECT_TRUE(back.IsLast());
    EXPECT_EQ(back.GetOpcode(), IwarpDdpHeader::RDMA_WRITE);
    EXPECT_EQ(back.GetStag(), 0x11223344u);
    EXPECT_EQ(back.GetTaggedOffset(), 0x0102030405060708ULL);
}

TEST(IwarpDdpHeader, UntaggedSendRoundTrips)
{
    IwarpDdpHeader h;
    h.SetTagged(false);
    h.SetLast(false);
    h.SetOpcode(IwarpDdpHeader::SEND_SE_INVALIDATE);
    h.SetInvalidateStag(0xCAFE);
    h.SetQueueNumber(IwarpDdpHeader::QN_SEND);
    h.SetMsn(7);
    h.SetMessageOffset(4096);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    ASSERT_EQ(p->GetSize(), 18u);
    uint8_t raw[18];
    p->CopyData(raw, 18);
    EXPECT_EQ(raw[0], 0x01);  // untagged, not last, DV 1
    EXPECT_EQ(raw[1], 0x46);  // RV 1, opcode 6
    EXPECT_EQ(raw[13], 7);    // MSN
    EXPECT_EQ(raw[16], 0x10); // MO 4096
    IwarpDdpHeader back;
    p->RemoveHeader(back);
    EXPECT_FALSE(back.IsTagged());
    EXPECT_FALSE(back.IsLast());
    EXPECT_EQ(back.GetOpcode(), IwarpDdpHeader::SEND_SE_INVALIDATE);
    EXPECT_EQ(back.GetInvalidateStag(), 0xCAFEu);
    EXPECT_EQ(back.GetQueueNumber(), 0u);
    EXPECT_EQ(back.GetMsn(), 7u);
    EXPECT_EQ(back.GetMessageOffset(), 4096u);
}

namespace
{

/// A DDP-like ULPDU of n bytes (a 14-byte tagged header's worth at least) with varied content.
std::vector<uint8_t>
Ulpdu(uint32_t n, uint8_t seed)
{
    std::vector<uint8_t> u(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        u[i] = static_cast<uint8_t>(seed + i * 7);
    }
    return u;
}

} // namespace

TEST(IwarpMpa, MulpduFollowsTheRfc5044Formula)
{
    // MULPDU = EMSS - (6 + 4 x ceiling(EMSS / 512) + EMSS mod 4) with markers,
    // EMSS - (6 + EMSS mod 4) without.
    struct Case
    {
        uint32_t emss;
        uint32_t withMarkers;
        uint32_t without;
    };

    for (const Case& c : {Case{1460, 1442, 1454},
                          Case{1448, 1430, 1442},
                          Case{536, 522, 530},
                          Case{1461, 1442, 1454},
                          Case{8960, 8882, 8954},
                          Case{512, 502, 506}})
    {
        EXPECT_EQ(IwarpMpa::Mulpdu(c.emss, true), c.withMarkers) << "EMSS " << c.emss;
        EXPECT_EQ(IwarpMpa::Mulpdu(c.emss, false), c.without) << "EMSS " << c.emss;
    }
    EXPECT_EQ(IwarpMpa::PadLength(14), 0u); // 2 + 14 = 16
    EXPECT_EQ(IwarpMpa::PadLength(15), 3u);
    EXPECT_EQ(IwarpMpa::PadLength(17), 1u);
}

TEST(IwarpMpa, AnFpduOfMulpduBytesFitsOneSegmentWhereverTheMarkersFall)
{
    // The worst case the formula provides for: an FPDU may start at any 4-byte aligned stream
    // position, and then carries as many markers as fall in it.
    for (uint32_t emss : {536u, 1448u, 1460u, 8960u})
    {
        const uint32_t mulpdu = IwarpMpa::Mulpdu(emss, true);
        std::size_t worst = 0;
        for (uint32_t offset = 0; offset < IwarpMpa::MARKER_INTERVAL; offset += 4)
        {
            IwarpMpa mpa(true, true);
            // Advance the stream to `offset` with a first FPDU of the right size.
            if (offset >= 24)
            {
                const uint32_t first = offset - 4 - 6; // one marker at 0, header, CRC
                mpa.Frame(Ulpdu(first - IwarpMpa::PadLength(first), 1));
            }
            const uint64_t before = mpa.GetTxOffset();
            IwarpMpa bigger = mpa;
            const auto bytes = mpa.Frame(Ulpdu(mulpdu, 2));
            EXPECT_LE(bytes.size(), emss) << "EMSS " << emss << ", FPDU at " << before;
            worst = std::max(worst, bigger.Frame(Ulpdu(mulpdu + 4, 2)).size());
        }
        // Four bytes more overflow the segment somewhere: the formula is tight.
        EXPECT_GT(worst, emss) << "EMSS " << emss;
    }
}

TEST(IwarpMpa, MarkersEvery512OctetsPointToTheirFpdu)
{
    IwarpMpa tx(true, true);
    std::vector<uint8_t> stream;
    std::vector<uint64_t> headers; // stream offsets of the ULPDU_LENGTH fields
    for (uint32_t n : {1000u, 30u, 2000u, 500u})
    {
        const uint64_t at = tx.GetTxOffset();
        headers.push_back(at + (at % 512 == 0 ? 4 : 0));
        const auto f = tx.Frame(Ulpdu(n, static_cast<uint8_t>(n)));
        stream.insert(stream.end(), f.begin(), f.end());
    }
    ASSERT_GT(stream.size(), 3000u);
    for (std::size_t m = 0; m + 4 <= stream.size(); m += 512)
    {
        EXPECT_EQ(stream[m], 0); // reserved
        EXPECT_EQ(stream[m + 1], 0);
        const uint16_t ptr = static_cast<uint16_t>((stream[m + 2] << 8) | stream[m + 3]);
        // The FPDU the marker falls in: the last header at or before it (or right after it).
        uint64_t header = headers[0];
        for (uint64_t h : headers)
        {
            if (h <= m + 4)
            {
                header = h;
            }
        }
        EXPECT_EQ(ptr, header == m + 4 ? 0 : m - header) << "marker at " << m;
    }
}

TEST(IwarpMpa, FramesRoundTripAcrossArbitrarySegments)
{
    for (bool markers : {false, true})
    {
        IwarpMpa tx(markers, true);
        IwarpMpa rx(markers, true);
        std::vector<std::vector<uint8_t>> sent;
        std::vector<uint8_t> stream;
        for (uint32_t i = 0; i < 40; ++i)
        {
            sent.push_back(Ulpdu(14 + (i * 131) % 3000, static_cast<uint8_t>(i)));
            const auto f = tx.Frame(sent.back());
            stream.insert(stream.end(), f.begin(), f.end());
        }
        // Deliver in TCP segments of odd sizes.
        std::vector<std::vector<uint8_t>> got;
        std::string error;
        for (std::size_t at = 0; at < stream.size(); at += 777)
        {
            const std::size_t end = std::min(stream.size(), at + 777);
            ASSERT_TRUE(rx.Receive(std::vector<uint8_t>(stream.begin() + at, stream.begin() + end),
                                   got,
                                   error))
                << error;
        }
        EXPECT_EQ(got, sent) << (markers ? "markers" : "no markers");
    }
}

TEST(IwarpMpa, AMalformedFpduIsReportedAndKillsTheStream)
{
    IwarpMpa tx(true, true);
    auto f = tx.Frame(Ulpdu(100, 9));
    f[50] ^= 0x01; // a bit flipped in the ULPDU
    IwarpMpa rx(true, true);
    std::vector<std::vector<uint8_t>> got;
    std::string error;
    EXPECT_FALSE(rx.Receive(f, got, error));
    EXPECT_NE(error.find("CRC32c mismatch in the FPDU at stream offset 4"), std::string::npos)
        << error;
    EXPECT_TRUE(got.empty());
    EXPECT_FALSE(rx.Receive(tx.Frame(Ulpdu(20, 1)), got, error)); // dead after that
    // A length shorter than any DDP header.
    IwarpMpa rx2(false, true);
    std::string error2;
    EXPECT_FALSE(rx2.Receive({0x00, 0x02, 0xAA, 0xBB, 0, 0, 0, 0}, got, error2));
    EXPECT_NE(error2.find("ULPDU_LENGTH 2"), std::string::npos) << error2;
}

TEST(IwarpMpa, StartupFramesRoundTrip)
{
    const auto req = IwarpMpa::StartupFrame(true, true, true, false, {1, 2, 3});
    ASSERT_EQ(req.size(), 23u);
    EXPECT_EQ(std::string(req.begin(), req.begin() + 16), "MPA ID Req Frame");
    EXPECT_EQ(req[16], 0xC0); // M, C
    EXPECT_EQ(req[17], 1);    // Rev
    EXPECT_EQ(req[19], 3);    // PD_Length
    IwarpMpa::Startup s;
    std::string error;
    ASSERT_TRUE(IwarpMpa::ParseStartupFrame(req, s, error)) << error;
    EXPECT_TRUE(s.request);
    EXPECT_TRUE(s.markers);
    EXPECT_TRUE(s.crc);
    EXPECT_FALSE(s.reject);
    EXPECT_EQ(s.privateData, (std::vector<uint8_t>{1, 2, 3}));
    auto rep = IwarpMpa::StartupFrame(false, false, true, true, {});
    ASSERT_TRUE(IwarpMpa::ParseStartupFrame(rep, s, error));
    EXPECT_FALSE(s.request);
    EXPECT_TRUE(s.reject);
    rep[0] = 'X';
    EXPECT_FALSE(IwarpMpa::ParseStartupFrame(rep, s, error));
    EXPECT_NE(error.find("without the key"), std::string::npos);
}

TEST(IwarpReadRequestHeader, RoundTripsByteForByte)
{
    // RFC 5040 section 4.4: sink STag, sink TO, size, source STag, source TO, big endian.
    IwarpReadRequestHeader h;
    h.SetSinkStag(0x01020304);
    h.SetSinkOffset(0x1112131415161718);
    h.SetSize(0x21222324);
    h.SetSourceStag(0x31323334);
    h.SetSourceOffset(0x4142434445464748);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    ASSERT_EQ(p->GetSize(), 28u);
    std::vector<uint8_t> b(28);
    p->CopyData(b.data(), b.size());
    const std::vector<uint8_t> expected = {
        0x01, 0x02, 0x03, 0x04, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x21, 0x22,
        0x23, 0x24, 0x31, 0x32, 0x33, 0x34, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48};
    EXPECT_EQ(b, expected);
    IwarpReadRequestHeader back;
    p->RemoveHeader(back);
    EXPECT_EQ(back.GetSinkStag(), 0x01020304u);
    EXPECT_EQ(back.GetSinkOffset(), 0x1112131415161718u);
    EXPECT_EQ(back.GetSize(), 0x21222324u);
    EXPECT_EQ(back.GetSourceStag(), 0x31323334u);
    EXPECT_EQ(back.GetSourceOffset(), 0x4142434445464748u);
}

TEST(IwarpTerminateHeader, RoundTripsAndNamesItsError)
{
    // Layer (4 bits), EType (4 bits), error code (8 bits), then the header-copy flags (clear).
    const IwarpTerminateHeader h(IwarpTerminateHeader::LLP, 0, 0x02);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    EXPECT_EQ(b, (std::vector<uint8_t>{0x20, 0x02, 0x00, 0x00}));
    IwarpTerminateHeader back;
    p->RemoveHeader(back);
    EXPECT_EQ(back.GetLayer(), IwarpTerminateHeader::LLP);
    EXPECT_EQ(back.GetErrorType(), 0u);
    EXPECT_EQ(back.GetErrorCode(), 0x02u);
    EXPECT_EQ(back.Describe(), "LLP/0/0x02 (MPA CRC error)");
    EXPECT_EQ(IwarpTerminateHeader(IwarpTerminateHeader::DDP, 2, 0x03).Describe(),
              "DDP/2/0x03 (invalid MSN)");
    EXPECT_EQ(IwarpTerminateHeader(IwarpTerminateHeader::RDMAP, 2, 0x99).Describe(),
              "RDMAP/2/0x99 (unknown error)");
}
