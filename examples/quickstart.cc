/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Quickstart: two hosts and one Ethernet switch, one TCP transfer.
//
//   host0 ---- switch ---- host1        (full-duplex links, --rate, --delay)
//
// host0 sends --flowSize bytes to host1 over ns-3 TCP. The program prints the flow completion
// time (FCT) and writes, in --out:
//   flows.csv    id,src,dst,size,start_ns,end_ns,fct_ns,ideal_fct_ns,slowdown,transport
//   config.json  the resolved parameters and the seed (rerun with them to get the same bytes)
//
// This is the placeholder behind `./interconnect run quickstart` until the scenario runner
// lands; the switch is an ns-3 IPv4 node forwarding between two point-to-point links (an L3
// switch), not yet the module's own shared-buffer switch.
//
// Ideal FCT: the TCP handshake (one round trip of propagation), then every data frame
// serialized back to back at line rate, plus the store-and-forward of the last frame at the
// switch and the propagation of both links. Slowdown = FCT / ideal FCT.

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/run-record.h"

#include <cinttypes>
#include <cstdio>
#include <iostream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("Quickstart");

namespace
{

/// Bytes of one frame on the wire around a TCP segment of `payload` bytes.
uint32_t
WireBytesPerSegment(uint32_t payload)
{
    const uint32_t tcpIp = 20 + 20 + 12; // IPv4 + TCP + timestamp option (ns-3 default)
    const uint32_t ppp = 2;              // PointToPointNetDevice's PPP header
    return payload + tcpIp + ppp;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint64_t flowSize = 1000000;
    DataRate rate("10Gbps");
    Time delay = MicroSeconds(1);
    uint32_t seed = 1;
    uint32_t run = 1;
    std::string out = "results/quickstart";

    CommandLine cmd(__FILE__);
    cmd.AddValue("flowSize", "Bytes host0 sends to host1 (>= 1)", flowSize);
    cmd.AddValue("rate", "Rate of both links (e.g. 10Gbps)", rate);
    cmd.AddValue("delay", "Propagation delay of each link (e.g. 1us)", delay);
    cmd.AddValue("seed", "RngSeedManager seed (>= 1)", seed);
    cmd.AddValue("run", "RngSeedManager run number", run);
    cmd.AddValue("out", "Directory for flows.csv and config.json", out);
    cmd.Parse(argc, argv);

    if (flowSize == 0)
    {
        std::cerr << "error: --flowSize=0: the flow must carry at least 1 byte" << std::endl;
        return 1;
    }
    if (rate.GetBitRate() == 0)
    {
        std::cerr << "error: --rate=0bps: the link rate must be positive (e.g. 10Gbps)"
                  << std::endl;
        return 1;
    }
    if (delay.IsNegative())
    {
        std::cerr << "error: --delay=" << delay.As(Time::US)
                  << ": the propagation delay must be >= 0" << std::endl;
        return 1;
    }
    if (seed == 0)
    {
        std::cerr << "error: --seed=0: ns-3 seeds must be >= 1" << std::endl;
        return 1;
    }
    RngSeedManager::SetSeed(seed);
    RngSeedManager::SetRun(run);

    const uint32_t mss = 1448; // 1500-byte MTU minus IPv4, TCP and the timestamp option
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(mss));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(4 << 20));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(4 << 20));

    NodeContainer hosts(2);
    Ptr<Node> sw = CreateObject<Node>();

    PointToPointHelper link;
    link.SetDeviceAttribute("DataRate", DataRateValue(rate));
    link.SetChannelAttribute("Delay", TimeValue(delay));
    NetDeviceContainer hostSide0 = link.Install(hosts.Get(0), sw);
    NetDeviceContainer hostSide1 = link.Install(hosts.Get(1), sw);

    InternetStackHelper internet;
    internet.Install(hosts);
    internet.Install(sw);
    Ipv4AddressHelper addresses("10.0.0.0", "255.255.255.0");
    addresses.Assign(hostSide0);
    addresses.NewNetwork();
    Ipv4InterfaceContainer interfaces = addresses.Assign(hostSide1);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    const uint16_t port = 5000;
    PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sinkApp = sinkHelper.Install(hosts.Get(1));
    BulkSendHelper sendHelper("ns3::TcpSocketFactory",
                              InetSocketAddress(interfaces.GetAddress(0), port));
    sendHelper.SetAttribute("MaxBytes", UintegerValue(flowSize));
    sendHelper.SetAttribute("SendSize", UintegerValue(mss));
    ApplicationContainer sendApp = sendHelper.Install(hosts.Get(0));
    const Time start = MicroSeconds(10);
    sendApp.Start(start);
    sinkApp.Start(Seconds(0));

    uint64_t received = 0;
    Time end;
    sinkApp.Get(0)->TraceConnectWithoutContext("Rx",
                                               MakeCallback(+[](uint64_t* count,
                                                                Time* done,
                                                                uint64_t size,
                                                                Ptr<const Packet> p,
                                                                const Address&) {
                                                   *count += p->GetSize();
                                                   if (*count >= size && done->IsZero())
                                                   {
                                                       *done = Simulator::Now();
                                                       Simulator::Stop();
                                                   }
                                               }).Bind(&received, &end, flowSize));

    Simulator::Stop(Seconds(10));
    Simulator::Run();
    Simulator::Destroy();

    if (received != flowSize || end.IsZero())
    {
        std::cerr << "error: host1 received " << received << " of " << flowSize
                  << " bytes before the 10 s limit" << std::endl;
        return 1;
    }

    // Lower bound of the FCT (see the header comment).
    const uint64_t segments = (flowSize + mss - 1) / mss;
    const uint32_t lastPayload = static_cast<uint32_t>(flowSize - (segments - 1) * mss);
    const uint64_t wireBytes =
        (segments - 1) * WireBytesPerSegment(mss) + WireBytesPerSegment(lastPayload);
    const Time serialization = rate.CalculateBytesTxTime(wireBytes);
    const Time lastFrameAgain = rate.CalculateBytesTxTime(WireBytesPerSegment(lastPayload));
    const Time handshake = 4 * delay;
    const Time ideal = handshake + serialization + lastFrameAgain + 2 * delay;
    const Time fct = end - start;
    const double slowdown = fct.GetDouble() / ideal.GetDouble();

    std::string error;
    if (!CreateOutputDirectory(out, &error))
    {
        std::cerr << "error: --out=" << out << ": " << error << std::endl;
        return 1;
    }
    const std::string flowsPath = out + "/flows.csv";
    FILE* flows = std::fopen(flowsPath.c_str(), "w");
    if (!flows)
    {
        std::cerr << "error: cannot write " << flowsPath << std::endl;
        return 1;
    }
    std::fprintf(flows, "id,src,dst,size,start_ns,end_ns,fct_ns,ideal_fct_ns,slowdown,transport\n");
    std::fprintf(flows,
                 "0,0,1,%" PRIu64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%.6f,tcp\n",
                 flowSize,
                 start.GetNanoSeconds(),
                 end.GetNanoSeconds(),
                 fct.GetNanoSeconds(),
                 ideal.GetNanoSeconds(),
                 slowdown);
    std::fclose(flows);

    RunRecord record("quickstart");
    record.Set("flowSize", flowSize);
    record.Set("rate", std::to_string(rate.GetBitRate()) + "bps");
    record.Set("delay", std::to_string(delay.GetNanoSeconds()) + "ns");
    record.Set("transport", "tcp");
    record.Set("segmentSize", mss);
    record.CaptureSeed();
    record.WriteOrExit(out + "/config.json");

    std::printf("quickstart: %" PRIu64 " bytes host0 -> host1 over TCP via one switch\n", flowSize);
    std::printf("  FCT %.3f us (ideal %.3f us, slowdown %.3f)\n",
                fct.GetNanoSeconds() / 1e3,
                ideal.GetNanoSeconds() / 1e3,
                slowdown);
    std::printf("  wrote %s and %s/config.json\n", flowsPath.c_str(), out.c_str());
    return 0;
}
