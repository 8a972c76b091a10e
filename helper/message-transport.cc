/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "message-transport.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

namespace ns3
{

bool
WriteFlowsCsv(const std::string& path, const std::vector<FlowRecord>& flows)
{
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f)
    {
        return false;
    }
    std::fprintf(f, "id,src,dst,verb,size,priority,start_ns,end_ns,fct_ns,ideal_fct_ns,slowdown\n");
    for (const auto& r : flows)
    {
        std::fprintf(f,
                     "%" PRIu64 ",%u,%u,%s,%" PRIu64 ",%u,%" PRId64 ",",
                     r.id,
                     r.src,
                     r.dst,
                     RdmaVerbName(r.verb).c_str(),
                     r.bytes,
                     static_cast<unsigned>(r.priority),
                     r.start.GetNanoSeconds());
        if (r.end.IsZero())
        {
            std::fprintf(f, ",,%" PRId64 ",\n", r.idealFct.GetNanoSeconds());
            continue;
        }
        const Time fct = r.end - r.start;
        std::fprintf(f,
                     "%" PRId64 ",%" PRId64 ",%" PRId64 ",%.6f\n",
                     r.end.GetNanoSeconds(),
                     fct.GetNanoSeconds(),
                     r.idealFct.GetNanoSeconds(),
                     fct.GetDouble() / r.idealFct.GetDouble());
    }
    return std::fclose(f) == 0;
}

bool
TransportStatistics::WriteJson(const std::string& path, uint64_t events) const
{
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f)
    {
        return false;
    }
    const std::pair<const char*, uint64_t> fields[] = {
        {"messagesPosted", messagesPosted},
        {"messagesCompleted", messagesCompleted},
        {"bytesDelivered", bytesDelivered},
        {"dropsBuffer", dropsBuffer},
        {"dropsNoRoute", dropsNoRoute},
        {"dropsNotIpv4", dropsNotIpv4},
        {"dropsLink", dropsLink},
        {"headroomOverflows", headroomOverflows},
        {"pfcFramesSent", pfcSent},
        {"pfcFramesReceived", pfcReceived},
        {"pausedTimeNs", pausedTimeNs},
        {"ecnMarks", ecnMarks},
        {"cnpsSent", cnpsSent},
        {"cnpsReceived", cnpsReceived},
        {"retransmittedPackets", retransmitted},
        {"timeouts", timeouts},
        {"naksReceived", naks},
        {"dataFramesSent", dataFrames},
        {"peakBufferBytes", peakBufferBytes},
        {"packetHops", packetHops},
        {"events", events},
    };
    std::fprintf(f, "{\n");
    const std::size_t n = sizeof(fields) / sizeof(fields[0]);
    for (std::size_t i = 0; i < n; ++i)
    {
        std::fprintf(f,
                     "  \"%s\": %" PRIu64 "%s\n",
                     fields[i].first,
                     fields[i].second,
                     i + 1 < n ? "," : "");
    }
    std::fprintf(f, "}\n");
    return std::fclose(f) == 0;
}

Time
StoreAndForward(const std::vector<uint32_t>& packets, const std::vector<PathHop>& path)
{
    // Plain time steps, not Time objects: before Simulator::Run every Time is registered with
    // the resolution bookkeeping, which makes large vectors of them slow.
    std::vector<int64_t> ready(packets.size(), 0);
    for (const auto& hop : path)
    {
        const int64_t delay = hop.delay.GetTimeStep();
        const int64_t latency = hop.latency.GetTimeStep();
        int64_t linkFree = 0;
        uint32_t lastSize = 0;
        int64_t lastWire = 0;
        for (std::size_t j = 0; j < packets.size(); ++j)
        {
            if (packets[j] != lastSize)
            {
                lastSize = packets[j];
                lastWire = hop.wireTime(packets[j]).GetTimeStep();
            }
            linkFree = std::max(ready[j], linkFree) + lastWire;
            ready[j] = linkFree + delay + latency;
        }
    }
    return TimeStep(ready.empty() ? 0 : ready.back());
}

} // namespace ns3
