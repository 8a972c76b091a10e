/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ethernet-transport.h"

#include "roce-helper.h"

#include "ns3/abort.h"
#include "ns3/interconnect-config-error.h"

namespace ns3
{

EthernetTransport::EthernetTransport(const RoceHelper& network, uint8_t priority, const char* name)
    : m_network(network),
      m_defaultPriority(priority)
{
    NS_ABORT_MSG_UNLESS(network.IsFinalized(),
                        name << ": build the network first (RoceHelper::Finalize or Build)");
}

void
EthernetTransport::SetDefaultPriority(uint8_t priority)
{
    if (priority >= PfcNetDevice::N_PRIORITIES)
    {
        InterconnectConfigError("priority", std::to_string(priority), "0..7");
    }
    m_defaultPriority = priority;
}

uint8_t
EthernetTransport::GetDefaultPriority() const
{
    return m_defaultPriority;
}

DataRate
EthernetTransport::GetHostRate(uint32_t host) const
{
    return m_network.GetHostRate(host);
}

DataRate
EthernetTransport::GetHostSendRate(uint32_t host) const
{
    return m_network.GetHostSendRate(host);
}

bool
EthernetTransport::IsLocalHost(uint32_t host) const
{
    return m_network.IsLocalHost(host);
}

const RoceHelper&
EthernetTransport::GetNetwork() const
{
    return m_network;
}

} // namespace ns3
