/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_NIC_H
#define RDMA_NIC_H

#include "pfc-net-device.h"
#include "rdma-queue-pair.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
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
 * @brief A RoCEv2 NIC on one host port: queue pairs, their scheduling, and the wire format.
 *
 * The NIC owns the queue pairs of its port. It builds every frame itself, Ethernet II / IPv4
 * (DSCP, ECN) / UDP to port 4791 (source port: the queue pair's ECMP entropy) / BTH /
 * RETH or AETH / payload / ICRC, and hands it to the PfcNetDevice, bypassing ns-3's IPv4 stack.
 * Arriving frames are claimed by the device's receive hook when they are UDP to port 4791 for
 * this NIC's address; everything else (e.g. TCP of an Internet stack on the same device) goes on
 * to the node's protocol handlers.
 *
 * Scheduling: per priority, the queue pairs with something to send take turns (round robin);
 * a queue pair waits for its congestion-control rate (GetNextSendTime) and window. The device
 * holds at most one data frame per priority from the NIC, so a PFC pause stops the NIC at once
 * and no large host queue forms. ACKs, NAKs and CNPs go out at once, ahead of that limit.
 *
 * Notification point (DCQCN): a data packet arriving with CE set makes the NIC send a CNP
 * (BTH opcode 0x81) to the sending queue pair, at most one per CnpInterval per queue pair.
 */
class RdmaNic : public Object, public PfcPortOwner
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
     * Set an attribute of every queue pair this NIC creates from now on.
     * @param name the RdmaQueuePair attribute
     * @param value its value
     */
    void SetQueuePairAttribute(const std::string& name, const AttributeValue& value);

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

    /**
     * Take the next QPN without creating its queue pair: in a distributed run, a queue pair of
     * another rank's two hosts, numbered here as there so that later QPNs agree.
     * @return the QPN taken
     */
    uint32_t ReserveQueuePair();

    /// @return the queue pair with this QPN, or nullptr (none, or reserved)
    Ptr<RdmaQueuePair> GetQueuePair(uint32_t qpn) const;
    /// @return the number of queue pairs
    uint32_t GetNQueuePairs() const;
    /// @return this NIC's address
    Ipv4Address GetAddress() const;
    /// @return the port
    Ptr<PfcNetDevice> GetDevice() const;

    /// @return CNPs sent (as notification point)
    uint64_t GetCnpsSent() const;
    /// @return ACKs and NAKs sent
    uint64_t GetAcksSent() const;
    /// @return data frames sent (requests and READ responses), retransmissions included
    uint64_t GetDataFramesSent() const;
    /// @return frames for this NIC that named an unknown queue pair
    uint64_t GetUnknownQpFrames() const;

    /**
     * Build a RoCEv2 data or control packet (IPv4 header first, no Ethernet header).
     * Exposed for tests and tools.
     * @param qp the queue pair
     * @param d what to send
     * @return the packet
     */
    Ptr<Packet> BuildPacket(Ptr<RdmaQueuePair> qp, const RdmaTxDescriptor& d) const;

  protected:
    void DoDispose() override;
    void DoInitialize() override;

  private:
    /// A data frame arrived (PfcPortOwner).
    bool PortReceive(uint32_t port, const Ptr<Packet>& packet, uint16_t type) override;
    /// A frame left the device's queue (PfcPortOwner).
    void PortDequeue(uint32_t port,
                     const Ptr<Packet>& frame,
                     uint8_t priority,
                     uint32_t tag) override;
    /// Queue pair qpn has something new to send.
    void Activate(uint32_t index);
    /// Send what may be sent now.
    void TrySend();
    /// Send an ACK or NAK (BECN = ecnEcho; INT copied from the data packet if any).
    void SendAck(Ptr<RdmaQueuePair> qp,
                 uint32_t psn,
                 bool nak,
                 uint32_t msn,
                 bool ecnEcho,
                 const RdmaIntTag* intStack);
    /// Send a CNP to the sender of a CE-marked packet.
    void SendCnp(Ptr<RdmaQueuePair> qp);
    /// Wrap a transport packet in UDP and IPv4 towards the queue pair's peer.
    void AddUdpIp(Ptr<Packet> p, Ptr<RdmaQueuePair> qp, uint8_t dscp, bool ect) const;
    /// A queue pair's message completed.
    void Completed(const RdmaCompletion& completion);
    /// Queue pair index of a QPN, or the number of queue pairs if none.
    uint32_t IndexOf(uint32_t qpn) const;

    Ptr<PfcNetDevice> m_device; //!< the port
    Ipv4Address m_address;      //!< this NIC's address
    ObjectFactory m_qpFactory;  //!< creates queue pairs
    std::string m_ccTypeId;     //!< congestion-control TypeId name
    uint8_t m_dscp;             //!< DSCP of data and ACKs (default 26)
    uint8_t m_cnpDscp;          //!< DSCP of CNPs (default 48)
    bool m_ect;                 //!< mark data ECN-capable
    Time m_cnpInterval;         //!< notification point pacing
    bool m_computeIcrc;         //!< stamp the real ICRC (pcap fidelity)
    DataRate m_hostReadRate;    //!< payload DMA rate from memory (0: unlimited)
    double m_hostReadDone;      //!< when the last payload read ends, seconds (exact)
    Time m_hostReadFree;        //!< that time rounded up: when the next payload can be read

    std::vector<Ptr<RdmaQueuePair>> m_qps; //!< by index
    std::vector<bool> m_inActive;          //!< in an active list
    std::vector<Time> m_lastCnp;           //!< last CNP sent per queue pair
    std::vector<bool> m_cnpEver;           //!< a CNP was ever sent for the queue pair
    std::array<std::deque<uint32_t>, PfcNetDevice::N_PRIORITIES> m_active; //!< round robin
    std::array<uint32_t, PfcNetDevice::N_PRIORITIES> m_dataInDevice;       //!< data frames queued
    EventId m_wakeEvent; //!< next rate-limited send
    bool m_inTrySend;    //!< re-entrance guard
    bool m_trySendAgain; //!< TrySend was asked for while running

    uint64_t m_cnpsSent;  //!< CNPs sent
    uint64_t m_acksSent;  //!< ACKs and NAKs sent
    uint64_t m_dataSent;  //!< data frames sent
    uint64_t m_unknownQp; //!< frames for unknown queue pairs

    TracedCallback<const RdmaCompletion&> m_completionTrace; //!< any queue pair's completion
    TracedCallback<uint32_t> m_cnpSentTrace;     //!< CNP sent: the local QPN it concerns
    TracedCallback<uint32_t> m_cnpReceivedTrace; //!< CNP received: the local QPN
};

} // namespace ns3

#endif // RDMA_NIC_H
