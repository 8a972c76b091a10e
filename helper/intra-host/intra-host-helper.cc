/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "intra-host-helper.h"

#include "ns3/interconnect-config-error.h"
#include "ns3/pcie-link.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <limits>
#include <sstream>

namespace ns3
{

namespace
{

/// Wiring one server: adds components and links, records the parts in the server.
class Builder
{
  public:
    explicit Builder(const IntraHostParameters& p)
        : m_p(p),
          m_pcie(PcieLink::Bandwidth(p.pcieGeneration, p.pcieLanes, p.pcieMaxPayload))
    {
        m_s.fabric = CreateObject<IntraHostFabric>();
        m_s.parameters = p;
        m_s.gpusPerHost = 0;
    }

    IntraHostFabric& F()
    {
        return *m_s.fabric;
    }

    /// A NUMA node: its CPU and its memory; joined by SMP links to `peers`.
    uint32_t Numa(const std::vector<uint32_t>& peers)
    {
        const uint32_t n = static_cast<uint32_t>(m_s.numa.size());
        const uint32_t cpu = F().AddComponent("CPU" + std::to_string(n), IntraHostFabric::CPU);
        const uint32_t mem = F().AddComponent("MEM" + std::to_string(n), IntraHostFabric::MEMORY);
        F().AddLink(cpu, mem, m_p.memoryBandwidth, m_p.memoryLatency, IntraHostFabric::INTERNAL);
        for (uint32_t peer : peers)
        {
            F().AddLink(m_s.numa.at(peer),
                        cpu,
                        m_p.smpBandwidth,
                        m_p.smpLatency,
                        IntraHostFabric::SMP);
        }
        m_s.numa.push_back(cpu);
        m_s.memory.push_back(mem);
        return n;
    }

    /// A host bridge (root complex) of a NUMA node.
    uint32_t HostBridge(uint32_t numa)
    {
        const uint32_t hb =
            F().AddComponent("HB" + std::to_string(m_hostBridges++), IntraHostFabric::HOST_BRIDGE);
        F().AddLink(m_s.numa.at(numa),
                    hb,
                    m_p.memoryBandwidth,
                    m_p.memoryLatency,
                    IntraHostFabric::INTERNAL);
        return hb;
    }

    /// A PCIe switch below a parent (host bridge or switch).
    uint32_t Switch(uint32_t parent)
    {
        const uint32_t sw =
            F().AddComponent("PSW" + std::to_string(m_switches++), IntraHostFabric::PCIE_SWITCH);
        Pcie(parent, sw);
        return sw;
    }

    void Pcie(uint32_t a, uint32_t b)
    {
        F().AddLink(a, b, m_pcie, m_p.pcieLatency, IntraHostFabric::PCIE);
    }

    /// GPU `index` (components are created in index order by the caller).
    uint32_t Gpu(uint32_t parent)
    {
        const uint32_t g =
            F().AddComponent("GPU" + std::to_string(m_s.gpus.size()), IntraHostFabric::GPU);
        if (parent != NONE)
        {
            Pcie(parent, g);
        }
        m_s.gpus.push_back(g);
        return g;
    }

    /// The next NIC port (nvidia-smi numbering follows creation order).
    uint32_t Nic(uint32_t parent)
    {
        const uint32_t n =
            F().AddComponent("NIC" + std::to_string(m_s.nics.size()), IntraHostFabric::NIC);
        Pcie(parent, n);
        m_s.nics.push_back(n);
        return static_cast<uint32_t>(m_s.nics.size() - 1);
    }

    /// Every GPU to one NVSwitch by a bond of nvlinksPerGpu links (nothing if 0).
    void NvSwitch()
    {
        if (m_p.nvlinksPerGpu == 0)
        {
            return;
        }
        const uint32_t nvs = F().AddComponent("NVSW", IntraHostFabric::NVSWITCH);
        for (uint32_t g : m_s.gpus)
        {
            F().AddLink(g,
                        nvs,
                        m_p.nvlinksPerGpu * m_p.nvlinkBandwidth,
                        m_p.nvlinkLatency,
                        IntraHostFabric::NVLINK,
                        m_p.nvlinksPerGpu);
        }
    }

    IntraHostServer m_s;                                                   //!< what is built
    static constexpr uint32_t NONE = std::numeric_limits<uint32_t>::max(); //!< no parent

  private:
    const IntraHostParameters& m_p;
    double m_pcie;
    uint32_t m_hostBridges{0};
    uint32_t m_switches{0};
};

// DGX H100 (NVIDIA DGX H100 User Guide, 1.2.3): two sockets; on each, four GPUs, each paired with
// one ConnectX-7 (GPU0-3 with mlx5_0, 3, 4, 5 on socket 0; GPU4-7 with mlx5_6, 9, 10, 11 on
// socket 1) across two levels of PCIe bridges (nvidia-smi: PXB), and one dual-port ConnectX-7
// for storage (mlx5_1/2, mlx5_7/8) on its own root port.
void
WireDgxH100(Builder& b)
{
    b.Numa({});
    b.Numa({0});
    for (uint32_t socket = 0; socket < 2; ++socket)
    {
        for (uint32_t j = 0; j < 4; ++j)
        {
            const uint32_t upper = b.Switch(b.HostBridge(socket));
            const uint32_t nic = b.Nic(upper);
            b.Gpu(b.Switch(upper));
            b.m_s.railNic.push_back(nic);
            if (j == 0)
            {
                const uint32_t card = b.Switch(b.HostBridge(socket));
                b.Nic(card);
                b.Nic(card);
            }
        }
    }
    b.NvSwitch();
    b.m_s.gpusPerHost = 8;
}

// DGX A100 (NVIDIA DGX A100 User Guide; nvidia-smi topo -m of the machine): two 64-core sockets
// in NPS4 mode (eight NUMA nodes); four PCIe Gen4 switch complexes, each with two GPUs and two
// ConnectX-6 on NUMA nodes 3, 1, 7 and 5 (GPU-NIC: PXB); two dual-port storage cards (mlx5_4/5
// on NUMA node 0, mlx5_10/11 on node 4, the latter an assumption).
void
WireDgxA100(Builder& b)
{
    for (uint32_t n = 0; n < 8; ++n)
    {
        // Full mesh inside a socket; node 0 and node 4 join the sockets.
        std::vector<uint32_t> peers;
        for (uint32_t m = (n / 4) * 4; m < n; ++m)
        {
            peers.push_back(m);
        }
        if (n == 4)
        {
            peers.push_back(0);
        }
        b.Numa(peers);
    }
    const uint32_t complexNuma[] = {3, 1, 7, 5};
    std::vector<uint32_t> gpuParents;
    for (uint32_t k = 0; k < 4; ++k)
    {
        const uint32_t upper = b.Switch(b.HostBridge(complexNuma[k]));
        gpuParents.push_back(b.Switch(upper));
        gpuParents.push_back(b.Switch(upper));
        const uint32_t nic0 = b.Nic(b.Switch(upper));
        const uint32_t nic1 = b.Nic(b.Switch(upper));
        b.m_s.railNic.push_back(nic0);
        b.m_s.railNic.push_back(nic1);
        if (k == 1 || k == 3)
        {
            const uint32_t card = b.Switch(b.HostBridge(k == 1 ? 0 : 4));
            b.Nic(card);
            b.Nic(card);
        }
    }
    for (uint32_t parent : gpuParents)
    {
        b.Gpu(parent);
    }
    b.NvSwitch();
    b.m_s.gpusPerHost = 8;
}

// A PCIe-only server (a generic layout, not a product): two sockets, on each two PCIe switches
// with two GPUs and one NIC each; no NVLink.
void
WirePcie8Gpu(Builder& b)
{
    b.Numa({});
    b.Numa({0});
    for (uint32_t socket = 0; socket < 2; ++socket)
    {
        for (uint32_t k = 0; k < 2; ++k)
        {
            const uint32_t sw = b.Switch(b.HostBridge(socket));
            b.Gpu(sw);
            b.Gpu(sw);
            const uint32_t nic = b.Nic(sw);
            b.m_s.railNic.push_back(nic);
            b.m_s.railNic.push_back(nic);
        }
    }
    b.NvSwitch();
    b.m_s.gpusPerHost = 8;
}

// An NVL72-style scale-up domain: 72 GPUs on one NVLink switch fabric, 18 trays of four GPUs and
// two CPUs; each GPU joined to its CPU by a chip-to-chip link and one NIC per GPU on a PCIe root
// port of that CPU. The NIC attachment is a modelling choice, not the product's wiring.
void
WireNvl72(Builder& b, const IntraHostParameters& p)
{
    for (uint32_t tray = 0; tray < 18; ++tray)
    {
        const uint32_t n0 = b.Numa({});
        const uint32_t n1 = b.Numa({n0});
        for (uint32_t i = 0; i < 4; ++i)
        {
            const uint32_t numa = i < 2 ? n0 : n1;
            const uint32_t g = b.Gpu(Builder::NONE);
            // NVLink-C2C: 900 GB/s both directions together.
            b.F().AddLink(b.m_s.numa[numa], g, 450e9, p.memoryLatency, IntraHostFabric::INTERNAL);
            b.m_s.railNic.push_back(b.Nic(b.HostBridge(numa)));
        }
    }
    b.NvSwitch();
    b.m_s.gpusPerHost = 4;
}

void
Check(bool ok, const std::string& parameter, const std::string& value, const std::string& accepted)
{
    if (!ok)
    {
        InterconnectConfigError(parameter, value, accepted);
    }
}

} // namespace

std::vector<std::string>
IntraHostHelper::PresetNames()
{
    return {"dgx-a100", "dgx-h100", "pcie-8gpu", "nvl72"};
}

IntraHostParameters
IntraHostHelper::Preset(const std::string& name, const std::string& parameter)
{
    IntraHostParameters p;
    p.layout = name;
    p.pcieMaxPayload = 256;
    p.pcieLatency = NanoSeconds(150);   // estimate: one switch traversal plus the link
    p.nvlinkLatency = NanoSeconds(250); // estimate
    p.smpLatency = NanoSeconds(100);    // estimate
    p.memoryLatency = NanoSeconds(100); // estimate
    p.gpuDirect = true;
    p.pcieLanes = 16;
    if (name == "dgx-h100")
    {
        p.nvlinksPerGpu = 18;     // NVLink4: 18 links, 900 GB/s both directions per GPU
        p.nvlinkBandwidth = 25e9; // 50 GB/s per link both directions
        p.pcieGeneration = 5;
        p.nicRate = DataRate("400Gbps"); // ConnectX-7
        p.smpBandwidth = 128e9;          // estimate: 4 UPI links x 16 GT/s x 2 bytes
        p.memoryBandwidth = 307.2e9;     // 8 channels DDR5-4800 x 8 bytes per socket
    }
    else if (name == "dgx-a100")
    {
        p.nvlinksPerGpu = 12; // NVLink3: 12 links, 600 GB/s both directions per GPU
        p.nvlinkBandwidth = 25e9;
        p.pcieGeneration = 4;
        p.nicRate = DataRate("200Gbps"); // ConnectX-6 HDR
        p.smpBandwidth = 64e9;           // estimate (Infinity Fabric between NUMA nodes)
        p.memoryBandwidth = 51.2e9;      // NPS4: 2 channels DDR4-3200 x 8 bytes per NUMA node
    }
    else if (name == "pcie-8gpu")
    {
        p.nvlinksPerGpu = 0;
        p.nvlinkBandwidth = 25e9; // unused without NVLink
        p.pcieGeneration = 4;
        p.nicRate = DataRate("200Gbps");
        p.smpBandwidth = 64e9;       // estimate
        p.memoryBandwidth = 204.8e9; // 8 channels DDR4-3200
    }
    else if (name == "nvl72")
    {
        p.nvlinksPerGpu = 18;     // NVLink5: 18 links, 1.8 TB/s both directions per GPU
        p.nvlinkBandwidth = 50e9; // 100 GB/s per link both directions
        p.pcieGeneration = 5;
        p.nicRate = DataRate("400Gbps");
        p.smpBandwidth = 100e9;    // estimate
        p.memoryBandwidth = 500e9; // estimate (LPDDR5X)
    }
    else
    {
        std::string names;
        for (const auto& n : PresetNames())
        {
            names += (names.empty() ? "" : ", ") + n;
        }
        InterconnectConfigError(parameter, name, names);
    }
    return p;
}

IntraHostServer
IntraHostHelper::Build(const IntraHostParameters& p)
{
    Check(p.nvlinksPerGpu <= 18 * 2, "nvlinksPerGpu", std::to_string(p.nvlinksPerGpu), "0..36");
    Check(p.nvlinkBandwidth > 0, "nvlinkBandwidth", std::to_string(p.nvlinkBandwidth), "> 0");
    Check(p.smpBandwidth > 0, "smpBandwidth", std::to_string(p.smpBandwidth), "> 0");
    Check(p.memoryBandwidth > 0, "memoryBandwidth", std::to_string(p.memoryBandwidth), "> 0");
    Check(p.nicRate.GetBitRate() > 0, "nicRate", std::to_string(p.nicRate.GetBitRate()), "> 0");
    for (const Time& t : {p.nvlinkLatency, p.pcieLatency, p.smpLatency, p.memoryLatency})
    {
        Check(!t.IsStrictlyNegative(),
              "latency",
              std::to_string(t.GetNanoSeconds()) + "ns",
              ">= 0");
    }
    Builder b(p); // checks the PCIe numbers
    if (p.layout == "dgx-h100")
    {
        WireDgxH100(b);
    }
    else if (p.layout == "dgx-a100")
    {
        WireDgxA100(b);
    }
    else if (p.layout == "pcie-8gpu")
    {
        WirePcie8Gpu(b);
    }
    else if (p.layout == "nvl72")
    {
        WireNvl72(b, p);
    }
    else
    {
        InterconnectConfigError("layout", p.layout, "dgx-a100, dgx-h100, pcie-8gpu, nvl72");
    }
    return b.m_s;
}

uint32_t
IntraHostHelper::NumaNode(const IntraHostServer& server, uint32_t component)
{
    uint32_t best = 0;
    std::size_t hops = std::numeric_limits<std::size_t>::max();
    for (uint32_t n = 0; n < server.numa.size(); ++n)
    {
        const auto path = server.fabric->Path(component, server.numa[n]);
        if (path.size() < hops)
        {
            hops = path.size();
            best = n;
        }
    }
    return best;
}

std::string
IntraHostHelper::TopologyMatrix(const IntraHostServer& server)
{
    const IntraHostFabric& f = *server.fabric;
    std::vector<uint32_t> gpus(server.gpus.begin(), server.gpus.begin() + server.gpusPerHost);
    // The first host's NICs: those nearest to its NUMA nodes.
    std::vector<uint32_t> hostNuma;
    for (uint32_t g : gpus)
    {
        hostNuma.push_back(NumaNode(server, g));
    }
    const uint32_t lastNuma = *std::max_element(hostNuma.begin(), hostNuma.end());
    std::vector<uint32_t> nics;
    for (uint32_t n : server.nics)
    {
        if (NumaNode(server, n) <= lastNuma)
        {
            nics.push_back(n);
        }
    }
    std::vector<uint32_t> all = gpus;
    all.insert(all.end(), nics.begin(), nics.end());
    std::ostringstream os;
    char cell[32];
    os << "      ";
    for (uint32_t c : all)
    {
        std::snprintf(cell, sizeof(cell), "%-7s", f.GetName(c).c_str());
        os << cell;
    }
    os << "NUMA Affinity\n";
    for (uint32_t r : all)
    {
        std::snprintf(cell, sizeof(cell), "%-6s", f.GetName(r).c_str());
        os << cell;
        for (uint32_t c : all)
        {
            std::snprintf(cell, sizeof(cell), "%-7s", f.TopologyLabel(r, c).c_str());
            os << cell;
        }
        if (f.GetKind(r) == IntraHostFabric::GPU)
        {
            os << NumaNode(server, r);
        }
        else
        {
            os << "N/A";
        }
        os << "\n";
    }
    os << "\nLegend:\n\n"
          "  X    = Self\n"
          "  SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes\n"
          "  NODE = Connection traversing PCIe as well as the interconnect between PCIe Host "
          "Bridges within a NUMA node\n"
          "  PHB  = Connection traversing PCIe as well as a PCIe Host Bridge\n"
          "  PXB  = Connection traversing multiple PCIe bridges (without traversing the PCIe "
          "Host Bridge)\n"
          "  PIX  = Connection traversing at most a single PCIe bridge\n"
          "  NV#  = Connection traversing a bonded set of # NVLinks\n\nNIC Legend:\n\n";
    for (std::size_t i = 0; i < nics.size(); ++i)
    {
        os << "  NIC" << i << ": mlx5_" << i << "\n";
    }
    return os.str();
}

double
IntraHostHelper::GpuToNicRate(const IntraHostServer& server, uint32_t gpu, uint32_t nic)
{
    const IntraHostFabric& f = *server.fabric;
    const uint32_t g = server.gpus.at(gpu);
    const uint32_t n = server.nics.at(nic);
    if (server.parameters.gpuDirect)
    {
        return f.MaxMinRates({f.Path(g, n)}).at(0);
    }
    // Staged: GPU -> host memory next to the GPU, and host memory -> NIC, both at once.
    const uint32_t mem = server.memory.at(NumaNode(server, g));
    const auto rates = f.MaxMinRates({f.Path(g, mem), f.Path(mem, n)});
    return std::min({rates[0], rates[1], server.parameters.memoryBandwidth / 2});
}

DataRate
IntraHostHelper::NicSendingRate(const IntraHostServer& server, uint32_t gpu, uint32_t nic)
{
    const double path = GpuToNicRate(server, gpu, nic) * 8;
    const double line = static_cast<double>(server.parameters.nicRate.GetBitRate());
    return DataRate(static_cast<uint64_t>(std::min(path, line)));
}

} // namespace ns3
