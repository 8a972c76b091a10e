/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The InfiniBand transport headers (BTH, RETH, AETH): round trips through a Packet, and the exact
// bytes of the IBTA Vol. 1 layouts, written out by hand from the field diagrams (chapter 9).

#include "ns3/ib-aeth-header.h"
#include "ns3/ib-bth-header.h"
#include "ns3/ib-reth-header.h"
#include "ns3/packet.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

using Bytes = std::vector<uint8_t>;

/// The bytes a header serializes to, through Packet::AddHeader.
Bytes
Serialized(const Header& header)
{
    Packet packet;
    packet.AddHeader(header);
    Bytes bytes(packet.GetSize());
    packet.CopyData(bytes.data(), static_cast<uint32_t>(bytes.size()));
    return bytes;
}

/// Read a header of type T from raw bytes; expects all bytes to be consumed.
template <typename T>
T
Parsed(const Bytes& bytes)
{
    Packet packet(bytes.data(), static_cast<uint32_t>(bytes.size()));
    T header;
    EXPECT_EQ(packet.RemoveHeader(header), bytes.size());
    EXPECT_EQ(packet.GetSize(), 0u);
    return header;
}

/// Serialize into a Packet with a payload behind, and read back into a fresh object.
template <typename T>
T
RoundTrip(const T& header)
{
    Ptr<Packet> packet = Create<Packet>(100);
    packet->AddHeader(header);
    EXPECT_EQ(packet->GetSize(), 100u + header.GetSerializedSize());
    T copy;
    EXPECT_EQ(packet->RemoveHeader(copy), header.GetSerializedSize());
    EXPECT_EQ(packet->GetSize(), 100u);
    return copy;
}

} // namespace

TEST(IbHeaders, BthDefaults)
{
    IbBthHeader bth;
    EXPECT_EQ(bth.GetSerializedSize(), 12u);
    EXPECT_EQ(bth.GetPkey(), 0xFFFF);
    EXPECT_EQ(bth.GetOpcode(), IbBthHeader::RC_SEND_FIRST);
    EXPECT_EQ(bth.GetPsn(), 0u);
    EXPECT_EQ(bth.GetDestQp(), 0u);
    EXPECT_FALSE(bth.GetFecn());
    EXPECT_FALSE(bth.GetBecn());
    EXPECT_EQ(Serialized(bth), (Bytes{0x00, 0x00, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(IbHeaders, BthRoundTripKeepsEveryField)
{
    IbBthHeader bth;
    bth.SetOpcode(IbBthHeader::RC_READ_RESPONSE_MIDDLE);
    bth.SetSolicitedEvent(true);
    bth.SetMigReq(true);
    bth.SetPadCount(3);
    bth.SetTver(15);
    bth.SetPkey(0x8001);
    bth.SetFecn(false);
    bth.SetBecn(true);
    bth.SetDestQp(0xFFFFFF);
    bth.SetAckRequest(true);
    bth.SetPsn(0xFFFFFF);

    const IbBthHeader copy = RoundTrip(bth);
    EXPECT_EQ(copy.GetOpcode(), IbBthHeader::RC_READ_RESPONSE_MIDDLE);
    EXPECT_TRUE(copy.GetSolicitedEvent());
    EXPECT_TRUE(copy.GetMigReq());
    EXPECT_EQ(copy.GetPadCount(), 3);
    EXPECT_EQ(copy.GetTver(), 15);
    EXPECT_EQ(copy.GetPkey(), 0x8001);
    EXPECT_FALSE(copy.GetFecn());
    EXPECT_TRUE(copy.GetBecn());
    EXPECT_EQ(copy.GetDestQp(), 0xFFFFFFu);
    EXPECT_TRUE(copy.GetAckRequest());
    EXPECT_EQ(copy.GetPsn(), 0xFFFFFFu);

    // The complementary bit pattern, so that no field survives by accident.
    IbBthHeader other;
    other.SetOpcode(IbBthHeader::ROCE_CNP);
    other.SetPadCount(1);
    other.SetTver(0);
    other.SetPkey(0x0000);
    other.SetFecn(true);
    other.SetDestQp(0x000001);
    other.SetPsn(0x800000);
    const IbBthHeader otherCopy = RoundTrip(other);
    EXPECT_EQ(otherCopy.GetOpcode(), IbBthHeader::ROCE_CNP);
    EXPECT_FALSE(otherCopy.GetSolicitedEvent());
    EXPECT_FALSE(otherCopy.GetMigReq());
    EXPECT_EQ(otherCopy.GetPadCount(), 1);
    EXPECT_EQ(otherCopy.GetTver(), 0);
    EXPECT_EQ(otherCopy.GetPkey(), 0x0000);
    EXPECT_TRUE(otherCopy.GetFecn());
    EXPECT_FALSE(otherCopy.GetBecn());
    EXPECT_EQ(otherCopy.GetDestQp(), 1u);
    EXPECT_FALSE(otherCopy.GetAckRequest());
    EXPECT_EQ(otherCopy.GetPsn(), 0x800000u);
}

TEST(IbHeaders, BthExactBytes)
{
    IbBthHeader bth;
    bth.SetOpcode(IbBthHeader::RC_WRITE_ONLY); // 0x0A
    bth.SetSolicitedEvent(true);
    bth.SetPadCount(2);
    bth.SetPkey(0xFFFF);
    bth.SetFecn(true);
    bth.SetDestQp(0x123456);
    bth.SetAckRequest(true);
    bth.SetPsn(0xABCDEF);
    // byte 0: OpCode 0x0A
    // byte 1: SE=1 M=0 PadCnt=10b TVer=0000b -> 1010 0000b = 0xA0
    // bytes 2-3: P_Key 0xFFFF
    // byte 4: F=1 B=0 resv6=0 -> 1000 0000b = 0x80
    // bytes 5-7: DestQP 0x123456
    // byte 8: A=1 resv7=0 -> 0x80
    // bytes 9-11: PSN 0xABCDEF
    const Bytes expected{0x0A, 0xA0, 0xFF, 0xFF, 0x80, 0x12, 0x34, 0x56, 0x80, 0xAB, 0xCD, 0xEF};
    EXPECT_EQ(Serialized(bth), expected);

    // The other bits of bytes 1 and 4: M=1 PadCnt=11b TVer=1111b -> 0111 1111b = 0x7F; F=0 B=1 ->
    // 0x40; A=0 -> 0x00.
    IbBthHeader cnp;
    cnp.SetOpcode(IbBthHeader::ROCE_CNP);
    cnp.SetMigReq(true);
    cnp.SetPadCount(3);
    cnp.SetTver(15);
    cnp.SetPkey(0x8001);
    cnp.SetBecn(true);
    cnp.SetDestQp(0xFFFFFF);
    cnp.SetPsn(0x000102);
    EXPECT_EQ(Serialized(cnp),
              (Bytes{0x81, 0x7F, 0x80, 0x01, 0x40, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x01, 0x02}));
}

TEST(IbHeaders, BthParsesACapturedCnp)
{
    // The BTH of a CNP captured on a Mellanox ConnectX-4 Lx (secdev/scapy,
    // test/contrib/roce.uts, "RoCE CNP captured on ConnectX-4 Lx"): BECN set, DestQP 0x118.
    const IbBthHeader bth =
        Parsed<IbBthHeader>(Bytes{0x81, 0x00, 0xFF, 0xFF, 0x40, 0x00, 0x01, 0x18, 0, 0, 0, 0});
    EXPECT_EQ(bth.GetOpcode(), IbBthHeader::ROCE_CNP);
    EXPECT_FALSE(bth.GetSolicitedEvent());
    EXPECT_EQ(bth.GetPkey(), 0xFFFF);
    EXPECT_FALSE(bth.GetFecn());
    EXPECT_TRUE(bth.GetBecn());
    EXPECT_EQ(bth.GetDestQp(), 0x118u);
    EXPECT_FALSE(bth.GetAckRequest());
    EXPECT_EQ(bth.GetPsn(), 0u);
}

TEST(IbHeaders, BthIgnoresReservedBitsOnReceive)
{
    // Every reserved bit set (resv6 of byte 4, resv7 of byte 8): read, then written as zero.
    const Bytes received{0x04, 0x00, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x07, 0xFF, 0x00, 0x00, 0x09};
    const IbBthHeader bth = Parsed<IbBthHeader>(received);
    EXPECT_TRUE(bth.GetFecn());
    EXPECT_TRUE(bth.GetBecn());
    EXPECT_TRUE(bth.GetAckRequest());
    EXPECT_EQ(bth.GetDestQp(), 7u);
    EXPECT_EQ(bth.GetPsn(), 9u);
    EXPECT_EQ(Serialized(bth),
              (Bytes{0x04, 0x00, 0xFF, 0xFF, 0xC0, 0x00, 0x00, 0x07, 0x80, 0x00, 0x00, 0x09}));
}

TEST(IbHeaders, BthRejectsOutOfRangeValues)
{
#ifdef NS3_ASSERT_ENABLE
    IbBthHeader bth;
    EXPECT_DEATH(bth.SetPsn(0x1000000), "PSN");
    EXPECT_DEATH(bth.SetDestQp(0x1000000), "DestQP");
    EXPECT_DEATH(bth.SetPadCount(4), "PadCnt");
    EXPECT_DEATH(bth.SetTver(16), "TVer");
#else
    GTEST_SKIP() << "ns-3 asserts are compiled out";
#endif
}

TEST(IbHeaders, OpcodePredicates)
{
    using B = IbBthHeader;
    // The opcodes followed by a RETH: WRITE First, Only, Only with Immediate; READ Request.
    for (uint32_t op = 0; op <= 0xFF; ++op)
    {
        const auto o = static_cast<uint8_t>(op);
        const bool reth = o == 0x06 || o == 0x0A || o == 0x0B || o == 0x0C;
        const bool aeth = o == 0x0D || o == 0x0F || o == 0x10 || o == 0x11;
        const bool imm = o == 0x03 || o == 0x05 || o == 0x09 || o == 0x0B;
        EXPECT_EQ(B::HasReth(o), reth) << "opcode " << op;
        EXPECT_EQ(B::HasAeth(o), aeth) << "opcode " << op;
        EXPECT_EQ(B::HasImmediate(o), imm) << "opcode " << op;
        EXPECT_EQ(B::IsSend(o), op <= 0x05) << "opcode " << op;
        EXPECT_EQ(B::IsWrite(o), op >= 0x06 && op <= 0x0B) << "opcode " << op;
        EXPECT_EQ(B::IsReadResponse(o), op >= 0x0D && op <= 0x10) << "opcode " << op;
    }

    EXPECT_TRUE(B::IsFirst(B::RC_SEND_FIRST));
    EXPECT_TRUE(B::IsFirst(B::RC_SEND_ONLY));
    EXPECT_TRUE(B::IsFirst(B::RC_SEND_ONLY_IMM));
    EXPECT_TRUE(B::IsFirst(B::RC_WRITE_FIRST));
    EXPECT_TRUE(B::IsFirst(B::RC_WRITE_ONLY));
    EXPECT_TRUE(B::IsFirst(B::RC_WRITE_ONLY_IMM));
    EXPECT_TRUE(B::IsFirst(B::RC_READ_RESPONSE_FIRST));
    EXPECT_TRUE(B::IsFirst(B::RC_READ_RESPONSE_ONLY));
    EXPECT_FALSE(B::IsFirst(B::RC_SEND_MIDDLE));
    EXPECT_FALSE(B::IsFirst(B::RC_SEND_LAST));
    EXPECT_FALSE(B::IsFirst(B::RC_WRITE_MIDDLE));
    EXPECT_FALSE(B::IsFirst(B::RC_WRITE_LAST_IMM));
    EXPECT_FALSE(B::IsFirst(B::RC_READ_RESPONSE_LAST));
    EXPECT_FALSE(B::IsFirst(B::RC_READ_REQUEST));
    EXPECT_FALSE(B::IsFirst(B::RC_ACKNOWLEDGE));
    EXPECT_FALSE(B::IsFirst(B::ROCE_CNP));

    EXPECT_TRUE(B::IsLast(B::RC_SEND_LAST));
    EXPECT_TRUE(B::IsLast(B::RC_SEND_LAST_IMM));
    EXPECT_TRUE(B::IsLast(B::RC_SEND_ONLY));
    EXPECT_TRUE(B::IsLast(B::RC_SEND_ONLY_IMM));
    EXPECT_TRUE(B::IsLast(B::RC_WRITE_LAST));
    EXPECT_TRUE(B::IsLast(B::RC_WRITE_LAST_IMM));
    EXPECT_TRUE(B::IsLast(B::RC_WRITE_ONLY));
    EXPECT_TRUE(B::IsLast(B::RC_WRITE_ONLY_IMM));
    EXPECT_TRUE(B::IsLast(B::RC_READ_RESPONSE_LAST));
    EXPECT_TRUE(B::IsLast(B::RC_READ_RESPONSE_ONLY));
    EXPECT_FALSE(B::IsLast(B::RC_SEND_FIRST));
    EXPECT_FALSE(B::IsLast(B::RC_WRITE_FIRST));
    EXPECT_FALSE(B::IsLast(B::RC_WRITE_MIDDLE));
    EXPECT_FALSE(B::IsLast(B::RC_READ_RESPONSE_FIRST));
    EXPECT_FALSE(B::IsLast(B::RC_READ_RESPONSE_MIDDLE));
    EXPECT_FALSE(B::IsLast(B::RC_READ_REQUEST));
    EXPECT_FALSE(B::IsLast(B::RC_ACKNOWLEDGE));
    EXPECT_FALSE(B::IsLast(B::ROCE_CNP));

    // Other transports (UC = 0x2N, UD = 0x6N) are not described here.
    EXPECT_FALSE(B::IsFirst(0x24));
    EXPECT_FALSE(B::IsLast(0x24));
}

TEST(IbHeaders, OpcodeNames)
{
    EXPECT_EQ(IbBthHeader::OpcodeName(0x00), "RC_SEND_FIRST");
    EXPECT_EQ(IbBthHeader::OpcodeName(0x0A), "RC_WRITE_ONLY");
    EXPECT_EQ(IbBthHeader::OpcodeName(0x0C), "RC_READ_REQUEST");
    EXPECT_EQ(IbBthHeader::OpcodeName(0x10), "RC_READ_RESPONSE_ONLY");
    EXPECT_EQ(IbBthHeader::OpcodeName(0x11), "RC_ACKNOWLEDGE");
    EXPECT_EQ(IbBthHeader::OpcodeName(0x81), "ROCE_CNP");
    EXPECT_EQ(IbBthHeader::OpcodeName(0x64), "UNKNOWN_0x64");
    // Every RC opcode 0x00..0x11 has a name of its own.
    for (uint32_t op = 0; op <= 0x11; ++op)
    {
        EXPECT_EQ(IbBthHeader::OpcodeName(static_cast<uint8_t>(op)).rfind("RC_", 0), 0u) << op;
    }
}

TEST(IbHeaders, BthPrintShowsTheFields)
{
    IbBthHeader bth;
    bth.SetOpcode(IbBthHeader::RC_WRITE_ONLY);
    bth.SetDestQp(0x123456);
    bth.SetPsn(77);
    bth.SetFecn(true);
    std::ostringstream os;
    bth.Print(os);
    EXPECT_EQ(os.str(),
              "opcode=RC_WRITE_ONLY(0x0A) se=0 m=0 pad=0 tver=0 pkey=0xFFFF fecn=1 becn=0 "
              "dqp=1193046 ackreq=0 psn=77");
}

TEST(IbHeaders, RethRoundTripAndExactBytes)
{
    IbRethHeader reth;
    EXPECT_EQ(reth.GetSerializedSize(), 16u);
    reth.SetVirtualAddress(0x0123456789ABCDEFULL);
    reth.SetRkey(0xDEADBEEF);
    reth.SetDmaLength(0x00010000);
    // bytes 0-7 VA, 8-11 R_Key, 12-15 DMA Length, each most significant byte first
    EXPECT_EQ(Serialized(reth),
              (Bytes{0x01,
                     0x23,
                     0x45,
                     0x67,
                     0x89,
                     0xAB,
                     0xCD,
                     0xEF,
                     0xDE,
                     0xAD,
                     0xBE,
                     0xEF,
                     0x00,
                     0x01,
                     0x00,
                     0x00}));
    const IbRethHeader copy = RoundTrip(reth);
    EXPECT_EQ(copy.GetVirtualAddress(), 0x0123456789ABCDEFULL);
    EXPECT_EQ(copy.GetRkey(), 0xDEADBEEFu);
    EXPECT_EQ(copy.GetDmaLength(), 0x00010000u);

    IbRethHeader max;
    max.SetVirtualAddress(UINT64_MAX);
    max.SetRkey(UINT32_MAX);
    max.SetDmaLength(UINT32_MAX);
    const IbRethHeader maxCopy = RoundTrip(max);
    EXPECT_EQ(maxCopy.GetVirtualAddress(), UINT64_MAX);
    EXPECT_EQ(maxCopy.GetRkey(), UINT32_MAX);
    EXPECT_EQ(maxCopy.GetDmaLength(), UINT32_MAX);
}

TEST(IbHeaders, AethAckExactBytes)
{
    IbAethHeader aeth;
    EXPECT_EQ(aeth.GetSerializedSize(), 4u);
    aeth.SetAck(5);
    aeth.SetMsn(0x0A0B0C);
    // syndrome: 0 | 00 (ACK) | 00101 (credits 5) = 0x05; MSN 0x0A0B0C
    EXPECT_EQ(Serialized(aeth), (Bytes{0x05, 0x0A, 0x0B, 0x0C}));
    EXPECT_TRUE(aeth.IsAck());
    EXPECT_FALSE(aeth.IsNak());
    EXPECT_FALSE(aeth.IsRnrNak());
    EXPECT_EQ(aeth.GetCreditCount(), 5);

    const IbAethHeader copy = RoundTrip(aeth);
    EXPECT_TRUE(copy.IsAck());
    EXPECT_EQ(copy.GetCreditCount(), 5);
    EXPECT_EQ(copy.GetMsn(), 0x0A0B0Cu);
    EXPECT_EQ(copy.GetSyndrome(), 0x05);

    aeth.SetAck(IbAethHeader::CREDITS_INVALID);
    aeth.SetMsn(0xFFFFFF);
    EXPECT_EQ(Serialized(aeth), (Bytes{0x1F, 0xFF, 0xFF, 0xFF}));
    const IbAethHeader maxCopy = RoundTrip(aeth);
    EXPECT_EQ(maxCopy.GetCreditCount(), 31);
    EXPECT_EQ(maxCopy.GetMsn(), 0xFFFFFFu);
}

TEST(IbHeaders, AethNakExactBytes)
{
    IbAethHeader aeth;
    aeth.SetNak(IbAethHeader::PSN_SEQUENCE_ERROR);
    aeth.SetMsn(0x123456);
    // syndrome: 0 | 11 (NAK) | 00000 (PSN sequence error) = 0x60
    EXPECT_EQ(Serialized(aeth), (Bytes{0x60, 0x12, 0x34, 0x56}));
    const IbAethHeader copy = RoundTrip(aeth);
    EXPECT_TRUE(copy.IsNak());
    EXPECT_FALSE(copy.IsAck());
    EXPECT_FALSE(copy.IsRnrNak());
    EXPECT_EQ(copy.GetNakCode(), IbAethHeader::PSN_SEQUENCE_ERROR);
    EXPECT_EQ(copy.GetMsn(), 0x123456u);

    // The other NAK codes: 0x60 | code.
    const IbAethHeader::NakCode codes[] = {IbAethHeader::INVALID_REQUEST,
                                           IbAethHeader::REMOTE_ACCESS_ERROR,
                                           IbAethHeader::REMOTE_OPERATIONAL_ERROR,
                                           IbAethHeader::INVALID_RD_REQUEST};
    for (const auto code : codes)
    {
        aeth.SetNak(code);
        EXPECT_EQ(aeth.GetSyndrome(), 0x60 | code);
        EXPECT_EQ(RoundTrip(aeth).GetNakCode(), code);
    }
    EXPECT_EQ(static_cast<int>(IbAethHeader::REMOTE_ACCESS_ERROR), 2);
    EXPECT_EQ(static_cast<int>(IbAethHeader::INVALID_RD_REQUEST), 4);
}

TEST(IbHeaders, AethRnrNakAndReservedType)
{
    IbAethHeader aeth;
    aeth.SetRnrNak(0x1F);
    // syndrome: 0 | 01 (RNR NAK) | 11111 = 0x3F
    EXPECT_EQ(Serialized(aeth), (Bytes{0x3F, 0x00, 0x00, 0x00}));
    EXPECT_TRUE(aeth.IsRnrNak());
    EXPECT_FALSE(aeth.IsNak());
    EXPECT_FALSE(aeth.IsAck());
    EXPECT_EQ(aeth.GetRnrTimer(), 0x1F);

    // Type 10 is reserved: read without complaint, none of the three kinds.
    const IbAethHeader reserved = Parsed<IbAethHeader>(Bytes{0x41, 0x00, 0x00, 0x2A});
    EXPECT_FALSE(reserved.IsAck());
    EXPECT_FALSE(reserved.IsNak());
    EXPECT_FALSE(reserved.IsRnrNak());
    EXPECT_EQ(reserved.GetSyndrome(), 0x41);
    EXPECT_EQ(reserved.GetMsn(), 42u);
}

TEST(IbHeaders, AethRejectsOutOfRangeValues)
{
#ifdef NS3_ASSERT_ENABLE
    IbAethHeader aeth;
    EXPECT_DEATH(aeth.SetMsn(0x1000000), "MSN");
    EXPECT_DEATH(aeth.SetAck(32), "credit");
    EXPECT_DEATH(aeth.SetSyndrome(0x80), "reserved");
    aeth.SetAck(3);
    EXPECT_DEATH(aeth.GetNakCode(), "no NAK");
#else
    GTEST_SKIP() << "ns-3 asserts are compiled out";
#endif
}

TEST(IbHeaders, PlainFieldsAndTheirHeaderObjectsWriteTheSameBytes)
{
    // The per-packet path builds the plain IbBth, IbReth and IbAeth and writes them itself
    // (RdmaTransportHeaders::WriteTo); AddTo wraps them in their ns-3 Headers. Every field must
    // reach the Header's bytes, and the plain defaults must be the Header's (P_Key 0xFFFF).
    IbBth bth;
    bth.SetOpcode(IbBth::RC_WRITE_FIRST);
    bth.SetSolicitedEvent(true);
    bth.SetMigReq(true);
    bth.SetPadCount(2);
    bth.SetTver(5);
    bth.SetPkey(0x8001);
    bth.SetFecn(true);
    bth.SetBecn(true);
    bth.SetDestQp(0xABCDEF);
    bth.SetAckRequest(true);
    bth.SetPsn(0x123456);
    IbReth reth;
    reth.SetVirtualAddress(0x0123456789ABCDEFULL);
    reth.SetRkey(0xDEADBEEF);
    reth.SetDmaLength(70000);
    IbAeth aeth;
    aeth.SetNak(IbAeth::IRN_SELECTIVE_NAK);
    aeth.SetMsn(0x654321);
    for (const IbBth& fields : {bth, IbBth()})
    {
        Bytes plain(IbBth::SIZE);
        fields.Write(plain.data());
        EXPECT_EQ(Serialized(IbBthHeader(fields)), plain);
    }
    EXPECT_EQ(Serialized(IbBthHeader(IbBth())), Serialized(IbBthHeader()));
    for (const IbReth& fields : {reth, IbReth()})
    {
        Bytes plain(IbReth::SIZE);
        fields.Write(plain.data());
        EXPECT_EQ(Serialized(IbRethHeader(fields)), plain);
    }
    for (const IbAeth& fields : {aeth, IbAeth()})
    {
        Bytes plain(IbAeth::SIZE);
        fields.Write(plain.data());
        EXPECT_EQ(Serialized(IbAethHeader(fields)), plain);
    }
    // And back: a Header read from the wire holds the fields that were written.
    const IbBthHeader parsed = Parsed<IbBthHeader>(Serialized(IbBthHeader(bth)));
    EXPECT_EQ(parsed.GetDestQp(), 0xABCDEFu);
    EXPECT_EQ(parsed.GetPsn(), 0x123456u);
    EXPECT_EQ(parsed.GetPkey(), 0x8001);
    EXPECT_TRUE(parsed.GetBecn());
}
