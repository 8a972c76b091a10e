/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_SIZE_DISTRIBUTION_H
#define FLOW_SIZE_DISTRIBUTION_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief An empirical flow-size distribution: a CDF given by points, linear in between.
 *
 * The file format of the datacenter congestion-control literature: one point per line,
 * `SIZE_BYTES CUMULATIVE_PERCENT`, sizes not decreasing, percentages not decreasing, the last
 * at 100; `#` starts a comment. The module ships WebSearch (DCTCP, SIGCOMM 2010), FB_Hadoop
 * (Roy et al., SIGCOMM 2015), AliStorage2019 and GoogleRPC2008 (HPCC, SIGCOMM 2019) under
 * data/flow-size-cdf/; Shipped("websearch") names one.
 */
class FlowSizeDistribution
{
  public:
    FlowSizeDistribution() = default;

    /**
     * Read a CDF file.
     * @param path the file
     * @param[out] error why it failed: the file, the line and what is wrong
     * @return true on success
     */
    bool Load(const std::string& path, std::string* error);

    /**
     * Read a CDF file; a configuration error (InterconnectConfigException) names `parameter`.
     * @param parameter the option or scenario key that named the file
     * @param path the file, or a shipped name (websearch, fb_hadoop, alistorage2019,
     *        googlerpc2008)
     * @return the distribution
     */
    static FlowSizeDistribution Read(const std::string& parameter, const std::string& path);

    /**
     * @param name a shipped distribution's name
     * @return its path, or "" if there is no such shipped distribution
     */
    static std::string Shipped(const std::string& name);

    /// @return the names of the shipped distributions
    static std::vector<std::string> ShippedNames();

    /**
     * Where the module's data files are: the environment's INTERCONNECT_DATA_DIR if set, else
     * share/ns3-interconnect/data beside the installed library (cmake --install), else the
     * source checkout's data/.
     * @return the directory
     */
    static std::string DataDirectory();

    /**
     * Inverse CDF with linear interpolation.
     * @param u a uniform number in [0, 1)
     * @return a flow size in bytes (at least 1)
     */
    uint64_t Sample(double u) const;

    /// @return the CDF at a size, in [0, 1]
    double Cdf(double bytes) const;

    /// @return the mean flow size of the piecewise-linear distribution, bytes
    double Mean() const;

    /// @return the points (size, cumulative fraction in [0, 1])
    const std::vector<std::pair<double, double>>& GetPoints() const;

  private:
    std::vector<std::pair<double, double>> m_points; //!< (bytes, cumulative fraction)
};

} // namespace ns3

#endif // FLOW_SIZE_DISTRIBUTION_H
