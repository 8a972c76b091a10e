/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The RoCEv2 invariant CRC, checked against a frame captured from hardware.
//
// The reference vector is the "RoCE CNP captured on ConnectX-4 Lx" frame of Scapy's RoCE test
// suite (github.com/secdev/scapy, test/contrib/roce.uts): a Congestion Notification Packet
// whose ICRC was computed by the NIC, a Mellanox ConnectX-4 Lx. Only the frame's bytes are used.
// A second vector from the same file, a UC SEND Only packet whose ICRC Scapy's own
// implementation computed, cross-checks a packet with a non-zero payload, padding and a
// non-default TOS/TTL.

#include "ns3/ib-bth-header.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/packet.h"
#include "ns3/roce-icrc-trailer.h"
#include "ns3/udp-header.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

using Bytes = std::vector<uint8_t>;

/// The 74-byte CNP frame captured on a ConnectX-4 Lx: Ethernet (14), IPv4 (20), UDP (8),
/// BTH (12), 16 reserved bytes, ICRC (4). No FCS.
const Bytes CX4_CNP_FRAME{
    // Ethernet: dst e4:1d:2d:ab:2b:c2, src 7c:fe:90:64:3b:32, IPv4
    0xe4,
    0x1d,
    0x2d,
    0xab,
    0x2b,
    0xc2,
    0x7c,
    0xfe,
    0x90,
    0x64,
    0x3b,
    0x32,
    0x08,
    0x00,
    // IPv4: TOS 0xc2, length 60, id 0x718c, DF, TTL 64, UDP, 10.0.17.1 -> 10.0.18.1
    0x45,
    0xc2,
    0x00,
    0x3c,
    0x71,
    0x8c,
    0x40,
    0x00,
    0x40,
    0x11,
    0x91,
    0x61,
    0x0a,
    0x00,
    0x11,
    0x01,
    0x0a,
    0x00,
    0x12,
    0x01,
    // UDP: 0 -> 4791, length 40, checksum 0
    0x00,
    0x00,
    0x12,
    0xb7,
    0x00,
    0x28,
    0x00,
    0x00,
    // BTH: CNP, P_Key 0xffff, BECN, DestQP 0x000118, PSN 0
    0x81,
    0x00,
    0xff,
    0xff,
    0x40,
    0x00,
    0x01,
    0x18,
    0x00,
    0x00,
    0x00,
    0x00,
    // CNP reserved bytes
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    // ICRC
    0x82,
    0xfd,
    0x00,
    0x2a};

constexpr uint32_t ETHERNET_SIZE = 14;
constexpr uint32_t CX4_CNP_ICRC = 0x82FD002A;

/// Scapy's UC SEND Only example: IPv4 (TOS 0x01, id 1144, DF, TTL 64, 192.168.0.7 to itself),
/// UDP 49152 -> 4791, BTH (opcode 0x24, M=1, PadCnt=2, DestQP 211, PSN 13571856), 20 payload
/// bytes (the last two pad), ICRC placeholder.
const Bytes SCAPY_UC_PACKET{
    0x45, 0x01, 0x00, 0x40, 0x04, 0x78, 0x40, 0x00, 0x40, 0x11, 0xb4, 0xd5, 0xc0, 0xa8, 0x00, 0x07,
    0xc0, 0xa8, 0x00, 0x07, 0xc0, 0x00, 0x12, 0xb7, 0x00, 0x2c, 0xac, 0xa2, 0x24, 0x60, 0xff, 0xff,
    0x00, 0x00, 0x00, 0xd3, 0x00, 0xcf, 0x17, 0x10, 0x46, 0x30, 0x81, 0x8b, 0xe2, 0x89, 0x35, 0xd9,
    0x0e, 0x9a, 0x95, 0x50, 0x54, 0x01, 0xbe, 0x88, 0x5e, 0x50, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
constexpr uint32_t SCAPY_UC_ICRC = 0x78F353F3;

Bytes
PacketBytes(Ptr<const Packet> packet)
{
    Bytes bytes(packet->GetSize());
    packet->CopyData(bytes.data(), static_cast<uint32_t>(bytes.size()));
    return bytes;
}

} // namespace

TEST(RoceIcrc, MatchesAConnectX4Capture)
{
    const uint8_t* ip = CX4_CNP_FRAME.data() + ETHERNET_SIZE;
    const auto length = static_cast<uint32_t>(CX4_CNP_FRAME.size() - ETHERNET_SIZE);
    ASSERT_EQ(length, 60u);
    EXPECT_EQ(RoceIcrcTrailer::Compute(ip, length), CX4_CNP_ICRC);

    // The ICRC's own bytes are not covered: a wrong value there changes nothing.
    Bytes zeroed(ip, ip + length);
    zeroed[length - 4] = 0;
    zeroed[length - 1] = 0;
    EXPECT_EQ(RoceIcrcTrailer::Compute(zeroed.data(), length), CX4_CNP_ICRC);
}

TEST(RoceIcrc, MatchesScapysUcExample)
{
    EXPECT_EQ(RoceIcrcTrailer::Compute(SCAPY_UC_PACKET.data(),
                                       static_cast<uint32_t>(SCAPY_UC_PACKET.size())),
              SCAPY_UC_ICRC);
}

TEST(RoceIcrc, VariantFieldsAreMaskedInvariantOnesAreNot)
{
    const Bytes ip(CX4_CNP_FRAME.begin() + ETHERNET_SIZE, CX4_CNP_FRAME.end());
    const auto length = static_cast<uint32_t>(ip.size());

    // What a switch may change in flight: TOS (ECN marking), TTL, IPv4 checksum, UDP checksum,
    // FECN/BECN and the reserved bits of BTH byte 4.
    for (uint32_t offset : {1u, 8u, 10u, 11u, 26u, 27u, 32u})
    {
        Bytes changed = ip;
        changed[offset] ^= 0x5A;
        EXPECT_EQ(RoceIcrcTrailer::Compute(changed.data(), length), CX4_CNP_ICRC)
            << "offset " << offset;
    }
    // Everything else is covered: addresses, ports, UDP length, opcode, P_Key, QP, PSN, payload.
    for (uint32_t offset : {4u, 6u, 9u, 12u, 19u, 20u, 23u, 25u, 28u, 29u, 31u, 35u, 39u, 55u})
    {
        Bytes changed = ip;
        changed[offset] ^= 0x01;
        EXPECT_NE(RoceIcrcTrailer::Compute(changed.data(), length), CX4_CNP_ICRC)
            << "offset " << offset;
    }
}

TEST(RoceIcrc, RebuildsTheCaptureWithNs3Headers)
{
    // The same CNP, built with ns-3 headers and this module's BTH, stamped with its ICRC: byte
    // for byte the captured IPv4 packet.
    Ptr<Packet> packet = Create<Packet>(16); // the CNP's 16 reserved bytes (zeros)
    IbBthHeader bth;
    bth.SetOpcode(IbBthHeader::ROCE_CNP);
    bth.SetBecn(true);
    bth.SetDestQp(0x118);
    packet->AddHeader(bth);
    packet->AddTrailer(RoceIcrcTrailer()); // placeholder, counted by UDP and IPv4 lengths
    UdpHeader udp;
    udp.SetSourcePort(0);
    udp.SetDestinationPort(4791);
    packet->AddHeader(udp);
    Ipv4Header ipv4;
    ipv4.SetTos(0xc2);
    ipv4.SetIdentification(0x718c);
    ipv4.SetDontFragment();
    ipv4.SetTtl(64);
    ipv4.SetProtocol(17);
    ipv4.SetSource(Ipv4Address("10.0.17.1"));
    ipv4.SetDestination(Ipv4Address("10.0.18.1"));
    ipv4.SetPayloadSize(packet->GetSize());
    ipv4.EnableChecksum();
    packet->AddHeader(ipv4);

    EXPECT_EQ(RoceIcrcTrailer::Compute(packet), CX4_CNP_ICRC);
    RoceIcrcTrailer::Stamp(packet);
    const Bytes expected(CX4_CNP_FRAME.begin() + ETHERNET_SIZE, CX4_CNP_FRAME.end());
    EXPECT_EQ(PacketBytes(packet), expected);

    // Reading the trailer back.
    RoceIcrcTrailer icrc;
    EXPECT_EQ(packet->RemoveTrailer(icrc), 4u);
    EXPECT_EQ(icrc.GetIcrc(), CX4_CNP_ICRC);
    EXPECT_EQ(packet->GetSize(), 56u);
}

TEST(RoceIcrc, TrailerBytesAndDefault)
{
    RoceIcrcTrailer icrc;
    EXPECT_EQ(icrc.GetIcrc(), 0u);
    EXPECT_EQ(icrc.GetSerializedSize(), 4u);
    icrc.SetIcrc(0x01020304);
    Ptr<Packet> packet = Create<Packet>(3);
    packet->AddTrailer(icrc);
    const Bytes bytes = PacketBytes(packet);
    EXPECT_EQ(bytes, (Bytes{0, 0, 0, 0x01, 0x02, 0x03, 0x04}));
    RoceIcrcTrailer copy;
    EXPECT_EQ(packet->RemoveTrailer(copy), 4u);
    EXPECT_EQ(copy.GetIcrc(), 0x01020304u);
    std::ostringstream os;
    copy.Print(os);
    EXPECT_EQ(os.str(), "icrc=0x01020304");
}

TEST(RoceIcrc, RejectsALengthThatIsNotTheIpv4TotalLength)
{
#ifdef NS3_ASSERT_ENABLE
    const uint8_t* ip = CX4_CNP_FRAME.data() + ETHERNET_SIZE;
    EXPECT_DEATH(RoceIcrcTrailer::Compute(ip, 56), "Total Length");
#else
    GTEST_SKIP() << "ns-3 asserts are compiled out";
#endif
}
