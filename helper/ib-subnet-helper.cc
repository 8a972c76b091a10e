/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-subnet-helper.h"

#include "ns3/ib-channel.h"
#include "ns3/interconnect-config-error.h"
#include "ns3/node.h"

namespace ns3
{

uint16_t
IbSubnet::GetLid(uint32_t host) const
{
    return adapters.at(host)->GetLid();
}

IbSubnetHelper::IbSubnetHelper()
{
    m_device.SetTypeId(IbNetDevice::GetTypeId());
    m_switch.SetTypeId(IbSwitch::GetTypeId());
}

void
IbSubnetHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_device.Set(name, value);
}

void
IbSubnetHelper::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    m_switch.Set(name, value);
}

IbSubnet
IbSubnetHelper::Build(const FabricHelper& helper) const
{
    IbSubnet s;
    s.fabric = helper.Describe();
    const Fabric& f = s.fabric;
    if (f.GetKind().rfind("torus", 0) == 0)
    {
        InterconnectConfigError("IbSubnetHelper fabric",
                                f.GetKind(),
                                "a Clos fabric (tori need VL datelines, not set up yet)");
    }
    const uint32_t hosts = f.GetNHosts();
    if (hosts + f.GetNSwitches() >= 0xBFFF)
    {
        InterconnectConfigError("IbSubnetHelper fabric",
                                std::to_string(hosts + f.GetNSwitches()) + " nodes",
                                "at most 49150 (the unicast LID range)");
    }
    // Nodes and their ports.
    std::vector<Ptr<Node>> node(f.GetNodes().size());
    for (uint32_t v = 0; v < f.GetNodes().size(); ++v)
    {
        node[v] = CreateObject<Node>();
        const FabricNode& fn = f.GetNode(v);
        if (fn.kind == FabricNodeKind::HOST)
        {
            s.hostNodes.push_back(node[v]);
        }
        else
        {
            Ptr<IbSwitch> sw = m_switch.Create<IbSwitch>();
            node[v]->AggregateObject(sw);
            s.switchNodes.push_back(node[v]);
            s.switches.push_back(sw);
        }
    }
    std::vector<std::vector<Ptr<IbNetDevice>>> portsOf(f.GetNodes().size());
    for (const FabricLink& l : f.GetLinks())
    {
        Ptr<IbChannel> channel = CreateObject<IbChannel>();
        channel->SetAttribute("Delay", TimeValue(l.delay));
        for (uint32_t end : {l.a, l.b})
        {
            Ptr<IbNetDevice> d = m_device.Create<IbNetDevice>();
            node[end]->AddDevice(d);
            d->Attach(channel);
            portsOf[end].push_back(d); // port numbers in link order, as the Fabric's
            s.ports.push_back(d);
        }
    }
    // The subnet manager: LIDs, then the forwarding tables.
    s.adapters.resize(hosts);
    for (uint32_t h = 0; h < hosts; ++h)
    {
        const uint32_t v = f.GetHostNodeId(h);
        Ptr<IbHostAdapter> adapter = CreateObject<IbHostAdapter>();
        node[v]->AggregateObject(adapter);
        adapter->Install(portsOf[v].at(0), static_cast<uint16_t>(h + 1));
        s.adapters[h] = adapter;
    }
    for (uint32_t sw = 0; sw < f.GetNSwitches(); ++sw)
    {
        const uint32_t v = f.GetSwitchNodeId(sw);
        for (const auto& port : portsOf[v])
        {
            s.switches[sw]->AddPort(port);
        }
        for (uint32_t h = 0; h < hosts; ++h)
        {
            const std::vector<uint32_t> links = f.GetRoute(sw, h);
            if (links.empty())
            {
                continue;
            }
            const uint16_t dlid = static_cast<uint16_t>(h + 1);
            const uint32_t link = links[dlid % links.size()];
            s.switches[sw]->SetLft(dlid, f.GetPort(link, v));
        }
    }
    return s;
}

} // namespace ns3
