/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The lossless Ethernet port: wire time, PFC pause/resume/expiry, strict priority and DWRR.

#include "config-error-test.h"

#include "ns3/core-module.h"
#include "ns3/ethernet-header.h"
#include "ns3/ib-bth-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-header.h"
#include "ns3/pfc-net-device.h"
#include "ns3/roce-helper.h"
#include "ns3/udp-header.h"

#include <array>
#include <gtest/gtest.h>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

class PfcNetDeviceTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        a = CreateObject<PfcNetDevice>();
        b = CreateObject<PfcNetDevice>();
        na = CreateObject<Node>();
        nb = CreateObject<Node>();
        na->AddDevice(a);
        nb->AddDevice(b);
        channel = CreateObject<PfcChannel>();
        channel->SetAttribute("Delay", TimeValue(MicroSeconds(1)));
        a->Attach(channel);
        b->Attach(channel);
    }

    void TearDown() override
    {
        Simulator::Destroy();
    }

    /// An IPv4-looking packet of `bytes` bytes (only its size matters to the port).
    static Ptr<Packet> Frame(uint32_t bytes)
    {
        return Create<Packet>(bytes);
    }

    Ptr<PfcNetDevice> a;
    Ptr<PfcNetDevice> b;
    Ptr<Node> na;
    Ptr<Node> nb;
    Ptr<PfcChannel> channel;
};

} // namespace

TEST_F(PfcNetDeviceTest, WireTimeCountsEveryPerFrameOverhead)
{
    a->SetDataRate(DataRate("10Gbps"));
    // 1000-byte frame: + FCS 4 + preamble/SFD 8 + gap 12 = 1024 bytes = 819.2 ns at 10 Gb/s.
    EXPECT_EQ(PfcNetDevice::WireBytes(1000), 1024u);
    EXPECT_NEAR(a->GetWireTime(1000).GetNanoSeconds(), 819, 1);
    // A short frame is padded to 60 bytes (64 with FCS): 84 bytes on the wire.
    EXPECT_EQ(PfcNetDevice::WireBytes(20), 84u);

    Time arrival;
    b->TraceConnectWithoutContext("MacRx", MakeCallback(+[](Time* t, Ptr<const Packet>) {
                                               *t = Simulator::Now();
                                           }).Bind(&arrival));
    Simulator::Schedule(MicroSeconds(5), [this]() { a->Enqueue(Frame(986), 3, 0); });
    Simulator::Run();
    // 986 + 14 Ethernet header = 1000-byte frame: 819.2 ns, then 1 us of cable.
    EXPECT_NEAR((arrival - MicroSeconds(5)).GetNanoSeconds(), 1819, 1);
}

TEST(FlaggedTracedCallback, ItsBitIsSetExactlyWhileSomeoneListens)
{
    // The bit of the owner's byte follows the list through every way to connect and disconnect,
    // and leaves the byte's other bits alone.
    uint8_t flags = 0x80;
    FlaggedTracedCallback<uint32_t> trace;
    trace.Bind(&flags, 0x04);
    EXPECT_EQ(flags, 0x80);
    uint32_t sum = 0;
    const auto plain = MakeCallback(+[](uint32_t* s, uint32_t v) { *s += v; }).Bind(&sum);
    const auto withContext =
        MakeCallback(+[](uint32_t* s, std::string, uint32_t v) { *s += 10 * v; }).Bind(&sum);
    trace.ConnectWithoutContext(plain);
    EXPECT_EQ(flags, 0x84);
    trace.Connect(withContext, "ctx");
    trace.DisconnectWithoutContext(plain);
    EXPECT_EQ(flags, 0x84); // one listener left
    trace(1);
    EXPECT_EQ(sum, 10u);
    trace.Disconnect(withContext, "ctx");
    EXPECT_EQ(flags, 0x80);
    trace.Connect(withContext, "ctx");
    EXPECT_EQ(flags, 0x84);
    FlaggedTracedCallback<uint32_t> late; // connected before it is bound: Bind reads the list
    late.ConnectWithoutContext(plain);
    uint8_t other = 0;
    late.Bind(&other, 0x01);
    EXPECT_EQ(other, 0x01);
}

TEST_F(PfcNetDeviceTest, EachPerFrameTraceFiresWhileSomeoneListensAndNotAfter)
{
    // A frame's pass asks a bit, not the trace's list, whether anyone listens
    // (FlaggedTracedCallback): every way to connect must set it and a disconnect must clear it
    // only with the last listener gone. One trace at a time listens through Config (with its
    // context) while a frame goes from a to b, so that a trace whose bit is never set misses its
    // frame even where the pass tests two bits at once; a last frame goes with none of them.
    // MacRx has a second listener, connected directly, all along.
    std::map<std::string, uint32_t> fired; // by the context each listener was given
    const Callback<void, std::string, Ptr<const Packet>> onPacket =
        MakeCallback(+[](std::map<std::string, uint32_t>* m, std::string path, Ptr<const Packet>) {
            ++(*m)[path];
        }).Bind(&fired);
    const Callback<void, std::string, uint8_t, uint32_t> onBytes =
        MakeCallback(+[](std::map<std::string, uint32_t>* m, std::string path, uint8_t, uint32_t) {
            ++(*m)[path];
        }).Bind(&fired);
    const std::string pa = "/NodeList/" + std::to_string(na->GetId()) + "/DeviceList/" +
                           std::to_string(a->GetIfIndex()) + "/$ns3::PfcNetDevice/";
    const std::string pb = "/NodeList/" + std::to_string(nb->GetId()) + "/DeviceList/" +
                           std::to_string(b->GetIfIndex()) + "/$ns3::PfcNetDevice/";
    const std::vector<std::string> packetTraces = {pa + "MacTx",
                                                   pa + "PhyTxBegin",
                                                   pa + "Sniffer",
                                                   pb + "Sniffer",
                                                   pb + "MacRx"};
    uint32_t direct = 0;
    b->TraceConnectWithoutContext("MacRx", MakeCallback(+[](uint32_t* n, Ptr<const Packet>) {
                                               ++*n;
                                           }).Bind(&direct));

    uint32_t frames = 0;
    const auto send = [this, &frames](Time at) {
        ++frames;
        Simulator::Schedule(at, [this]() { a->Enqueue(Frame(986), 3, 0); });
    };
    Time t = MicroSeconds(1);
    for (const auto& path : packetTraces)
    {
        Simulator::Schedule(t, [&onPacket, path]() { Config::Connect(path, onPacket); });
        send(t + MicroSeconds(1));
        Simulator::Schedule(t + MicroSeconds(8),
                            [&onPacket, path]() { Config::Disconnect(path, onPacket); });
        t += MicroSeconds(10);
    }
    Simulator::Schedule(t, [&onBytes, pa]() { Config::Connect(pa + "QueueBytes", onBytes); });
    send(t + MicroSeconds(1));
    Simulator::Schedule(t + MicroSeconds(8),
                        [&onBytes, pa]() { Config::Disconnect(pa + "QueueBytes", onBytes); });
    send(t + MicroSeconds(10));
    Simulator::Run();

    for (const auto& path : packetTraces)
    {
        EXPECT_EQ(fired[path], 1u) << path; // its own frame only
    }
    // The queue's bytes rise and fall once for its frame (sent straight to the wire).
    EXPECT_EQ(fired[pa + "QueueBytes"], 2u);
    EXPECT_EQ(direct, frames); // MacRx kept its second listener throughout
}

TEST_F(PfcNetDeviceTest, PauseStopsOnlyThatPriorityAndResumeRestarts)
{
    uint32_t rx3 = 0;
    uint32_t rx1 = 0;
    b->TraceConnectWithoutContext(
        "MacRx",
        MakeCallback(+[](uint32_t* r3, uint32_t* r1, Ptr<const Packet> p) {
            (p->GetSize() == 1000 ? *r3 : *r1) += 1;
        }).Bind(&rx3, &rx1));
    // b pauses a's priority 3 at t = 0; a queues frames on priorities 3 and 1 at 10 us.
    Simulator::Schedule(Time(0), [this]() { b->SetIngressPause(3, true); });
    Simulator::Schedule(MicroSeconds(10), [this]() {
        for (int i = 0; i < 5; ++i)
        {
            a->Enqueue(Frame(1000), 3, 0);
            a->Enqueue(Frame(500), 1, 0);
        }
    });
    uint32_t at50Prio3 = 99;
    uint32_t at50Prio1 = 99;
    bool pausedAt50 = false;
    Simulator::Schedule(MicroSeconds(50), [&]() {
        at50Prio3 = rx3;
        at50Prio1 = rx1;
        pausedAt50 = a->IsEgressPaused(3);
        b->SetIngressPause(3, false);
    });
    Simulator::Run();
    EXPECT_TRUE(pausedAt50);
    EXPECT_EQ(at50Prio3, 0u); // priority 3 held back...
    EXPECT_EQ(at50Prio1, 5u); // ...priority 1 not
    EXPECT_EQ(rx3, 5u);       // and released by the resume frame
    EXPECT_FALSE(a->IsEgressPaused(3));
    EXPECT_EQ(b->GetPfcFramesSent(3), 2u); // one pause (no refresh within 50 us), one resume
    EXPECT_EQ(a->GetPfcFramesReceived(3), 2u);
    EXPECT_NEAR(a->GetEgressPausedTime(3).GetMicroSeconds(), 50, 1);
}

TEST_F(PfcNetDeviceTest, PauseExpiresAfterItsQuanta)
{
    a->SetDataRate(DataRate("100Gbps"));
    // Hand a a PFC frame pausing priority 3 for 1000 quanta: 1000 x 512 bits = 5.12 us at 100G.
    auto inject = [this]() {
        PfcHeader pfc;
        pfc.SetPause(3, 1000);
        Ptr<Packet> frame = Create<Packet>();
        frame->AddHeader(pfc);
        a->Receive(frame, PfcHeader::ETHERTYPE);
    };
    bool at5 = false;
    bool at53 = true;
    Simulator::Schedule(MicroSeconds(10), inject);
    Simulator::Schedule(NanoSeconds(15100), [&]() { at5 = a->IsEgressPaused(3); });
    Simulator::Schedule(NanoSeconds(15130), [&]() { at53 = a->IsEgressPaused(3); });
    Simulator::Run();
    EXPECT_TRUE(at5);
    EXPECT_FALSE(at53);
}

TEST_F(PfcNetDeviceTest, HeldPauseIsRefreshedBeforeItExpires)
{
    a->SetDataRate(DataRate("100Gbps"));
    b->SetDataRate(DataRate("100Gbps"));
    b->SetAttribute("PauseQuanta", UintegerValue(1000)); // 5.12 us per pause
    bool everResumed = false;
    Simulator::Schedule(Time(0), [this]() { b->SetIngressPause(3, true); });
    for (int us = 2; us < 100; us += 1)
    {
        Simulator::Schedule(MicroSeconds(us),
                            [&]() { everResumed = everResumed || !a->IsEgressPaused(3); });
    }
    Simulator::Schedule(MicroSeconds(100), [this]() { b->SetIngressPause(3, false); });
    Simulator::Run();
    EXPECT_FALSE(everResumed);
    // Refreshed every half pause time (2.56 us) for 100 us, plus the resume.
    EXPECT_NEAR(static_cast<double>(b->GetPfcFramesSent(3)), 100 / 2.56 + 1, 2);
}

TEST_F(PfcNetDeviceTest, StrictPriorityServesHighestFirst)
{
    std::vector<uint32_t> order;
    a->TraceConnectWithoutContext("PhyTxBegin",
                                  MakeCallback(+[](std::vector<uint32_t>* o, Ptr<const Packet> p) {
                                      o->push_back(p->GetSize());
                                  }).Bind(&order));
    Simulator::Schedule(Time(0), [this]() {
        a->Enqueue(Frame(100), 1, 0); // starts at once: the wire is free
        a->Enqueue(Frame(101), 1, 0);
        a->Enqueue(Frame(105), 5, 0);
        a->Enqueue(Frame(103), 3, 0);
    });
    Simulator::Run();
    const std::vector<uint32_t> expected = {114, 119, 117, 115};
    EXPECT_EQ(order, expected);
}

TEST_F(PfcNetDeviceTest, DwrrSplitsTheLinkByWeight)
{
    a->SetAttribute("Scheduler", StringValue("Dwrr"));
    a->SetAttribute("DwrrWeights", StringValue("1,3,1,1,1,1,1,1"));
    // A pointer to the counters and a plain pointer to the device: Bind copies what it is given
    // (a C array too, since ns-3.38), and a Ptr to the device in its own trace would keep it
    // alive forever.
    std::array<uint64_t, 2> bytes{0, 0};
    bool done = false;
    a->TraceConnectWithoutContext(
        "PhyTxBegin",
        MakeCallback(+[](std::array<uint64_t, 2>* b,
                         bool* stop,
                         PfcNetDevice* dev,
                         Ptr<const Packet> p) {
            const uint32_t size = p->GetSize();
            if (*stop || (size != 1014 && size != 714))
            {
                return; // the opening frame on priority 7, or past the measurement
            }
            (*b)[size == 1014 ? 0 : 1] += size;
            // Measure while both queues are backlogged.
            *stop = dev->GetQueueFrames(0) == 0 || dev->GetQueueFrames(1) == 0;
        }).Bind(&bytes, &done, PeekPointer(a)));
    Simulator::Schedule(Time(0), [this]() {
        a->Enqueue(Frame(9000), 7, 0); // occupies the wire while the queues fill
        for (int i = 0; i < 400; ++i)
        {
            a->Enqueue(Frame(1000), 0, 0);
            a->Enqueue(Frame(700), 1, 0);
        }
    });
    Simulator::Run();
    ASSERT_GT(bytes[0], 0u);
    EXPECT_NEAR(static_cast<double>(bytes[1]) / bytes[0], 3.0, 0.15);
}

TEST(PfcNetDeviceConfig, ZeroRateIsAConfigurationError)
{
    EXPECT_CONFIG_ERROR(
        {
            Ptr<PfcNetDevice> d = CreateObject<PfcNetDevice>();
            d->SetAttribute("DataRate", StringValue("0bps"));
        },
        "ns3::PfcNetDevice::DataRate = 0bps: accepted: a rate above 0");
}

TEST(PfcNetDeviceConfig, NegativeCableDelayIsAConfigurationError)
{
    // (The Delay attribute's checker refuses it too; SetDelay is the C++ way around it.)
    EXPECT_CONFIG_ERROR(
        {
            Ptr<PfcChannel> cable = CreateObject<PfcChannel>();
            cable->SetDelay(NanoSeconds(-5));
        },
        "ns3::PfcChannel::Delay = -5ns: accepted: a delay of 0 or more");
}

TEST(PfcNetDeviceConfig, BadDwrrWeightsAreAConfigurationError)
{
    EXPECT_CONFIG_ERROR(
        {
            Ptr<PfcNetDevice> d = CreateObject<PfcNetDevice>();
            d->SetAttribute("DwrrWeights", StringValue("1,2,3"));
        },
        "ns3::PfcNetDevice::DwrrWeights = \"1,2,3\": accepted: 8 comma-separated");
}

TEST_F(PfcNetDeviceTest, FramesInFlightArriveAtTheirOwnTimesInAnyOrder)
{
    // One cable's frames wait in one queue behind one event; a frame due before the last one
    // queued (from elsewhere: a distributed run's remote link) still arrives at its own time.
    std::vector<std::pair<uint32_t, Time>> arrived;
    b->TraceConnectWithoutContext(
        "MacRx",
        MakeCallback(+[](std::vector<std::pair<uint32_t, Time>>* v, Ptr<const Packet> p) {
            v->emplace_back(p->GetSize(), Simulator::Now());
        }).Bind(&arrived));
    const uint16_t ipv4 = 0x0800;
    b->ScheduleReceive(Simulator::Now().GetTimeStep(), MicroSeconds(5), 0, Frame(100), ipv4);
    b->ScheduleReceive(Simulator::Now().GetTimeStep(),
                       MicroSeconds(5),
                       1,
                       Frame(101),
                       ipv4); // same time: in sequence order
    b->ScheduleReceive(Simulator::Now().GetTimeStep(), MicroSeconds(7), 2, Frame(102), ipv4);
    b->ScheduleReceive(Simulator::Now().GetTimeStep(),
                       MicroSeconds(3),
                       3,
                       Frame(103),
                       ipv4); // earlier than those queued
    Simulator::Schedule(MicroSeconds(6), [this]() {
        b->ScheduleReceive(Simulator::Now().GetTimeStep(),
                           MicroSeconds(2),
                           4,
                           Frame(104),
                           ipv4); // due at 8 us, after 102
    });
    Simulator::Run();
    const std::vector<std::pair<uint32_t, Time>> expected = {{103, MicroSeconds(3)},
                                                             {100, MicroSeconds(5)},
                                                             {101, MicroSeconds(5)},
                                                             {102, MicroSeconds(7)},
                                                             {104, MicroSeconds(8)}};
    EXPECT_EQ(arrived, expected);
}

TEST_F(PfcNetDeviceTest, FramesInFlightToADisposedPortAreNotDelivered)
{
    // The frames a port sends wait in the sender's queue while on the cable (its pipe); a
    // receiver that goes away takes them with it, as its own arrival queue did, and the
    // sender's later frames go nowhere: nothing reaches a disposed port.
    uint32_t received = 0;
    b->TraceConnectWithoutContext("MacRx", MakeCallback(+[](uint32_t* n, Ptr<const Packet>) {
                                               ++*n;
                                           }).Bind(&received));
    a->SetDataRate(DataRate("10Gbps"));
    Simulator::Schedule(MicroSeconds(1), [this]() {
        for (int i = 0; i < 3; ++i)
        {
            a->Enqueue(Frame(986), 3, 0); // 819 ns each on the wire, then 1 us of cable
        }
    });
    uint32_t receivedBefore = 0;
    Simulator::Schedule(NanoSeconds(3000), [&]() {
        receivedBefore = received; // the first arrived at 2.82 us; two are in flight
        b->Dispose();
    });
    Simulator::Schedule(MicroSeconds(5), [this]() { a->Enqueue(Frame(986), 3, 0); });
    Simulator::Run();
    EXPECT_EQ(receivedBefore, 1u);
    EXPECT_EQ(received, 1u);
    EXPECT_EQ(a->GetFramesSent(), 4u);
}

TEST_F(PfcNetDeviceTest, CableDelayChangedAfterAttachOrDuringARunIsUsed)
{
    // The ports of a plain cable keep its delay where a frame's send reads it (the cable's own
    // object is left untouched on that path); a delay set later must reach them.
    std::vector<Time> arrivals;
    b->TraceConnectWithoutContext("MacRx",
                                  MakeCallback(+[](std::vector<Time>* v, Ptr<const Packet>) {
                                      v->push_back(Simulator::Now());
                                  }).Bind(&arrivals));
    a->SetDataRate(DataRate("10Gbps"));
    channel->SetAttribute("Delay", TimeValue(MicroSeconds(3)));
    Simulator::Schedule(MicroSeconds(5), [this]() { a->Enqueue(Frame(986), 3, 0); });
    Simulator::Schedule(MicroSeconds(20),
                        [this]() { channel->SetAttribute("Delay", TimeValue(NanoSeconds(500))); });
    Simulator::Schedule(MicroSeconds(30), [this]() { a->Enqueue(Frame(986), 3, 0); });
    Simulator::Run();
    ASSERT_EQ(arrivals.size(), 2u);
    // 1000-byte frame: 819.2 ns on the wire at 10 Gb/s, then the cable's delay of the moment.
    EXPECT_NEAR((arrivals[0] - MicroSeconds(5)).GetPicoSeconds(), 819200 + 3000000, 1000);
    EXPECT_NEAR((arrivals[1] - MicroSeconds(30)).GetPicoSeconds(), 819200 + 500000, 1000);
    EXPECT_EQ(a->GetChannelDelay(), NanoSeconds(500));
}

namespace
{

/// A cable of the user's own: it counts the frames it carries.
class CountingChannel : public PfcChannel
{
  public:
    void TransmitStart(const Ptr<Packet>& packet,
                       const Ptr<PfcNetDevice>& src,
                       int64_t now,
                       Time txTime,
                       uint16_t etherType,
                       const PfcFrameInfo& info) override
    {
        ++carried;
        PfcChannel::TransmitStart(packet, src, now, txTime, etherType, info);
    }

    uint32_t carried{0};
};

} // namespace

TEST(PfcNetDeviceCable, ADerivedCableSeesEveryFrame)
{
    // Only a plain PfcChannel is bypassed on a send: a class derived from it (a remote link, a
    // user's cable) gets every frame through TransmitStart.
    Ptr<PfcNetDevice> a = CreateObject<PfcNetDevice>();
    Ptr<PfcNetDevice> b = CreateObject<PfcNetDevice>();
    Ptr<Node> na = CreateObject<Node>();
    Ptr<Node> nb = CreateObject<Node>();
    na->AddDevice(a);
    nb->AddDevice(b);
    Ptr<CountingChannel> cable = CreateObject<CountingChannel>();
    a->Attach(cable);
    b->Attach(cable);
    uint32_t received = 0;
    b->TraceConnectWithoutContext("MacRx", MakeCallback(+[](uint32_t* n, Ptr<const Packet>) {
                                               ++*n;
                                           }).Bind(&received));
    Simulator::Schedule(MicroSeconds(1), [a]() {
        for (int i = 0; i < 3; ++i)
        {
            a->Enqueue(Create<Packet>(986), 3, 0);
        }
    });
    Simulator::Run();
    EXPECT_EQ(cable->carried, 3u);
    EXPECT_EQ(received, 3u);
    Simulator::Destroy();
}

namespace
{

/// An owner that takes no frame and counts each time its port asks it to name its send lines.
class SendLinesOwner : public PfcPortOwner
{
  public:
    /// @param names whether it names them (PortNamesSendLines)
    explicit SendLinesOwner(bool names)
        : m_names(names)
    {
    }

    bool PortReceive(uint32_t, const Ptr<Packet>&, uint16_t, const PfcFrameInfo&) override
    {
        return false;
    }

    void PortDequeue(uint32_t, const Ptr<Packet>&, uint8_t, uint32_t) override
    {
        ++dequeued;
    }

    void PortDrop(uint32_t, const Ptr<Packet>&, uint8_t, uint32_t) override
    {
    }

    bool PortNamesSendLines(uint32_t) const override
    {
        return m_names;
    }

    void PortSendLines(uint32_t port, const void*& line, const void*& span) const override
    {
        asked.push_back(dequeued);
        EXPECT_EQ(port, 7u);
        line = &dequeued;
        span = nullptr;
    }

    uint32_t dequeued{0};                //!< frames taken from the port's queues
    mutable std::vector<uint32_t> asked; //!< frames dequeued by then, at each question

  private:
    bool m_names; //!< PortNamesSendLines
};

} // namespace

TEST_F(PfcNetDeviceTest, ACompletionArmedForAnOwnerThatNamesNothingNamesTheFramesInFlight)
{
    // An owner that names no send lines (a switch) still has its port's completion name what
    // its dequeue reads past the port's first lines: the frames in flight (a line within the
    // port) and the lines from the wire's clock to the receive fields; an owner that names its
    // lines has its own named instead.
    const auto* port = reinterpret_cast<const char*>(PeekPointer(a));
    const auto within = [port](const void* at) {
        const auto* p = static_cast<const char*>(at);
        return p >= port + 64 && p < port + sizeof(PfcNetDevice);
    };
    for (const bool names : {false, true})
    {
        SendLinesOwner owner(names);
        a->SetOwner(&owner, 7);
        for (int i = 0; i < 3; ++i)
        {
            a->Enqueue(Frame(1000), 3, 0); // (the first takes the wire; two wait)
        }
        const auto& hints = a->GetCompletionHints();
        EXPECT_EQ(hints[0], static_cast<const void*>(port));
        if (names)
        {
            EXPECT_EQ(hints[3], static_cast<const void*>(&owner.dequeued));
            EXPECT_EQ(hints[4], nullptr);
        }
        else
        {
            EXPECT_TRUE(within(hints[3])) << hints[3];
            // The span starts within the port and ends on its last send line, where its
            // receive fields are.
            const auto span = reinterpret_cast<uintptr_t>(hints[4]);
            const auto start = span & ~CanonicalScheduler::SPAN_MASK;
            EXPECT_TRUE(within(reinterpret_cast<const void*>(start)));
            EXPECT_EQ(start / 64 + (span & CanonicalScheduler::SPAN_MASK),
                      reinterpret_cast<uintptr_t>(port) / 64 + PfcNetDevice::SEND_LINES - 1);
        }
        Simulator::Run();
        EXPECT_EQ(owner.dequeued, 3u);
        a->SetOwner(nullptr, 0);
    }
}

TEST_F(PfcNetDeviceTest, AnOwnerThatNamesItsSendLinesIsAskedAsEachCompletionIsArmed)
{
    // The port asks its owner what it reads at the next dequeue as it arms the transmit
    // completion that will dequeue it: once per frame that waits for the wire (not for the first
    // of a burst, which goes at once), while the owner's state is in the cache; never an owner
    // that does not name its lines.
    for (const bool names : {true, false})
    {
        SendLinesOwner owner(names);
        a->SetOwner(&owner, 7);
        for (int i = 0; i < 4; ++i)
        {
            a->Enqueue(Frame(1000), 3, 0);
        }
        Simulator::Run();
        EXPECT_EQ(owner.dequeued, 4u);
        if (names)
        {
            // Armed as frames 1, 2 and 3 (not 4: none waits then) started: the first at once,
            // as the first frame took the wire, the others from the completion before them.
            EXPECT_EQ(owner.asked, (std::vector<uint32_t>{1, 2, 3}));
        }
        else
        {
            EXPECT_TRUE(owner.asked.empty());
        }
        a->SetOwner(nullptr, 0);
    }
}

TEST_F(PfcNetDeviceTest, AFramesArrivalNamesItsPacketAndTheLinesAfterItWhereThePortReadsThem)
{
    // A port whose owner reads its frames (a NIC's; here none, the default) has the arrival
    // event of a frame alone in flight name the packet and the lines after it, where a packet
    // made whole (as a NIC makes its frames) mostly has the first bytes the NIC reads:
    // ARRIVAL_SPAN_LINES from the packet on, five on ns-3.37 (whose Packet is 104 bytes).
    Ptr<Packet> frame = Create<Packet>(1000);
    frame->AddHeader(IbBthHeader());
    frame->AddHeader(UdpHeader());
    frame->AddHeader(Ipv4Header());
    const Packet* packet = PeekPointer(frame);
    a->Enqueue(frame, 3, 0);
    const auto span = reinterpret_cast<uintptr_t>(a->GetDepartureHints()[4]);
    EXPECT_EQ(span & ~CanonicalScheduler::SPAN_MASK, reinterpret_cast<uintptr_t>(packet));
    EXPECT_EQ((span & CanonicalScheduler::SPAN_MASK) + 1, PfcNetDevice::ARRIVAL_SPAN_LINES);
    // The lines cover the bytes read, from a packet up to 48 bytes into its line: the packet
    // and malloc's 8-byte header of the next block, the buffer's fields (16 bytes), up to a
    // line of headroom, then ARRIVAL_READ_BYTES.
    EXPECT_GE(PfcNetDevice::ARRIVAL_SPAN_LINES * 64,
              48 + sizeof(Packet) + 8 + 16 + 64 + PfcNetDevice::ARRIVAL_READ_BYTES);
    Simulator::Run();
}
