/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLAGGED_TRACED_CALLBACK_H
#define FLAGGED_TRACED_CALLBACK_H

#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief A TracedCallback that keeps a bit of its owner's set while anyone listens to it.
 *
 * A per-frame path asks each of its traces whether it has listeners before it builds what the
 * trace would get. TracedCallback::IsEmpty reads the callback list, 24 bytes of the owner each:
 * a port's five such lists took 120 bytes of its hot lines, which at k=16 are beyond what the
 * caches hold when the port's next frame comes (doc/interconnect.rst, Performance). With this
 * class the path tests a bit of one byte on a line it reads anyway, and the lists themselves
 * live among the owner's cold fields.
 *
 * Every way to connect and disconnect updates the bit: MakeTraceSourceAccessor's accessor
 * calls the connect and disconnect of the member's own type (these), as Config::Connect and
 * TraceConnect do, and so does the owner's own code; the base is private, so that no
 * TracedCallback reference can reach the list past them, and a copy (whose bit would be its
 * original's) is not allowed. Bind before anything can connect (in the owner's constructor):
 * Bind reads the list as it is.
 * @tparam Ts the trace's arguments
 */
template <typename... Ts>
class FlaggedTracedCallback : private TracedCallback<Ts...>
{
  public:
    FlaggedTracedCallback() = default;
    FlaggedTracedCallback(const FlaggedTracedCallback&) = delete;
    FlaggedTracedCallback& operator=(const FlaggedTracedCallback&) = delete;

    using TracedCallback<Ts...>::operator();
    using TracedCallback<Ts...>::IsEmpty;

    /**
     * Keep @p bit of @p flags set while the trace has listeners (and set it now as it is).
     * @param flags the owner's byte
     * @param bit the bit (a mask of one bit)
     */
    void Bind(uint8_t* flags, uint8_t bit)
    {
        m_flags = flags;
        m_bit = bit;
        Update();
    }

    /// As TracedCallback's, then the bit. @param callback the listener
    void ConnectWithoutContext(const CallbackBase& callback)
    {
        TracedCallback<Ts...>::ConnectWithoutContext(callback);
        Update();
    }

    /// As TracedCallback's, then the bit. @param callback the listener @param path its context
    void Connect(const CallbackBase& callback, std::string path)
    {
        TracedCallback<Ts...>::Connect(callback, path);
        Update();
    }

    /// As TracedCallback's, then the bit. @param callback the listener
    void DisconnectWithoutContext(const CallbackBase& callback)
    {
        TracedCallback<Ts...>::DisconnectWithoutContext(callback);
        Update();
    }

    /// As TracedCallback's, then the bit. @param callback the listener @param path its context
    void Disconnect(const CallbackBase& callback, std::string path)
    {
        TracedCallback<Ts...>::Disconnect(callback, path);
        Update();
    }

  private:
    /// Set or clear the bit by whether the list holds a listener.
    void Update()
    {
        if (m_flags != nullptr)
        {
            *m_flags =
                static_cast<uint8_t>(this->IsEmpty() ? (*m_flags & ~m_bit) : (*m_flags | m_bit));
        }
    }

    uint8_t* m_flags{nullptr}; //!< the owner's byte (null: not bound)
    uint8_t m_bit{0};          //!< this trace's bit of it
};

} // namespace ns3

#endif // FLAGGED_TRACED_CALLBACK_H
