/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "three-tier-helper.h"

#include "ns3/interconnect-config-error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ns3
{

namespace
{
/// A number for messages: "2.5", "3".
std::string
Number(double x)
{
    char text[32];
    std::snprintf(text, sizeof(text), "%g", x);
    return text;
}
} // namespace

ThreeTierHelper::ThreeTierHelper(uint32_t pods,
                                 uint32_t accessPerPod,
                                 uint32_t aggregationPerPod,
                                 uint32_t cores,
                                 uint32_t hostsPerAccess)
    : m_pods(pods),
      m_accessPerPod(accessPerPod),
      m_aggregationPerPod(aggregationPerPod),
      m_cores(cores),
      m_hostsPerAccess(hostsPerAccess),
      m_accessOversubscription(1),
      m_aggregationOversubscription(1)
{
}

void
ThreeTierHelper::SetAccessOversubscription(double ratio)
{
    m_accessOversubscription = ratio;
}

void
ThreeTierHelper::SetAggregationOversubscription(double ratio)
{
    m_aggregationOversubscription = ratio;
}

std::string
ThreeTierHelper::GetName() const
{
    return "ThreeTierHelper";
}

std::string
ThreeTierHelper::GetKind() const
{
    return "three-tier " + std::to_string(m_pods) + " pods x (" + std::to_string(m_accessPerPod) +
           " access, " + std::to_string(m_aggregationPerPod) + " aggregation), " +
           std::to_string(m_cores) + " cores, " + std::to_string(m_hostsPerAccess) +
           " hosts per access (oversubscription " + Number(m_accessOversubscription) +
           ":1 access, " + Number(m_aggregationOversubscription) + ":1 aggregation)";
}

uint32_t
ThreeTierHelper::WholeLinks(const std::string& parameter,
                            double ratio,
                            double links,
                            const std::string& what) const
{
    const double whole = std::round(links);
    if (!(ratio > 0) || !std::isfinite(links) || whole < 1 ||
        std::fabs(links - whole) > 1e-9 * std::max(1.0, links))
    {
        InterconnectConfigError("ThreeTierHelper::" + parameter,
                                Number(ratio),
                                "a ratio > 0 that gives a whole number (>= 1) of fabric-rate "
                                "links " +
                                    what + " (this one gives " + Number(links) + ")");
    }
    return static_cast<uint32_t>(whole);
}

void
ThreeTierHelper::DoCreate(Fabric& fabric) const
{
    CheckAtLeast("pods", m_pods, 1);
    CheckAtLeast("accessPerPod", m_accessPerPod, 1);
    CheckAtLeast("aggregationPerPod", m_aggregationPerPod, 1);
    CheckAtLeast("cores", m_cores, 1);
    CheckAtLeast("hostsPerAccess", m_hostsPerAccess, 1);
    const double host = static_cast<double>(m_hostRate.GetBitRate());
    const double fabricRate = static_cast<double>(m_fabricRate.GetBitRate());
    const uint32_t n1 = WholeLinks(
        "accessOversubscription",
        m_accessOversubscription,
        m_hostsPerAccess * host / (m_accessOversubscription * m_aggregationPerPod * fabricRate),
        "from each access switch to each of its pod's " + std::to_string(m_aggregationPerPod) +
            " aggregation switches");
    const uint32_t n2 = WholeLinks(
        "aggregationOversubscription",
        m_aggregationOversubscription,
        static_cast<double>(m_accessPerPod) * n1 / (m_aggregationOversubscription * m_cores),
        "from each aggregation switch to each of the " + std::to_string(m_cores) + " cores");

    const uint32_t hostsPerPod = m_accessPerPod * m_hostsPerAccess;
    const Pods pods = AddPods(fabric,
                              m_pods,
                              hostsPerPod,
                              "access",
                              m_accessPerPod,
                              m_aggregationPerPod,
                              m_cores);
    const auto& access = pods.lower;
    const auto& aggregation = pods.upper;
    const auto& core = pods.cores;
    for (uint32_t h = 0; h < m_pods * hostsPerPod; ++h)
    {
        fabric.AddLink(h,
                       access[h / hostsPerPod][h % hostsPerPod / m_hostsPerAccess],
                       m_hostRate,
                       m_delay);
    }
    for (uint32_t p = 0; p < m_pods; ++p)
    {
        for (uint32_t i = 0; i < m_accessPerPod; ++i)
        {
            for (uint32_t a = 0; a < m_aggregationPerPod; ++a)
            {
                for (uint32_t n = 0; n < n1; ++n)
                {
                    fabric.AddLink(access[p][i], aggregation[p][a], m_fabricRate, m_delay);
                }
            }
        }
    }
    for (uint32_t p = 0; p < m_pods; ++p)
    {
        for (uint32_t a = 0; a < m_aggregationPerPod; ++a)
        {
            for (uint32_t c = 0; c < m_cores; ++c)
            {
                for (uint32_t n = 0; n < n2; ++n)
                {
                    fabric.AddLink(aggregation[p][a], core[c], m_fabricRate, m_delay);
                }
            }
        }
    }
}

} // namespace ns3
