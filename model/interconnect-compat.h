/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef INTERCONNECT_COMPAT_H
#define INTERCONNECT_COMPAT_H

/**
 * @file
 * @ingroup interconnect
 * The few differences between the ns-3 releases the module builds on (ns-3.37, Debian 12's, up to
 * the newest release), kept in one place.
 *
 * The build defines INTERCONNECT_NS3_VERSION_MINOR (37 for ns-3.37) in both modes: from
 * find_package(ns3) standalone, from the tree's VERSION file in-tree. ns-3's own version-defines.h
 * only exists when ns-3 was configured with --enable-build-version, so it cannot be relied on.
 *
 * Differences that matter to this module and how they are bridged:
 *  - CMake target names (ns3::libcore up to 3.42, ns3::core from 3.43): CMakeLists.txt.
 *  - Ptr<T> safe-bool: 3.37 still offers the deprecated `operator Tester*`, newer releases only
 *    `explicit operator bool`; the module only ever writes `if (ptr)` / `ptr == nullptr`, which
 *    both accept.
 *  - pcap link types: ns-3's PcapHelper enum has DLT_EN10MB but no InfiniBand entry in any release;
 *    the tcpdump.org number is defined here once.
 */

#ifndef INTERCONNECT_NS3_VERSION_MINOR
#error "INTERCONNECT_NS3_VERSION_MINOR is not defined: link against the interconnect module target"
#endif

/// True when building against ns-3.<minor> or newer (ns-3 majors have been 3 since 2008).
#define INTERCONNECT_NS3_AT_LEAST(minor) (INTERCONNECT_NS3_VERSION_MINOR >= (minor))

#include <cstdint>
#include <string>

namespace ns3
{
namespace interconnect
{

/// pcap link type for Ethernet frames (tcpdump.org LINKTYPE_ETHERNET).
constexpr uint32_t PCAP_LINKTYPE_ETHERNET = 1;
/// pcap link type for raw InfiniBand packets starting at the LRH (tcpdump.org LINKTYPE_INFINIBAND).
constexpr uint32_t PCAP_LINKTYPE_INFINIBAND = 247;

/// @return the ns-3 release the module was built against, e.g. "3.37".
inline std::string
Ns3Version()
{
    return "3." + std::to_string(INTERCONNECT_NS3_VERSION_MINOR);
}

} // namespace interconnect
} // namespace ns3

#endif // INTERCONNECT_COMPAT_H
