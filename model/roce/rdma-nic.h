/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_NIC_H
#define RDMA_NIC_H

#include "pfc-net-device.h"

#include "ns3/ipv4-address.h"
#include "ns3/rdma-channel-adapter.h"

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief A RoCEv2 NIC on one host port: the RDMA channel adapter bound to Ethernet.
 *
 * The queue pairs, their scheduling, ACKs, CNPs and congestion control are the
 * RdmaChannelAdapter's. This binding frames every packet, Ethernet II / IPv4 (DSCP, ECN) / UDP
 * to port 4791 (source port: the queue pair's ECMP entropy) / BTH / RETH or AETH / payload /
 * ICRC, and hands it to the PfcNetDevice, bypassing ns-3's IPv4 stack. Its transmit classes are
 * the eight PFC priorities; the device holds at most one data frame per priority from the NIC,
 * so a PFC pause stops the NIC at once. Arriving frames are claimed by the device's receive
 * hook when they are UDP to port 4791 for this NIC's address; everything else (e.g. TCP of an
 * Internet stack on the same device) goes on to the node's protocol handlers.
 *
 * Notification point (DCQCN): a data packet arriving with CE set makes the NIC send a CNP
 * (BTH opcode 0x81, RoCEv2 annex A17) to the sending queue pair, at most one per CnpInterval
 * per queue pair.
 */
class RdmaNic : public RdmaChannelAdapter, public PfcPortOwner
{
  public:
    /// The RoCEv2 UDP destination port (IANA).
    static constexpr uint16_t ROCE_UDP_PORT = 4791;
    /// Bytes of IPv4 (20), UDP (8), BTH (12) and ICRC (4) around every RoCEv2 payload.
    static constexpr uint32_t ROCE_HEADERS = 44;

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaNic();

    /**
     * Bind to a port and an address.
     * @param device the host port
     * @param address this NIC's IPv4 address
     */
    void Install(Ptr<PfcNetDevice> device, Ipv4Address address);

    /**
     * Create a queue pair towards a peer address; connect it with RdmaQueuePair::Connect (or use
     * RdmaNic::ConnectPair).
     * @param peer the peer's address
     * @param priority the priority of its data (0..7)
     * @return the queue pair
     */
    Ptr<RdmaQueuePair> CreateQueuePair(Ipv4Address peer, uint8_t priority);

    /**
     * Create a connected pair of queue pairs between two NICs.
     * @param a one NIC
     * @param b the other
     * @param priority the priority of both directions' data
     * @return the queue pair on a, then the one on b
     */
    static std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> ConnectPair(Ptr<RdmaNic> a,
                                                                         Ptr<RdmaNic> b,
                                                                         uint8_t priority);

    /// @return this NIC's address
    Ipv4Address GetAddress() const;

    /**
     * Send an in-network reduction packet (SHARP) to the aggregation node of the NIC's switch:
     * IPv4 (the priority's DSCP, 8 x priority), UDP to 4791, BTH (opcode
     * SharpHeader::BTH_OPCODE), the packet, ICRC; with the datagrams, in turn with the queue
     * pairs of its priority.
     * @param to the switch's aggregation address
     * @param packet SharpHeader and data (at most the path MTU)
     * @param priority the priority
     */
    void SendAggregation(Ipv4Address to, Ptr<Packet> packet, uint8_t priority);
    /// @param callback gets the aggregation packets for this NIC (SharpHeader first)
    void SetAggregationCallback(Callback<void, Ptr<Packet>> callback);

    /**
     * Frame an aggregation packet: ICRC after it, BTH, UDP (to and from 4791) and IPv4 before.
     * @param packet SharpHeader and data; framed in place
     * @param from source address @param to destination address @param priority its priority
     */
    static void FrameAggregation(Ptr<Packet> packet,
                                 Ipv4Address from,
                                 Ipv4Address to,
                                 uint8_t priority);
    /**
     * Take an aggregation packet's framing off (FrameAggregation's inverse).
     * @param packet IPv4 first; left with its SharpHeader and data
     * @return false, leaving it as it came, if it is not UDP to 4791 with the aggregation opcode
     */
    static bool UnframeAggregation(Ptr<Packet> packet);
    /// @return the port
    Ptr<PfcNetDevice> GetDevice() const;

  protected:
    void DoDispose() override;

  private:
    /// A data frame arrived (PfcPortOwner).
    bool PortReceive(uint32_t port,
                     const Ptr<Packet>& packet,
                     uint16_t type,
                     const PfcFrameInfo& info) override;
    /// A frame left the device's queue (PfcPortOwner).
    void PortDequeue(uint32_t port,
                     const Ptr<Packet>& frame,
                     uint8_t priority,
                     uint32_t tag) override;
    /// A frame the device will not send (PfcPortOwner): its slot frees as on a dequeue.
    void PortDrop(uint32_t port, const Ptr<Packet>& frame, uint8_t priority, uint32_t tag) override;
    /// The adapter's hot pair of lines (PfcPortOwner): what every arrival reads of it.
    const void* PortReceiveLine(uint32_t port) const override;
    /// Yes: PortSendLines names them (PfcPortOwner).
    bool PortNamesSendLines(uint32_t port) const override;
    /// The adapter's hot pair of lines and the next queue pair's send lines (PfcPortOwner).
    void PortSendLines(uint32_t port, const void*& line, const void*& span) const override;

    Ptr<Packet> NewTransportPacket(uint32_t payload) const override;
    uint8_t AddLinkHeaders(Ptr<Packet> packet,
                           RdmaPackedHeader* packed,
                           Ptr<RdmaQueuePair> qp,
                           FrameKind kind) const override;
    uint32_t GetWireBytes(Ptr<const Packet> packet) const override;
    void Transmit(Ptr<Packet> packet, uint8_t txClass, bool data) override;

    /// What a send and an arrival read (the port's hints name it: SendLine) on the adapter's
    /// hot pair of lines, where the adapter's hot fields end.
    /// @{
    Ptr<PfcNetDevice> m_device; //!< the port
    uint32_t m_addressValue{0}; //!< m_address.Get()
    uint8_t m_dscp;             //!< DSCP of data and ACKs (default 26)
    uint8_t m_cnpDscp;          //!< DSCP of CNPs (default 48)
    uint8_t m_ackDscp;          //!< DSCP of ACKs and NAKs (64: m_dscp)
    uint8_t m_trimmedDscp;      //!< DSCP of trimmed packets (default 56)
    bool m_ect;                 //!< mark data ECN-capable
    bool m_computeIcrc;         //!< stamp the real ICRC (pcap fidelity)
    bool m_reusePackets;        //!< build frames on received ones' packets
    /// The frame AddLinkHeaders packed last, until Transmit queues it, and its header fields,
    /// which go with it to the first switch (PfcFrameInfo) so that it does not read them back.
    /// (Held, not only named: a packet built and dropped, as a tool may with BuildPacket, would
    /// leave an address that the next packet could take.)
    mutable Ptr<Packet> m_framed;
    mutable PfcFrameInfo m_framedInfo; //!< its fields
    /// @}
    Ipv4Address m_address;                     //!< this NIC's address
    Callback<void, Ptr<Packet>> m_aggregation; //!< aggregation packets' receiver
};

} // namespace ns3

#endif // RDMA_NIC_H
