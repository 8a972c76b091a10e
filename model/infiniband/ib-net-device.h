/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_NET_DEVICE_H
#define IB_NET_DEVICE_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/interconnect-events.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"
#include "ns3/wire-clock.h"

#include <array>
#include <string>
#include <vector>

namespace ns3
{

class IbChannel;
class Node;
class Packet;

/**
 * @ingroup interconnect
 * @brief An InfiniBand port: virtual lanes with credit-based flow control and VL arbitration
 * (IBTA Vol. 1, chapter 7, link layer).
 *
 * Data virtual lanes 0..DataVls-1 and VL15 (management). Every data VL has a receive buffer of
 * ReceiveBufferBlocks 64-byte blocks. A sender keeps FCTBS, the blocks it sent on the VL, and
 * sends a packet of B blocks only when the credit limit FCCL last advertised by the receiver
 * allows it: (FCCL - (FCTBS + B)) mod 4096 <= 2048. The receiver advertises FCCL = ABR + free
 * blocks (ABR: the blocks it received, adjusted to the sender's FCTBS by every flow-control
 * packet; at most 2048 blocks ahead) in 6-byte flow-control packets, sent when buffer space is
 * released and every FlowControlPeriod. So no data packet is ever dropped for lack of buffer;
 * a packet that arrives without space is counted as a credit violation (a bug, never expected).
 * VL15 is not flow controlled and goes first after link packets.
 *
 * VL arbitration: a high- and a low-priority table of (VL, weight) entries, weights in 64-byte
 * units; an entry sends while its weight lasts (a packet starts if any weight is left) and the
 * arbiter moves on; the high table is served while it has an eligible packet and has sent less
 * than HighPriorityLimit x 4096 bytes since the low table last sent (0: one packet; 255: no
 * limit). Service levels map to VLs by the SlToVl table.
 *
 * Packets are given whole (LRH to ICRC); the 2-byte VCRC is counted on the wire and in credits,
 * not carried. A packet occupies the wire for its bytes x 8 / rate; packets sent back to back,
 * flow-control packets included, end at their exact cumulative time rounded to the nearest time
 * step (WireClock), so a long burst takes exactly its wire time. The owner (a switch, a channel
 * adapter) gets each received data packet with its VL and calls Release() when the packet has
 * left the receive buffer; without an owner the buffer is released at once (a sink).
 */
class IbNetDevice : public NetDevice
{
  public:
    /// Link speeds (per-lane signalling and encoding).
    enum Speed
    {
        SDR,   //!< 2.5 Gbaud, 8b/10b: 2 Gb/s of data per lane
        DDR,   //!< 5 Gbaud, 8b/10b: 4 Gb/s
        QDR,   //!< 10 Gbaud, 8b/10b: 8 Gb/s
        FDR10, //!< 10.3125 Gbaud, 64b/66b: 10 Gb/s
        FDR,   //!< 14.0625 Gbaud, 64b/66b: 13.64 Gb/s
        EDR,   //!< 25.78125 Gbaud, 64b/66b: 25 Gb/s
        HDR,   //!< 53.125 Gb/s per lane (PAM4): 50 Gb/s of data
        NDR,   //!< 106.25 Gb/s per lane (PAM4): 100 Gb/s of data
        XDR    //!< 200 Gb/s of data per lane
    };

    /// Bytes per credit block.
    static constexpr uint32_t BLOCK = 64;
    /// Bytes of the variant CRC, counted on the wire.
    static constexpr uint32_t VCRC = 2;
    /// The management VL.
    static constexpr uint8_t MANAGEMENT_VL = 15;

    /**
     * Called with every data packet received: the device, the packet, its VL. The owner calls
     * Release(vl, blocks) when the packet has left the receive buffer.
     */
    typedef Callback<void, Ptr<IbNetDevice>, Ptr<Packet>, uint8_t> IbReceiveCallback;

    /**
     * Called when a data packet leaves its output queue for the wire: the packet, its VL and the
     * tag given to EnqueueVl (a switch releases the input buffer it occupied).
     */
    typedef Callback<void, Ptr<Packet>, uint8_t, uint32_t> IbDequeueCallback;

    /**
     * TracedCallback signature of the Sniffer trace.
     * @param [in] packet the packet (LRH first, or a flow-control packet)
     * @param [in] vl its VL
     * @param [in] flowControl true for a link-layer flow-control packet
     * @param [in] sent true when sent, false when received
     */
    typedef void (*SnifferTracedCallback)(Ptr<const Packet> packet,
                                          uint8_t vl,
                                          bool flowControl,
                                          bool sent);

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    IbNetDevice();

    /**
     * @param speed a link speed
     * @param width lanes: 1, 2, 4, 8 or 12
     * @return the link's data rate (after line encoding)
     */
    static DataRate LinkRate(Speed speed, uint32_t width);

    /// @param bytes a packet's bytes, LRH to ICRC @return its credit blocks (VCRC included)
    static uint32_t Blocks(uint32_t bytes);

    /// @param channel the link to attach to (it takes two devices)
    void Attach(Ptr<IbChannel> channel);

    /**
     * Queue a data packet on the VL its service level maps to.
     * @param packet the packet, LRH to ICRC (at most the MTU plus headers)
     * @param sl service level 0..15
     * @return false if the SL maps to no data VL (the packet is dropped and counted)
     */
    bool EnqueueSl(Ptr<Packet> packet, uint8_t sl);

    /**
     * Queue a data packet on a VL.
     * @param packet the packet
     * @param vl a data VL, or MANAGEMENT_VL
     * @param tag given back to the dequeue callback
     */
    void EnqueueVl(Ptr<Packet> packet, uint8_t vl, uint32_t tag = 0);

    /// @param cb told of every data packet that goes on the wire (see IbDequeueCallback)
    void SetDequeueCallback(IbDequeueCallback cb);

    /// @param sl a service level @return the VL it maps to on this port
    uint8_t GetVlOfSl(uint8_t sl);

    /**
     * The owner has moved received blocks out of a VL's receive buffer: advertise them.
     * @param vl the data VL
     * @param blocks how many
     */
    void Release(uint8_t vl, uint32_t blocks);

    /// @param cb sees every received data packet (see IbReceiveCallback)
    void SetIbReceiveCallback(IbReceiveCallback cb);

    /**
     * Called by the channel when a packet has arrived whole.
     * @param packet the packet
     * @param vl its VL
     * @param flowControl a link-layer flow-control packet
     */
    void Receive(Ptr<Packet> packet, uint8_t vl, bool flowControl);

    /**
     * A packet will arrive (Receive) after a delay: what the link calls. A link's packets
     * arrive in the order it sent them, so they wait in one queue behind one event for the
     * first (as PfcNetDevice::ScheduleReceive); one due before the last queued gets its own.
     * @param delay when it arrives, from now
     * @param sequence its number on the link's direction (CanonicalScheduler's key)
     * @param packet the packet
     * @param vl its VL
     * @param flowControl a link-layer flow-control packet
     */
    void ScheduleReceive(Time delay,
                         uint64_t sequence,
                         const Ptr<Packet>& packet,
                         uint8_t vl,
                         bool flowControl);

    /// @return the link's data rate
    DataRate GetDataRate() const;
    /**
     * @param enable this port belongs to a cut-through switch: data packets are handed over
     *        when their LRH has arrived rather than their last byte (IbSwitch::CutThrough)
     */
    void SetCutThrough(bool enable);
    /// @return whether data packets are handed over at their LRH
    bool IsCutThrough() const;
    /// @return the number of data VLs
    uint32_t GetNDataVls() const;
    /// @param vl a data VL @return the blocks sent on it since the start
    uint64_t GetBlocksSent(uint8_t vl) const;
    /// @param vl a VL @return data packets sent on it
    uint64_t GetPacketsSent(uint8_t vl) const;
    /// @param vl a VL @return data bytes (packets, VCRC included) sent on it
    uint64_t GetBytesSent(uint8_t vl) const;
    /// @return flow-control packets sent
    uint64_t GetFlowControlPacketsSent() const;
    /// @return bytes put on the wire: data packets (VCRC included) and flow-control packets
    uint64_t GetTxBytes() const;
    /**
     * @param vl a data VL
     * @return the time its packets waited for credits so far (the IB counterpart of the time
     *         a PFC priority was paused)
     */
    Time GetCreditStallTime(uint8_t vl) const;

    /**
     * TracedCallback signature of CreditStall.
     * @param vl the data VL
     * @param stalled true when it starts waiting for credits, false when it stops
     */
    typedef void (*CreditStallTracedCallback)(uint8_t vl, bool stalled);
    /// @return data packets that arrived without receive buffer space (a bug: expected 0)
    uint64_t GetCreditViolations() const;
    /// @param vl a data VL @return free blocks of its receive buffer
    uint32_t GetReceiveBufferFree(uint8_t vl) const;
    /// @param vl a VL @return bytes waiting in its output queue
    uint64_t GetQueueBytes(uint8_t vl) const;
    /**
     * @param vl a data VL
     * @param window how far back to look
     * @return true if the VL's packets waited for credits now or within the window (the peer's
     *         buffer was full: this port is a victim of congestion further on, not its root)
     */
    bool WasCreditBlocked(uint8_t vl, Time window) const;

    // NetDevice
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsPointToPoint() const override;
    bool IsBridge() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoInitialize() override;
    void DoDispose() override;

  private:
    /// An arbitration table entry.
    struct ArbEntry
    {
        uint8_t vl;      //!< the VL
        uint32_t weight; //!< 64-byte units
    };

    /// An arbitration table and where the arbiter is in it.
    struct ArbTable
    {
        std::vector<ArbEntry> entries; //!< the entries
        std::size_t current{0};        //!< the entry being served
        int64_t left{0};               //!< bytes left of its weight
    };

    /// Start the next packet if the wire is free.
    void TryTransmit();
    /// The wire is free.
    void TransmitComplete();
    /// Put a packet on the wire.
    void StartTransmission(Ptr<Packet> packet, uint8_t vl, bool flowControl, uint32_t wireBytes);
    /// @return true if the head packet of a data VL may go (there is one, and credit for it)
    bool Eligible(uint8_t vl) const;
    /// @return the credit counters' modulus: 4096, or 2^32 for an extender
    uint64_t Modulus() const;
    /// @return the VL the arbiter picks from a table, or -1
    int PickFrom(ArbTable& table);
    /// Send a flow-control packet for every data VL (periodic refresh).
    void PeriodicFlowControl();
    /// @param vl a data VL whose credits must be advertised
    void RequestFlowControl(uint8_t vl);
    /// Parse an arbitration table attribute.
    std::vector<ArbEntry> ParseTable(const std::string& name, const std::string& text) const;
    /// Refuse attributes that are out of range or malformed (InterconnectConfigException).
    void CheckAttributes() const;
    /// @return the SL-to-VL map the SlToVl attribute gives (checked)
    std::array<uint8_t, 16> ParseSlToVl() const;
    /// Apply the attributes (tables, SL map) once.
    void Configure();

    Ptr<Node> m_node;                 //!< the node
    Ptr<IbChannel> m_channel;         //!< the link
    Mac48Address m_address;           //!< a link-layer identity (IB uses LIDs, given by the SM)
    uint32_t m_ifIndex;               //!< interface index
    Speed m_speed;                    //!< link speed
    uint32_t m_width;                 //!< lanes
    uint16_t m_mtu;                   //!< IB MTU (payload bytes)
    uint32_t m_dataVls;               //!< data VLs
    uint32_t m_bufferBlocks;          //!< receive buffer per data VL
    bool m_cutThrough;                //!< hand data packets over at their LRH
    Time m_fcPeriod;                  //!< periodic flow-control interval (0: 65,536 symbol times)
    std::string m_slToVlText;         //!< SlToVl attribute
    std::string m_arbHighText;        //!< VlArbitrationHigh attribute
    std::string m_arbLowText;         //!< VlArbitrationLow attribute
    uint32_t m_highLimit;             //!< HighPriorityLimit
    bool m_configured;                //!< attributes applied
    DataRate m_rate;                  //!< data rate
    WireClock m_wireClock;            //!< packet ends at m_rate, exact over a burst
    std::array<uint8_t, 16> m_slToVl; //!< SL -> VL
    ArbTable m_high;                  //!< high-priority table
    ArbTable m_low;                   //!< low-priority table
    uint64_t m_highSent;              //!< bytes from the high table since the low table sent

    /// A packet waiting for the wire.
    struct Item
    {
        Ptr<Packet> packet; //!< the packet
        uint32_t tag;       //!< the owner's tag
    };

    std::array<RingQueue<Item>, 16> m_queue; //!< output queue per VL
    std::array<uint64_t, 16> m_queueBytes;   //!< bytes in each
    bool m_extender{false};                  //!< 32-bit credit counters (Extender)
    bool m_reusePackets{true};               //!< flow-control packets from RdmaPacketPool
    std::array<uint64_t, 16> m_fctbs;        //!< blocks sent per VL (FCTBS before mod)
    std::array<uint32_t, 16> m_fccl;         //!< credit limit from the peer (12 bits; extender: 32)
    std::array<uint32_t, 16> m_abr;          //!< adjusted blocks received (12 bits; extender: 32)
    std::array<uint32_t, 16> m_rxFree;       //!< free receive blocks per VL
    std::array<bool, 16> m_fcPending;        //!< a flow-control packet to send
    std::array<bool, 16> m_blocked;          //!< packets wait for credits now
    std::array<Time, 16> m_blockedEnd;       //!< when the last such wait ended
    std::array<Time, 16> m_blockedStart;     //!< when the current wait began
    std::array<Time, 16> m_stallTime;        //!< time waited for credits, per VL
    std::array<uint64_t, 16> m_packetsSent;  //!< data packets sent per VL
    std::array<uint64_t, 16> m_bytesSent;    //!< data bytes sent per VL
    uint64_t m_fcSent;                       //!< flow-control packets sent
    uint64_t m_creditViolations;             //!< packets that found no buffer
    uint64_t m_unmappedDrops;                //!< packets on an SL without a VL
    bool m_txBusy;                           //!< a packet is on the wire
    EventId m_fcTimer;                       //!< periodic flow control

    /// A packet on the link to this port.
    struct Arriving
    {
        Ptr<Packet> packet; //!< the packet
        uint8_t vl;         //!< its VL
        bool flowControl;   //!< a flow-control packet

        /// @return what its arrival reads first of it: the packet (ArrivalQueue's hint)
        const void* Touches() const
        {
            return PeekPointer(packet);
        }

        /// The packet's two lines (104 bytes on ns-3.37), its arrival event names
        static constexpr uint32_t TOUCHED_LINES = 2;

        /// No fetch of the next packet's bytes (ArrivalQueue): fetching an InfiniBand packet's
        /// first bytes as a RoCE port fetches a frame's did not change perm128-ib's speed (1.004
        /// in 12 alternated rounds; doc/performance-log.rst)
        static constexpr bool FETCHES_BYTES = false;
    };

    /// A packet from the link arrives. @param packet the packet
    void Arrive(Arriving& packet);

    ArrivalQueue<IbNetDevice, Arriving, &IbNetDevice::Arrive> m_arrivals; //!< packets coming in

    IbReceiveCallback m_ibReceive;                  //!< the owner
    IbDequeueCallback m_ibDequeue;                  //!< told of dequeues
    NetDevice::ReceiveCallback m_rxCallback;        //!< unused (no L3 over IB here)
    TracedCallback<Ptr<const Packet>> m_phyTxBegin; //!< packets put on the wire
    /// Every packet sent or received: packet, VL, flow control?, sent?
    TracedCallback<Ptr<const Packet>, uint8_t, bool, bool> m_sniffer;
    TracedCallback<Ptr<const Packet>> m_macRx;        //!< data packets received
    TracedCallback<uint8_t, bool> m_creditStallTrace; //!< VLs starting and ending credit waits
};

} // namespace ns3

#endif // IB_NET_DEVICE_H
