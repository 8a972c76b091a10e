/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// GPU server presets: the nvidia-smi topology labels of the real machines, the GPU-to-NIC path
// that limits a NIC's sending rate, and an all-to-all over NVSwitch at the NVLink bound.

#include "config-error-test.h"

#include "ns3/core-module.h"
#include "ns3/intra-host-helper.h"
#include "ns3/pcie-link.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-transport.h"

#include <gtest/gtest.h>
#include <sstream>

using namespace ns3;

namespace
{

class IntraHostHelperTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }
};

std::string
Label(const IntraHostServer& s, uint32_t a, uint32_t b)
{
    return s.fabric->TopologyLabel(a, b);
}

/// The cells of the matrix row that starts with `name`.
std::vector<std::string>
Row(const std::string& matrix, const std::string& name)
{
    std::istringstream in(matrix);
    std::string line;
    while (std::getline(in, line))
    {
        if (line.empty() || line[0] == ' ')
        {
            continue; // the header
        }
        std::istringstream cells(line);
        std::string first;
        cells >> first;
        if (first == name)
        {
            std::vector<std::string> row;
            std::string c;
            while (cells >> c)
            {
                row.push_back(c);
            }
            return row;
        }
    }
    return {};
}

} // namespace

TEST_F(IntraHostHelperTest, DgxH100MatrixHasTheMachinesLabels)
{
    // nvidia-smi topo -m on a DGX H100: NV18 between GPUs; each GPU PXB to its own ConnectX-7
    // (GPU0..7 -> mlx5_0, 3, 4, 5, 6, 9, 10, 11), NODE to the other NICs of its socket, SYS to
    // the other socket's; the two ports of a storage card PIX to each other.
    const IntraHostServer s = IntraHostHelper::Build(IntraHostHelper::Preset("dgx-h100"));
    ASSERT_EQ(s.gpus.size(), 8u);
    ASSERT_EQ(s.nics.size(), 12u);
    const std::vector<uint32_t> rail = {0, 3, 4, 5, 6, 9, 10, 11};
    EXPECT_EQ(s.railNic, rail);
    const std::string m = IntraHostHelper::TopologyMatrix(s);
    for (uint32_t g = 0; g < 8; ++g)
    {
        const auto row = Row(m, "GPU" + std::to_string(g));
        ASSERT_EQ(row.size(), 8u + 12u + 1u) << m;
        for (uint32_t h = 0; h < 8; ++h)
        {
            EXPECT_EQ(row[h], g == h ? "X" : "NV18");
        }
        for (uint32_t n = 0; n < 12; ++n)
        {
            const bool sameSocket = (n < 6) == (g < 4);
            const std::string expected = n == rail[g] ? "PXB" : (sameSocket ? "NODE" : "SYS");
            EXPECT_EQ(row[8 + n], expected) << "GPU" << g << " NIC" << n;
        }
        EXPECT_EQ(row.back(), g < 4 ? "0" : "1"); // NUMA affinity
    }
    EXPECT_EQ(Label(s, s.nics[1], s.nics[2]), "PIX");
    EXPECT_EQ(Label(s, s.nics[7], s.nics[8]), "PIX");
    EXPECT_EQ(Label(s, s.nics[0], s.nics[3]), "NODE");
    EXPECT_EQ(Label(s, s.nics[0], s.nics[6]), "SYS");
    EXPECT_NE(m.find("NIC11: mlx5_11"), std::string::npos);
}

TEST_F(IntraHostHelperTest, DgxA100MatrixHasTheMachinesLabels)
{
    // DGX A100 in NPS4: GPU pairs on NUMA nodes 3, 1, 7, 5, each pair PXB to its two NICs and
    // SYS to every other NIC (other NUMA nodes); NV12 between GPUs.
    const IntraHostServer s = IntraHostHelper::Build(IntraHostHelper::Preset("dgx-a100"));
    ASSERT_EQ(s.nics.size(), 12u);
    const uint32_t pairNics[4][2] = {{0, 1}, {2, 3}, {6, 7}, {8, 9}};
    const uint32_t numa[] = {3, 3, 1, 1, 7, 7, 5, 5};
    for (uint32_t g = 0; g < 8; ++g)
    {
        EXPECT_EQ(IntraHostHelper::NumaNode(s, s.gpus[g]), numa[g]) << "GPU" << g;
        for (uint32_t h = 0; h < 8; ++h)
        {
            EXPECT_EQ(Label(s, s.gpus[g], s.gpus[h]), g == h ? "X" : "NV12");
        }
        for (uint32_t n = 0; n < 12; ++n)
        {
            const bool own = n == pairNics[g / 2][0] || n == pairNics[g / 2][1];
            EXPECT_EQ(Label(s, s.gpus[g], s.nics[n]), own ? "PXB" : "SYS")
                << "GPU" << g << " NIC" << n;
        }
    }
    EXPECT_EQ(Label(s, s.nics[4], s.nics[5]), "PIX");
}

TEST_F(IntraHostHelperTest, PcieOnlyServerHasNoNvlink)
{
    const IntraHostServer s = IntraHostHelper::Build(IntraHostHelper::Preset("pcie-8gpu"));
    EXPECT_EQ(Label(s, s.gpus[0], s.gpus[1]), "PIX");  // same switch
    EXPECT_EQ(Label(s, s.gpus[0], s.gpus[2]), "NODE"); // other switch, same socket
    EXPECT_EQ(Label(s, s.gpus[0], s.gpus[4]), "SYS");  // other socket
    EXPECT_EQ(Label(s, s.gpus[0], s.nics[0]), "PIX");
    // GPU to GPU over PCIe: the bottleneck is a Gen4 x16 link.
    const double gen4 = PcieLink::Bandwidth(4, 16, 256);
    EXPECT_DOUBLE_EQ(s.fabric->Bottleneck(s.fabric->Path(s.gpus[0], s.gpus[1])), gen4);
}

TEST_F(IntraHostHelperTest, Nvl72IsOneNvlinkDomain)
{
    const IntraHostServer s = IntraHostHelper::Build(IntraHostHelper::Preset("nvl72"));
    ASSERT_EQ(s.gpus.size(), 72u);
    EXPECT_EQ(Label(s, s.gpus[0], s.gpus[71]), "NV18");
    EXPECT_DOUBLE_EQ(s.fabric->Bottleneck(s.fabric->Path(s.gpus[0], s.gpus[71])), 18 * 50e9);
    // nvidia-smi on one tray: its four GPUs and their NICs.
    const std::string m = IntraHostHelper::TopologyMatrix(s);
    EXPECT_EQ(Row(m, "GPU0").size(), 4u + 4u + 1u) << m;
}

TEST_F(IntraHostHelperTest, NicBehindGen4WithoutGpuDirectIsLimited)
{
    // A 400 Gb/s NIC whose GPU data crosses PCIe Gen4 x16 (31.5 GB/s raw, 28.8 GB/s of payload
    // at MPS 256 = 230 Gb/s) and is staged through host memory cannot send at line rate ...
    IntraHostParameters p = IntraHostHelper::Preset("dgx-h100");
    p.pcieGeneration = 4;
    p.gpuDirect = false;
    IntraHostServer s = IntraHostHelper::Build(p);
    const double gen4 = PcieLink::Bandwidth(4, 16, 256);
    EXPECT_NEAR(IntraHostHelper::GpuToNicRate(s, 0, 0), gen4, 1);
    EXPECT_LT(IntraHostHelper::NicSendingRate(s, 0, 0).GetBitRate(), 400e9 * 0.6);
    // ... while over Gen5 x16 with GPUDirect RDMA (63 GB/s raw, 57.6 GB/s of payload) it can.
    p = IntraHostHelper::Preset("dgx-h100");
    ASSERT_TRUE(p.gpuDirect);
    ASSERT_EQ(p.pcieGeneration, 5u);
    s = IntraHostHelper::Build(p);
    EXPECT_NEAR(IntraHostHelper::GpuToNicRate(s, 0, 0), PcieLink::Bandwidth(5, 16, 256), 1);
    EXPECT_EQ(IntraHostHelper::NicSendingRate(s, 0, 0).GetBitRate(), 400000000000u);
    // Staging through memory is bound by the memory serving both the copy and the NIC's read.
    p.gpuDirect = false;
    p.memoryBandwidth = 80e9;
    s = IntraHostHelper::Build(p);
    EXPECT_NEAR(IntraHostHelper::GpuToNicRate(s, 0, 0), 40e9, 1);
}

TEST_F(IntraHostHelperTest, HostReadRateLimitsTheNicsSendingRate)
{
    // A NIC whose payload path runs at 230 Gb/s sends a 4 MB WRITE over a 400 Gb/s link at that
    // rate: FCT = size / path rate, within the first frame's and the ACK's latency.
    IntraHostParameters p = IntraHostHelper::Preset("dgx-h100");
    p.pcieGeneration = 4;
    const IntraHostServer s = IntraHostHelper::Build(p);
    const DataRate limit = IntraHostHelper::NicSendingRate(s, 0, 0);
    ASSERT_LT(limit.GetBitRate(), 300e9);
    RoceHelper h;
    Ptr<Node> a = h.AddHost();
    Ptr<Node> b = h.AddHost();
    h.Link(a, b, DataRate("400Gbps"), MicroSeconds(1));
    h.Finalize();
    RoceTransport rdma(h);
    h.GetNic(0)->SetAttribute("HostReadRate", DataRateValue(limit));
    const uint64_t size = 4000000;
    rdma.Post(0, 1, RdmaVerb::WRITE, size, Time(0), 3);
    Simulator::Run();
    ASSERT_EQ(rdma.GetFlows().size(), 1u);
    const auto& f = rdma.GetFlows()[0];
    ASSERT_FALSE(f.end.IsZero());
    const double expected = size * 8.0 / limit.GetBitRate();
    EXPECT_NEAR((f.end - f.start).GetSeconds(), expected, expected * 0.02);
    EXPECT_GT((f.end - f.start).GetSeconds(), f.idealFct.GetSeconds() * 1.5);
}

TEST_F(IntraHostHelperTest, AllToAllOverNvswitchFinishesAtTheNvlinkBound)
{
    // Eight GPUs each send S bytes to each of the seven others at once: every GPU's NVLink bond
    // carries 7 S each way, so the exchange takes 7 S / (18 x 25 GB/s) plus two link latencies.
    const IntraHostServer s = IntraHostHelper::Build(IntraHostHelper::Preset("dgx-h100"));
    const uint64_t bytes = 64 << 20;
    Time last(0);
    uint32_t done = 0;
    for (uint32_t g = 0; g < 8; ++g)
    {
        for (uint32_t h = 0; h < 8; ++h)
        {
            if (g != h)
            {
                s.fabric->StartTransfer(s.gpus[g], s.gpus[h], bytes, [&]() {
                    ++done;
                    last = Simulator::Now();
                });
            }
        }
    }
    Simulator::Run();
    ASSERT_EQ(done, 56u);
    const double bound = 7.0 * bytes / (18 * 25e9) + 2 * 250e-9;
    EXPECT_NEAR(last.GetSeconds(), bound, bound * 1e-3);
}

TEST(IntraHostHelperDeathTest, UnknownPresetIsNamed)
{
    EXPECT_CONFIG_ERROR(IntraHostHelper::Preset("dgx-b300", "--preset"),
                        "--preset = dgx-b300.*dgx-a100, dgx-h100, pcie-8gpu, nvl72");
    IntraHostParameters p = IntraHostHelper::Preset("dgx-h100");
    p.pcieGeneration = 7;
    EXPECT_CONFIG_ERROR(IntraHostHelper::Build(p), "PCIe generation = 7");
}

TEST_F(IntraHostHelperTest, ZeroLatenciesAreAccepted)
{
    // A latency of zero is allowed (>= 0); a transfer then takes size / bottleneck exactly.
    IntraHostParameters p = IntraHostHelper::Preset("dgx-h100");
    p.nvlinkLatency = Time(0);
    const IntraHostServer s = IntraHostHelper::Build(p);
    Time end(0);
    s.fabric->StartTransfer(s.gpus[0], s.gpus[1], 450000000, [&end]() { end = Simulator::Now(); });
    Simulator::Run();
    EXPECT_EQ(end, MilliSeconds(1)); // 450 MB at 450 GB/s
}
