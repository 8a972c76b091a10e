/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "command-line-values.h"

#include "ns3/interconnect-config-error.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <regex>

namespace ns3
{

uint64_t
CommandLineValues::Bytes(const std::string& option,
                         const std::string& text,
                         uint64_t min,
                         uint64_t max)
{
    const std::string accepted = "a whole number of bytes from " + std::to_string(min) + " to " +
                                 std::to_string(max) +
                                 ", optionally with a unit B, KB, MB, GB, KiB, MiB or GiB";
    std::size_t i = 0;
    uint64_t value = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
    {
        const uint64_t digit = static_cast<uint64_t>(text[i] - '0');
        if (value > (std::numeric_limits<uint64_t>::max() - digit) / 10)
        {
            InterconnectConfigError(option, text, accepted);
        }
        value = value * 10 + digit;
        ++i;
    }
    if (i == 0)
    {
        InterconnectConfigError(option, text, accepted);
    }
    const std::string unit = text.substr(i);
    uint64_t scale = 0;
    if (unit.empty() || unit == "B")
    {
        scale = 1;
    }
    else if (unit == "KB")
    {
        scale = 1000;
    }
    else if (unit == "MB")
    {
        scale = 1000000;
    }
    else if (unit == "GB")
    {
        scale = 1000000000;
    }
    else if (unit == "KiB")
    {
        scale = uint64_t{1} << 10;
    }
    else if (unit == "MiB")
    {
        scale = uint64_t{1} << 20;
    }
    else if (unit == "GiB")
    {
        scale = uint64_t{1} << 30;
    }
    else
    {
        InterconnectConfigError(option, text, accepted);
    }
    if (value > std::numeric_limits<uint64_t>::max() / scale)
    {
        InterconnectConfigError(option, text, accepted);
    }
    value *= scale;
    if (value < min || value > max)
    {
        InterconnectConfigError(option, text, accepted);
    }
    return value;
}

namespace
{

/// Check the given whole-number options: digits up to `max`, or -1 with `minusOne`.
void
CheckWholeNumbers(int argc,
                  char* argv[],
                  const std::vector<std::string>& names,
                  uint64_t max,
                  bool minusOne)
{
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        for (const auto& name : names)
        {
            const std::string option = "--" + name;
            std::string text;
            if (arg.rfind(option + "=", 0) == 0)
            {
                text = arg.substr(option.size() + 1);
            }
            else if (arg == option && i + 1 < argc)
            {
                text = argv[i + 1];
            }
            else
            {
                continue;
            }
            if (minusOne && text == "-1")
            {
                continue;
            }
            if (text.empty() || text.size() > 10 ||
                text.find_first_not_of("0123456789") != std::string::npos ||
                std::stoull(text) > max)
            {
                InterconnectConfigError(option,
                                        text,
                                        "a whole number, 0 to " + std::to_string(max) +
                                            (minusOne ? ", or -1 (the default)" : ""));
            }
        }
    }
}

} // namespace

void
CommandLineValues::RequireWholeNumbers(int argc,
                                       char* argv[],
                                       const std::vector<std::string>& names)
{
    CheckWholeNumbers(argc, argv, names, 4294967295ULL, false);
}

void
CommandLineValues::RequireWholeNumbersOrMinusOne(int argc,
                                                 char* argv[],
                                                 const std::vector<std::string>& names)
{
    CheckWholeNumbers(argc, argv, names, 2147483647ULL, true);
}

DataRate
CommandLineValues::Rate(const std::string& option, const std::string& text)
{
    // ns-3's DataRate parser aborts the program on text it cannot read ("100 Gbps") and wraps
    // around on huge numbers: check the form and the magnitude first.
    static const std::regex form("^([0-9]+\\.?[0-9]*|\\.[0-9]+)()"
                                 "(|k|K|M|G|T|Ki|Mi|Gi|Ti)(bps|b/s|Bps|B/s)$");
    const std::string accepted =
        "a rate above 0 and at most " + std::to_string(MAX_RATE_TBPS) +
        " Tb/s in ns-3's syntax, a decimal number and a unit without spaces: e.g. "
        "100Gbps, 25Gb/s, 1600Gbps";
    std::smatch m;
    if (!std::regex_match(text, m, form))
    {
        InterconnectConfigError(option, text, accepted);
    }
    const double number = std::strtod(text.c_str(), nullptr);
    const std::string prefix = m[3].str();
    double scale = 1;
    const char p = prefix.empty() ? ' ' : prefix[0];
    const bool binary = prefix.size() == 2;
    const double step = binary ? 1024.0 : 1000.0;
    const int power = p == 'k' || p == 'K' ? 1 : p == 'M' ? 2 : p == 'G' ? 3 : p == 'T' ? 4 : 0;
    for (int i = 0; i < power; ++i)
    {
        scale *= step;
    }
    const std::string unit = m[4].str();
    const double bps = number * scale * (unit[0] == 'B' ? 8 : 1);
    if (!(bps >= 1) || bps > MAX_RATE_TBPS * 1e12 || p == 'T')
    {
        // ns-3.37's DataRate has no T prefix: name the rate in G instead.
        InterconnectConfigError(option, text, accepted);
    }
    DataRateValue value;
    if (!value.DeserializeFromString(text, MakeDataRateChecker()) || value.Get().GetBitRate() == 0)
    {
        InterconnectConfigError(option, text, accepted);
    }
    return value.Get();
}

Time
CommandLineValues::Duration(const std::string& option, const std::string& text, Time min, Time max)
{
    // ns-3's own parser aborts on text it cannot read and overflows silently past 2^63 steps:
    // check the form and the magnitude first.
    static const std::regex form(
        "^([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?(s|ms|us|ns|ps|fs)$");
    std::smatch m;
    const std::string accepted = "a time from " + std::to_string(min.GetNanoSeconds()) + "ns to " +
                                 std::to_string(max.GetNanoSeconds() / 1000000000) +
                                 "s with a unit (s, ms, us, ns, ps), e.g. 1us, 500ns, 2ms";
    if (!std::regex_match(text, m, form))
    {
        InterconnectConfigError(option, text, accepted);
    }
    const std::string unit = m[3].str();
    const double scale = unit == "s"    ? 1
                         : unit == "ms" ? 1e-3
                         : unit == "us" ? 1e-6
                         : unit == "ns" ? 1e-9
                         : unit == "ps" ? 1e-12
                                        : 1e-15;
    const double seconds = std::strtod(text.c_str(), nullptr) * scale;
    if (!(seconds <= max.GetSeconds()))
    {
        InterconnectConfigError(option, text, accepted);
    }
    // The simulator counts whole nanoseconds: a finer time would be rounded without a word.
    const double ns = seconds * 1e9;
    if (std::abs(ns - std::round(ns)) > 1e-6 * std::max(1.0, ns))
    {
        InterconnectConfigError(option,
                                text,
                                accepted + ", a whole number of nanoseconds (the simulator's "
                                           "resolution)");
    }
    TimeValue value;
    if (!value.DeserializeFromString(text, MakeTimeChecker()) || value.Get() < min ||
        value.Get() > max)
    {
        InterconnectConfigError(option, text, accepted);
    }
    return value.Get();
}

} // namespace ns3
