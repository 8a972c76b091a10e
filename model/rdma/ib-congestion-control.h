/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_CONGESTION_CONTROL_H
#define IB_CONGESTION_CONTROL_H

#include "rdma-congestion-control.h"

#include "ns3/event-id.h"
#include "ns3/interconnect-events.h"
#include "ns3/traced-value.h"

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief InfiniBand congestion control at the channel adapter (IBTA annex A10), with the CCT
 * index kept per queue pair (the annex's QP-based control type).
 *
 * A switch marks FECN on packets that join a congested output queue (IbSwitch::FecnThreshold);
 * the destination returns BECN in a CNP. Each CNP raises the queue pair's CCT index by
 * CctiIncrease, up to CctiLimit; every CctiTimer (started by a CNP) an index above zero drops
 * by one. The queue pair leaves an inter-packet delay of CCT[index] after each packet's
 * transmission, here a linear table CCT[i] = i x CctStep (the IBTA's table holds any
 * shift/multiplier per entry). As an RdmaCongestionControl it runs on RoCEv2 too, driven by the
 * RoCEv2 CNPs that CE marks cause.
 */
class IbCongestionControl : public RdmaCongestionControl
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    IbCongestionControl();

    std::string GetName() const override;
    void OnCnp(Ptr<RdmaQueuePair> qp) override;

    /// @return the CCT index
    uint32_t GetCcti() const;

  protected:
    void DoDispose() override;

  private:
    /// Every CctiTimer: the index drops by one.
    void Timer(Ptr<RdmaQueuePair> qp);

    uint32_t m_cctiIncrease;      //!< CCTI_Increase
    uint32_t m_cctiLimit;         //!< CCTI_Limit
    Time m_cctiTimer;             //!< CCTI_Timer
    Time m_cctStep;               //!< delay per CCT index
    TracedValue<uint32_t> m_ccti; //!< the CCT index
    PendingEvent m_timer;         //!< the CCTI timer
};

} // namespace ns3

#endif // IB_CONGESTION_CONTROL_H
