/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DCQCN_CONGESTION_CONTROL_H
#define DCQCN_CONGESTION_CONTROL_H

#include "rdma-congestion-control.h"

#include "ns3/event-id.h"
#include "ns3/interconnect-events.h"
#include "ns3/traced-value.h"

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief DCQCN's reaction point (Zhu et al., "Congestion Control for Large-Scale RDMA
 * Deployments", SIGCOMM 2015, section 3).
 *
 * The congestion point is the switches' RED/ECN marking (RoceSwitchMmu), the notification
 * point the receiving NIC's CNPs (RdmaNic::CnpInterval). Here, per queue pair:
 *
 * - on a CNP: target rate RT := current rate RC; RC := RC x (1 - alpha / 2) (not below
 *   MinRate); alpha := (1 - g) alpha + g; both increase counters restart. With
 *   ClampTargetRate false (the Mellanox NIC option clamp_tgt_rate = 0), RT is only lowered
 *   to RC if a rate increase happened since the previous CNP, so a burst of CNPs does not drag
 *   the target down with the current rate;
 * - every AlphaTimer without a CNP: alpha := (1 - g) alpha;
 * - rate increase events, each raising a counter: the IncreaseTimer expires (timer counter T),
 *   or ByteCounter bytes were sent (byte counter BC). Then
 *   - fast recovery while max(T, BC) < F: RC := (RT + RC) / 2;
 *   - hyper increase when min(T, BC) > F: RT := RT + i x RateHai with i = min(T, BC) - F,
 *     then RC := (RT + RC) / 2;
 *   - additive increase otherwise: RT := RT + RateAi, then RC := (RT + RC) / 2;
 *   RT and RC never exceed the line rate.
 *
 * An idle queue pair runs no timers: when it sends again, the timer events of the idle period
 * (alpha decay, timer-driven increases) are applied at once, as if the timers had run.
 *
 * Defaults follow the paper (g = 1/256, 55 us timers, B = 10 MB, F = 5, R_AI = 40 Mb/s for its
 * 40 Gb/s testbed). ApplyPreset("hpcc-sim", rate) sets the variant of the HPCC authors'
 * simulator (Mellanox firmware behaviour), scaled to a line rate as that simulator scales it.
 *
 * Variant HpccSim behaves as that simulator's reaction point (alibaba-edu/High-Precision-
 * Congestion-Control, simulation/src/point-to-point/model/rdma-hw.cc: cnp_received_mlx,
 * UpdateAlphaMlx, CheckRateDecreaseMlx, RateIncEventTimerMlx, RateIncEventMlx, FastRecoveryMlx,
 * ActiveIncreaseMlx, HyperIncreaseMlx), not only with its numbers:
 *
 * - a CNP only raises two flags, "CNP seen" for alpha and for the rate decrease. The first CNP
 *   of the queue pair sets alpha to InitialAlpha, starts both periodic timers from its arrival
 *   and does not count for alpha;
 * - every AlphaTimer: alpha := (1 - g) alpha + g if a CNP was seen in the period, else
 *   (1 - g) alpha: one update per period, however many CNPs arrived;
 * - every RateDecreaseInterval (1 ns after the alpha timer's phase, so a decrease sees that
 *   instant's alpha update): if a CNP was seen, RT := RC unless ClampTargetRate is false and no
 *   increase event happened since the last decrease; RC := max(RC (1 - alpha / 2), MinRate);
 *   the stage counter restarts at 0 and the IncreaseTimer restarts;
 * - every IncreaseTimer (no byte counter): with stage counter T, fast recovery
 *   RC := (RC + RT) / 2 while T < F; at T = F one additive step RT := RT + RateAi; for T > F
 *   hyper increase RT := RT + RateHai (one step each time, not (T - F) steps); RC := (RC + RT) / 2
 *   after either; then T := T + 1. With F = 1: one fast-recovery step, one additive, then hyper.
 *   An increase and a decrease due at the same instant: the increase comes first, as in that
 *   simulator (its rate-increase event was scheduled earlier).
 *
 * That simulator's timers run for ever once started; here they are kept as phases and only the
 * events that change the rate are scheduled (none for an idle queue pair), with the same result.
 */
class DcqcnCongestionControl : public RdmaCongestionControl
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /// Which reaction point runs.
    enum Variant
    {
        PAPER,    //!< Zhu et al. 2015: per-CNP decrease and alpha, timer and byte counter
        HPCC_SIM, //!< the HPCC authors' simulator (Mellanox): flags sampled by periodic timers
    };

    DcqcnCongestionControl();

    /**
     * Set the DCQCN attribute defaults (Config::SetDefault) to a named preset:
     * "paper" (Zhu et al. 2015, Variant Paper) or "hpcc-sim" (the HPCC artifact's dcqcn mode,
     * Variant HpccSim: alpha timer 1 us, rate decrease checked every 4 us, increase timer
     * 300 us, one fast-recovery stage,
     * R_AI = 5 Mb/s and R_HAI = 50 Mb/s per 25 Gb/s of line rate, minimum rate 1 Gb/s, no
     * target-rate clamping, and receivers that signal every CE-marked packet (RdmaNic
     * CnpInterval 0); its switches mark with Kmin = 100 KB, Kmax = 400 KB per 25 Gb/s and
     * Pmax = 0.2, which this function does not set). "paper" also restores CnpInterval 50 us and
     * MinRate 10 Mb/s.
     * @param name the preset
     * @param lineRate the line rate the preset is scaled to
     */
    static void ApplyPreset(const std::string& name, DataRate lineRate);

    std::string GetName() const override;
    void OnStart(Ptr<RdmaQueuePair> qp) override;
    void OnSend(Ptr<RdmaQueuePair> qp, uint32_t bytes) override;
    void OnCnp(Ptr<RdmaQueuePair> qp) override;
    void OnIdle(Ptr<RdmaQueuePair> qp) override;

    /// @return alpha, the congestion estimate (Variant HpccSim: at the current time)
    double GetAlpha() const;
    /// @return the target rate RT
    DataRate GetTargetRate() const;
    /// @return the timer stage counter (Variant HpccSim: its stage counter, as of the last
    /// timer event applied; a recovered or idle queue pair applies them when it next acts)
    uint32_t GetTimerStage() const;
    /// @return the byte stage counter (always 0 with Variant HpccSim: no byte counter)
    uint32_t GetByteStage() const;

  protected:
    void DoDispose() override;

  private:
    /// One rate increase event (the timer or the byte counter fired).
    void Increase(Ptr<RdmaQueuePair> qp);
    /// The increase timer expired.
    void IncreaseTimer(Ptr<RdmaQueuePair> qp);
    /// The alpha timer expired (no CNP for AlphaTimer).
    void AlphaTimer(Ptr<RdmaQueuePair> qp);
    /// m_increaseEvent ran: IncreaseTimer, or SimTimer with Variant HpccSim.
    void IncreaseEventRan();
    /// m_alphaEvent ran: AlphaTimer.
    void AlphaEventRan();
    /// Start the timers if they are not running.
    void EnsureTimers(Ptr<RdmaQueuePair> qp);
    /// Apply RC to the queue pair.
    void Apply(Ptr<RdmaQueuePair> qp);
    /// After an idle period: apply the timer events that would have happened meanwhile.
    void CatchUp(Ptr<RdmaQueuePair> qp);

    // Variant HpccSim
    /// A CNP arrived.
    void SimCnp(Ptr<RdmaQueuePair> qp);
    /// Apply every timer event due at or before now, in time order.
    void SimAdvance(Ptr<RdmaQueuePair> qp);
    /// Schedule the next event that changes the rate (none while idle).
    void SimSchedule(Ptr<RdmaQueuePair> qp);
    /// The scheduled event: advance, schedule the next.
    void SimTimer(Ptr<RdmaQueuePair> qp);
    /// One rate increase event (the increase timer expired).
    void SimIncrease(Ptr<RdmaQueuePair> qp);
    /// The decrease check found a CNP.
    void SimDecrease(Ptr<RdmaQueuePair> qp, Time at);
    /// @return the first decrease check after t
    Time SimNextDecreaseCheck(Time t) const;
    /**
     * Alpha at time t, with the alpha-timer events up to and including t applied.
     * @param t the time (not before the last applied alpha event)
     * @param ticks set to the index of the last alpha-timer event at or before t
     * @return alpha
     */
    double SimAlphaAt(Time t, int64_t& ticks) const;
    /// Apply the alpha-timer events up to and including t.
    void SimAdvanceAlpha(Time t);

    // What a send reads (OnSend, EnsureTimers), together after the object's header: at fabric
    // scale a queue pair's DCQCN state has left the cache when its next packet goes, and each
    // line it spans is a miss that no hint names (doc/performance-log.rst).
    Variant m_variant;           //!< which reaction point (attribute)
    bool m_idle;                 //!< idle: timers stopped, caught up on the next send
    bool m_increaseIsSim{false}; //!< m_increaseEvent was scheduled by Variant HpccSim
    double m_rc;                 //!< current rate, bit/s
    double m_lineRate;           //!< line rate, bit/s
    uint64_t m_bytes;            //!< bytes since the last byte-counter event
    uint64_t m_byteCounter;      //!< bytes per rate increase event (attribute)
    TracedValue<double> m_rt;    //!< target rate, bit/s
    TracedValue<double> m_alpha; //!< congestion estimate
    /// The increase timer (Variant HpccSim: the next event that changes the rate). The timers
    /// reuse their events rather than make one per start: a CNP restarts both (incast64 starts
    /// them 13 700 times, runs 6 100: with PendingEvents, 1.7% of its instructions).
    ReusableTimer m_increaseEvent;
    ReusableTimer m_alphaEvent; //!< the alpha timer

    // attributes
    double m_g;              //!< alpha gain
    Time m_alphaTimer;       //!< alpha decay period
    Time m_increaseTimer;    //!< rate increase period
    uint32_t m_f;            //!< fast recovery stages
    DataRate m_rateAi;       //!< additive increase step
    DataRate m_rateHai;      //!< hyper increase step
    DataRate m_minRate;      //!< floor of RC
    Time m_decreaseInterval; //!< at most one decrease per interval (0: every CNP)
    double m_initialAlpha;   //!< alpha at start
    bool m_clampTargetRate;  //!< RT := RC on every CNP

    // state
    uint32_t m_timerStage; //!< T
    uint32_t m_byteStage;  //!< BC
    Time m_lastDecrease;   //!< last rate decrease
    bool m_decreased;      //!< a decrease happened
    /// The queue pair the timers act on (set when one is scheduled). Not a Ptr: the queue pair
    /// holds this object, and disposing of it, or giving it another congestion control,
    /// disposes of this, which cancels both timers.
    RdmaQueuePair* m_timerQp{nullptr};
    Time m_idleSince; //!< when the queue pair went idle

    // state of Variant HpccSim
    bool m_simStarted;      //!< a CNP arrived: the timers run from m_simOrigin
    Time m_simOrigin;       //!< the first CNP: alpha timer at + k AlphaTimer, checks 1 ns later
    int64_t m_simAlphaTick; //!< index k of the last alpha-timer event applied
    bool m_simAlphaCnp;     //!< a CNP since the last alpha-timer event
    bool m_simDecreaseCnp;  //!< a CNP since the last decrease check
    Time m_simDecreaseDue;  //!< the check that will act on m_simDecreaseCnp
    bool m_simIncreasing;   //!< the increase timer runs (since the first decrease)
    Time m_simNextIncrease; //!< its next expiry
};

} // namespace ns3

#endif // DCQCN_CONGESTION_CONTROL_H
