/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A program of one's own, as in an ns-3 tree's scratch/: every scratch/NAME.cc is built with
// the module, and `./interconnect example NAME [args]` builds and runs it. Copy this file to
// start one. This one writes 1 MB from one host to another through a switch over RoCEv2 and
// prints its FCT against the ideal.

#include "ns3/core-module.h"
#include "ns3/interconnect-module.h"

#include <cstdio>

using namespace ns3;

int
main(int argc, char* argv[])
{
    uint64_t bytes = 1000000;
    CommandLine cmd(__FILE__);
    cmd.AddValue("bytes", "Message size, bytes", bytes);
    cmd.Parse(argc, argv);

    RoceHelper roce;
    roce.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
    roce.SetChannelAttribute("Delay", StringValue("1us"));
    Ptr<Node> a = roce.AddHost();
    Ptr<Node> b = roce.AddHost();
    Ptr<Node> sw = roce.AddSwitch();
    roce.Link(a, sw);
    roce.Link(b, sw);
    roce.Finalize();
    RoceTransport rdma(roce);
    rdma.Post(0, 1, RdmaVerb::WRITE, bytes, MicroSeconds(1), 3);
    Simulator::Run();
    const FlowRecord f = rdma.GetFlows().at(0);
    Simulator::Destroy();
    if (f.end.IsZero())
    {
        std::fprintf(stderr, "scratch-example: the message did not complete\n");
        return 1;
    }
    std::printf("scratch-example: %llu bytes in %.3f us (ideal %.3f us)\n",
                static_cast<unsigned long long>(bytes),
                (f.end - f.start).GetSeconds() * 1e6,
                f.idealFct.GetSeconds() * 1e6);
    return 0;
}
