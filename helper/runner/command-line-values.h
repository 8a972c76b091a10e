/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COMMAND_LINE_VALUES_H
#define COMMAND_LINE_VALUES_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * Strict parsers for the values programs take on the command line and from scenario files.
 *
 * ns-3's CommandLine reads an unsigned option with `operator>>`, which turns "-5" into a huge
 * number; these parsers reject it instead. Each one either returns the value or ends the
 * program with InterconnectConfigError naming the option, the text and what is accepted.
 */
class CommandLineValues
{
  public:
    /**
     * Bytes: a non-negative integer with an optional unit: B, KB, MB, GB (10^3, 10^6, 10^9) or
     * KiB, MiB, GiB (2^10, 2^20, 2^30), e.g. "1500", "64KB", "2MiB".
     * @param option the option's name, for the message
     * @param text the text to parse
     * @param min the smallest accepted value
     * @param max the largest accepted value
     * @return the number of bytes
     */
    static uint64_t Bytes(const std::string& option,
                          const std::string& text,
                          uint64_t min = 0,
                          uint64_t max = UINT64_MAX);

    /**
     * Check the text of whole-number options before ns-3's CommandLine reads them: it reads
     * "1e3" as 1 and "-1" into an unsigned option as 4294967295, without a word. Each given
     * option (as --name=value or --name value) must be decimal digits, 0 to 4294967295; the
     * program's own range checks follow.
     * @param argc the program's argc
     * @param argv the program's argv
     * @param names the options' names, without dashes
     */
    static void RequireWholeNumbers(int argc, char* argv[], const std::vector<std::string>& names);

    /**
     * The same for signed options where -1 means "keep the default" (e.g. "the preset's"):
     * each given option must be -1 or decimal digits, 0 to 2147483647.
     * @param argc the program's argc
     * @param argv the program's argv
     * @param names the options' names, without dashes
     */
    static void RequireWholeNumbersOrMinusOne(int argc,
                                              char* argv[],
                                              const std::vector<std::string>& names);

    /// The largest rate accepted, in Tb/s: beyond any link, well within DataRate's 64 bits.
    static constexpr uint32_t MAX_RATE_TBPS = 100;

    /**
     * A link rate in ns-3's DataRate syntax ("100Gbps", "25Gb/s"), above 0 and at most
     * MAX_RATE_TBPS.
     * @param option the option's name, for the message
     * @param text the text to parse
     * @return the rate
     */
    static DataRate Rate(const std::string& option, const std::string& text);

    /**
     * A time in ns-3's Time syntax ("1us", "500ns"), from `min` to `max`.
     * @param option the option's name, for the message
     * @param text the text to parse
     * @param min the smallest accepted value
     * @param max the largest accepted value (by default a day: far beyond any packet-level
     *        run, far from the 2^63 time steps where ns-3's time wraps around)
     * @return the time
     */
    static Time Duration(const std::string& option,
                         const std::string& text,
                         Time min = Time(0),
                         Time max = Seconds(86400));
};

} // namespace ns3

#endif // COMMAND_LINE_VALUES_H
