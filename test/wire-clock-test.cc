/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Serialization without drift: WireClock's arithmetic, and long transfers over RoCEv2 and
// InfiniBand links that finish at their hand-computed wire time (frames x bytes x 8 / rate plus
// propagation and the ACK), at 100, 200, 400 and 800 Gb/s; the ideal FCT agrees.

#include "ns3/core-module.h"
#include "ns3/ib-channel.h"
#include "ns3/ib-host-adapter.h"
#include "ns3/ib-net-device.h"
#include "ns3/ib-rc-transport.h"
#include "ns3/ib-subnet-helper.h"
#include "ns3/network-module.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-transport.h"
#include "ns3/spine-leaf-helper.h"
#include "ns3/wire-clock.h"

#include <algorithm>
#include <cstdint>
#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t MESSAGE_BYTES = 16 * 1024 * 1024; //!< the long transfer: 16 MiB

/// Exact time of so many bits at so many Gb/s, in ns (a double holds it to far below 1 ps).
double
ExactNs(uint64_t bits, uint64_t gbps)
{
    return static_cast<double>(bits) / static_cast<double>(gbps);
}

/// The time a packet alone takes to arrive, besides propagation: its exact wire time, but at
/// least one time step (1 ns): the channels never deliver a packet with its first bit.
double
AloneNs(uint64_t bits, uint64_t gbps)
{
    return std::max(ExactNs(bits, gbps), 1.0);
}

// RoCEv2 frame sizes on the wire, by hand: Ethernet 14, IPv4 20, UDP 8, BTH 12, ICRC 4, then
// FCS 4, preamble and SFD 8, inter-frame gap 12 (frames under 60 bytes padded to 60).
constexpr uint32_t ROCE_FRAME = 14 + 20 + 8 + 12 + 4; //!< headers and ICRC around a payload
constexpr uint32_t ETH_WIRE = 4 + 8 + 12;             //!< FCS, preamble and SFD, gap
constexpr uint32_t RETH = 16;                         //!< on the first packet of a WRITE
constexpr uint32_t AETH = 4;                          //!< on an ACK

// InfiniBand: LRH 8, BTH 12, ICRC 4, VCRC 2 around a payload; a credit update is 6 bytes.
constexpr uint32_t IB_PACKET = 8 + 12 + 4 + 2;
constexpr uint32_t IB_CREDIT = 6;

/// A 16 MiB WRITE over one RoCEv2 link (1 us of cable) at a rate and path MTU.
struct RoceRun
{
    double fctNs;   //!< simulated
    double idealNs; //!< RoceTransport::IdealFct
    double handNs;  //!< frames x wire bytes x 8 / rate + propagation + ACK + propagation
};

RoceRun
RunRoceWrite(uint64_t gbps, uint32_t mtu)
{
    RoceHelper h;
    h.SetDeviceAttribute("DataRate", DataRateValue(DataRate(gbps * 1000000000)));
    h.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    h.SetQueuePairAttribute("Mtu", UintegerValue(mtu));
    Ptr<Node> a = h.AddHost();
    Ptr<Node> b = h.AddHost();
    h.Link(a, b);
    h.Finalize();
    RoceTransport rdma(h);
    rdma.Post(0, 1, RdmaVerb::WRITE, MESSAGE_BYTES, MicroSeconds(1), 3);
    Simulator::Run();
    const FlowRecord f = rdma.GetFlows().at(0);
    EXPECT_FALSE(f.end.IsZero());
    EXPECT_EQ(h.GetNic(1)->GetQueuePair(0x100)->GetBytesDelivered(), MESSAGE_BYTES);
    Simulator::Destroy();

    const uint64_t frames = MESSAGE_BYTES / mtu;
    const uint64_t first = ROCE_FRAME + RETH + mtu + ETH_WIRE;
    const uint64_t other = ROCE_FRAME + mtu + ETH_WIRE;
    const uint64_t ack = ROCE_FRAME + AETH + ETH_WIRE; // 62 bytes: no padding
    const double hand =
        ExactNs(8 * (first + (frames - 1) * other), gbps) + 1000 + ExactNs(8 * ack, gbps) + 1000;
    return RoceRun{static_cast<double>((f.end - f.start).GetNanoSeconds()),
                   static_cast<double>(f.idealFct.GetNanoSeconds()),
                   hand};
}

/// Two InfiniBand adapters joined by one 4x link of a speed, 200 ns long.
class IbLink
{
  public:
    IbLink(IbNetDevice::Speed speed, uint32_t mtu)
    {
        for (int i = 0; i < 2; ++i)
        {
            nodes[i] = CreateObject<Node>();
            ports[i] = CreateObject<IbNetDevice>();
            ports[i]->SetAttribute("Speed", EnumValue(speed));
            ports[i]->SetAttribute("Mtu", UintegerValue(mtu));
            nodes[i]->AddDevice(ports[i]);
            adapters[i] = CreateObject<IbHostAdapter>();
            adapters[i]->Install(ports[i], static_cast<uint16_t>(i + 1));
        }
        Ptr<IbChannel> channel = CreateObject<IbChannel>();
        channel->SetAttribute("Delay", TimeValue(NanoSeconds(200)));
        ports[0]->Attach(channel);
        ports[1]->Attach(channel);
    }

    Ptr<Node> nodes[2];
    Ptr<IbNetDevice> ports[2];
    Ptr<IbHostAdapter> adapters[2];
};

/// What an InfiniBand port sends: its other packets, and the credit updates among them.
struct PortLog
{
    uint64_t packets{0};      //!< packets other than credit updates
    uint64_t creditsAmong{0}; //!< credit updates between its first and last other packet
    uint64_t creditsAfter{0}; //!< credit updates since its last other packet

    void Sniff(Ptr<const Packet> /* p */, uint8_t /* vl */, bool flowControl, bool sent)
    {
        if (!sent)
        {
            return;
        }
        if (flowControl)
        {
            creditsAfter += packets > 0 ? 1 : 0;
            return;
        }
        ++packets;
        creditsAmong += creditsAfter; // they went out between two packets of the burst
        creditsAfter = 0;
    }
};

/// A 16 MiB WRITE over one InfiniBand link.
struct IbRun
{
    double fctNs;     //!< simulated
    double handNs;    //!< packets and credit updates x bytes x 8 / rate + propagation + ACK
    uint64_t credits; //!< credit updates sent among the data packets
};

IbRun
RunIbWrite(IbNetDevice::Speed speed, uint64_t gbps, uint32_t mtu)
{
    IbLink link(speed, mtu);
    EXPECT_EQ(link.ports[0]->GetDataRate().GetBitRate(), gbps * 1000000000);
    auto [qa, qb] = IbHostAdapter::ConnectPair(link.adapters[0], link.adapters[1], 0);
    const uint64_t packets = MESSAGE_BYTES / mtu;
    PortLog sender;
    link.ports[0]->TraceConnectWithoutContext("Sniffer", MakeCallback(&PortLog::Sniff, &sender));
    Time posted;
    Time completed;
    Simulator::Schedule(MicroSeconds(10), [&]() {
        posted = Simulator::Now();
        qa->Post(RdmaVerb::WRITE,
                 MESSAGE_BYTES,
                 RdmaQueuePair::CompletionCallback(
                     [&completed](const RdmaCompletion&) { completed = Simulator::Now(); }));
    });
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    EXPECT_EQ(qb->GetBytesDelivered(), MESSAGE_BYTES);
    EXPECT_EQ(sender.packets, packets);
    EXPECT_EQ(qa->GetRetransmittedPackets(), 0u);
    Simulator::Destroy();

    // The link sends the data packets back to back, with credit updates among them (one for
    // each ACK it receives, and the periodic ones); the last packet arrives 200 ns after it
    // left; the receiver sends its credit update for that packet and right behind it the ACK
    // (LRH, BTH, AETH, ICRC, VCRC), 36 bytes in all (0.36 ns at 800 Gb/s: at least 1 ns), and
    // the ACK takes 200 ns back.
    const uint64_t data = packets * (IB_PACKET + mtu) + RETH;
    const uint64_t credits = sender.creditsAmong * IB_CREDIT;
    const uint64_t ack = IB_CREDIT + IB_PACKET + AETH;
    const double hand = ExactNs(8 * (data + credits), gbps) + 200 + AloneNs(8 * ack, gbps) + 200;
    EXPECT_FALSE(completed.IsZero());
    return IbRun{static_cast<double>((completed - posted).GetNanoSeconds()),
                 hand,
                 sender.creditsAmong};
}

} // namespace

TEST(WireClock, BackToBackFramesEndAtTheExactTimeRounded)
{
    // 1106-byte frames (1024 bytes of payload in RoCEv2) at 100, 200, 400, 800 Gb/s: the k-th
    // ends at k x 8848 / rate ns rounded to the nearest ns (halves up), for every k.
    for (const uint64_t gbps : {100, 200, 400, 800})
    {
        WireClock clock(DataRate(gbps * 1000000000));
        int64_t end = 0;
        bool exact = true;
        for (uint64_t k = 1; k <= 16384 && exact; ++k)
        {
            end = clock.Send(end, 1106);
            const int64_t expected = static_cast<int64_t>((2 * k * 8848 + gbps) / (2 * gbps));
            exact = end == expected;
            EXPECT_EQ(end, expected) << gbps << " Gb/s, frame " << k;
        }
        EXPECT_EQ(clock.GetTxTime(1106), NanoSeconds((2 * 8848 + gbps) / (2 * gbps)));
    }
}

TEST(WireClock, RoundingDownNeverEndsAFrameLate)
{
    WireClock clock(DataRate("400Gbps"), WireClock::DOWN);
    int64_t end = 0;
    for (uint64_t k = 1; k <= 1000; ++k)
    {
        end = clock.Send(end, 338); // 2704 bits: 6.76 ns
        EXPECT_EQ(end, static_cast<int64_t>(k * 2704 / 400)) << k;
    }
    EXPECT_EQ(clock.GetTxTime(338), NanoSeconds(6));
}

TEST(WireClock, AnIdleWireStartsAfresh)
{
    WireClock clock(DataRate("100Gbps"));
    EXPECT_EQ(clock.Send(0, 1106), 88);   // 88.48
    EXPECT_EQ(clock.Send(88, 1106), 177); // 176.96
    // Idle from 177 to 1000: the next frame takes its own 88.48 ns rounded, as if alone.
    EXPECT_EQ(clock.Send(1000, 1106), 1088);
    EXPECT_EQ(clock.Send(1088, 1106), 1177);
    // A new rate starts afresh too.
    clock.SetRate(DataRate("400Gbps"));
    EXPECT_EQ(clock.Send(1177, 1106), 1177 + 22); // 22.12
}

TEST(WireClock, TinyPacketsMayTakeNoStepButAddUp)
{
    // A 6-byte credit update at 100 Gb/s is 0.48 ns: alone it rounds to 0, and a hundred back
    // to back take 48 ns.
    WireClock clock(DataRate("100Gbps"));
    EXPECT_EQ(clock.GetTxTime(6), NanoSeconds(0));
    int64_t end = 0;
    for (int k = 0; k < 100; ++k)
    {
        end = clock.Send(end, 6);
    }
    EXPECT_EQ(end, 48);
}

TEST(WireClock, HugeFramesAndOddRatesStayExact)
{
    // 4e9 bytes at 1 Gb/s: 32 s exactly; at 7 b/s: 32e18 / 7 ns, rounded (the product of bits
    // and steps per second exceeds 64 bits).
    EXPECT_EQ(WireClock(DataRate("1Gbps")).GetTxTime(4000000000U), Seconds(32));
    EXPECT_EQ(WireClock(DataRate(7)).GetTxTime(4000000000U).GetTimeStep(), 4571428571428571429LL);
    EXPECT_EQ(WireClock(DataRate(7), WireClock::DOWN).GetTxTime(4000000000U).GetTimeStep(),
              4571428571428571428LL);
}

TEST(RoceWireTime, A16MiBWriteTakesItsWireTimeAt100To800Gbps)
{
    // 16,384 frames of 1106 bytes (the first 1122, with its RETH): at 100 Gb/s 1,449,657.6 ns
    // of wire, two propagation delays of 1 us and a 86-byte ACK.
    for (const uint64_t gbps : {100, 200, 400, 800})
    {
        const RoceRun run = RunRoceWrite(gbps, 1024);
        EXPECT_NEAR(run.fctNs, run.handNs, 2.0) << gbps << " Gb/s";
        EXPECT_NEAR(run.idealNs, run.handNs, 2.0) << gbps << " Gb/s";
        EXPECT_NEAR(run.fctNs, run.idealNs, 1.0) << gbps << " Gb/s";
    }
}

TEST(RoceWireTime, SmallFramesAt400GbpsTakeTheirWireTime)
{
    // A 256-byte path MTU: 65,536 frames of 338 bytes, 6.76 ns each at 400 Gb/s (rounding each
    // to 7 ns made the transfer 3.6% too slow).
    const RoceRun run = RunRoceWrite(400, 256);
    EXPECT_NEAR(run.fctNs, run.handNs, 2.0);
    EXPECT_NEAR(run.idealNs, run.handNs, 2.0);
    EXPECT_NEAR(run.fctNs, run.idealNs, 1.0);
}

TEST(RoceWireTime, IdealFctAcrossSwitchesIsTheSimulatedOne)
{
    // Host, switch, switch, host: a 16 MiB WRITE's simulated FCT is its ideal FCT to the
    // nanosecond, and the ideal is the hand arithmetic (data through the first link, the first
    // frame's time on the two others, three delays, two switches, the ACK back) within the
    // rounding of its six link crossings.
    for (const uint64_t gbps : {100, 200, 400, 800})
    {
        RoceHelper h;
        h.SetDeviceAttribute("DataRate", DataRateValue(DataRate(gbps * 1000000000)));
        h.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
        h.SetSwitchAttribute("ForwardingLatency", TimeValue(NanoSeconds(300)));
        Ptr<Node> a = h.AddHost();
        Ptr<Node> b = h.AddHost();
        Ptr<Node> s1 = h.AddSwitch();
        Ptr<Node> s2 = h.AddSwitch();
        h.Link(a, s1);
        h.Link(s1, s2);
        h.Link(s2, b);
        h.Finalize();
        RoceTransport rdma(h);
        rdma.Post(0, 1, RdmaVerb::WRITE, MESSAGE_BYTES, MicroSeconds(1), 3);
        Simulator::Run();
        const FlowRecord f = rdma.GetFlows().at(0);
        Simulator::Destroy();
        ASSERT_FALSE(f.end.IsZero()) << gbps << " Gb/s";
        const double fct = static_cast<double>((f.end - f.start).GetNanoSeconds());
        const double ideal = static_cast<double>(f.idealFct.GetNanoSeconds());
        EXPECT_NEAR(fct, ideal, 1.0) << gbps << " Gb/s";
        const uint64_t frames = MESSAGE_BYTES / 1024;
        const uint64_t first = ROCE_FRAME + RETH + 1024 + ETH_WIRE;
        const uint64_t other = ROCE_FRAME + 1024 + ETH_WIRE;
        const uint64_t ack = ROCE_FRAME + AETH + ETH_WIRE;
        const double hops = 3 * 1000 + 2 * 300;
        const double hand = ExactNs(8 * (first + (frames - 1) * other), gbps) +
                            2 * ExactNs(8 * first, gbps) + hops + 3 * AloneNs(8 * ack, gbps) + hops;
        EXPECT_NEAR(ideal, hand, 3.0) << gbps << " Gb/s";
    }
}

TEST(IbWireTime, A16MiBWriteTakesItsWireTimeAt100To800Gbps)
{
    // 4096 packets of 4122 bytes (the first 4138), and the 6-byte credit updates the sender's
    // port sends among them, at EDR, HDR, NDR and XDR 4x.
    const std::vector<std::pair<IbNetDevice::Speed, uint64_t>> speeds = {{IbNetDevice::EDR, 100},
                                                                         {IbNetDevice::HDR, 200},
                                                                         {IbNetDevice::NDR, 400},
                                                                         {IbNetDevice::XDR, 800}};
    for (const auto& [speed, gbps] : speeds)
    {
        const IbRun run = RunIbWrite(speed, gbps, 4096);
        EXPECT_NEAR(run.fctNs, run.handNs, 2.0) << gbps << " Gb/s, " << run.credits << " credits";
    }
}

TEST(IbWireTime, SmallPacketsAt400GbpsTakeTheirWireTime)
{
    // A 256-byte IB MTU at NDR 4x: 65,536 packets of 282 bytes, 5.64 ns each.
    const IbRun run = RunIbWrite(IbNetDevice::NDR, 400, 256);
    EXPECT_NEAR(run.fctNs, run.handNs, 2.0) << run.credits << " credits";
}

TEST(IbWireTime, IdealFctOfA16MiBWriteAcrossSwitchesIsTheSimulatedOne)
{
    // Host 0 to host 1 of a spine-leaf fabric (leaf, spine, leaf: four links of 200 ns). The
    // ideal FCT has no credit updates; here the ports send few among the data (no periodic
    // updates, an ACK every 1024 packets), and each can delay the last packet by its own 6
    // bytes' time at most.
    const std::vector<std::pair<IbNetDevice::Speed, uint64_t>> speeds = {{IbNetDevice::EDR, 100},
                                                                         {IbNetDevice::HDR, 200},
                                                                         {IbNetDevice::NDR, 400},
                                                                         {IbNetDevice::XDR, 800}};
    for (const auto& [speed, gbps] : speeds)
    {
        SpineLeafHelper fabric(2, 1, 1);
        fabric.SetDelay(NanoSeconds(200));
        IbSubnetHelper helper;
        helper.SetDeviceAttribute("Speed", EnumValue(speed));
        helper.SetDeviceAttribute("FlowControlPeriod", TimeValue(Seconds(1)));
        const IbSubnet subnet = helper.Build(fabric);
        IbRcTransport ib(subnet);
        ib.SetQueuePairAttribute("AckInterval", UintegerValue(1024));
        std::vector<PortLog> logs(subnet.ports.size());
        for (std::size_t i = 0; i < subnet.ports.size(); ++i)
        {
            subnet.ports[i]->TraceConnectWithoutContext("Sniffer",
                                                        MakeCallback(&PortLog::Sniff, &logs[i]));
        }
        ib.Post(0, 1, RdmaVerb::WRITE, MESSAGE_BYTES, MicroSeconds(2), 0);
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        const FlowRecord f = ib.GetFlows().at(0);
        Simulator::Destroy();
        ASSERT_FALSE(f.end.IsZero()) << gbps << " Gb/s";
        uint64_t credits = 0;
        uint32_t dataPorts = 0;
        for (const PortLog& log : logs)
        {
            if (log.packets == MESSAGE_BYTES / 4096)
            {
                ++dataPorts; // a port on the data's path
                credits += log.creditsAmong;
            }
        }
        EXPECT_EQ(dataPorts, 4u);
        const double fct = static_cast<double>((f.end - f.start).GetNanoSeconds());
        const double ideal = static_cast<double>(f.idealFct.GetNanoSeconds());
        EXPECT_GE(fct, ideal - 1.0) << gbps << " Gb/s";
        EXPECT_LE(fct, ideal + ExactNs(8 * IB_CREDIT * credits, gbps) + 2.0)
            << gbps << " Gb/s, " << credits << " credit updates among the data";
        // The ideal's own arithmetic: the packets through the first link, the first packet's
        // time on each of the three others, four delays, three switches, the ACK's way back;
        // every link crossing rounds to the nearest ns (8 of them).
        TimeValue latency;
        subnet.switches[0]->GetAttribute("ForwardingLatency", latency);
        const uint64_t packets = MESSAGE_BYTES / 4096;
        const uint64_t first = IB_PACKET + RETH + 4096;
        const uint64_t data = packets * (IB_PACKET + 4096) + RETH;
        const double hops = 4 * 200 + 3 * static_cast<double>(latency.Get().GetNanoSeconds());
        const double hand = ExactNs(8 * data, gbps) + 3 * ExactNs(8 * first, gbps) + hops +
                            4 * AloneNs(8 * (IB_PACKET + AETH), gbps) + hops;
        EXPECT_NEAR(ideal, hand, 4.0) << gbps << " Gb/s";
    }
}
