/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CONGESTION_STATE_RECORDER_H
#define CONGESTION_STATE_RECORDER_H

#include "ns3/message-transport.h"

#include <cstdio>
#include <string>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief The congestion-control record of a run (cc.csv), the same for every link technology:
 * a row at every change of a connection's rate, window or inter-packet gap, fed by
 * MessageTransport::TraceCongestionState.
 *
 * Columns: time_ns, host (the connection's source), queue_pair (its QPN at the source, or the
 * iWARP connection number: flows.csv's queue_pair), rate_bps (0 for iWARP, whose TCP keeps a
 * window), window_bytes (0: no window), gap_ns (InfiniBand CC's inter-packet delay; 0: none).
 * The rows go to the file as they happen, so a long run holds none of them in memory.
 */
class CongestionStateRecorder
{
  public:
    /**
     * Open the file (its header written) and start recording.
     * @param network the transport whose connections to record
     * @param path the file to write (an InterconnectConfigException if it cannot be opened)
     */
    CongestionStateRecorder(MessageTransport& network, const std::string& path);

    /// Closes the file if Close was not called.
    ~CongestionStateRecorder();

    CongestionStateRecorder(const CongestionStateRecorder&) = delete;
    CongestionStateRecorder& operator=(const CongestionStateRecorder&) = delete;

    /// Close the file, checking that every row reached it (an InterconnectConfigException).
    void Close();

    /// @return the rows written so far
    uint64_t GetRows() const;

  private:
    /// @param state a change to write
    void Record(const MessageTransport::CongestionState& state);

    std::string m_path; //!< the file's name
    FILE* m_file;       //!< the open file (nullptr: closed)
    uint64_t m_rows;    //!< rows written
};

} // namespace ns3

#endif // CONGESTION_STATE_RECORDER_H
