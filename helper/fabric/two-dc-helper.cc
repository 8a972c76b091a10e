/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "two-dc-helper.h"

#include "ns3/fat-tree-helper.h"
#include "ns3/interconnect-config-error.h"

#include <cstdio>

namespace ns3
{

TwoDcHelper::TwoDcHelper(uint32_t k, uint32_t dciLinks)
    : m_k(k),
      m_dciLinks(dciLinks),
      m_longHaulRate("400Gbps"),
      m_longHaulDelay(MicroSeconds(50))
{
}

void
TwoDcHelper::SetLongHaulRate(DataRate rate)
{
    if (rate.GetBitRate() == 0)
    {
        InterconnectConfigError("TwoDcHelper::LongHaulRate", "0bps", "a rate above 0 bps");
    }
    m_longHaulRate = rate;
}

void
TwoDcHelper::SetLongHaulDelay(Time delay)
{
    if (delay.IsStrictlyNegative())
    {
        InterconnectConfigError("TwoDcHelper::LongHaulDelay",
                                std::to_string(delay.GetNanoSeconds()) + "ns",
                                "a delay of 0 or more");
    }
    m_longHaulDelay = delay;
}

std::string
TwoDcHelper::GetName() const
{
    return "TwoDcHelper";
}

std::string
TwoDcHelper::GetKind() const
{
    char rate[32];
    std::snprintf(rate, sizeof(rate), "%g", static_cast<double>(m_longHaulRate.GetBitRate()) / 1e9);
    char delay[32];
    std::snprintf(delay, sizeof(delay), "%g", m_longHaulDelay.GetSeconds() * 1e6);
    return "two-dc k=" + std::to_string(m_k) + ", " + std::to_string(m_dciLinks) + " x " + rate +
           " Gb/s long haul of " + delay + " us";
}

void
TwoDcHelper::DoCreate(Fabric& fabric) const
{
    if (m_k < 2 || m_k % 2 != 0)
    {
        InterconnectConfigError("TwoDcHelper::k",
                                std::to_string(m_k),
                                "an even number >= 2 (the switches' port count)");
    }
    CheckAtLeast("TwoDcHelper::dciLinks", m_dciLinks, 1);
    const uint32_t half = m_k / 2;
    const uint32_t hostsPerPod = half * half;
    const uint32_t hosts = m_k * hostsPerPod;
    for (uint32_t dc = 0; dc < 2; ++dc)
    {
        for (uint32_t h = 0; h < hosts; ++h)
        {
            fabric.AddHost("dc" + std::to_string(dc) + "-host" + std::to_string(h),
                           static_cast<int32_t>(dc * m_k + h / hostsPerPod));
        }
    }
    std::vector<uint32_t> dcis[2];
    for (uint32_t dc = 0; dc < 2; ++dc)
    {
        const std::string prefix = "dc" + std::to_string(dc) + "-";
        Pods pods;
        pods.lower.resize(m_k);
        pods.upper.resize(m_k);
        for (uint32_t p = 0; p < m_k; ++p)
        {
            const auto group = static_cast<int32_t>(dc * m_k + p);
            const std::string pod = std::to_string(p) + "-";
            for (uint32_t i = 0; i < half; ++i)
            {
                pods.lower[p].push_back(
                    fabric.AddSwitch(prefix + "edge" + pod + std::to_string(i), "edge", group));
            }
            for (uint32_t i = 0; i < half; ++i)
            {
                pods.upper[p].push_back(
                    fabric.AddSwitch(prefix + "aggregation" + pod + std::to_string(i),
                                     "aggregation",
                                     group));
            }
        }
        for (uint32_t c = 0; c < hostsPerPod; ++c)
        {
            pods.cores.push_back(fabric.AddSwitch(prefix + "core" + std::to_string(c), "core"));
        }
        for (uint32_t d = 0; d < m_dciLinks; ++d)
        {
            dcis[dc].push_back(fabric.AddSwitch(prefix + "dci" + std::to_string(d), "dci"));
        }
        FatTreeHelper::JoinFatTree(fabric,
                                   m_k,
                                   dc * hosts,
                                   pods,
                                   m_hostRate,
                                   m_fabricRate,
                                   m_delay);
        // Every DCI switch reaches every core of its data centre.
        for (uint32_t d = 0; d < m_dciLinks; ++d)
        {
            for (uint32_t c : pods.cores)
            {
                fabric.AddLink(c, dcis[dc][d], m_fabricRate, m_delay);
            }
        }
    }
    for (uint32_t d = 0; d < m_dciLinks; ++d)
    {
        fabric.AddLink(dcis[0][d], dcis[1][d], m_longHaulRate, m_longHaulDelay);
    }
}

bool
TwoDcHelper::EstimateSize(Size& size) const
{
    const double k = m_k;
    const double n = m_dciLinks;
    size = Size{2 * k * k * k / 4,
                2 * (5 * k * k / 4 + n),
                2 * (3 * k * k * k / 4 + n * k * k / 4) + n};
    return true;
}

} // namespace ns3
