/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Quickstart: two hosts and one switch, one RDMA WRITE.
//
//   host0 ---- switch ---- host1        (full-duplex Ethernet, --rate, --delay)
//
// host0 writes --flowSize bytes into host1's memory over RoCEv2 (reliable connection, PFC on
// priority 3). The program prints the flow completion time (FCT) next to the ideal FCT (the
// same message alone on the idle network: every frame serialized with its Ethernet, IPv4, UDP,
// InfiniBand headers and ICRC, preamble, FCS and gap, store-and-forward at the switch,
// propagation, and the final ACK back), and writes, in --out:
//   flows.csv     id,src,dst,verb,size,priority,workload,queue_pair,start_ns,end_ns,fct_ns,
//                 ideal_fct_ns,slowdown
//   summary.json  counters of the whole network (drops, PFC, CNPs, bytes, events)
//   config.json   the resolved parameters and the seed (rerun with them to get the same bytes)
//
// This is what `./interconnect run quickstart` runs until the scenario runner lands.

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
    std::string flowSize = "1MB";
    std::string rate = "100Gbps";
    std::string delay = "1us";
    std::string verb = "write";
    uint32_t seed = 1;
    uint32_t run = 1;
    std::string out = "results/examples/quickstart";

    CommandLine cmd(__FILE__);
    cmd.AddValue("flowSize", "Bytes host0 moves (>= 1; units B, KB, MB, KiB, ...)", flowSize);
    cmd.AddValue("rate", "Rate of both links (e.g. 100Gbps)", rate);
    cmd.AddValue("delay", "Propagation delay of each link (e.g. 1us)", delay);
    cmd.AddValue("verb", "write, send or read (read moves the bytes from host1 to host0)", verb);
    cmd.AddValue("seed", "RngSeedManager seed (>= 1)", seed);
    cmd.AddValue("run", "RngSeedManager run number", run);
    cmd.AddValue("out", "Directory for flows.csv, summary.json and config.json", out);
    // ns-3 would read "1e3" as 1 and "-1" as 4294967295: check the whole numbers' text first.
    CommandLineValues::RequireWholeNumbers(argc, argv, {"seed", "run"});
    cmd.Parse(argc, argv);

    const uint64_t bytes = CommandLineValues::Bytes("--flowSize", flowSize, 1);
    const DataRate linkRate = CommandLineValues::Rate("--rate", rate);
    const Time linkDelay = CommandLineValues::Duration("--delay", delay);
    RdmaVerb rdmaVerb = RdmaVerb::WRITE;
    if (verb == "send")
    {
        rdmaVerb = RdmaVerb::SEND;
    }
    else if (verb == "read")
    {
        rdmaVerb = RdmaVerb::READ;
    }
    else if (verb != "write")
    {
        InterconnectConfigError("--verb", verb, "write, send or read");
    }
    if (seed == 0)
    {
        InterconnectConfigError("--seed", "0", "a seed >= 1");
    }
    RngSeedManager::SetSeed(seed);
    RngSeedManager::SetRun(run);

    RoceHelper roce;
    roce.SetDeviceAttribute("DataRate", DataRateValue(linkRate));
    roce.SetChannelAttribute("Delay", TimeValue(linkDelay));
    Ptr<Node> host0 = roce.AddHost();
    Ptr<Node> host1 = roce.AddHost();
    Ptr<Node> sw = roce.AddSwitch();
    roce.Link(host0, sw);
    roce.Link(host1, sw);
    roce.Finalize();
    RoceTransport rdma(roce);
    roce.AssignStreams(1);
    rdma.Post(0, 1, rdmaVerb, bytes, MicroSeconds(1), 3);

    Simulator::Run();

    RunRecord record("quickstart");
    record.Set("flowSize", bytes);
    record.Set("rate", std::to_string(linkRate.GetBitRate()) + "bps");
    record.Set("delay", std::to_string(linkDelay.GetNanoSeconds()) + "ns");
    record.Set("verb", verb);
    record.Set("transport", "roce");
    record.CaptureSeed();
    record.CaptureAttributeDefaults("Interconnect");
    WriteRunOutputs(out, rdma, record);

    const FlowRecord& f = rdma.GetFlows().at(0);
    Simulator::Destroy();
    if (f.end.IsZero())
    {
        std::cerr << "error: the message did not complete" << std::endl;
        return 1;
    }
    const Time fct = f.end - f.start;
    std::printf("quickstart: RDMA %s of %" PRIu64 " bytes, host0 -> host1 through one switch\n",
                verb.c_str(),
                bytes);
    std::printf("  FCT %.3f us (ideal %.3f us, slowdown %.4f)\n",
                fct.GetNanoSeconds() / 1e3,
                f.idealFct.GetNanoSeconds() / 1e3,
                fct.GetDouble() / f.idealFct.GetDouble());
    std::printf("  wrote %s/flows.csv, summary.json and config.json\n", out.c_str());
    return 0;
}

int
main(int argc, char* argv[])
{
    return ns3::ReportConfigErrors([&]() { return Main(argc, argv); });
}
