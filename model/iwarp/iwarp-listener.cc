/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "iwarp-listener.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IwarpListener");

NS_OBJECT_ENSURE_REGISTERED(IwarpListener);

TypeId
IwarpListener::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IwarpListener")
                            .SetParent<Object>()
                            .SetGroupName("Interconnect")
                            .AddConstructor<IwarpListener>();
    return tid;
}

IwarpListener::IwarpListener()
{
    m_factory.SetTypeId(IwarpSocket::GetTypeId());
}

void
IwarpListener::SetSocketAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

void
IwarpListener::Listen(Ptr<Socket> socket, uint16_t port)
{
    NS_LOG_FUNCTION(this << socket << port);
    m_socket = socket;
    NS_ABORT_MSG_IF(socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), port)) != 0,
                    "IwarpListener: cannot bind TCP port " << port);
    socket->Listen();
    socket->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                              MakeCallback(&IwarpListener::NewConnection, this));
}

void
IwarpListener::SetAcceptCallback(AcceptCallback callback)
{
    m_accept = callback;
}

const std::vector<Ptr<IwarpSocket>>&
IwarpListener::GetSockets() const
{
    return m_sockets;
}

void
IwarpListener::NewConnection(Ptr<Socket> socket, const Address& from)
{
    NS_LOG_FUNCTION(this << socket << from);
    Ptr<IwarpSocket> responder = m_factory.Create<IwarpSocket>();
    m_sockets.push_back(responder);
    responder->Accept(socket);
    if (!m_accept.IsNull())
    {
        m_accept(responder, from);
    }
}

void
IwarpListener::DoDispose()
{
    if (m_socket)
    {
        m_socket->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeNullCallback<void, Ptr<Socket>, const Address&>());
        m_socket = nullptr;
    }
    for (auto& s : m_sockets)
    {
        s->Dispose();
    }
    m_sockets.clear();
    Object::DoDispose();
}

} // namespace ns3
