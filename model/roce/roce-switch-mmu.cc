/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-switch-mmu.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/interconnect-config-error.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceSwitchMmu");

NS_OBJECT_ENSURE_REGISTERED(RoceSwitchMmu);

TypeId
RoceSwitchMmu::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceSwitchMmu")
            .SetParent<Object>()
            .SetGroupName("Interconnect")
            .AddConstructor<RoceSwitchMmu>()
            .AddAttribute("BufferSize",
                          "Packet buffer of the whole switch, bytes (1..2^40). Default: 12 MB, the "
                          "Broadcom Trident II of the DCQCN paper's testbed (SIGCOMM 2015).",
                          UintegerValue(12000000),
                          MakeUintegerAccessor(&RoceSwitchMmu::m_bufferSize),
                          MakeUintegerChecker<uint64_t>(1, uint64_t{1} << 40))
            .AddAttribute("Headroom",
                          "Headroom reserved per (port, lossless priority), bytes; 0 computes it "
                          "from each port's rate, cable delay and the maximum frame.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RoceSwitchMmu::m_headroomOverride),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("PfcEnabled",
                          "Lossless priorities send PFC and never drop; when false every "
                          "priority is lossy (drop-tail).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RoceSwitchMmu::m_pfcEnabled),
                          MakeBooleanChecker())
            .AddAttribute("LosslessPriorities",
                          "Bit mask of the lossless priorities (bit i = priority i). Default: "
                          "0x08, priority 3, the usual RoCEv2 class.",
                          UintegerValue(0x08),
                          MakeUintegerAccessor(&RoceSwitchMmu::m_losslessMask),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("PfcAlpha",
                          "Dynamic threshold factor: an ingress pauses its upstream when its "
                          "shared bytes exceed PfcAlpha x free shared bytes (1/128..64). "
                          "Default: 1/8.",
                          DoubleValue(0.125),
                          MakeDoubleAccessor(&RoceSwitchMmu::m_pfcAlpha),
                          MakeDoubleChecker<double>(1.0 / 128, 64))
            .AddAttribute("XonOffset",
                          "Hysteresis: an ingress resumes when its shared bytes are this far "
                          "below the pause threshold (and its headroom is empty), bytes. "
                          "Default: 3000 (two 1500-byte frames).",
                          UintegerValue(3000),
                          MakeUintegerAccessor(&RoceSwitchMmu::m_xonOffset),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("LossyAlpha",
                          "Dynamic threshold factor of lossy egress queues: a frame is dropped "
                          "when its queue would exceed LossyAlpha x free shared bytes "
                          "(1/128..64).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&RoceSwitchMmu::m_lossyAlpha),
                          MakeDoubleChecker<double>(1.0 / 128, 64))
            .AddAttribute("EcnEnabled",
                          "RED/ECN marking of ECN-capable frames on every egress queue",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RoceSwitchMmu::m_ecnEnabled),
                          MakeBooleanChecker())
            .AddAttribute("EcnKmin",
                          "RED Kmin, bytes of egress queue below which nothing is marked. "
                          "Default: 5 KB (DCQCN paper, 40 Gb/s).",
                          UintegerValue(5000),
                          MakeUintegerAccessor(&RoceSwitchMmu::m_kmin),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("EcnKmax",
                          "RED Kmax, bytes of egress queue from which every frame is marked "
                          "(>= EcnKmin). Default: 200 KB (DCQCN paper).",
                          UintegerValue(200000),
                          MakeUintegerAccessor(&RoceSwitchMmu::m_kmax),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("EcnPmax",
                          "RED marking probability at Kmax (0..1). Default: 0.01 (DCQCN paper).",
                          DoubleValue(0.01),
                          MakeDoubleAccessor(&RoceSwitchMmu::m_pmax),
                          MakeDoubleChecker<double>(0, 1))
            .AddTraceSource("Pause",
                            "An ingress decided XOFF (true) or XON (false) on a priority",
                            MakeTraceSourceAccessor(&RoceSwitchMmu::m_pauseTrace),
                            "ns3::RoceSwitchMmu::PauseTracedCallback");
    return tid;
}

RoceSwitchMmu::RoceSwitchMmu()
    : m_headroomOverflows(0),
      m_bufferDrops(0)
{
    NS_LOG_FUNCTION(this);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof" // (no virtual base: GCC and Clang lay it out)
    static_assert(offsetof(RoceSwitchMmu, m_uniform) + sizeof(m_uniform) <= FRAME_LINES * 64,
                  "RoceSwitchMmu: the per-frame fields end within FRAME_LINES lines");
#pragma GCC diagnostic pop
    static_assert(alignof(RoceSwitchMmu) >= 64, "RoceSwitchMmu: the object starts on a line");
    m_uniform = CreateObject<UniformRandomVariable>();
}

void
RoceSwitchMmu::DoDispose()
{
    m_uniform = nullptr;
    m_pauseCallback = Callback<void, uint32_t, uint8_t, bool>();
    Object::DoDispose();
}

void
RoceSwitchMmu::Configure(const std::vector<DataRate>& rates,
                         const std::vector<Time>& delays,
                         uint32_t maxFrameBytes)
{
    NS_LOG_FUNCTION(this << rates.size() << maxFrameBytes);
    NS_ASSERT(rates.size() == delays.size());
    if (m_kmax < m_kmin)
    {
        InterconnectConfigError("ns3::RoceSwitchMmu::EcnKmax",
                                std::to_string(m_kmax),
                                "a value >= EcnKmin (" + std::to_string(m_kmin) + ")");
    }
    const std::size_t n = rates.size();
    m_ingress.assign(n, Ingress{});
    m_ingressHeadroom.assign(n, {});
    m_egressBytes.assign(n, {});
    uint32_t losslessCount = 0;
    for (uint8_t p = 0; p < 8; ++p)
    {
        losslessCount += IsLossless(p) ? 1 : 0;
    }
    uint64_t reserved = 0;
    for (std::size_t i = 0; i < n; ++i)
    {
        if (m_headroomOverride != 0)
        {
            m_ingress[i].headroom = m_headroomOverride;
        }
        else
        {
            // What arrives after the decision to pause: the pause frame's flight and the data
            // already on the cable (2 x one-way bytes), a frame the upstream has just started
            // and one we are sending ahead of the pause (2 x max frame), the pause frame itself,
            // and the 802.1Qbb response allowance (3840 bit times).
            const double oneWayBytes = rates[i].GetBitRate() * delays[i].GetSeconds() / 8.0;
            const double headroom =
                std::ceil(2 * oneWayBytes - 1e-6) + 2.0 * maxFrameBytes + 64 + 3840 / 8;
            // Saturated, not wrapped: a cable too long for any buffer (the check below names
            // it) must not come out as a small headroom.
            m_ingress[i].headroom =
                headroom >= 4294967295.0 ? 4294967295u : static_cast<uint32_t>(headroom);
        }
        reserved += static_cast<uint64_t>(m_ingress[i].headroom) * losslessCount;
    }
    if (!m_pfcEnabled)
    {
        reserved = 0;
    }
    if (reserved >= m_bufferSize)
    {
        InterconnectConfigError("ns3::RoceSwitchMmu::BufferSize",
                                std::to_string(m_bufferSize),
                                "more than the headroom reserved for " + std::to_string(n) +
                                    " ports x " + std::to_string(losslessCount) +
                                    " lossless priorities (" + std::to_string(reserved) +
                                    " bytes); raise BufferSize or lower Headroom");
    }
    m_sharedSize = m_bufferSize - reserved;
}

bool
RoceSwitchMmu::IsLossless(uint8_t priority) const
{
    return m_pfcEnabled && ((m_losslessMask >> priority) & 1);
}

uint64_t
RoceSwitchMmu::GetPauseThreshold() const
{
    const uint64_t freeShared = m_sharedSize - std::min(m_sharedSize, m_sharedUsed);
    return static_cast<uint64_t>(m_pfcAlpha * static_cast<double>(freeShared));
}

RoceSwitchMmu::Pool
RoceSwitchMmu::Admit(uint32_t inPort, uint32_t outPort, uint8_t priority, uint32_t bytes)
{
    return Admit(inPort, priority, outPort, priority, bytes);
}

RoceSwitchMmu::Pool
RoceSwitchMmu::Admit(uint32_t inPort,
                     uint8_t priority,
                     uint32_t outPort,
                     uint8_t outPriority,
                     uint32_t bytes)
{
    NS_ASSERT(inPort < m_ingress.size() && outPort < m_ingress.size() && priority < 8 &&
              outPriority < 8);
    Pool pool;
    if (IsLossless(priority))
    {
        uint32_t& shared = m_ingress[inPort].shared[priority];
        if (!m_ingress[inPort].paused[priority] && shared + bytes <= GetPauseThreshold() &&
            m_sharedUsed + bytes <= m_sharedSize)
        {
            pool = SHARED;
            shared += bytes;
            m_sharedUsed += bytes;
        }
        else
        {
            uint32_t& headroom = m_ingressHeadroom[inPort][priority];
            pool = (headroom + bytes <= m_ingress[inPort].headroom) ? HEADROOM : BEYOND_HEADROOM;
            if (pool == BEYOND_HEADROOM)
            {
                ++m_headroomOverflows;
                NS_LOG_WARN("lossless headroom overflow at port " << inPort << " priority "
                                                                  << +priority);
            }
            headroom += bytes;
            m_headroomUsedTotal += bytes;
            if (headroom > m_peakHeadroom)
            {
                m_peakHeadroom = headroom;
            }
            if (m_ingress[inPort].headroom > 0)
            {
                m_peakHeadroomPercent =
                    std::max(m_peakHeadroomPercent, 100.0 * headroom / m_ingress[inPort].headroom);
            }
            if (!m_ingress[inPort].paused[priority])
            {
                m_ingress[inPort].paused[priority] = true;
                m_pauseTrace(inPort, priority, true);
                if (!m_pauseCallback.IsNull())
                {
                    m_pauseCallback(inPort, priority, true);
                }
            }
        }
    }
    else
    {
        const uint64_t freeShared = m_sharedSize - std::min(m_sharedSize, m_sharedUsed);
        const uint64_t limit =
            static_cast<uint64_t>(m_lossyAlpha * static_cast<double>(freeShared));
        if (m_egressBytes[outPort][outPriority] + bytes > limit ||
            m_sharedUsed + bytes > m_sharedSize)
        {
            ++m_bufferDrops;
            return DROPPED;
        }
        pool = SHARED;
        m_ingress[inPort].shared[priority] += bytes;
        m_sharedUsed += bytes;
    }
    m_egressBytes[outPort][outPriority] += bytes;
    m_peakUsed = std::max(m_peakUsed, m_sharedUsed + m_headroomUsedTotal);
    return pool;
}

void
RoceSwitchMmu::Release(uint32_t inPort,
                       uint32_t outPort,
                       uint8_t priority,
                       uint32_t bytes,
                       Pool pool)
{
    Release(inPort, priority, outPort, priority, bytes, pool);
}

void
RoceSwitchMmu::Release(uint32_t inPort,
                       uint8_t priority,
                       uint32_t outPort,
                       uint8_t outPriority,
                       uint32_t bytes,
                       Pool pool)
{
    NS_ASSERT(pool != DROPPED);
    m_egressBytes[outPort][outPriority] -= bytes;
    if (pool == SHARED)
    {
        m_ingress[inPort].shared[priority] -= bytes;
        m_sharedUsed -= bytes;
    }
    else
    {
        m_ingressHeadroom[inPort][priority] -= bytes;
        m_headroomUsedTotal -= bytes;
    }
    if (m_ingress[inPort].paused[priority])
    {
        MaybeResume(inPort, priority);
    }
}

void
RoceSwitchMmu::MaybeResume(uint32_t inPort, uint8_t priority)
{
    if (m_ingressHeadroom[inPort][priority] != 0)
    {
        return;
    }
    const uint64_t shared = m_ingress[inPort].shared[priority];
    if (shared == 0 || shared + m_xonOffset <= GetPauseThreshold())
    {
        m_ingress[inPort].paused[priority] = false;
        m_pauseTrace(inPort, priority, false);
        if (!m_pauseCallback.IsNull())
        {
            m_pauseCallback(inPort, priority, false);
        }
    }
}

bool
RoceSwitchMmu::ShouldMarkEcn(uint32_t outPort, uint8_t priority)
{
    if (!m_ecnEnabled)
    {
        return false;
    }
    const uint32_t q = m_egressBytes[outPort][priority];
    if (q <= m_kmin)
    {
        return false;
    }
    if (q >= m_kmax)
    {
        return true;
    }
    const double p = m_pmax * (q - m_kmin) / static_cast<double>(m_kmax - m_kmin);
    return m_uniform->GetValue() < p;
}

bool
RoceSwitchMmu::IsPaused(uint32_t inPort, uint8_t priority) const
{
    return m_ingress[inPort].paused[priority];
}

uint32_t
RoceSwitchMmu::GetHeadroom(uint32_t port) const
{
    return m_ingress[port].headroom;
}

uint64_t
RoceSwitchMmu::GetSharedSize() const
{
    return m_sharedSize;
}

uint64_t
RoceSwitchMmu::GetSharedUsed() const
{
    return m_sharedUsed;
}

uint32_t
RoceSwitchMmu::GetEgressBytes(uint32_t port, uint8_t priority) const
{
    return m_egressBytes[port][priority];
}

uint32_t
RoceSwitchMmu::GetIngressSharedBytes(uint32_t port, uint8_t priority) const
{
    return m_ingress[port].shared[priority];
}

uint64_t
RoceSwitchMmu::GetPeakUsed() const
{
    return m_peakUsed;
}

uint64_t
RoceSwitchMmu::GetPeakHeadroom() const
{
    return m_peakHeadroom;
}

double
RoceSwitchMmu::GetPeakHeadroomPercent() const
{
    return m_peakHeadroomPercent;
}

uint64_t
RoceSwitchMmu::GetHeadroomOverflows() const
{
    return m_headroomOverflows;
}

uint64_t
RoceSwitchMmu::GetBufferDrops() const
{
    return m_bufferDrops;
}

void
RoceSwitchMmu::SetPauseCallback(Callback<void, uint32_t, uint8_t, bool> cb)
{
    m_pauseCallback = cb;
}

int64_t
RoceSwitchMmu::AssignStreams(int64_t stream)
{
    m_uniform->SetStream(stream);
    return 1;
}

} // namespace ns3
