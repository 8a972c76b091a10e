/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_HOST_ADAPTER_H
#define IB_HOST_ADAPTER_H

#include "ib-bth-header.h"
#include "ib-lrh-header.h"
#include "ib-net-device.h"
#include "rdma-queue-pair.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
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
 * Reliable connections: CreateQueuePair (or ConnectPair) gives an RdmaQueuePair, the engine
 * RoCEv2 uses (PSNs, ACK coalescing, READ responses, go-back-N on NAK or timeout, completions),
 * carried natively: LRH, BTH, RETH or AETH, payload, ICRC (and the link's VCRC). Its packets
 * join the flow to its DLID and SL, so IB congestion control paces them; ACKs and NAKs go out at
 * once on the same SL. Send() above is the unreliable path, for raw traffic and tests.
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

    /**
     * @param name an RdmaQueuePair attribute for every queue pair created from now on
     * @param value its value (Mtu defaults to the port's IB MTU)
     */
    void SetQueuePairAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Create a reliable-connection queue pair towards a LID; connect it with
     * RdmaQueuePair::Connect, or use ConnectPair.
     * @param dlid the peer's LID (one of its LMC LIDs picks the path)
     * @param sl the service level of both directions
     * @return the queue pair
     */
    Ptr<RdmaQueuePair> CreateQueuePair(uint16_t dlid, uint8_t sl);

    /**
     * Create a connected pair of queue pairs between two adapters.
     * @param a one adapter
     * @param b the other
     * @param sl the service level
     * @param path which of the other's 2^LMC LIDs each side addresses (0: the base LID)
     * @return the queue pair on a, then the one on b
     */
    static std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> ConnectPair(Ptr<IbHostAdapter> a,
                                                                         Ptr<IbHostAdapter> b,
                                                                         uint8_t sl,
                                                                         uint32_t path = 0);

    /**
     * The same with an SL for each direction (each the SL of its path, e.g. on a torus).
     * @param a one adapter
     * @param b the other
     * @param slAtoB the SL of a's queue pair (its requests, and its ACKs to b)
     * @param slBtoA the SL of b's queue pair
     * @param path which of the other's 2^LMC LIDs each side addresses
     * @return the queue pair on a, then the one on b
     */
    static std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> ConnectPair(Ptr<IbHostAdapter> a,
                                                                         Ptr<IbHostAdapter> b,
                                                                         uint8_t slAtoB,
                                                                         uint8_t slBtoA,
                                                                         uint32_t path);

    /// @param qpn a queue pair number @return the queue pair, or nullptr
    Ptr<RdmaQueuePair> GetQueuePair(uint32_t qpn) const;
    /// @return the number of queue pairs
    uint32_t GetNQueuePairs() const;
    /// @return ACKs and NAKs sent
    uint64_t GetAcksSent() const;
    /// @return transport packets for a queue pair this adapter does not have
    uint64_t GetUnknownQpPackets() const;

    /// The first QPN (QPs 0 and 1 are the management queue pairs).
    static constexpr uint32_t FIRST_QPN = 0x100;

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
        std::deque<uint32_t> active;     //!< its queue pairs with something to send (indexes)
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
    /// The next packet of a flow's queue pairs that may go now, or null (earliest: when one may).
    Ptr<Packet> NextQueuePairPacket(Flow& flow, Time& earliest);
    /// Queue pair `index` has something to send.
    void Activate(uint32_t index);
    /// A transport packet for one of the queue pairs arrived (headers up to the BTH removed).
    void ReceiveForQueuePair(const IbLrhHeader& lrh, const IbBthHeader& bth, Ptr<Packet> packet);
    /// Wrap a transport packet in an LRH to a LID on an SL.
    void AddLrh(Ptr<Packet> packet, uint16_t dlid, uint8_t sl) const;

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
    ObjectFactory m_qpFactory;         //!< creates queue pairs
    std::vector<Ptr<RdmaQueuePair>> m_qps;             //!< by index (QPN - FIRST_QPN)
    std::vector<uint32_t> m_qpFlow;                    //!< flow index of each queue pair
    std::vector<bool> m_qpActive;                      //!< in its flow's active list
    uint64_t m_acksSent;                               //!< ACKs and NAKs sent
    uint64_t m_unknownQp;                              //!< packets for unknown queue pairs
    bool m_qpMtuSet;                                   //!< Mtu given by SetQueuePairAttribute
    TracedCallback<uint16_t, uint64_t> m_messageTrace; //!< (SLID, bytes) of each message
};

} // namespace ns3

#endif // IB_HOST_ADAPTER_H
