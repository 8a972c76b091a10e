/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_HOST_ADAPTER_H
#define IB_HOST_ADAPTER_H

#include "ib-lrh-header.h"
#include "ib-net-device.h"

#include "ns3/ib-bth-header.h"
#include "ns3/nstime.h"
#include "ns3/rdma-channel-adapter.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief An InfiniBand host channel adapter: the RDMA channel adapter bound to an IB port.
 *
 * Reliable connections: CreateQueuePair (or ConnectPair) gives an RdmaQueuePair, the engine
 * RoCEv2 uses (PSNs, ACK coalescing, READ responses, go-back-N on NAK or timeout, completions)
 * and the RdmaChannelAdapter's scheduling, ACKs, CNPs and congestion control, carried natively:
 * LRH, BTH, RETH or AETH, payload, ICRC (and the link's VCRC). The transmit classes are the
 * port's VLs (a queue pair's is the VL of its SL), at most two data packets per VL in the
 * port's queue at a time, so that a VL without credit stops the adapter at once. Any
 * RdmaCongestionControl runs on its queue pairs: a switch's FECN mark plays the part of CE (the
 * responder answers with a CNP, BTH opcode 0x80 with BECN, IBTA annex A10, and BECN in its
 * ACKs), and IbSwitch appends INT hops for HPCC. IbCongestionControl is the IBTA's own (CCT
 * index per queue pair).
 *
 * Send() is an unreliable path for raw traffic and tests: a message of S bytes leaves as
 * MTU-sized SEND packets to a DLID, and arriving raw messages are recorded with their source
 * LID, size and completion time (GetMessages).
 */
class IbHostAdapter : public RdmaChannelAdapter
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
     * TracedCallback signature of Message.
     * @param slid the message's source LID
     * @param bytes its payload
     */
    typedef void (*MessageTracedCallback)(uint16_t slid, uint64_t bytes);

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
     * Send a raw message now (unreliable, no queue pair).
     * @param dlid destination LID
     * @param bytes payload bytes (> 0)
     * @param sl service level
     */
    void Send(uint16_t dlid, uint64_t bytes, uint8_t sl);

    /// Receives the in-network reduction packets (SharpHeader and data) addressed to this host.
    typedef Callback<void, Ptr<Packet>> AggregationCallback;

    /**
     * Send an in-network reduction packet (SHARP) to the aggregation node of the host's switch:
     * LRH, BTH (opcode SharpHeader::BTH_OPCODE), the packet, ICRC. It goes with the raw
     * datagrams, in turn with the queue pairs of its VL.
     * @param dlid the switch's LID
     * @param packet SharpHeader and data (at most the MTU)
     * @param sl the service level
     */
    void SendAggregation(uint16_t dlid, Ptr<Packet> packet, uint8_t sl);
    /// @param callback gets the aggregation packets that arrive (without one, they are counted
    /// as misdelivered)
    void SetAggregationCallback(AggregationCallback callback);

    /**
     * Frame an aggregation packet for the link: ICRC after it, BTH (opcode
     * SharpHeader::BTH_OPCODE) and LRH before it.
     * @param packet SharpHeader and data; framed in place
     * @param vl its VL @param sl its SL @param dlid destination LID @param slid source LID
     */
    static void FrameAggregation(Ptr<Packet> packet,
                                 uint8_t vl,
                                 uint8_t sl,
                                 uint16_t dlid,
                                 uint16_t slid);
    /**
     * Take an aggregation packet's link framing off (FrameAggregation's inverse).
     * @param packet LRH to ICRC; left with its SharpHeader and data
     * @return false, leaving it as it came, if it is too short or its BTH opcode is another's
     */
    static bool UnframeAggregation(Ptr<Packet> packet);

    /**
     * Create a reliable-connection queue pair towards a LID; connect it with
     * RdmaQueuePair::Connect, or use ConnectPair. Its Mtu is the port's IB MTU unless set with
     * SetQueuePairAttribute.
     * @param dlid the peer's LID (one of its LMC LIDs picks the path)
     * @param sl the service level of both directions
     * @return the queue pair
     */
    Ptr<RdmaQueuePair> CreateQueuePair(uint16_t dlid, uint8_t sl);

    /**
     * @param name an RdmaQueuePair attribute for every queue pair created from now on
     * @param value its value (Mtu defaults to the port's IB MTU)
     */
    void SetQueuePairAttribute(const std::string& name, const AttributeValue& value) override;

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

    /// @return the raw messages received so far
    const std::vector<Message>& GetMessages() const;
    /// @return raw payload bytes received
    uint64_t GetBytesReceived() const;
    /// @return packets received whose DLID is not this adapter's LID
    uint64_t GetMisdelivered() const;

  protected:
    void DoDispose() override;

  private:
    /// A packet arrived.
    void Receive(Ptr<IbNetDevice> device, Ptr<Packet> packet, uint8_t vl);
    /// A packet left the port's queue for the wire.
    void Dequeued(Ptr<Packet> packet, uint8_t vl, uint32_t tag);
    /**
     * Put an LRH to a LID on an SL on a packet.
     * @param packet the packet
     * @param packed its headers so far, packed (RdmaChannelAdapter::AddLinkHeaders), or null
     * @param dlid the destination LID
     * @param sl the service level
     */
    void AddLrh(Ptr<Packet> packet, RdmaPackedHeader* packed, uint16_t dlid, uint8_t sl) const;

    Ptr<Packet> NewTransportPacket(uint32_t payload) const override;
    uint8_t AddLinkHeaders(Ptr<Packet> packet,
                           RdmaPackedHeader* packed,
                           Ptr<RdmaQueuePair> qp,
                           FrameKind kind) const override;
    uint32_t GetWireBytes(Ptr<const Packet> packet) const override;
    void Transmit(Ptr<Packet> packet, uint8_t txClass, bool data) override;

    Ptr<IbNetDevice> m_device;         //!< the port
    uint16_t m_lid;                    //!< its (base) LID
    uint8_t m_lmc;                     //!< LID mask control
    uint32_t m_psn;                    //!< next PSN of raw packets
    std::vector<Message> m_messages;   //!< raw messages received
    std::vector<uint64_t> m_partial;   //!< bytes of the message in progress, by SLID x DLID x VL
    uint64_t m_bytesReceived;          //!< raw payload received
    uint64_t m_misdelivered;           //!< wrong DLID
    AggregationCallback m_aggregation; //!< aggregation packets' receiver
    bool m_qpMtuSet;                   //!< Mtu given by SetQueuePairAttribute
    TracedCallback<uint16_t, uint64_t> m_messageTrace; //!< (SLID, bytes) of each raw message
};

} // namespace ns3

#endif // IB_HOST_ADAPTER_H
