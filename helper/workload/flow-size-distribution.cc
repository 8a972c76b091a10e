/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-size-distribution.h"

#include "ns3/interconnect-config-error.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ns3
{

namespace
{
const char* const SHIPPED[] = {"websearch", "fb_hadoop", "alistorage2019", "googlerpc2008"};
} // namespace

std::string
FlowSizeDistribution::Shipped(const std::string& name)
{
    for (const char* s : SHIPPED)
    {
        if (name == s)
        {
            return DataDirectory() + "/flow-size-cdf/" + name + ".txt";
        }
    }
    return "";
}

std::string
FlowSizeDistribution::DataDirectory()
{
    // 1. The environment, for data kept elsewhere.
    if (const char* dir = std::getenv("INTERCONNECT_DATA_DIR"); dir && *dir)
    {
        return dir;
    }
    // 2. An installed module: PREFIX/share/ns3-interconnect/data beside PREFIX/lib*/ (found
    //    from where this library was loaded, so the install can move).
    Dl_info info;
    if (dladdr(reinterpret_cast<void*>(&FlowSizeDistribution::DataDirectory), &info) &&
        info.dli_fname)
    {
        std::error_code error;
        const std::filesystem::path library =
            std::filesystem::weakly_canonical(info.dli_fname, error);
        const std::filesystem::path installed =
            library.parent_path().parent_path() / "share" / "ns3-interconnect" / "data";
        if (!error && std::filesystem::is_directory(installed / "flow-size-cdf", error))
        {
            return installed.string();
        }
    }
    // 3. The source checkout the module was built from.
    return INTERCONNECT_DATA_DIR;
}

std::vector<std::string>
FlowSizeDistribution::ShippedNames()
{
    return std::vector<std::string>(std::begin(SHIPPED), std::end(SHIPPED));
}

bool
FlowSizeDistribution::Load(const std::string& path, std::string* error)
{
    std::ifstream in(path);
    if (!in)
    {
        *error = "cannot read '" + path + "'";
        return false;
    }
    std::vector<std::pair<double, double>> points;
    std::string line;
    uint32_t number = 0;
    while (std::getline(in, line))
    {
        ++number;
        const std::string where = path + ":" + std::to_string(number) + ": ";
        const std::size_t hash = line.find('#');
        if (hash != std::string::npos)
        {
            line.erase(hash);
        }
        std::istringstream fields(line);
        double size;
        double percent;
        if (!(fields >> size))
        {
            continue; // blank or comment
        }
        std::string rest;
        if (!(fields >> percent) || (fields >> rest))
        {
            *error = where + "expected 'SIZE_BYTES CUMULATIVE_PERCENT'";
            return false;
        }
        if (size < 0 || percent < 0 || percent > 100 || !std::isfinite(size))
        {
            *error = where + "size must be >= 0 and percent within 0..100";
            return false;
        }
        if (!points.empty() && (size < points.back().first || percent / 100 < points.back().second))
        {
            *error = where + "sizes and percentages must not decrease";
            return false;
        }
        points.emplace_back(size, percent / 100);
    }
    if (points.empty() || std::abs(points.back().second - 1) > 1e-9)
    {
        *error = path + ": the last point must be at 100 percent";
        return false;
    }
    m_points = points;
    if (Mean() < 1)
    {
        // Flows of no bytes carry nothing, and a Poisson process of them arrives infinitely
        // often.
        *error = path + ": the mean flow size is " + std::to_string(Mean()) +
                 " bytes: it must be at least 1";
        m_points.clear();
        return false;
    }
    return true;
}

FlowSizeDistribution
FlowSizeDistribution::Read(const std::string& parameter, const std::string& path)
{
    const std::string shipped = Shipped(path);
    FlowSizeDistribution d;
    std::string error;
    if (!d.Load(shipped.empty() ? path : shipped, &error))
    {
        std::string names;
        for (const auto& n : ShippedNames())
        {
            names += (names.empty() ? "" : ", ") + n;
        }
        InterconnectConfigError(parameter,
                                path,
                                "a CDF file ('SIZE_BYTES CUMULATIVE_PERCENT' per line) or one of " +
                                    names + " (" + error + ")");
    }
    return d;
}

uint64_t
FlowSizeDistribution::Sample(double u) const
{
    // The first point at or above u; between points, linear.
    auto it =
        std::lower_bound(m_points.begin(),
                         m_points.end(),
                         u,
                         [](const std::pair<double, double>& p, double v) { return p.second < v; });
    double size;
    if (it == m_points.begin())
    {
        size = it->first;
    }
    else if (it == m_points.end())
    {
        size = m_points.back().first;
    }
    else
    {
        const auto& lo = *(it - 1);
        const auto& hi = *it;
        const double span = hi.second - lo.second;
        size = span > 0 ? lo.first + (hi.first - lo.first) * (u - lo.second) / span : hi.first;
    }
    return std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(size)));
}

double
FlowSizeDistribution::Cdf(double bytes) const
{
    if (m_points.empty() || bytes < m_points.front().first)
    {
        return 0;
    }
    for (std::size_t i = 1; i < m_points.size(); ++i)
    {
        const auto& lo = m_points[i - 1];
        const auto& hi = m_points[i];
        if (bytes < hi.first)
        {
            return lo.second + (hi.second - lo.second) * (bytes - lo.first) / (hi.first - lo.first);
        }
    }
    return 1;
}

double
FlowSizeDistribution::Mean() const
{
    if (m_points.empty())
    {
        return 0;
    }
    double mean = m_points.front().first * m_points.front().second; // mass at the first size
    for (std::size_t i = 1; i < m_points.size(); ++i)
    {
        mean += (m_points[i].second - m_points[i - 1].second) *
                (m_points[i].first + m_points[i - 1].first) / 2;
    }
    return mean;
}

const std::vector<std::pair<double, double>>&
FlowSizeDistribution::GetPoints() const
{
    return m_points;
}

} // namespace ns3
