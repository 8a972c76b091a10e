/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// How to write and select your own RDMA congestion control, in one file.
//
// 1. Subclass RdmaCongestionControl and override the hooks you need:
//      OnStart(qp)          set the initial rate / window
//      OnSend(qp, bytes)    a packet is about to leave
//      OnAck(qp, ack)       ack.ackedBytes, ack.rtt, ack.ecnEcho, ack.intStack (HPCC's INT)
//      OnCnp(qp)            a congestion notification packet arrived (DCQCN's signal)
//      OnLoss(qp, timeout)  a NAK or a retransmission timeout
//      NeedsInt()           return true to get switch telemetry on your data packets
//    Act through qp->SetRate(DataRate) and qp->SetWindow(bytes) (0 = no window).
// 2. Give it a TypeId with attributes, as any ns-3 object.
// 3. Select it by name: roce.SetNicAttribute("CongestionControl", StringValue("ns3::..."))
//    or, in this program, --cc=ns3::ExampleAimdCongestionControl (the default).
// 4. Or run it in the scenario runner, which loads it from a shared library of its own (a
//    plugin): this file, compiled without main() (INTERCONNECT_CC_PLUGIN), is
//    build/examples/libcustom-congestion-control.so, and
//      interconnect-run examples/scenarios/incast-pfc.json
//          --set nic.ccLibrary=$PWD/build/examples/libcustom-congestion-control.so
//          --set nic.cc=ns3::ExampleAimdCongestionControl
//          --ns3::ExampleAimdCongestionControl::RateStep=50Mbps
//    (one command line) runs the incast with it (and records the library, the TypeId and the
//    attribute in config.json). A plugin of one's own is built the same way against the installed
//    module:
//      add_library(my-cc MODULE my-cc.cc)
//      target_link_libraries(my-cc PRIVATE ns3::interconnect)
//
// The algorithm below is a plain AIMD on CNPs: halve the rate on a CNP, add RateStep per
// acknowledged kilobyte otherwise. Two senders share one receiver's 25 Gb/s link.

#include "ns3/core-module.h"
#include "ns3/interconnect-module.h"

#include <cstdio>

using namespace ns3;

namespace ns3
{

/// AIMD on congestion notifications: the smallest useful RDMA congestion control.
class ExampleAimdCongestionControl : public RdmaCongestionControl
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::ExampleAimdCongestionControl")
                .SetParent<RdmaCongestionControl>()
                .SetGroupName("Interconnect")
                .AddConstructor<ExampleAimdCongestionControl>()
                .AddAttribute("RateStep",
                              "Rate added per acknowledged kilobyte",
                              DataRateValue(DataRate("20Mbps")),
                              MakeDataRateAccessor(&ExampleAimdCongestionControl::m_step),
                              MakeDataRateChecker());
        return tid;
    }

    std::string GetName() const override
    {
        return "example-aimd";
    }

    void OnStart(Ptr<RdmaQueuePair> qp) override
    {
        m_rate = qp->GetLineRate().GetBitRate();
        qp->SetRate(qp->GetLineRate());
    }

    void OnCnp(Ptr<RdmaQueuePair> qp) override
    {
        m_rate = std::max(m_rate / 2, 100e6); // multiplicative decrease, 100 Mb/s floor
        qp->SetRate(DataRate(static_cast<uint64_t>(m_rate)));
    }

    void OnAck(Ptr<RdmaQueuePair> qp, const RdmaAckInfo& ack) override
    {
        m_rate += m_step.GetBitRate() * ack.ackedBytes / 1024.0; // additive increase
        m_rate = std::min(m_rate, static_cast<double>(qp->GetLineRate().GetBitRate()));
        qp->SetRate(DataRate(static_cast<uint64_t>(m_rate)));
    }

  private:
    DataRate m_step{"20Mbps"}; //!< additive step per KB acknowledged
    double m_rate{0};          //!< current rate, bit/s
};

NS_OBJECT_ENSURE_REGISTERED(ExampleAimdCongestionControl);

} // namespace ns3

#ifndef INTERCONNECT_CC_PLUGIN

/// The program; main() reports the configuration errors it throws.
static int
Main(int argc, char* argv[])
{
    std::string cc = "ns3::ExampleAimdCongestionControl";
    std::string duration = "10ms";
    std::string out = "results/examples/custom-congestion-control";
    CommandLine cmd(__FILE__);
    cmd.AddValue("cc", "Congestion control (short or TypeId name)", cc);
    cmd.AddValue("duration", "Simulated time", duration);
    cmd.AddValue("out", "Output directory", out);
    cmd.Parse(argc, argv);
    const std::string ccTypeId = RdmaCongestionControl::ResolveName("--cc", cc);
    const Time stop = CommandLineValues::Duration("--duration", duration, MicroSeconds(100));

    RoceHelper roce;
    roce.SetDeviceAttribute("DataRate", StringValue("25Gbps"));
    roce.SetNicAttribute("CongestionControl", StringValue(ccTypeId));
    roce.SetNicAttribute("CnpInterval", StringValue("20us"));
    Ptr<Node> s0 = roce.AddHost();
    Ptr<Node> s1 = roce.AddHost();
    Ptr<Node> receiver = roce.AddHost();
    Ptr<Node> sw = roce.AddSwitch();
    roce.Link(s0, sw);
    roce.Link(s1, sw);
    roce.Link(receiver, sw);
    roce.Finalize();
    RoceTransport rdma(roce);
    roce.AssignStreams(1);
    RoceTimeSeries series(MicroSeconds(100));
    for (uint32_t i = 0; i < 2; ++i)
    {
        const uint64_t id = rdma.Post(i, 2, RdmaVerb::WRITE, 100000000, Time(0), 3);
        series.AddFlow("flow" + std::to_string(i), rdma.GetFlowQueuePair(id, true));
    }
    series.AddQueue("receiver-port", roce.GetSwitch(0), 2, 3);
    series.Start(Time(0), stop);
    Simulator::Stop(stop);
    Simulator::Run();

    RunRecord record("custom-congestion-control");
    record.Set("cc", ccTypeId);
    record.Set("duration", std::to_string(stop.GetNanoSeconds()) + "ns");
    record.CaptureSeed();
    record.CaptureAttributeDefaults("Interconnect");
    WriteRunOutputs(out, rdma, record);
    series.WriteRatesCsv(out + "/rates.csv");
    series.WriteQueuesCsv(out + "/queue.csv");
    const Time half = stop / 2;
    const double r0 = series.MeanRate(0, half, stop);
    const double r1 = series.MeanRate(1, half, stop);
    std::printf("custom-congestion-control: %s, second half: %.2f + %.2f Gb/s, Jain %.3f, "
                "queue %.1f KB\n",
                ccTypeId.c_str(),
                r0 / 1e9,
                r1 / 1e9,
                RoceTimeSeries::JainIndex({r0, r1}),
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

#endif // INTERCONNECT_CC_PLUGIN
