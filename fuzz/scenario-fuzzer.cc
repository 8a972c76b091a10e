/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// libFuzzer target: the scenario loader. Any bytes must either give a scenario or a
// configuration error (thrown here instead of ending the program); never a crash, an uncaught
// exception, a sanitizer report or a hang. Seeds: examples/scenarios and test/fuzz/scenarios.
//
//   ./interconnect fuzz --seconds=60      (builds with clang in build-fuzz/ and runs it)

#include "ns3/interconnect-config-error.h"
#include "ns3/scenario.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    // Any text as a scenario: one naming a shared library must not load it.
    ns3::Scenario::AllowPlugins(false);
    const std::string text(reinterpret_cast<const char*>(data), size);
    try
    {
        const ns3::Scenario s = ns3::Scenario::Parse(text, "fuzz.json", {});
        // What the runner reads next: every resolved value round-trips.
        ns3::Scenario::Parse(s.ToJson(), "config.json", {});
    }
    catch (const ns3::InterconnectConfigException&)
    {
        // a bad scenario, reported as such: what we want
    }
    return 0;
}
