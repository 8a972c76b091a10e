/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "message-transport.h"

#include "ns3/simulator.h"
#include "ns3/wire-clock.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

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

std::vector<std::pair<const char*, uint64_t TransportStatistics::*>>
TransportStatistics::Fields()
{
    using T = TransportStatistics;
    return {
        {"messagesPosted", &T::messagesPosted},
        {"messagesCompleted", &T::messagesCompleted},
        {"bytesDelivered", &T::bytesDelivered},
        {"dropsBuffer", &T::dropsBuffer},
        {"dropsNoRoute", &T::dropsNoRoute},
        {"dropsNotIpv4", &T::dropsNotIpv4},
        {"dropsLink", &T::dropsLink},
        {"headroomOverflows", &T::headroomOverflows},
        {"pfcFramesSent", &T::pfcSent},
        {"pfcFramesReceived", &T::pfcReceived},
        {"pausedTimeNs", &T::pausedTimeNs},
        {"ecnMarks", &T::ecnMarks},
        {"cnpsSent", &T::cnpsSent},
        {"cnpsReceived", &T::cnpsReceived},
        {"retransmittedPackets", &T::retransmitted},
        {"timeouts", &T::timeouts},
        {"naksReceived", &T::naks},
        {"dataFramesSent", &T::dataFrames},
        {"peakBufferBytes", &T::peakBufferBytes},
        {"packetHops", &T::packetHops},
    };
}

bool
TransportStatistics::WriteJson(const std::string& path, uint64_t events) const
{
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f)
    {
        return false;
    }
    std::fprintf(f, "{\n");
    for (const auto& field : Fields())
    {
        std::fprintf(f, "  \"%s\": %" PRIu64 ",\n", field.first, this->*field.second);
    }
    std::fprintf(f, "  \"events\": %" PRIu64 "\n}\n", events);
    return std::fclose(f) == 0;
}

bool
TransportStatistics::ReadJson(const std::string& path, uint64_t* events, std::string* error)
{
    std::ifstream in(path);
    if (!in)
    {
        *error = "cannot open " + path;
        return false;
    }
    nlohmann::json j;
    try
    {
        j = nlohmann::json::parse(in);
        for (const auto& field : Fields())
        {
            this->*field.second = j.at(field.first).get<uint64_t>();
        }
        *events = j.at("events").get<uint64_t>();
    }
    catch (const nlohmann::json::exception& e)
    {
        *error = path + ": " + e.what();
        return false;
    }
    return true;
}

TransportStatistics&
TransportStatistics::operator+=(const TransportStatistics& other)
{
    for (const auto& field : Fields())
    {
        if (field.second == &TransportStatistics::peakBufferBytes)
        {
            peakBufferBytes = std::max(peakBufferBytes, other.peakBufferBytes);
        }
        else
        {
            this->*field.second += other.*field.second;
        }
    }
    return *this;
}

const std::vector<FlowRecord>&
MessageTransport::GetFlows() const
{
    return m_flows;
}

uint64_t
MessageTransport::RecordAndStart(uint32_t src,
                                 uint32_t dst,
                                 RdmaVerb verb,
                                 uint64_t bytes,
                                 Time at,
                                 uint8_t priority,
                                 uint32_t node,
                                 RdmaQueuePair::CompletionCallback done,
                                 std::function<void(RdmaQueuePair::CompletionCallback)> start)
{
    const uint64_t id = m_flows.size();
    const bool local = IsLocalHost(src);
    // Another rank's message is recorded there: no ideal FCT here.
    m_flows.push_back(FlowRecord{id,
                                 src,
                                 dst,
                                 verb,
                                 bytes,
                                 priority,
                                 at,
                                 Time(0),
                                 local ? IdealFct(src, dst, verb, bytes) : Time(0)});
    if (!local)
    {
        return id; // its source lives on another rank, which posts it
    }
    auto onDone = [this, id, done](const RdmaCompletion& c) {
        m_flows[id].end = c.completed;
        if (!done.IsNull())
        {
            done(c);
        }
    };
    Simulator::ScheduleWithContext(node, at - Simulator::Now(), [start, onDone]() {
        start(RdmaQueuePair::CompletionCallback(onDone));
    });
    return id;
}

void
MessageTransport::CountMessages(TransportStatistics& st) const
{
    for (const auto& f : m_flows)
    {
        if (!IsLocalHost(f.src))
        {
            continue; // another rank's message: counted there
        }
        ++st.messagesPosted;
        if (!f.end.IsZero())
        {
            ++st.messagesCompleted;
            st.bytesDelivered += f.verb == RdmaVerb::READ ? f.bytes : 0;
        }
    }
}

bool
ReadFlowsCsv(const std::string& path, std::vector<FlowRecord>* flows, std::string* error)
{
    std::ifstream in(path);
    if (!in)
    {
        *error = "cannot open " + path;
        return false;
    }
    std::string line;
    std::getline(in, line); // header
    uint64_t lineNo = 1;
    while (std::getline(in, line))
    {
        ++lineNo;
        std::vector<std::string> c;
        std::istringstream cells(line);
        std::string cell;
        while (std::getline(cells, cell, ','))
        {
            c.push_back(cell);
        }
        // A trailing empty slowdown cell leaves 10 fields.
        if (c.size() < 10)
        {
            *error = path + ":" + std::to_string(lineNo) + ": not a flow record: " + line;
            return false;
        }
        FlowRecord r{};
        try
        {
            r.id = std::stoull(c[0]);
            r.src = static_cast<uint32_t>(std::stoul(c[1]));
            r.dst = static_cast<uint32_t>(std::stoul(c[2]));
            if (c[3] != "write" && c[3] != "send" && c[3] != "read")
            {
                throw std::invalid_argument(c[3]);
            }
            r.verb = c[3] == "read" ? RdmaVerb::READ
                                    : (c[3] == "send" ? RdmaVerb::SEND : RdmaVerb::WRITE);
            r.bytes = std::stoull(c[4]);
            r.priority = static_cast<uint8_t>(std::stoul(c[5]));
            r.start = NanoSeconds(std::stoll(c[6]));
            r.end = c[7].empty() ? Time(0) : NanoSeconds(std::stoll(c[7]));
            r.idealFct = NanoSeconds(std::stoll(c[9]));
        }
        catch (const std::exception&)
        {
            *error = path + ":" + std::to_string(lineNo) + ": not a flow record: " + line;
            return false;
        }
        flows->push_back(r);
    }
    return true;
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
        WireClock wire(hop.rate);
        int64_t linkFree = 0;
        for (std::size_t j = 0; j < packets.size(); ++j)
        {
            const int64_t start = std::max(ready[j], linkFree);
            linkFree = wire.Send(start, packets[j]);
            // As the channels deliver: at least one time step after the packet started.
            ready[j] = std::max(linkFree, start + 1) + delay + latency;
        }
    }
    return TimeStep(ready.empty() ? 0 : ready.back());
}

} // namespace ns3
