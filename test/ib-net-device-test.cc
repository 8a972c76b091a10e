/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// InfiniBand links: credit-based flow control per virtual lane (throughput limited by the credit
// loop exactly as predicted, never a packet without buffer), VL isolation, VL arbitration by
// weight and the high-priority limit, link rates.

#include "config-error-test.h"
#include "packet-bytes.h"

#include "ns3/core-module.h"
#include "ns3/ib-channel.h"
#include "ns3/ib-flow-control-header.h"
#include "ns3/ib-net-device.h"
#include "ns3/network-module.h"
#include "ns3/rdma-packet-pool.h"

#include <gtest/gtest.h>
#include <set>
#include <string>

using namespace ns3;

namespace
{

/// A packet of this many bytes (LRH to ICRC) is 65 blocks with its VCRC: 4160 bytes.
constexpr uint32_t PACKET = 65 * 64 - IbNetDevice::VCRC;

/// Two nodes with a port each on one 1 us cable.
struct IbLink
{
    Ptr<Node> na = CreateObject<Node>();                //!< a's node
    Ptr<Node> nb = CreateObject<Node>();                //!< b's node
    Ptr<IbNetDevice> a = CreateObject<IbNetDevice>();   //!< one end
    Ptr<IbNetDevice> b = CreateObject<IbNetDevice>();   //!< the other
    Ptr<IbChannel> channel = CreateObject<IbChannel>(); //!< the cable

    IbLink()
    {
        na->AddDevice(a);
        nb->AddDevice(b);
        channel->SetAttribute("Delay", TimeValue(MicroSeconds(1)));
        a->Attach(channel);
        b->Attach(channel);
    }
};

class IbLinkTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        const IbLink link;
        na = link.na;
        nb = link.nb;
        a = link.a;
        b = link.b;
        channel = link.channel;
    }

    void TearDown() override
    {
        Simulator::Destroy();
    }

    /// Record the arrival time of every data packet at b.
    void RecordArrivals()
    {
        b->TraceConnectWithoutContext("MacRx",
                                      MakeCallback(+[](std::vector<Time>* t, Ptr<const Packet>) {
                                          t->push_back(Simulator::Now());
                                      }).Bind(&arrivals));
    }

    /// Queue n packets on a VL at a time.
    void SendAt(Time at, uint8_t vl, uint32_t n)
    {
        Simulator::Schedule(at, [this, vl, n]() {
            for (uint32_t i = 0; i < n; ++i)
            {
                a->EnqueueVl(Create<Packet>(PACKET), vl);
            }
        });
    }

    /// Wire bytes per second between arrivals first and last.
    double Throughput(std::size_t first, std::size_t last) const
    {
        return (last - first) * double(PACKET + IbNetDevice::VCRC) * 8 /
               (arrivals[last] - arrivals[first]).GetSeconds();
    }

    Ptr<Node> na;
    Ptr<Node> nb;
    Ptr<IbNetDevice> a;
    Ptr<IbNetDevice> b;
    Ptr<IbChannel> channel;
    std::vector<Time> arrivals;
};

} // namespace

TEST(IbLinkRate, SpeedsAndWidths)
{
    EXPECT_EQ(IbNetDevice::LinkRate(IbNetDevice::SDR, 1).GetBitRate(), 2000000000u);
    EXPECT_EQ(IbNetDevice::LinkRate(IbNetDevice::SDR, 4).GetBitRate(), 8000000000u);
    EXPECT_EQ(IbNetDevice::LinkRate(IbNetDevice::DDR, 4).GetBitRate(), 16000000000u);
    EXPECT_EQ(IbNetDevice::LinkRate(IbNetDevice::QDR, 4).GetBitRate(), 32000000000u);
    EXPECT_EQ(IbNetDevice::LinkRate(IbNetDevice::FDR10, 4).GetBitRate(), 40000000000u);
    EXPECT_NEAR(IbNetDevice::LinkRate(IbNetDevice::FDR, 4).GetBitRate() / 1e9, 54.545, 0.001);
    EXPECT_EQ(IbNetDevice::LinkRate(IbNetDevice::EDR, 4).GetBitRate(), 100000000000u);
    EXPECT_EQ(IbNetDevice::LinkRate(IbNetDevice::EDR, 12).GetBitRate(), 300000000000u);
    EXPECT_EQ(IbNetDevice::LinkRate(IbNetDevice::HDR, 4).GetBitRate(), 200000000000u);
    EXPECT_EQ(IbNetDevice::LinkRate(IbNetDevice::NDR, 4).GetBitRate(), 400000000000u);
    EXPECT_EQ(IbNetDevice::LinkRate(IbNetDevice::XDR, 8).GetBitRate(), 1600000000000u);
    EXPECT_CONFIG_ERROR(IbNetDevice::LinkRate(IbNetDevice::EDR, 3),
                        "Width = 3: accepted: 1, 2, 4, 8 or 12");
    EXPECT_EQ(IbNetDevice::Blocks(62), 1u); // 62 + VCRC = 64
    EXPECT_EQ(IbNetDevice::Blocks(63), 2u);
    EXPECT_EQ(IbNetDevice::Blocks(PACKET), 65u);
}

TEST(IbFlowControlHeader, RoundTripsAndWrapsAt4096)
{
    IbFlowControlHeader h;
    h.SetOp(IbFlowControlHeader::INIT);
    h.SetVl(7);
    h.SetFctbs(4096 + 5); // 12 bits
    h.SetFccl(8191);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    ASSERT_EQ(p->GetSize(), 6u);
    uint8_t raw[6];
    p->CopyData(raw, 6);
    EXPECT_EQ(raw[0], 0x10); // Op 1, FCTBS 0x005
    EXPECT_EQ(raw[1], 0x05);
    EXPECT_EQ(raw[2], 0x7F); // VL 7, FCCL 0xFFF
    EXPECT_EQ(raw[3], 0xFF);
    IbFlowControlHeader back;
    p->RemoveHeader(back);
    EXPECT_EQ(back.GetOp(), IbFlowControlHeader::INIT);
    EXPECT_EQ(back.GetVl(), 7);
    EXPECT_EQ(back.GetFctbs(), 5);
    EXPECT_EQ(back.GetFccl(), 4095);
}

TEST(IbFlowControlHeaderTest, AnExtendersFormKeeps32BitCountersAndAShortOneIsNotOverread)
{
    IbFlowControlHeader h;
    h.SetOp(IbFlowControlHeader::EXTENDED); // before the counters: they keep 32 bits
    h.SetVl(3);
    h.SetFctbs(0x12345678);
    h.SetFccl(0xFFFFFFF0);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    ASSERT_EQ(p->GetSize(), IbFlowControlHeader::EXTENDED_SIZE);
    uint8_t raw[12];
    p->CopyData(raw, 12);
    EXPECT_EQ(raw[0], 0x23); // Op 2, VL 3
    EXPECT_EQ(raw[2], 0x12);
    EXPECT_EQ(raw[5], 0x78);
    IbFlowControlHeader back;
    p->RemoveHeader(back);
    EXPECT_EQ(back.GetOp(), IbFlowControlHeader::EXTENDED);
    EXPECT_EQ(back.GetVl(), 3);
    EXPECT_EQ(back.GetFctbs(), 0x12345678u);
    EXPECT_EQ(back.GetFccl(), 0xFFFFFFF0u);
    // Op 2 in a 6-byte packet: read as the 6-byte form (a normal one), not beyond its end.
    const uint8_t shortForm[6] = {0x20, 0x05, 0x30, 0x07, 0, 0};
    Ptr<Packet> q = Create<Packet>(shortForm, 6);
    IbFlowControlHeader read;
    EXPECT_EQ(q->RemoveHeader(read), IbFlowControlHeader::SIZE);
    EXPECT_EQ(read.GetOp(), IbFlowControlHeader::NORMAL);
    EXPECT_EQ(read.GetFctbs(), 5u);
}

TEST_F(IbLinkTest, SmallBufferLimitsThroughputToBufferOverRoundTrip)
{
    // 100 Gb/s, 1 us each way, a receive buffer of two packets (8320 bytes, under the
    // bandwidth-delay product): a packet's credit comes back one round trip after it started,
    // packet time + flow-control packet time + 2 x delay, so the link carries 2 packets per
    // round trip. 200 packets: FCTBS wraps around 4096 three times.
    a->SetAttribute("ReceiveBufferBlocks", UintegerValue(130));
    b->SetAttribute("ReceiveBufferBlocks", UintegerValue(130));
    RecordArrivals();
    SendAt(MicroSeconds(10), 0, 200);
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    ASSERT_EQ(arrivals.size(), 200u);
    const double rate = 100e9;
    const double roundTrip =
        (PACKET + IbNetDevice::VCRC) * 8 / rate + IbFlowControlHeader::SIZE * 8 / rate + 2e-6;
    const double predicted = 130.0 * 64 * 8 / roundTrip;
    EXPECT_NEAR(Throughput(20, 199), predicted, predicted * 0.02);
    EXPECT_LT(predicted, rate * 0.3);
    EXPECT_EQ(b->GetCreditViolations(), 0u);
    EXPECT_EQ(a->GetBlocksSent(0), 200u * 65);
}

TEST_F(IbLinkTest, LargeBufferGivesLineRate)
{
    a->SetAttribute("ReceiveBufferBlocks", UintegerValue(2048)); // 128 KB > 29 KB in flight
    b->SetAttribute("ReceiveBufferBlocks", UintegerValue(2048));
    RecordArrivals();
    SendAt(MicroSeconds(10), 0, 200);
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    ASSERT_EQ(arrivals.size(), 200u);
    EXPECT_NEAR(Throughput(0, 199), 100e9, 100e9 * 0.01);
    EXPECT_EQ(b->GetCreditViolations(), 0u);
}

TEST_F(IbLinkTest, ACongestedVlDoesNotBlockAnother)
{
    // b's owner never releases VL1 (its next hop is stuck): VL1 stops when its buffer is full,
    // VL0 keeps the link at line rate and nothing is dropped.
    b->SetAttribute("ReceiveBufferBlocks", UintegerValue(1040)); // 16 packets, > 7 in flight
    std::vector<uint32_t> received(2, 0);
    std::vector<Time> vl0;
    b->SetIbReceiveCallback(MakeCallback(+[](std::vector<uint32_t>* r,
                                             std::vector<Time>* t0,
                                             Ptr<IbNetDevice> dev,
                                             Ptr<Packet> p,
                                             uint8_t vl) {
                                ++(*r)[vl];
                                if (vl == 0)
                                {
                                    t0->push_back(Simulator::Now());
                                    dev->Release(0, IbNetDevice::Blocks(p->GetSize()));
                                }
                            }).Bind(&received, &vl0));
    SendAt(MicroSeconds(10), 1, 100);
    SendAt(MicroSeconds(10), 0, 100);
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    EXPECT_EQ(received[1], 16u); // the buffer's worth, then no credit
    EXPECT_EQ(a->GetQueueBytes(1), 84u * PACKET);
    ASSERT_EQ(received[0], 100u);
    // Once VL1 has stopped (its 16 packets alternated with VL0's first ones), VL0 has the link.
    const double rate =
        69 * double(PACKET + IbNetDevice::VCRC) * 8 / (vl0.back() - vl0[30]).GetSeconds();
    EXPECT_NEAR(rate, 100e9, 100e9 * 0.02);
    EXPECT_EQ(b->GetCreditViolations(), 0u);
    EXPECT_EQ(b->GetReceiveBufferFree(1), 0u);
}

TEST_F(IbLinkTest, ArbitrationWeightsSplitTheLink)
{
    // Low-priority table VL0 weight 64 (4 KB), VL1 weight 192 (12 KB): with 4 KB packets VL1
    // sends three for each of VL0's while both are backlogged.
    a->SetAttribute("VlArbitrationLow", StringValue("0:64,1:192"));
    SendAt(MicroSeconds(10), 0, 300);
    SendAt(MicroSeconds(10), 1, 300);
    uint64_t sent0 = 0;
    uint64_t sent1 = 0;
    Simulator::Schedule(MicroSeconds(10) + NanoSeconds(200 * 333), [&]() {
        sent0 = a->GetPacketsSent(0);
        sent1 = a->GetPacketsSent(1);
    });
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    ASSERT_GT(sent0, 30u);
    ASSERT_LT(sent1, 300u); // both still backlogged when counted
    EXPECT_NEAR(double(sent1) / sent0, 3.0, 3.0 * 0.02 + 1.0 / sent0);
    EXPECT_EQ(a->GetPacketsSent(0) + a->GetPacketsSent(1), 600u);
}

TEST_F(IbLinkTest, HighPriorityLimitBoundsTheHighTable)
{
    struct Case
    {
        uint32_t limit;
        double highPerLow; //!< expected VL1 (high) packets per VL0 (low) packet
    };

    for (const Case& c : {Case{0, 1.0}, Case{2, 2.0}, Case{255, -1}})
    {
        SetUp();
        a->SetAttribute("VlArbitrationHigh", StringValue("1:255"));
        a->SetAttribute("VlArbitrationLow", StringValue("0:255"));
        a->SetAttribute("HighPriorityLimit", UintegerValue(c.limit));
        SendAt(MicroSeconds(10), 1, 200); // the high VL first: both wait when the link frees
        SendAt(MicroSeconds(10), 0, 200);
        uint64_t low = 0;
        uint64_t high = 0;
        Simulator::Schedule(MicroSeconds(10) + NanoSeconds(150 * 333), [&]() {
            low = a->GetPacketsSent(0);
            high = a->GetPacketsSent(1);
        });
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        if (c.highPerLow < 0)
        {
            EXPECT_EQ(low, 0u) << "no limit: the low table waits for the high one";
        }
        else
        {
            ASSERT_GT(low, 20u) << "limit " << c.limit;
            EXPECT_NEAR(double(high) / low, c.highPerLow, 0.06) << "limit " << c.limit;
        }
        EXPECT_EQ(a->GetPacketsSent(0) + a->GetPacketsSent(1), 400u);
        TearDown();
    }
}

TEST_F(IbLinkTest, BadAttributesAreNamed)
{
    a->SetAttribute("VlArbitrationLow", StringValue("0:64,9:1"));
    a->SetAttribute("DataVls", UintegerValue(4));
    EXPECT_CONFIG_ERROR(
        a->EnqueueVl(Create<Packet>(100), 0),
        "VlArbitrationLow = 0:64,9:1: accepted: up to 64 VL:weight entries, VL 0..3");
    b->SetAttribute("ReceiveBufferBlocks", UintegerValue(10));
    EXPECT_CONFIG_ERROR(b->EnqueueVl(Create<Packet>(100), 0),
                        "ReceiveBufferBlocks = 10: accepted: at least 66 blocks");
}

TEST(IbNetDeviceAttributes, RefusedWhenTheLinkIsBuilt)
{
    // A bad table or buffer is refused by Attach, while the network is built: not in the
    // simulation's first event, where an exception would leave that event unreleased.
    for (const auto& [attribute, value, message] :
         {std::make_tuple("VlArbitrationLow", "0:64,9:1", "VlArbitrationLow = 0:64,9:1"),
          std::make_tuple("VlArbitrationHigh", "1:", "VlArbitrationHigh = 1:"),
          std::make_tuple("SlToVl", "0,1", "SlToVl = 0,1"),
          std::make_tuple("ReceiveBufferBlocks", "10", "ReceiveBufferBlocks = 10")})
    {
        Ptr<IbNetDevice> d = CreateObject<IbNetDevice>();
        d->SetAttribute(attribute, StringValue(value));
        Ptr<IbChannel> channel = CreateObject<IbChannel>();
        EXPECT_CONFIG_ERROR(d->Attach(channel), message);
        EXPECT_EQ(channel->GetNDevices(), 0u) << "a refused device joins no link";
    }
    Simulator::Destroy();
}

namespace
{

/// What passed on a link, for IbFlowControlPackets: every packet's bytes and time at each end.
struct LinkCapture
{
    std::vector<std::string> packets;    //!< "end time sent bytes", in order
    std::vector<Ptr<const Packet>> held; //!< the flow-control packets b received, if kept
    std::set<const Packet*> heldSet;     //!< the same, by address
    uint32_t heldAgain{0};               //!< held packets that were sent again
};

/// 200 packets over a link whose small buffer sends a flow-control packet per data packet.
/// @param reuse both ends' ReusePackets @param hold keep every flow-control packet b receives
/// @return what passed
LinkCapture
RunCreditLoop(bool reuse, bool hold)
{
    LinkCapture c;
    const IbLink link;
    const Ptr<IbNetDevice> a = link.a;
    const Ptr<IbNetDevice> b = link.b;
    for (const auto& d : {a, b})
    {
        d->SetAttribute("ReceiveBufferBlocks", UintegerValue(130));
        d->SetAttribute("ReusePackets", BooleanValue(reuse));
    }
    const auto capture = [&c, hold](const char* end) {
        return MakeCallback(+[](LinkCapture* c,
                                const char* end,
                                bool hold,
                                Ptr<const Packet> p,
                                uint8_t,
                                bool flowControl,
                                bool sent) {
                   if (flowControl && sent && c->heldSet.count(PeekPointer(p)))
                   {
                       ++c->heldAgain;
                   }
                   c->packets.push_back(std::string(end) + ' ' +
                                        std::to_string(Simulator::Now().GetTimeStep()) + ' ' +
                                        (sent ? "tx " : "rx ") + test::BytesOf(p));
                   if (hold && flowControl && !sent && end[0] == 'b')
                   {
                       c->held.push_back(p);
                       c->heldSet.insert(PeekPointer(p));
                   }
               })
            .Bind(&c, end, hold);
    };
    a->TraceConnectWithoutContext("Sniffer", capture("a"));
    b->TraceConnectWithoutContext("Sniffer", capture("b"));
    Simulator::Schedule(MicroSeconds(10), [a]() {
        for (uint32_t i = 0; i < 200; ++i)
        {
            a->EnqueueVl(Create<Packet>(PACKET), 0);
        }
    });
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    EXPECT_EQ(b->GetCreditViolations(), 0u);
    EXPECT_EQ(a->GetBlocksSent(0), 200u * 65);
    return c;
}

} // namespace

TEST(IbFlowControlPackets, SentOnTheOnesReceivedTheyAreTheSameByteForByte)
{
    // A link whose credit loop sends a flow-control packet for about every data packet, with and
    // without ReusePackets: every packet at both ends, bytes and time, the same, while most of
    // the second run's flow-control packets were built on ones that had arrived.
    const uint64_t before = RdmaPacketPool::GetTaken();
    const LinkCapture fresh = RunCreditLoop(false, false);
    Simulator::Destroy();
    EXPECT_EQ(RdmaPacketPool::GetTaken(), before);
    const LinkCapture reused = RunCreditLoop(true, false);
    Simulator::Destroy();
    EXPECT_GT(RdmaPacketPool::GetTaken() - before, 100u);
    EXPECT_GT(fresh.packets.size(), 600u);
    ASSERT_EQ(fresh.packets.size(), reused.packets.size());
    for (std::size_t i = 0; i < fresh.packets.size(); ++i)
    {
        ASSERT_EQ(fresh.packets[i], reused.packets[i]) << "packet " << i;
    }
}

TEST(IbFlowControlPackets, OneSomeoneHoldsIsNotSentAgain)
{
    // A sink keeps every flow-control packet b receives: none of them is sent again.
    const LinkCapture c = RunCreditLoop(true, true);
    Simulator::Destroy();
    EXPECT_GT(c.held.size(), 150u);
    EXPECT_EQ(c.heldAgain, 0u);
}
