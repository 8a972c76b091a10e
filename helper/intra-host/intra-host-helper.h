/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef INTRA_HOST_HELPER_H
#define INTRA_HOST_HELPER_H

#include "ns3/data-rate.h"
#include "ns3/intra-host-fabric.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief The numbers of a GPU server's inside. A preset fills them; every one can be changed
 * before IntraHostHelper::Build.
 */
struct IntraHostParameters
{
    std::string layout;      //!< how the parts are wired: dgx-a100, dgx-h100, pcie-8gpu, nvl72
    uint32_t nvlinksPerGpu;  //!< NVLinks of each GPU, all to the NVSwitch (0: no NVLink)
    double nvlinkBandwidth;  //!< bytes/s per direction of one NVLink
    Time nvlinkLatency;      //!< one way, GPU to NVSwitch
    uint32_t pcieGeneration; //!< 1..6, of every PCIe link
    uint32_t pcieLanes;      //!< lanes of every GPU and NIC PCIe link
    uint32_t pcieMaxPayload; //!< MaxPayloadSize, bytes
    Time pcieLatency;        //!< one way, per PCIe link
    DataRate nicRate;        //!< line rate of each NIC port
    double smpBandwidth;     //!< bytes/s per direction between NUMA nodes (UPI, xGMI, ...)
    Time smpLatency;         //!< one way, between NUMA nodes
    double memoryBandwidth;  //!< bytes/s of each NUMA node's memory (reads and writes share it)
    Time memoryLatency;      //!< one way, CPU to its memory and to its host bridges
    bool gpuDirect;          //!< the NIC reads and writes GPU memory directly (GPUDirect RDMA)
};

/**
 * @ingroup interconnect
 * @brief One server (or scale-up domain) built by IntraHostHelper: its fluid fabric and the
 * component ids of its parts.
 */
struct IntraHostServer
{
    Ptr<IntraHostFabric> fabric;    //!< the components and links
    IntraHostParameters parameters; //!< what it was built from
    std::vector<uint32_t> gpus;     //!< GPU components, by GPU index
    std::vector<uint32_t> nics;     //!< NIC ports (compute and storage), as nvidia-smi numbers them
    std::vector<uint32_t> railNic;  //!< per GPU: the index in nics of its compute NIC
    std::vector<uint32_t> numa;     //!< CPU (NUMA node) components, by NUMA node
    std::vector<uint32_t> memory;   //!< memory components, by NUMA node
    uint32_t gpusPerHost;           //!< GPUs one operating system sees (nvl72: 4 per tray)
};

/**
 * @ingroup interconnect
 * @brief Builds the inside of GPU servers from presets, prints their `nvidia-smi topo -m`
 * matrix, and gives the rate of the GPU-to-NIC path that inter-host RDMA depends on.
 */
class IntraHostHelper
{
  public:
    /// @return the preset names: dgx-a100, dgx-h100, pcie-8gpu, nvl72
    static std::vector<std::string> PresetNames();

    /**
     * @param name a preset name
     * @return its parameters; an unknown name is a configuration error naming the
     *         accepted ones (parameter `parameter`)
     * @param parameter what to call the value in that message
     */
    static IntraHostParameters Preset(const std::string& name,
                                      const std::string& parameter = "preset");

    /**
     * Build a server. Out-of-range numbers are configuration errors naming them.
     * @param p the parameters
     * @return the server
     */
    static IntraHostServer Build(const IntraHostParameters& p);

    /**
     * The matrix `nvidia-smi topo -m` prints on the first host of the server: GPUs and NICs in
     * rows and columns, each GPU's NUMA affinity, and the NIC legend.
     * @param server a server
     * @return the text
     */
    static std::string TopologyMatrix(const IntraHostServer& server);

    /**
     * @param server a server
     * @param component a GPU or NIC
     * @return the NUMA node it is nearest to (fewest hops without NVLink)
     */
    static uint32_t NumaNode(const IntraHostServer& server, uint32_t component);

    /**
     * The steady rate at which a NIC can send data that lives in a GPU's memory. With GPUDirect
     * RDMA the NIC reads the GPU's memory across the PCIe path between them; without it the data
     * is first copied into host memory next to the GPU (one PCIe crossing) and the NIC reads it
     * from there (a second one), both at once for a long transfer, and the memory serves the
     * write and the read.
     * @param server a server
     * @param gpu GPU index
     * @param nic NIC index (into server.nics)
     * @return payload bytes per second
     */
    static double GpuToNicRate(const IntraHostServer& server, uint32_t gpu, uint32_t nic);

    /**
     * @param server a server
     * @param gpu GPU index
     * @param nic NIC index
     * @return the rate the NIC can send that GPU's data at: its line rate or, if lower, the
     *         GPU-to-NIC path's rate
     */
    static DataRate NicSendingRate(const IntraHostServer& server, uint32_t gpu, uint32_t nic);
};

} // namespace ns3

#endif // INTRA_HOST_HELPER_H
