/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The RC transport end to end: analytic FCTs, the three verbs, go-back-N on NAK and on timeout,
// READ re-issue, PSN wrap-around.

#include "config-error-test.h"
#include "drop-psn-error-model.h"

#include "ns3/core-module.h"
#include "ns3/ib-bth-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/rdma-psn.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-transport.h"
#include "ns3/udp-header.h"

#include <gtest/gtest.h>

using namespace ns3;
using test::DropPsnErrorModel;
using test::IsReadResponse;
using test::IsWriteData;

namespace
{

/// Bytes a frame of the given size occupies on the wire.
double
WireNs(uint32_t frameBytes, double gbps)
{
    return PfcNetDevice::WireBytes(frameBytes) * 8.0 / gbps;
}

constexpr uint32_t MTU = 1024;
constexpr uint32_t ETH = 14;
constexpr uint32_t ROCE = 44; // IPv4 + UDP + BTH + ICRC
constexpr uint32_t RETH = 16;
constexpr uint32_t AETH = 4;

/// Two hosts joined by one cable; host 0 holds the first device (function arguments have no
/// evaluation order, so the hosts are created in statements of their own).
std::pair<Ptr<PfcNetDevice>, Ptr<PfcNetDevice>>
TwoHosts(RoceHelper& h)
{
    Ptr<Node> a = h.AddHost();
    Ptr<Node> b = h.AddHost();
    return h.Link(a, b);
}

/// A WRITE of `packets` MTU-sized packets over one 100 Gb/s link whose receiver loses the one
/// with PSN `lost` (once), run to its end.
struct LossyWrite
{
    Ptr<RdmaQueuePair> sender; //!< the writer's queue pair
    FlowRecord flow;           //!< the WRITE's record
    uint64_t delivered{0};     //!< bytes the receiver's queue pair delivered
    uint32_t dropped{0};       //!< packets the error model dropped
};

LossyWrite
RunLossyWrite(uint32_t packets, uint32_t lost, const std::string& rto = "")
{
    RoceHelper h;
    h.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
    if (!rto.empty())
    {
        h.SetQueuePairAttribute("RetransmitTimeout", StringValue(rto));
    }
    auto link = TwoHosts(h);
    Ptr<DropPsnErrorModel> em = CreateObject<DropPsnErrorModel>();
    em->Add(lost, &IsWriteData);
    link.second->SetAttribute("ReceiveErrorModel", PointerValue(em));
    h.Finalize();
    RoceTransport rdma(h);
    rdma.Post(0, 1, RdmaVerb::WRITE, uint64_t{packets} * MTU, Time(0), 3);
    Simulator::Run();
    LossyWrite out;
    out.sender = h.GetNic(0)->GetQueuePair(0x100);
    out.flow = rdma.GetFlows()[0];
    out.delivered = h.GetNic(1)->GetQueuePair(0x100)->GetBytesDelivered();
    out.dropped = em->m_dropped;
    return out;
}

class RdmaQueuePairTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }
};

} // namespace

TEST_F(RdmaQueuePairTest, WriteOverOneLinkMatchesAnalyticFct)
{
    RoceHelper h;
    h.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
    h.SetChannelAttribute("Delay", StringValue("1us"));
    TwoHosts(h);
    h.Finalize();
    RoceTransport rdma(h);
    const uint64_t bytes = 100 * MTU;
    rdma.Post(0, 1, RdmaVerb::WRITE, bytes, MicroSeconds(1), 3);
    Simulator::Run();

    // First frame carries the RETH; then back to back at line rate; then the ACK comes back.
    const double data = WireNs(MTU + ROCE + RETH + ETH, 100) + 99 * WireNs(MTU + ROCE + ETH, 100);
    const double expected = data + 1000 + WireNs(ROCE + AETH + ETH, 100) + 1000;
    const FlowRecord& f = rdma.GetFlows().at(0);
    ASSERT_FALSE(f.end.IsZero());
    const double fct = (f.end - f.start).GetNanoSeconds();
    EXPECT_NEAR(fct, expected, expected * 0.01);
    EXPECT_NEAR(f.idealFct.GetNanoSeconds(), expected, expected * 0.01);
    EXPECT_EQ(h.GetNic(1)->GetQueuePair(0x100)->GetBytesDelivered(), bytes);
}

TEST_F(RdmaQueuePairTest, WriteOverThreeHopsMatchesAnalyticFct)
{
    RoceHelper h;
    h.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
    h.SetChannelAttribute("Delay", StringValue("2us"));
    h.SetSwitchAttribute("ForwardingLatency", StringValue("500ns"));
    Ptr<Node> a = h.AddHost();
    Ptr<Node> b = h.AddHost();
    Ptr<Node> s1 = h.AddSwitch();
    Ptr<Node> s2 = h.AddSwitch();
    h.Link(a, s1);
    h.Link(s1, s2);
    h.Link(s2, b);
    h.Finalize();
    RoceTransport rdma(h);
    const uint64_t bytes = 200 * MTU;
    rdma.Post(0, 1, RdmaVerb::WRITE, bytes, MicroSeconds(1), 3);
    Simulator::Run();

    // Store and forward over 3 equal links: the first (largest) frame sets the per-hop lag.
    const double first = WireNs(MTU + ROCE + RETH + ETH, 100);
    const double data = first + 199 * WireNs(MTU + ROCE + ETH, 100);
    const double forward = data + 2 * first + 3 * 2000 + 2 * 500;
    const double ack = 3 * WireNs(ROCE + AETH + ETH, 100) + 3 * 2000 + 2 * 500;
    const double expected = forward + ack;
    const FlowRecord& f = rdma.GetFlows().at(0);
    ASSERT_FALSE(f.end.IsZero());
    const double fct = (f.end - f.start).GetNanoSeconds();
    EXPECT_NEAR(fct, expected, expected * 0.01);
    EXPECT_NEAR(f.idealFct.GetNanoSeconds(), fct, fct * 0.001);
}

TEST_F(RdmaQueuePairTest, GoodputIsPayloadOverFrame)
{
    RoceHelper h;
    h.SetDeviceAttribute("DataRate", StringValue("40Gbps"));
    h.SetQueuePairAttribute("Mtu", UintegerValue(MTU));
    TwoHosts(h);
    h.Finalize();
    RoceTransport rdma(h);
    const uint64_t bytes = 20000 * MTU;
    rdma.Post(0, 1, RdmaVerb::WRITE, bytes, Time(0), 3);
    Simulator::Run();
    const FlowRecord& f = rdma.GetFlows().at(0);
    ASSERT_FALSE(f.end.IsZero());
    const double goodput = bytes * 8.0 / (f.end - f.start).GetSeconds();
    const double expected = 40e9 * MTU / PfcNetDevice::WireBytes(MTU + ROCE + ETH);
    EXPECT_NEAR(goodput, expected, expected * 0.01);
}

TEST_F(RdmaQueuePairTest, ReadAndSendComplete)
{
    RoceHelper h;
    h.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
    h.SetChannelAttribute("Delay", StringValue("1us"));
    TwoHosts(h);
    h.Finalize();
    RoceTransport rdma(h);
    rdma.SetQueuePairMapping(QueuePairMapping::PerHostPair()); // both verbs on one queue pair
    std::vector<RdmaCompletion> done;
    auto record = [&done](const RdmaCompletion& c) { done.push_back(c); };
    rdma.Post(0,
              1,
              RdmaVerb::READ,
              50 * MTU + 100,
              MicroSeconds(1),
              3,
              RdmaQueuePair::CompletionCallback(record));
    rdma.Post(0,
              1,
              RdmaVerb::SEND,
              3 * MTU,
              MicroSeconds(200),
              3,
              RdmaQueuePair::CompletionCallback(record));
    Simulator::Run();
    ASSERT_EQ(done.size(), 2u);
    EXPECT_EQ(done[0].verb, RdmaVerb::READ);
    EXPECT_EQ(done[0].bytes, 50u * MTU + 100);
    EXPECT_EQ(done[1].verb, RdmaVerb::SEND);
    // READ: the request goes out, 51 responses come back (AETH on the first and the last).
    const double request = WireNs(ROCE + RETH + ETH, 100) + 1000;
    const double responses = WireNs(MTU + ROCE + AETH + ETH, 100) +
                             49 * WireNs(MTU + ROCE + ETH, 100) +
                             WireNs(100 + ROCE + AETH + ETH, 100) + 1000;
    const double fct = (done[0].completed - done[0].posted).GetNanoSeconds();
    EXPECT_NEAR(fct, request + responses, (request + responses) * 0.01);
    // The SEND was delivered to host 1; the READ's data came back to host 0.
    EXPECT_EQ(h.GetNic(1)->GetQueuePair(0x100)->GetBytesDelivered(), 3u * MTU);
}

TEST_F(RdmaQueuePairTest, NakTriggersGoBackN)
{
    const LossyWrite w = RunLossyWrite(40, 10);
    ASSERT_FALSE(w.flow.end.IsZero());
    EXPECT_EQ(w.dropped, 1u);
    EXPECT_EQ(w.sender->GetNaksReceived(), 1u);
    EXPECT_EQ(w.sender->GetTimeouts(), 0u);
    EXPECT_GE(w.sender->GetRetransmittedPackets(), 1u);
    EXPECT_EQ(w.delivered, 40u * MTU);
}

TEST_F(RdmaQueuePairTest, LastPacketLostRecoversByTimeout)
{
    const LossyWrite w = RunLossyWrite(20, 19, "100us"); // the last of 20 packets
    ASSERT_FALSE(w.flow.end.IsZero());
    EXPECT_EQ(w.sender->GetTimeouts(), 1u);
    EXPECT_EQ(w.sender->GetNaksReceived(), 0u);
    EXPECT_EQ(w.sender->GetRetransmittedPackets(), 1u);
    EXPECT_GE(w.flow.end - w.flow.start, MicroSeconds(100));
    EXPECT_LT(w.flow.end - w.flow.start, MicroSeconds(100) + 2 * w.flow.idealFct);
    EXPECT_EQ(w.delivered, 20u * MTU);
}

TEST_F(RdmaQueuePairTest, TheTimerRestartsOnEveryAckSoItExpiresOneRtoAfterTheLastProgress)
{
    // 1000 packets at 100 Gb/s take about 87 us, four times the 20 us RTO; the last is lost.
    // Every ACK restarts the timer: no timeout while the ACKs come, one RTO after the last.
    const LossyWrite w = RunLossyWrite(1000, 999, "20us");
    ASSERT_FALSE(w.flow.end.IsZero());
    EXPECT_EQ(w.sender->GetTimeouts(), 1u);
    EXPECT_EQ(w.sender->GetRetransmittedPackets(), 1u);
    // The last ACK of progress comes about when the 999th packet's does (ideal FCT less a
    // packet); the timeout one RTO later resends the lost packet, which takes about a packet
    // time and a round trip.
    const Time fct = w.flow.end - w.flow.start;
    EXPECT_GE(fct, w.flow.idealFct + MicroSeconds(20) - MicroSeconds(1)) << fct.As(Time::US);
    EXPECT_LT(fct, w.flow.idealFct + MicroSeconds(20) + MicroSeconds(5)) << fct.As(Time::US);
    EXPECT_EQ(w.delivered, 1000u * MTU);
}

TEST_F(RdmaQueuePairTest, LostReadResponseIsReissued)
{
    RoceHelper h;
    h.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
    auto link = TwoHosts(h);
    Ptr<DropPsnErrorModel> em = CreateObject<DropPsnErrorModel>();
    em->Add(5, &IsReadResponse);
    link.first->SetAttribute("ReceiveErrorModel", PointerValue(em)); // responses arrive at host 0
    h.Finalize();
    RoceTransport rdma(h);
    rdma.Post(0, 1, RdmaVerb::READ, 30 * MTU, Time(0), 3);
    Simulator::Run();
    Ptr<RdmaQueuePair> qp = h.GetNic(0)->GetQueuePair(0x100);
    ASSERT_FALSE(rdma.GetFlows()[0].end.IsZero());
    EXPECT_EQ(em->m_dropped, 1u);
    EXPECT_EQ(qp->GetTimeouts(), 0u);
    EXPECT_EQ(qp->GetRetransmittedPackets(), 1u); // one re-issued READ request
}

TEST_F(RdmaQueuePairTest, PsnWrapsAround)
{
    RoceHelper h;
    h.SetQueuePairAttribute("InitialPsn", UintegerValue(rdma::PSN_MASK - 9));
    auto link = TwoHosts(h);
    Ptr<DropPsnErrorModel> em = CreateObject<DropPsnErrorModel>();
    em->Add(2, &IsWriteData); // lost after the wrap: the NAK names a PSN past 2^24
    link.second->SetAttribute("ReceiveErrorModel", PointerValue(em));
    h.Finalize();
    RoceTransport rdma(h);
    rdma.SetQueuePairMapping(QueuePairMapping::PerHostPair()); // both messages on one queue pair
    rdma.Post(0, 1, RdmaVerb::WRITE, 30 * MTU, Time(0), 3);
    rdma.Post(0, 1, RdmaVerb::WRITE, 5 * MTU, Time(0), 3);
    Simulator::Run();
    Ptr<RdmaQueuePair> qp = h.GetNic(0)->GetQueuePair(0x100);
    ASSERT_FALSE(rdma.GetFlows()[0].end.IsZero());
    ASSERT_FALSE(rdma.GetFlows()[1].end.IsZero());
    EXPECT_EQ(qp->GetSndUna(), 25u); // 0xFFFFF6 + 35 packets, modulo 2^24
    EXPECT_EQ(qp->GetNaksReceived(), 1u);
    EXPECT_EQ(h.GetNic(1)->GetQueuePair(0x100)->GetExpectedPsn(), 25u);
    EXPECT_EQ(h.GetNic(1)->GetQueuePair(0x100)->GetBytesDelivered(), 35u * MTU);
}

TEST_F(RdmaQueuePairTest, MtuAboveTheLinkIsAConfigurationError)
{
    EXPECT_CONFIG_ERROR(
        {
            RoceHelper h;
            h.SetDeviceAttribute("Mtu", UintegerValue(1500));
            h.SetQueuePairAttribute("Mtu", UintegerValue(4096));
            TwoHosts(h);
            h.Finalize();
            RoceTransport rdma(h);
            rdma.Post(0, 1, RdmaVerb::WRITE, 1, Time(0), 3);
        },
        "ns3::RdmaQueuePair::Mtu = 4096.*ns3::PfcNetDevice::Mtu = 1500");
}

TEST_F(RdmaQueuePairTest, UnknownCongestionControlIsAConfigurationError)
{
    EXPECT_CONFIG_ERROR(
        {
            RoceHelper h;
            h.SetNicAttribute("CongestionControl", StringValue("ns3::NoSuchCc"));
            TwoHosts(h);
            h.Finalize();
            RoceTransport rdma(h);
            rdma.Post(0, 1, RdmaVerb::WRITE, 1, Time(0), 3);
        },
        "ns3::RdmaNic::CongestionControl = ns3::NoSuchCc: accepted: none, dcqcn");
}

TEST_F(RdmaQueuePairTest, AcksCoalesceEveryNPacketsAndAtMessageEnd)
{
    RoceHelper h;
    h.SetQueuePairAttribute("AckInterval", UintegerValue(4));
    TwoHosts(h);
    h.Finalize();
    RoceTransport rdma(h);
    // 10 packets then 3 (PSNs 0..12): ACKs after PSN 3 and 7 (every 4th), 9 (end of the first
    // message, which resets the count) and 12 (end of the second).
    rdma.Post(0, 1, RdmaVerb::WRITE, 10 * MTU, Time(0), 3);
    rdma.Post(0, 1, RdmaVerb::WRITE, 3 * MTU, Time(0), 3);
    Simulator::Run();
    EXPECT_EQ(h.GetNic(1)->GetAcksSent(), 4u); // PSN 3, 7, 9 (end of message 1), 12 (end)
    EXPECT_EQ(rdma.CollectStatistics().messagesCompleted, 2u);
}

TEST_F(RdmaQueuePairTest, OutOfOrderReceivePlacesPastAGapWithoutNak)
{
    RoceHelper h;
    h.SetQueuePairAttribute("OutOfOrderReceive", BooleanValue(true));
    h.SetQueuePairAttribute("RetransmitTimeout", StringValue("100us"));
    auto link = TwoHosts(h);
    Ptr<DropPsnErrorModel> em = CreateObject<DropPsnErrorModel>();
    em->Add(10, &IsWriteData);
    link.second->SetAttribute("ReceiveErrorModel", PointerValue(em));
    h.Finalize();
    RoceTransport rdma(h);
    rdma.Post(0, 1, RdmaVerb::WRITE, 40 * MTU, Time(0), 3);
    Simulator::Run();
    Ptr<RdmaQueuePair> qp = h.GetNic(0)->GetQueuePair(0x100);
    ASSERT_FALSE(rdma.GetFlows()[0].end.IsZero());
    EXPECT_EQ(qp->GetNaksReceived(), 0u); // packets 11..39 were placed, not refused
    EXPECT_EQ(qp->GetTimeouts(), 1u);     // the lost one came back with the timeout
    // Every byte delivered once, although 11..39 arrived twice (placed, then resent).
    EXPECT_EQ(h.GetNic(1)->GetQueuePair(0x100)->GetBytesDelivered(), 40u * MTU);
    EXPECT_EQ(h.GetNic(1)->GetQueuePair(0x100)->GetExpectedPsn(), 40u);
}
