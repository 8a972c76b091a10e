/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sharp-aggregation-node.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SharpAggregationNode");

NS_OBJECT_ENSURE_REGISTERED(SharpAggregationNode);

TypeId
SharpAggregationNode::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SharpAggregationNode")
            .SetParent<Object>()
            .SetGroupName("Interconnect")
            .AddConstructor<SharpAggregationNode>()
            .AddAttribute("Units",
                          "Aggregation units: the jobs (reduction trees) the switch serves at "
                          "once (>= 1)",
                          UintegerValue(8),
                          MakeUintegerAccessor(&SharpAggregationNode::m_units),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("BufferSize",
                          "Aggregation buffer of the switch, shared by its jobs' reservations "
                          "(bytes, >= 1)",
                          UintegerValue(4 << 20),
                          MakeUintegerAccessor(&SharpAggregationNode::m_bufferSize),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("AggregationRate",
                          "Data bytes a unit reduces per second (streaming aggregation at line "
                          "rate: the ports' rate)",
                          DataRateValue(DataRate("200Gbps")),
                          MakeDataRateAccessor(&SharpAggregationNode::m_rate),
                          MakeDataRateChecker());
    return tid;
}

SharpAggregationNode::SharpAggregationNode()
    : m_units(8),
      m_bufferSize(4 << 20),
      m_rate("200Gbps")
{
}

void
SharpAggregationNode::DoDispose()
{
    m_send = SendCallback();
    m_jobs.clear();
    Object::DoDispose();
}

void
SharpAggregationNode::SetSendCallback(SendCallback send)
{
    m_send = send;
}

bool
SharpAggregationNode::Reserve(uint16_t job, uint64_t bufferBytes)
{
    if (m_jobs.size() >= m_units || m_jobs.count(job) || bufferBytes > m_bufferSize - m_bufferInUse)
    {
        return false;
    }
    m_jobs[job].reserved = bufferBytes;
    m_bufferInUse += bufferBytes;
    return true;
}

void
SharpAggregationNode::Configure(uint16_t job,
                                std::vector<Link> children,
                                Link parent,
                                uint8_t serviceLevel)
{
    auto it = m_jobs.find(job);
    NS_ABORT_MSG_IF(it == m_jobs.end(), "SharpAggregationNode: job " << job << " not reserved");
    NS_ABORT_MSG_IF(children.empty(), "SharpAggregationNode: job " << job << " has no child");
    it->second.children = std::move(children);
    it->second.parent = parent;
    it->second.serviceLevel = serviceLevel;
}

void
SharpAggregationNode::Free(uint16_t job)
{
    auto it = m_jobs.find(job);
    if (it != m_jobs.end())
    {
        m_bufferInUse -= it->second.reserved;
        m_jobs.erase(it);
    }
}

Ptr<Packet>
SharpAggregationNode::Chunk(SharpHeader::Opcode opcode,
                            uint16_t job,
                            uint32_t sequence,
                            uint32_t bytes)
{
    Ptr<Packet> p = Create<Packet>(bytes);
    SharpHeader h;
    h.SetOpcode(opcode);
    h.SetJob(job);
    h.SetSequence(sequence);
    p->AddHeader(h);
    return p;
}

void
SharpAggregationNode::Receive(uint32_t inPort, Ptr<Packet> packet)
{
    SharpHeader h;
    if (packet->GetSize() < SharpHeader::SIZE)
    {
        ++m_misdelivered;
        return;
    }
    packet->RemoveHeader(h);
    const auto it = m_jobs.find(h.GetJob());
    if (it == m_jobs.end() || it->second.children.empty())
    {
        ++m_misdelivered;
        return;
    }
    Job& j = it->second;
    const uint32_t bytes = packet->GetSize();
    if (h.GetOpcode() == SharpHeader::RESULT && inPort == j.parent.port)
    {
        SendDown(j, h.GetJob(), h.GetSequence(), bytes);
        return;
    }
    const bool fromChild = std::any_of(j.children.begin(),
                                       j.children.end(),
                                       [inPort](const Link& c) { return c.port == inPort; });
    if (h.GetOpcode() != SharpHeader::REDUCE || !fromChild)
    {
        ++m_misdelivered;
        return;
    }
    Partial& partial = j.partial[h.GetSequence()];
    if (partial.count == 0)
    {
        // The chunk's accumulator: the first contribution is taken in, the others reduced into it.
        partial.bytes = bytes;
        j.held += bytes;
        m_peakHeld = std::max(m_peakHeld, j.held);
        if (j.held > j.reserved)
        {
            ++m_overflows;
        }
    }
    if (++partial.count < j.children.size())
    {
        return;
    }
    // Every contribution is in: the unit reduces the chunk after those before it.
    const Time start = std::max(Simulator::Now(), j.unitFree);
    j.unitFree = start + m_rate.CalculateBytesTxTime(partial.bytes);
    ++m_reductions;
    Simulator::Schedule(j.unitFree - Simulator::Now(),
                        &SharpAggregationNode::Reduced,
                        this,
                        h.GetJob(),
                        h.GetSequence(),
                        partial.bytes);
}

void
SharpAggregationNode::Reduced(uint16_t job, uint32_t sequence, uint32_t bytes)
{
    const auto it = m_jobs.find(job);
    if (it == m_jobs.end())
    {
        return; // freed meanwhile
    }
    Job& j = it->second;
    // A job ends only when every member has every result, so no reduction of a freed job is
    // still pending: the chunk is this job's.
    NS_ASSERT_MSG(j.partial.count(sequence) && j.held >= bytes,
                  "SharpAggregationNode: reduced chunk " << sequence << " of job " << job
                                                         << " is not waiting");
    j.partial.erase(sequence);
    j.held -= bytes;
    if (j.parent.port == NO_PORT)
    {
        SendDown(j, job, sequence, bytes);
    }
    else
    {
        m_send(j.parent.port,
               j.parent.peer,
               Chunk(SharpHeader::REDUCE, job, sequence, bytes),
               j.serviceLevel);
    }
}

void
SharpAggregationNode::SendDown(const Job& j, uint16_t job, uint32_t sequence, uint32_t bytes) const
{
    for (const Link& c : j.children)
    {
        m_send(c.port, c.peer, Chunk(SharpHeader::RESULT, job, sequence, bytes), j.serviceLevel);
    }
}

uint32_t
SharpAggregationNode::GetUnitsInUse() const
{
    return static_cast<uint32_t>(m_jobs.size());
}

uint64_t
SharpAggregationNode::GetBufferInUse() const
{
    return m_bufferInUse;
}

uint64_t
SharpAggregationNode::GetReductions() const
{
    return m_reductions;
}

uint64_t
SharpAggregationNode::GetPeakHeld() const
{
    return m_peakHeld;
}

uint64_t
SharpAggregationNode::GetOverflows() const
{
    return m_overflows;
}

uint64_t
SharpAggregationNode::GetMisdelivered() const
{
    return m_misdelivered;
}

} // namespace ns3
