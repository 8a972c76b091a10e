/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Congestion control on a dumbbell: N long RDMA flows share one bottleneck.
//
//   sender 0 --+                          +-- receiver 0
//   sender 1 --+-- left ==bottleneck== right --+-- receiver 1
//     ...      |                          |      ...
//
// Flow i writes from sender i to receiver i until --duration; with --stagger=T flow i starts
// at i x T (the staggered-start experiment of the DCQCN and HPCC papers), else all at once.
// Switches mark ECN as the algorithm expects: DCQCN with RED (the paper's 5 KB / 200 KB / 1%,
// or the HPCC simulator's thresholds with --preset=hpcc-sim), DCTCP with a step at
// K = 30 KB per 10 Gb/s; HPCC and TIMELY without ECN (HPCC reads INT, TIMELY the RTT).
//
// Outputs in --out:
//   rates.csv    time_ns,flow,rate_bps    every --interval, each flow's delivered rate
//   queue.csv    time_ns,queue,bytes      the bottleneck egress queue (priority 3)
//   flows.csv, summary.json, config.json  as every example
// `scripts/cc-figures.sh` turns these into the figures of doc/interconnect.rst.

#include "ns3/core-module.h"
#include "ns3/interconnect-module.h"

#include <cstdio>
#include <iostream>

using namespace ns3;

/// The program; main() reports the configuration errors it throws.
static int
Main(int argc, char* argv[])
{
    std::string cc = "dcqcn";
    std::string preset = "paper";
    uint32_t flows = 2;
    std::string rate = "25Gbps";
    std::string bottleneck = "";
    std::string delay = "1us";
    std::string duration = "20ms";
    std::string stagger = "0s";
    std::string interval = "100us";
    uint32_t seed = 1;
    std::string out = "results/examples/cc-dumbbell";

    CommandLine cmd(__FILE__);
    cmd.AddValue("cc", "Congestion control: none, dcqcn, hpcc, timely, dctcp or a TypeId name", cc);
    cmd.AddValue("preset", "DCQCN parameters: paper or hpcc-sim", preset);
    cmd.AddValue("flows", "Number of long flows (1..256)", flows);
    cmd.AddValue("rate", "Rate of the host links", rate);
    cmd.AddValue("bottleneck", "Rate of the bottleneck link (default: --rate)", bottleneck);
    cmd.AddValue("delay", "Propagation delay of every link", delay);
    cmd.AddValue("duration", "Simulated time", duration);
    cmd.AddValue("stagger", "Start of flow i at i x stagger (0: all at once)", stagger);
    cmd.AddValue("interval", "Sampling interval of rates and queue", interval);
    cmd.AddValue("seed", "RngSeedManager seed (>= 1)", seed);
    cmd.AddValue("out", "Output directory", out);
    // ns-3 would read "1e3" as 1 and "-1" as 4294967295: check the whole numbers' text first.
    CommandLineValues::RequireWholeNumbers(argc, argv, {"flows", "seed"});
    cmd.Parse(argc, argv);

    const std::string ccTypeId = RdmaCongestionControl::ResolveName("--cc", cc);
    if (preset != "paper" && preset != "hpcc-sim")
    {
        InterconnectConfigError("--preset", preset, "paper or hpcc-sim");
    }
    if (flows < 1 || flows > 256)
    {
        InterconnectConfigError("--flows", std::to_string(flows), "1..256");
    }
    const DataRate hostRate = CommandLineValues::Rate("--rate", rate);
    const DataRate coreRate =
        bottleneck.empty() ? hostRate : CommandLineValues::Rate("--bottleneck", bottleneck);
    const Time linkDelay = CommandLineValues::Duration("--delay", delay);
    const Time stop = CommandLineValues::Duration("--duration", duration, MicroSeconds(1));
    const Time staggerTime = CommandLineValues::Duration("--stagger", stagger);
    const Time sampling = CommandLineValues::Duration("--interval", interval, NanoSeconds(1));
    if (seed == 0)
    {
        InterconnectConfigError("--seed", "0", "a seed >= 1");
    }
    RngSeedManager::SetSeed(seed);
    if (cc == "dcqcn" || ccTypeId == "ns3::DcqcnCongestionControl")
    {
        DcqcnCongestionControl::ApplyPreset(preset, hostRate);
    }

    RoceHelper roce;
    roce.SetDeviceAttribute("DataRate", DataRateValue(hostRate));
    roce.SetChannelAttribute("Delay", TimeValue(linkDelay));
    roce.SetNicAttribute("CongestionControl", StringValue(ccTypeId));
    const double per10G = hostRate.GetBitRate() / 10e9;
    const double per25G = hostRate.GetBitRate() / 25e9;
    if (ccTypeId == "ns3::DctcpRdmaCongestionControl")
    {
        const uint32_t k = static_cast<uint32_t>(30000 * per10G); // HPCC artifact's DCTCP K
        roce.SetMmuAttribute("EcnKmin", UintegerValue(k));
        roce.SetMmuAttribute("EcnKmax", UintegerValue(k + 1));
        roce.SetMmuAttribute("EcnPmax", DoubleValue(1.0));
    }
    else if (ccTypeId == "ns3::DcqcnCongestionControl" && preset == "hpcc-sim")
    {
        roce.SetMmuAttribute("EcnKmin", UintegerValue(static_cast<uint32_t>(100000 * per25G)));
        roce.SetMmuAttribute("EcnKmax", UintegerValue(static_cast<uint32_t>(400000 * per25G)));
        roce.SetMmuAttribute("EcnPmax", DoubleValue(0.2));
    }
    else if (ccTypeId != "ns3::DcqcnCongestionControl")
    {
        roce.SetMmuAttribute("EcnEnabled", BooleanValue(false));
    }

    for (uint32_t i = 0; i < 2 * flows; ++i)
    {
        roce.AddHost(); // senders 0..N-1, receivers N..2N-1
    }
    NodeContainer hosts = roce.GetHosts();
    Ptr<Node> left = roce.AddSwitch();
    Ptr<Node> right = roce.AddSwitch();
    for (uint32_t i = 0; i < flows; ++i)
    {
        roce.Link(hosts.Get(i), left);
        roce.Link(hosts.Get(flows + i), right);
    }
    roce.SetDeviceAttribute("DataRate", DataRateValue(coreRate));
    roce.Link(left, right); // port `flows` of the left switch
    roce.Finalize();
    RoceTransport rdma(roce);
    roce.AssignStreams(1);

    RoceTimeSeries series(sampling);
    for (uint32_t i = 0; i < flows; ++i)
    {
        // Long flows: more than the bottleneck can carry in the whole run.
        const uint64_t bytes =
            static_cast<uint64_t>(coreRate.GetBitRate() / 8.0 * stop.GetSeconds()) + 1000000;
        const uint64_t id = rdma.Post(i, flows + i, RdmaVerb::WRITE, bytes, staggerTime * i, 3);
        series.AddFlow("flow" + std::to_string(i), rdma.GetFlowQueuePair(id, true));
    }
    series.AddQueue("bottleneck", roce.GetSwitch(0), flows, 3);
    series.Start(Time(0), stop);

    Simulator::Stop(stop);
    Simulator::Run();

    RunRecord record("cc-dumbbell");
    record.Set("cc", ccTypeId);
    record.Set("preset", preset);
    record.Set("flows", flows);
    record.Set("rate", std::to_string(hostRate.GetBitRate()) + "bps");
    record.Set("bottleneck", std::to_string(coreRate.GetBitRate()) + "bps");
    record.Set("delay", std::to_string(linkDelay.GetNanoSeconds()) + "ns");
    record.Set("duration", std::to_string(stop.GetNanoSeconds()) + "ns");
    record.Set("stagger", std::to_string(staggerTime.GetNanoSeconds()) + "ns");
    record.Set("interval", std::to_string(sampling.GetNanoSeconds()) + "ns");
    record.CaptureSeed();
    record.CaptureAttributeDefaults("Interconnect");
    WriteRunOutputs(out, rdma, record);
    if (!series.WriteRatesCsv(out + "/rates.csv") || !series.WriteQueuesCsv(out + "/queue.csv"))
    {
        std::cerr << "error: cannot write rates.csv or queue.csv in " << out << std::endl;
        return 1;
    }

    // Summary of the second half.
    const Time half = stop / 2;
    std::vector<double> rates;
    double total = 0;
    for (uint32_t i = 0; i < flows; ++i)
    {
        rates.push_back(series.MeanRate(i, half, stop));
        total += rates.back();
    }
    std::printf("cc-dumbbell: %s, %u flows, %s bottleneck, second half of %.1f ms:\n",
                cc.c_str(),
                flows,
                std::to_string(coreRate.GetBitRate() / 1000000000.0).substr(0, 5).c_str(),
                stop.GetSeconds() * 1e3);
    std::printf("  goodput %.2f Gb/s, Jain's index %.4f, mean bottleneck queue %.1f KB\n",
                total / 1e9,
                RoceTimeSeries::JainIndex(rates),
                series.MeanQueue(0, half, stop) / 1e3);
    std::printf("  wrote %s/{rates,queue,flows}.csv, summary.json, config.json\n", out.c_str());
    Simulator::Destroy();
    return 0;
}

int
main(int argc, char* argv[])
{
    return ns3::ReportConfigErrors([&]() { return Main(argc, argv); });
}
