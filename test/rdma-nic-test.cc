/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The RoCEv2 NIC as DCQCN's notification point: CNPs for CE-marked data, paced per queue pair;
// its frames built on the packets of frames received (RdmaPacketPool).

#include "packet-bytes.h"
#include "star-fabric.h"

#include "ns3/core-module.h"
#include "ns3/flow-id-tag.h"
#include "ns3/ib-bth-header.h"
#include "ns3/packet-byte-address.h"
#include "ns3/pfc-net-device.h"
#include "ns3/rdma-packet-pool.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-transport.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>
#include <vector>

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

    /**
     * @param frame a RoCEv2 frame as a port's PhyTxBegin sees it (Ethernet, IPv4, UDP, BTH)
     * @return its BTH's destination QPN, or UINT32_MAX if it is too short for one
     */
    static uint32_t DestQpOf(const Ptr<const Packet>& frame)
    {
        const std::string b = test::BytesOf(frame);
        const std::size_t bth = 14 + 20 + 8;
        if (b.size() < bth + 12)
        {
            return UINT32_MAX;
        }
        const auto at = [&b](std::size_t i) { return static_cast<uint32_t>(uint8_t(b[i])); };
        return (at(bth + 5) << 16) | (at(bth + 6) << 8) | at(bth + 7);
    }

    /// Two hosts on one cable, finalized. @param h the helper
    static void BuildPair(RoceHelper& h)
    {
        Ptr<Node> a = h.AddHost();
        Ptr<Node> b = h.AddHost();
        h.Link(a, b);
        h.Finalize();
    }

    /**
     * Four hosts write to a fifth through one switch that marks every queued data frame, so that
     * data, ACKs, CNPs and CE-marked frames all pass.
     * @param h the helper, not built yet
     * @param reuse the NICs' ReusePackets
     */
    static void BuildMarkingStar(RoceHelper& h, bool reuse)
    {
        h.SetMmuAttribute("EcnKmin", UintegerValue(0));
        h.SetMmuAttribute("EcnKmax", UintegerValue(1));
        h.SetNicAttribute("CnpInterval", StringValue("5us"));
        h.SetNicAttribute("ReusePackets", BooleanValue(reuse));
        test::BuildStar(h, 5);
        h.Finalize();
    }

    /**
     * Connect one sink to a trace source of every host's port.
     * @param h the helper, built @param hosts how many @param source the trace source
     * @param sink the sink
     */
    static void TraceEveryHost(RoceHelper& h,
                               uint32_t hosts,
                               const std::string& source,
                               const CallbackBase& sink)
    {
        for (uint32_t i = 0; i < hosts; ++i)
        {
            h.GetNic(i)->GetDevice()->TraceConnectWithoutContext(source, sink);
        }
    }

    /// @return every frame the hosts' ports sent or received, bytes and time, in order
    /// @param h the helper, built @param hosts how many
    static std::shared_ptr<std::vector<std::string>> CaptureHosts(RoceHelper& h, uint32_t hosts)
    {
        auto frames = std::make_shared<std::vector<std::string>>();
        for (uint32_t i = 0; i < hosts; ++i)
        {
            h.GetNic(i)->GetDevice()->TraceConnectWithoutContext(
                "Sniffer",
                MakeCallback(+[](std::vector<std::string>* out,
                                 uint32_t host,
                                 Ptr<const Packet> p) {
                    out->push_back(std::to_string(host) + ' ' +
                                   std::to_string(Simulator::Now().GetTimeStep()) + ' ' +
                                   test::BytesOf(p));
                }).Bind(frames.get(), i));
        }
        return frames;
    }
};

/// A trailer of given bytes: ns-3 stores a trailer right after a packet's stored headers, before
/// its virtual zeros in the packet's order, so that these bytes lie where a read past the stored
/// run would find them.
class BytesTrailer : public Trailer
{
  public:
    /// @return the type's id
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::test::BytesTrailer").SetParent<Trailer>();
        return tid;
    }

    BytesTrailer() = default;

    /// @param bytes its bytes
    explicit BytesTrailer(std::vector<uint8_t> bytes)
        : m_bytes(std::move(bytes))
    {
    }

    TypeId GetInstanceTypeId() const override
    {
        return GetTypeId();
    }

    void Print(std::ostream& os) const override
    {
        os << m_bytes.size() << " bytes";
    }

    uint32_t GetSerializedSize() const override
    {
        return static_cast<uint32_t>(m_bytes.size());
    }

    void Serialize(Buffer::Iterator end) const override
    {
        end.Prev(GetSerializedSize());
        end.Write(m_bytes.data(), GetSerializedSize());
    }

    uint32_t Deserialize(Buffer::Iterator end) override
    {
        end.Prev(GetSerializedSize());
        end.Read(m_bytes.data(), GetSerializedSize());
        return GetSerializedSize();
    }

  private:
    std::vector<uint8_t> m_bytes; //!< the bytes
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

TEST_F(RdmaNicTest, FramesBuiltOnReceivedPacketsAreTheSameByteForByte)
{
    // The same run with and without ReusePackets: every frame at every host, byte for byte and
    // at the same time, while most frames of the second run were built on packets that an
    // earlier frame had arrived in (data on data, ACKs on ACKs, CNPs on CNPs; a packet of
    // another size in its place would change the frame's length).
    std::vector<std::string> runs[2];
    uint64_t taken[2];
    for (int reuse = 0; reuse < 2; ++reuse)
    {
        RoceHelper h;
        BuildMarkingStar(h, reuse == 1);
        RoceTransport rdma(h);
        auto frames = CaptureHosts(h, 5);
        for (uint32_t i = 0; i < 4; ++i)
        {
            rdma.Post(i, 4, RdmaVerb::WRITE, 300000 + 1000 * i, MicroSeconds(i), 3);
        }
        const uint64_t before = RdmaPacketPool::GetTaken();
        Simulator::Run();
        taken[reuse] = RdmaPacketPool::GetTaken() - before;
        const RoceStatistics st = rdma.CollectStatistics();
        ASSERT_EQ(st.messagesCompleted, 4u);
        ASSERT_GT(st.ecnMarks, 100u);
        ASSERT_GT(st.cnpsSent, 10u);
        runs[reuse] = *frames;
        Simulator::Destroy();
        EXPECT_EQ(RdmaPacketPool::GetSize(), 0u) << "the pool empties at Simulator::Destroy";
    }
    EXPECT_EQ(taken[0], 0u);
    // 4 x 74 data frames and their ACKs: most built on a packet received before.
    EXPECT_GT(taken[1], 300u);
    ASSERT_EQ(runs[0].size(), runs[1].size());
    for (std::size_t i = 0; i < runs[0].size(); ++i)
    {
        ASSERT_EQ(runs[0][i], runs[1][i]) << "frame " << i;
    }
}

TEST_F(RdmaNicTest, APacketSomeoneHoldsIsNotBuiltOn)
{
    // A trace sink keeps every data frame the receiver takes in: none of those packets may carry
    // a frame again (it would arrive a second time), while the senders' ACKs are reused.
    RoceHelper h;
    BuildMarkingStar(h, true);
    RoceTransport rdma(h);

    struct Held
    {
        std::vector<Ptr<const Packet>> packets;
        std::set<const Packet*> seen;
        uint32_t again{0};
    } held;

    for (uint32_t i = 0; i < 5; ++i)
    {
        h.GetNic(i)->GetDevice()->TraceConnectWithoutContext(
            "MacRx",
            MakeCallback(+[](Held* m, uint32_t host, Ptr<const Packet> p) {
                m->again += m->seen.count(PeekPointer(p));
                if (host == 4)
                {
                    m->seen.insert(PeekPointer(p));
                    m->packets.push_back(p);
                }
            }).Bind(&held, i));
    }
    for (uint32_t i = 0; i < 4; ++i)
    {
        rdma.Post(i, 4, RdmaVerb::WRITE, 300000, Time(0), 3);
    }
    const uint64_t before = RdmaPacketPool::GetTaken();
    Simulator::Run();
    EXPECT_EQ(rdma.CollectStatistics().messagesCompleted, 4u);
    EXPECT_GT(held.packets.size(), 290u);
    EXPECT_EQ(held.again, 0u) << "a held packet carried another frame";
    EXPECT_GT(RdmaPacketPool::GetTaken() - before, 200u) << "the ACKs were not reused";
}

TEST_F(RdmaNicTest, AStampedIcrcIsNotPassedOnToAnotherNicsFrames)
{
    // Host 0 stamps real ICRCs, host 1 does not: host 1's frames end in four zero bytes even
    // though the receiver took host 0's stamped packets in first, which it would otherwise have
    // passed on for host 1's frames of the same size.
    RoceHelper h;
    test::BuildStar(h, 3);
    h.Finalize();
    h.GetNic(0)->SetAttribute("ComputeIcrc", BooleanValue(true));
    RoceTransport rdma(h);

    struct Tails
    {
        uint32_t frames{0};
        uint32_t stamped{0};
    } tails;

    h.GetNic(1)->GetDevice()->TraceConnectWithoutContext(
        "Sniffer",
        MakeCallback(+[](Tails* t, Ptr<const Packet> p) {
            if (p->GetSize() < 1000)
            {
                return; // (its ACKs come in, and have no payload)
            }
            ++t->frames;
            t->stamped += test::LastWord(p) != 0;
        }).Bind(&tails));
    rdma.Post(0, 2, RdmaVerb::WRITE, 200000, Time(0), 3);
    rdma.Post(1, 2, RdmaVerb::WRITE, 200000, MicroSeconds(20), 3);
    Simulator::Run();
    EXPECT_EQ(rdma.CollectStatistics().messagesCompleted, 2u);
    EXPECT_GT(tails.frames, 40u);
    EXPECT_EQ(tails.stamped, 0u);
}

TEST_F(RdmaNicTest, AReusedPacketCarriesNoTagOfItsLastFrame)
{
    // HPCC's data frames carry a telemetry tag and its ACKs an echo of it, and a trace sink at
    // the receiver adds a byte tag of its own to every frame it takes in: a frame built on one
    // of those packets must carry only the tags of its own making (one on data and ACKs, none
    // of the sink's), or the tags pile up frame after frame.
    RoceHelper h;
    h.SetNicAttribute("CongestionControl", StringValue("hpcc"));
    test::BuildStar(h, 5);
    h.Finalize();
    RoceTransport rdma(h);

    struct Tags
    {
        uint32_t frames{0};
        uint32_t extra{0};
    } tags;

    TraceEveryHost(h, 5, "MacRx", MakeCallback(+[](Tags* t, Ptr<const Packet> p) {
                                      uint32_t packetTags = 0;
                                      for (auto it = p->GetPacketTagIterator(); it.HasNext();
                                           it.Next())
                                      {
                                          ++packetTags;
                                      }
                                      uint32_t byteTags = 0;
                                      for (auto it = p->GetByteTagIterator(); it.HasNext();
                                           it.Next())
                                      {
                                          ++byteTags;
                                      }
                                      ++t->frames;
                                      t->extra += (packetTags > 1) + (byteTags > 0);
                                      p->AddByteTag(FlowIdTag(7));
                                  }).Bind(&tags));
    for (uint32_t i = 0; i < 4; ++i)
    {
        rdma.Post(i, 4, RdmaVerb::WRITE, 300000, Time(0), 3);
    }
    const uint64_t before = RdmaPacketPool::GetTaken();
    Simulator::Run();
    EXPECT_EQ(rdma.CollectStatistics().messagesCompleted, 4u);
    EXPECT_GT(RdmaPacketPool::GetTaken() - before, 200u);
    EXPECT_GT(tags.frames, 500u);
    EXPECT_EQ(tags.extra, 0u);
}

TEST_F(RdmaNicTest, ATrimmedFrameEndsInAZeroIcrc)
{
    // A switch that trims data to its headers on a lossy priority: the trimmed frames keep the
    // 4 bytes of their ICRC, 0 as the NIC wrote it, not what the buffer block they were copied
    // into held before (which a receiving NIC would then have passed on to its ACKs).
    RoceHelper h;
    h.SetMmuAttribute("LosslessPriorities", UintegerValue(0));
    h.SetSwitchAttribute("Trimming", BooleanValue(true));
    h.SetSwitchAttribute("TrimThreshold", UintegerValue(20000));
    test::BuildStar(h, 5);
    h.Finalize();
    RoceTransport rdma(h);

    struct Tails
    {
        uint32_t trimmed{0};
        uint32_t dirty{0};
        uint32_t acks{0};
        uint32_t dirtyAcks{0};
    } tails;

    TraceEveryHost(h, 5, "Sniffer", MakeCallback(+[](Tails* t, Ptr<const Packet> p) {
                                        const std::string b = test::BytesOf(p);
                                        const bool zero = test::LastWord(p) == 0;
                                        // (The IPv4 DSCP, after Ethernet.)
                                        if ((static_cast<uint8_t>(b[14 + 1]) >> 2) == 56)
                                        {
                                            ++t->trimmed;
                                            t->dirty += !zero;
                                        }
                                        else if (b.size() < 100)
                                        {
                                            ++t->acks;
                                            t->dirtyAcks += !zero;
                                        }
                                    }).Bind(&tails));
    for (uint32_t i = 0; i < 4; ++i)
    {
        rdma.Post(i, 4, RdmaVerb::WRITE, 300000, Time(0), 3);
    }
    Simulator::Run();
    EXPECT_EQ(rdma.CollectStatistics().messagesCompleted, 4u);
    EXPECT_GT(tails.trimmed, 20u);
    EXPECT_EQ(tails.dirty, 0u);
    EXPECT_GT(tails.acks, 500u);
    EXPECT_EQ(tails.dirtyAcks, 0u);
}

// A NIC reads an arriving frame's headers where the packet stores them, and copies them out of
// ns-3's buffer where it stores fewer (RdmaNic::PortReceive, PacketStoredRun): a frame whose
// stored bytes end before its RETH, within its BTH or before it, the rest a virtual area of
// zeros, is taken as the same bytes wholly stored are (claimed or not, and counted for the queue
// pair it names, which the NIC does not have). Seen to fail with the copy for the headers after
// the BTH left out (a WRITE's zero RETH, not stored, then read as too short).
TEST_F(RdmaNicTest, AFramesHeadersAreReadAsTheSameWhereverThePacketStoresThem)
{
    RoceHelper h;
    h.SetNicAttribute("ReusePackets", BooleanValue(false));
    BuildPair(h);
    Ptr<RdmaNic> nic = h.GetNic(1);
    const uint32_t dst = nic->GetAddress().Get();
    // IPv4 (20), UDP to 4791 (8), a BTH (12) and a RETH of zeros (16), then 1 000 bytes of zeros.
    const auto headers = [dst](uint8_t opcode) {
        std::vector<uint8_t> b(56, 0);
        b[0] = 0x45;
        b[8] = 64;
        b[9] = 17;
        for (int i = 0; i < 4; ++i)
        {
            b[12 + i] = static_cast<uint8_t>(0x0A000001 >> (24 - 8 * i));
            b[16 + i] = static_cast<uint8_t>(dst >> (24 - 8 * i));
        }
        b[22] = RdmaNic::ROCE_UDP_PORT >> 8;
        b[23] = RdmaNic::ROCE_UDP_PORT & 0xFF;
        b[28] = opcode;
        b[33] = 0x0B; // destination QP 0x0BCDEF, which the NIC does not have
        b[34] = 0xCD;
        b[35] = 0xEF;
        return b;
    };
    PfcPortOwner* owner = PeekPointer(nic); // (as its port hands it a frame)
    const auto receive = [&nic, owner](Ptr<Packet> p) {
        const uint64_t before = nic->GetUnknownQpPackets();
        const bool claimed = owner->PortReceive(0, p, 0x0800, PfcFrameInfo{});
        return std::make_pair(claimed, nic->GetUnknownQpPackets() - before);
    };
    const std::pair<bool, uint64_t> taken{true, 1};
    for (const uint8_t opcode : {IbBthHeader::RC_WRITE_FIRST, IbBthHeader::RC_SEND_ONLY})
    {
        const std::vector<uint8_t> b = headers(opcode);
        std::vector<uint8_t> all(b);
        all.resize(b.size() + 1000, 0);
        EXPECT_EQ(receive(Create<Packet>(all.data(), static_cast<uint32_t>(all.size()))), taken);
        for (const uint32_t stored : {40u, 36u, 30u, 24u, 20u})
        {
            // The first `stored` bytes stored, the rest of the frame a virtual area of zeros.
            Ptr<Packet> split = Create<Packet>(b.data(), stored);
            split->AddAtEnd(Create<Packet>(static_cast<uint32_t>(all.size()) - stored));
            ASSERT_EQ(PacketStoredRun(*split), stored);
            std::vector<uint8_t> same(split->GetSize());
            split->CopyData(same.data(), split->GetSize());
            Ptr<Packet> whole = Create<Packet>(same.data(), static_cast<uint32_t>(same.size()));
            const auto wholly = receive(whole);
            EXPECT_EQ(receive(split), wholly)
                << "opcode " << int(opcode) << ", " << stored << " bytes stored";
            if (stored == 40)
            {
                EXPECT_EQ(wholly, taken); // (the same headers as all's: its RETH is zeros)
            }
        }
    }
    // The IPv4 header stored, then zeros, then a trailer of the UDP header and a BTH: the frame's
    // bytes after its IPv4 header are zeros (not RoCE), though the bytes stored after it in the
    // block would read as the rest of a RoCE frame's headers. Seen to fail with the copy for a
    // run short of the BTH left out (the headers then read past the run, in the trailer).
    const std::vector<uint8_t> b = headers(IbBthHeader::RC_SEND_ONLY);
    Ptr<Packet> past = Create<Packet>(b.data(), 20);
    past->AddAtEnd(Create<Packet>(1000));
    past->AddTrailer(BytesTrailer(std::vector<uint8_t>(b.begin() + 20, b.begin() + 40)));
    ASSERT_EQ(PacketStoredRun(*past), 20u);
    std::vector<uint8_t> same(past->GetSize());
    past->CopyData(same.data(), past->GetSize());
    ASSERT_EQ(same[22], 0); // (its UDP port, read right: a zero of the payload)
    const auto wholly = receive(Create<Packet>(same.data(), static_cast<uint32_t>(same.size())));
    EXPECT_EQ(wholly, std::make_pair(false, uint64_t{0}));
    EXPECT_EQ(receive(past), wholly);
}

TEST(RdmaPacketPool, ASizeThatComesOnceDoesNotKeepTheOthersOut)
{
    // Four sizes seen once each (a message's last packet) hold the four classes; a fifth size,
    // given and taken over and over, takes the least recently used class, as do the four again.
    for (uint32_t size = 100; size < 100 + RdmaPacketPool::CLASSES; ++size)
    {
        ASSERT_TRUE(RdmaPacketPool::Give(Create<Packet>(size)));
    }
    EXPECT_EQ(RdmaPacketPool::GetSize(), RdmaPacketPool::CLASSES);
    for (int round = 0; round < 3; ++round)
    {
        Ptr<Packet> p = Create<Packet>(4100);
        const Packet* given = PeekPointer(p);
        ASSERT_TRUE(RdmaPacketPool::Give(p));
        p = nullptr;
        Ptr<Packet> taken = RdmaPacketPool::Take(4100);
        ASSERT_TRUE(taken);
        EXPECT_EQ(PeekPointer(taken), given);
        EXPECT_EQ(taken->GetSize(), 4100u);
    }
    EXPECT_EQ(RdmaPacketPool::GetSize(), RdmaPacketPool::CLASSES - 1); // (100 was let go)
    EXPECT_FALSE(RdmaPacketPool::Take(100));
    EXPECT_TRUE(RdmaPacketPool::Take(101));
    // A packet something else holds is not kept.
    Ptr<Packet> held = Create<Packet>(4100);
    Ptr<Packet> other = held;
    EXPECT_FALSE(RdmaPacketPool::Give(held));
    Simulator::Destroy();
    EXPECT_EQ(RdmaPacketPool::GetSize(), 0u);
}

namespace
{

/// A burst of packets of one size made as the pool had none kept (Take found the size's class
/// empty), as a NIC makes them. @param size their size @param count how many @return them
std::vector<Ptr<Packet>>
MakeBurst(uint32_t size, std::size_t count)
{
    std::vector<Ptr<Packet>> burst;
    for (std::size_t i = 0; i < count; ++i)
    {
        EXPECT_FALSE(RdmaPacketPool::Take(size)) << "the pool had one kept";
        burst.push_back(Create<Packet>(size));
    }
    return burst;
}

/// Give back a burst's packets as their frames are received. @return how many were kept
std::size_t
GiveBack(std::vector<Ptr<Packet>>& burst)
{
    std::size_t kept = 0;
    for (auto& p : burst)
    {
        Ptr<Packet> received = p;
        p = nullptr; // (the receiving NIC's reference the only one)
        kept += RdmaPacketPool::Give(received) ? 1 : 0;
    }
    return kept;
}

} // namespace

TEST(RdmaPacketPool, ABurstsPacketsAreKeptForTheNextBurst)
{
    // A k=16 fabric's first burst has some 146 000 frames in flight at once (a pool that kept
    // 4 096 freed the rest, and glibc merged their blocks before they were made again). Here a
    // burst of 20 000 packets of one size is given back as its frames are received: each is kept
    // for the next burst, none freed, and every one is taken again, the last given first.
    static_assert(RdmaPacketPool::MAX_CAPACITY > 146000, "a k=16 burst's packets fit");
    RdmaPacketPool::Clear();
    const std::size_t count = 20000;
    ASSERT_TRUE(RdmaPacketPool::Give(Create<Packet>(1000))); // (the size's class)
    ASSERT_TRUE(RdmaPacketPool::Take(1000));
    std::vector<Ptr<Packet>> burst = MakeBurst(1000, count);
    std::vector<const Packet*> given;
    for (const auto& p : burst)
    {
        given.push_back(PeekPointer(p));
    }
    EXPECT_EQ(GiveBack(burst), count);
    EXPECT_EQ(RdmaPacketPool::GetSize(), count);
    std::size_t lastFirst = 0;
    for (std::size_t i = count; i-- > 0;)
    {
        Ptr<Packet> taken = RdmaPacketPool::Take(1000);
        lastFirst += taken && PeekPointer(taken) == given[i] ? 1 : 0;
    }
    EXPECT_EQ(lastFirst, count);
    Simulator::Destroy();
    EXPECT_EQ(RdmaPacketPool::GetSize(), 0u);
}

TEST(RdmaPacketPool, PacketsItDidNotMakeAreKeptToItsBaseCapacity)
{
    // A NIC whose peer does not reuse its packets is given packets it did not make: a stream it
    // only receives keeps CAPACITY of its size, not MAX_CAPACITY. So does a process that gets
    // frames from other ranks, even of a size it made many of (it may have sent them away).
    RdmaPacketPool::Clear();
    const std::size_t stream = RdmaPacketPool::CAPACITY + 1000;
    std::size_t kept = 0;
    for (std::size_t i = 0; i < stream; ++i)
    {
        kept += RdmaPacketPool::Give(Create<Packet>(1000)) ? 1 : 0;
    }
    EXPECT_EQ(kept, RdmaPacketPool::CAPACITY);
    RdmaPacketPool::Clear();
    ASSERT_TRUE(RdmaPacketPool::Give(Create<Packet>(1000)));
    ASSERT_TRUE(RdmaPacketPool::Take(1000));
    std::vector<Ptr<Packet>> burst = MakeBurst(1000, stream);
    RdmaPacketPool::NoteOtherRanks();
    EXPECT_EQ(GiveBack(burst), RdmaPacketPool::CAPACITY);
    Simulator::Destroy();
    EXPECT_EQ(RdmaPacketPool::GetSize(), 0u);
}

TEST(RdmaPacketPool, ANewSizeDoesNotTakeTheClassOfOneWhosePacketsAreAllInFlight)
{
    // A burst's packets are all in flight, their class empty, when the first ACK (a new size)
    // is given: it takes a class no size has claimed, and the burst's count stays, so that all
    // of the burst's packets are kept as they come back.
    RdmaPacketPool::Clear();
    const std::size_t count = RdmaPacketPool::CAPACITY + 1000;
    ASSERT_TRUE(RdmaPacketPool::Give(Create<Packet>(1000)));
    ASSERT_TRUE(RdmaPacketPool::Take(1000));
    std::vector<Ptr<Packet>> burst = MakeBurst(1000, count);
    ASSERT_TRUE(RdmaPacketPool::Give(Create<Packet>(60))); // (an ACK's payload)
    EXPECT_EQ(GiveBack(burst), count);
    Ptr<Packet> ack = RdmaPacketPool::Take(60);
    ASSERT_TRUE(ack);
    EXPECT_EQ(ack->GetSize(), 60u);
    Simulator::Destroy();
    EXPECT_EQ(RdmaPacketPool::GetSize(), 0u);
}

TEST_F(RdmaNicTest, ItsPortIsToldItsHotLinesAndTheQueuePairWhoseTurnIsNext)
{
    // As its port arms a transmit completion, the NIC names the pair of lines that its sends
    // and arrivals read (on 128 bytes, within the NIC) and the queue pair that the completion's
    // refill will serve: with two queue pairs sending on one class, the one whose frame goes
    // out two frames later (the next is in the port already), not the one just served.
    RoceHelper h;
    BuildPair(h);
    Ptr<RdmaNic> nic = h.GetNic(0);
    const PfcPortOwner& owner = *nic;
    ASSERT_TRUE(owner.PortNamesSendLines(0));
    const auto* start = reinterpret_cast<const char*>(PeekPointer(nic));
    const auto* line = static_cast<const char*>(owner.PortReceiveLine(0));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(line) % 128, 0u);
    EXPECT_GE(line, start);
    EXPECT_LE(line + 128, start + sizeof(RdmaNic));
    const void* named = nullptr;
    const void* span = line;
    owner.PortSendLines(0, named, span);
    EXPECT_EQ(named, line);
    EXPECT_EQ(span, nullptr); // nothing to send
    auto [q0, peer0] = RdmaNic::ConnectPair(nic, h.GetNic(1), 3);
    auto [q1, peer1] = RdmaNic::ConnectPair(nic, h.GetNic(1), 3);
    const std::map<const void*, uint32_t> spans = {
        {RdmaQueuePair::SendLines(PeekPointer(q0)), peer0->GetQpn()},
        {RdmaQueuePair::SendLines(PeekPointer(q1)), peer1->GetQpn()}};

    struct Seen
    {
        const PfcPortOwner* owner;
        std::vector<uint32_t> frames;   // each data frame's destination QPN, in order
        std::vector<const void*> hints; // the span named as each started
    } seen{&owner, {}, {}};

    nic->GetDevice()->TraceConnectWithoutContext(
        "PhyTxBegin",
        MakeCallback(+[](Seen* s, Ptr<const Packet> frame) {
            const uint32_t qpn = DestQpOf(frame);
            ASSERT_NE(qpn, UINT32_MAX) << "a frame too short for its BTH";
            s->frames.push_back(qpn);
            const void* ignored = nullptr;
            const void* next = nullptr;
            s->owner->PortSendLines(0, ignored, next); // (as the port will ask, just after)
            s->hints.push_back(next);
        }).Bind(&seen));
    q0->Post(RdmaVerb::WRITE, 40000, MakeNullCallback<void, const RdmaCompletion&>());
    q1->Post(RdmaVerb::WRITE, 40000, MakeNullCallback<void, const RdmaCompletion&>());
    Simulator::Run();
    ASSERT_GT(seen.frames.size(), 40u);
    uint32_t checked = 0;
    for (std::size_t k = 0; k + 2 < seen.frames.size(); ++k)
    {
        if (seen.hints[k] == nullptr)
        {
            continue; // (the last frames, none left to serve)
        }
        ASSERT_EQ(spans.count(seen.hints[k]), 1u) << "frame " << k << ": not a queue pair's";
        EXPECT_EQ(spans.at(seen.hints[k]), seen.frames[k + 2]) << "frame " << k;
        ++checked;
    }
    EXPECT_GT(checked, 30u);
}

TEST_F(RdmaNicTest, AWaitingSendsWakeNamesTheQueuePairWhoseTurnItIs)
{
    // With payload read from the host at a quarter of the line rate, each send waits for the
    // read and is made by the adapter's wake: scheduled naming the NIC's hot lines, and the
    // congestion control and send lines of the queue pair it will serve, which are those of the
    // frame it then sends (two queue pairs in turn on one class).
    RoceHelper h;
    BuildPair(h);
    Ptr<RdmaNic> nic = h.GetNic(0);
    // (Set on the NIC made: the attribute's setter keeps the flag that a send reads.)
    nic->SetAttribute("HostReadRate", DataRateValue(DataRate("25Gbps")));
    auto [q0, peer0] = RdmaNic::ConnectPair(nic, h.GetNic(1), 3);
    auto [q1, peer1] = RdmaNic::ConnectPair(nic, h.GetNic(1), 3);
    const std::map<const void*, uint32_t> spans = {
        {RdmaQueuePair::SendLines(PeekPointer(q0)), peer0->GetQpn()},
        {RdmaQueuePair::SendLines(PeekPointer(q1)), peer1->GetQpn()}};
    const std::map<const void*, const void*> controls = {
        {RdmaQueuePair::SendLines(PeekPointer(q0)), q0->PeekCongestionControl()},
        {RdmaQueuePair::SendLines(PeekPointer(q1)), q1->PeekCongestionControl()}};
    EXPECT_EQ(nic->GetWakeHints()[4], nullptr);

    struct Seen
    {
        const RdmaNic* nic;
        std::vector<uint32_t> frames;                  // destination QPNs, in order
        std::vector<std::array<const void*, 5>> hints; // the wake's, as each started
    } seen{PeekPointer(nic), {}, {}};

    nic->GetDevice()->TraceConnectWithoutContext(
        "PhyTxBegin",
        MakeCallback(+[](Seen* s, Ptr<const Packet> frame) {
            const uint32_t qpn = DestQpOf(frame);
            ASSERT_NE(qpn, UINT32_MAX) << "a frame too short for its BTH";
            s->frames.push_back(qpn);
            const auto& w = s->nic->GetWakeHints();
            s->hints.push_back({w[0], w[1], w[2], w[3], w[4]});
        }).Bind(&seen));
    q0->Post(RdmaVerb::WRITE, 40000, MakeNullCallback<void, const RdmaCompletion&>());
    q1->Post(RdmaVerb::WRITE, 40000, MakeNullCallback<void, const RdmaCompletion&>());
    Simulator::Run();
    ASSERT_GT(seen.frames.size(), 40u);
    const void* line = static_cast<const PfcPortOwner&>(*nic).PortReceiveLine(0);
    // (The first frame goes at the post, before any wake.)
    uint32_t checked = 0;
    for (std::size_t k = 1; k < seen.frames.size(); ++k)
    {
        const auto& w = seen.hints[k];
        ASSERT_EQ(spans.count(w[4]), 1u) << "frame " << k << ": not a queue pair's";
        EXPECT_EQ(w[3], controls.at(w[4])) << "frame " << k;
        const uint32_t named = spans.at(w[4]);
        if (std::find(seen.frames.begin() + k, seen.frames.end(), named) == seen.frames.end())
        {
            continue; // (it had sent its last frame: the wake found nothing left of it to send)
        }
        EXPECT_EQ(named, seen.frames[k]) << "frame " << k;
        ++checked;
        EXPECT_EQ(w[0], line);
        EXPECT_NE(w[1], nullptr);
        EXPECT_NE(w[2], nullptr);
    }
    EXPECT_GT(checked, 60u);
}
