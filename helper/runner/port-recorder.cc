/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "port-recorder.h"

#include "run-record.h"

#include "ns3/ib-channel.h"
#include "ns3/ib-net-device.h"
#include "ns3/ib-switch.h"
#include "ns3/interconnect-config-error.h"
#include "ns3/local-rank.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/pfc-net-device.h"
#include "ns3/roce-switch.h"
#include "ns3/simulator.h"

#include <cinttypes>
#include <cstdio>

namespace ns3
{

PortRecorder::PortRecorder(Time queueInterval, const std::string& queues, uint8_t priority)
    : m_queues(queues),
      m_priority(priority),
      m_series(queueInterval),
      m_infiniband(false)
{
}

void
PortRecorder::RecordPfc(std::vector<PfcEvent>* events,
                        uint32_t node,
                        uint32_t port,
                        uint8_t priority,
                        uint16_t quanta)
{
    events->push_back(PfcEvent{Simulator::Now().GetNanoSeconds(), node, port, priority, quanta});
}

void
PortRecorder::RecordCreditStall(std::vector<CreditStallEvent>* events,
                                uint32_t node,
                                uint32_t device,
                                uint8_t vl,
                                bool stalled)
{
    events->push_back(
        CreditStallEvent{Simulator::Now().GetNanoSeconds(), node, device, vl, stalled});
}

void
PortRecorder::Watch()
{
    // Switches in node order (the order the helpers create them in, on every rank), ports in
    // their order: queue.csv lists them so.
    for (NodeList::Iterator n = NodeList::Begin(); n != NodeList::End(); ++n)
    {
        Ptr<Node> node = *n;
        if (!IsOnThisRank(node))
        {
            continue; // another rank's node: watched there
        }
        if (Ptr<RoceSwitch> rs = node->GetObject<RoceSwitch>())
        {
            for (uint32_t p = 0; p < rs->GetNPorts(); ++p)
            {
                Ptr<PfcNetDevice> port = rs->GetPort(p);
                port->TraceConnectWithoutContext(
                    "PfcTx",
                    MakeBoundCallback(&PortRecorder::RecordPfc, &m_pfc, node->GetId(), p));
                const bool facesHost = !port->GetPeer()->GetNode()->GetObject<RoceSwitch>();
                if (m_queues == "all" || (m_queues == "host-ports" && facesHost))
                {
                    m_series.AddQueue("n" + std::to_string(node->GetId()) + "p" + std::to_string(p),
                                      rs,
                                      p,
                                      m_priority);
                }
            }
        }
        if (Ptr<IbSwitch> is = node->GetObject<IbSwitch>())
        {
            for (uint32_t p = 0; p < is->GetNPorts(); ++p)
            {
                Ptr<IbNetDevice> port = is->GetPort(p);
                Ptr<IbChannel> channel = DynamicCast<IbChannel>(port->GetChannel());
                const bool facesHost =
                    channel && !channel->GetPeer(port)->GetNode()->GetObject<IbSwitch>();
                if (!(m_queues == "all" || (m_queues == "host-ports" && facesHost)))
                {
                    continue;
                }
                // The port's output queues: all data VLs together, and each VL that carried
                // packets during the run on its own.
                const std::string name =
                    "n" + std::to_string(node->GetId()) + "p" + std::to_string(p);
                m_series.AddQueue(name, [port]() {
                    uint64_t bytes = 0;
                    for (uint8_t vl = 0; vl < port->GetNDataVls(); ++vl)
                    {
                        bytes += port->GetQueueBytes(vl);
                    }
                    return bytes;
                });
                for (uint8_t vl = 0; vl < port->GetNDataVls(); ++vl)
                {
                    m_series.AddQueue(
                        name + "vl" + std::to_string(vl),
                        [port, vl]() { return port->GetQueueBytes(vl); },
                        [port, vl]() { return port->GetPacketsSent(vl) > 0; });
                }
            }
        }
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            if (Ptr<IbNetDevice> port = DynamicCast<IbNetDevice>(node->GetDevice(d)))
            {
                m_infiniband = true;
                port->TraceConnectWithoutContext("CreditStall",
                                                 MakeBoundCallback(&PortRecorder::RecordCreditStall,
                                                                   &m_stalls,
                                                                   node->GetId(),
                                                                   port->GetIfIndex()));
            }
        }
    }
}

void
PortRecorder::Start(Time stop)
{
    if (m_queues != "none")
    {
        m_series.Start(Time(0), stop);
    }
}

void
PortRecorder::Write(const std::string& dir) const
{
    FILE* f = OpenOutputFile(dir + "/pfc.csv");
    std::fprintf(f, "time_ns,node,port,priority,quanta\n");
    for (const auto& e : m_pfc)
    {
        std::fprintf(f,
                     "%" PRId64 ",%u,%u,%u,%u\n",
                     e.timeNs,
                     e.node,
                     e.port,
                     static_cast<unsigned>(e.priority),
                     static_cast<unsigned>(e.quanta));
    }
    CloseOutputFile(f, dir + "/pfc.csv");
    if (m_infiniband)
    {
        // The InfiniBand counterpart of pfc.csv: when each VL started and stopped waiting for
        // credits.
        f = OpenOutputFile(dir + "/credits.csv");
        std::fprintf(f, "time_ns,node,device,vl,stalled\n");
        for (const auto& e : m_stalls)
        {
            std::fprintf(f,
                         "%" PRId64 ",%u,%u,%u,%d\n",
                         e.timeNs,
                         e.node,
                         e.device,
                         static_cast<unsigned>(e.vl),
                         e.stalled ? 1 : 0);
        }
        CloseOutputFile(f, dir + "/credits.csv");
    }
    f = OpenOutputFile(dir + "/links.csv");
    std::fprintf(f, "node,device,peer_node,rate_bps,tx_bytes,utilization\n");
    const double seconds = Simulator::Now().GetSeconds();
    for (NodeList::Iterator n = NodeList::Begin(); n != NodeList::End(); ++n)
    {
        for (uint32_t d = 0; IsOnThisRank(*n) && d < (*n)->GetNDevices(); ++d)
        {
            // Ethernet ports and InfiniBand ports alike: every byte put on the wire.
            Ptr<NetDevice> dev = (*n)->GetDevice(d);
            Ptr<Node> peer;
            uint64_t rate = 0;
            uint64_t tx = 0;
            if (Ptr<PfcNetDevice> eth = DynamicCast<PfcNetDevice>(dev))
            {
                peer = eth->GetPeer()->GetNode();
                rate = eth->GetDataRate().GetBitRate();
                tx = eth->GetTxBytes();
            }
            else if (Ptr<IbNetDevice> port = DynamicCast<IbNetDevice>(dev))
            {
                Ptr<IbChannel> channel = DynamicCast<IbChannel>(port->GetChannel());
                if (!channel)
                {
                    continue;
                }
                peer = channel->GetPeer(port)->GetNode();
                rate = port->GetDataRate().GetBitRate();
                tx = port->GetTxBytes();
            }
            else
            {
                continue;
            }
            std::fprintf(f,
                         "%u,%u,%u,%" PRIu64 ",%" PRIu64 ",%.6f\n",
                         (*n)->GetId(),
                         d,
                         peer->GetId(),
                         rate,
                         tx,
                         tx * 8.0 / (rate * seconds));
        }
    }
    CloseOutputFile(f, dir + "/links.csv");
    if (!m_series.WriteQueuesCsv(dir + "/queue.csv"))
    {
        InterconnectOutputError(dir + "/queue.csv", "the file could not be written");
    }
}

} // namespace ns3
