/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A user's program against the installed module: a k=4 fat-tree, a few WebSearch flows (the
// shipped CDF, found beside the installed library), DCQCN. Prints where the data came from and
// how many flows completed.

#include "ns3/core-module.h"
#include "ns3/interconnect-module.h"

#include <cstdio>

using namespace ns3;

int
main()
{
    return ReportConfigErrors([]() {
        RoceHelper roce;
        roce.Build(FatTreeHelper(4));
        RoceTransport rdma(roce);
        PoissonTraffic traffic(FlowSizeDistribution::Read("cdf", "websearch"),
                               0.3,
                               DataRate("100Gbps"));
        traffic.SetWindow(Time(0), MicroSeconds(200));
        traffic.Schedule(16, 1, [&rdma](const FlowSpec& f) {
            rdma.Post(f.src, f.dst, RdmaVerb::WRITE, f.bytes, f.start, 3);
        });
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();
        const TransportStatistics st = rdma.CollectStatistics();
        Simulator::Destroy();
        std::printf("data: %s\n", FlowSizeDistribution::DataDirectory().c_str());
        std::printf("ns-3: %s\n", interconnect::Ns3Version().c_str());
        std::printf("flows: %llu/%llu\n",
                    static_cast<unsigned long long>(st.messagesCompleted),
                    static_cast<unsigned long long>(st.messagesPosted));
        return st.messagesPosted > 0 && st.messagesCompleted == st.messagesPosted ? 0 : 1;
    });
}
