/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef INTERCONNECT_CONFIG_ERROR_H
#define INTERCONNECT_CONFIG_ERROR_H

#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * @ingroup interconnect
 * Report a bad configuration value and end the program with exit status 1.
 *
 * Bad input (an attribute, a command-line value, a scenario key) is the user's to fix, not a bug:
 * the message names the parameter, the value given and what is accepted, e.g.
 * `error: ns3::PfcNetDevice::DataRate = 0bps: accepted: a rate above 0 bps`. It does not abort
 * (no core dump, no stack trace), unlike NS_FATAL_ERROR, which stays for programming errors.
 *
 * @param parameter the attribute or option, as the user spells it
 * @param value the value that was given
 * @param accepted what would have been accepted
 */
[[noreturn]] void InterconnectConfigError(const std::string& parameter,
                                          const std::string& value,
                                          const std::string& accepted);

/**
 * @ingroup interconnect
 * What InterconnectConfigError throws instead of ending the program, once
 * InterconnectConfigErrorsThrow(true) was called (a fuzzer or a long-lived program that wants to
 * carry on after a bad input).
 */
class InterconnectConfigException : public std::runtime_error
{
  public:
    /// @param parameter the parameter @param message the whole message ("error: ...")
    InterconnectConfigException(const std::string& parameter, const std::string& message);
    /// @return the parameter the message names
    const std::string& GetParameter() const;

  private:
    std::string m_parameter; //!< the parameter
};

/**
 * @ingroup interconnect
 * @param enable true: InterconnectConfigError throws InterconnectConfigException from now on;
 *        false (the default): it prints the message and ends the program with status 1
 */
void InterconnectConfigErrorsThrow(bool enable);

} // namespace ns3

#endif // INTERCONNECT_CONFIG_ERROR_H
