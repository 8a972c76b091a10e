/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_SWITCH_MMU_H
#define ROCE_SWITCH_MMU_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief The shared-buffer memory manager of an Ethernet switch: admission, PFC and ECN.
 *
 * One buffer of BufferSize bytes serves all ports. Each (ingress port, lossless priority) owns a
 * headroom reserved out of it; the rest is shared. Accounting is kept twice:
 *
 * - per (ingress port, priority), for PFC: a lossless frame is charged to the shared pool while
 *   the ingress's shared bytes stay under the dynamic threshold PfcAlpha x (free shared bytes)
 *   (Choudhury and Hahne, IEEE/ACM ToN 1998); above it the ingress pauses its upstream (XOFF) and
 *   further frames go to the headroom, which absorbs what is in flight until the pause bites.
 *   The ingress resumes (XON) when its headroom is empty and its shared bytes are XonOffset below
 *   the threshold. A lossless frame is never dropped: one that finds the headroom full is still
 *   admitted and counted as a headroom overflow, which means the headroom is configured too small.
 * - per (egress port, priority), for drop and ECN: a lossy frame is dropped when its egress queue
 *   would exceed LossyAlpha x (free shared bytes) or the shared pool is full; with PFC disabled
 *   every priority is lossy. ECN uses RED on the egress queue length: no mark below EcnKmin,
 *   probability rising linearly to EcnPmax at EcnKmax, always above (DCQCN, SIGCOMM 2015).
 *
 * The headroom of a port is 2 x (rate x cable delay) + 2 x maximum frame + 64 bytes of PFC frame
 * + the 802.1Qbb response allowance of 3840 bit times, unless Headroom overrides it. The owner
 * (RoceSwitch) calls Admit() when a frame arrives and Release() when it leaves its egress queue.
 */
class alignas(64) RoceSwitchMmu : public Object
{
  public:
    /// Which pool a frame was charged to; returned by Admit(), given back to Release().
    enum Pool : uint8_t
    {
        SHARED = 0,   //!< the shared pool
        HEADROOM = 1, //!< the ingress's headroom
        BEYOND_HEADROOM =
            2,      //!< beyond the headroom (lossless, admitted anyway: a configuration error)
        DROPPED = 3 //!< not admitted
    };

    /**
     * TracedCallback signature for XOFF/XON decisions.
     * @param [in] port the ingress port
     * @param [in] priority the priority
     * @param [in] pause true for XOFF, false for XON
     */
    typedef void (*PauseTracedCallback)(uint32_t port, uint8_t priority, bool pause);

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RoceSwitchMmu();

    /**
     * Size the accounting for the switch's ports and reserve their headroom.
     * @param rates each port's line rate
     * @param delays each port's cable delay
     * @param maxFrameBytes the largest frame any port carries (MTU + Ethernet header)
     */
    void Configure(const std::vector<DataRate>& rates,
                   const std::vector<Time>& delays,
                   uint32_t maxFrameBytes);

    /**
     * Charge an arriving frame.
     * @param inPort ingress port
     * @param outPort egress port
     * @param priority the frame's priority
     * @param bytes the frame's size
     * @return the pool it was charged to, or DROPPED
     */
    Pool Admit(uint32_t inPort, uint32_t outPort, uint8_t priority, uint32_t bytes);

    /**
     * Charge an arriving frame that leaves on another priority than it came in on (a switch's
     * priority remap): the ingress accounting, PFC and the lossless decision follow the priority
     * it arrived on (the one the upstream can pause), the egress accounting, lossy drop and ECN
     * the priority it is queued on.
     * @param inPort ingress port
     * @param priority the priority the frame arrived on
     * @param outPort egress port
     * @param outPriority the priority it is queued on
     * @param bytes the frame's size
     * @return the pool it was charged to, or DROPPED
     */
    Pool Admit(uint32_t inPort,
               uint8_t priority,
               uint32_t outPort,
               uint8_t outPriority,
               uint32_t bytes);

    /**
     * Release a frame that left its egress queue.
     * @param inPort ingress port
     * @param outPort egress port
     * @param priority the frame's priority
     * @param bytes the frame's size
     * @param pool what Admit() returned
     */
    void Release(uint32_t inPort, uint32_t outPort, uint8_t priority, uint32_t bytes, Pool pool);

    /**
     * Release a frame admitted with the five-argument Admit().
     * @param inPort ingress port
     * @param priority the priority it arrived on
     * @param outPort egress port
     * @param outPriority the priority it was queued on
     * @param bytes the frame's size
     * @param pool what Admit() returned
     */
    void Release(uint32_t inPort,
                 uint8_t priority,
                 uint32_t outPort,
                 uint8_t outPriority,
                 uint32_t bytes,
                 Pool pool);

    /**
     * Fetch what Admit reads of a frame's ingress port, for the switch to call before it routes
     * the frame, so that the two overlap: at k=16 Admit waited on the ingress line and then on
     * the egress counters (49% and 43% of its samples in perf on perm1024).
     * @param inPort the ingress port
     */
    void PrefetchIngress(uint32_t inPort) const
    {
        // (Unchecked: a prefetch never faults; the address in integers, so that an index past
        // the end is no out-of-bounds pointer either.)
        __builtin_prefetch(reinterpret_cast<const void*>(
            reinterpret_cast<uintptr_t>(m_ingress.data()) + inPort * sizeof(Ingress)));
    }

    /**
     * @param inPort an ingress port
     * @return the line Admit and Release read of it (a hint's address: the accounting is
     *         not to be read through it), or null if there is no such port
     */
    const void* IngressLine(uint32_t inPort) const
    {
        return inPort < m_ingress.size() ? &m_ingress[inPort] : nullptr;
    }

    /**
     * Fetch what Admit reads of a frame's egress port, for the switch to call as soon as it
     * has routed the frame.
     * @param outPort the egress port
     */
    void PrefetchEgress(uint32_t outPort) const
    {
        __builtin_prefetch(
            reinterpret_cast<const void*>(reinterpret_cast<uintptr_t>(m_egressBytes.data()) +
                                          outPort * sizeof(m_egressBytes[0])));
    }

    /**
     * @param outPort egress port
     * @param priority the queue
     * @return true if an ECN-capable frame entering (or leaving) the queue now is to be marked
     */
    bool ShouldMarkEcn(uint32_t outPort, uint8_t priority);

    /// @return true if the priority is lossless (PFC enabled and in LosslessPriorities)
    bool IsLossless(uint8_t priority) const;
    /// @return true if the ingress currently pauses its upstream on the priority
    bool IsPaused(uint32_t inPort, uint8_t priority) const;
    /// @return the headroom reserved per lossless priority of the port, bytes
    uint32_t GetHeadroom(uint32_t port) const;
    /// @return the shared pool's size, bytes
    uint64_t GetSharedSize() const;
    /// @return bytes in the shared pool now
    uint64_t GetSharedUsed() const;
    /// @return bytes queued for the egress port's priority now
    uint32_t GetEgressBytes(uint32_t port, uint8_t priority) const;
    /// @return bytes charged to the ingress's shared pool now
    uint32_t GetIngressSharedBytes(uint32_t port, uint8_t priority) const;
    /// @return the peak buffer occupancy so far (shared + headroom + overflow), bytes
    uint64_t GetPeakUsed() const;
    /// @return lossless frames admitted beyond the headroom (configuration errors)
    uint64_t GetHeadroomOverflows() const;
    /// @return the most headroom bytes one (port, priority) held at once so far
    uint64_t GetPeakHeadroom() const;
    /// @return that peak over the headroom reserved for that port, in percent (above 100: past
    ///         it; what an operator sizing headroom for a cable watches)
    double GetPeakHeadroomPercent() const;
    /// @return lossy frames refused for lack of buffer (a trimming switch forwards the headers
    ///         of the RoCEv2 data among them: RoceSwitch::GetTrimmed)
    uint64_t GetBufferDrops() const;
    /// @return the XOFF threshold now: PfcAlpha x free shared bytes
    uint64_t GetPauseThreshold() const;

    /**
     * Set the callback that pauses or resumes an ingress's upstream.
     * @param cb called with (ingress port, priority, pause)
     */
    void SetPauseCallback(Callback<void, uint32_t, uint8_t, bool> cb);

    /**
     * Assign a fixed random variable stream number to the ECN marking.
     * @param stream first stream index to use
     * @return the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

  private:
    /// Check whether an ingress should resume its upstream.
    void MaybeResume(uint32_t inPort, uint8_t priority);

    /**
     * What the admission and release of every frame read of its ingress port, on one cache
     * line: at fabric scale a port's counters are out of cache when its next frame comes, and
     * the shared bytes, the pause states and the reserve were three arrays (callgrind,
     * perm1024: Admit's last-level read misses 13.8 M in three arrays, 10.0 M on one line).
     */
    struct alignas(64) Ingress
    {
        std::array<uint32_t, 8> shared{}; //!< shared-pool bytes per priority
        std::array<bool, 8> paused{};     //!< XOFF per priority
        uint32_t headroom{0};             //!< the headroom reserved per lossless priority
    };

    /// The lines of the buffer manager that every frame's admission, release and marking read
    /// (the members from m_losslessMask to m_uniform, after ns-3's Object): three.
    static constexpr std::size_t FRAME_LINES = 3;

    // What every frame's admission, release and marking read, first and together (the
    // constructor asserts where they end): at k=16 a switch's lines have left the core's
    // second-level cache by its next frame, and these were spread over four lines.
    uint8_t m_losslessMask{0x08};                       //!< lossless priorities, bit i = priority i
    bool m_pfcEnabled{true};                            //!< PFC on
    bool m_ecnEnabled{true};                            //!< RED/ECN marking on
    uint32_t m_kmin{5000};                              //!< RED Kmin, bytes
    uint32_t m_kmax{200000};                            //!< RED Kmax, bytes
    uint32_t m_xonOffset{3000};                         //!< hysteresis, bytes
    double m_pfcAlpha{0.125};                           //!< dynamic threshold factor for XOFF
    double m_lossyAlpha{1.0};                           //!< dynamic threshold factor for lossy drop
    uint64_t m_sharedSize{0};                           //!< buffer minus all headroom
    uint64_t m_sharedUsed{0};                           //!< bytes in the shared pool
    uint64_t m_headroomUsedTotal{0};                    //!< bytes in all headrooms (and overflow)
    uint64_t m_peakUsed{0};                             //!< peak occupancy
    std::vector<Ingress> m_ingress;                     //!< per port
    std::vector<std::array<uint32_t, 8>> m_egressBytes; //!< (port, prio) queued bytes
    double m_pmax{0.01};                                //!< RED Pmax
    Ptr<UniformRandomVariable> m_uniform;               //!< ECN marking draws

    uint64_t m_bufferSize{12000000}; //!< total buffer, bytes
    uint32_t m_headroomOverride{0};  //!< per (port, lossless priority), bytes; 0 = computed
    uint64_t m_peakHeadroom{0};      //!< most headroom bytes one (port, priority) held
    double m_peakHeadroomPercent{0}; //!< of its port's reserve

    std::vector<std::array<uint32_t, 8>> m_ingressHeadroom;  //!< (port, prio) headroom bytes
    uint64_t m_headroomOverflows;                            //!< lossless frames beyond headroom
    uint64_t m_bufferDrops;                                  //!< lossy drops
    Callback<void, uint32_t, uint8_t, bool> m_pauseCallback; //!< XOFF/XON to the port

    TracedCallback<uint32_t, uint8_t, bool> m_pauseTrace; //!< XOFF/XON decisions
};

} // namespace ns3

#endif // ROCE_SWITCH_MMU_H
