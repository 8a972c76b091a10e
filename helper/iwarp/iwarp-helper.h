/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IWARP_HELPER_H
#define IWARP_HELPER_H

#include "ns3/attribute.h"
#include "ns3/ipv4-address.h"
#include "ns3/iwarp-listener.h"
#include "ns3/iwarp-socket.h"
#include "ns3/object-factory.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class Node;

/**
 * @ingroup interconnect
 * @brief Opens iWARP connections between nodes that have an Internet stack.
 *
 * One IwarpListener per responder node and DSCP (on port + DSCP, so that a responder answers
 * on its connection's priority); every TCP socket, listening or connecting,
 * gets the TCP attributes set here (SegmentSize, SndBufSize, RcvBufSize, ...), and every
 * IwarpSocket the socket attributes. The TCP congestion control is the node's: set it with
 * SetCongestionControl (any ns-3 TcpCongestionOps, e.g. ns3::TcpNewReno, ns3::TcpCubic,
 * ns3::TcpDctcp).
 */
class IwarpHelper
{
  public:
    IwarpHelper();

    /**
     * @param name an IwarpSocket attribute (Markers, Crc, Tos, ...)
     * @param value its value
     */
    void SetSocketAttribute(const std::string& name, const AttributeValue& value);

    /**
     * @param name a TcpSocket attribute (SegmentSize, SndBufSize, RcvBufSize, ...)
     * @param value its value
     */
    void SetTcpAttribute(const std::string& name, const AttributeValue& value);

    /// @param port the TCP port responders listen on, plus the DSCP (default 7174)
    void SetPort(uint16_t port);

    /**
     * Set the TCP congestion control of a node's sockets.
     * @param node a node with an Internet stack
     * @param typeName a TcpCongestionOps TypeId name; anything else is a configuration error
     */
    static void SetCongestionControl(Ptr<Node> node, const std::string& typeName);

    /// @param typeName a TypeId name @return whether it names a TcpCongestionOps
    static bool IsCongestionControl(const std::string& typeName);
    /// @return the TcpCongestionOps TypeId names this ns-3 has, comma-separated
    static std::string CongestionControlNames();

    /**
     * Start an iWARP connection (TCP, then MPA) from one node to another; work may be posted on
     * the returned initiator at once and goes out when the connection is up.
     * @param initiator the initiating node
     * @param responder the responding node
     * @param responderAddress its address
     * @return the initiator's end
     */
    Ptr<IwarpSocket> Connect(Ptr<Node> initiator,
                             Ptr<Node> responder,
                             Ipv4Address responderAddress);

    /// @return the TCP segment size connections use (the SegmentSize set here; 1448 by default)
    uint32_t GetSegmentSize() const;

    /// @return the first listener on a node (the lowest DSCP's; null if nothing connected to it)
    Ptr<IwarpListener> GetListener(Ptr<Node> node) const;
    /// @return every listener, by node and port
    std::vector<Ptr<IwarpListener>> GetListeners() const;

  private:
    /// A TCP socket on a node with the TCP attributes set.
    Ptr<Socket> CreateTcpSocket(Ptr<Node> node) const;

    ObjectFactory m_socketFactory;                                            //!< IwarpSocket
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_tcpAttributes; //!< TCP attributes
    uint16_t m_port;                                                          //!< listening port
    std::map<std::pair<uint32_t, uint16_t>, Ptr<IwarpListener>> m_listeners;  //!< by node, port
};

} // namespace ns3

#endif // IWARP_HELPER_H
