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
 *  - MakeEnumAccessor: from ns-3.41 the enum's type is a template argument
 *    (MakeEnumAccessor<T>(&C::m_member)); before, it is deduced from the member pointer alone.
 *    INTERCONNECT_ENUM_ACCESSOR(T, member) spells the call each release takes. EnumValue itself
 *    became a template of the enum then: INTERCONNECT_ENUM_VALUE(T) names the type that holds a
 *    T (to read an enum attribute into a default-constructed value).
 *  - Address::Register takes the address kind's name and length from ns-3.47 (IbLidAddress).
 *  - EventId::IsRunning, removed in ns-3.46 (IsPending from 3.40): the module writes
 *    !IsExpired(), which every release has.
 *  - ns-3-dev: its VERSION file says "3-dev"; the build then defines
 *    INTERCONNECT_NS3_VERSION_MINOR as 999 (newer than every release) and
 *    INTERCONNECT_NS3_VERSION_TEXT as "3-dev".
 */

#ifndef INTERCONNECT_NS3_VERSION_MINOR
#error "INTERCONNECT_NS3_VERSION_MINOR is not defined: link against the interconnect module target"
#endif

/// True when building against ns-3.<minor> or newer (ns-3 majors have been 3 since 2008).
#define INTERCONNECT_NS3_AT_LEAST(minor) (INTERCONNECT_NS3_VERSION_MINOR >= (minor))

/// MakeEnumAccessor for an attribute of enum type T held in member (see above).
#if INTERCONNECT_NS3_AT_LEAST(41)
#define INTERCONNECT_ENUM_ACCESSOR(T, member) MakeEnumAccessor<T>(member)
#else
#define INTERCONNECT_ENUM_ACCESSOR(T, member) MakeEnumAccessor(member)
#endif

/// The EnumValue type that holds an enum of type T (see above).
#if INTERCONNECT_NS3_AT_LEAST(41)
#define INTERCONNECT_ENUM_VALUE(T) EnumValue<T>
#else
#define INTERCONNECT_ENUM_VALUE(T) EnumValue
#endif

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

/// @return the ns-3 release the module was built against, e.g. "3.37" (or "3-dev").
inline std::string
Ns3Version()
{
#ifdef INTERCONNECT_NS3_VERSION_TEXT
    return INTERCONNECT_NS3_VERSION_TEXT;
#else
    return "3." + std::to_string(INTERCONNECT_NS3_VERSION_MINOR);
#endif
}

} // namespace interconnect
} // namespace ns3

#endif // INTERCONNECT_COMPAT_H
