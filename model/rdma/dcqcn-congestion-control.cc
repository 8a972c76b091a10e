/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dcqcn-congestion-control.h"

#include "rdma-queue-pair.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/interconnect-compat.h"
#include "ns3/interconnect-config-error.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcqcnCongestionControl");

NS_OBJECT_ENSURE_REGISTERED(DcqcnCongestionControl);

namespace
{
/// Below this alpha the alpha timer stops (the estimate has decayed away).
constexpr double ALPHA_FLOOR = 1e-4;
} // namespace

TypeId
DcqcnCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcqcnCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("Interconnect")
            .AddConstructor<DcqcnCongestionControl>()
            .AddAttribute("G",
                          "Gain of the alpha estimate (0..1). Default: 1/256 (DCQCN paper).",
                          DoubleValue(1.0 / 256),
                          MakeDoubleAccessor(&DcqcnCongestionControl::m_g),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("AlphaTimer",
                          "Alpha decays by (1 - G) after each such period without a CNP (> 0). "
                          "Default: 55 us (DCQCN paper).",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&DcqcnCongestionControl::m_alphaTimer),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("IncreaseTimer",
                          "Period of the timer rate-increase events (> 0). Default: 55 us "
                          "(DCQCN paper).",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&DcqcnCongestionControl::m_increaseTimer),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("ByteCounter",
                          "Bytes sent per byte-counter rate-increase event (>= 1). Default: "
                          "10 MB (DCQCN paper).",
                          UintegerValue(10000000),
                          MakeUintegerAccessor(&DcqcnCongestionControl::m_byteCounter),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("FastRecoveryStages",
                          "F: increase events of fast recovery before additive increase (>= 1). "
                          "Default: 5 (DCQCN paper).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&DcqcnCongestionControl::m_f),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("RateAi",
                          "Additive increase step of the target rate. Default: 40 Mb/s (DCQCN "
                          "paper, 40 Gb/s links).",
                          DataRateValue(DataRate("40Mbps")),
                          MakeDataRateAccessor(&DcqcnCongestionControl::m_rateAi),
                          MakeDataRateChecker())
            .AddAttribute("RateHai",
                          "Hyper increase step of the target rate. Default: 400 Mb/s (10 x "
                          "RateAi, the ratio of the HPCC artifact's DCQCN settings).",
                          DataRateValue(DataRate("400Mbps")),
                          MakeDataRateAccessor(&DcqcnCongestionControl::m_rateHai),
                          MakeDataRateChecker())
            .AddAttribute("MinRate",
                          "The current rate never falls below this (> 0). Default: 10 Mb/s.",
                          DataRateValue(DataRate("10Mbps")),
                          MakeDataRateAccessor(&DcqcnCongestionControl::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("RateDecreaseInterval",
                          "At most one rate decrease per interval; 0 reacts to every CNP (the "
                          "NIC's CnpInterval already paces CNPs). Default: 0.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&DcqcnCongestionControl::m_decreaseInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("ClampTargetRate",
                          "On every CNP set the target rate to the current rate (DCQCN paper); "
                          "when false, only if a rate increase happened since the previous CNP "
                          "(Mellanox clamp_tgt_rate = 0, the HPCC simulator's setting).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcqcnCongestionControl::m_clampTargetRate),
                          MakeBooleanChecker())
            .AddAttribute("InitialAlpha",
                          "Alpha of a new queue pair (0..1); with Variant HpccSim, alpha at "
                          "the first CNP. Default: 1 (DCQCN paper; the HPCC simulator).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&DcqcnCongestionControl::m_initialAlpha),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("Variant",
                          "Paper: the reaction point of Zhu et al. (a CNP cuts the rate and "
                          "updates alpha at once; timer and byte counter drive the increase). "
                          "HpccSim: the HPCC authors' simulator (rdma-hw.cc, Mellanox mode): a "
                          "CNP sets flags that a periodic alpha timer (AlphaTimer) and a "
                          "periodic decrease check (RateDecreaseInterval, > 0) act on, once per "
                          "period; no byte counter; one fast-recovery stage per increase timer "
                          "while the stage < F, one additive at F, hyper increase beyond. "
                          "Default: Paper.",
                          EnumValue(DcqcnCongestionControl::PAPER),
                          INTERCONNECT_ENUM_ACCESSOR(DcqcnCongestionControl::Variant,
                                                     &DcqcnCongestionControl::m_variant),
                          MakeEnumChecker(DcqcnCongestionControl::PAPER,
                                          "Paper",
                                          DcqcnCongestionControl::HPCC_SIM,
                                          "HpccSim"))
            .AddTraceSource("Alpha",
                            "The congestion estimate alpha (0..1) as it changes",
                            MakeTraceSourceAccessor(&DcqcnCongestionControl::m_alpha),
                            "ns3::TracedValueCallback::Double")
            .AddTraceSource("TargetRate",
                            "The target rate RT, bit/s, as it changes",
                            MakeTraceSourceAccessor(&DcqcnCongestionControl::m_rt),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

DcqcnCongestionControl::DcqcnCongestionControl()
    : m_variant(PAPER),
      m_idle(false),
      m_rc(0),
      m_lineRate(0),
      m_bytes(0),
      m_byteCounter(10000000),
      m_rt(0),
      m_alpha(1.0),
      m_g(1.0 / 256),
      m_alphaTimer(MicroSeconds(55)),
      m_increaseTimer(MicroSeconds(55)),
      m_f(5),
      m_rateAi(DataRate("40Mbps")),
      m_rateHai(DataRate("400Mbps")),
      m_minRate(DataRate("10Mbps")),
      m_decreaseInterval(Time(0)),
      m_initialAlpha(1.0),
      m_clampTargetRate(true),
      m_timerStage(0),
      m_byteStage(0),
      m_decreased(false),
      m_simStarted(false),
      m_simAlphaTick(0),
      m_simAlphaCnp(false),
      m_simDecreaseCnp(false),
      m_simIncreasing(false)
{
    m_increaseEvent.Bind<DcqcnCongestionControl, &DcqcnCongestionControl::IncreaseEventRan>(this);
    m_alphaEvent.Bind<DcqcnCongestionControl, &DcqcnCongestionControl::AlphaEventRan>(this);
}

void
DcqcnCongestionControl::DoDispose()
{
    m_increaseEvent.Cancel();
    m_alphaEvent.Cancel();
    RdmaCongestionControl::DoDispose();
}

void
DcqcnCongestionControl::ApplyPreset(const std::string& name, DataRate lineRate)
{
    const double scale = lineRate.GetBitRate() / 25e9; // the artifact scales per 25 Gb/s
    if (name == "paper")
    {
        Config::SetDefault("ns3::DcqcnCongestionControl::G", DoubleValue(1.0 / 256));
        Config::SetDefault("ns3::DcqcnCongestionControl::AlphaTimer", TimeValue(MicroSeconds(55)));
        Config::SetDefault("ns3::DcqcnCongestionControl::IncreaseTimer",
                           TimeValue(MicroSeconds(55)));
        Config::SetDefault("ns3::DcqcnCongestionControl::ByteCounter", UintegerValue(10000000));
        Config::SetDefault("ns3::DcqcnCongestionControl::FastRecoveryStages", UintegerValue(5));
        Config::SetDefault("ns3::DcqcnCongestionControl::RateAi",
                           DataRateValue(DataRate("40Mbps")));
        Config::SetDefault("ns3::DcqcnCongestionControl::RateHai",
                           DataRateValue(DataRate("400Mbps")));
        Config::SetDefault("ns3::DcqcnCongestionControl::MinRate",
                           DataRateValue(DataRate("10Mbps")));
        Config::SetDefault("ns3::DcqcnCongestionControl::RateDecreaseInterval", TimeValue(Time(0)));
        Config::SetDefault("ns3::DcqcnCongestionControl::ClampTargetRate", BooleanValue(true));
        Config::SetDefault("ns3::DcqcnCongestionControl::Variant", StringValue("Paper"));
        Config::SetDefault("ns3::RdmaNic::CnpInterval", TimeValue(MicroSeconds(50)));
        Config::SetDefault("ns3::IbHostAdapter::CnpInterval", TimeValue(MicroSeconds(50)));
    }
    else if (name == "hpcc-sim")
    {
        // The HPCC artifact (simulation/run.py, cc=dcqcn): ALPHA_RESUME_INTERVAL 1,
        // RATE_DECREASE_INTERVAL 4, RP_TIMER 300, EWMA_GAIN 1/256, FAST_RECOVERY_TIMES 1,
        // RATE_AI 5 Mb/s x bw/25, RATE_HAI 50 Mb/s x bw/25, MIN_RATE 1000 Mb/s,
        // CLAMP_TARGET_RATE 0.
        Config::SetDefault("ns3::DcqcnCongestionControl::G", DoubleValue(1.0 / 256));
        Config::SetDefault("ns3::DcqcnCongestionControl::AlphaTimer", TimeValue(MicroSeconds(1)));
        Config::SetDefault("ns3::DcqcnCongestionControl::IncreaseTimer",
                           TimeValue(MicroSeconds(300)));
        Config::SetDefault("ns3::DcqcnCongestionControl::FastRecoveryStages", UintegerValue(1));
        Config::SetDefault("ns3::DcqcnCongestionControl::RateAi",
                           DataRateValue(DataRate(static_cast<uint64_t>(5e6 * scale))));
        Config::SetDefault("ns3::DcqcnCongestionControl::RateHai",
                           DataRateValue(DataRate(static_cast<uint64_t>(50e6 * scale))));
        Config::SetDefault("ns3::DcqcnCongestionControl::MinRate",
                           DataRateValue(DataRate("1Gbps")));
        Config::SetDefault("ns3::DcqcnCongestionControl::RateDecreaseInterval",
                           TimeValue(MicroSeconds(4)));
        Config::SetDefault("ns3::DcqcnCongestionControl::ClampTargetRate", BooleanValue(false));
        // Not only its numbers: its alpha and decrease timers sample "CNP seen" flags, and
        // its increase has no byte counter and its own stages.
        Config::SetDefault("ns3::DcqcnCongestionControl::Variant", StringValue("HpccSim"));
        // Its receivers signal every CE-marked packet (ECN echoed per ACK), not one CNP per
        // 50 us: the reaction point's 4 us decrease interval does the pacing.
        Config::SetDefault("ns3::RdmaNic::CnpInterval", TimeValue(Time(0)));
        Config::SetDefault("ns3::IbHostAdapter::CnpInterval", TimeValue(Time(0)));
    }
    else
    {
        InterconnectConfigError("DCQCN preset", name, "paper or hpcc-sim");
    }
}

std::string
DcqcnCongestionControl::GetName() const
{
    return "dcqcn";
}

void
DcqcnCongestionControl::OnStart(Ptr<RdmaQueuePair> qp)
{
    m_lineRate = static_cast<double>(qp->GetLineRate().GetBitRate());
    m_rc = m_lineRate;
    m_rt = m_lineRate;
    m_alpha = m_initialAlpha;
    qp->SetWindow(0);
    if (m_variant == HPCC_SIM && m_decreaseInterval.IsZero())
    {
        InterconnectConfigError("ns3::DcqcnCongestionControl::RateDecreaseInterval",
                                "0",
                                "a period > 0 with Variant HpccSim (its decrease check)");
    }
    Apply(qp);
}

void
DcqcnCongestionControl::Apply(Ptr<RdmaQueuePair> qp)
{
    qp->SetRate(DataRate(static_cast<uint64_t>(m_rc)));
}

void
DcqcnCongestionControl::EnsureTimers(Ptr<RdmaQueuePair> qp)
{
    if (!m_increaseEvent.IsPending() && (m_rc < m_lineRate || m_rt < m_lineRate))
    {
        m_timerQp = PeekPointer(qp);
        m_increaseIsSim = false;
        m_increaseEvent.Schedule(m_increaseTimer);
    }
    if (!m_alphaEvent.IsPending() && m_alpha > ALPHA_FLOOR)
    {
        m_timerQp = PeekPointer(qp);
        m_alphaEvent.Schedule(m_alphaTimer);
    }
}

void
DcqcnCongestionControl::IncreaseEventRan()
{
    if (m_increaseIsSim)
    {
        SimTimer(m_timerQp);
    }
    else
    {
        IncreaseTimer(m_timerQp);
    }
}

void
DcqcnCongestionControl::AlphaEventRan()
{
    AlphaTimer(m_timerQp);
}

void
DcqcnCongestionControl::CatchUp(Ptr<RdmaQueuePair> qp)
{
    m_idle = false;
    const Time idle = Simulator::Now() - m_idleSince;
    const int64_t alphaTicks = idle.GetTimeStep() / m_alphaTimer.GetTimeStep();
    m_alpha *= std::pow(1 - m_g, static_cast<double>(alphaTicks));
    int64_t ticks = idle.GetTimeStep() / m_increaseTimer.GetTimeStep();
    while (ticks-- > 0 && (m_rc < m_lineRate || m_rt < m_lineRate))
    {
        ++m_timerStage;
        Increase(qp);
    }
}

void
DcqcnCongestionControl::OnSend(Ptr<RdmaQueuePair> qp, uint32_t bytes)
{
    if (m_variant == HPCC_SIM)
    {
        // No byte counter; a queue pair that was idle brings its timers up to date.
        if (m_idle)
        {
            m_idle = false;
            SimAdvance(qp);
            SimSchedule(qp);
        }
        return;
    }
    if (m_idle)
    {
        CatchUp(qp);
    }
    if (m_rc >= m_lineRate && m_rt >= m_lineRate)
    {
        return; // at line rate: nothing to recover
    }
    m_bytes += bytes;
    if (m_bytes >= m_byteCounter)
    {
        m_bytes -= m_byteCounter;
        ++m_byteStage;
        Increase(qp);
    }
    EnsureTimers(qp);
}

void
DcqcnCongestionControl::OnCnp(Ptr<RdmaQueuePair> qp)
{
    if (m_variant == HPCC_SIM)
    {
        SimCnp(qp);
        return;
    }
    const Time now = Simulator::Now();
    const bool idle = m_idle; // a late CNP for a queue pair that has nothing left to send
    if (idle)
    {
        CatchUp(qp);
    }
    if (!m_decreased || m_decreaseInterval.IsZero() || now - m_lastDecrease >= m_decreaseInterval)
    {
        m_decreased = true;
        m_lastDecrease = now;
        if (m_clampTargetRate || m_timerStage > 0 || m_byteStage > 0)
        {
            m_rt = m_rc;
        }
        m_rc =
            std::max(m_rc * (1 - m_alpha.Get() / 2), static_cast<double>(m_minRate.GetBitRate()));
        Apply(qp);
    }
    m_alpha = (1 - m_g) * m_alpha + m_g;
    m_timerStage = 0;
    m_byteStage = 0;
    m_bytes = 0;
    // Both timers count from the last CNP.
    m_increaseEvent.Cancel();
    m_alphaEvent.Cancel();
    if (idle)
    {
        m_idle = true; // stay without timers; the next send catches up from now
        m_idleSince = now;
        return;
    }
    EnsureTimers(qp);
}

void
DcqcnCongestionControl::AlphaTimer(Ptr<RdmaQueuePair> qp)
{
    m_alpha = (1 - m_g) * m_alpha;
    EnsureTimers(qp);
}

void
DcqcnCongestionControl::IncreaseTimer(Ptr<RdmaQueuePair> qp)
{
    ++m_timerStage;
    Increase(qp);
    EnsureTimers(qp);
}

void
DcqcnCongestionControl::Increase(Ptr<RdmaQueuePair> qp)
{
    const uint32_t hi = std::max(m_timerStage, m_byteStage);
    const uint32_t lo = std::min(m_timerStage, m_byteStage);
    if (hi < m_f)
    {
        // fast recovery: towards the rate before the last decrease
    }
    else if (lo > m_f)
    {
        m_rt += (lo - m_f) * static_cast<double>(m_rateHai.GetBitRate());
    }
    else
    {
        m_rt += static_cast<double>(m_rateAi.GetBitRate());
    }
    m_rt = std::min(m_rt.Get(), m_lineRate);
    m_rc = std::min((m_rt.Get() + m_rc) / 2, m_lineRate);
    if (m_rt >= m_lineRate && m_rc > m_lineRate * (1 - 1e-6))
    {
        m_rc = m_lineRate; // halving the gap never closes it: call it recovered within 1 ppm
    }
    Apply(qp);
}

void
DcqcnCongestionControl::OnIdle(Ptr<RdmaQueuePair> /* qp */)
{
    if (m_variant == HPCC_SIM)
    {
        // The timers are phases: the next send or CNP applies what they did meanwhile.
        m_increaseEvent.Cancel();
        m_idle = true;
        return;
    }
    // No events for an idle queue pair (an all-to-all leaves thousands of them): stop the
    // timers and account for the idle time when it sends again (CatchUp).
    if (m_increaseEvent.IsPending() || m_alphaEvent.IsPending())
    {
        m_increaseEvent.Cancel();
        m_alphaEvent.Cancel();
        m_idle = true;
        m_idleSince = Simulator::Now();
    }
}

// Variant HpccSim: the reaction point of the HPCC authors' simulator, written from the rules of
// alibaba-edu/High-Precision-Congestion-Control, simulation/src/point-to-point/model/rdma-hw.cc
// (cnp_received_mlx, UpdateAlphaMlx, CheckRateDecreaseMlx, RateIncEventTimerMlx,
// RateIncEventMlx, FastRecoveryMlx, ActiveIncreaseMlx, HyperIncreaseMlx). Its three periodic
// timers are kept as phases: alpha-timer events at m_simOrigin + k AlphaTimer (k >= 1), decrease
// checks at m_simOrigin + 1 ns + k RateDecreaseInterval, increase events at m_simNextIncrease +
// k IncreaseTimer. SimAdvance applies every event due up to now in time order; only the events
// that change the rate are scheduled as simulator events.

double
DcqcnCongestionControl::SimAlphaAt(Time t, int64_t& ticks) const
{
    ticks = (t - m_simOrigin).GetTimeStep() / m_alphaTimer.GetTimeStep();
    const int64_t n = ticks - m_simAlphaTick;
    if (n <= 0)
    {
        ticks = m_simAlphaTick;
        return m_alpha;
    }
    // The first event of the span consumes the "CNP seen" flag; the others only decay.
    const double first = (1 - m_g) * m_alpha + (m_simAlphaCnp ? m_g : 0);
    return first * std::pow(1 - m_g, static_cast<double>(n - 1));
}

void
DcqcnCongestionControl::SimAdvanceAlpha(Time t)
{
    int64_t ticks = 0;
    m_alpha = SimAlphaAt(t, ticks);
    if (ticks > m_simAlphaTick)
    {
        m_simAlphaTick = ticks;
        m_simAlphaCnp = false;
    }
}

Time
DcqcnCongestionControl::SimNextDecreaseCheck(Time t) const
{
    const int64_t period = m_decreaseInterval.GetTimeStep();
    const int64_t since = (t - m_simOrigin - NanoSeconds(1)).GetTimeStep();
    const int64_t k = since < 0 ? 1 : since / period + 1;
    return m_simOrigin + NanoSeconds(1) + TimeStep(k * period);
}

void
DcqcnCongestionControl::SimCnp(Ptr<RdmaQueuePair> qp)
{
    const Time now = Simulator::Now();
    SimAdvance(qp); // timer events at this instant come before the CNP
    if (!m_simStarted)
    {
        // The first CNP starts the timers; alpha begins at its initial value and this CNP
        // counts for the first decrease check only.
        m_simStarted = true;
        m_simOrigin = now;
        m_simAlphaTick = 0;
        m_alpha = m_initialAlpha;
        m_simAlphaCnp = false;
        m_simDecreaseCnp = true;
        m_simDecreaseDue = now + m_decreaseInterval + NanoSeconds(1);
        m_rt = m_rc;
    }
    else
    {
        SimAdvanceAlpha(now); // the flag belongs to the alpha period that is running now
        m_simAlphaCnp = true;
        if (!m_simDecreaseCnp)
        {
            m_simDecreaseCnp = true;
            m_simDecreaseDue = SimNextDecreaseCheck(now);
        }
    }
    if (!m_idle)
    {
        SimSchedule(qp);
    }
}

void
DcqcnCongestionControl::SimAdvance(Ptr<RdmaQueuePair> qp)
{
    const Time now = Simulator::Now();
    while (true)
    {
        const Time increase = m_simIncreasing ? m_simNextIncrease : Time::Max();
        const Time decrease = m_simDecreaseCnp ? m_simDecreaseDue : Time::Max();
        if (increase <= now && increase <= decrease)
        {
            if (m_rc >= m_lineRate && m_rt >= m_lineRate)
            {
                // Recovered: an increase event only counts a stage. Count them at once up to
                // the next decrease (increases due at the same instant come first).
                const Time last = std::min(now, decrease);
                const int64_t n =
                    (last - increase).GetTimeStep() / m_increaseTimer.GetTimeStep() + 1;
                m_timerStage = static_cast<uint32_t>(
                    std::min<uint64_t>(uint64_t{m_timerStage} + static_cast<uint64_t>(n),
                                       UINT32_MAX));
                m_simNextIncrease += TimeStep(n * m_increaseTimer.GetTimeStep());
                continue;
            }
            SimIncrease(qp);
            m_simNextIncrease += m_increaseTimer;
            continue;
        }
        if (decrease <= now)
        {
            SimDecrease(qp, decrease);
            continue;
        }
        break;
    }
}

void
DcqcnCongestionControl::SimIncrease(Ptr<RdmaQueuePair> qp)
{
    if (m_timerStage == m_f)
    {
        m_rt = std::min(m_rt.Get() + static_cast<double>(m_rateAi.GetBitRate()), m_lineRate);
    }
    else if (m_timerStage > m_f)
    {
        m_rt = std::min(m_rt.Get() + static_cast<double>(m_rateHai.GetBitRate()), m_lineRate);
    }
    // (below F: fast recovery, RT unchanged)
    m_rc = std::min((m_rc + m_rt.Get()) / 2, m_lineRate);
    if (m_rt >= m_lineRate && m_rc > m_lineRate * (1 - 1e-6))
    {
        m_rc = m_lineRate; // halving the gap never closes it: call it recovered within 1 ppm
    }
    if (m_timerStage < UINT32_MAX)
    {
        ++m_timerStage;
    }
    Apply(qp);
}

void
DcqcnCongestionControl::SimDecrease(Ptr<RdmaQueuePair> qp, Time at)
{
    // The alpha-timer events up to this check come first (the check runs 1 ns after them).
    SimAdvanceAlpha(at);
    if (m_clampTargetRate || m_timerStage > 0)
    {
        m_rt = m_rc;
    }
    m_rc = std::max(m_rc * (1 - m_alpha.Get() / 2), static_cast<double>(m_minRate.GetBitRate()));
    m_timerStage = 0;
    m_simDecreaseCnp = false;
    m_simIncreasing = true;
    m_simNextIncrease = at + m_increaseTimer;
    Apply(qp);
}

void
DcqcnCongestionControl::SimSchedule(Ptr<RdmaQueuePair> qp)
{
    m_increaseEvent.Cancel();
    Time next = m_simDecreaseCnp ? m_simDecreaseDue : Time::Max();
    if (m_simIncreasing && (m_rc < m_lineRate || m_rt < m_lineRate))
    {
        next = std::min(next, m_simNextIncrease);
    }
    if (next != Time::Max())
    {
        m_timerQp = PeekPointer(qp);
        m_increaseIsSim = true;
        m_increaseEvent.Schedule(next - Simulator::Now());
    }
}

void
DcqcnCongestionControl::SimTimer(Ptr<RdmaQueuePair> qp)
{
    SimAdvance(qp);
    SimSchedule(qp);
}

double
DcqcnCongestionControl::GetAlpha() const
{
    if (m_variant == HPCC_SIM && m_simStarted)
    {
        int64_t ticks = 0;
        return SimAlphaAt(Simulator::Now(), ticks);
    }
    return m_alpha;
}

DataRate
DcqcnCongestionControl::GetTargetRate() const
{
    return DataRate(static_cast<uint64_t>(m_rt));
}

uint32_t
DcqcnCongestionControl::GetTimerStage() const
{
    return m_timerStage;
}

uint32_t
DcqcnCongestionControl::GetByteStage() const
{
    return m_byteStage;
}

} // namespace ns3
