/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The same flows on the same fabric, twice: over RoCEv2 (priority 3 lossless with PFC, DCQCN)
// and over iWARP (RDMAP/DDP/MPA on ns-3 TCP, priority 0 lossy, any TCP congestion control).
//
// The fabric is a spine-leaf (2 leaves, 2 spines, --hostsPerLeaf hosts each). Every host of
// leaf 0 writes --flowSize bytes to the last host of leaf 1 (an incast through the spines),
// and the first host of leaf 1 writes --victimSize bytes to its neighbour, a flow that shares no
// congested port with the incast. --loss drops that fraction of the packets every port receives,
// on both runs. The FCTs come out side by side, with each run's flows.csv and summary.json.
//
//   ./interconnect example iwarp-vs-roce
//   ./interconnect example iwarp-vs-roce --loss=0.001 --tcp=ns3::TcpCubic
//   ./interconnect example iwarp-vs-roce --pcap=results/pcap   # open the iwarp-*.pcap in Wireshark

#include "ns3/core-module.h"
#include "ns3/interconnect-module.h"
#include "ns3/network-module.h"

#include <cinttypes>
#include <cstdio>
#include <iostream>
#include <memory>

using namespace ns3;

namespace
{

/// What both runs share.
struct Setup
{
    uint32_t hostsPerLeaf;
    uint64_t flowBytes;
    uint64_t victimBytes;
    DataRate rate;
    Time delay;
    double loss;
    std::string tcp;
    std::string roceCc;
    uint64_t ecnK;
    RdmaVerb verb;
    bool markers;
    std::string pcap;
    std::string out;
};

/// One run on one transport; returns its flows.
std::vector<FlowRecord>
RunOnce(const Setup& s, bool iwarp, RoceStatistics& stats)
{
    const std::string name = iwarp ? "iwarp" : "roce";
    // One network builder for both; the messages go through RoceTransport or IwarpTransport.
    RoceHelper roce;
    roce.SetInternetStack(iwarp);
    roce.SetDeviceAttribute("Mtu", UintegerValue(1500));
    roce.SetQueuePairAttribute("Mtu", UintegerValue(1024));
    if (iwarp)
    {
        // Step marking at K for DCTCP (it reacts to the fraction marked); RED for the others.
        roce.SetMmuAttribute("EcnKmin", UintegerValue(s.ecnK));
        roce.SetMmuAttribute("EcnKmax", UintegerValue(s.ecnK));
    }
    else
    {
        roce.SetNicAttribute("CongestionControl", StringValue(s.roceCc));
    }
    SpineLeafHelper fabricHelper(2, 2, s.hostsPerLeaf);
    fabricHelper.SetHostRate(s.rate);
    fabricHelper.SetFabricRate(s.rate);
    fabricHelper.SetDelay(s.delay);
    Fabric fabric = roce.Build(fabricHelper);
    roce.AssignStreams(1);
    std::unique_ptr<MessageTransport> transport;
    if (iwarp)
    {
        auto tcp = std::make_unique<IwarpTransport>(roce);
        tcp->SetTcpCongestionControl(s.tcp);
        tcp->SetIwarpAttribute("Markers", BooleanValue(s.markers));
        transport = std::move(tcp);
    }
    else
    {
        transport = std::make_unique<RoceTransport>(roce);
    }
    if (s.loss > 0)
    {
        int64_t stream = 1000;
        for (const auto& link : fabric.GetLinks())
        {
            for (const auto& device : {link.deviceA, link.deviceB})
            {
                Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
                em->SetAttribute("ErrorRate", DoubleValue(s.loss));
                em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
                stream += em->AssignStreams(stream);
                device->SetAttribute("ReceiveErrorModel", PointerValue(em));
            }
        }
    }
    const uint8_t priority = iwarp ? 0 : 3;
    const uint32_t sink = 2 * s.hostsPerLeaf - 1;
    for (uint32_t i = 0; i < s.hostsPerLeaf; ++i)
    {
        transport->Post(i, sink, s.verb, s.flowBytes, MicroSeconds(100), priority);
    }
    transport->Post(s.hostsPerLeaf,
                    s.hostsPerLeaf + 1,
                    s.verb,
                    s.victimBytes,
                    MicroSeconds(100),
                    priority);
    if (!s.pcap.empty())
    {
        roce.EnablePcapAll(s.pcap + "/" + name);
    }
    Simulator::Stop(Seconds(10));
    Simulator::Run();

    RunRecord record("iwarp-vs-roce");
    record.Set("transport", name);
    record.Set("hostsPerLeaf", s.hostsPerLeaf);
    record.Set("flowSize", s.flowBytes);
    record.Set("victimSize", s.victimBytes);
    record.Set("rate", std::to_string(s.rate.GetBitRate()) + "bps");
    record.Set("delay", std::to_string(s.delay.GetNanoSeconds()) + "ns");
    record.Set("loss", s.loss);
    record.Set("verb", RdmaVerbName(s.verb));
    record.Set("markers", s.markers);
    record.Set("priority", uint32_t{priority});
    record.Set("tcp", iwarp ? s.tcp : std::string("-"));
    record.Set("roceCc", iwarp ? std::string("-") : s.roceCc);
    record.Set("ecnK", iwarp ? s.ecnK : uint64_t{0});
    record.Set("pcap", s.pcap);
    record.CaptureSeed();
    record.CaptureAttributeDefaults("Interconnect");
    WriteRunOutputs(s.out + "/" + name, *transport, record);
    stats = transport->CollectStatistics();
    std::vector<FlowRecord> flows = transport->GetFlows();
    Simulator::Destroy();
    return flows;
}

} // namespace

/// The program; main() reports the configuration errors it throws.
static int
Main(int argc, char* argv[])
{
    uint32_t hostsPerLeaf = 4;
    std::string flowSize = "1MB";
    std::string victimSize = "1MB";
    std::string rate = "25Gbps";
    std::string delay = "1us";
    double loss = 0;
    std::string tcp = "ns3::TcpDctcp";
    std::string roceCc = "ns3::DcqcnCongestionControl";
    std::string ecnK = "30KB";
    std::string verb = "write";
    bool markers = false;
    uint32_t seed = 1;
    uint32_t run = 1;
    std::string pcap;
    std::string out = "results/examples/iwarp-vs-roce";

    CommandLine cmd(__FILE__);
    cmd.AddValue("hostsPerLeaf", "Hosts on each of the two leaves (2..64)", hostsPerLeaf);
    cmd.AddValue("flowSize", "Bytes each incast sender writes (units B, KB, MB, ...)", flowSize);
    cmd.AddValue("victimSize",
                 "Bytes of the flow inside leaf 1 (units B, KB, MB, ...)",
                 victimSize);
    cmd.AddValue("rate", "Rate of every link", rate);
    cmd.AddValue("delay", "Propagation delay of every link", delay);
    cmd.AddValue("loss", "Fraction of packets every port loses on receive (0..0.5)", loss);
    cmd.AddValue("tcp", "iWARP's TCP congestion control (a TcpCongestionOps TypeId name)", tcp);
    cmd.AddValue("roceCc",
                 "RoCE's congestion control (an RdmaCongestionControl TypeId name)",
                 roceCc);
    cmd.AddValue("ecnK", "iWARP run: ECN step-marking threshold of the switches", ecnK);
    cmd.AddValue("verb", "What every flow does: write, send or read (read: dst to src)", verb);
    cmd.AddValue("markers", "iWARP: MPA markers every 512 octets (both directions)", markers);
    cmd.AddValue("seed", "RngSeedManager seed (>= 1)", seed);
    cmd.AddValue("run", "RngSeedManager run number", run);
    cmd.AddValue("pcap", "Directory for pcap files (empty: none)", pcap);
    cmd.AddValue("out", "Directory for compare.csv and the roce/ and iwarp/ outputs", out);
    // ns-3 would read "1e3" as 1 and "-1" as 4294967295: check the whole numbers' text first.
    CommandLineValues::RequireWholeNumbers(argc, argv, {"hostsPerLeaf", "seed", "run"});
    cmd.Parse(argc, argv);

    if (hostsPerLeaf < 2 || hostsPerLeaf > 64)
    {
        InterconnectConfigError("--hostsPerLeaf", std::to_string(hostsPerLeaf), "2..64");
    }
    if (!(loss >= 0 && loss <= 0.5))
    {
        InterconnectConfigError("--loss", std::to_string(loss), "a fraction in 0..0.5");
    }
    if (seed == 0)
    {
        InterconnectConfigError("--seed", "0", "a seed >= 1");
    }
    tcp = ResolveTcpCongestionControl("--tcp", tcp);
    Setup s{hostsPerLeaf,
            CommandLineValues::Bytes("--flowSize", flowSize, 1),
            CommandLineValues::Bytes("--victimSize", victimSize, 1),
            CommandLineValues::Rate("--rate", rate),
            CommandLineValues::Duration("--delay", delay),
            loss,
            tcp,
            roceCc,
            CommandLineValues::Bytes("--ecnK", ecnK, 1, uint64_t{1} << 30),
            RdmaVerb::WRITE,
            false,
            pcap,
            out};
    if (verb != "write" && verb != "send" && verb != "read")
    {
        InterconnectConfigError("--verb", verb, "write, send or read");
    }
    s.verb = verb == "write" ? RdmaVerb::WRITE : verb == "send" ? RdmaVerb::SEND : RdmaVerb::READ;
    s.markers = markers;
    std::string error;
    if (!pcap.empty() && !CreateOutputDirectory(pcap, &error))
    {
        InterconnectConfigError("--pcap", pcap, "a directory that can be created");
    }
    RngSeedManager::SetSeed(seed);
    RngSeedManager::SetRun(run);

    RoceStatistics roceStats;
    RoceStatistics iwarpStats;
    const std::vector<FlowRecord> roceFlows = RunOnce(s, false, roceStats);
    const std::vector<FlowRecord> iwarpFlows = RunOnce(s, true, iwarpStats);

    const std::string csv = out + "/compare.csv";
    FILE* f = std::fopen(csv.c_str(), "w");
    if (!f)
    {
        InterconnectConfigError("--out", out, "a directory where compare.csv can be written");
    }
    std::fprintf(f, "flow,src,dst,bytes,roce_fct_ns,iwarp_fct_ns,roce_ideal_ns,iwarp_ideal_ns\n");
    std::printf("iwarp-vs-roce: %u-to-1 incast of %s %" PRIu64 " B and a %" PRIu64
                " B victim flow, %s links, loss %g\n",
                hostsPerLeaf,
                verb.c_str(),
                s.flowBytes,
                s.victimBytes,
                rate.c_str(),
                loss);
    std::printf("  RoCEv2: PFC on priority 3, %s.  iWARP: %s on lossy priority 0, ECN at %" PRIu64
                " B\n",
                roceCc.c_str(),
                tcp.c_str(),
                s.ecnK);
    std::printf("  %-5s %-9s %12s %12s %8s\n", "flow", "src->dst", "RoCE us", "iWARP us", "ratio");
    bool allDone = true;
    for (std::size_t i = 0; i < roceFlows.size(); ++i)
    {
        const FlowRecord& r = roceFlows[i];
        const FlowRecord& w = iwarpFlows[i];
        const bool done = !r.end.IsZero() && !w.end.IsZero();
        allDone = allDone && done;
        const int64_t rf = r.end.IsZero() ? -1 : (r.end - r.start).GetNanoSeconds();
        const int64_t wf = w.end.IsZero() ? -1 : (w.end - w.start).GetNanoSeconds();
        std::fprintf(f,
                     "%zu,%u,%u,%" PRIu64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 "\n",
                     i,
                     r.src,
                     r.dst,
                     r.bytes,
                     rf,
                     wf,
                     r.idealFct.GetNanoSeconds(),
                     w.idealFct.GetNanoSeconds());
        std::printf("  %-5zu %3u->%-4u %12.1f %12.1f %8.2f%s\n",
                    i,
                    r.src,
                    r.dst,
                    rf / 1e3,
                    wf / 1e3,
                    rf > 0 && wf > 0 ? double(wf) / rf : 0.0,
                    i + 1 == roceFlows.size() ? "  (victim)" : "");
    }
    std::fclose(f);
    std::printf("  RoCE: PFC frames %" PRIu64 ", CNPs %" PRIu64 ", retransmitted %" PRIu64
                ", lost %" PRIu64 "\n",
                roceStats.pfcSent,
                roceStats.cnpsSent,
                roceStats.retransmitted,
                roceStats.dropsLink + roceStats.dropsBuffer);
    std::printf("  iWARP: FPDUs %" PRIu64 ", ECN marks %" PRIu64 ", lost %" PRIu64 "\n",
                iwarpStats.dataFrames,
                iwarpStats.ecnMarks,
                iwarpStats.dropsLink + iwarpStats.dropsBuffer);
    std::printf("  wrote %s, %s/roce/, %s/iwarp/\n", csv.c_str(), out.c_str(), out.c_str());
    return allDone ? 0 : 1;
}

int
main(int argc, char* argv[])
{
    return ns3::ReportConfigErrors([&]() { return Main(argc, argv); });
}
