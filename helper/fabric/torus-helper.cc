/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "torus-helper.h"

#include "ns3/interconnect-config-error.h"

#include <limits>

namespace ns3
{

TorusHelper::TorusHelper(const std::vector<uint32_t>& dimensions)
    : m_dimensions(dimensions),
      m_hostsPerSwitch(1),
      m_dateline(true),
      m_trafficPriority(3),
      m_datelinePriority(4)
{
}

void
TorusHelper::SetHostsPerSwitch(uint32_t hosts)
{
    m_hostsPerSwitch = hosts;
}

void
TorusHelper::SetDateline(bool enable)
{
    m_dateline = enable;
}

void
TorusHelper::SetPriorities(uint8_t traffic, uint8_t dateline)
{
    m_trafficPriority = traffic;
    m_datelinePriority = dateline;
}

std::string
TorusHelper::GetName() const
{
    return "TorusHelper";
}

std::string
TorusHelper::GetKind() const
{
    std::string shape;
    for (std::size_t i = 0; i < m_dimensions.size(); ++i)
    {
        shape += (i ? "x" : "") + std::to_string(m_dimensions[i]);
    }
    return "torus " + shape + ", " + std::to_string(m_hostsPerSwitch) +
           (m_hostsPerSwitch == 1 ? " host" : " hosts") + " per switch (" +
           (m_dateline ? "dateline" : "no dateline") + ")";
}

std::vector<uint32_t>
TorusHelper::Coordinates(uint32_t index) const
{
    std::vector<uint32_t> c;
    for (uint32_t k : m_dimensions)
    {
        c.push_back(index % k);
        index /= k;
    }
    return c;
}

void
TorusHelper::DoCreate(Fabric& fabric) const
{
    if (m_dimensions.size() != 2 && m_dimensions.size() != 3)
    {
        InterconnectConfigError("TorusHelper::dimensions",
                                std::to_string(m_dimensions.size()) + " dimensions",
                                "2 or 3 dimensions");
    }
    uint32_t switches = 1;
    for (std::size_t i = 0; i < m_dimensions.size(); ++i)
    {
        if (m_dimensions[i] < 2)
        {
            InterconnectConfigError("TorusHelper::dimensions[" + std::to_string(i) + "]",
                                    std::to_string(m_dimensions[i]),
                                    "at least 2 switches per dimension");
        }
        switches *= m_dimensions[i];
    }
    CheckAtLeast("hostsPerSwitch", m_hostsPerSwitch, 1);
    if (m_trafficPriority > 7 || m_datelinePriority > 7 || m_trafficPriority == m_datelinePriority)
    {
        InterconnectConfigError("TorusHelper::priorities",
                                std::to_string(m_trafficPriority) + ", " +
                                    std::to_string(m_datelinePriority),
                                "two different priorities 0..7 (traffic, dateline)");
    }
    for (uint32_t h = 0; h < switches * m_hostsPerSwitch; ++h)
    {
        fabric.AddHost("host" + std::to_string(h),
                       static_cast<int32_t>(h / m_hostsPerSwitch),
                       Coordinates(h / m_hostsPerSwitch));
    }
    std::vector<uint32_t> node;
    for (uint32_t s = 0; s < switches; ++s)
    {
        std::string name = "sw";
        const std::vector<uint32_t> c = Coordinates(s);
        for (std::size_t i = 0; i < c.size(); ++i)
        {
            name += (i ? "-" : "") + std::to_string(c[i]);
        }
        node.push_back(fabric.AddSwitch(name, "torus", -1, c));
    }
    for (uint32_t h = 0; h < switches * m_hostsPerSwitch; ++h)
    {
        fabric.AddLink(h, node[h / m_hostsPerSwitch], m_hostRate, m_delay);
    }
    uint32_t stride = 1;
    for (std::size_t i = 0; i < m_dimensions.size(); ++i)
    {
        const uint32_t k = m_dimensions[i];
        for (uint32_t s = 0; s < switches; ++s)
        {
            const uint32_t c = s / stride % k;
            const uint32_t next = s - c * stride + (c + 1) % k * stride;
            fabric.AddLink(node[s],
                           node[next],
                           m_fabricRate,
                           m_delay,
                           static_cast<int32_t>(i),
                           c == k - 1);
        }
        stride *= k;
    }
}

void
TorusHelper::DoRoute(Fabric& fabric) const
{
    const uint32_t nSwitches = fabric.GetNSwitches();
    const std::size_t nDims = m_dimensions.size();
    constexpr uint32_t none = std::numeric_limits<uint32_t>::max();
    // Each switch's link towards its + and - neighbour in each dimension.
    std::vector<std::vector<uint32_t>> plus(nSwitches, std::vector<uint32_t>(nDims, none));
    std::vector<std::vector<uint32_t>> minus(nSwitches, std::vector<uint32_t>(nDims, none));
    for (uint32_t l = 0; l < fabric.GetNLinks(); ++l)
    {
        const FabricLink& link = fabric.GetLink(l);
        if (link.dimension >= 0)
        {
            plus[fabric.GetNode(link.a).index][link.dimension] = l;
            minus[fabric.GetNode(link.b).index][link.dimension] = l;
        }
    }
    std::vector<std::vector<uint32_t>> routes(nSwitches);
    for (uint32_t h = 0; h < fabric.GetNHosts(); ++h)
    {
        const std::vector<uint32_t>& target = fabric.GetNode(h).coordinates;
        for (uint32_t s = 0; s < nSwitches; ++s)
        {
            const std::vector<uint32_t>& here =
                fabric.GetNode(fabric.GetSwitchNodeId(s)).coordinates;
            uint32_t out = fabric.GetHostLink(h);
            for (std::size_t i = 0; i < nDims; ++i)
            {
                if (here[i] != target[i])
                {
                    const uint32_t k = m_dimensions[i];
                    const uint32_t forward = (target[i] + k - here[i]) % k;
                    out = 2 * forward <= k ? plus[s][i] : minus[s][i];
                    break;
                }
            }
            routes[s].assign(1, out);
        }
        fabric.SetRoutesTo(h, routes);
    }
    if (!m_dateline)
    {
        fabric.SetRoutingName("dimension-order, no dateline");
        return;
    }
    const uint8_t traffic = m_trafficPriority;
    const uint8_t dateline = m_datelinePriority;
    for (uint32_t s = 0; s < nSwitches; ++s)
    {
        const uint32_t node = fabric.GetSwitchNodeId(s);
        for (std::size_t i = 0; i < nDims; ++i)
        {
            // Past the wrap-around link and on in the same direction: the dateline priority.
            // A frame moving + arrives over the switch's - link, one moving - over its + link.
            if (fabric.GetLink(minus[s][i]).wrapAround)
            {
                fabric.AddPriorityRemap({node, minus[s][i], plus[s][i], traffic, dateline});
            }
            if (fabric.GetLink(plus[s][i]).wrapAround)
            {
                fabric.AddPriorityRemap({node, plus[s][i], minus[s][i], traffic, dateline});
            }
            // Into a later dimension: back to the traffic priority.
            for (uint32_t in : {minus[s][i], plus[s][i]})
            {
                for (std::size_t j = i + 1; j < nDims; ++j)
                {
                    for (uint32_t out : {plus[s][j], minus[s][j]})
                    {
                        fabric.AddPriorityRemap({node, in, out, dateline, traffic});
                    }
                }
            }
        }
    }
    fabric.SetRoutingName("dimension-order; dateline: priority " + std::to_string(traffic) +
                          " -> " + std::to_string(dateline) +
                          " past a wrap-around link, back at each turn");
}

bool
TorusHelper::EstimateSize(Size& size) const
{
    double switches = 1;
    for (uint32_t d : m_dimensions)
    {
        switches *= d;
    }
    size = Size{switches * m_hostsPerSwitch,
                switches,
                switches * m_dimensions.size() + switches * m_hostsPerSwitch};
    return true;
}

} // namespace ns3
