/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_HOST_ADAPTER_H
#define IB_HOST_ADAPTER_H

#include "ib-net-device.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <array>
#include <deque>
#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief The link side of an InfiniBand host channel adapter, for traffic over an IB fabric:
 * a message of S bytes leaves as MTU-sized SEND packets (LRH, BTH, payload, ICRC) to a DLID,
 * and arriving messages are recorded with their source LID, size and completion time.
 *
 * Packets wait in one queue per flow (destination LID and SL) and enter the port round robin,
 * at most two per VL in the port's queue at a time. With CongestionControl (IBTA annex A10):
 * a packet that arrives with FECN set (a switch marked it) is answered with a congestion
 * notification packet (BTH opcode 0x81, BECN set) to its source; a BECN raises the source
 * flow's CCT index by CctiIncrease (up to CctiLimit), every CctiTimer each index above zero
 * drops by one, and a flow waits CCT[index] = index x CctStep between the starts of its
 * packets beyond their transmission time (a linear table: the IBTA's table holds any
 * shift/multiplier values per index).
 *
 * It has no reliability of its own: the fabric is lossless by its credits. The RC transport
 * (acknowledgements, PSN checks, RDMA WRITE/READ) over InfiniBand is not there yet.
 */
class IbHostAdapter : public Object
{
  public:
    /// A message that arrived whole.
    struct Message
    {
        uint16_t slid;  //!< its source
        uint64_t bytes; //!< its payload
        Time end;       //!< when its last packet arrived
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    IbHostAdapter();

    /**
     * @param device the adapter's port
     * @param lid its LID (assigned by the subnet manager)
     */
    void Install(Ptr<IbNetDevice> device, uint16_t lid);

    /**
     * LID mask control: the adapter answers to 2^lmc consecutive LIDs from its base LID (which
     * must be a multiple of 2^lmc), so that the subnet manager can route each of them over a
     * different path (multipath).
     * @param lmc 0..7
     */
    void SetLmc(uint8_t lmc);
    /// @return the LMC
    uint8_t GetLmc() const;

    /// @return the LID
    uint16_t GetLid() const;
    /// @return the port
    Ptr<IbNetDevice> GetDevice() const;

    /**
     * Send a message now.
     * @param dlid destination LID
     * @param bytes payload bytes (> 0)
     * @param sl service level
     */
    void Send(uint16_t dlid, uint64_t bytes, uint8_t sl);

    /// @return the messages received so far
    const std::vector<Message>& GetMessages() const;
    /// @return payload bytes received
    uint64_t GetBytesReceived() const;
    /// @return packets received whose DLID is not this adapter's LID
    uint64_t GetMisdelivered() const;
    /// @param dlid a destination @param sl its SL @return the flow's CCT index (0 if none)
    uint32_t GetCcti(uint16_t dlid, uint8_t sl) const;
    /// @param dlid a destination @param sl its SL @return payload bytes the flow has sent
    uint64_t GetBytesSent(uint16_t dlid, uint8_t sl) const;
    /// @return congestion notification packets sent (answers to FECN)
    uint64_t GetCnpsSent() const;
    /// @return BECNs received
    uint64_t GetBecnsReceived() const;

  protected:
    void DoDispose() override;

  private:
    /// The packets to one destination on one SL.
    struct Flow
    {
        uint16_t dlid;                   //!< destination
        uint8_t sl;                      //!< service level
        uint8_t vl;                      //!< its VL on the port
        std::deque<Ptr<Packet>> pending; //!< packets not yet in the port
        uint32_t ccti{0};                //!< CCT index
        Time nextSend{0};                //!< earliest start of its next packet
        uint64_t bytesSent{0};           //!< payload handed to the port
    };

    /// A packet arrived.
    void Receive(Ptr<IbNetDevice> device, Ptr<Packet> packet, uint8_t vl);
    /// A packet left the port's queue for the wire.
    void Dequeued(Ptr<Packet> packet, uint8_t vl, uint32_t tag);
    /// Hand the port what the flows may send now; schedule the next try.
    void Pump();
    /// Every CctiTimer: CCT indexes decrease.
    void CctiTimer();
    /// @return the flow to (dlid, sl), created if new
    Flow& GetFlow(uint16_t dlid, uint8_t sl);

    bool m_cc;                         //!< congestion control on
    uint32_t m_cctiIncrease;           //!< CCTI_Increase
    uint32_t m_cctiLimit;              //!< CCTI_Limit
    Time m_cctiTimer;                  //!< CCTI_Timer
    Time m_cctStep;                    //!< delay per CCT index
    std::vector<Flow> m_flows;         //!< flows, in creation order
    std::size_t m_nextFlow;            //!< round robin position
    std::array<uint32_t, 16> m_inPort; //!< packets of ours in the port's queue, per VL
    EventId m_pumpEvent;               //!< next pacing wake-up
    EventId m_cctiEvent;               //!< CCTI timer
    uint64_t m_cnpsSent;               //!< CNPs sent
    uint64_t m_becns;                  //!< BECNs received
    Ptr<IbNetDevice> m_device;         //!< the port
    uint16_t m_lid;                    //!< its (base) LID
    uint8_t m_lmc;                     //!< LID mask control
    uint32_t m_psn;                    //!< next PSN
    std::vector<Message> m_messages;   //!< received
    std::vector<uint64_t> m_partial;   //!< bytes of the message in progress, by SLID x DLID x VL
    uint64_t m_bytesReceived;          //!< payload received
    uint64_t m_misdelivered;           //!< wrong DLID
    TracedCallback<uint16_t, uint64_t> m_messageTrace; //!< (SLID, bytes) of each message
};

} // namespace ns3

#endif // IB_HOST_ADAPTER_H
