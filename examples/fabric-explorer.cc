/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Build a whole RoCEv2 fabric from a few parameters, describe it, export it and check it for
// PFC deadlocks; optionally run a permutation workload on it.
//
//   --topology=fat-tree    --k=4                          k-ary fat-tree (Al-Fares)
//   --topology=spine-leaf  --leaves=4 --spines=2 --hostsPerLeaf=8
//   --topology=three-tier  --pods=2 --accessPerPod=4 --aggregationPerPod=2 --cores=2
//                          --hostsPerAccess=8 --accessOversubscription=1
//                          --aggregationOversubscription=1
//   --topology=rail        --servers=8 --nicsPerServer=4 --spines=2 [--serversPerLeaf=N]
//   --topology=torus       --dims=4x4 (or 4x4x4) --hostsPerSwitch=1 --dateline=1
//
// Links: --hostRate for the hosts' links, --fabricRate between switches, --delay for all.
// With --messageSize=BYTES every host writes that many bytes to another host (a random
// permutation without fixed points) at the same time; --spray=1 sprays packets over all
// equal-cost paths instead of hashing each flow onto one.
//
// Outputs in --out:
//   fabric.dot    the fabric for Graphviz (e.g. `neato -Tpdf fabric.dot -o fabric.pdf`)
//   fabric.json   its nodes and links with their rates and delays, and its metrics
//   deadlock.txt  the deadlock check: lossless channels, dependencies, any cycle
//   flows.csv, summary.json, config.json   the run (flows.csv is empty without --messageSize)

#include "ns3/core-module.h"
#include "ns3/interconnect-module.h"

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

using namespace ns3;

namespace
{

/// "4x4x4" -> {4, 4, 4}
std::vector<uint32_t>
ParseDimensions(const std::string& text)
{
    std::vector<uint32_t> dims;
    std::stringstream in(text);
    std::string part;
    const std::string accepted = "2 or 3 sizes of 2..1024 joined by x, e.g. 4x4 or 4x4x4";
    while (std::getline(in, part, 'x'))
    {
        if (part.empty() || part.size() > 4 ||
            part.find_first_not_of("0123456789") != std::string::npos || std::stoul(part) < 2 ||
            std::stoul(part) > 1024)
        {
            InterconnectConfigError("--dims", text, accepted);
        }
        dims.push_back(static_cast<uint32_t>(std::stoul(part)));
    }
    if (dims.size() < 2 || dims.size() > 3 || text.back() == 'x')
    {
        InterconnectConfigError("--dims", text, accepted);
    }
    return dims;
}

/// A random permutation of 0..n-1 without fixed points (n >= 2), from ns-3's random streams.
std::vector<uint32_t>
Derangement(uint32_t n)
{
    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    std::vector<uint32_t> p(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        p[i] = i;
    }
    for (uint32_t i = n - 1; i > 0; --i)
    {
        std::swap(p[i], p[u->GetInteger(0, i)]);
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        if (p[i] == i)
        {
            std::swap(p[i], p[(i + 1) % n]);
        }
    }
    return p;
}

} // namespace

/// The program; main() reports the configuration errors it throws.
static int
Main(int argc, char* argv[])
{
    std::string topology = "fat-tree";
    uint32_t k = 4;
    uint32_t leaves = 4;
    uint32_t spines = 2;
    uint32_t hostsPerLeaf = 8;
    uint32_t pods = 2;
    uint32_t accessPerPod = 4;
    uint32_t aggregationPerPod = 2;
    uint32_t cores = 2;
    uint32_t hostsPerAccess = 8;
    double accessOversubscription = 1;
    double aggregationOversubscription = 1;
    uint32_t servers = 8;
    uint32_t nicsPerServer = 4;
    uint32_t serversPerLeaf = 0;
    std::string dims = "4x4";
    uint32_t hostsPerSwitch = 1;
    bool dateline = true;
    std::string hostRate = "100Gbps";
    std::string fabricRate = "100Gbps";
    std::string delay = "1us";
    std::string messageSize = "0";
    bool spray = false;
    std::string cc = "none";
    uint32_t seed = 1;
    uint32_t run = 1;
    std::string out = "results/examples/fabric-explorer";

    uint32_t ranks = 1;
    std::string partition = "auto";
    CommandLine cmd(__FILE__);
    cmd.AddValue("topology", "fat-tree, spine-leaf, three-tier, rail or torus", topology);
    cmd.AddValue("k", "fat-tree: switch radix (even, >= 2)", k);
    cmd.AddValue("leaves", "spine-leaf: leaf switches", leaves);
    cmd.AddValue("spines", "spine-leaf and rail: spine switches", spines);
    cmd.AddValue("hostsPerLeaf", "spine-leaf: hosts per leaf", hostsPerLeaf);
    cmd.AddValue("pods", "three-tier: pods", pods);
    cmd.AddValue("accessPerPod", "three-tier: access switches per pod", accessPerPod);
    cmd.AddValue("aggregationPerPod",
                 "three-tier: aggregation switches per pod",
                 aggregationPerPod);
    cmd.AddValue("cores", "three-tier: core switches", cores);
    cmd.AddValue("hostsPerAccess", "three-tier: hosts per access switch", hostsPerAccess);
    cmd.AddValue("accessOversubscription",
                 "three-tier: access layer oversubscription (x:1)",
                 accessOversubscription);
    cmd.AddValue("aggregationOversubscription",
                 "three-tier: aggregation layer oversubscription (x:1)",
                 aggregationOversubscription);
    cmd.AddValue("servers", "rail: servers", servers);
    cmd.AddValue("nicsPerServer", "rail: NICs (GPUs, rails) per server", nicsPerServer);
    cmd.AddValue("serversPerLeaf", "rail: servers per rail leaf (0: all)", serversPerLeaf);
    cmd.AddValue("dims", "torus: switches per dimension, e.g. 4x4 or 4x4x4", dims);
    cmd.AddValue("hostsPerSwitch", "torus: hosts per switch", hostsPerSwitch);
    cmd.AddValue("dateline", "torus: 1 applies the dateline rule (priority 3 -> 4)", dateline);
    cmd.AddValue("hostRate", "Rate of the hosts' links", hostRate);
    cmd.AddValue("fabricRate", "Rate of the links between switches", fabricRate);
    cmd.AddValue("delay", "Propagation delay of every link", delay);
    cmd.AddValue("messageSize",
                 "Bytes each host writes in a permutation workload (0: build and check only)",
                 messageSize);
    cmd.AddValue("spray", "1: spray packets over equal-cost paths; 0: hash each flow", spray);
    cmd.AddValue("cc", "Congestion control: none, dcqcn, hpcc, timely, dctcp or a TypeId", cc);
    cmd.AddValue("seed", "RngSeedManager seed (>= 1)", seed);
    cmd.AddValue("run", "RngSeedManager run number", run);
    cmd.AddValue("ranks",
                 "Show how the fabric would be dealt to this many ranks of a distributed run "
                 "(1: no partition)",
                 ranks);
    cmd.AddValue("partition", "Partition policy for --ranks: auto, group or slab", partition);
    cmd.AddValue("out", "Directory for the outputs", out);
    // ns-3 would read "1e3" as 1 and "-1" as 4294967295: check the whole numbers' text first.
    CommandLineValues::RequireWholeNumbers(argc,
                                           argv,
                                           {"k",
                                            "leaves",
                                            "spines",
                                            "hostsPerLeaf",
                                            "pods",
                                            "accessPerPod",
                                            "aggregationPerPod",
                                            "cores",
                                            "hostsPerAccess",
                                            "servers",
                                            "nicsPerServer",
                                            "serversPerLeaf",
                                            "hostsPerSwitch",
                                            "seed",
                                            "run",
                                            "ranks"});
    cmd.Parse(argc, argv);

    const DataRate hostLinkRate = CommandLineValues::Rate("--hostRate", hostRate);
    const DataRate fabricLinkRate = CommandLineValues::Rate("--fabricRate", fabricRate);
    const Time linkDelay = CommandLineValues::Duration("--delay", delay);
    const uint64_t messageBytes = CommandLineValues::Bytes("--messageSize", messageSize);
    const std::string ccTypeId = RdmaCongestionControl::ResolveName("--cc", cc);
    if (seed == 0)
    {
        InterconnectConfigError("--seed", "0", "a seed >= 1");
    }
    RngSeedManager::SetSeed(seed);
    RngSeedManager::SetRun(run);

    if (ranks < 1 || ranks > 65536)
    {
        InterconnectConfigError("--ranks", std::to_string(ranks), "1..65536");
    }
    if (partition != "auto" && partition != "group" && partition != "slab")
    {
        InterconnectConfigError("--partition", partition, "auto, group or slab");
    }
    // 1. The fabric helper: the topology's own parameters.
    std::unique_ptr<FabricHelper> helper;
    if (topology == "fat-tree")
    {
        helper = std::make_unique<FatTreeHelper>(k);
    }
    else if (topology == "spine-leaf")
    {
        helper = std::make_unique<SpineLeafHelper>(leaves, spines, hostsPerLeaf);
    }
    else if (topology == "three-tier")
    {
        auto threeTier = std::make_unique<ThreeTierHelper>(pods,
                                                           accessPerPod,
                                                           aggregationPerPod,
                                                           cores,
                                                           hostsPerAccess);
        threeTier->SetAccessOversubscription(accessOversubscription);
        threeTier->SetAggregationOversubscription(aggregationOversubscription);
        helper = std::move(threeTier);
    }
    else if (topology == "rail")
    {
        auto rail = std::make_unique<RailOptimizedHelper>(servers, nicsPerServer, spines);
        rail->SetServersPerLeaf(serversPerLeaf);
        helper = std::move(rail);
    }
    else if (topology == "torus")
    {
        auto torus = std::make_unique<TorusHelper>(ParseDimensions(dims));
        torus->SetHostsPerSwitch(hostsPerSwitch);
        torus->SetDateline(dateline);
        helper = std::move(torus);
    }
    else
    {
        InterconnectConfigError("--topology",
                                topology,
                                "fat-tree, spine-leaf, three-tier, rail or torus");
    }
    helper->SetHostRate(hostLinkRate);
    helper->SetFabricRate(fabricLinkRate);
    helper->SetDelay(linkDelay);

    // 2. The link technology: RoCEv2 with its own attributes, then the whole fabric on it.
    RoceHelper roce;
    roce.SetDeviceAttribute("Mtu", UintegerValue(4200)); // room for a 4096-byte path MTU
    roce.SetQueuePairAttribute("Mtu", UintegerValue(4096));
    roce.SetSwitchAttribute("EcmpMode", StringValue(spray ? "PacketSpray" : "FlowHash"));
    roce.SetNicAttribute("CongestionControl", StringValue(ccTypeId));
    const auto start = std::chrono::steady_clock::now();
    Fabric fabric = roce.Build(*helper);
    RoceTransport rdma(roce);
    const double buildSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    roce.AssignStreams(1);

    // 3. The deadlock check, on what was installed.
    const DeadlockCheck check = DeadlockCheck::ForFabric(fabric);

    // 4. Optionally, a permutation workload.
    if (messageBytes > 0 && fabric.GetNHosts() >= 2)
    {
        const std::vector<uint32_t> peer = Derangement(fabric.GetNHosts());
        for (uint32_t h = 0; h < fabric.GetNHosts(); ++h)
        {
            rdma.Post(h, peer[h], RdmaVerb::WRITE, messageBytes, MicroSeconds(1), 3);
        }
        Simulator::Stop(Seconds(10));
        Simulator::Run();
    }

    std::string error;
    if (!CreateOutputDirectory(out, &error))
    {
        InterconnectConfigError("--out", out, "a directory that can be created");
    }
    std::ofstream deadlockFile(out + "/deadlock.txt");
    deadlockFile << check.Describe(64);
    deadlockFile.close();
    if (deadlockFile.fail() || !fabric.WriteDot(out + "/fabric.dot") ||
        !fabric.WriteJson(out + "/fabric.json"))
    {
        std::cerr << "error: cannot write the outputs in '" << out << "'" << std::endl;
        return 1;
    }
    RunRecord record("fabric-explorer");
    record.Set("topology", topology);
    record.Set("fabric", fabric.GetKind());
    record.Set("routing", fabric.GetRoutingName());
    record.Set("hostRate", std::to_string(hostLinkRate.GetBitRate()) + "bps");
    record.Set("fabricRate", std::to_string(fabricLinkRate.GetBitRate()) + "bps");
    record.Set("delay", std::to_string(linkDelay.GetNanoSeconds()) + "ns");
    record.Set("messageSize", messageBytes);
    record.Set("spray", spray);
    record.Set("cc", ccTypeId);
    record.Set("ranks", ranks);
    record.Set("partition", partition);
    record.CaptureSeed();
    record.CaptureAttributeDefaults("Interconnect");
    WriteRunOutputs(out, rdma, record);

    std::printf("fabric-explorer: %s\n", fabric.Describe().c_str());
    std::printf("  routing: %s; built in %.2f s\n", fabric.GetRoutingName().c_str(), buildSeconds);
    std::printf("  %s", check.Describe(4).c_str());
    if (ranks > 1)
    {
        std::printf("  partition: %s\n", fabric.Partition(partition, ranks).Describe().c_str());
    }
    uint32_t completed = 0;
    if (messageBytes > 0)
    {
        double rateSum = 0;
        for (const auto& f : rdma.GetFlows())
        {
            if (!f.end.IsZero())
            {
                ++completed;
                rateSum += f.bytes * 8.0 / (f.end - f.start).GetSeconds();
            }
        }
        const double mean = completed ? rateSum / completed : 0;
        std::printf("  permutation: %u/%zu flows of %" PRIu64 " bytes completed, mean rate "
                    "%.1f Gb/s (%.0f%% of the host rate), %s\n",
                    completed,
                    rdma.GetFlows().size(),
                    messageBytes,
                    mean / 1e9,
                    100 * mean / static_cast<double>(hostLinkRate.GetBitRate()),
                    spray ? "packet spray" : "flow hash");
    }
    std::printf("  wrote %s/{fabric.dot,fabric.json,deadlock.txt,flows.csv,summary.json,"
                "config.json}\n",
                out.c_str());
    Simulator::Destroy();
    return completed == rdma.GetFlows().size() ? 0 : 1;
}

int
main(int argc, char* argv[])
{
    return ns3::ReportConfigErrors([&]() { return Main(argc, argv); });
}
