/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rail-optimized-helper.h"

#include "ns3/interconnect-config-error.h"

namespace ns3
{

RailOptimizedHelper::RailOptimizedHelper(uint32_t servers, uint32_t nicsPerServer, uint32_t spines)
    : m_servers(servers),
      m_nicsPerServer(nicsPerServer),
      m_spines(spines),
      m_serversPerLeaf(0)
{
}

void
RailOptimizedHelper::SetServersPerLeaf(uint32_t servers)
{
    m_serversPerLeaf = servers;
}

std::string
RailOptimizedHelper::GetName() const
{
    return "RailOptimizedHelper";
}

std::string
RailOptimizedHelper::GetKind() const
{
    const uint32_t perLeaf = m_serversPerLeaf == 0 ? m_servers : m_serversPerLeaf;
    return "rail-optimized " + std::to_string(m_servers) + " servers x " +
           std::to_string(m_nicsPerServer) + " NICs, " +
           std::to_string(perLeaf == 0 ? 0 : m_servers / perLeaf) + " groups of " +
           std::to_string(m_nicsPerServer) + " rail leaves, " + std::to_string(m_spines) +
           " spines";
}

void
RailOptimizedHelper::DoCreate(Fabric& fabric) const
{
    CheckAtLeast("servers", m_servers, 1);
    CheckAtLeast("nicsPerServer", m_nicsPerServer, 1);
    CheckAtLeast("spines", m_spines, 1);
    const uint32_t perLeaf = m_serversPerLeaf == 0 ? m_servers : m_serversPerLeaf;
    if (m_servers % perLeaf != 0)
    {
        InterconnectConfigError("RailOptimizedHelper::serversPerLeaf",
                                std::to_string(m_serversPerLeaf),
                                "0 (all servers) or a divisor of the " + std::to_string(m_servers) +
                                    " servers");
    }
    const uint32_t groups = m_servers / perLeaf;
    for (uint32_t s = 0; s < m_servers; ++s)
    {
        for (uint32_t r = 0; r < m_nicsPerServer; ++r)
        {
            fabric.AddHost("server" + std::to_string(s) + "-nic" + std::to_string(r),
                           static_cast<int32_t>(s));
        }
    }
    std::vector<uint32_t> leaf; // group x rails + rail
    for (uint32_t g = 0; g < groups; ++g)
    {
        for (uint32_t r = 0; r < m_nicsPerServer; ++r)
        {
            leaf.push_back(fabric.AddSwitch("rail" + std::to_string(r) + "-" + std::to_string(g),
                                            "rail-leaf",
                                            static_cast<int32_t>(r)));
        }
    }
    std::vector<uint32_t> spine;
    for (uint32_t i = 0; i < m_spines; ++i)
    {
        spine.push_back(fabric.AddSwitch("spine" + std::to_string(i), "spine"));
    }
    for (uint32_t s = 0; s < m_servers; ++s)
    {
        for (uint32_t r = 0; r < m_nicsPerServer; ++r)
        {
            fabric.AddLink(s * m_nicsPerServer + r,
                           leaf[(s / perLeaf) * m_nicsPerServer + r],
                           m_hostRate,
                           m_delay);
        }
    }
    for (uint32_t l : leaf)
    {
        for (uint32_t i : spine)
        {
            fabric.AddLink(l, i, m_fabricRate, m_delay);
        }
    }
}

} // namespace ns3
