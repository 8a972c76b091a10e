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

namespace
{
/// InterconnectConfigErrorsThrow's setting.
bool g_throw = false;
} // namespace

InterconnectConfigException::InterconnectConfigException(const std::string& parameter,
                                                         const std::string& message)
    : std::runtime_error(message),
      m_parameter(parameter)
{
}

const std::string&
InterconnectConfigException::GetParameter() const
{
    return m_parameter;
}

void
InterconnectConfigErrorsThrow(bool enable)
{
    g_throw = enable;
}

void
InterconnectConfigError(const std::string& parameter,
                        const std::string& value,
                        const std::string& accepted)
{
    const std::string message = "error: " + parameter + " = " + value + ": accepted: " + accepted;
    if (g_throw)
    {
        throw InterconnectConfigException(parameter, message);
    }
    std::cerr << message << std::endl;
    std::exit(1);
}

} // namespace ns3
