/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "iwarp-helper.h"

#include "ns3/interconnect-config-error.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/pointer.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

namespace ns3
{

IwarpHelper::IwarpHelper()
    : m_port(7174)
{
    m_socketFactory.SetTypeId(IwarpSocket::GetTypeId());
    // An RNIC's TCP in a datacenter, not ns-3's WAN defaults: a 1500-byte MTU with timestamps
    // leaves 1448 bytes a segment; every segment is acknowledged (ns-3 waits for two, or 200 ms,
    // which would hold a message's completion); buffers well above a datacenter
    // bandwidth-delay product; a 1 ms minimum RTO on a 1 us clock instead of 1 s on 1 ms, as
    // fine-grained retransmission timers are recommended against incast collapse (Vasudevan et
    // al., SIGCOMM 2009), and the same 1 ms for a lost SYN instead of 3 s.
    SetTcpAttribute("SegmentSize", UintegerValue(1448));
    SetTcpAttribute("DelAckCount", UintegerValue(1));
    SetTcpAttribute("SndBufSize", UintegerValue(4 << 20));
    SetTcpAttribute("RcvBufSize", UintegerValue(4 << 20));
    SetTcpAttribute("MinRto", TimeValue(MilliSeconds(1)));
    SetTcpAttribute("ClockGranularity", TimeValue(MicroSeconds(1)));
    SetTcpAttribute("ConnTimeout", TimeValue(MilliSeconds(1)));
}

void
IwarpHelper::SetSocketAttribute(const std::string& name, const AttributeValue& value)
{
    m_socketFactory.Set(name, value);
}

void
IwarpHelper::SetTcpAttribute(const std::string& name, const AttributeValue& value)
{
    m_tcpAttributes.emplace_back(name, value.Copy());
}

void
IwarpHelper::SetPort(uint16_t port)
{
    m_port = port;
}

namespace
{

/// Whether a TypeId makes a TcpCongestionOps. Asked of an instance, not of the TypeId tree:
/// ns-3.37 registers TcpCubic under TcpSocketBase although the class is a TcpCongestionOps.
bool
IsCongestionOps(const TypeId& tid)
{
    if (!tid.HasConstructor() || !tid.IsChildOf(Object::GetTypeId()) ||
        tid.GetName().rfind("ns3::Tcp", 0) != 0)
    {
        return false;
    }
    ObjectFactory factory;
    factory.SetTypeId(tid);
    return DynamicCast<TcpCongestionOps>(factory.Create()) != nullptr;
}

} // namespace

bool
IwarpHelper::IsCongestionControl(const std::string& typeName)
{
    TypeId tid;
    return TypeId::LookupByNameFailSafe(typeName, &tid) && IsCongestionOps(tid);
}

std::string
IwarpHelper::CongestionControlNames()
{
    std::string known;
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        const TypeId t = TypeId::GetRegistered(i);
        if (t != TcpCongestionOps::GetTypeId() && IsCongestionOps(t))
        {
            known += (known.empty() ? "" : ", ") + t.GetName();
        }
    }
    return known;
}

void
IwarpHelper::SetCongestionControl(Ptr<Node> node, const std::string& typeName)
{
    if (!IsCongestionControl(typeName))
    {
        InterconnectConfigError("TCP congestion control",
                                typeName,
                                "an ns-3 TcpCongestionOps TypeId name: " +
                                    CongestionControlNames());
    }
    Ptr<TcpL4Protocol> tcp = node->GetObject<TcpL4Protocol>();
    NS_ABORT_MSG_UNLESS(tcp, "IwarpHelper: node " << node->GetId() << " has no Internet stack");
    tcp->SetAttribute("SocketType", TypeIdValue(TypeId::LookupByName(typeName)));
}

Ptr<Socket>
IwarpHelper::CreateTcpSocket(Ptr<Node> node) const
{
    NS_ABORT_MSG_UNLESS(node->GetObject<TcpL4Protocol>(),
                        "IwarpHelper: node " << node->GetId() << " has no Internet stack");
    Ptr<Socket> socket = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
    for (const auto& [name, value] : m_tcpAttributes)
    {
        socket->SetAttribute(name, *value);
    }
    return socket;
}

Ptr<IwarpSocket>
IwarpHelper::Connect(Ptr<Node> initiator, Ptr<Node> responder, Ipv4Address responderAddress)
{
    // Responders take the same IwarpSocket attributes as initiators; one listener per node and
    // DSCP (port + DSCP), so that each responder sends on its connection's priority.
    Ptr<IwarpSocket> socket = m_socketFactory.Create<IwarpSocket>();
    UintegerValue tos;
    socket->GetAttribute("Tos", tos);
    const uint16_t port = static_cast<uint16_t>(m_port + (tos.Get() >> 2));
    const auto key = std::make_pair(responder->GetId(), port);
    auto it = m_listeners.find(key);
    if (it == m_listeners.end())
    {
        Ptr<IwarpListener> listener = CreateObject<IwarpListener>();
        for (uint32_t i = 0; i < m_socketFactory.GetTypeId().GetAttributeN(); ++i)
        {
            const TypeId::AttributeInformation info = m_socketFactory.GetTypeId().GetAttribute(i);
            Ptr<AttributeValue> value = info.checker->Create();
            socket->GetAttribute(info.name, *value);
            listener->SetSocketAttribute(info.name, *value);
        }
        listener->Listen(CreateTcpSocket(responder), port);
        it = m_listeners.emplace(key, listener).first;
    }
    socket->Connect(CreateTcpSocket(initiator), InetSocketAddress(responderAddress, port));
    return socket;
}

uint32_t
IwarpHelper::GetSegmentSize() const
{
    uint32_t size = 536; // ns-3's TcpSocket default
    for (const auto& [name, value] : m_tcpAttributes)
    {
        if (name == "SegmentSize")
        {
            size = static_cast<uint32_t>(DynamicCast<const UintegerValue>(value)->Get());
        }
    }
    return size;
}

Ptr<IwarpListener>
IwarpHelper::GetListener(Ptr<Node> node) const
{
    auto it = m_listeners.lower_bound(std::make_pair(node->GetId(), uint16_t{0}));
    return it == m_listeners.end() || it->first.first != node->GetId() ? nullptr : it->second;
}

std::vector<Ptr<IwarpListener>>
IwarpHelper::GetListeners() const
{
    std::vector<Ptr<IwarpListener>> all;
    for (const auto& [key, listener] : m_listeners)
    {
        all.push_back(listener);
    }
    return all;
}

} // namespace ns3
