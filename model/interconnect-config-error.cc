/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "interconnect-config-error.h"

#include <cstdlib>
#include <iostream>

namespace ns3
{

void
InterconnectConfigError(const std::string& parameter,
                        const std::string& value,
                        const std::string& accepted)
{
    std::cerr << "error: " << parameter << " = " << value << ": accepted: " << accepted
              << std::endl;
    std::exit(1);
}

} // namespace ns3
