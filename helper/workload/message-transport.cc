/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "message-transport.h"

#include "ns3/abort.h"
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

QueuePairMapping::QueuePairMapping()
    : m_mode(PER_FLOW),
      m_count(1)
{
}

QueuePairMapping
QueuePairMapping::PerFlow()
{
    return QueuePairMapping();
}

QueuePairMapping
QueuePairMapping::PerHostPair()
{
    QueuePairMapping m;
    m.m_mode = PER_HOST_PAIR;
    return m;
}

QueuePairMapping
QueuePairMapping::Pool(uint32_t n)
{
    NS_ABORT_MSG_IF(n == 0, "QueuePairMapping::Pool: at least one queue pair");
    QueuePairMapping m;
    m.m_mode = POOL;
    m.m_count = n;
    return m;
}

bool
QueuePairMapping::Parse(const std::string& text, QueuePairMapping* mapping)
{
    if (text == "per-flow")
    {
        *mapping = PerFlow();
        return true;
    }
    if (text == "per-host-pair")
    {
        *mapping = PerHostPair();
        return true;
    }
    if (text.empty() || text.size() > 5 ||
        text.find_first_not_of("0123456789") != std::string::npos)
    {
        return false;
    }
    const unsigned long n = std::stoul(text);
    if (n < 1 || n > 65536)
    {
        return false;
    }
    *mapping = Pool(static_cast<uint32_t>(n));
    return true;
}

std::string
QueuePairMapping::Accepted()
{
    return "per-flow (a queue pair per message), per-host-pair (one per host pair and priority) "
           "or a number N of queue pairs per host pair and priority, 1..65536, taken in turn";
}

std::string
QueuePairMapping::ToString() const
{
    switch (m_mode)
    {
    case PER_FLOW:
        return "per-flow";
    case PER_HOST_PAIR:
        return "per-host-pair";
    default:
        return std::to_string(m_count);
    }
}

QueuePairMapping::Mode
QueuePairMapping::GetMode() const
{
    return m_mode;
}

uint32_t
QueuePairMapping::GetCount() const
{
    return m_count;
}

bool
WriteFlowsCsv(const std::string& path,
              const std::vector<FlowRecord>& flows,
              const std::vector<std::string>& workloads)
{
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f)
    {
        return false;
    }
    std::fprintf(f,
                 "id,src,dst,verb,size,priority,workload,queue_pair,start_ns,end_ns,fct_ns,"
                 "ideal_fct_ns,slowdown\n");
    for (const auto& r : flows)
    {
        std::fprintf(f,
                     "%" PRIu64 ",%u,%u,%s,%" PRIu64 ",%u,%s,%u,%" PRId64 ",",
                     r.id,
                     r.src,
                     r.dst,
                     RdmaVerbName(r.verb).c_str(),
                     r.bytes,
                     static_cast<unsigned>(r.priority),
                     r.workload < workloads.size() ? workloads[r.workload].c_str() : "?",
                     r.queuePair,
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
        {"trimmedPackets", &T::trimmed},
        {"dropsNoRoute", &T::dropsNoRoute},
        {"dropsNotIpv4", &T::dropsNotIpv4},
        {"dropsLink", &T::dropsLink},
        {"headroomOverflows", &T::headroomOverflows},
        {"pfcFramesSent", &T::pfcSent},
        {"pfcFramesReceived", &T::pfcReceived},
        {"pausedTimeNs", &T::pausedTimeNs},
        {"pausedPorts", &T::pausedPorts},
        {"watchdogTrips", &T::watchdogTrips},
        {"dropsWatchdog", &T::dropsWatchdog},
        {"creditStallNs", &T::creditStallNs},
        {"ecnMarks", &T::ecnMarks},
        {"cnpsSent", &T::cnpsSent},
        {"cnpsReceived", &T::cnpsReceived},
        {"retransmittedPackets", &T::retransmitted},
        {"retransmittedBytes", &T::retransmittedBytes},
        {"spuriousRetransmissions", &T::spurious},
        {"timeouts", &T::timeouts},
        {"naksReceived", &T::naks},
        {"dataFramesSent", &T::dataFrames},
        {"peakBufferBytes", &T::peakBufferBytes},
        {"peakHeadroomBytes", &T::peakHeadroomBytes},
        {"peakHeadroomPermille", &T::peakHeadroomPermille},
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
    std::fprintf(f, "  \"dropsByPriority\": [");
    for (std::size_t p = 0; p < dropsByPriority.size(); ++p)
    {
        std::fprintf(f, "%s%" PRIu64, p ? ", " : "", dropsByPriority[p]);
    }
    std::fprintf(f, "],\n  \"losslessPriorities\": %u,\n", unsigned{losslessPriorities});
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
        dropsByPriority = j.at("dropsByPriority").get<std::array<uint64_t, 8>>();
        losslessPriorities = j.at("losslessPriorities").get<uint8_t>();
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
    for (std::size_t p = 0; p < dropsByPriority.size(); ++p)
    {
        dropsByPriority[p] += other.dropsByPriority[p];
    }
    losslessPriorities |= other.losslessPriorities;
    for (const auto& field : Fields())
    {
        if (field.second == &TransportStatistics::peakBufferBytes ||
            field.second == &TransportStatistics::peakHeadroomBytes ||
            field.second == &TransportStatistics::peakHeadroomPermille)
        {
            this->*field.second = std::max(this->*field.second, other.*field.second);
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

void
MessageTransport::SetQueuePairMapping(const QueuePairMapping& mapping)
{
    m_mapping = mapping;
}

const QueuePairMapping&
MessageTransport::GetQueuePairMapping() const
{
    return m_mapping;
}

uint32_t
MessageTransport::AddWorkload(const std::string& name)
{
    NS_ABORT_MSG_IF(name.find_first_of(",\n\r\"") != std::string::npos,
                    "MessageTransport::AddWorkload: a name without commas, quotes or newlines");
    m_workloads.push_back(name);
    return static_cast<uint32_t>(m_workloads.size() - 1);
}

void
MessageTransport::SetWorkload(uint32_t workload)
{
    NS_ABORT_MSG_IF(workload >= m_workloads.size(),
                    "MessageTransport::SetWorkload: no workload " << workload);
    m_workload = workload;
}

uint32_t
MessageTransport::GetWorkload() const
{
    return m_workload;
}

const std::vector<std::string>&
MessageTransport::GetWorkloadNames() const
{
    return m_workloads;
}

uint32_t
MessageTransport::NextConnection(uint32_t src, uint32_t dst, uint8_t priority)
{
    switch (m_mapping.GetMode())
    {
    case QueuePairMapping::PER_FLOW:
        return NEW_CONNECTION;
    case QueuePairMapping::PER_HOST_PAIR:
        return 0;
    default: {
        uint32_t& next = m_poolNext[std::make_tuple(src, dst, priority)];
        const uint32_t slot = next;
        next = (next + 1) % m_mapping.GetCount();
        return slot;
    }
    }
}

void
MessageTransport::TraceCongestionState(CongestionStateCallback callback)
{
    NS_ABORT_MSG_UNLESS(callback, "MessageTransport::TraceCongestionState: no callback");
    const bool connected = static_cast<bool>(m_congestionState);
    m_congestionState = std::move(callback);
    if (!connected)
    {
        DoTraceCongestionState();
    }
}

bool
MessageTransport::IsTracingCongestionState() const
{
    return static_cast<bool>(m_congestionState);
}

void
MessageTransport::ReportCongestionState(const CongestionState& state) const
{
    m_congestionState(state);
}

void
MessageTransport::TraceAdapterCongestionState(uint32_t host, Ptr<RdmaChannelAdapter> adapter)
{
    const MessageTransport* self = this;
    adapter->EnableCongestionStateTrace();
    adapter->TraceConnectWithoutContext(
        "CongestionState",
        Callback<void, uint32_t, DataRate, uint64_t, Time>(
            [self, host](uint32_t qpn, DataRate rate, uint64_t window, Time gap) {
                self->ReportCongestionState(CongestionState{host, qpn, rate, window, gap});
            }));
}

uint64_t
MessageTransport::RecordAndStart(uint32_t src,
                                 uint32_t dst,
                                 RdmaVerb verb,
                                 uint64_t bytes,
                                 Time at,
                                 uint8_t priority,
                                 uint32_t node,
                                 uint32_t queuePair,
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
                                 local ? IdealFct(src, dst, verb, bytes) : Time(0),
                                 m_workload,
                                 queuePair});
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
ReadFlowsCsv(const std::string& path,
             std::vector<FlowRecord>* flows,
             std::vector<std::string>* workloads,
             std::string* error)
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
        // A trailing empty slowdown cell leaves 12 fields.
        if (c.size() < 12)
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
            auto w = std::find(workloads->begin(), workloads->end(), c[6]);
            r.workload = static_cast<uint32_t>(w - workloads->begin());
            if (w == workloads->end())
            {
                workloads->push_back(c[6]);
            }
            r.queuePair = static_cast<uint32_t>(std::stoul(c[7]));
            r.start = NanoSeconds(std::stoll(c[8]));
            r.end = c[9].empty() ? Time(0) : NanoSeconds(std::stoll(c[9]));
            r.idealFct = NanoSeconds(std::stoll(c[11]));
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
