/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_QUEUE_PAIR_H
#define RDMA_QUEUE_PAIR_H

#include "rdma-congestion-control.h"
#include "rdma-int-tag.h"

#include "ns3/address.h"
#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/interconnect-events.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"
#include "ns3/wire-clock.h"

#include <memory>

namespace ns3
{

/**
 * @ingroup interconnect
 * The verbs a queue pair carries.
 */
enum class RdmaVerb : uint8_t
{
    WRITE, //!< RDMA WRITE: data from requester to responder memory
    SEND,  //!< SEND: data from requester to a receive buffer of the responder
    READ   //!< RDMA READ: data from responder memory back to the requester
};

/**
 * @ingroup interconnect
 * @return "write", "send" or "read"
 * @param verb the verb
 */
std::string RdmaVerbName(RdmaVerb verb);

/**
 * @ingroup interconnect
 * The completion of one message (a work request), at the requester.
 */
struct RdmaCompletion
{
    uint32_t qpn;   //!< local queue pair number
    uint64_t id;    //!< the id Post() returned
    RdmaVerb verb;  //!< the verb
    uint64_t bytes; //!< message size
    Time posted;    //!< when it was posted
    Time completed; //!< when it completed (WRITE/SEND: acknowledged; READ: last response in)
};

/**
 * @ingroup interconnect
 * What the NIC must put on the wire for one packet of a queue pair.
 */
struct RdmaTxDescriptor
{
    uint8_t opcode;      //!< BTH opcode
    uint32_t psn;        //!< BTH PSN
    uint32_t payload;    //!< payload bytes
    bool hasReth;        //!< carries a RETH
    uint64_t va;         //!< RETH virtual address
    uint32_t dmaLength;  //!< RETH DMA length
    bool ackRequest;     //!< BTH AckReq bit
    bool hasAeth;        //!< carries an AETH (read responses)
    uint32_t msn;        //!< AETH MSN (read responses)
    bool retransmission; //!< PSN sent before
};

/**
 * @ingroup interconnect
 * What the responder side decided about a received request packet.
 */
struct RdmaRxVerdict
{
    bool accepted;       //!< in order: payload delivered
    bool sendAck;        //!< send an ACK for ackPsn
    bool sendNak;        //!< send a PSN-sequence-error NAK (ackPsn is then the expected PSN)
    bool ecnEcho;        //!< the acknowledged data arrived CE-marked (set BECN in the ACK)
    uint32_t ackPsn;     //!< the PSN to acknowledge (ePSN - 1), or the expected PSN of a NAK
    uint32_t msn;        //!< the MSN to report
    bool sack{false};    //!< the NAK is IRN's: it also names sackPsn, which arrived
    uint32_t sackPsn{0}; //!< the PSN of the packet that triggered an IRN NAK
    bool trimmed{false}; //!< the NAK reports sackPsn trimmed by a switch (it did not arrive)
};

/**
 * @ingroup interconnect
 * @brief What a queue pair tells the adapter that owns it (see RdmaQueuePair::SetOwner).
 *
 * One virtual call, instead of bound callbacks and a trace connection per queue pair: an
 * all-to-all on a fabric has 10^4 to 10^5 queue pairs, and those callbacks were several heap
 * objects each.
 */
class RdmaQueuePairOwner
{
  public:
    virtual ~RdmaQueuePairOwner() = default;

    /// The queue pair has something new to send. @param index its index, as given to SetOwner
    virtual void QueuePairWake(uint32_t index) = 0;

    /**
     * A message completed. Called before the queue pair's Completion trace.
     * @param completion the completion
     */
    virtual void QueuePairCompleted(const RdmaCompletion& completion) = 0;

    /**
     * The congestion-control state (rate, window or inter-packet delay) changed; called after
     * the Rate, Window and InterPacketDelay traces, and only once SetOwner's reportState is on.
     * @param index the queue pair's index
     */
    virtual void QueuePairStateChanged(uint32_t index) = 0;
};

/**
 * @ingroup interconnect
 * @brief One end of a reliable-connection (RC) queue pair: the transport state of the IBTA RC
 * service shared by RoCEv2 and InfiniBand.
 *
 * Requester side: messages are split into packets of at most Mtu payload bytes, numbered with
 * consecutive 24-bit PSNs (wrapping). The responder acknowledges cumulatively (ACK coalescing:
 * every AckInterval packets, at every message end and on AckReq). A PSN gap makes the responder
 * send one NAK (PSN sequence error) and drop the out-of-order packets; the requester then goes
 * back to the NAK's PSN and resends from there (go-back-N). A retransmission timeout does the
 * same from the oldest unacknowledged PSN. RDMA READ: one request packet consumes the PSNs of
 * all its responses; missing responses make the requester re-issue the request from the first
 * missing PSN, as IBTA 9.7.3 allows.
 *
 * Responder side: expected PSN, MSN, ACK coalescing and NAK state, and the queue of READ
 * responses to send. With OutOfOrderReceive, WRITE and SEND packets that arrive ahead of a gap
 * are placed (as NICs with out-of-order placement do under adaptive routing or packet spray)
 * instead of dropped and NAKed; the cumulative ACK jumps over them once the gap fills, and a
 * packet really lost is recovered by the retransmission timeout. The NIC (RdmaNic) stamps and
 * parses the headers; the queue pair decides.
 *
 * Transport IRN (Mittal et al., "Revisiting Network Support for RDMA", SIGCOMM 2018, section 3)
 * replaces go-back-N with selective repeat, for fabrics without PFC: the responder places every
 * WRITE/SEND packet that arrives ahead of a gap and answers each with a NAK that carries both
 * the cumulative acknowledgement (the expected PSN) and the PSN that arrived (a one-entry
 * selective acknowledgement). The first such NAK puts the requester in loss recovery: it
 * resends the PSNs below the highest selectively acknowledged one that were not acknowledged,
 * each once, before any new packet, and leaves recovery when the cumulative acknowledgement
 * passes the highest PSN sent when recovery began. A timeout (no cumulative progress for
 * that long) starts recovery again from the oldest unacknowledged PSN, which it resends first,
 * then those below the highest selectively acknowledged PSN that were not, even if resent
 * before; the timeout is IrnRtoLow while at most IrnRtoLowPackets are in flight (a tail loss),
 * RetransmitTimeout otherwise. MaxOutstandingPackets caps the PSNs in
 * flight (IRN's BDP-FC; it applies to go-back-N as well). READ requests and responses keep
 * go-back-N's recovery under IRN (re-issue from the first missing response).
 *
 * Transport UET follows the Ultra Ethernet transport's reliable unordered delivery (UEC
 * specification 1.0, 2025) on the same engine: each packet carries its own entropy (the next of
 * SprayEntropies values, so that the switches' ECMP hash sprays the packets of one queue pair
 * over every equal-cost path), the responder places every packet and acknowledges each one
 * that arrives ahead of a gap selectively (as IRN's NAK does, since arriving out of order is
 * normal under spraying and not a loss), and the requester declares a PSN lost only when a PSN
 * UetLossThreshold or more above it was selectively acknowledged, or when a switch trimmed it
 * (ReceiveTrimNak: the header of a packet whose payload a switch cut instead of dropping it, as
 * NDP and UEC's packet trimming do, came back as a NAK naming it). Selectively acknowledged
 * bytes leave the bytes in flight that a congestion window counts, and every acknowledgement,
 * cumulative or selective, that acknowledges a packet anew reaches the congestion control with
 * that packet's round trip.
 * A timeout resends as IRN's does. READs keep go-back-N's recovery.
 *
 * Sending pace: the congestion-control object sets the rate and optionally a window; the NIC
 * does not send a packet of this queue pair before GetNextSendTime() nor past the window. The
 * next send time is the end of the frame just sent at the current rate, on a WireClock that
 * rounds down: frames sent on their pace take exactly their bits / rate together, and at the
 * line rate the pace is never later than the port's own (rounded to nearest) frame ends. A frame
 * sent later than its pace allowed, or a new rate, starts the pace afresh.
 */
class RdmaQueuePair : public Object
{
  public:
    /// Called when a message completes at the requester.
    typedef Callback<void, const RdmaCompletion&> CompletionCallback;

    /**
     * TracedCallback signature for message completions.
     * @param [in] completion the completion record
     */
    typedef void (*CompletionTracedCallback)(const RdmaCompletion& completion);

    /// How lost packets are recovered.
    enum Transport : uint8_t
    {
        GO_BACK_N, //!< IBTA RC: the responder drops past a gap, the requester goes back to it
        IRN,       //!< IRN's selective repeat (Mittal et al., SIGCOMM 2018)
        UET,       //!< an Ultra Ethernet-style transport: sprayed, unordered, selective ACK
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaQueuePair();

    /**
     * Set identity and addressing (done by the NIC when it creates the queue pair).
     * @param qpn local queue pair number
     * @param local local address (of the link's kind: an Ipv4Address on RoCEv2, a LID made by
     *        IbLidAddress on InfiniBand)
     * @param peer peer address
     * @param entropy path entropy for multipath switches (on RoCEv2 the UDP source port)
     * @param priority egress priority of data (on InfiniBand the SL)
     * @param lineRate the NIC's line rate
     */
    void Setup(uint32_t qpn,
               const Address& local,
               const Address& peer,
               uint16_t entropy,
               uint8_t priority,
               DataRate lineRate);

    /**
     * Connect to the other end.
     * @param peerQpn the queue pair number of the other end
     * @param peerInitialPsn the other end's first PSN (this end's responder expects it)
     */
    void Connect(uint32_t peerQpn, uint32_t peerInitialPsn);
    /// @return this end's first PSN as a requester
    uint32_t GetInitialPsn() const;
    /**
     * @param cc the congestion-control object (its OnStart is called); one a queue pair of its
     * own: a congestion control acts on the queue pair it was set on, and one it replaces is
     * disposed of (its timers stop)
     */
    void SetCongestionControl(Ptr<RdmaCongestionControl> cc);
    /**
     * Tell an owner (the adapter) of new work, completions and, with reportState, changes of
     * the congestion-control state.
     * @param owner the owner (nullptr: none)
     * @param index this queue pair's index at the owner
     * @param reportState call QueuePairStateChanged after every change of the state
     */
    void SetOwner(RdmaQueuePairOwner* owner, uint32_t index, bool reportState);

    /**
     * Post a message.
     * @param verb WRITE, SEND or READ
     * @param bytes message size
     * @param done called at completion (may be null)
     * @return the message id
     */
    uint64_t Post(RdmaVerb verb, uint64_t bytes, CompletionCallback done);

    // Requester side, called by the NIC.
    /// @return true if a packet may be produced now by the window (not counting the rate)
    bool HasPacketToSend() const;
    /**
     * Produce the next packet and advance.
     * @param[out] d the packet to build
     * @return false if there is none (window, or nothing queued)
     */
    bool NextPacket(RdmaTxDescriptor& d);
    /**
     * Record that a frame of the given wire size was sent at the current rate.
     * @param wireBytes the frame's bytes on the wire
     */
    void OnSent(uint32_t wireBytes);
    /**
     * An ACK or NAK arrived.
     * @param psn the BTH PSN of the ACK
     * @param nak true for a PSN-sequence-error NAK
     * @param ecnEcho the ACK's BECN bit: the acknowledged data was CE-marked
     * @param intStack path telemetry echoed by the ACK, or nullptr
     */
    void ReceiveAck(uint32_t psn,
                    bool nak,
                    bool ecnEcho = false,
                    const RdmaIntTag* intStack = nullptr);
    /**
     * An IRN NAK arrived: every PSN before expected arrived, and so did sacked.
     * @param expected the responder's expected PSN (the cumulative acknowledgement)
     * @param sacked the PSN whose arrival, ahead of a gap, triggered the NAK
     * @param ecnEcho the NAK's BECN bit
     */
    void ReceiveSelectiveNak(uint32_t expected, uint32_t sacked, bool ecnEcho = false);
    /**
     * A NAK for a trimmed packet arrived: a switch cut psn's payload on the way, and every PSN
     * before expected arrived. Go-back-N goes back to expected; IRN and UET resend psn alone.
     * @param expected the responder's expected PSN
     * @param psn the trimmed packet's PSN
     * @param ecnEcho the NAK's BECN bit
     */
    void ReceiveTrimNak(uint32_t expected, uint32_t psn, bool ecnEcho = false);
    /**
     * A READ response arrived. (Its congestion signals concern the responder's sending: the
     * NIC answers a CE mark with a CNP to the responder; nothing reaches this end's CC.)
     * @param psn its PSN
     * @param payload its payload bytes
     */
    void ReceiveReadResponse(uint32_t psn, uint32_t payload);
    /// A CNP arrived for this queue pair.
    void ReceiveCnp();

    // Responder side, called by the NIC.
    /**
     * A WRITE, SEND or READ request packet arrived.
     * @param opcode BTH opcode
     * @param psn BTH PSN
     * @param payload payload bytes
     * @param ackRequest BTH AckReq bit
     * @param dmaLength RETH DMA length (READ requests)
     * @param ce the packet arrived CE-marked (echoed in the next ACK)
     * @return what to answer
     */
    RdmaRxVerdict ReceiveRequest(uint8_t opcode,
                                 uint32_t psn,
                                 uint32_t payload,
                                 bool ackRequest,
                                 uint32_t dmaLength,
                                 bool ce = false);
    /**
     * The header of a WRITE or SEND packet whose payload a switch trimmed arrived.
     * @param psn its PSN
     * @return what to answer: a NAK naming psn, or, if psn arrived whole before, an ACK
     */
    RdmaRxVerdict ReceiveTrimmed(uint32_t psn);

    // Congestion-control interface.
    /// @return the NIC's line rate
    DataRate GetLineRate() const;
    /// @return the current sending rate
    DataRate GetRate() const;
    /// @param rate the sending rate (clamped to the line rate)
    void SetRate(DataRate rate);
    /// @return the window in bytes (0 = none)
    uint64_t GetWindow() const;
    /**
     * A gap the congestion control adds after each packet's transmission at the current rate
     * (IBTA annex A10's inter-packet delay).
     * @param delay the gap (0: none)
     */
    void SetInterPacketDelay(Time delay);
    /// @return the inter-packet delay
    Time GetInterPacketDelay() const;
    /// @param bytes the window in bytes (0 = none)
    void SetWindow(uint64_t bytes);
    /// @return payload bytes sent and not yet acknowledged (UET: nor selectively acknowledged)
    uint64_t GetBytesInFlight() const;
    /// @return UET: payload bytes selectively acknowledged beyond the oldest unacknowledged PSN
    uint64_t GetSackedBytes() const;
    /// @return the congestion-control object
    Ptr<RdmaCongestionControl> GetCongestionControl() const;

    /// @return the congestion-control object, not referenced (only its address read: a hint)
    const RdmaCongestionControl* PeekCongestionControl() const
    {
        return PeekPointer(m_cc);
    }

    // Identity and state.
    /// @return local queue pair number
    uint32_t GetQpn() const;
    /// @return peer queue pair number
    uint32_t GetPeerQpn() const;
    /// @return local address
    const Address& GetLocalAddress() const;
    /// @return peer address
    const Address& GetPeerAddress() const;

    /// @return the peer address as a number when it is an IPv4 address, else 0: what a
    /// binding's per-frame header reads (converting the ns3::Address costs a copy, a type check
    /// and a log check each time)
    uint32_t GetPeerIpv4() const
    {
        return m_peerIpv4;
    }

    /// @return path entropy (on RoCEv2 the UDP source port)
    uint16_t GetEntropy() const;
    /// @return egress priority of data
    uint8_t GetPriority() const;
    /// @return the earliest time the next packet may start
    Time GetNextSendTime() const;
    /// @return next PSN to send
    uint32_t GetSndNxt() const;
    /// @return oldest unacknowledged PSN
    uint32_t GetSndUna() const;
    /// @return responder's expected PSN
    uint32_t GetExpectedPsn() const;
    /// @return messages posted and not completed
    uint32_t GetOutstandingMessages() const;
    /// @return packets sent again (go-back-N, IRN's recovery and timeouts)
    uint64_t GetRetransmittedPackets() const;
    /// @return payload bytes of the packets sent again
    uint64_t GetRetransmittedBytes() const;
    /// @return request packets that arrived at this responder a second time (already delivered
    ///         or placed): the spurious retransmissions of the other end
    uint64_t GetDuplicatesReceived() const;
    /// @return whether the requester is in IRN's loss recovery
    bool IsInRecovery() const;
    /// @return retransmission timeouts
    uint64_t GetTimeouts() const;
    /// @return NAKs received
    uint64_t GetNaksReceived() const;
    /// @return NAKs received for trimmed packets
    uint64_t GetTrimNaksReceived() const;
    /// @return CNPs received
    uint64_t GetCnpsReceived() const;
    /// @return payload bytes delivered in order at the responder
    uint64_t GetBytesDelivered() const;
    /// @return the path MTU (payload bytes per packet)
    uint32_t GetMtu() const;
    /// @param mtu the path MTU: 256, 512, 1024, 2048 or 4096
    void SetMtu(uint32_t mtu);

    /**
     * The lines a send reads of a queue pair (HasPacketToSend, NextPacket, OnSent and what
     * framing the packet asks of it), for an adapter to name ahead of the send: its first
     * SEND_LINES lines, where the fields from its QPNs to its retransmission timer lie (the
     * responder's, and what is read only at setup, a post or a loss, come after them).
     * @param qp the queue pair
     * @return a CanonicalScheduler::SpanHint
     */
    static const void* SendLines(const RdmaQueuePair* qp)
    {
        return CanonicalScheduler::SpanHint(qp, SEND_LINES);
    }

    /// Lines of a queue pair that a send reads (SendLines): the send and acknowledgement fields
    /// end 372 bytes in on ns-3.37 (396 from ns-3.42, whose Object is 24 bytes larger), and an
    /// object on 16 bytes that starts up to 48 bytes into a line ends them within seven.
    static constexpr uint32_t SEND_LINES = 7;

    /**
     * Fetch the lines of a queue pair that a frame's arrival reads, for a link that has read
     * the frame's destination QP and opcode: for a frame to the requester (an ACK, a NAK, a READ
     * response) the send lines (SendLines: the requester's fields), for a request its first two
     * lines (its QPNs, its transport and MTU) and the responder's fields. Only a hint. Always
     * inlined, as CanonicalScheduler::FetchSpan is: GCC deletes a call whose only effect is
     * __builtin_prefetch.
     * @param qp the queue pair, or null
     * @param toRequester whether the frame is for the requester
     */
    __attribute__((always_inline)) static void PrefetchArrival(const RdmaQueuePair* qp,
                                                               bool toRequester)
    {
        if (qp == nullptr)
        {
            return;
        }
        const auto* at = reinterpret_cast<const char*>(qp);
        if (toRequester)
        {
            for (uint32_t line = 0; line < SEND_LINES; ++line)
            {
                __builtin_prefetch(at + 64 * line);
            }
            return;
        }
        __builtin_prefetch(at);
        __builtin_prefetch(at + 64);
        __builtin_prefetch(&qp->m_ePsn);
        __builtin_prefetch(reinterpret_cast<const char*>(&qp->m_oooWindow + 1) - 1);
    }

  protected:
    void DoDispose() override;

  private:
    /// One posted message.
    struct Message
    {
        uint64_t id;             //!< message id
        RdmaVerb verb;           //!< verb
        uint64_t bytes;          //!< size
        uint32_t firstPsn;       //!< first PSN
        uint32_t packets;        //!< PSNs it consumes
        uint64_t streamBase;     //!< bytes of data (WRITE/SEND) before it in this queue pair
        uint32_t readNext;       //!< READ: next expected response PSN
        bool readGap;            //!< READ: re-issued for the current gap
        Time posted;             //!< post time
        CompletionCallback done; //!< completion callback
    };

    /// A READ response stream to send (responder side).
    struct ReadJob
    {
        uint32_t psn;       //!< next response PSN
        uint32_t left;      //!< responses left
        uint64_t bytesLeft; //!< payload left
        bool first;         //!< the next response is the first of this job
    };

    /// IRN's loss-recovery state, made at the first loss (a go-back-N queue pair has none: an
    /// all-to-all has 10^4 to 10^5 queue pairs).
    struct Recovery
    {
        static constexpr uint8_t SACKED = 1; //!< a sacked entry: selectively acknowledged
        static constexpr uint8_t RESENT = 2; //!< UET: resent after a trim (not by threshold)
        RingQueue<uint8_t> sacked;           //!< PSNs from sndUna on: 0, SACKED or RESENT
        uint32_t sackHigh{0};       //!< UET: one past the highest PSN selectively acknowledged
        bool active{false};         //!< in loss recovery
        bool timedOut{false};       //!< since a timeout: resend even what was RESENT
        uint32_t until{0};          //!< recovery ends when sndUna reaches it
        uint32_t next{0};           //!< where the search for lost PSNs resumes
        RingQueue<uint32_t> resend; //!< PSNs reported trimmed, to resend first
        uint32_t pick{0};           //!< the PSN NextLost found
        bool picked{false};         //!< it came from resend
    };

    /// A selective acknowledgement's sample for the congestion control (UET).
    struct SackSample
    {
        uint32_t bytes; //!< the payload it newly acknowledged
        Time rtt;       //!< its packet's round trip (0: none)
    };

    /// @return payload bytes of packet k of a message
    uint32_t PayloadOf(const Message& m, uint32_t k) const;
    /// @return data bytes before PSN psn in this queue pair's stream
    uint64_t StreamPosition(uint32_t psn) const;
    /// @return the message holding psn, or nullptr
    Message* FindMessage(uint32_t psn);
    /// @return the message holding psn, or nullptr @param psn the PSN
    const Message* FindMessage(uint32_t psn) const;
    /**
     * Advance sndUna to newUna (clamped at incomplete READs), complete messages and tell the
     * congestion control.
     * @param newUna the new oldest unacknowledged PSN
     * @param ecnEcho the acknowledgement reports CE
     * @param intStack its path telemetry, or nullptr
     */
    void Acknowledge(uint32_t newUna,
                     bool ecnEcho = false,
                     const RdmaIntTag* intStack = nullptr,
                     const SackSample* sample = nullptr);
    /// @return the payload bytes of the WRITE/SEND packet at psn (0: none or a READ's)
    uint32_t PayloadOfPsn(uint32_t psn) const;
    /// @return the entropy of packet k of a UET queue pair @param k the packet's number
    uint16_t SprayEntropy(uint64_t k) const;
    /// Complete finished messages at the head of the queue.
    void CompleteMessages();
    /**
     * Arm, restart or stop the retransmission timer.
     * @param progress true when the oldest unacknowledged PSN moved (restart the timer)
     */
    void UpdateTimer(bool progress);
    /// The retransmission timer's event: a timeout if the deadline has come.
    void TimerExpired();
    /// The retransmission timer expired.
    void Timeout();
    /// Go back to psn and resend from there.
    void GoBackN(uint32_t psn);
    /// @return whether a new PSN may be sent (posted, within the window and the PSN cap)
    bool HasNewPacket() const;
    /**
     * IRN's recovery: find the next lost WRITE/SEND PSN from Recovery::next on (which moves
     * to it, or past every PSN looked at).
     * @return whether there is one
     */
    bool NextLost() const;
    /// Enter IRN's loss recovery (if not in it), from the oldest unacknowledged PSN.
    void EnterRecovery();
    /// @return IRN's recovery state, made if need be
    Recovery& GetRecovery();
    /// @return the retransmission timeout for what is in flight now
    Time CurrentRto() const;
    /**
     * Fill the descriptor of the WRITE/SEND/READ request packet at psn.
     * @param m its message
     * @param psn the PSN
     * @param d the descriptor
     * @return the PSN after the packet (a READ request consumes its responses' PSNs)
     */
    uint32_t FillRequest(Message& m, uint32_t psn, RdmaTxDescriptor& d) const;

    // What a send, an acknowledgement and a request's arrival read, first and together (at k=16
    // each of them finds the queue pair out of the cache): the send and acknowledgement fields
    // on its first SEND_LINES lines, the responder's after them; what is read only at setup, a
    // post, a loss or for statistics follows.
    uint32_t m_qpn;            //!< local QPN
    uint32_t m_peerQpn;        //!< peer QPN
    uint32_t m_peerIpv4{0};    //!< m_peer's value if an IPv4 address, else 0
    uint16_t m_entropy;        //!< path entropy (UET: of the packet last sent)
    uint8_t m_priority;        //!< data priority
    Transport m_transport;     //!< go-back-N or IRN
    uint32_t m_mtu;            //!< payload per packet
    uint32_t m_maxOutstanding; //!< PSNs in flight at most (0: no cap)

    // requester
    uint32_t m_sndNxt;                    //!< next PSN to send
    uint32_t m_sndUna;                    //!< oldest unacknowledged PSN
    uint32_t m_nextPostPsn;               //!< first PSN of the next posted message
    uint32_t m_highestSent;               //!< one past the highest PSN ever sent
    uint32_t m_ackHigh;                   //!< highest cumulative acknowledgement seen (one past)
    uint64_t m_window;                    //!< window, bytes (0 = none)
    uint64_t m_sackedBytes{0};            //!< UET: payload selectively acknowledged above sndUna
    Time m_nextSend;                      //!< earliest next transmission
    Time m_interPacketDelay;              //!< gap after each packet (IB congestion control)
    Ptr<RdmaCongestionControl> m_cc;      //!< congestion control
    std::unique_ptr<Recovery> m_recovery; //!< IRN: made at the first loss
    RdmaQueuePairOwner* m_owner{nullptr}; //!< the adapter (SetOwner)
    uint32_t m_ownerIndex{0};             //!< this queue pair's index there
    bool m_reportState{false};            //!< tell the owner of state changes
    bool m_outOfOrder;                    //!< responder places packets that arrive out of order
    RingQueue<Message> m_messages;        //!< posted, not completed, in PSN order
    /// READ responses to send (the responder's: here, as every send asks whether there is one,
    /// HasPacketToSend, on a line the send reads anyway)
    RingQueue<ReadJob> m_readJobs;
    RingQueue<int64_t> m_sendTimes;  //!< last send time (time steps) of PSNs from sndUna on
    WireClock m_pacer;               //!< frame ends at m_rate, rounded down
    PendingEvent m_timer;            //!< retransmission timer's event (at or before the deadline)
    Time m_rtoDeadline{Time::Max()}; //!< when the retransmission timer expires (Max: disarmed)
    Time m_rto;                      //!< retransmission timeout
    Time m_rtoLow;                   //!< IRN's timeout with few packets in flight
    uint32_t m_rtoLowPackets;        //!< at most this many in flight: m_rtoLow

    /// Tell the owner there is something new to send.
    void Wake()
    {
        if (m_owner)
        {
            m_owner->QueuePairWake(m_ownerIndex);
        }
    }

    /// Tell the owner the congestion-control state changed, if it asked.
    void StateChanged()
    {
        if (m_reportState)
        {
            m_owner->QueuePairStateChanged(m_ownerIndex);
        }
    }

    // responder: what a request packet's arrival reads, together (ReceiveRequest)
    uint32_t m_ePsn;                //!< expected PSN
    uint32_t m_msn;                 //!< message sequence number
    uint32_t m_unacked;             //!< packets received since the last ACK
    uint32_t m_ackInterval;         //!< ACK coalescing (attribute)
    uint64_t m_delivered;           //!< bytes delivered in order
    bool m_nakSent;                 //!< NAK sent for the current gap
    bool m_ceSinceAck;              //!< CE-marked data received since the last ACK
    RingQueue<uint8_t> m_oooWindow; //!< PSNs from ePSN on: 0 missing, 1 held, 2 held and last

    // read at setup, a post, a loss or for statistics
    Address m_local;           //!< local address
    Address m_peer;            //!< peer address
    uint16_t m_baseEntropy{0}; //!< the entropy Setup gave
    uint64_t m_sprayed{0};     //!< UET: packets given an entropy
    DataRate m_lineRate;       //!< NIC line rate
    uint32_t m_initialPsn;     //!< first PSN
    uint32_t m_sprayEntropies; //!< UET: entropy values cycled, one per packet
    uint32_t m_lossThreshold;  //!< UET: SACKed this far above, a PSN is lost
    uint64_t m_nextMessageId;  //!< id of the next message
    uint64_t m_streamBytes;    //!< data bytes posted so far
    DataRate m_rate;           //!< current rate

    uint64_t m_retransmitted;         //!< packets resent
    uint64_t m_retransmittedBytes{0}; //!< their payload bytes
    uint64_t m_duplicates{0};         //!< request packets received again (responder)
    uint64_t m_timeouts;              //!< timeouts
    uint64_t m_naks;                  //!< NAKs received
    uint64_t m_trimNaks{0};           //!< NAKs for trimmed packets received
    uint64_t m_cnps;                  //!< CNPs received

    TracedCallback<const RdmaCompletion&> m_completionTrace; //!< message completions
    TracedCallback<DataRate, DataRate> m_rateTrace;          //!< rate changes (old, new)
    TracedCallback<uint64_t, uint64_t> m_windowTrace;        //!< window changes (old, new)
    TracedCallback<Time, Time> m_interPacketDelayTrace;      //!< gap changes (old, new)
};

} // namespace ns3

#endif // RDMA_QUEUE_PAIR_H
