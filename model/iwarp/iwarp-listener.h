/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IWARP_LISTENER_H
#define IWARP_LISTENER_H

#include "iwarp-socket.h"

#include "ns3/callback.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"
#include "ns3/socket.h"

#include <vector>

namespace ns3
{

class Node;

/**
 * @ingroup interconnect
 * @brief Listens on a TCP port and makes every accepted connection an IwarpSocket responder.
 *
 * Accepted TCP sockets inherit the listening socket's attributes (segment size, buffers, ECN);
 * the IwarpSocket attributes come from SetSocketAttribute.
 */
class IwarpListener : public Object
{
  public:
    /// Called with each new responder and the initiator's address.
    typedef Callback<void, Ptr<IwarpSocket>, const Address&> AcceptCallback;

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    IwarpListener();

    /**
     * @param name an IwarpSocket attribute
     * @param value its value, for every responder from now on
     */
    void SetSocketAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Listen on a node's TCP socket (created by the caller, its attributes set, not bound).
     * @param socket the socket
     * @param port the TCP port
     */
    void Listen(Ptr<Socket> socket, uint16_t port);

    /// @param callback called on every accepted connection
    void SetAcceptCallback(AcceptCallback callback);

    /// @return the responders so far, in order of acceptance
    const std::vector<Ptr<IwarpSocket>>& GetSockets() const;

  protected:
    void DoDispose() override;

  private:
    /// A TCP connection was accepted.
    void NewConnection(Ptr<Socket> socket, const Address& from);

    Ptr<Socket> m_socket;                    //!< the listening socket
    ObjectFactory m_factory;                 //!< makes the responders
    AcceptCallback m_accept;                 //!< user callback
    std::vector<Ptr<IwarpSocket>> m_sockets; //!< responders
};

} // namespace ns3

#endif // IWARP_LISTENER_H
