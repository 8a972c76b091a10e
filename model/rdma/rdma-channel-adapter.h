/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_CHANNEL_ADAPTER_H
#define RDMA_CHANNEL_ADAPTER_H

#include "ib-bth-header.h"
#include "rdma-queue-pair.h"
#include "rdma-transport.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/interconnect-events.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

#include <array>
#include <vector>

namespace ns3
{

class RdmaIntTag;

/**
 * @ingroup interconnect
 * @brief The transport side of an RDMA NIC (a channel adapter), the same on every link:
 * its queue pairs, their scheduling onto the port, ACK/NAK and CNP generation, counters and
 * completions. A link binding derives from it and adds what goes around the BTH and how the
 * port is driven: RdmaNic (RoCEv2: Ethernet, IPv4, UDP, a PFC port) and IbHostAdapter (native
 * InfiniBand: LRH, VLs, credits).
 *
 * Queue pairs are numbered from FIRST_QPN (0 and 1 are the IBTA's management queue pairs) and
 * name their ends by an ns3::Address of the link's kind (an Ipv4Address on RoCEv2, a LID on
 * InfiniBand, see IbLidAddress). Each queue pair gets the congestion control that the
 * CongestionControl attribute names, whatever the link: any RdmaCongestionControl (DCQCN, HPCC,
 * TIMELY, DCTCP-style, IB congestion control, or a user's) runs on RoCEv2 and InfiniBand alike.
 *
 * Scheduling: each queue pair sends on a transmit class of the port (a PFC priority, or the VL
 * of its SL). Per class, the queue pairs with something to send take turns (round robin); one
 * waits for its congestion-control rate (GetNextSendTime) and window. The port holds at most
 * PortSlots data packets per class from the adapter, so that a pause (PFC, or no credit) stops
 * the adapter at once and no large host queue forms. ACKs, NAKs and CNPs go out at once, ahead
 * of that limit.
 *
 * Notification point: a data packet that arrives congestion-marked (IPv4 CE on RoCEv2, BTH
 * FECN on InfiniBand) makes the adapter send a CNP (the link's CNP opcode, see GetCnpOpcode)
 * to the sending queue pair, at most one per CnpInterval per queue pair; its ACK carries BECN.
 */
class RdmaChannelAdapter : public Object, public RdmaQueuePairOwner
{
  public:
    /// The first QPN handed out (QPs 0 and 1 are the IBTA's management queue pairs).
    static constexpr uint32_t FIRST_QPN = 0x100;
    /// Transmit classes of a port: PFC priorities (8) or InfiniBand VLs (16).
    static constexpr uint8_t MAX_CLASSES = 16;
    /// Payload of a CNP after its BTH: 16 reserved bytes (IBTA annex A10; RoCEv2 annex A17).
    static constexpr uint32_t CNP_PAYLOAD = 16;
    /// Bytes of the invariant CRC at the end of every transport packet.
    static constexpr uint32_t ICRC = 4;

    /**
     * TracedCallback signature of CnpSent and CnpReceived.
     * @param qpn the local queue pair the CNP concerns
     */
    typedef void (*QpnTracedCallback)(uint32_t qpn);

    /**
     * TracedCallback signature of CongestionState.
     * @param qpn the queue pair whose congestion control acted
     * @param rate its sending rate now
     * @param window its window now, bytes (0: none)
     * @param gap the gap it keeps between packets now (zero: none)
     */
    typedef void (*CongestionStateTracedCallback)(uint32_t qpn,
                                                  DataRate rate,
                                                  uint64_t window,
                                                  Time gap);

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaChannelAdapter();

    /**
     * Set an attribute of every queue pair this adapter creates from now on.
     * @param name the RdmaQueuePair attribute
     * @param value its value
     */
    virtual void SetQueuePairAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Take the next QPN without creating its queue pair: in a distributed run, a queue pair of
     * another rank's two hosts, numbered here as there so that later QPNs agree.
     * @return the QPN taken
     */
    uint32_t ReserveQueuePair();

    /// @param qpn a queue pair number @return the queue pair, or nullptr (none, or reserved)
    Ptr<RdmaQueuePair> GetQueuePair(uint32_t qpn) const;

    /// @return the queue pairs of this adapter (QueuePairList), reserved QPNs left out
    std::size_t GetNLiveQueuePairs() const
    {
        return m_liveQps.size();
    }

    /**
     * @param i 0 .. GetNLiveQueuePairs() - 1, in order of creation
     * @return that queue pair
     */
    Ptr<RdmaQueuePair> GetLiveQueuePair(std::size_t i) const
    {
        return m_liveQps[i];
    }

    /**
     * Make the CongestionState trace fire, for the queue pairs there are and those added later.
     * Until then a queue pair's state changes cost nothing beyond its own Rate, Window and
     * InterPacketDelay traces (a callback per queue pair is what reporting them costs:
     * MessageTransport::TraceCongestionState calls this).
     */
    void EnableCongestionStateTrace();
    /// @return the number of queue pairs (reserved ones included)
    uint32_t GetNQueuePairs() const;

    /// @return CNPs sent (as notification point)
    uint64_t GetCnpsSent() const;
    /// @return CNPs received for this adapter's queue pairs
    uint64_t GetCnpsReceived() const;
    /// @return ACKs and NAKs sent
    uint64_t GetAcksSent() const;
    /// @return data packets of queue pairs sent (requests and READ responses, resent ones too)
    uint64_t GetDataPacketsSent() const;
    /// @return transport packets for this adapter that named a queue pair it does not have
    uint64_t GetUnknownQpPackets() const;
    /// @return trimmed packets received (their headers: a switch cut the payload)
    uint64_t GetTrimmedReceived() const;

    /**
     * Build a queue pair's data packet with the link's headers (for RoCEv2 from the IPv4
     * header on, for InfiniBand from the LRH on). Exposed for tests and tools.
     * @param qp the queue pair
     * @param d what to send
     * @return the packet
     */
    Ptr<Packet> BuildPacket(Ptr<RdmaQueuePair> qp, const RdmaTxDescriptor& d) const;

    /// @return the BTH opcode of this link's congestion notification packets
    uint8_t GetCnpOpcode() const;

    /**
     * What the wake of a send that waits (for its queue pair's rate, or for the host's read of
     * payload) was last scheduled saying it reads first, for CanonicalScheduler::HintNextEvent:
     * the adapter's hot pair of lines (SendLine), its timer, the class's round robin, and the
     * congestion control and send lines (RdmaQueuePair::SendLines) of the queue pair whose time
     * it is. Only hints; exposed for tests and tools.
     * @return the addresses, null before any wake
     */
    const ReusableTimer::Hints& GetWakeHints() const
    {
        return m_wakeHints;
    }

  protected:
    /// What a link binding frames.
    enum class FrameKind : uint8_t
    {
        DATA, //!< a queue pair's request or READ response
        ACK,  //!< an ACK or NAK
        CNP,  //!< a congestion notification
    };

    /**
     * Fetch the start of the list of queue pairs (what ReceiveTransport reads first: the
     * entries of a NIC's first queue pairs), for a link to call as a frame arrives, before it
     * reads the frame's headers: their line then comes in with the headers' own, not after
     * them. (The list's own fields are on the hot pair, SendLine, which is in cache by then.)
     * Always inlined (see PrefetchQueuePair).
     */
    __attribute__((always_inline)) void PrefetchQueuePairs() const
    {
        __builtin_prefetch(m_qps.data());
    }

    /**
     * Fetch a queue pair, for a link to call once it has read the frame's destination QP,
     * before it reads the rest: at k=16 ReceiveTransport waited on the list, its entry and the
     * queue pair in turn (94% of its samples in perf on perm1024). The entry is read (its line
     * fetched by PrefetchQueuePairs when it is among the first), then the queue pair's lines
     * that the frame's arrival reads are fetched (RdmaQueuePair::PrefetchArrival). Always
     * inlined (see there).
     * @param qpn the destination QPN
     * @param toRequester whether the frame is for the requester (an ACK, a NAK, a READ
     *        response), else a request
     */
    __attribute__((always_inline)) void PrefetchQueuePair(uint32_t qpn, bool toRequester) const
    {
        const uint32_t i = qpn - FIRST_QPN; // (wraps for a QPN below FIRST_QPN)
        if (i < m_qps.size())
        {
            RdmaQueuePair::PrefetchArrival(PeekPointer(m_qps[i].qp), toRequester);
        }
    }

    /**
     * The pair of lines that a send and an arrival read of the adapter every time, the
     * binding's own hot fields included (they follow the adapter's): for a binding to name in
     * its port's hints (CanonicalScheduler::HintNextEvent), with an adjacent-line prefetcher
     * fetching the second line with the first. Only a hint.
     * @return its start, on 128 bytes
     */
    const void* SendLine() const
    {
        return &m_inTrySend;
    }

    /**
     * The lines that the next send reads of the queue pair it serves (the round robin's next of
     * the first class with queue pairs to send), for a binding to name where its port arms the
     * transmit completion that calls for it: at k=16 the queue pair has left the cache since
     * its last packet. Only a hint: by then an ACK or a wake may have changed the turn.
     * @return a CanonicalScheduler::SpanHint, or null (nothing to send)
     */
    const void* NextSenderLines() const
    {
        if (m_busyClasses == 0)
        {
            return nullptr;
        }
        const RingQueue<Active>& active = m_tx[__builtin_ctz(m_busyClasses)].active;
        return active.empty() ? nullptr : RdmaQueuePair::SendLines(active.front().qp);
    }

    void DoDispose() override;

    /**
     * The link's constants; a binding calls this from its constructor.
     * @param classes transmit classes of the port (at most MAX_CLASSES)
     * @param portSlots data packets per class the port may hold from the adapter
     * @param cnpOpcode the BTH opcode of a CNP
     * @param cnpBecn set BECN in a CNP's BTH
     */
    void SetLink(uint8_t classes, uint32_t portSlots, uint8_t cnpOpcode, bool cnpBecn);

    /// @return a queue pair from the factory (its attributes set), not yet numbered
    Ptr<RdmaQueuePair> NewQueuePair() const;
    /// @return the QPN the next queue pair gets
    uint32_t NextQpn() const;
    /**
     * Take a queue pair that RdmaQueuePair::Setup numbered NextQpn(): it gets its congestion
     * control and joins the scheduling.
     * @param qp the queue pair
     * @param txClass its transmit class on the port
     */
    void AddQueuePair(Ptr<RdmaQueuePair> qp, uint8_t txClass);

    /**
     * A transport packet for this adapter arrived, its link and transport headers removed.
     * @param headers its transport headers
     * @param packet what follows them (payload, ICRC)
     * @param marked it arrived congestion-marked (CE or FECN)
     * @param trimmed a switch trimmed its payload (only its headers arrived)
     */
    void ReceiveTransport(const RdmaTransportHeaders& headers,
                          Ptr<Packet> packet,
                          bool marked,
                          bool trimmed = false);

    /**
     * @return whether frames carry their headers packed into one RdmaPackedHeader: while
     *         ns-3's packet metadata is off (asked once, at the adapter's first frame)
     */
    bool PacksHeaders() const;

    /**
     * A data packet of this adapter's left the port's queue for the wire.
     * @param txClass its class
     */
    void DataDequeued(uint8_t txClass);

    /**
     * Queue a packet that needs no queue pair (framed already), served ahead of the class's
     * queue pairs; for unreliable traffic and tests.
     * @param packet the packet
     * @param txClass its class
     */
    void QueueDatagram(Ptr<Packet> packet, uint8_t txClass);

    /**
     * A transport packet for the link: its payload and ICRC (as a trailer object, or as bytes
     * of the payload when the adapter packs headers: PacksHeaders).
     * @param payload payload bytes
     * @return the packet
     */
    virtual Ptr<Packet> NewTransportPacket(uint32_t payload) const = 0;
    /**
     * Put the link's headers on a packet.
     * @param packet the packet: its outermost header the BTH, or (packed) its payload and ICRC
     * @param packed when the adapter packs headers, the transport headers, not yet on the
     *        packet: the link's go in front of them, and the whole on the packet as one header
     * @param qp the queue pair it belongs to
     * @param kind what it is
     * @return the transmit class to send it on
     */
    virtual uint8_t AddLinkHeaders(Ptr<Packet> packet,
                                   RdmaPackedHeader* packed,
                                   Ptr<RdmaQueuePair> qp,
                                   FrameKind kind) const = 0;
    /**
     * @param packet a framed packet
     * @return its bytes on the wire, for the queue pair's pacing
     */
    virtual uint32_t GetWireBytes(Ptr<const Packet> packet) const = 0;
    /**
     * Hand a framed packet to the port.
     * @param packet the packet
     * @param txClass its class
     * @param data a data packet (counted against PortSlots until DataDequeued)
     */
    virtual void Transmit(Ptr<Packet> packet, uint8_t txClass, bool data) = 0;

  private:
    /// Queue pair `index` has something new to send (RdmaQueuePairOwner).
    void QueuePairWake(uint32_t index) override;
    /// Send what may be sent now; schedule the next try.
    void TrySend();
    /// Send an ACK or NAK.
    void SendAck(Ptr<RdmaQueuePair> qp, const RdmaRxVerdict& verdict, const RdmaIntTag* intStack);
    /**
     * Put a packet's transport and link headers on it.
     * @param packet its payload and ICRC (NewTransportPacket)
     * @param headers its transport headers
     * @param qp its queue pair
     * @param kind what it is
     * @return the transmit class to send it on
     */
    uint8_t Frame(Ptr<Packet> packet,
                  const RdmaTransportHeaders& headers,
                  Ptr<RdmaQueuePair> qp,
                  FrameKind kind) const;

    /// A queue pair as the adapter keeps it: all that a frame's arrival, a CNP and a wake read
    /// of it in one entry (as five lists, one per field, they were up to five cache lines apart,
    /// each a miss at k=16).
    struct QpEntry
    {
        Ptr<RdmaQueuePair> qp; //!< the queue pair (null: a reserved QPN)
        int64_t lastCnp{0};    //!< when the last CNP for it was sent (time step)
        uint8_t txClass{0};    //!< its transmit class
        bool inActive{false};  //!< in an active list
        bool cnpEver{false};   //!< a CNP was ever sent for it
    };

    /// Send a CNP to the sender of a marked packet (paced per queue pair). @param entry the
    /// queue pair's entry
    void SendCnp(QpEntry& entry);
    /// A queue pair's message completed (RdmaQueuePairOwner).
    void QueuePairCompleted(const RdmaCompletion& completion) override;
    /// A queue pair's congestion-control state changed (RdmaQueuePairOwner). @param index its index
    void QueuePairStateChanged(uint32_t index) override;
    /// @return the index of a QPN, or the number of queue pairs if none
    uint32_t IndexOf(uint32_t qpn) const;

    /// @param rate the HostReadRate attribute
    void SetHostReadRate(DataRate rate);
    /// @return the HostReadRate attribute
    DataRate GetHostReadRate() const;

    // What a send and an arrival read only now and then (the hot fields are last, see
    // SendLine).
    ObjectFactory m_qpFactory;                 //!< creates queue pairs
    std::string m_ccTypeId;                    //!< congestion-control TypeId name
    DataRate m_hostReadRate;                   //!< payload DMA rate from memory (0: unlimited)
    double m_hostReadDone;                     //!< when the last payload read ends, seconds (exact)
    std::vector<Ptr<RdmaQueuePair>> m_liveQps; //!< the queue pairs, not the reserved QPNs
    std::array<RingQueue<Ptr<Packet>>, MAX_CLASSES> m_datagrams; //!< framed, no queue pair
    ReusableTimer m_wakeEvent;                                   //!< next rate-limited send
    /// What the wake reads first, as it was last scheduled (ReusableTimer::Schedule copies it
    /// into the event object): the hot pair, the timer, the class, and the congestion control
    /// and send lines of the queue pair whose time it is. Most of a k=16 fabric's sends are
    /// paced by DCQCN's rate, so come from the wake, not the port.
    ReusableTimer::Hints m_wakeHints{};
    uint64_t m_cnpsSent;                                     //!< CNPs sent
    uint64_t m_cnpsReceived;                                 //!< CNPs received
    uint64_t m_unknownQp;                                    //!< packets for unknown queue pairs
    uint64_t m_trimmedReceived{0};                           //!< trimmed packets received
    TracedCallback<const RdmaCompletion&> m_completionTrace; //!< any queue pair's completion
    TracedCallback<uint32_t> m_cnpSentTrace;     //!< CNP sent: the local QPN it concerns
    TracedCallback<uint32_t> m_cnpReceivedTrace; //!< CNP received: the local QPN
    TracedCallback<uint32_t, DataRate, uint64_t, Time>
        m_congestionStateTrace; //!< a queue pair's rate, window or gap changed
    bool m_reportState{false};  //!< EnableCongestionStateTrace was called

    /// A queue pair in an active list: its pointer (m_qps holds it) beside its index, so that a
    /// send does not read m_qps, whose line has left the cache at k=16.
    struct Active
    {
        RdmaQueuePair* qp; //!< the queue pair
        uint32_t index;    //!< its index
    };

    /// A transmit class: its round robin and the data packets it has in the port, on one line.
    struct alignas(64) TxClass
    {
        RingQueue<Active> active; //!< the queue pairs with something to send, in turn
        uint32_t dataInPort{0};   //!< data packets in the port
    };

    std::array<TxClass, MAX_CLASSES> m_tx; //!< by class

    // The fields that a send (TrySend) and an arrival (ReceiveTransport) read every time, on
    // one pair of lines with the link binding's own (SendLine): at k=16 they were spread over
    // seven lines, each a miss. (A binding's hot fields follow; see RdmaNic.)
    alignas(128) bool m_inTrySend; //!< re-entrance guard
    bool m_trySendAgain;           //!< TrySend was asked for while running
    /// Bit c is set when class c's active list or datagrams may be non-empty (it is cleared
    /// when TrySend leaves both empty): TrySend visits only those classes, without reading the
    /// lists of the others (a line each, TxClass; perm128 has one class in use of the NIC's 8).
    uint16_t m_busyClasses{0};
    /// Bit c is set when class c's datagrams may be non-empty: TrySend reads the ring only then.
    uint16_t m_datagramClasses{0};
    mutable int8_t m_packs{-1}; //!< PacksHeaders: -1 not asked yet, else 0 or 1
    uint8_t m_classes;          //!< transmit classes
    uint8_t m_cnpOpcode;        //!< the CNP's BTH opcode
    bool m_cnpBecn;             //!< BECN in a CNP
    bool m_readLimited{false};  //!< HostReadRate is above 0
    uint32_t m_portSlots;       //!< data packets per class in the port
    Time m_hostReadFree;        //!< the last payload read's end rounded up: the next may start

    // (Members lie in declaration order whatever their access: GCC and Clang have always laid
    // them out so, and C++23 requires it.)
  protected:
    Time m_cnpInterval; //!< notification point pacing (each binding declares the attribute)

  private:
    std::vector<QpEntry> m_qps; //!< by index (QPN - FIRST_QPN)
    uint64_t m_dataSent;        //!< data packets sent
    uint64_t m_acksSent;        //!< ACKs and NAKs sent
};

} // namespace ns3

#endif // RDMA_CHANNEL_ADAPTER_H
