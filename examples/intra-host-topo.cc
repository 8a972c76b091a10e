/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The inside of a GPU server: its `nvidia-smi topo -m` matrix, and for every GPU the path to its
// NIC, the rate at which that NIC can send the GPU's data with and without GPUDirect RDMA, and
// the time of an all-to-all among the server's GPUs (fluid model, at the NVLink or PCIe bound).
//
//   ./interconnect example intra-host-topo --preset=dgx-h100
//   ./interconnect example intra-host-topo --preset=dgx-h100 --pcieGeneration=4 --gpuDirect=0
//
// Every number of the preset can be overridden. Writes config.json, topo.txt and paths.csv into
// --out.

#include "ns3/command-line-values.h"
#include "ns3/core-module.h"
#include "ns3/interconnect-config-error.h"
#include "ns3/intra-host-helper.h"
#include "ns3/run-record.h"

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

using namespace ns3;

/// The program; main() reports the configuration errors it throws.
static int
Main(int argc, char* argv[])
{
    std::string preset = "dgx-h100";
    std::string out = "results/examples/intra-host-topo";
    // Overrides: empty or negative means "the preset's value".
    int nvlinksPerGpu = -1;
    double nvlinkGBps = -1;
    int pcieGeneration = -1;
    int pcieLanes = -1;
    int pcieMaxPayload = -1;
    std::string nicRate;
    double memoryGBps = -1;
    double smpGBps = -1;
    int gpuDirect = -1;
    std::string a2aBytes = "64MB";

    std::string names;
    for (const auto& n : IntraHostHelper::PresetNames())
    {
        names += (names.empty() ? "" : ", ") + n;
    }
    CommandLine cmd(__FILE__);
    cmd.AddValue("preset", "Server preset: " + names, preset);
    cmd.AddValue("nvlinksPerGpu", "NVLinks per GPU (0: none; -1: the preset's)", nvlinksPerGpu);
    cmd.AddValue("nvlinkGBps", "GB/s per direction of one NVLink", nvlinkGBps);
    cmd.AddValue("pcieGeneration", "PCIe generation, 1..6", pcieGeneration);
    cmd.AddValue("pcieLanes", "PCIe lanes of GPU and NIC links: 1, 2, 4, 8, 16", pcieLanes);
    cmd.AddValue("pcieMaxPayload", "PCIe MaxPayloadSize, bytes: 128..4096", pcieMaxPayload);
    cmd.AddValue("nicRate", "Line rate of each NIC port, e.g. 400Gbps", nicRate);
    cmd.AddValue("memoryGBps", "GB/s of each NUMA node's memory", memoryGBps);
    cmd.AddValue("smpGBps", "GB/s per direction between NUMA nodes", smpGBps);
    cmd.AddValue("gpuDirect", "1: GPUDirect RDMA, 0: stage through host memory", gpuDirect);
    cmd.AddValue("a2aBytes", "Bytes each GPU sends to each other GPU in the all-to-all", a2aBytes);
    cmd.AddValue("out", "Output directory", out);
    // ns-3 reads "1e3" into an int as 1 and "2.5" as 2 without a word: check the text first.
    CommandLineValues::RequireWholeNumbersOrMinusOne(
        argc,
        argv,
        {"nvlinksPerGpu", "pcieGeneration", "pcieLanes", "pcieMaxPayload", "gpuDirect"});
    cmd.Parse(argc, argv);

    IntraHostParameters p = IntraHostHelper::Preset(preset, "--preset");
    // -1 keeps the preset's value; anything else below 0 is an error, not a silent default.
    for (const auto& [option, value] :
         std::vector<std::pair<std::string, double>>{{"--nvlinksPerGpu", nvlinksPerGpu},
                                                     {"--nvlinkGBps", nvlinkGBps},
                                                     {"--pcieGeneration", pcieGeneration},
                                                     {"--pcieLanes", pcieLanes},
                                                     {"--pcieMaxPayload", pcieMaxPayload},
                                                     {"--memoryGBps", memoryGBps},
                                                     {"--smpGBps", smpGBps},
                                                     {"--gpuDirect", gpuDirect}})
    {
        if (value < 0 && value != -1)
        {
            InterconnectConfigError(option, std::to_string(value), ">= 0 (or -1: the preset's)");
        }
    }
    if (nvlinksPerGpu >= 0)
    {
        p.nvlinksPerGpu = static_cast<uint32_t>(nvlinksPerGpu);
    }
    if (nvlinkGBps >= 0)
    {
        p.nvlinkBandwidth = nvlinkGBps * 1e9;
    }
    if (pcieGeneration >= 0)
    {
        p.pcieGeneration = static_cast<uint32_t>(pcieGeneration);
    }
    if (pcieLanes >= 0)
    {
        p.pcieLanes = static_cast<uint32_t>(pcieLanes);
    }
    if (pcieMaxPayload >= 0)
    {
        p.pcieMaxPayload = static_cast<uint32_t>(pcieMaxPayload);
    }
    if (!nicRate.empty())
    {
        p.nicRate = CommandLineValues::Rate("--nicRate", nicRate);
    }
    if (memoryGBps >= 0)
    {
        p.memoryBandwidth = memoryGBps * 1e9;
    }
    if (smpGBps >= 0)
    {
        p.smpBandwidth = smpGBps * 1e9;
    }
    if (gpuDirect >= 0)
    {
        if (gpuDirect > 1)
        {
            InterconnectConfigError("--gpuDirect", std::to_string(gpuDirect), "0 or 1");
        }
        p.gpuDirect = gpuDirect == 1;
    }
    const uint64_t bytes = CommandLineValues::Bytes("--a2aBytes", a2aBytes, 1);
    const IntraHostServer s = IntraHostHelper::Build(p);
    const IntraHostFabric& f = *s.fabric;

    RunRecord record("intra-host-topo");
    record.Set("preset", preset);
    record.Set("nvlinksPerGpu", p.nvlinksPerGpu);
    record.Set("nvlinkBandwidth", p.nvlinkBandwidth);
    record.Set("pcieGeneration", p.pcieGeneration);
    record.Set("pcieLanes", p.pcieLanes);
    record.Set("pcieMaxPayload", p.pcieMaxPayload);
    record.Set("nicRate", std::to_string(p.nicRate.GetBitRate()) + "bps");
    record.Set("memoryBandwidth", p.memoryBandwidth);
    record.Set("smpBandwidth", p.smpBandwidth);
    record.Set("gpuDirect", p.gpuDirect);
    record.Set("a2aBytes", bytes);
    record.Write(out + "/config.json");
    const std::string matrix = IntraHostHelper::TopologyMatrix(s);
    std::cout << preset << ": " << s.gpus.size() << " GPUs, " << s.nics.size() << " NIC ports, "
              << s.numa.size() << " NUMA nodes"
              << (s.gpusPerHost < s.gpus.size()
                      ? " (matrix of the first host, " + std::to_string(s.gpusPerHost) + " GPUs)"
                      : std::string())
              << "\n\n"
              << matrix << "\n";
    std::ofstream(out + "/topo.txt") << matrix;

    std::ofstream csv(out + "/paths.csv");
    csv << "gpu,nic,label,gpudirect_gbps,staged_gbps,nic_rate_gbps,nic_sends_gbps\n";
    std::printf("GPU  NIC    path  GPUDirect  staged     NIC sends  (Gb/s)\n");
    for (uint32_t g = 0; g < s.gpus.size(); ++g)
    {
        const uint32_t n = s.railNic[g];
        IntraHostServer direct = s;
        direct.parameters.gpuDirect = true;
        IntraHostServer staged = s;
        staged.parameters.gpuDirect = false;
        const double d = IntraHostHelper::GpuToNicRate(direct, g, n) * 8 / 1e9;
        const double st = IntraHostHelper::GpuToNicRate(staged, g, n) * 8 / 1e9;
        const double sends = IntraHostHelper::NicSendingRate(s, g, n).GetBitRate() / 1e9;
        const std::string label = f.TopologyLabel(s.gpus[g], s.nics[n]);
        csv << g << "," << n << "," << label << "," << d << "," << st << ","
            << p.nicRate.GetBitRate() / 1e9 << "," << sends << "\n";
        if (g < 8 || g + 1 == s.gpus.size())
        {
            std::printf("%-4u NIC%-3u %-5s %-10.1f %-10.1f %.1f%s\n",
                        g,
                        n,
                        label.c_str(),
                        d,
                        st,
                        sends,
                        sends + 1e-9 < p.nicRate.GetBitRate() / 1e9 ? "  (below line rate)" : "");
        }
    }

    // All-to-all among the first host's GPUs, every pair at once.
    const uint32_t n = s.gpusPerHost;
    Time last(0);
    for (uint32_t a = 0; a < n; ++a)
    {
        for (uint32_t b = 0; b < n; ++b)
        {
            if (a != b)
            {
                s.fabric->StartTransfer(s.gpus[a], s.gpus[b], bytes, [&last]() {
                    last = Simulator::Now();
                });
            }
        }
    }
    Simulator::Run();
    const double uplink = f.Bottleneck(f.Path(s.gpus[0], s.gpus[1]));
    std::printf("\nall-to-all of %u GPUs, %" PRIu64 " bytes per pair: %.3f us "
                "(each GPU sends %.1f GB; its link to the others: %.1f GB/s per direction)\n",
                n,
                bytes,
                last.GetSeconds() * 1e6,
                (n - 1) * bytes / 1e9,
                uplink / 1e9);
    Simulator::Destroy();
    std::cout << "wrote " << out << "/config.json, topo.txt, paths.csv" << std::endl;
    return 0;
}

int
main(int argc, char* argv[])
{
    return ns3::ReportConfigErrors([&]() { return Main(argc, argv); });
}
