/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// One InfiniBand link and its credit loop: a sender keeps a VL busy; the receiver's buffer of
// --bufferBlocks 64-byte blocks returns credits one round trip later. Below the bandwidth-delay
// product the link runs at buffer / round trip, above it at line rate. With --incast=N, N hosts
// of a k=4 fat-tree send 1 MB each to host 0 instead, and nothing is dropped.
//
//   ./interconnect example ib-credit-link --speed=EDR --width=4 --delay=1us --bufferBlocks=130
//   ./interconnect example ib-credit-link --bufferBlocks=2048
//   ./interconnect example ib-credit-link --incast=15 --bufferBlocks=130

#include "ns3/command-line-values.h"
#include "ns3/core-module.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/ib-channel.h"
#include "ns3/ib-flow-control-header.h"
#include "ns3/ib-net-device.h"
#include "ns3/ib-pcap-helper.h"
#include "ns3/ib-subnet-helper.h"
#include "ns3/interconnect-config-error.h"
#include "ns3/network-module.h"
#include "ns3/run-record.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <fstream>

using namespace ns3;

/// The program; main() reports the configuration errors it throws.
static int
Main(int argc, char* argv[])
{
    std::string speed = "EDR";
    uint32_t width = 4;
    std::string delayText = "1us";
    uint32_t bufferBlocks = 130;
    uint32_t packets = 1000;
    uint32_t mtu = 4096;
    uint32_t incast = 0;
    std::string out = "results/examples/ib-credit-link";
    std::string pcap;
    std::string verb = "raw";
    std::string pcapFormat = "erf";
    CommandLine cmd(__FILE__);
    cmd.AddValue("speed", "Link speed: SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR, XDR", speed);
    cmd.AddValue("width", "Lanes: 1, 2, 4, 8, 12", width);
    cmd.AddValue("delay", "Propagation delay of the link", delayText);
    cmd.AddValue("bufferBlocks", "Receive buffer per VL, 64-byte blocks", bufferBlocks);
    cmd.AddValue("packets", "Packets to send (one link)", packets);
    cmd.AddValue("mtu", "IB MTU: 256, 512, 1024, 2048, 4096", mtu);
    cmd.AddValue("incast", "0: one link; N (1..15): N hosts of a k=4 fat-tree into host 0", incast);
    cmd.AddValue("pcap", "Directory for pcap captures of the link (ERF, Wireshark)", pcap);
    cmd.AddValue("pcapFormat",
                 "erf (data and flow-control packets; Wireshark) or infiniband (DLT 247: data "
                 "packets from the LRH)",
                 pcapFormat);
    cmd.AddValue("verb",
                 "One link: raw (unreliable SEND packets), or write, send or read over a "
                 "reliable-connection queue pair (with ACKs; read: the data comes back)",
                 verb);
    cmd.AddValue("out", "Output directory", out);
    // ns-3 would read "1e3" as 1 and "-1" as 4294967295: check the whole numbers' text first.
    CommandLineValues::RequireWholeNumbers(argc,
                                           argv,
                                           {"width", "bufferBlocks", "packets", "mtu", "incast"});
    cmd.Parse(argc, argv);
    const Time delay = CommandLineValues::Duration("--delay", delayText);
    if (packets == 0)
    {
        InterconnectConfigError("--packets", "0", "at least 1");
    }
    if (pcapFormat != "erf" && pcapFormat != "infiniband")
    {
        InterconnectConfigError("--pcapFormat", pcapFormat, "erf or infiniband");
    }
    if (verb != "raw" && verb != "write" && verb != "send" && verb != "read")
    {
        InterconnectConfigError("--verb", verb, "raw, write, send or read");
    }
    if (incast > 15)
    {
        InterconnectConfigError("--incast", std::to_string(incast), "0..15");
    }
    const std::vector<std::string> speeds =
        {"SDR", "DDR", "QDR", "FDR10", "FDR", "EDR", "HDR", "NDR", "XDR"};
    if (std::find(speeds.begin(), speeds.end(), speed) == speeds.end())
    {
        InterconnectConfigError("--speed",
                                speed,
                                "SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR or XDR");
    }
    if (width != 1 && width != 2 && width != 4 && width != 8 && width != 12)
    {
        InterconnectConfigError("--width", std::to_string(width), "1, 2, 4, 8 or 12");
    }
    if (mtu != 256 && mtu != 512 && mtu != 1024 && mtu != 2048 && mtu != 4096)
    {
        InterconnectConfigError("--mtu", std::to_string(mtu), "256, 512, 1024, 2048 or 4096");
    }
    // A VL's buffer must hold one MTU packet: LRH, BTH, RETH, payload, ICRC and VCRC.
    const uint32_t packetBlocks = (mtu + 42 + 63) / 64;
    if (bufferBlocks < packetBlocks || bufferBlocks > (1u << 20))
    {
        InterconnectConfigError("--bufferBlocks",
                                std::to_string(bufferBlocks),
                                std::to_string(packetBlocks) + " (one packet of --mtu " +
                                    std::to_string(mtu) + ") to 1048576");
    }
    Config::SetDefault("ns3::IbNetDevice::Speed", StringValue(speed));
    Config::SetDefault("ns3::IbNetDevice::Width", UintegerValue(width));
    Config::SetDefault("ns3::IbNetDevice::ReceiveBufferBlocks", UintegerValue(bufferBlocks));
    Config::SetDefault("ns3::IbNetDevice::Mtu", UintegerValue(mtu));

    RunRecord record("ib-credit-link");
    record.Set("speed", speed);
    record.Set("width", width);
    record.Set("delay", std::to_string(delay.GetNanoSeconds()) + "ns");
    record.Set("bufferBlocks", bufferBlocks);
    record.Set("packets", packets);
    record.Set("mtu", mtu);
    record.Set("incast", incast);
    record.Set("pcap", pcap);
    record.Set("verb", verb);
    record.Set("pcapFormat", pcapFormat);
    record.CaptureSeed();
    record.CaptureAttributeDefaults("Interconnect");
    record.Write(out + "/config.json");

    if (incast > 0)
    {
        FatTreeHelper fabric(4);
        fabric.SetDelay(delay);
        const IbSubnet s = IbSubnetHelper().Build(fabric);
        const uint64_t bytes = 1000000;
        for (uint32_t a = 1; a <= incast; ++a)
        {
            Simulator::Schedule(MicroSeconds(10),
                                &IbHostAdapter::Send,
                                s.adapters[a],
                                s.GetLid(0),
                                bytes,
                                0);
        }
        // Links send flow-control packets periodically for ever: stop when host 0 has all.
        s.adapters[0]->TraceConnectWithoutContext(
            "Message",
            MakeCallback(+[](Ptr<IbHostAdapter> sink, uint32_t n, uint16_t, uint64_t) {
                if (sink->GetMessages().size() == n)
                {
                    Simulator::Stop();
                }
            }).Bind(s.adapters[0], incast));
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        uint64_t violations = 0;
        for (const auto& port : s.ports)
        {
            violations += port->GetCreditViolations();
        }
        Time last(0);
        std::ofstream csv(out + "/messages.csv");
        csv << "slid,bytes,end_ns\n";
        for (const auto& m : s.adapters[0]->GetMessages())
        {
            last = std::max(last, m.end);
            csv << m.slid << "," << m.bytes << "," << m.end.GetNanoSeconds() << "\n";
        }
        std::printf("ib-credit-link: incast of %u x 1 MB into host 0 of a k=4 fat-tree, %s %ux, "
                    "%u blocks per VL\n",
                    incast,
                    speed.c_str(),
                    width,
                    bufferBlocks);
        std::printf("  %zu/%u messages, %.1f us, %.1f Gb/s into host 0, %" PRIu64
                    " packets without buffer\n",
                    s.adapters[0]->GetMessages().size(),
                    incast,
                    (last - MicroSeconds(10)).GetMicroSeconds() * 1.0,
                    s.adapters[0]->GetBytesReceived() * 8.0 /
                        (last - MicroSeconds(10)).GetSeconds() / 1e9,
                    violations);
        std::printf("  wrote %s/config.json, messages.csv\n", out.c_str());
        Simulator::Destroy();
        return 0;
    }

    Ptr<Node> na = CreateObject<Node>();
    Ptr<Node> nb = CreateObject<Node>();
    Ptr<IbNetDevice> a = CreateObject<IbNetDevice>();
    Ptr<IbNetDevice> b = CreateObject<IbNetDevice>();
    na->AddDevice(a);
    nb->AddDevice(b);
    Ptr<IbChannel> channel = CreateObject<IbChannel>();
    channel->SetAttribute("Delay", TimeValue(delay));
    a->Attach(channel);
    b->Attach(channel);
    const uint32_t packetBytes = mtu + 8 + 12 + 4; // LRH, BTH, payload, ICRC
    Ptr<IbHostAdapter> sender = CreateObject<IbHostAdapter>();
    Ptr<IbHostAdapter> receiver = CreateObject<IbHostAdapter>();
    na->AggregateObject(sender);
    nb->AggregateObject(receiver);
    sender->Install(a, 1);
    receiver->Install(b, 2);
    if (!pcap.empty())
    {
        const auto format = pcapFormat == "erf" ? IbPcapHelper::ERF : IbPcapHelper::INFINIBAND;
        IbPcapHelper::EnablePcap(pcap + "/ib-credit-link", a, format);
        IbPcapHelper::EnablePcap(pcap + "/ib-credit-link", b, format);
    }
    std::vector<Time> arrivals;
    // The data arrives at b, or for a READ at a (b then sees the request only).
    Ptr<IbNetDevice> dataSink = verb == "read" ? a : b;
    dataSink->TraceConnectWithoutContext(
        "MacRx",
        MakeCallback(+[](std::vector<Time>* t, uint32_t n, Ptr<const Packet>) {
            t->push_back(Simulator::Now());
            if (t->size() == n)
            {
                Simulator::Stop(); // flow control would run for ever
            }
        }).Bind(&arrivals, packets));
    if (verb == "raw")
    {
        // One message of `packets` MTU-sized SEND packets from LID 1 to LID 2, on SL 0 (VL 0).
        Simulator::Schedule(MicroSeconds(10),
                            &IbHostAdapter::Send,
                            sender,
                            2,
                            uint64_t(packets) * mtu,
                            0);
    }
    else
    {
        // The same bytes as one message of a reliable connection, on SL 0.
        auto qps = IbHostAdapter::ConnectPair(sender, receiver, 0);
        const RdmaVerb v = verb == "write"  ? RdmaVerb::WRITE
                           : verb == "send" ? RdmaVerb::SEND
                                            : RdmaVerb::READ;
        Simulator::Schedule(MicroSeconds(10), [qps, v, packets, mtu]() {
            qps.first->Post(v, uint64_t(packets) * mtu, RdmaQueuePair::CompletionCallback());
        });
    }
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    const double rate = a->GetDataRate().GetBitRate();
    const uint32_t blocks = IbNetDevice::Blocks(packetBytes);
    const double wire = packetBytes + IbNetDevice::VCRC;
    const double roundTrip =
        wire * 8 / rate + IbFlowControlHeader::SIZE * 8 / rate + 2 * delay.GetSeconds();
    const uint32_t window = bufferBlocks / blocks; // whole packets the buffer holds
    const double predicted = std::min(rate, window * wire * 8 / roundTrip);
    const std::size_t first = std::min<std::size_t>(arrivals.size() - 1, arrivals.size() / 10);
    const double measured = arrivals.size() > first + 1
                                ? (arrivals.size() - 1 - first) * wire * 8 /
                                      (arrivals.back() - arrivals[first]).GetSeconds()
                                : 0;
    std::ofstream csv(out + "/throughput.csv");
    csv << "rate_bps,round_trip_ns,window_packets,predicted_bps,measured_bps\n"
        << rate << "," << roundTrip * 1e9 << "," << window << "," << predicted << "," << measured
        << "\n";
    std::printf("ib-credit-link: %s, %s %ux (%.2f Gb/s), delay %s, %u blocks per VL (%u packets of "
                "%u blocks)\n",
                verb.c_str(),
                speed.c_str(),
                width,
                rate / 1e9,
                delayText.c_str(),
                bufferBlocks,
                window,
                blocks);
    std::printf("  credit round trip %.1f ns; predicted %.2f Gb/s (%s), measured %.2f Gb/s; "
                "%" PRIu64 " flow-control packets, %" PRIu64 " packets without buffer\n",
                roundTrip * 1e9,
                predicted / 1e9,
                predicted < rate ? "buffer / round trip" : "line rate",
                measured / 1e9,
                dataSink->GetFlowControlPacketsSent(),
                dataSink->GetCreditViolations());
    std::printf("  wrote %s/config.json, throughput.csv%s\n",
                out.c_str(),
                pcap.empty() ? "" : (", and captures in " + pcap).c_str());
    Simulator::Destroy();
    return 0;
}

int
main(int argc, char* argv[])
{
    return ns3::ReportConfigErrors([&]() { return Main(argc, argv); });
}
