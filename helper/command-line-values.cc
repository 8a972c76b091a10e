/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "command-line-values.h"

#include "ns3/interconnect-config-error.h"

#include <cctype>
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

DataRate
CommandLineValues::Rate(const std::string& option, const std::string& text)
{
    DataRateValue value;
    if (!value.DeserializeFromString(text, MakeDataRateChecker()) || value.Get().GetBitRate() == 0)
    {
        InterconnectConfigError(option,
                                text,
                                "a rate above 0 in ns-3's syntax, e.g. 100Gbps, 25Gb/s, 400Gbps");
    }
    return value.Get();
}

Time
CommandLineValues::Duration(const std::string& option, const std::string& text, Time min)
{
    // ns-3's own parser aborts on text it cannot read: check the form first.
    static const std::regex form(
        "^([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?(s|ms|us|ns|ps|fs)$");
    TimeValue value;
    if (!std::regex_match(text, form) || !value.DeserializeFromString(text, MakeTimeChecker()) ||
        value.Get() < min)
    {
        InterconnectConfigError(option,
                                text,
                                "a time of at least " + std::to_string(min.GetNanoSeconds()) +
                                    "ns with a unit (s, ms, us, ns, ps), e.g. 1us, 500ns, 2ms");
    }
    return value.Get();
}

} // namespace ns3
