/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Inside the host: PCIe bandwidth by the formula, and the fluid model's max-min fair sharing.

#include "config-error-test.h"

#include "ns3/core-module.h"
#include "ns3/intra-host-fabric.h"
#include "ns3/pcie-link.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

class IntraHostFabricTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }
};

} // namespace

TEST(PcieLink, BandwidthPerGenerationFollowsTheFormula)
{
    // x16, per direction, before TLP overhead (GB/s = 1e9 bytes/s).
    EXPECT_NEAR(PcieLink::RawBandwidth(1, 16) / 1e9, 4.0, 1e-9);   // 2.5 GT/s, 8b/10b
    EXPECT_NEAR(PcieLink::RawBandwidth(2, 16) / 1e9, 8.0, 1e-9);   // 5 GT/s, 8b/10b
    EXPECT_NEAR(PcieLink::RawBandwidth(3, 16) / 1e9, 15.75, 0.01); // 8 GT/s, 128b/130b
    EXPECT_NEAR(PcieLink::RawBandwidth(4, 16) / 1e9, 31.5, 0.02);
    EXPECT_NEAR(PcieLink::RawBandwidth(5, 16) / 1e9, 63.0, 0.05);
    EXPECT_NEAR(PcieLink::RawBandwidth(6, 16) / 1e9, 64e9 * 16 / 8 * 236 / 256 / 1e9, 1e-9);
    EXPECT_NEAR(PcieLink::RawBandwidth(4, 4) * 4, PcieLink::RawBandwidth(4, 16), 1e-3);
}

TEST(PcieLink, TlpOverheadShrinksWithLargerPayloads)
{
    const double raw = PcieLink::RawBandwidth(4, 16);
    EXPECT_NEAR(PcieLink::Bandwidth(4, 16, 256), raw * 256 / (256 + 24), 1e-3);
    EXPECT_NEAR(PcieLink::Bandwidth(4, 16, 128), raw * 128 / (128 + 24), 1e-3);
    EXPECT_LT(PcieLink::Bandwidth(4, 16, 128), PcieLink::Bandwidth(4, 16, 512));
    EXPECT_CONFIG_ERROR(PcieLink::Bandwidth(7, 16, 256), "PCIe generation = 7: accepted: 1..6");
    EXPECT_CONFIG_ERROR(PcieLink::Bandwidth(4, 12, 256),
                        "PCIe lanes = 12: accepted: 1, 2, 4, 8 or 16");
}

TEST_F(IntraHostFabricTest, ALoneTransferTakesSizeOverBottleneckPlusLatencies)
{
    Ptr<IntraHostFabric> f = CreateObject<IntraHostFabric>();
    const uint32_t gpu = f->AddComponent("GPU0", IntraHostFabric::GPU);
    const uint32_t sw = f->AddComponent("PLX0", IntraHostFabric::PCIE_SWITCH);
    const uint32_t nic = f->AddComponent("NIC0", IntraHostFabric::NIC);
    f->AddLink(gpu, sw, 25e9, NanoSeconds(150));
    f->AddLink(sw, nic, 10e9, NanoSeconds(150)); // the bottleneck
    Time done;
    f->StartTransfer(gpu, nic, 10000000, [&done]() { done = Simulator::Now(); });
    Simulator::Run();
    // 10 MB / 10 GB/s = 1 ms, plus 300 ns of latency.
    EXPECT_NEAR(done.GetNanoSeconds(), 1000000 + 300, 2);
}

TEST_F(IntraHostFabricTest, TwoTransfersOnOneLinkGetHalfEach)
{
    Ptr<IntraHostFabric> f = CreateObject<IntraHostFabric>();
    const uint32_t a = f->AddComponent("GPU0", IntraHostFabric::GPU);
    const uint32_t b = f->AddComponent("GPU1", IntraHostFabric::GPU);
    f->AddLink(a, b, 100e9, Time(0));
    Time first;
    Time second;
    const uint64_t t1 = f->StartTransfer(a, b, 1000000, [&first]() { first = Simulator::Now(); });
    const uint64_t t2 = f->StartTransfer(a, b, 3000000, [&second]() { second = Simulator::Now(); });
    EXPECT_DOUBLE_EQ(f->GetRate(t1), 50e9);
    EXPECT_DOUBLE_EQ(f->GetRate(t2), 50e9);
    Simulator::Run();
    // Both at 50 GB/s until the first ends (20 us), then the second alone at 100 GB/s.
    EXPECT_NEAR(first.GetNanoSeconds(), 20000, 2);
    EXPECT_NEAR(second.GetNanoSeconds(), 20000 + 20000, 2);
    // The reverse direction is a separate capacity.
    const uint64_t back = f->StartTransfer(b, a, 1000, nullptr);
    const uint64_t fwd = f->StartTransfer(a, b, 1000, nullptr);
    EXPECT_DOUBLE_EQ(f->GetRate(back), 100e9);
    EXPECT_DOUBLE_EQ(f->GetRate(fwd), 100e9);
}

TEST_F(IntraHostFabricTest, SharesAreMaxMinFair)
{
    // f1 on link A (10), f2 on A and B, f3 on B (4): B fixes f2 and f3 at 2 each, f1 takes the
    // 8 left on A.
    Ptr<IntraHostFabric> f = CreateObject<IntraHostFabric>();
    const uint32_t x = f->AddComponent("x", IntraHostFabric::GPU);
    const uint32_t y = f->AddComponent("y", IntraHostFabric::PCIE_SWITCH);
    const uint32_t z = f->AddComponent("z", IntraHostFabric::NIC);
    f->AddLink(x, y, 10e9, Time(0)); // A
    f->AddLink(y, z, 4e9, Time(0));  // B
    const uint64_t f1 = f->StartTransfer(x, y, 1 << 30, nullptr);
    const uint64_t f2 = f->StartTransfer(x, z, 1 << 30, nullptr);
    const uint64_t f3 = f->StartTransfer(y, z, 4000, nullptr);
    EXPECT_NEAR(f->GetRate(f1), 8e9, 1);
    EXPECT_NEAR(f->GetRate(f2), 2e9, 1);
    EXPECT_NEAR(f->GetRate(f3), 2e9, 1);
    // When f3 ends (2 us), f2 takes all of B and f1 the rest of A.
    Simulator::Stop(MicroSeconds(3));
    Simulator::Run();
    EXPECT_NEAR(f->GetRate(f2), 4e9, 1);
    EXPECT_NEAR(f->GetRate(f1), 6e9, 1);
}
