/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "iwarp-transport.h"

#include "ns3/abort.h"
#include "ns3/interconnect-config-error.h"
#include "ns3/ipv4.h"
#include "ns3/iwarp-ddp-header.h"
#include "ns3/iwarp-mpa.h"
#include "ns3/iwarp-read-request-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/roce-helper.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IwarpTransport");

IwarpTransport::IwarpTransport(const RoceHelper& network)
    : EthernetTransport(network, 0, "IwarpTransport") // TCP on a lossy class
{
    NS_ABORT_MSG_UNLESS(network.GetInternetStack(),
                        "IwarpTransport: the hosts need ns-3's Internet stack "
                        "(RoceHelper::SetInternetStack(true) before Finalize or Build)");
}

void
IwarpTransport::SetIwarpAttribute(const std::string& name, const AttributeValue& value)
{
    m_iwarp.SetSocketAttribute(name, value);
}

void
IwarpTransport::SetTcpAttribute(const std::string& name, const AttributeValue& value)
{
    m_iwarp.SetTcpAttribute(name, value);
}

void
IwarpTransport::SetTcpCongestionControl(const std::string& typeName)
{
    for (uint32_t h = 0; h < m_network.GetNHosts(); ++h)
    {
        IwarpHelper::SetCongestionControl(m_network.GetHost(h), typeName);
    }
}

const IwarpHelper&
IwarpTransport::GetIwarpHelper() const
{
    return m_iwarp;
}

Ptr<IwarpSocket>
IwarpTransport::GetIwarpSocket(uint32_t src, uint32_t dst, uint8_t priority)
{
    return Connection(src, dst, priority, 0).first;
}

std::pair<Ptr<IwarpSocket>, uint32_t>
IwarpTransport::Connection(uint32_t src, uint32_t dst, uint8_t priority, uint32_t slot)
{
    const uint32_t hosts = m_network.GetNHosts();
    NS_ABORT_MSG_IF(src >= hosts || dst >= hosts || src == dst,
                    "IwarpTransport: bad host pair " << src << " -> " << dst);
    NS_ABORT_MSG_IF(priority >= PfcNetDevice::N_PRIORITIES,
                    "IwarpTransport: priority " << +priority << " (0..7)");
    if (const auto* kept = m_by.Find(src, dst, priority, slot))
    {
        return *kept;
    }
    // DSCP 8 x priority: the ports map DSCP / 8 back to the priority.
    m_iwarp.SetSocketAttribute("Tos", UintegerValue(static_cast<uint8_t>(priority * 8) << 2));
    Ptr<IwarpSocket> s =
        m_iwarp.Connect(m_network.GetHost(src), m_network.GetHost(dst), m_network.GetAddress(dst));
    const auto connection = std::make_pair(s, static_cast<uint32_t>(m_sockets.size()));
    m_sockets.push_back(s);
    m_sources.push_back(src);
    if (IsTracingCongestionState())
    {
        TraceWindow(connection.second);
    }
    m_by.Keep(src, dst, priority, slot, connection); // one direction: TCP's initiator
    return connection;
}

uint64_t
IwarpTransport::Post(uint32_t src,
                     uint32_t dst,
                     RdmaVerb verb,
                     uint64_t bytes,
                     Time at,
                     uint8_t priority,
                     RdmaQueuePair::CompletionCallback done)
{
    const uint32_t slot = NextConnection(src, dst, priority);
    const auto [socket, number] = Connection(src, dst, priority, slot);
    Ptr<IwarpSocket> iwarp = socket;
    return RecordAndStart(src,
                          dst,
                          verb,
                          bytes,
                          at,
                          priority,
                          m_network.GetHost(src)->GetId(),
                          number,
                          done,
                          [iwarp, verb, bytes](RdmaQueuePair::CompletionCallback onDone) {
                              iwarp->Post(verb, bytes, onDone);
                          });
}

Time
IwarpTransport::IdealFct(uint32_t src, uint32_t dst, RdmaVerb verb, uint64_t bytes) const
{
    // One FPDU per TCP segment (markers off); IPv4 (20) and TCP with timestamps (32) around it.
    const uint32_t base = PfcNetDevice::ETHERNET_HEADER + 20 + 32;
    const uint32_t emss = m_iwarp.GetSegmentSize();
    const uint32_t header =
        verb == RdmaVerb::SEND ? IwarpDdpHeader::UNTAGGED_SIZE : IwarpDdpHeader::TAGGED_SIZE;
    const uint32_t data = IwarpMpa::Mulpdu(emss, false) - header;
    std::vector<uint32_t> frames;
    for (uint64_t sent = 0; sent < bytes; sent += data)
    {
        const uint32_t ulpdu =
            header + static_cast<uint32_t>(std::min<uint64_t>(data, bytes - sent));
        frames.push_back(base + IwarpMpa::OVERHEAD + ulpdu + IwarpMpa::PadLength(ulpdu));
    }
    const std::vector<Ptr<PfcNetDevice>> forward = m_network.PathDevices(src, dst);
    const std::vector<Ptr<PfcNetDevice>> backward = m_network.PathDevices(dst, src);
    if (verb == RdmaVerb::READ)
    {
        const uint32_t request = IwarpDdpHeader::UNTAGGED_SIZE + IwarpReadRequestHeader::SIZE;
        return RoceHelper::StoreAndForward({base + IwarpMpa::OVERHEAD + request}, forward) +
               RoceHelper::StoreAndForward(frames, backward);
    }
    return RoceHelper::StoreAndForward(frames, forward) +
           RoceHelper::StoreAndForward({base}, backward); // TCP ACK
}

uint64_t
IwarpTransport::WireBytes(RdmaVerb verb, uint64_t bytes) const
{
    // One FPDU a segment: MPA (6) and DDP around the data, TCP (32) and IPv4 (20) around it.
    const uint32_t header =
        verb == RdmaVerb::SEND ? IwarpDdpHeader::UNTAGGED_SIZE : IwarpDdpHeader::TAGGED_SIZE;
    const uint32_t data = IwarpMpa::Mulpdu(m_iwarp.GetSegmentSize(), false) - header;
    const uint32_t base = PfcNetDevice::ETHERNET_HEADER + 52 + IwarpMpa::OVERHEAD + header;
    uint64_t wire = 0;
    for (uint64_t sent = 0; sent < bytes || sent == 0; sent += data)
    {
        const uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(data, bytes - sent));
        wire += PfcNetDevice::WireBytes(base + n + IwarpMpa::PadLength(header + n));
        if (bytes == 0)
        {
            break;
        }
    }
    return wire;
}

TransportStatistics
IwarpTransport::CollectStatistics() const
{
    TransportStatistics st = m_network.CollectFabricStatistics();
    for (const auto& s : m_sockets)
    {
        st.dataFrames += s->GetFpdusSent();
    }
    for (const auto& listener : m_iwarp.GetListeners())
    {
        for (const auto& s : listener->GetSockets())
        {
            // Responders: WRITE and SEND bytes placed; READ bytes are counted at completion.
            st.dataFrames += s->GetFpdusSent();
            st.bytesDelivered += s->GetBytesPlaced();
        }
    }
    CountMessages(st);
    return st;
}

void
IwarpTransport::DoTraceCongestionState()
{
    for (uint32_t c = 0; c < m_sockets.size(); ++c)
    {
        TraceWindow(c);
    }
}

void
IwarpTransport::TraceWindow(uint32_t connection)
{
    const uint32_t host = m_sources[connection];
    if (!IsLocalHost(host))
    {
        return;
    }
    const IwarpTransport* self = this;
    m_sockets[connection]->GetTcpSocket()->TraceConnectWithoutContext(
        "CongestionWindow",
        Callback<void, uint32_t, uint32_t>([self, host, connection](uint32_t, uint32_t window) {
            self->ReportCongestionState(
                CongestionState{host, connection, DataRate(0), window, Time(0)});
        }));
}

} // namespace ns3
