/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The RoCEv2 NIC as DCQCN's notification point: CNPs for CE-marked data, paced per queue pair.

#include "star-fabric.h"

#include "ns3/core-module.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-transport.h"

#include <gtest/gtest.h>
#include <map>

using namespace ns3;

namespace
{

class RdmaNicTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }

    /// Two hosts on one cable, finalized. @param h the helper
    static void BuildPair(RoceHelper& h)
    {
        Ptr<Node> a = h.AddHost();
        Ptr<Node> b = h.AddHost();
        h.Link(a, b);
        h.Finalize();
    }
};

} // namespace

TEST_F(RdmaNicTest, CnpsArePacedPerQueuePair)
{
    // Four senders into one port with ECN marking from the first queued byte: every data
    // packet of every flow arrives CE-marked, yet each queue pair gets at most one CNP per
    // CnpInterval.
    RoceHelper h;
    h.SetMmuAttribute("EcnKmin", UintegerValue(0));
    h.SetMmuAttribute("EcnKmax", UintegerValue(1));
    h.SetNicAttribute("CnpInterval", StringValue("20us"));
    test::BuildStar(h, 5);
    h.Finalize();
    RoceTransport rdma(h);
    std::map<uint32_t, std::vector<Time>> cnps;
    h.GetNic(4)->TraceConnectWithoutContext(
        "CnpSent",
        MakeCallback(+[](std::map<uint32_t, std::vector<Time>>* m, uint32_t qpn) {
            (*m)[qpn].push_back(Simulator::Now());
        }).Bind(&cnps));
    for (uint32_t i = 0; i < 4; ++i)
    {
        rdma.Post(i, 4, RdmaVerb::WRITE, 2000000, Time(0), 3);
    }
    Simulator::Run();
    const RoceStatistics st = rdma.CollectStatistics();
    ASSERT_GT(st.ecnMarks, 1000u);
    ASSERT_EQ(cnps.size(), 4u);
    for (const auto& [qpn, times] : cnps)
    {
        ASSERT_GE(times.size(), 5u) << "qpn " << qpn;
        for (std::size_t i = 1; i < times.size(); ++i)
        {
            EXPECT_GE(times[i] - times[i - 1], MicroSeconds(20)) << "qpn " << qpn;
        }
    }
    // Far fewer CNPs than marks, and every CNP reached its sender.
    EXPECT_LT(st.cnpsSent, st.ecnMarks / 10);
    EXPECT_EQ(st.cnpsSent, st.cnpsReceived);
}

TEST_F(RdmaNicTest, AReservedQpnIsSkipped)
{
    // A distributed run numbers the queue pairs of two other ranks' hosts without creating
    // them: the next queue pair takes the following QPN, and the counters skip the reserved slot.
    RoceHelper h;
    BuildPair(h);
    RoceTransport rdma(h);
    EXPECT_EQ(h.GetNic(0)->ReserveQueuePair(), 0x100u);
    EXPECT_EQ(h.GetNic(1)->ReserveQueuePair(), 0x100u);
    EXPECT_EQ(h.GetNic(0)->GetQueuePair(0x100), nullptr);
    Ptr<RdmaQueuePair> qp = rdma.GetQueuePair(0, 1, 3);
    EXPECT_EQ(qp->GetQpn(), 0x101u);
    EXPECT_EQ(h.GetNic(0)->GetNQueuePairs(), 2u);
    rdma.Post(0, 1, RdmaVerb::WRITE, 100000, Time(0), 3);
    Simulator::Run();
    const RoceStatistics st = rdma.CollectStatistics(); // skips the reserved slots
    EXPECT_EQ(st.messagesCompleted, 1u);
    EXPECT_EQ(st.bytesDelivered, 100000u);
}

TEST_F(RdmaNicTest, EveryTransmitClassSendsAndTheHighestGoesFirst)
{
    // Messages on three of the NIC's eight classes, two of them posted while the first is
    // sending: each class's queue pairs are sent from as soon as they have data (the adapter
    // visits only the classes with work: one left out would never send, and its message would
    // not complete), and the port's strict priority lets the highest through first. The 256 KB
    // message on priority 6 therefore ends about its own serialization time after it is posted
    // (and a round trip: 7.8 us for 64 KB, 5.2 us of it serialization), whatever the 2 MB one
    // on priority 1 is doing; priority 4 waits for it. Shared fairly, it would take twice as
    // long.
    RoceHelper h;
    BuildPair(h);
    RoceTransport rdma(h);
    std::map<uint8_t, RdmaCompletion> done;
    const auto record = [&done](uint8_t priority) {
        return MakeCallback(+[](std::map<uint8_t, RdmaCompletion>* m,
                                uint8_t p,
                                const RdmaCompletion& c) { (*m)[p] = c; })
            .Bind(&done, priority);
    };
    const uint64_t small = 256 * 1024;
    rdma.Post(0, 1, RdmaVerb::WRITE, 2000000, Time(0), 1, record(1));
    rdma.Post(0, 1, RdmaVerb::WRITE, small, MicroSeconds(20), 4, record(4));
    rdma.Post(0, 1, RdmaVerb::WRITE, small, MicroSeconds(20), 6, record(6));
    Simulator::Run();
    ASSERT_EQ(done.size(), 3u);
    EXPECT_LT(done[6].completed, done[4].completed);
    EXPECT_LT(done[4].completed, done[1].completed);
    const double rate = h.GetNic(0)->GetDevice()->GetDataRate().GetBitRate();
    const double serialization = small * 8.0 / rate; // payload alone, seconds
    const double fct = (done[6].completed - done[6].posted).GetSeconds();
    EXPECT_GT(fct, serialization);
    EXPECT_LT(fct, 1.25 * serialization) << "priority 6 waited for a lower class";
    const RoceStatistics st = rdma.CollectStatistics();
    EXPECT_EQ(st.messagesCompleted, 3u);
    EXPECT_EQ(st.bytesDelivered, 2000000u + 2 * small);
}
