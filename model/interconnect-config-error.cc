/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "interconnect-config-error.h"

#include "ns3/simulator.h"

#include <iostream>

namespace ns3
{

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
InterconnectConfigError(const std::string& parameter,
                        const std::string& value,
                        const std::string& accepted)
{
    throw InterconnectConfigException(parameter,
                                      "error: " + parameter + " = " + value +
                                          ": accepted: " + accepted);
}

void
InterconnectOutputError(const std::string& path, const std::string& reason)
{
    throw InterconnectConfigException("output", "error: cannot write " + path + ": " + reason);
}

int
ReportConfigErrors(const std::function<int()>& body)
{
    try
    {
        return body();
    }
    catch (const InterconnectConfigException& e)
    {
        std::cerr << e.what() << std::endl;
        // The program ends here: release the simulation's objects (nodes, devices, events) as
        // a run that ends normally does, so that nothing is left for a leak checker.
        Simulator::Destroy();
        return 1;
    }
}

} // namespace ns3
