/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RoCEv2 incast: N senders write to one receiver through one switch at the same time.
//
//   sender 0 ---+
//   sender 1 ---+--- switch --- receiver       (every link --rate, --delay)
//     ...       |
//   sender N-1 -+
//
// With --pfc=1 the switch's priority 3 is lossless: it pauses the senders when its buffer
// fills, nothing is dropped. With --pfc=0 the same priority is lossy: frames are dropped when
// the buffer is full and the queue pairs recover by go-back-N.
//
// Outputs in --out:
//   flows.csv     one row per message: id,src,dst,verb,size,priority,workload,queue_pair,
//                 start_ns,end_ns,fct_ns,ideal_fct_ns,slowdown
//   summary.json  drops per cause, PFC frames sent and received, pause time, CNPs, ECN marks,
//                 retransmissions, bytes delivered, events
//   config.json   every parameter and the seed
// With --pcap=DIR, one pcap per port (Wireshark decodes RoCEv2 on UDP 4791 and PFC frames).

#include "ns3/core-module.h"
#include "ns3/interconnect-module.h"

#include <cinttypes>
#include <cstdio>
#include <iostream>

using namespace ns3;

/// The program; main() reports the configuration errors it throws.
static int
Main(int argc, char* argv[])
{
    uint32_t senders = 8;
    std::string flowSize = "1MB";
    bool pfc = true;
    std::string cc = "none";
    std::string rate = "100Gbps";
    std::string delay = "1us";
    std::string bufferSize = "2MB";
    uint32_t mtu = 1024;
    uint32_t seed = 1;
    uint32_t run = 1;
    std::string pcapDir;
    std::string out = "results/examples/roce-incast";

    CommandLine cmd(__FILE__);
    cmd.AddValue("senders", "Number of senders (1..1000)", senders);
    cmd.AddValue("flowSize",
                 "Bytes each sender writes (>= 1; units B, KB, MB, KiB, ...)",
                 flowSize);
    cmd.AddValue("pfc", "1: priority 3 is lossless (PFC); 0: lossy (drop-tail)", pfc);
    cmd.AddValue("cc", "Congestion control: none, or an RdmaCongestionControl TypeId name", cc);
    cmd.AddValue("rate", "Rate of every link", rate);
    cmd.AddValue("delay", "Propagation delay of every link", delay);
    cmd.AddValue("bufferSize", "Switch buffer (bytes; units B, KB, MB, KiB, ...)", bufferSize);
    cmd.AddValue("mtu", "RDMA path MTU, payload bytes per packet (256..4096)", mtu);
    cmd.AddValue("seed", "RngSeedManager seed (>= 1)", seed);
    cmd.AddValue("run", "RngSeedManager run number", run);
    cmd.AddValue("pcap", "Directory for pcap files (empty: none)", pcapDir);
    cmd.AddValue("out", "Directory for flows.csv, summary.json and config.json", out);
    // ns-3 would read "1e3" as 1 and "-1" as 4294967295: check the whole numbers' text first.
    CommandLineValues::RequireWholeNumbers(argc, argv, {"senders", "mtu", "seed", "run"});
    cmd.Parse(argc, argv);

    if (senders < 1 || senders > 1000)
    {
        InterconnectConfigError("--senders", std::to_string(senders), "1..1000");
    }
    const uint64_t flowBytes = CommandLineValues::Bytes("--flowSize", flowSize, 1);
    const uint64_t bufferBytes =
        CommandLineValues::Bytes("--bufferSize", bufferSize, 1, uint64_t{1} << 40);
    const DataRate linkRate = CommandLineValues::Rate("--rate", rate);
    const Time linkDelay = CommandLineValues::Duration("--delay", delay);
    if (seed == 0)
    {
        InterconnectConfigError("--seed", "0", "a seed >= 1");
    }
    if (mtu != 256 && mtu != 512 && mtu != 1024 && mtu != 2048 && mtu != 4096)
    {
        InterconnectConfigError("--mtu", std::to_string(mtu), "256, 512, 1024, 2048 or 4096");
    }
    const std::string ccTypeId = cc == "none" ? "ns3::RdmaCongestionControl" : cc;
    TypeId ccTid;
    if (!TypeId::LookupByNameFailSafe(ccTypeId, &ccTid))
    {
        InterconnectConfigError("--cc", cc, "none, or the TypeId name of an RdmaCongestionControl");
    }
    RngSeedManager::SetSeed(seed);
    RngSeedManager::SetRun(run);

    RoceHelper roce;
    // The link MTU is derived: large enough for the RDMA MTU and its headers (jumbo if needed).
    const uint32_t linkMtu = std::max<uint32_t>(1500, mtu + 100);
    roce.SetDeviceAttribute("DataRate", DataRateValue(linkRate));
    roce.SetDeviceAttribute("Mtu", UintegerValue(linkMtu));
    roce.SetChannelAttribute("Delay", TimeValue(linkDelay));
    roce.SetMmuAttribute("BufferSize", UintegerValue(bufferBytes));
    roce.SetMmuAttribute("PfcEnabled", BooleanValue(pfc));
    roce.SetNicAttribute("CongestionControl", StringValue(ccTypeId));
    roce.SetQueuePairAttribute("Mtu", UintegerValue(mtu));

    std::vector<Ptr<Node>> hosts;
    for (uint32_t i = 0; i <= senders; ++i)
    {
        hosts.push_back(roce.AddHost()); // host `senders` is the receiver
    }
    Ptr<Node> sw = roce.AddSwitch();
    for (auto& host : hosts)
    {
        roce.Link(host, sw);
    }
    roce.Finalize();
    RoceTransport rdma(roce);
    roce.AssignStreams(1);

    for (uint32_t i = 0; i < senders; ++i)
    {
        rdma.Post(i, senders, RdmaVerb::WRITE, flowBytes, MicroSeconds(1), 3);
    }
    if (!pcapDir.empty())
    {
        std::string error;
        if (!CreateOutputDirectory(pcapDir, &error))
        {
            InterconnectConfigError("--pcap", pcapDir, "a directory that can be created");
        }
        roce.EnablePcapAll(pcapDir + "/roce-incast");
    }

    Simulator::Stop(Seconds(10));
    Simulator::Run();

    RunRecord record("roce-incast");
    record.Set("senders", senders);
    record.Set("flowSize", flowBytes);
    record.Set("pfc", pfc);
    record.Set("cc", ccTypeId);
    record.Set("rate", std::to_string(linkRate.GetBitRate()) + "bps");
    record.Set("delay", std::to_string(linkDelay.GetNanoSeconds()) + "ns");
    record.Set("bufferSize", bufferBytes);
    record.Set("mtu", mtu);
    record.Set("linkMtu", linkMtu);
    record.Set("pcap", pcapDir);
    record.CaptureSeed();
    record.CaptureAttributeDefaults("Interconnect");
    WriteRunOutputs(out, rdma, record);
    const RoceStatistics stats = rdma.CollectStatistics();

    uint32_t completed = 0;
    for (const auto& f : rdma.GetFlows())
    {
        completed += f.end.IsZero() ? 0 : 1;
    }
    std::printf("roce-incast: %u senders x %" PRIu64 " bytes, PFC %s, cc %s\n",
                senders,
                flowBytes,
                pfc ? "on" : "off",
                cc.c_str());
    std::printf("  completed %u/%u messages, delivered %" PRIu64 " bytes\n",
                completed,
                senders,
                stats.bytesDelivered);
    std::printf("  drops: buffer %" PRIu64 ", no-route %" PRIu64 ", not-ipv4 %" PRIu64
                "; lossless headroom overflows %" PRIu64 "\n",
                stats.dropsBuffer,
                stats.dropsNoRoute,
                stats.dropsNotIpv4,
                stats.headroomOverflows);
    std::printf("  PFC frames sent %" PRIu64 ", received %" PRIu64 "; CNPs %" PRIu64
                "; retransmitted packets %" PRIu64 "\n",
                stats.pfcSent,
                stats.pfcReceived,
                stats.cnpsSent,
                stats.retransmitted);
    std::printf("  wrote %s/flows.csv, %s/summary.json, %s/config.json\n",
                out.c_str(),
                out.c_str(),
                out.c_str());
    Simulator::Destroy();
    return completed == senders ? 0 : 1;
}

int
main(int argc, char* argv[])
{
    return ns3::ReportConfigErrors([&]() { return Main(argc, argv); });
}
