/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Frames with their headers packed into one RdmaPackedHeader (ns-3's packet metadata off) carry
// the bytes the header objects write (metadata on): the same run, both ways, byte for byte.

#include "star-fabric.h"

#include "ns3/core-module.h"
#include "ns3/error-model.h"
#include "ns3/ib-aeth-header.h"
#include "ns3/ib-bth-header.h"
#include "ns3/ib-channel.h"
#include "ns3/ib-host-adapter.h"
#include "ns3/ipv4-header.h"
#include "ns3/network-module.h"
#include "ns3/packet-byte-address.h"
#include "ns3/pfc-net-device.h"
#include "ns3/rdma-transport.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-transport.h"

#include <cstring>
#include <gtest/gtest.h>
#include <set>
#include <vector>

using namespace ns3;

namespace
{

using Frames = std::vector<std::vector<uint8_t>>;

void
Capture(Frames* frames, Ptr<const Packet> frame)
{
    std::vector<uint8_t> bytes(frame->GetSize());
    frame->CopyData(bytes.data(), bytes.size());
    frames->push_back(std::move(bytes));
}

/// WRITEs, a READ and a SEND into one port with ECN marking (CNPs) and a lossy link (NAKs),
/// with real ICRCs; every frame any port starts, in order.
Frames
RoceRun()
{
    Frames frames;
    {
        RoceHelper h;
        h.SetMmuAttribute("EcnKmin", UintegerValue(0));
        h.SetMmuAttribute("EcnKmax", UintegerValue(1));
        h.SetNicAttribute("ComputeIcrc", BooleanValue(true));
        h.SetNicAttribute("CnpInterval", StringValue("5us"));
        test::BuildStar(h, 3);
        h.Finalize();
        Ptr<RateErrorModel> loss = CreateObject<RateErrorModel>();
        loss->SetAttribute("ErrorRate", DoubleValue(0.01));
        loss->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        loss->AssignStreams(11);
        h.GetNic(2)->GetDevice()->SetAttribute("ReceiveErrorModel", PointerValue(loss));
        Config::ConnectWithoutContext("/NodeList/*/DeviceList/*/$ns3::PfcNetDevice/PhyTxBegin",
                                      MakeBoundCallback(&Capture, &frames));
        RoceTransport rdma(h);
        rdma.Post(0, 2, RdmaVerb::WRITE, 300000, Time(0), 3);
        rdma.Post(1, 2, RdmaVerb::WRITE, 200000, Time(0), 3);
        rdma.Post(2, 0, RdmaVerb::READ, 50000, MicroSeconds(3), 3);
        rdma.Post(1, 0, RdmaVerb::SEND, 500, MicroSeconds(5), 3);
        Simulator::Run();
        EXPECT_EQ(rdma.CollectStatistics().messagesCompleted, 4u);
    }
    Simulator::Destroy();
    return frames;
}

/// A READ, a SEND and WRITEs both ways on one InfiniBand link.
Frames
IbRun()
{
    Frames frames;
    {
        Ptr<IbNetDevice> ports[2];
        Ptr<IbHostAdapter> adapters[2];
        for (int i = 0; i < 2; ++i)
        {
            Ptr<Node> node = CreateObject<Node>();
            ports[i] = CreateObject<IbNetDevice>();
            node->AddDevice(ports[i]);
            adapters[i] = CreateObject<IbHostAdapter>();
            adapters[i]->Install(ports[i], static_cast<uint16_t>(i + 1));
            ports[i]->TraceConnectWithoutContext("PhyTxBegin",
                                                 MakeBoundCallback(&Capture, &frames));
        }
        Ptr<IbChannel> channel = CreateObject<IbChannel>();
        ports[0]->Attach(channel);
        ports[1]->Attach(channel);
        auto [qa, qb] = IbHostAdapter::ConnectPair(adapters[0], adapters[1], 0);
        qa->Post(RdmaVerb::READ, 30000, RdmaQueuePair::CompletionCallback());
        qa->Post(RdmaVerb::SEND, 5000, RdmaQueuePair::CompletionCallback());
        qb->Post(RdmaVerb::WRITE, 20000, RdmaQueuePair::CompletionCallback());
        qa->Post(RdmaVerb::WRITE, 1, RdmaQueuePair::CompletionCallback());
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        EXPECT_EQ(qb->GetBytesDelivered(), 5000u + 1u);
        Simulator::Destroy();
    }
    return frames;
}

/// The BTH opcodes of RoCEv2 frames (Ethernet 14, IPv4 20, UDP 8), and whether a NAK was seen.
std::set<uint8_t>
RoceOpcodes(const Frames& frames, bool* nak)
{
    std::set<uint8_t> opcodes;
    *nak = false;
    for (const auto& f : frames)
    {
        if (f.size() > 46 && f[12] == 0x08 && f[13] == 0x00)
        {
            opcodes.insert(f[42]);
            // AETH syndrome 011xxxxx: a NAK (IBTA 9.7.5.2.2).
            *nak = *nak || (f[42] == IbBthHeader::RC_ACKNOWLEDGE && (f[54] >> 5) == 3);
        }
    }
    return opcodes;
}

} // namespace

TEST(PackedFrame, RoceAndInfinibandFramesAreTheHeaderObjectsBytes)
{
    // Packed first: metadata, once on, stays on for the process.
    ASSERT_FALSE(IsPacketMetadataEnabled());
    const Frames packedRoce = RoceRun();
    const Frames packedIb = IbRun();
    Packet::EnableChecking(); // header objects, and RemoveHeader checks their types
    ASSERT_TRUE(IsPacketMetadataEnabled());
    const Frames objectsRoce = RoceRun();
    const Frames objectsIb = IbRun();

    bool nak = false;
    const std::set<uint8_t> opcodes = RoceOpcodes(objectsRoce, &nak);
    for (uint8_t op : {IbBthHeader::RC_WRITE_FIRST,
                       IbBthHeader::RC_WRITE_MIDDLE,
                       IbBthHeader::RC_WRITE_LAST,
                       IbBthHeader::RC_SEND_ONLY,
                       IbBthHeader::RC_READ_REQUEST,
                       IbBthHeader::RC_READ_RESPONSE_FIRST,
                       IbBthHeader::RC_READ_RESPONSE_MIDDLE,
                       IbBthHeader::RC_READ_RESPONSE_LAST,
                       IbBthHeader::RC_ACKNOWLEDGE,
                       IbBthHeader::ROCE_CNP})
    {
        EXPECT_EQ(opcodes.count(op), 1u) << "no " << IbBthHeader::OpcodeName(op);
    }
    EXPECT_TRUE(nak) << "the lossy link caused no NAK";

    ASSERT_EQ(packedRoce.size(), objectsRoce.size());
    for (std::size_t i = 0; i < packedRoce.size(); ++i)
    {
        ASSERT_EQ(packedRoce[i], objectsRoce[i]) << "RoCEv2 frame " << i;
    }
    ASSERT_GT(objectsIb.size(), 20u);
    ASSERT_EQ(packedIb.size(), objectsIb.size());
    for (std::size_t i = 0; i < packedIb.size(); ++i)
    {
        ASSERT_EQ(packedIb[i], objectsIb[i]) << "InfiniBand frame " << i;
    }
}

namespace
{

/// @return bytes 1, 8, 15, ... (100 of them), each distinct from its neighbours
std::vector<uint8_t>
CountingBytes()
{
    std::vector<uint8_t> bytes(100);
    for (std::size_t i = 0; i < bytes.size(); ++i)
    {
        bytes[i] = static_cast<uint8_t>(7 * i + 1);
    }
    return bytes;
}

/// The BTH of the frames made below.
IbBthHeader
SendBth()
{
    IbBthHeader bth;
    bth.SetOpcode(IbBthHeader::RC_SEND_ONLY);
    bth.SetDestQp(0x123456);
    bth.SetPsn(0xABCDE);
    return bth;
}

/**
 * A frame as a NIC builds it: IPv4 and a BTH on a payload of 4 096 zeros, which ns-3 does not
 * store.
 * @param headers set to the headers' bytes
 * @return the frame
 */
Ptr<Packet>
FrameOnZeros(uint32_t& headers)
{
    Ptr<Packet> frame = Create<Packet>(4096);
    const IbBthHeader bth = SendBth();
    frame->AddHeader(bth);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address("10.0.0.1"));
    ip.SetDestination(Ipv4Address("10.0.1.2"));
    ip.SetPayloadSize(frame->GetSize());
    frame->AddHeader(ip);
    headers = ip.GetSerializedSize() + bth.GetSerializedSize();
    return frame;
}

} // namespace

// PacketBytesAddress names where a packet keeps its first byte, for the fetch of a frame's
// headers ahead of its arrival: the bytes there are those CopyData gives, as the packet is
// made of bytes, has headers taken off it (also a copy that shares its bytes), and has headers
// put on a payload of zeros (as a NIC builds a frame, its payload not stored).
TEST(PackedFrame, ThePacketsByteAddressHoldsItsFirstBytes)
{
    const std::vector<uint8_t> bytes = CountingBytes();
    Ptr<Packet> made = Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size()));
    EXPECT_EQ(std::memcmp(PacketBytesAddress(*made), bytes.data(), bytes.size()), 0);
    made->RemoveAtStart(28);
    EXPECT_EQ(std::memcmp(PacketBytesAddress(*made), bytes.data() + 28, bytes.size() - 28), 0);
    Ptr<Packet> copy = made->Copy(); // (the same block, shared)
    copy->RemoveAtStart(12);
    EXPECT_EQ(std::memcmp(PacketBytesAddress(*copy), bytes.data() + 40, bytes.size() - 40), 0);
    EXPECT_EQ(std::memcmp(PacketBytesAddress(*made), bytes.data() + 28, bytes.size() - 28), 0);

    uint32_t headers = 0;
    Ptr<Packet> frame = FrameOnZeros(headers);
    std::vector<uint8_t> copied(headers);
    ASSERT_EQ(frame->CopyData(copied.data(), headers), headers);
    EXPECT_EQ(std::memcmp(PacketBytesAddress(*frame), copied.data(), headers), 0);
}

// PacketStoredRun counts the first bytes a packet's buffer stores in a row from
// PacketBytesAddress, which a NIC then reads in place rather than copying them out
// (RdmaNic::PortReceive): each count is checked against CopyData's bytes, and a count that ran
// into a zero-filled payload, or short of a stored trailer, would name bytes that are not there.
TEST(PackedFrame, ThePacketsStoredRunIsWhatItKeepsInARow)
{
    const std::vector<uint8_t> bytes = CountingBytes();
    const auto expectInPlace = [](const Packet& packet, uint32_t stored) {
        ASSERT_LE(stored, packet.GetSize());
        std::vector<uint8_t> copied(packet.GetSize());
        packet.CopyData(copied.data(), packet.GetSize());
        EXPECT_EQ(std::memcmp(PacketBytesAddress(packet), copied.data(), stored), 0);
    };
    // Stored bytes alone: all of them, as headers come off (a copy sharing the block too).
    Ptr<Packet> made = Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size()));
    EXPECT_EQ(PacketStoredRun(*made), 100u);
    expectInPlace(*made, PacketStoredRun(*made));
    made->RemoveAtStart(28);
    EXPECT_EQ(PacketStoredRun(*made), 72u);
    expectInPlace(*made, PacketStoredRun(*made));
    Ptr<Packet> copy = made->Copy();
    copy->RemoveAtStart(12);
    EXPECT_EQ(PacketStoredRun(*copy), 60u);
    expectInPlace(*copy, PacketStoredRun(*copy));

    // Zeros alone: none stored. Headers on a payload of zeros (a NIC's frame): the headers, not
    // the zeros after them.
    EXPECT_EQ(PacketStoredRun(*Create<Packet>(4096)), 0u);
    uint32_t headers = 0;
    Ptr<Packet> frame = FrameOnZeros(headers);
    EXPECT_EQ(PacketStoredRun(*frame), headers);
    expectInPlace(*frame, headers);
    // A trailer after the zeros (an FCS, as the ICRC is added) is stored right after the
    // headers in the block, where CopyData gives the zeros: the run still ends at the zeros.
    EthernetTrailer fcs;
    fcs.SetFcs(0xA5A5A5A5);
    frame->AddTrailer(fcs);
    EXPECT_EQ(PacketStoredRun(*frame), headers);
    expectInPlace(*frame, PacketStoredRun(*frame));
    // Once the zeros are taken off, the trailer is what is stored first.
    frame->RemoveAtStart(headers + 4096);
    EXPECT_EQ(frame->GetSize(), fcs.GetSerializedSize());
    EXPECT_EQ(PacketStoredRun(*frame), fcs.GetSerializedSize());
    expectInPlace(*frame, fcs.GetSerializedSize());

    // No zero area: headers and a trailer with nothing between them are one run; so is a
    // packet whose zeros ns-3 has made real, as it does when it appends to a packet with zeros
    // one that starts with stored bytes.
    const IbBthHeader bth = SendBth();
    Ptr<Packet> ack = Create<Packet>();
    ack->AddHeader(bth);
    ack->AddTrailer(fcs);
    EXPECT_EQ(PacketStoredRun(*ack), bth.GetSerializedSize() + fcs.GetSerializedSize());
    expectInPlace(*ack, PacketStoredRun(*ack));
    Ptr<Packet> joined = Create<Packet>(100);
    joined->AddHeader(bth);
    joined->AddAtEnd(Create<Packet>(bytes.data(), 4));
    EXPECT_EQ(PacketStoredRun(*joined), joined->GetSize());
    expectInPlace(*joined, joined->GetSize());
}
