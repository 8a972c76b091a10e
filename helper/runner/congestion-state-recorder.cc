/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "congestion-state-recorder.h"

#include "ns3/run-record.h"
#include "ns3/simulator.h"

#include <cinttypes>

namespace ns3
{

CongestionStateRecorder::CongestionStateRecorder(MessageTransport& network, const std::string& path)
    : m_path(path),
      m_file(OpenOutputFile(path)),
      m_rows(0)
{
    std::fputs("time_ns,host,queue_pair,rate_bps,window_bytes,gap_ns\n", m_file);
    network.TraceCongestionState(
        [this](const MessageTransport::CongestionState& state) { Record(state); });
}

CongestionStateRecorder::~CongestionStateRecorder()
{
    if (m_file)
    {
        std::fclose(m_file);
    }
}

void
CongestionStateRecorder::Record(const MessageTransport::CongestionState& state)
{
    if (!m_file)
    {
        return; // closed: the run is over
    }
    std::fprintf(m_file,
                 "%" PRId64 ",%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRId64 "\n",
                 Simulator::Now().GetNanoSeconds(),
                 state.host,
                 state.connection,
                 state.rate.GetBitRate(),
                 state.window,
                 state.gap.GetNanoSeconds());
    ++m_rows;
}

void
CongestionStateRecorder::Close()
{
    if (m_file)
    {
        FILE* f = m_file;
        m_file = nullptr;
        CloseOutputFile(f, m_path);
    }
}

uint64_t
CongestionStateRecorder::GetRows() const
{
    return m_rows;
}

} // namespace ns3
