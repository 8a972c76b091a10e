/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The IEEE 802.1Qbb PFC frame payload: round trip, the exact bytes, and the pause-quanta
// arithmetic (one quantum = 512 bit times), checked against values computed by hand.

#include "ns3/data-rate.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/pfc-header.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

using Bytes = std::vector<uint8_t>;

Bytes
Serialized(const PfcHeader& header)
{
    Packet packet;
    packet.AddHeader(header);
    Bytes bytes(packet.GetSize());
    packet.CopyData(bytes.data(), static_cast<uint32_t>(bytes.size()));
    return bytes;
}

/// The quanta tests state their expectations in picoseconds: make that the time resolution
/// (possible once per process, before any simulation runs).
void
UsePicoseconds()
{
    static const bool done = [] {
        if (Time::GetResolution() != Time::PS)
        {
            Time::SetResolution(Time::PS);
        }
        return true;
    }();
    (void)done;
}

} // namespace

TEST(PfcHeader, ConstantsAndAddress)
{
    EXPECT_EQ(PfcHeader::OPCODE, 0x0101);
    EXPECT_EQ(PfcHeader::ETHERTYPE, 0x8808);
    const Mac48Address address = PfcHeader::GetMulticastAddress();
    EXPECT_EQ(address, Mac48Address("01:80:C2:00:00:01"));
    EXPECT_TRUE(address.IsGroup());
    PfcHeader pfc;
    EXPECT_EQ(pfc.GetSerializedSize(), 46u);
    EXPECT_TRUE(pfc.IsValid());
    EXPECT_EQ(pfc.GetEnableVector(), 0);
}

TEST(PfcHeader, ExactBytesPausingPriorities3And5)
{
    PfcHeader pfc;
    pfc.SetPause(3, 0xFFFF);
    pfc.SetPause(5, 0x1234);
    EXPECT_EQ(pfc.GetEnableVector(), 0x28);

    // opcode 0x0101; enable vector 0x0028 (bits 3 and 5); time[0..7]; 26 bytes of padding.
    Bytes expected{0x01, 0x01, 0x00, 0x28};
    const Bytes times{0x00,
                      0x00,
                      0x00,
                      0x00,
                      0x00,
                      0x00,
                      0xFF,
                      0xFF,
                      0x00,
                      0x00,
                      0x12,
                      0x34,
                      0x00,
                      0x00,
                      0x00,
                      0x00};
    expected.insert(expected.end(), times.begin(), times.end());
    expected.resize(46, 0x00);
    const Bytes actual = Serialized(pfc);
    ASSERT_EQ(actual.size(), 46u);
    EXPECT_EQ(actual, expected);
}

TEST(PfcHeader, ResumeIsAnEnabledZero)
{
    PfcHeader pfc;
    pfc.SetPause(0, 0);
    pfc.SetPause(7, 0);
    EXPECT_TRUE(pfc.IsEnabled(0));
    EXPECT_TRUE(pfc.IsEnabled(7));
    EXPECT_FALSE(pfc.IsEnabled(1));
    EXPECT_EQ(pfc.GetQuanta(0), 0);
    const Bytes bytes = Serialized(pfc);
    EXPECT_EQ(bytes[2], 0x00);
    EXPECT_EQ(bytes[3], 0x81);
    for (std::size_t k = 4; k < bytes.size(); ++k)
    {
        EXPECT_EQ(bytes[k], 0) << "byte " << k;
    }
}

TEST(PfcHeader, RoundTrip)
{
    PfcHeader pfc;
    for (uint8_t p = 0; p < 8; ++p)
    {
        if (p != 2)
        {
            pfc.SetPause(p, static_cast<uint16_t>(0x1111 * p + 1));
        }
    }
    pfc.SetPause(6, 0xFFFF);
    Ptr<Packet> packet = Create<Packet>(0);
    packet->AddHeader(pfc);
    PfcHeader copy;
    EXPECT_EQ(packet->RemoveHeader(copy), 46u);
    EXPECT_EQ(packet->GetSize(), 0u);
    EXPECT_TRUE(copy.IsValid());
    EXPECT_EQ(copy.GetOpcode(), PfcHeader::OPCODE);
    EXPECT_EQ(copy.GetEnableVector(), 0xFB);
    for (uint8_t p = 0; p < 8; ++p)
    {
        EXPECT_EQ(copy.IsEnabled(p), p != 2) << "priority " << +p;
        EXPECT_EQ(copy.GetQuanta(p), pfc.GetQuanta(p)) << "priority " << +p;
    }
    EXPECT_EQ(copy.GetQuanta(6), 0xFFFF);
    EXPECT_EQ(copy.GetQuanta(2), 0);
    EXPECT_EQ(copy.GetQuanta(1), 0x1112);
}

TEST(PfcHeader, AnotherOpcodeIsInvalidNotFatal)
{
    // An IEEE 802.3x PAUSE (opcode 0x0001, one pause time) received where PFC was expected.
    Bytes pause(46, 0x00);
    pause[1] = 0x01;
    pause[2] = 0xFF;
    pause[3] = 0xFF;
    Packet packet(pause.data(), static_cast<uint32_t>(pause.size()));
    PfcHeader pfc;
    EXPECT_EQ(packet.RemoveHeader(pfc), 46u);
    EXPECT_FALSE(pfc.IsValid());
    EXPECT_EQ(pfc.GetOpcode(), 0x0001);
    std::ostringstream os;
    pfc.Print(os);
    EXPECT_NE(os.str().find("not PFC"), std::string::npos) << os.str();

    // The reserved upper octet of the enable vector is ignored.
    Bytes pfcBytes(46, 0x00);
    pfcBytes[0] = 0x01;
    pfcBytes[1] = 0x01;
    pfcBytes[2] = 0xFF;
    pfcBytes[3] = 0x01;
    pfcBytes[4] = 0x00;
    pfcBytes[5] = 0x10;
    Packet pfcPacket(pfcBytes.data(), static_cast<uint32_t>(pfcBytes.size()));
    EXPECT_EQ(pfcPacket.RemoveHeader(pfc), 46u);
    EXPECT_TRUE(pfc.IsValid());
    EXPECT_EQ(pfc.GetEnableVector(), 0x01);
    EXPECT_EQ(pfc.GetQuanta(0), 0x10);
}

TEST(PfcHeader, QuantaToTime)
{
    UsePicoseconds();
    // One quantum is 512 bits: 5.12 ns at 100 Gb/s, 20.48 ns at 25 Gb/s.
    // 65535 * 512 bits = 33553920 bits: 335.5392 us at 100 Gb/s, 1342.1568 us at 25 Gb/s.
    EXPECT_EQ(PfcHeader::QuantaToTime(0, DataRate("100Gbps")), Time(0));
    EXPECT_EQ(PfcHeader::QuantaToTime(1, DataRate("100Gbps")), PicoSeconds(5120));
    EXPECT_EQ(PfcHeader::QuantaToTime(65535, DataRate("100Gbps")), PicoSeconds(335539200));
    EXPECT_EQ(PfcHeader::QuantaToTime(1, DataRate("25Gbps")), PicoSeconds(20480));
    EXPECT_EQ(PfcHeader::QuantaToTime(65535, DataRate("25Gbps")), PicoSeconds(1342156800));
    // 10 Gb/s: 51.2 ns per quantum; 1000 quanta = 51.2 us.
    EXPECT_EQ(PfcHeader::QuantaToTime(1000, DataRate("10Gbps")), NanoSeconds(51200));
}

TEST(PfcHeader, TimeToQuantaRoundsUpAndSaturates)
{
    UsePicoseconds();
    const DataRate rate100("100Gbps");
    EXPECT_EQ(PfcHeader::TimeToQuanta(Time(0), rate100), 0);
    EXPECT_EQ(PfcHeader::TimeToQuanta(PicoSeconds(-5), rate100), 0);
    EXPECT_EQ(PfcHeader::TimeToQuanta(PicoSeconds(1), rate100), 1);
    EXPECT_EQ(PfcHeader::TimeToQuanta(PicoSeconds(5120), rate100), 1);
    EXPECT_EQ(PfcHeader::TimeToQuanta(PicoSeconds(5121), rate100), 2);
    EXPECT_EQ(PfcHeader::TimeToQuanta(PicoSeconds(10240), rate100), 2);
    EXPECT_EQ(PfcHeader::TimeToQuanta(PicoSeconds(335539200), rate100), 65535);
    EXPECT_EQ(PfcHeader::TimeToQuanta(PicoSeconds(335539199), rate100), 65535);
    EXPECT_EQ(PfcHeader::TimeToQuanta(PicoSeconds(335539200 - 5120), rate100), 65534);
    EXPECT_EQ(PfcHeader::TimeToQuanta(PicoSeconds(335539201), rate100), 65535); // saturated
    EXPECT_EQ(PfcHeader::TimeToQuanta(Seconds(1), rate100), 65535);

    // 25 Gb/s, 20.48 ns per quantum: 1 us = 48.83 quanta -> 49.
    const DataRate rate25("25Gbps");
    EXPECT_EQ(PfcHeader::TimeToQuanta(MicroSeconds(1), rate25), 49);
    EXPECT_EQ(PfcHeader::TimeToQuanta(PicoSeconds(20480 * 48), rate25), 48);
    // 400 Gb/s, 1.28 ns per quantum: 10 us = 7812.5 quanta -> 7813.
    EXPECT_EQ(PfcHeader::TimeToQuanta(MicroSeconds(10), DataRate("400Gbps")), 7813);

    // TimeToQuanta inverts QuantaToTime exactly.
    for (const DataRate& rate : {rate100, rate25, DataRate("40Gbps"), DataRate("1Gbps")})
    {
        for (uint32_t q : {1u, 2u, 3u, 100u, 4095u, 65534u, 65535u})
        {
            const auto quanta = static_cast<uint16_t>(q);
            const Time t = PfcHeader::QuantaToTime(quanta, rate);
            EXPECT_EQ(PfcHeader::TimeToQuanta(t, rate), quanta) << rate << " " << q;
            if (q < 65535)
            {
                EXPECT_EQ(PfcHeader::TimeToQuanta(t + PicoSeconds(1), rate), quanta + 1)
                    << rate << " " << q;
            }
        }
    }
}

TEST(PfcHeader, RejectsBadPriority)
{
#ifdef NS3_ASSERT_ENABLE
    PfcHeader pfc;
    EXPECT_DEATH(pfc.SetPause(8, 1), "priority");
#else
    GTEST_SKIP() << "ns-3 asserts are compiled out";
#endif
}
