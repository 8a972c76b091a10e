/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-switch.h"

#include "ib-host-adapter.h"
#include "ib-lrh-header.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/ib-bth-header.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/rdma-int-tag.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbSwitch");

NS_OBJECT_ENSURE_REGISTERED(IbSwitch);

TypeId
IbSwitch::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbSwitch")
                            .SetParent<Object>()
                            .SetGroupName("Interconnect")
                            .AddConstructor<IbSwitch>()
                            .AddAttribute("ForwardingLatency",
                                          "Port-to-port latency, from a packet's arrival to "
                                          "its entry in the output queue (>= 0)",
                                          TimeValue(NanoSeconds(100)),
                                          MakeTimeAccessor(&IbSwitch::m_latency),
                                          MakeTimeChecker(Time(0)))
                            .AddAttribute("CutThrough",
                                          "Virtual cut-through: a packet is forwarded once its "
                                          "LRH has arrived (after the forwarding latency), not "
                                          "when the whole of it has, as long as it cannot leave "
                                          "before its tail arrives; store-and-forward otherwise",
                                          BooleanValue(false),
                                          MakeBooleanAccessor(&IbSwitch::m_cutThrough),
                                          MakeBooleanChecker())
                            .AddAttribute("FecnThreshold",
                                          "Congestion marking (IBTA annex A10): a packet that "
                                          "joins an output VL queue holding at least this many "
                                          "bytes gets FECN set in its BTH, unless the port is a "
                                          "victim (see VictimWindow). 0 (default): off.",
                                          UintegerValue(0),
                                          MakeUintegerAccessor(&IbSwitch::m_fecnThreshold),
                                          MakeUintegerChecker<uint32_t>())
                            .AddAttribute("VictimWindow",
                                          "An output VL that waited for credits within this "
                                          "time is a victim of congestion further on and does "
                                          "not mark FECN",
                                          TimeValue(MicroSeconds(5)),
                                          MakeTimeAccessor(&IbSwitch::m_victimWindow),
                                          MakeTimeChecker(Time(0)))
                            .AddAttribute("IntEnabled",
                                          "Append in-band telemetry (egress bytes sent, VL "
                                          "queue, time, line rate) to packets that carry an "
                                          "RdmaIntTag, as HPCC needs; others are untouched.",
                                          BooleanValue(true),
                                          MakeBooleanAccessor(&IbSwitch::m_intEnabled),
                                          MakeBooleanChecker());
    return tid;
}

IbSwitch::IbSwitch()
    : m_cutThrough(false),
      m_intEnabled(true),
      m_fecnThreshold(0),
      m_forwarded(0),
      m_noRoute(0),
      m_fecnMarks(0)
{
}

void
IbSwitch::DoDispose()
{
    for (auto& port : m_ports)
    {
        port->SetIbReceiveCallback(IbNetDevice::IbReceiveCallback());
        port->SetDequeueCallback(IbNetDevice::IbDequeueCallback());
    }
    m_ports.clear();
    if (m_sharp)
    {
        m_sharp->SetSendCallback(SharpAggregationNode::SendCallback());
        m_sharp = nullptr;
    }
    Object::DoDispose();
}

uint32_t
IbSwitch::AddPort(Ptr<IbNetDevice> device)
{
    const uint32_t index = static_cast<uint32_t>(m_ports.size());
    NS_ABORT_MSG_IF(index > 0xFFFFFF, "IbSwitch: too many ports");
    m_ports.push_back(device);
    device->SetCutThrough(m_cutThrough);
    device->SetIbReceiveCallback(MakeCallback(&IbSwitch::Receive, this).Bind(index));
    device->SetDequeueCallback(MakeCallback(&IbSwitch::Dequeued, this).Bind(index));
    return index;
}

uint32_t
IbSwitch::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

Ptr<IbNetDevice>
IbSwitch::GetPort(uint32_t i) const
{
    return m_ports.at(i);
}

void
IbSwitch::SetLft(uint16_t dlid, uint32_t port)
{
    NS_ABORT_MSG_IF(port >= m_ports.size(), "IbSwitch::SetLft: no port " << port);
    if (dlid >= m_lft.size())
    {
        m_lft.resize(dlid + 1, NO_PORT);
    }
    m_lft[dlid] = port;
}

uint32_t
IbSwitch::GetLft(uint16_t dlid) const
{
    return dlid < m_lft.size() ? m_lft[dlid] : NO_PORT;
}

uint64_t
IbSwitch::GetForwarded() const
{
    return m_forwarded;
}

uint64_t
IbSwitch::GetNoRouteDrops() const
{
    return m_noRoute;
}

uint64_t
IbSwitch::GetFecnMarks() const
{
    return m_fecnMarks;
}

void
IbSwitch::SetAggregationNode(Ptr<SharpAggregationNode> node, uint16_t lid)
{
    NS_ABORT_MSG_IF(!node, "IbSwitch::SetAggregationNode: no node");
    NS_ABORT_MSG_IF(lid == 0 || lid >= 0xC000,
                    "IbSwitch::SetAggregationNode: LID " << lid << " (1..0xBFFF, unicast)");
    m_sharp = node;
    m_lid = lid;
    node->SetSendCallback(MakeCallback(&IbSwitch::SendAggregation, this));
}

Ptr<SharpAggregationNode>
IbSwitch::GetAggregationNode() const
{
    return m_sharp;
}

uint16_t
IbSwitch::GetLid() const
{
    return m_lid;
}

void
IbSwitch::ReceiveAggregation(uint32_t inPort,
                             Ptr<IbNetDevice> device,
                             Ptr<Packet> packet,
                             uint8_t vl)
{
    // The node takes the packet into its own buffer (its job's reservation) once the whole of
    // it is in: its input buffer's credits return then, as a host adapter's do. A cut-through
    // port hands the packet over at its LRH, so the rest is still arriving.
    const uint32_t blocks = IbNetDevice::Blocks(packet->GetSize());
    Time tail(0);
    if (m_cutThrough)
    {
        tail = device->GetDataRate().CalculateBytesTxTime(packet->GetSize() + IbNetDevice::VCRC -
                                                          IbLrhHeader::SIZE);
    }
    if (tail.IsZero())
    {
        device->Release(vl, blocks);
    }
    else
    {
        Simulator::Schedule(tail, &IbNetDevice::Release, device, vl, blocks);
    }
    if (!IbHostAdapter::UnframeAggregation(packet))
    {
        ++m_noRoute; // management datagrams to the switch are not modelled
        return;
    }
    const Time wait = std::max(m_latency, tail);
    if (wait.IsZero())
    {
        m_sharp->Receive(inPort, packet);
    }
    else
    {
        Simulator::Schedule(wait, &SharpAggregationNode::Receive, m_sharp, inPort, packet);
    }
}

void
IbSwitch::SendAggregation(uint32_t port, uint32_t peer, Ptr<Packet> packet, uint8_t sl)
{
    Ptr<IbNetDevice> egress = m_ports.at(port);
    const uint8_t vl = egress->GetVlOfSl(sl);
    IbHostAdapter::FrameAggregation(packet, vl, sl, static_cast<uint16_t>(peer), m_lid);
    egress->EnqueueVl(packet, vl, AGGREGATION_TAG);
}

void
IbSwitch::Receive(uint32_t inPort, Ptr<IbNetDevice> device, Ptr<Packet> packet, uint8_t vl)
{
    IbLrhHeader lrh;
    packet->PeekHeader(lrh);
    if (m_sharp && lrh.GetDlid() == m_lid && vl != IbNetDevice::MANAGEMENT_VL)
    {
        ReceiveAggregation(inPort, device, packet, vl);
        return;
    }
    const uint32_t out = GetLft(lrh.GetDlid());
    if (out == NO_PORT || vl == IbNetDevice::MANAGEMENT_VL)
    {
        ++m_noRoute; // (subnet management packets are not forwarded by this model)
        if (vl != IbNetDevice::MANAGEMENT_VL)
        {
            device->Release(vl, IbNetDevice::Blocks(packet->GetSize()));
        }
        return;
    }
    Ptr<IbNetDevice> egress = m_ports[out];
    const uint8_t outVl = egress->GetVlOfSl(lrh.GetSl());
    // Only the root of congestion marks: a queue that is long because the next hop has had no
    // credit for it is a victim (annex A10's victim mask, not set).
    const bool mark = m_fecnThreshold > 0 && lrh.GetLnh() == IbLrhHeader::IBA_LOCAL &&
                      egress->GetQueueBytes(outVl) >= m_fecnThreshold &&
                      !egress->WasCreditBlocked(outVl, m_victimWindow);
    if (outVl != lrh.GetVl() || mark)
    {
        packet->RemoveHeader(lrh);
        lrh.SetVl(outVl);
        if (mark)
        {
            IbBthHeader bth;
            packet->RemoveHeader(bth);
            if (!bth.GetFecn())
            {
                bth.SetFecn(true);
                ++m_fecnMarks;
            }
            packet->AddHeader(bth);
        }
        packet->AddHeader(lrh);
    }
    ++m_forwarded;
    const uint32_t tag = (inPort << 8) | vl;
    Time wait = m_latency;
    if (m_cutThrough)
    {
        // The packet came in at its LRH; it may leave no sooner than it can without overtaking
        // its own tail: the tail arrives after the rest of it crosses the input link.
        const uint32_t wire = packet->GetSize() + IbNetDevice::VCRC;
        const Time tail = device->GetDataRate().CalculateBytesTxTime(wire - IbLrhHeader::SIZE);
        const Time send = egress->GetDataRate().CalculateBytesTxTime(wire);
        wait = std::max(wait, tail - send);
    }
    if (wait.IsZero())
    {
        egress->EnqueueVl(packet, outVl, tag);
    }
    else
    {
        Simulator::Schedule(wait, &IbNetDevice::EnqueueVl, egress, packet, outVl, tag);
    }
}

void
IbSwitch::Dequeued(uint32_t outPort, Ptr<Packet> packet, uint8_t vl, uint32_t tag)
{
    if (tag == AGGREGATION_TAG)
    {
        return; // from the aggregation node: no input buffer, no telemetry
    }
    // The packet left the switch: its blocks leave the input port's buffer.
    m_ports[tag >> 8]->Release(static_cast<uint8_t>(tag & 0xFF),
                               IbNetDevice::Blocks(packet->GetSize()));
    if (m_intEnabled && RdmaIntTag::MayBeCarried() &&
        packet->GetPacketTagIterator().HasNext()) // (as RoceSwitch)
    {
        RdmaIntTag intTag;
        // The tag grows by a hop: remove and add it (ReplacePacketTag keeps the old size).
        if (packet->PeekPacketTag(intTag) && !intTag.IsEcho())
        {
            packet->RemovePacketTag(intTag);
            // HPCC's INT hop (SIGCOMM 2019, 4.1): the egress as the packet leaves it.
            Ptr<IbNetDevice> port = m_ports[outPort];
            intTag.Push(RdmaIntHop{port->GetTxBytes(),
                                   static_cast<uint32_t>(port->GetQueueBytes(vl)),
                                   Simulator::Now().GetTimeStep(),
                                   port->GetDataRate().GetBitRate()});
            packet->AddPacketTag(intTag);
        }
    }
}

} // namespace ns3
