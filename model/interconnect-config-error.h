/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef INTERCONNECT_CONFIG_ERROR_H
#define INTERCONNECT_CONFIG_ERROR_H

#include <functional>
#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief A bad configuration value, or an output that could not be written: the user's to fix,
 * not a bug.
 *
 * The module's code never ends the program: it throws this, and a program's main reports it
 * (ReportConfigErrors: the message on stderr, exit status 1). NS_FATAL_ERROR and NS_ABORT stay
 * for programming errors.
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
 * Report a bad configuration value: throw an InterconnectConfigException whose message names
 * the parameter, the value given and what is accepted, e.g.
 * `error: ns3::PfcNetDevice::DataRate = 0bps: accepted: a rate above 0 bps`.
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
 * Report an output that could not be written: throw an InterconnectConfigException for
 * parameter "output", with the message `error: cannot write PATH: REASON`.
 * @param path the file or directory
 * @param reason why
 */
[[noreturn]] void InterconnectOutputError(const std::string& path, const std::string& reason);

/**
 * @ingroup interconnect
 * Run a program's body and report a configuration error it throws: the message on stderr,
 * the simulation's objects released (Simulator::Destroy), and status 1, as a program's main
 * returns it.
 *
 * @code
 *   int main(int argc, char* argv[])
 *   {
 *       return ReportConfigErrors([&]() { return Run(argc, argv); });
 *   }
 * @endcode
 * @param body the program
 * @return what the body returned, or 1 after a configuration error
 */
int ReportConfigErrors(const std::function<int()>& body);

} // namespace ns3

#endif // INTERCONNECT_CONFIG_ERROR_H
