/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ETHERNET_TRANSPORT_H
#define ETHERNET_TRANSPORT_H

#include "ns3/message-transport.h"

namespace ns3
{

class RoceHelper;

/**
 * @ingroup interconnect
 * @brief What the transports over an Ethernet network a RoceHelper built share: the network,
 * its hosts' rates and ranks, and the priority workloads post on. RoceTransport and
 * IwarpTransport derive from it.
 */
class EthernetTransport : public MessageTransport
{
  public:
    /// @param priority the priority workload helpers post on (0..7)
    void SetDefaultPriority(uint8_t priority);
    /// @return that priority: as set, else the transport's own (RoCEv2 3, iWARP 0)
    uint8_t GetDefaultPriority() const override;
    DataRate GetHostRate(uint32_t host) const override;
    DataRate GetHostSendRate(uint32_t host) const override;
    bool IsLocalHost(uint32_t host) const override;
    /// @return the network
    const RoceHelper& GetNetwork() const;

  protected:
    /**
     * @param network the built network (RoceHelper::Finalize or Build done); it must outlive
     *        the transport
     * @param priority the transport's default priority
     * @param name the transport's name, for the message if the network is not built
     */
    EthernetTransport(const RoceHelper& network, uint8_t priority, const char* name);

    const RoceHelper& m_network; //!< the network

  private:
    uint8_t m_defaultPriority; //!< the priority workloads post on
};

} // namespace ns3

#endif // ETHERNET_TRANSPORT_H
