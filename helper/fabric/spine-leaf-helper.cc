/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "spine-leaf-helper.h"

#include <cstdio>

namespace ns3
{

SpineLeafHelper::SpineLeafHelper(uint32_t leaves, uint32_t spines, uint32_t hostsPerLeaf)
    : m_leaves(leaves),
      m_spines(spines),
      m_hostsPerLeaf(hostsPerLeaf)
{
}

double
SpineLeafHelper::GetOversubscription() const
{
    return static_cast<double>(m_hostsPerLeaf) * static_cast<double>(m_hostRate.GetBitRate()) /
           (static_cast<double>(m_spines) * static_cast<double>(m_fabricRate.GetBitRate()));
}

std::string
SpineLeafHelper::GetName() const
{
    return "SpineLeafHelper";
}

std::string
SpineLeafHelper::GetKind() const
{
    char ratio[32];
    std::snprintf(ratio, sizeof(ratio), "%g:1", GetOversubscription());
    return "spine-leaf " + std::to_string(m_leaves) + " leaves x " + std::to_string(m_spines) +
           " spines, " + std::to_string(m_hostsPerLeaf) + " hosts per leaf (oversubscription " +
           ratio + ")";
}

void
SpineLeafHelper::DoCreate(Fabric& fabric) const
{
    CheckAtLeast("leaves", m_leaves, 1);
    CheckAtLeast("spines", m_spines, 1);
    CheckAtLeast("hostsPerLeaf", m_hostsPerLeaf, 1);
    const uint32_t hosts = m_leaves * m_hostsPerLeaf;
    for (uint32_t h = 0; h < hosts; ++h)
    {
        fabric.AddHost("host" + std::to_string(h), static_cast<int32_t>(h / m_hostsPerLeaf));
    }
    std::vector<uint32_t> leaf;
    std::vector<uint32_t> spine;
    for (uint32_t l = 0; l < m_leaves; ++l)
    {
        leaf.push_back(
            fabric.AddSwitch("leaf" + std::to_string(l), "leaf", static_cast<int32_t>(l)));
    }
    for (uint32_t s = 0; s < m_spines; ++s)
    {
        spine.push_back(fabric.AddSwitch("spine" + std::to_string(s), "spine"));
    }
    for (uint32_t h = 0; h < hosts; ++h)
    {
        fabric.AddLink(h, leaf[h / m_hostsPerLeaf], m_hostRate, m_delay);
    }
    for (uint32_t l = 0; l < m_leaves; ++l)
    {
        for (uint32_t s = 0; s < m_spines; ++s)
        {
            fabric.AddLink(leaf[l], spine[s], m_fabricRate, m_delay);
        }
    }
}

bool
SpineLeafHelper::EstimateSize(Size& size) const
{
    const double hosts = static_cast<double>(m_leaves) * m_hostsPerLeaf;
    size = Size{hosts,
                static_cast<double>(m_leaves) + m_spines,
                hosts + static_cast<double>(m_leaves) * m_spines};
    return true;
}

} // namespace ns3
