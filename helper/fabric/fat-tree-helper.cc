/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fat-tree-helper.h"

#include "ns3/interconnect-config-error.h"

namespace ns3
{

FatTreeHelper::FatTreeHelper(uint32_t k)
    : m_k(k)
{
}

std::string
FatTreeHelper::GetName() const
{
    return "FatTreeHelper";
}

std::string
FatTreeHelper::GetKind() const
{
    return "fat-tree k=" + std::to_string(m_k);
}

void
FatTreeHelper::DoCreate(Fabric& fabric) const
{
    if (m_k < 2 || m_k % 2 != 0)
    {
        InterconnectConfigError("FatTreeHelper::k",
                                std::to_string(m_k),
                                "an even number >= 2 (the switches' port count)");
    }
    const uint32_t half = m_k / 2;
    const uint32_t hostsPerPod = half * half;
    const Pods pods = AddPods(fabric, m_k, hostsPerPod, "edge", half, half, hostsPerPod);
    JoinFatTree(fabric, m_k, 0, pods, m_hostRate, m_fabricRate, m_delay);
}

void
FatTreeHelper::JoinFatTree(Fabric& fabric,
                           uint32_t k,
                           uint32_t firstHost,
                           const Pods& pods,
                           DataRate hostRate,
                           DataRate fabricRate,
                           Time delay)
{
    const uint32_t half = k / 2;
    const uint32_t hostsPerPod = half * half;
    const auto& edge = pods.lower;
    const auto& aggregation = pods.upper;
    const auto& core = pods.cores;
    for (uint32_t h = 0; h < k * hostsPerPod; ++h)
    {
        fabric.AddLink(firstHost + h,
                       edge[h / hostsPerPod][h % hostsPerPod / half],
                       hostRate,
                       delay);
    }
    for (uint32_t p = 0; p < k; ++p)
    {
        for (uint32_t e = 0; e < half; ++e)
        {
            for (uint32_t a = 0; a < half; ++a)
            {
                fabric.AddLink(edge[p][e], aggregation[p][a], fabricRate, delay);
            }
        }
    }
    for (uint32_t p = 0; p < k; ++p)
    {
        for (uint32_t a = 0; a < half; ++a)
        {
            for (uint32_t j = 0; j < half; ++j)
            {
                fabric.AddLink(aggregation[p][a], core[a * half + j], fabricRate, delay);
            }
        }
    }
}

bool
FatTreeHelper::EstimateSize(Size& size) const
{
    const double k = m_k;
    size = Size{k * k * k / 4, 5 * k * k / 4, 3 * k * k * k / 4};
    return true;
}

} // namespace ns3
