/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// iWARP connections over ns-3 TCP: the MPA exchange, the verbs, FPDU alignment, goodput against
// the framing arithmetic, loss, and Terminate on malformed FPDUs.

#include "config-error-test.h"
#include "star-fabric.h"

#include "ns3/core-module.h"
#include "ns3/ethernet-header.h"
#include "ns3/internet-module.h"
#include "ns3/iwarp-crc32c.h"
#include "ns3/iwarp-ddp-header.h"
#include "ns3/iwarp-helper.h"
#include "ns3/iwarp-mpa.h"
#include "ns3/iwarp-transport.h"
#include "ns3/network-module.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-time-series.h"

#include <gtest/gtest.h>
#include <map>
#include <vector>

using namespace ns3;

namespace
{

/// Two hosts on one switch, 10 Gb/s, 1 us links, with an Internet stack.
class IwarpSocketTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        m_roce.SetDeviceAttribute("DataRate", StringValue("10Gbps"));
        m_roce.SetDeviceAttribute("Mtu", UintegerValue(1500));
        m_roce.SetChannelAttribute("Delay", StringValue("1us"));
        m_a = m_roce.AddHost();
        m_b = m_roce.AddHost();
        Ptr<Node> sw = m_roce.AddSwitch();
        m_roce.Link(m_a, sw);
        m_roce.Link(m_b, sw);
        m_roce.Finalize(true);
    }

    void TearDown() override
    {
        Simulator::Destroy();
    }

    /// Connect a to b.
    Ptr<IwarpSocket> Connect()
    {
        return m_iwarp.Connect(m_a, m_b, m_roce.GetAddress(1));
    }

    /// b's end of the first connection.
    Ptr<IwarpSocket> Responder() const
    {
        Ptr<IwarpListener> l = m_iwarp.GetListener(m_b);
        return l && !l->GetSockets().empty() ? l->GetSockets().front() : nullptr;
    }

    RoceHelper m_roce;
    IwarpHelper m_iwarp;
    Ptr<Node> m_a;
    Ptr<Node> m_b;
};

/// Completions in the order they came.
struct Completions
{
    std::vector<RdmaCompletion> list;

    RdmaQueuePair::CompletionCallback Callback()
    {
        return MakeCallback(&Completions::Add, this);
    }

    void Add(const RdmaCompletion& c)
    {
        list.push_back(c);
    }
};

} // namespace

TEST_F(IwarpSocketTest, MpaExchangeNegotiatesMarkersPerDirectionAndCrcEitherWay)
{
    // a asks for markers on what it receives and no CRC; b (default) asks for CRC only.
    m_iwarp.SetSocketAttribute("Crc", BooleanValue(false));
    m_iwarp.SetSocketAttribute("Markers", BooleanValue(true));
    Ptr<IwarpSocket> a = Connect();
    m_iwarp.GetListener(m_b)->SetSocketAttribute("Markers", BooleanValue(false));
    m_iwarp.GetListener(m_b)->SetSocketAttribute("Crc", BooleanValue(true));
    Simulator::Stop(MicroSeconds(100));
    Simulator::Run();
    Ptr<IwarpSocket> b = Responder();
    ASSERT_TRUE(b);
    EXPECT_EQ(a->GetState(), IwarpSocket::ESTABLISHED);
    EXPECT_EQ(b->GetState(), IwarpSocket::ESTABLISHED);
    EXPECT_FALSE(a->GetTxMarkers()); // b did not ask for markers
    EXPECT_TRUE(b->GetTxMarkers());  // a did
    EXPECT_TRUE(a->GetCrcEnabled()); // b asked for CRC: both directions carry it
    EXPECT_TRUE(b->GetCrcEnabled());
    EXPECT_EQ(a->GetEmss(), 1448u);
    EXPECT_EQ(a->GetMulpdu(), IwarpMpa::Mulpdu(1448, false));
    EXPECT_EQ(b->GetMulpdu(), IwarpMpa::Mulpdu(1448, true));
    // The initiator spoke first (the zero-length Write), so the responder may send.
    EXPECT_EQ(b->GetFpdusReceived(), 1u);
}

TEST_F(IwarpSocketTest, WriteGoodputMatchesTheFramingArithmetic)
{
    Ptr<IwarpSocket> a = Connect();
    Completions done;
    const uint64_t bytes = 1 << 20;
    Simulator::Schedule(MicroSeconds(50),
                        [&]() { a->Post(RdmaVerb::WRITE, bytes, done.Callback()); });
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    ASSERT_EQ(done.list.size(), 1u);
    // Each 1448-byte segment is one FPDU: ULPDU_LENGTH and CRC (6), a tagged DDP header (14),
    // 1428 bytes of data; on the wire with TCP (20 + 12 of timestamps) and IPv4 (20) headers.
    const uint32_t emss = 1448;
    const uint32_t data = IwarpMpa::Mulpdu(emss, false) - IwarpDdpHeader::TAGGED_SIZE;
    EXPECT_EQ(data, 1428u);
    const Time perSegment = m_roce.GetNic(0)->GetDevice()->GetWireTime(emss + 52 + 14);
    const double analytic = data * 8.0 / perSegment.GetSeconds();
    const double measured =
        bytes * 8.0 / (done.list[0].completed - done.list[0].posted).GetSeconds();
    EXPECT_NEAR(measured / analytic, 1.0, 0.02) << measured / 1e9 << " vs " << analytic / 1e9;
    Ptr<IwarpSocket> b = Responder();
    EXPECT_EQ(b->GetBytesPlaced(), bytes);
    EXPECT_EQ(b->GetPlacementErrors(), 0u);
    EXPECT_EQ(a->GetUnalignedFpdus(), 0u);
}

class IwarpAlignmentTest : public IwarpSocketTest, public ::testing::WithParamInterface<bool>
{
};

TEST_P(IwarpAlignmentTest, EveryFpduEndsWhereTcpEndsASegment)
{
    // Look at every data segment a sends: whole FPDUs only (after the start-up frame), with the
    // markers, when on, where RFC 5044 puts them: every 512 octets from the first FPDU.
    const bool markers = GetParam();
    m_iwarp.SetSocketAttribute("Markers", BooleanValue(markers));
    Ptr<IwarpSocket> a = Connect();
    std::vector<uint32_t> mismatched;
    uint32_t segments = 0;
    bool haveFirst = false;
    SequenceNumber32 first; // TCP sequence of the first FPDU
    auto onTx = [&](Ptr<const Packet> frame) {
        Ptr<Packet> p = frame->Copy();
        EthernetHeader eth;
        p->RemoveHeader(eth);
        Ipv4Header ip;
        p->RemoveHeader(ip);
        if (ip.GetProtocol() != TcpL4Protocol::PROT_NUMBER)
        {
            return;
        }
        TcpHeader tcp;
        p->RemoveHeader(tcp);
        const uint32_t payload = ip.GetPayloadSize() - tcp.GetSerializedSize();
        if (payload == 0)
        {
            return;
        }
        std::vector<uint8_t> b(payload);
        p->CopyData(b.data(), payload);
        if (payload >= 16 && std::string(b.begin(), b.begin() + 16) == "MPA ID Req Frame")
        {
            return;
        }
        if (!haveFirst)
        {
            haveFirst = true;
            first = tcp.GetSequenceNumber();
        }
        ++segments;
        // Walk the FPDUs of the segment; they must end exactly at its end.
        uint64_t position = tcp.GetSequenceNumber() - first; // stream offset from the 1st FPDU
        uint32_t at = 0;
        while (at + 2 <= payload)
        {
            if (markers && position % 512 == 0)
            {
                at += 4; // a marker before the ULPDU_LENGTH field
                position += 4;
            }
            const uint32_t length = (uint32_t(b[at]) << 8) | b[at + 1];
            uint32_t left = 2 + length + IwarpMpa::PadLength(length) + 4;
            while (left > 0)
            {
                if (markers && position % 512 == 0)
                {
                    at += 4;
                    position += 4;
                }
                const uint32_t chunk = std::min<uint32_t>(left, 512 - position % 512);
                at += chunk;
                position += chunk;
                left -= chunk;
            }
        }
        if (at != payload)
        {
            mismatched.push_back(payload);
        }
    };
    m_roce.GetNic(0)->GetDevice()->TraceConnectWithoutContext(
        "MacTx",
        Callback<void, Ptr<const Packet>>(onTx));
    Completions done;
    // Messages of awkward sizes, back to back: tails of one and heads of the next share segments.
    for (uint64_t size : {1000000u, 333u, 70000u, 1u, 4097u, 250000u})
    {
        Simulator::Schedule(MicroSeconds(50), [&, size]() {
            a->Post(size % 2 ? RdmaVerb::SEND : RdmaVerb::WRITE, size, done.Callback());
        });
    }
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    EXPECT_EQ(done.list.size(), 6u);
    // At least one segment per 1428 bytes of data (a full FPDU's worth).
    EXPECT_GE(segments, (1000000u + 333 + 70000 + 1 + 4097 + 250000) / 1428);
    EXPECT_TRUE(mismatched.empty()) << mismatched.size() << " segments cut an FPDU";
    EXPECT_EQ(a->GetUnalignedFpdus(), 0u);
    EXPECT_EQ(a->GetTxMarkers(), markers);
    EXPECT_EQ(Responder()->GetPlacementErrors(), 0u);
    EXPECT_EQ(Responder()->GetBytesPlaced(), 1000000u + 333 + 70000 + 1 + 4097 + 250000);
}

INSTANTIATE_TEST_SUITE_P(Iwarp,
                         IwarpAlignmentTest,
                         ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                             return info.param ? "Markers" : "NoMarkers";
                         });

TEST_F(IwarpSocketTest, ReadSendAndWriteCompleteInPostingOrderWithTheirBytesPlaced)
{
    Ptr<IwarpSocket> a = Connect();
    Completions done;
    std::vector<std::pair<RdmaVerb, uint64_t>> received;
    const std::vector<std::pair<RdmaVerb, uint64_t>> posts = {{RdmaVerb::READ, 300000},
                                                              {RdmaVerb::WRITE, 5000},
                                                              {RdmaVerb::SEND, 20000},
                                                              {RdmaVerb::READ, 7},
                                                              {RdmaVerb::SEND, 1}};
    Simulator::Schedule(MicroSeconds(50), [&]() {
        for (const auto& [verb, bytes] : posts)
        {
            a->Post(verb, bytes, done.Callback());
        }
        Responder()->TraceConnectWithoutContext(
            "MessageReceived",
            MakeCallback(+[](std::vector<std::pair<RdmaVerb, uint64_t>>* r,
                             RdmaVerb v,
                             uint64_t n) {
                r->emplace_back(v, n);
            }).Bind(&received));
    });
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    ASSERT_EQ(done.list.size(), posts.size());
    for (uint32_t i = 0; i < posts.size(); ++i)
    {
        EXPECT_EQ(done.list[i].id, i);
        EXPECT_EQ(done.list[i].verb, posts[i].first);
        EXPECT_EQ(done.list[i].bytes, posts[i].second);
        if (i > 0)
        {
            EXPECT_GE(done.list[i].completed, done.list[i - 1].completed);
        }
    }
    // The first READ's 300 kB at 10 Gb/s take more than 240 us.
    EXPECT_GT(done.list[0].completed - done.list[0].posted, MicroSeconds(240));
    EXPECT_EQ(a->GetBytesPlaced(), 300007u); // READ responses land at the requester
    EXPECT_EQ(a->GetPlacementErrors(), 0u);
    Ptr<IwarpSocket> b = Responder();
    EXPECT_EQ(b->GetBytesPlaced(), 25001u);
    EXPECT_EQ(b->GetPlacementErrors(), 0u);
    const std::vector<std::pair<RdmaVerb, uint64_t>> expected = {{RdmaVerb::WRITE, 5000},
                                                                 {RdmaVerb::SEND, 20000},
                                                                 {RdmaVerb::SEND, 1}};
    EXPECT_EQ(received, expected);
    EXPECT_EQ(a->GetOutstanding(), 0u);
}

class IwarpLossTest : public IwarpSocketTest, public ::testing::WithParamInterface<bool>
{
};

TEST_P(IwarpLossTest, WithRandomLossEveryMessageCompletesAndIsPlacedCorrectly)
{
    // 1% of the packets each host receives are lost, in both directions; markers on or off.
    m_iwarp.SetSocketAttribute("Markers", BooleanValue(GetParam()));
    for (uint32_t h = 0; h < 2; ++h)
    {
        Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
        em->SetAttribute("ErrorRate", DoubleValue(0.01));
        em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        em->AssignStreams(100 + h);
        m_roce.GetNic(h)->GetDevice()->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }
    Ptr<IwarpSocket> a = Connect();
    Completions done;
    uint64_t toB = 0;
    uint64_t toA = 0;
    Ptr<UniformRandomVariable> size = CreateObject<UniformRandomVariable>();
    size->SetStream(7);
    std::vector<std::pair<RdmaVerb, uint64_t>> posts;
    for (uint32_t i = 0; i < 30; ++i)
    {
        const RdmaVerb verb = i % 3 == 0   ? RdmaVerb::READ
                              : i % 3 == 1 ? RdmaVerb::WRITE
                                           : RdmaVerb::SEND;
        const uint64_t bytes = size->GetInteger(1, 200000);
        posts.emplace_back(verb, bytes);
        (verb == RdmaVerb::READ ? toA : toB) += bytes;
    }
    Simulator::Schedule(MicroSeconds(50), [&]() {
        for (const auto& [verb, bytes] : posts)
        {
            a->Post(verb, bytes, done.Callback());
        }
    });
    Simulator::Stop(Seconds(5));
    Simulator::Run();
    uint64_t lost = 0;
    for (uint32_t h = 0; h < 2; ++h)
    {
        lost += m_roce.GetNic(h)->GetDevice()->GetErrorModelDrops();
    }
    EXPECT_GT(lost, 10u);
    ASSERT_EQ(done.list.size(), posts.size());
    EXPECT_EQ(a->GetState(), IwarpSocket::ESTABLISHED);
    EXPECT_EQ(a->GetBytesPlaced(), toA);
    EXPECT_EQ(a->GetPlacementErrors(), 0u);
    EXPECT_EQ(Responder()->GetBytesPlaced(), toB);
    EXPECT_EQ(Responder()->GetPlacementErrors(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Iwarp,
                         IwarpLossTest,
                         ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                             return info.param ? "Markers" : "NoMarkers";
                         });

namespace
{

/// After establishment, write raw bytes on a's TCP socket, under its IwarpSocket.
void
InjectRaw(Ptr<IwarpSocket> a, std::vector<uint8_t> bytes)
{
    a->GetTcpSocket()->Send(Create<Packet>(bytes.data(), bytes.size()));
}

/// A tagged, zero-length, last RDMA Write segment to an STag.
std::vector<uint8_t>
WriteSegment(uint32_t stag)
{
    IwarpDdpHeader h;
    h.SetTagged(true);
    h.SetLast(true);
    h.SetOpcode(IwarpDdpHeader::RDMA_WRITE);
    h.SetStag(stag);
    h.SetTaggedOffset(0);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    return b;
}

} // namespace

class IwarpMalformedTest : public IwarpSocketTest, public ::testing::WithParamInterface<std::string>
{
};

TEST_P(IwarpMalformedTest, TerminatesBothEndsWithAReason)
{
    const std::string kind = GetParam();
    Ptr<IwarpSocket> a = Connect();
    ASSERT_TRUE(kind == "crc" || kind == "length" || kind == "stag");
    std::vector<std::string> reasons;
    auto record = [&reasons](const std::string& reason, bool local) {
        reasons.push_back((local ? "local: " : "remote: ") + reason);
    };
    a->TraceConnectWithoutContext("Terminate", Callback<void, const std::string&, bool>(record));
    Completions done;
    Simulator::Schedule(MicroSeconds(50), [&]() {
        Ptr<IwarpSocket> b = Responder();
        b->TraceConnectWithoutContext("Terminate",
                                      Callback<void, const std::string&, bool>(record));
        // The stream after the zero-length Write a sent first; markers are off.
        IwarpMpa framer(false, true);
        std::vector<uint8_t> fpdu;
        if (kind == "crc")
        {
            fpdu = framer.Frame(WriteSegment(0));
            fpdu.back() ^= 0x5A;
        }
        else if (kind == "length")
        {
            fpdu = {0x00, 0x03, 0xC1, 0x40, 0x00, 0x00, 0, 0, 0, 0}; // ULPDU_LENGTH 3
        }
        else // a well-formed FPDU naming an STag b never gave out
        {
            fpdu = framer.Frame(WriteSegment(0xDEAD));
        }
        InjectRaw(a, fpdu);
        a->Post(RdmaVerb::WRITE, 100000, done.Callback()); // flushed by the Terminate
    });
    Simulator::Stop(MilliSeconds(10));
    Simulator::Run();
    Ptr<IwarpSocket> b = Responder();
    EXPECT_EQ(b->GetState(), IwarpSocket::TERMINATED);
    EXPECT_EQ(a->GetState(), IwarpSocket::TERMINATED);
    const std::string expected = kind == "crc"      ? "LLP/0/0x02 (MPA CRC error)"
                                 : kind == "length" ? "LLP/0/0x03"
                                                    : "DDP/1/0x00 (invalid STag)";
    ASSERT_EQ(reasons.size(), 2u);
    EXPECT_EQ(reasons[0].rfind("local: " + expected, 0), 0u) << reasons[0];
    EXPECT_EQ(reasons[1].rfind("remote: the peer sent a Terminate: " + expected, 0), 0u)
        << reasons[1];
    // The reason says where or what: the stream offset of the bad FPDU, or the STag.
    EXPECT_NE(b->GetTerminateReason().find(kind == "stag" ? "STag 57005" : "stream offset"),
              std::string::npos)
        << b->GetTerminateReason();
    EXPECT_TRUE(done.list.empty());
    EXPECT_EQ(a->GetOutstanding(), 1u);
    EXPECT_EQ(b->GetBytesPlaced(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Iwarp, IwarpMalformedTest, ::testing::Values("crc", "length", "stag"));

class IwarpCongestionControlTest : public IwarpSocketTest,
                                   public ::testing::WithParamInterface<std::string>
{
};

TEST_P(IwarpCongestionControlTest, TwoWritersShareTheLinkAndComplete)
{
    // Two connections from a to b under the given TCP congestion control, each 2 MB.
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(GetParam(), &tid))
    {
        GTEST_SKIP() << GetParam() << " is not in this ns-3 (TcpCubic arrived after 3.37)";
    }
    IwarpHelper::SetCongestionControl(m_a, GetParam());
    IwarpHelper::SetCongestionControl(m_b, GetParam());
    Ptr<IwarpSocket> first = Connect();
    Ptr<IwarpSocket> second = Connect();
    Completions done;
    Simulator::Schedule(MicroSeconds(50), [&]() {
        first->Post(RdmaVerb::WRITE, 2000000, done.Callback());
        second->Post(RdmaVerb::WRITE, 2000000, done.Callback());
    });
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    ASSERT_EQ(done.list.size(), 2u);
    // Both finish near the time the pair needs at the framing's goodput (4 MB at ~9.3 Gb/s).
    const Time last = std::max(done.list[0].completed, done.list[1].completed);
    EXPECT_LT(last - MicroSeconds(50), MicroSeconds(4000000 * 8 / 9000 + 200));
}

INSTANTIATE_TEST_SUITE_P(
    Iwarp,
    IwarpCongestionControlTest,
    ::testing::Values("ns3::TcpNewReno", "ns3::TcpBic", "ns3::TcpCubic", "ns3::TcpDctcp"),
    [](const ::testing::TestParamInfo<std::string>& info) { return info.param.substr(5); });

TEST(IwarpHelperConfig, UnknownCongestionControlIsAConfigurationError)
{
    EXPECT_CONFIG_ERROR(
        {
            NodeContainer n(1);
            InternetStackHelper().Install(n);
            IwarpHelper::SetCongestionControl(n.Get(0), "ns3::TcpVegasX");
        },
        "TCP congestion control = ns3::TcpVegasX: accepted: an ns-3 TcpCongestionOps TypeId "
        "name: .*ns3::TcpNewReno");
}

TEST_F(IwarpSocketTest, WorkPostedBeforeTheConnectionIsUpGoesOutOnceItIs)
{
    Ptr<IwarpSocket> a = Connect();
    Completions done;
    a->Post(RdmaVerb::WRITE, 41227, done.Callback());
    a->Post(RdmaVerb::READ, 1000, done.Callback());
    Simulator::Stop(MilliSeconds(10));
    Simulator::Run();
    EXPECT_EQ(done.list.size(), 2u);
    EXPECT_EQ(Responder()->GetBytesPlaced(), 41227u);
    EXPECT_EQ(a->GetBytesPlaced(), 1000u);
}

TEST(IwarpDctcp, EcnHoldsTheIncastQueueNearKWhereNewRenoFillsTheBuffer)
{
    // Four hosts write 1 MB each into a fifth through one switch (10 Gb/s): DCTCP reacts to
    // the ECN marks from K = 20 KB and keeps the switch's buffer low; NewReno, blind to ECN,
    // fills the 1 MB buffer until it drops. Both deliver everything.
    uint64_t peak[2] = {0, 0};
    uint64_t marks[2] = {0, 0};
    uint64_t drops[2] = {0, 0};
    const char* ccs[2] = {"ns3::TcpDctcp", "ns3::TcpNewReno"};
    for (int run = 0; run < 2; ++run)
    {
        RoceHelper h;
        h.SetInternetStack(true);
        h.SetDeviceAttribute("DataRate", StringValue("10Gbps"));
        h.SetChannelAttribute("Delay", StringValue("1us"));
        h.SetMmuAttribute("BufferSize", UintegerValue(1000000));
        h.SetMmuAttribute("EcnKmin", UintegerValue(20000));
        h.SetMmuAttribute("EcnKmax", UintegerValue(20000));
        test::BuildStar(h, 5);
        h.Finalize();
        IwarpTransport iwarp(h);
        iwarp.SetTcpCongestionControl(ccs[run]);
        for (uint32_t i = 0; i < 4; ++i)
        {
            iwarp
                .Post(i, 4, RdmaVerb::WRITE, 1000000, MicroSeconds(50), iwarp.GetDefaultPriority());
        }
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        const RoceStatistics st = iwarp.CollectStatistics();
        EXPECT_EQ(st.messagesCompleted, 4u) << ccs[run];
        EXPECT_EQ(st.bytesDelivered, 4000000u) << ccs[run];
        peak[run] = st.peakBufferBytes;
        marks[run] = st.ecnMarks;
        drops[run] = st.dropsBuffer;
        Simulator::Destroy();
    }
    EXPECT_GT(marks[0], 0u);
    EXPECT_EQ(drops[0], 0u);
    EXPECT_LT(peak[0], 100000u) << "DCTCP's peak queue";
    EXPECT_GT(peak[1], 3 * peak[0]) << "NewReno's peak queue";
}

TEST(IwarpPriority, SegmentsTravelOnTheirConnectionsPriority)
{
    // Two hosts write 500 KB each into a third through one switch at 10 Gb/s, over iWARP on
    // priority 5: the bottleneck's queue builds up on priority 5, and priority 0, where TCP
    // goes without a priority, stays empty. (Up to ns-3.40 TcpSocketBase::Connect reset the TOS
    // to the peer address's, 0, so every segment went on priority 0.)
    RoceHelper h;
    h.SetInternetStack(true);
    h.SetDeviceAttribute("DataRate", StringValue("10Gbps"));
    test::BuildStar(h, 3);
    h.Finalize();
    IwarpTransport iwarp(h);
    iwarp.SetTcpCongestionControl("ns3::TcpNewReno");
    iwarp.SetDefaultPriority(5);
    for (uint32_t i = 0; i < 2; ++i)
    {
        iwarp.Post(i, 2, RdmaVerb::WRITE, 500000, MicroSeconds(50), iwarp.GetDefaultPriority());
    }
    RoceTimeSeries series(MicroSeconds(5));
    series.AddQueue("p5", h.GetSwitch(0), 2, 5);
    series.AddQueue("p0", h.GetSwitch(0), 2, 0);
    series.Start(Time(0), MilliSeconds(2));
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    EXPECT_EQ(iwarp.CollectStatistics().messagesCompleted, 2u);
    EXPECT_GT(series.MeanQueue(0, Time(0), MilliSeconds(2)), 1000);
    EXPECT_EQ(series.MeanQueue(1, Time(0), MilliSeconds(2)), 0);
    Simulator::Destroy();
}

TEST_F(IwarpSocketTest, SendVariantsSolicitAndInvalidate)
{
    // A Send with Solicited Event fires the peer's SolicitedEvent; a Send with Invalidate of the
    // peer's STag makes its next RDMA Write an error: the peer terminates, naming the STag.
    Ptr<IwarpSocket> a = Connect();
    Completions done;
    std::vector<uint64_t> solicited;
    std::vector<std::string> reasons;
    Simulator::Schedule(MicroSeconds(50), [&]() {
        Ptr<IwarpSocket> b = Responder();
        b->TraceConnectWithoutContext("SolicitedEvent",
                                      MakeCallback(+[](std::vector<uint64_t>* v, uint64_t n) {
                                          v->push_back(n);
                                      }).Bind(&solicited));
        b->TraceConnectWithoutContext(
            "Terminate",
            Callback<void, const std::string&, bool>(
                [&reasons](const std::string& r, bool) { reasons.push_back(r); }));
        a->Post(RdmaVerb::SEND, 1000, done.Callback());             // no event
        a->PostSend(3000, true, 0, done.Callback());                // solicited
        a->Post(RdmaVerb::WRITE, 2000, done.Callback());            // still valid
        a->PostSend(500, false, a->GetPeerStag(), done.Callback()); // invalidates b's STag
    });
    Simulator::Schedule(MicroSeconds(500), [&]() {
        a->Post(RdmaVerb::WRITE, 100, done.Callback()); // to an invalidated STag
    });
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    EXPECT_EQ(solicited, std::vector<uint64_t>{3000});
    // The last WRITE completes too: an iWARP completion means TCP has the bytes acknowledged and
    // the buffer may be reused, not that the peer placed them (RFC 5040); the peer's error
    // comes back as its Terminate.
    EXPECT_EQ(done.list.size(), 5u);
    EXPECT_EQ(Responder()->GetBytesPlaced(), 6500u);
    ASSERT_EQ(reasons.size(), 1u);
    EXPECT_NE(reasons[0].find("DDP/1/0x00 (invalid STag)"), std::string::npos) << reasons[0];
    EXPECT_NE(reasons[0].find("invalidated by the peer's Send with Invalidate"), std::string::npos)
        << reasons[0];
    EXPECT_EQ(a->GetState(), IwarpSocket::TERMINATED);
}
