/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFC_NET_DEVICE_H
#define PFC_NET_DEVICE_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/flagged-traced-callback.h"
#include "ns3/interconnect-events.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/packet-byte-address.h"
#include "ns3/packet-ref.h"
#include "ns3/packet.h"
#include "ns3/slot-pool.h"
#include "ns3/traced-callback.h"
#include "ns3/wire-clock.h"

#include <array>
#include <memory>
#include <vector>

namespace ns3
{

class PfcChannel;
class ErrorModel;

/**
 * @ingroup interconnect
 * @brief What a switch reads of a frame's IPv4 header and transport ports, carried with the
 * frame from one switch's egress queue to the next switch's ingress, so that the next switch
 * need not read the packet's bytes again.
 *
 * The bytes stay the truth: a switch that rewrites a header (a CE mark) updates the fields
 * with it, and a frame whose header may change after it is queued (a mark at dequeue, a
 * trimmed or remapped frame) travels without fields, so that its next hop reads the bytes.
 * The frames the Internet stack sends travel without fields too; a RoCE NIC passes on the
 * fields of the headers it wrote (RdmaNic::Transmit). At a k=16
 * fat-tree's scale the packet's buffer is out of cache when the frame reaches a switch, and
 * reading its header was among the largest costs of a hop (doc/performance-log.rst).
 */
struct PfcFrameInfo
{
    uint32_t src{0};      //!< IPv4 source address
    uint32_t dst{0};      //!< IPv4 destination address
    uint16_t srcPort{0};  //!< TCP or UDP source port (0: another protocol)
    uint16_t dstPort{0};  //!< TCP or UDP destination port (0: another protocol)
    uint8_t tos{0};       //!< the IPv4 header's second byte: DSCP and ECN
    uint8_t protocol{0};  //!< IPv4 protocol number
    uint8_t headerLen{0}; //!< IPv4 header length in bytes; 0: the fields are not known

    /// @return whether the fields were read (or written) for this frame
    bool IsKnown() const
    {
        return headerLen != 0;
    }

    /**
     * Read the fields from a packet's IPv4 header (RFC 791) and, for TCP and UDP, the ports
     * that follow it.
     * @param packet an IPv4 packet
     * @return the fields; unknown (IsKnown false) if the packet is not IPv4 or too short
     */
    static PfcFrameInfo Read(const Packet& packet);

    /// @param other fields @return whether every field is equal
    bool operator==(const PfcFrameInfo& other) const;
};

/**
 * @ingroup interconnect
 * @brief What owns PfcNetDevice ports on a node (a switch, a NIC): the fast path for the data
 * frames a port receives and the frames it dequeues, one virtual call per frame instead of a
 * chain of Callback objects. PfcNetDevice::SetReceiveHook and SetDequeueCallback remain for
 * everything else.
 */
class PfcPortOwner
{
  public:
    virtual ~PfcPortOwner() = default;

    /**
     * A data frame arrived on a port.
     * @param port the port's index, as given to PfcNetDevice::SetOwner
     * @param packet the frame's IPv4 packet
     * @param etherType its EtherType
     * @param info its header fields as the previous switch passed them (or unknown)
     * @return true if consumed (else the device's other receive paths see it)
     */
    virtual bool PortReceive(uint32_t port,
                             const Ptr<Packet>& packet,
                             uint16_t etherType,
                             const PfcFrameInfo& info) = 0;

    /**
     * A data frame arrived on a port from a cable within the process, with its size, and its
     * reference for the owner to take (moved on to an egress queue: PfcNetDevice::Enqueue with
     * a PacketRef), so that a frame passes through a switch without its packet being read. By
     * default, PortReceive.
     * @param port the port's index, as given to PfcNetDevice::SetOwner
     * @param packet the frame's IPv4 packet, its reference the owner's to move from or not
     * @param bytes its packet's size and the Ethernet header's
     * @param etherType its EtherType
     * @param info its header fields as the previous switch passed them (or unknown)
     * @return true if consumed (else the device's other receive paths see it)
     */
    virtual bool PortReceiveFrame(uint32_t port,
                                  PacketRef& packet,
                                  uint32_t bytes,
                                  uint16_t etherType,
                                  const PfcFrameInfo& info)
    {
        (void)bytes;
        return PortReceive(port, packet.Lend(), etherType, info);
    }

    /**
     * Whether frames arriving on a port have their packet read, as a rule (PortReceiveFrame):
     * if not, their arrival does not have it fetched ahead. Only a hint. By default, yes.
     * @param port the port's index
     * @return whether an arrival reads the packet
     */
    virtual bool PortReadsPackets(uint32_t port) const
    {
        (void)port;
        return true;
    }

    /**
     * A frame left a port's egress queue and goes on the wire now.
     * @param port the port's index
     * @param frame the frame (it may still be modified)
     * @param priority its priority
     * @param tag the tag given to PfcNetDevice::Enqueue
     */
    virtual void PortDequeue(uint32_t port,
                             const Ptr<Packet>& frame,
                             uint8_t priority,
                             uint32_t tag) = 0;

    /**
     * PortDequeue with the frame's size as its queue counted it, so that the owner need not
     * read the packet, which has left the cache while it waited at fabric scale (what the port
     * calls). By default, PortDequeue.
     * @param port the port's index
     * @param frame the frame (it may still be modified, not in size)
     * @param priority its priority
     * @param tag the tag given to PfcNetDevice::Enqueue
     * @param bytes its packet's size and the Ethernet header's (PfcNetDevice::ETHERNET_HEADER)
     */
    virtual void PortDequeueFrame(uint32_t port,
                                  const Ptr<Packet>& frame,
                                  uint8_t priority,
                                  uint32_t tag,
                                  uint32_t bytes)
    {
        (void)bytes;
        PortDequeue(port, frame, priority, tag);
    }

    /**
     * A frame given to Enqueue will not be sent: refused (QueueLimit) or discarded from its
     * queue (the PFC watchdog). The owner releases what it held for it.
     * @param port the port's index
     * @param frame the frame
     * @param priority its priority
     * @param tag the tag given to PfcNetDevice::Enqueue
     */
    virtual void PortDrop(uint32_t port,
                          const Ptr<Packet>& frame,
                          uint8_t priority,
                          uint32_t tag) = 0;

    /**
     * What the owner will read when a frame arrives on a port, beyond the port itself, to be
     * fetched while the events before it run (CanonicalScheduler::HintNextEvent): a switch
     * names the send lines of the egress port the frame's route leads to. Only a hint: it
     * changes nothing, and the owner may decide otherwise when the frame comes (a spray's turn
     * taken by another frame, a route changed).
     * @param port the port's index at the owner
     * @param info the frame's header fields (known)
     * @return a CanonicalScheduler::SpanHint, or null (the default)
     */
    virtual const void* PortArrivalHint(uint32_t /* port */, const PfcFrameInfo& /* info */) const
    {
        return nullptr;
    }

    /**
     * A line the owner reads for every frame that arrives on a port, the same for each of
     * them, to be fetched with the port's own (CanonicalScheduler::HintNextEvent): a switch
     * names its buffer's accounting of the port as ingress, a NIC its hot pair of lines
     * (RdmaChannelAdapter::SendLine). Asked once, when the port's first frame is sent to it.
     * Only a hint.
     * @param port the port's index at the owner
     * @return the line's address, or null (the default)
     */
    virtual const void* PortReceiveLine(uint32_t /* port */) const
    {
        return nullptr;
    }

    /**
     * The lines the owner reads first for a frame that arrives on a port whose frames it does
     * not read (PortReadsPackets false), named for a frame whose egress the port has not named
     * (PortArrivalHint; a frame alone in flight, a third of a k=16 fat-tree's arrivals at a
     * switch): a switch names its forwarding fields. Asked once, with PortReceiveLine. Only a
     * hint.
     * @param port the port's index at the owner
     * @return a CanonicalScheduler::SpanHint, or null (the default)
     */
    virtual const void* PortReceiveSpan(uint32_t /* port */) const
    {
        return nullptr;
    }

    /**
     * @param port the port's index at the owner
     * @return whether the owner names what it reads as the port sends a frame (PortSendLines);
     *         asked once, by PfcNetDevice::SetOwner (no: the default, and a switch's, which the
     *         port's own hints cover)
     */
    virtual bool PortNamesSendLines(uint32_t /* port */) const
    {
        return false;
    }

    /**
     * What the owner will read when the port next takes a frame from its queues (PortDequeue),
     * to be fetched with the port's own lines while the events before the transmit completion
     * run (CanonicalScheduler::HintNextEvent): a NIC names its hot fields and the queue pair
     * it serves next, which refill the port. Asked as the port arms the completion, while the
     * owner's state is still in the cache. Only a hint.
     * @param port the port's index at the owner
     * @param line set to a line's address, or null
     * @param span set to a CanonicalScheduler::SpanHint, or null
     */
    virtual void PortSendLines(uint32_t /* port */, const void*& line, const void*& span) const
    {
        line = nullptr;
        span = nullptr;
    }
};

/**
 * @ingroup interconnect
 * @brief A full-duplex Ethernet port with eight priority queues and IEEE 802.1Qbb PFC.
 *
 * Egress: frames wait in one FIFO per priority (0..7); a scheduler picks the next priority among
 * the non-empty queues that the peer has not paused: strict priority (7 first) or deficit
 * weighted round robin. PFC frames bypass the queues and go out next, whatever is paused. A
 * frame occupies the wire for its bytes plus preamble/SFD (8), FCS (4) and inter-frame gap (12),
 * padded to the 64-byte minimum frame; the packet itself carries the Ethernet header but no FCS.
 * Frames sent back to back end at their exact cumulative wire time (bits / rate) rounded to the
 * nearest time step, so a long burst takes exactly its wire time; after an idle wire the next
 * frame starts afresh (WireClock).
 *
 * PFC, receiving: a PFC frame with non-zero quanta for priority p stops the scheduler from
 * starting frames of p for quanta x 512 bit times (at this port's rate) from its arrival; a
 * frame being transmitted completes. Zero quanta resume p at once; a new frame replaces the
 * previous pause time.
 *
 * PFC, sending: SetIngressPause(p, true) sends a pause with PauseQuanta and refreshes it every
 * PauseRefresh fraction of that time while the pause holds; SetIngressPause(p, false) sends a
 * zero-quanta frame. The owner of the port (a switch's buffer manager) decides when.
 * SetPauseStorm(p, true) makes the port pause its peer on p whatever the owner wants, until
 * SetPauseStorm(p, false): a NIC or switch stuck sending pauses (Guo et al., "RDMA over
 * Commodity Ethernet at Scale", SIGCOMM 2016, section 4.3).
 *
 * PFC watchdog (PfcWatchdogTime above 0), as switch vendors ship it: a priority that the peer
 * has kept paused for PfcWatchdogTime without a break while its queue holds frames is declared
 * stormed; its queued frames are dropped, and so is every frame enqueued to it, until the peer
 * has not paused it for PfcWatchdogRestoreTime. The owner hears of every dropped frame
 * (PortDrop); the Watchdog trace tells of each trip and restoration.
 *
 * Upper layers: a switch or an RDMA NIC installs a receive hook that sees every data frame first
 * (after the Ethernet header is removed) and may consume it; frames it leaves go to the node's
 * protocol handlers as from any NetDevice, so an ns-3 Internet stack on the same device works.
 * Enqueue() takes an IPv4 packet, a priority and an opaque tag that the dequeue callback hands
 * back when the frame leaves its queue (a switch uses it to release buffer accounting, a NIC to
 * refill).
 *
 * Ports are made side by side (SlotPooled): a packet-hop reads two or three of them, and a
 * fabric's thousands, made among their nodes' other objects, each took pages of their own. A
 * port starts on 128 bytes, the pair of lines that a core's adjacent-line prefetcher fetches
 * together, so that where its fields fall in those pairs is the same for every port. The frames
 * in flight that it keeps follow their queue's fields and counts, which share the second pair
 * (m_departures); on ns-3.37 the four frames (48 bytes each) start 88 bytes into it, and the first
 * and the last straddle two pairs, so that the line an arrival names for them is not all of them
 * (at perm1024 the fields' pair gained more than the frames' ends cost: doc/performance-log.rst,
 * the round of 2026-12-06, 10:13 UTC).
 */
class alignas(128) PfcNetDevice : public NetDevice, public SlotPooled<PfcNetDevice, 32>
{
  public:
    /// Number of priorities (IEEE 802.1Q traffic classes).
    static constexpr uint8_t N_PRIORITIES = 8;
    /// Bytes on the wire besides the frame: preamble and SFD (8), FCS (4), inter-frame gap (12).
    static constexpr uint32_t WIRE_OVERHEAD = 24;
    /// Minimum Ethernet frame without FCS (64 bytes with it).
    static constexpr uint32_t MIN_FRAME = 60;
    /// Ethernet header size (destination, source, EtherType).
    static constexpr uint32_t ETHERNET_HEADER = 14;
    /// The bytes of a frame's headers a NIC reads as it arrives (RdmaNic::PortReceive): IPv4
    /// 20, UDP 8, BTH 12 and a RETH's 16; fetched ahead for the next frame in flight as one
    /// arrives (ArrivalQueue::FirstArrives).
    static constexpr uint32_t ARRIVAL_READ_BYTES = 56;
    /**
     * The lines from a frame's packet on that its arrival event names, to be fetched ahead
     * (ArrivalQueue): the packet, and after it the first ARRIVAL_READ_BYTES of its buffer,
     * which a NIC reads. A packet made whole (Create<Packet>, as RdmaNic and its packet pool
     * make them) has its buffer in the heap block that malloc gives next: after the packet's
     * block (its size and malloc's 8-byte header, rounded up to 16) and the buffer's own fields
     * (16 bytes), the stored bytes at most a line in (its headroom), the packet at most 48
     * bytes into its first line. On perm1024 95% of the frames a NIC took had their first bytes in
     * these five lines (ns-3.37, glibc), the rest elsewhere in the heap; before, the event named
     * the packet's two lines, and a frame alone in flight (no FetchBytes for it) had its bytes read
     * cold.
     */
    static constexpr uint32_t ARRIVAL_SPAN_LINES =
        (48 + (sizeof(Packet) + 8 + 15) / 16 * 16 + 16 + 64 + ARRIVAL_READ_BYTES + 63) / 64;
    static_assert(ARRIVAL_SPAN_LINES <= CanonicalScheduler::SPAN_MASK + 1, "a span hint's lines");
    /// The lines of a port that a frame sent straight to the wire reads (PrefetchSend): the
    /// send fields and the frames in flight on the cable, then the receive fields, on the last
    /// of them (the members' order, below). Eight where ns-3's base classes take 32 bytes
    /// (ns-3.37 to 3.41), nine where they take more (from ns-3.42 Object has 24 bytes more);
    /// the constructor asserts the count at compile time.
    static constexpr uint32_t SEND_LINES = sizeof(NetDevice) <= 32 ? 8 : 9;

    /// How the egress picks the next priority.
    enum Scheduler
    {
        STRICT_PRIORITY, //!< highest non-empty, non-paused priority first
        DWRR             //!< deficit weighted round robin over the non-paused priorities
    };

    /**
     * Sees a data frame before the node's protocol handlers.
     * Arguments: the device, the packet (Ethernet header removed), the EtherType.
     * Returns true when it consumed the frame.
     */
    typedef Callback<bool, Ptr<PfcNetDevice>, Ptr<Packet>, uint16_t> ReceiveHook;

    /**
     * Told when a frame leaves its egress queue, just before it goes on the wire (it may still
     * be modified, e.g. ECN-marked at dequeue).
     * Arguments: the device, the frame (its IPv4 packet; no Ethernet header object), the priority,
     * the tag given to Enqueue().
     */
    typedef Callback<void, Ptr<PfcNetDevice>, Ptr<Packet>, uint8_t, uint32_t> DequeueCallback;

    /**
     * TracedCallback signature for PFC frames sent or received.
     * @param [in] priority the priority
     * @param [in] quanta the pause time in quanta (0 = resume)
     */
    typedef void (*PfcTracedCallback)(uint8_t priority, uint16_t quanta);

    /**
     * TracedCallback signature for an egress queue's length.
     * @param priority the priority (0..7)
     * @param bytes the bytes queued at that priority now (frames with their Ethernet header)
     */
    typedef void (*QueueBytesTracedCallback)(uint8_t priority, uint32_t bytes);

    /**
     * TracedCallback signature for the pause state of an egress priority.
     * @param priority the priority (0..7)
     * @param paused true when the peer's PFC frame pauses it, false when it resumes
     */
    typedef void (*PausedTracedCallback)(uint8_t priority, bool paused);

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    PfcNetDevice();
    ~PfcNetDevice() override;

    /**
     * Attach to a cable.
     * @param channel the cable
     * @return true
     */
    bool Attach(Ptr<PfcChannel> channel);

    /**
     * Start fetching the lines a frame's Enqueue reads when it goes straight to the wire: the
     * send fields, the frames in flight and the receive fields (the owner). A switch calls it
     * as soon as it knows the egress port, so that the port's lines come in while the buffer
     * admits the frame: at fabric scale they have left the cache since the port's last frame.
     */
    void PrefetchSend() const
    {
        const char* port = reinterpret_cast<const char*>(this);
        for (uint32_t line = 0; line < SEND_LINES; ++line)
        {
            __builtin_prefetch(port + 64 * line);
        }
    }

    /**
     * Start fetching the egress queue of a priority (its ring's own fields, not its frames)
     * if a frame would wait there, the wire being busy or frames queued: a switch calls it
     * with PrefetchSend (and reads the port's first line, which that fetches, to decide).
     * perm1024: the queue's fields were a miss at 0.76 M of its 5.9 M packet-hops. Always
     * inlined: GCC deletes a call whose only effect is __builtin_prefetch.
     * @param priority the frame's priority, 0..7
     */
    __attribute__((always_inline)) void PrefetchQueue(uint8_t priority) const
    {
        if (m_queuedMask == 0 && InterconnectSimulatorImpl::NowStep() >= m_busyUntil)
        {
            return; // (it goes straight to the wire, unless paused)
        }
        const auto* queue = reinterpret_cast<const char*>(&m_queue[priority]);
        __builtin_prefetch(queue);
        __builtin_prefetch(queue + sizeof(m_queue[priority]) - 1); // (it may straddle two lines)
    }

    /**
     * What the transmit completion was last armed saying its dequeue reads first, for
     * CanonicalScheduler::HintNextEvent: the port, the queue it serves next and that queue's
     * head, then what the owner names (PfcPortOwner::PortSendLines) or, for an owner that
     * names nothing (a switch), the frames in flight and the wire's clock. Only hints; exposed
     * for tests and tools.
     * @return the addresses as last set (null before a completion is first armed with a frame
     *         waiting, and never set under DWRR; they stay after the completion has run)
     */
    const std::array<const void*, CanonicalScheduler::HINTS>& GetCompletionHints() const
    {
        return m_completionEvent.Hints();
    }

    /**
     * What the event that delivers the first of the frames this port has in flight on its
     * cable names: the frame's slot, the peer port's receive line, the frames in flight, the
     * line the peer's owner names (PfcPortOwner::PortReceiveLine), then the frame's packet and
     * its first bytes (ARRIVAL_SPAN_LINES) where the owner reads its frames, else the egress
     * port (PfcPortOwner::PortArrivalHint) or what the owner names (PortReceiveSpan). Only
     * hints; exposed for tests and tools.
     * @return the addresses as last set (null before the first frame is sent)
     */
    const std::array<const void*, CanonicalScheduler::HINTS>& GetDepartureHints() const
    {
        static const std::array<const void*, CanonicalScheduler::HINTS> none{};
        return m_departures.IsBound() ? m_departures.Hints() : none;
    }

    /// @return the lines PrefetchSend fetches, as a CanonicalScheduler::SpanHint
    const void* SendSpan() const
    {
        return CanonicalScheduler::SpanHint(this, SEND_LINES);
    }

    /**
     * Queue an IPv4 packet for transmission on a priority.
     * @param packet the IPv4 packet (IPv4 header first)
     * @param priority the egress queue, 0..7
     * @param tag handed back to the dequeue callback
     * @param info the packet's header fields, for the next switch (PfcFrameInfo); unknown by
     *        default, and then the receiver reads the packet's bytes
     * @return false if the packet was dropped (QueueLimit reached)
     */
    bool Enqueue(const Ptr<Packet>& packet,
                 uint8_t priority,
                 uint32_t tag,
                 const PfcFrameInfo& info = PfcFrameInfo());

    /**
     * Enqueue with a reference of the packet's that moves into the queue and its size, so that
     * the packet is not read (PfcPortOwner::PortReceiveFrame).
     * @param packet the IPv4 packet (IPv4 header first)
     * @param bytes its size and the Ethernet header's (ETHERNET_HEADER)
     * @param priority the egress queue, 0..7
     * @param tag handed back to the dequeue callback
     * @param info the packet's header fields, for the next switch (PfcFrameInfo)
     * @return false if the packet was dropped (QueueLimit reached)
     */
    bool Enqueue(PacketRef packet,
                 uint32_t bytes,
                 uint8_t priority,
                 uint32_t tag,
                 const PfcFrameInfo& info);

    /**
     * Start or stop pausing the peer on a priority (see the class description).
     * @param priority the priority
     * @param pause true to pause (XOFF), false to resume (XON)
     */
    void SetIngressPause(uint8_t priority, bool pause);

    /// @return true if this port currently pauses the peer on the priority
    bool IsIngressPaused(uint8_t priority) const;

    /**
     * Start or end a pause storm: the port pauses its peer on the priority without a break,
     * whatever SetIngressPause asks (see the class description).
     * @param priority the priority
     * @param on true to start
     */
    void SetPauseStorm(uint8_t priority, bool on);

    /// @return when the peer's current pause of the priority began (while IsEgressPaused)
    Time GetEgressPauseStart(uint8_t priority) const;
    /**
     * @param priority an egress queue
     * @return the owner's tags of the frames it holds, first to leave first
     */
    std::vector<uint32_t> GetQueuedTags(uint8_t priority) const;

    /// @return true if the PFC watchdog has declared the priority stormed (frames to it drop)
    bool IsWatchdogTripped(uint8_t priority) const;
    /// @return times the PFC watchdog declared a priority of this port stormed
    uint64_t GetWatchdogTrips() const;
    /// @return frames the PFC watchdog dropped (queued, and enqueued while tripped)
    uint64_t GetWatchdogDrops() const;

    /// @return true if the peer currently pauses this port's egress on the priority
    bool IsEgressPaused(uint8_t priority) const;

    /**
     * Called by the channel when a frame has arrived whole. Frames travel without an Ethernet
     * header object: the header's 14 bytes are counted on the wire, its EtherType travels with
     * the frame, and a real header is added only to the copies that traces (pcap) see.
     * @param packet the frame's payload (IPv4 packet or MAC control frame)
     * @param etherType its EtherType
     * @param info its header fields, if the sending switch passed them (PfcFrameInfo)
     */
    void Receive(Ptr<Packet> packet, uint16_t etherType, const PfcFrameInfo& info = PfcFrameInfo());

    /**
     * A frame will arrive (Receive) after a delay: what the cable calls. The frames a cable
     * brings arrive in the order it sent them, so they wait in one queue with one pending
     * event for the first (htsim's pipes do the same), instead of an event each; a frame due
     * before the last one queued (not one cable's) gets an event of its own.
     * @param now the current time step
     * @param delay when it arrives, from now
     * @param sequence its number on the cable's direction (CanonicalScheduler's key)
     * @param packet the frame
     * @param etherType its EtherType
     * @param info its header fields, or unknown (PfcFrameInfo)
     */
    void ScheduleReceive(int64_t now,
                         Time delay,
                         uint64_t sequence,
                         const Ptr<Packet>& packet,
                         uint16_t etherType,
                         const PfcFrameInfo& info = PfcFrameInfo());

    /**
     * A frame this port sends will arrive at the peer after a delay: what a cable within the
     * process calls. The frames in flight on this port's direction of the cable wait in a
     * queue of this port's (htsim's pipe), which the sender writes while its own state is in
     * the cache; the peer's state is touched only when the first of them arrives (the event
     * names it for the scheduler's prefetch). The order, keys and events are those of
     * ScheduleReceive on the peer.
     * @param peer the device at the other end (the same every call)
     * @param now the current time step
     * @param delay when the frame arrives, from now, in time steps
     * @param sequence its number on the cable's direction (CanonicalScheduler's key)
     * @param packet the frame
     * @param etherType its EtherType
     * @param info its header fields, or unknown (PfcFrameInfo)
     */
    void ScheduleDeparture(PfcNetDevice* peer,
                           int64_t now,
                           int64_t delay,
                           uint64_t sequence,
                           const Ptr<Packet>& packet,
                           uint16_t etherType,
                           const PfcFrameInfo& info);
    /**
     * ScheduleDeparture with a reference of the frame's that moves on, so that the packet is
     * not read.
     * @param peer the device at the other end (the same every call)
     * @param now the current time step
     * @param delay when the frame arrives, from now, in time steps
     * @param sequence its number on the cable's direction (CanonicalScheduler's key)
     * @param packet the frame
     * @param bytes its packet's size and the Ethernet header's
     * @param etherType its EtherType
     * @param info its header fields, or unknown (PfcFrameInfo)
     */
    void ScheduleDeparture(PfcNetDevice* peer,
                           int64_t now,
                           int64_t delay,
                           uint64_t sequence,
                           PacketRef packet,
                           uint32_t bytes,
                           uint16_t etherType,
                           const PfcFrameInfo& info);

    /**
     * What a send on the cable reads of it, told by a plain PfcChannel when both its ends are
     * attached and whenever its delay changes: this port then sends without touching the
     * cable's object (ScheduleDeparture with its own frame numbers), as PfcChannel's
     * TransmitStart would.
     * @param peer the device at the other end, or nullptr: call the cable's TransmitStart
     *        (a class derived from PfcChannel)
     * @param delay the cable's propagation delay
     */
    void UseCable(PfcNetDevice* peer, Time delay);

    /// @param hook sees every data frame first (see ReceiveHook)
    void SetReceiveHook(ReceiveHook hook);

    /**
     * Hand received data frames and dequeues to an owner first (see PfcPortOwner).
     * @param owner the owner (nullptr: none); it must outlive its ports or reset this
     * @param port the index the owner knows this port by
     */
    void SetOwner(PfcPortOwner* owner, uint32_t port);
    /// @param callback told of every dequeue (see DequeueCallback)
    void SetDequeueCallback(DequeueCallback callback);

    /// @return the port's rate
    DataRate GetDataRate() const;
    /**
     * @param rate the port's rate (above 0)
     */
    void SetDataRate(DataRate rate);

    /**
     * The time a frame sent alone occupies the wire, rounded to the nearest time step. Frames
     * sent back to back take exactly their bits / rate together (see WireClock): each may take
     * a step more or less than this.
     * @param bytes frame size without FCS
     * @return the time the frame occupies the wire, all per-frame overheads included
     */
    Time GetWireTime(uint32_t bytes) const;

    /**
     * @param frameBytes frame size without FCS
     * @return bytes the frame occupies on the wire (padding, FCS, preamble, gap included)
     */
    static uint32_t WireBytes(uint32_t frameBytes);

    /// @return bytes waiting in the priority's queue (frames without FCS)
    uint32_t GetQueueBytes(uint8_t priority) const;
    /// @return frames waiting in the priority's queue
    uint32_t GetQueueFrames(uint8_t priority) const;
    /// @return the cable's propagation delay (zero when not attached)
    Time GetChannelDelay() const;
    /// @return the device at the other end of the cable, or nullptr
    Ptr<PfcNetDevice> GetPeer() const;

    /// @return PFC frames sent that paused (non-zero quanta) or resumed the priority
    uint64_t GetPfcFramesSent(uint8_t priority) const;
    /// @return PFC frames received for the priority
    uint64_t GetPfcFramesReceived(uint8_t priority) const;
    /// @return total time the peer kept this port's egress paused on the priority so far
    Time GetEgressPausedTime(uint8_t priority) const;
    /// @return frames dropped at enqueue because the queue was at QueueLimit
    uint64_t GetQueueLimitDrops() const;
    /// @return frames this port put on the wire (data and PFC): its packet-hops
    uint64_t GetFramesSent() const;
    /// @return bytes this port put on the wire so far, per-frame overheads included
    uint64_t GetTxBytes() const;
    /// @return frames lost on reception by the ReceiveErrorModel
    uint64_t GetErrorModelDrops() const;

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
    void DoDispose() override;

  private:
    /// A frame waiting in an egress queue.
    struct Item
    {
        PacketRef packet;  //!< the frame's IPv4 packet (no Ethernet header object)
        uint32_t tag;      //!< the owner's tag
        PfcFrameInfo info; //!< its header fields, for the next switch
        uint32_t bytes;    //!< its packet's size and the Ethernet header's (in what was padding)
    };

    /// Start the next frame if the wire is free and a frame may go.
    void TryTransmit();
    /// The wire is free again and a frame waits.
    void TransmitComplete();
    /**
     * A data frame leaves its queue (or skips it) and goes on the wire now: the owner hears of
     * the dequeue, then the transmission starts. The frame's packet is not read on the way
     * (its size is given, its reference moves on to the cable's frames in flight).
     * @param frame the frame
     * @param bytes its packet's size and the Ethernet header's
     * @param priority its priority
     * @param tag its owner's tag
     * @param info its header fields, or unknown
     * @param now the current time step
     */
    void Transmit(PacketRef frame,
                  uint32_t bytes,
                  uint8_t priority,
                  uint32_t tag,
                  const PfcFrameInfo& info,
                  int64_t now);
    /// Schedule TransmitComplete for the end of the frame on the wire if another frame waits.
    /// @param now the current time step
    void ArmCompletion(int64_t now);
    /// @return the priority to serve next, or N_PRIORITIES if none may send
    uint8_t PickPriority();

    /// @return bit p: priority p holds frames and is not paused
    uint32_t Eligible() const
    {
        return m_queuedMask & ~m_egressPausedMask & 0xFFu;
    }

    /// @return the highest priority of a non-empty mask (strict priority's choice)
    /// @param mask the priorities
    static uint8_t Highest(uint32_t mask)
    {
        return static_cast<uint8_t>(31 - __builtin_clz(mask));
    }

    /**
     * Put a frame on the wire.
     * @param frame the frame
     * @param bytes its packet's size and the Ethernet header's
     * @param etherType its EtherType
     * @param now the current time step (one Simulator::Now per frame sent, not one per call)
     * @param info its header fields, or unknown
     */
    void StartTransmission(PacketRef frame,
                           uint32_t bytes,
                           uint16_t etherType,
                           int64_t now,
                           const PfcFrameInfo& info = PfcFrameInfo());
    /// @return a copy of the frame with its Ethernet header, as traces and pcap see it
    Ptr<Packet> WithEthernetHeader(Ptr<const Packet> frame, uint16_t etherType, bool sent) const;
    /// Queue a PFC frame for the priority.
    void SendPfcFrame(uint8_t priority, uint16_t quanta);
    /// Re-send the pause of a priority that is still XOFF.
    void RefreshPause(uint8_t priority);
    /// Handle a received PFC frame.
    void ReceivePfc(Ptr<Packet> packet);
    /// The peer's pause of a priority ended (time-out or resume frame).
    void EndEgressPause(uint8_t priority);
    /// Send pauses or a resume as the owner and a storm want. @param priority the priority
    void UpdateIngressPause(uint8_t priority);
    /// The watchdog looks at a paused priority. @param priority the priority
    void WatchdogCheck(uint8_t priority);
    /// The watchdog restores a tripped priority if its peer stopped pausing it.
    /// @param priority the priority
    void WatchdogRestore(uint8_t priority);
    /**
     * A frame will not be sent: tell the owner.
     * @param packet the frame
     * @param priority its priority
     * @param tag its owner's tag
     */
    void DropFrame(const Ptr<Packet>& packet, uint8_t priority, uint32_t tag);
    /// Set the DWRR weights from "w0,w1,...,w7".
    void SetDwrrWeights(std::string weights);
    /// @return the DWRR weights as "w0,w1,...,w7"
    std::string GetDwrrWeights() const;

    /// A frame on the cable to this port.
    struct Arriving
    {
        PacketRef packet;   //!< the frame
        PfcFrameInfo info;  //!< its header fields, or unknown
        uint16_t etherType; //!< its EtherType
        uint32_t bytes;     //!< its packet's size and the Ethernet header's (in what was padding)

        /// @return what its arrival reads first of it: the packet (ArrivalQueue's hint)
        const void* Touches() const
        {
            return packet.Peek();
        }

        /// The lines from the packet on that its arrival event names (ArrivalQueue's hint)
        static constexpr uint32_t TOUCHED_LINES = ARRIVAL_SPAN_LINES;

        /// The next frame's headers are fetched as one arrives (ArrivalQueue::FirstArrives)
        static constexpr bool FETCHES_BYTES = true;

        /// Fetch the headers a NIC reads (ARRIVAL_READ_BYTES, which may straddle two lines),
        /// once the packet's line is in (ArrivalQueue::FirstArrives)
        void FetchBytes() const
        {
            FetchFirstBytes<ARRIVAL_READ_BYTES>(packet.Peek());
        }
    };

    /// Tell the QueueBytes trace an egress queue's bytes, if anyone listens (a bit of the
    /// receive line, not the trace's list). @param priority the queue
    void TraceQueueBytes(uint8_t priority)
    {
        if (m_traced & TRACED_QUEUE_BYTES)
        {
            m_queueBytesTrace(priority, m_queueBytes[priority]);
        }
    }

    /// A frame from the cable arrives. @param frame the frame
    void Arrive(Arriving& frame);
    /**
     * A received data frame that the owner did not consume: the receive hook, then the
     * protocol handlers.
     * @param packet the frame's IPv4 packet
     * @param type its EtherType
     */
    void ReceiveUnowned(const Ptr<Packet>& packet, uint16_t type);
    /// @return what the owner will read of the frame's arrival (PfcPortOwner::PortArrivalHint),
    /// or null @param frame a frame on the cable, next to arrive
    const void* ArrivalHint(const Arriving& frame) const;

    /// The bits of m_traced: which per-frame traces have listeners.
    enum Traced : uint8_t
    {
        TRACED_MAC_TX = 1,       //!< m_macTxTrace
        TRACED_QUEUE_BYTES = 2,  //!< m_queueBytesTrace
        TRACED_PHY_TX_BEGIN = 4, //!< m_phyTxBeginTrace
        TRACED_SNIFFER = 8,      //!< m_snifferTrace
        TRACED_MAC_RX = 16,      //!< m_macRxTrace
    };

    // The fields a data frame's pass touches come first and together, in the order the send
    // and the receive path read them, and the object starts on a cache line (alignas on the
    // class): at fabric scale a port's state is out of cache when its next frame comes, and
    // each line it spans is a miss (doc/interconnect.rst, Performance). A frame's pass tests its
    // traces for listeners by their bits in m_traced (FlaggedTracedCallback), not by their lists;
    // with strict priority and an owner (a switch, a NIC), no field the pass reads is among the
    // rest.
    Ptr<PfcChannel> m_channel;    //!< attached cable
    int64_t m_busyUntil;          //!< the wire is busy until then (time step)
    uint32_t m_queueLimit;        //!< frames per priority queue before enqueue drops (0 = none)
    Scheduler m_scheduler;        //!< egress scheduler
    uint8_t m_queuedMask;         //!< bit p: egress queue p holds frames
    uint8_t m_egressPausedMask;   //!< bit p: priority p is paused by the peer
    uint8_t m_watchdogMask;       //!< bit p: p is declared stormed
    bool m_txBusy;                //!< a frame is being started
    bool m_completionPending;     //!< TransmitComplete scheduled
    bool m_controlQueued;         //!< m_controlQueue holds frames (its line is then read)
    bool m_ownerSendLines{false}; //!< the owner names its send lines (PortNamesSendLines)
    uint64_t m_framesSent;        //!< frames put on the wire
    uint64_t m_txBytes;           //!< wire bytes sent, overheads included
    std::array<uint32_t, N_PRIORITIES> m_queueBytes; //!< bytes per egress queue
    uint32_t m_peerNodeId;                           //!< the peer's node (its frames' context)
    uint32_t m_peerIfIndex;                          //!< the peer's interface index
    /// Runs TransmitComplete; its hints name what the dequeue reads first (ArmCompletion).
    ReusableEvent m_completionEvent;
    /// Frames this port sent, in flight to the peer (ScheduleDeparture): the first four in the
    /// port itself (a 1 us cable at 100 Gb/s holds three or four data frames of a 4096-byte MTU;
    /// with more, the oldest four). Its own fields and its frames' counts, which each arrival
    /// reads, lie on one pair of lines (the second, which the arrival's event names: the
    /// constructor asserts it); the send's fields below follow the frames, before the receive
    /// fields, which a send reads too (its owner). perm1024: the overflow's fields were on
    /// the third pair, a miss at an arrival where the frame's slot did not name it (0.36 M of
    /// its 5.9 M packet-hops, callgrind with prefetches as loads).
    ArrivalQueue<PfcNetDevice, Arriving, &PfcNetDevice::Arrive, &PfcNetDevice::ArrivalHint, 4>
        m_departures;
    WireClock m_wireClock;              //!< frame ends at the line rate, exact (and the rate)
    PfcNetDevice* m_cablePeer{nullptr}; //!< the far end of a plain cable (UseCable), or null
    int64_t m_cableDelay{0};            //!< its propagation delay (time steps)
    uint64_t m_cableSent{0};            //!< frames sent on it (their numbers on this direction)
    // The receive fields: every field a data frame's arrival reads, on one cache line, the last
    // of the send lines, which the arrival's event names to the scheduler to be fetched ahead
    // (the frame passed three lines of the port before); 32-byte aligned, so that they never
    // straddle two. The sender's pass reads the owner and the traces' bits too.
    alignas(32) PfcPortOwner* m_owner;   //!< fast path for data frames
    uint32_t m_ownerPort;                //!< this port's index at the owner
    uint32_t m_ifIndex;                  //!< interface index
    Ptr<ErrorModel> m_receiveErrorModel; //!< drops received frames (tests, lossy links)
    uint32_t m_nodeId;                   //!< the owning node's id (context)
    uint8_t m_traced{0};                 //!< a Traced bit per per-frame trace with listeners
    ArrivalQueue<PfcNetDevice, Arriving, &PfcNetDevice::Arrive> m_arrivals; //!< frames coming in
    RingQueue<PacketRef> m_controlQueue;               //!< PFC frames to send next
    std::array<RingQueue<Item>, N_PRIORITIES> m_queue; //!< egress queues

    // The rest: set up once, or on the paths of PFC frames and of the Internet stack, and the
    // per-frame traces' lists (their bits above say whether anyone listens).
    FlaggedTracedCallback<Ptr<const Packet>> m_macTxTrace;      //!< frame queued for transmission
    FlaggedTracedCallback<uint8_t, uint32_t> m_queueBytesTrace; //!< an egress queue's bytes changed
    FlaggedTracedCallback<Ptr<const Packet>> m_phyTxBeginTrace; //!< frame starts on the wire
    FlaggedTracedCallback<Ptr<const Packet>> m_snifferTrace;    //!< every frame sent or received
    FlaggedTracedCallback<Ptr<const Packet>> m_macRxTrace;      //!< data frame received
    Ptr<Node> m_node;                                           //!< owning node
    Mac48Address m_address;                                     //!< this port's MAC address
    uint16_t m_mtu;                                             //!< largest IPv4 packet, bytes
    uint16_t m_pauseQuanta; //!< quanta in the pause frames this port sends
    double m_pauseRefresh;  //!< refresh period as a fraction of the pause time
    std::array<uint32_t, N_PRIORITIES> m_dwrrWeight; //!< DWRR weights
    std::array<int64_t, N_PRIORITIES> m_deficit;     //!< DWRR deficit counters
    uint8_t m_dwrrNext;                              //!< DWRR round-robin position
    uint64_t m_queueLimitDrops;                      //!< enqueue drops
    uint64_t m_errorModelDrops;                      //!< receive error-model losses
    Time m_watchdogTime;                             //!< PFC watchdog detection (0: off)
    Time m_watchdogRestoreTime;                      //!< its restoration time

    /**
     * What PFC keeps per priority: made the first time the port sends or receives a pause
     * (Pfc()). Most ports of a fabric never do, and this was two fifths of a port's size
     * (doc/performance-log.rst).
     */
    struct PfcState
    {
        std::array<Time, N_PRIORITIES> egressPauseStart{};     //!< when that pause began
        std::array<Time, N_PRIORITIES> egressPausedTotal{};    //!< accumulated pause time
        std::array<EventId, N_PRIORITIES> egressResumeEvent;   //!< end of the peer's pause
        std::array<EventId, N_PRIORITIES> ingressRefreshEvent; //!< next pause refresh
        std::array<EventId, N_PRIORITIES> watchdogEvent;       //!< the next check or restore
        std::array<uint64_t, N_PRIORITIES> sent{};             //!< PFC frames sent
        std::array<uint64_t, N_PRIORITIES> received{};         //!< PFC frames received
        uint64_t watchdogTrips{0};                             //!< priorities declared stormed
        uint64_t watchdogDrops{0};                             //!< frames the watchdog dropped
        std::array<bool, N_PRIORITIES> ingressPaused{};        //!< we pause the peer
        std::array<bool, N_PRIORITIES> pauseWanted{};          //!< the owner wants the pause
        uint8_t stormMask{0};                                  //!< bit p: storming on p
    };

    /// @return the port's PFC state, made now if the port had none
    PfcState& Pfc();
    std::unique_ptr<PfcState> m_pfc; //!< its PFC state (nullptr: no pause sent or received)

    ReceiveHook m_receiveHook;                             //!< sees data frames first
    DequeueCallback m_dequeueCallback;                     //!< told of dequeues
    NetDevice::ReceiveCallback m_rxCallback;               //!< node protocol handlers
    NetDevice::PromiscReceiveCallback m_promiscRxCallback; //!< promiscuous handlers

    TracedCallback<Ptr<const Packet>> m_macTxDropTrace; //!< frame dropped at enqueue
    TracedCallback<Ptr<const Packet>> m_phyRxDropTrace; //!< frame lost by the error model
    TracedCallback<uint8_t, uint16_t> m_pfcTxTrace;     //!< PFC frame sent
    TracedCallback<uint8_t, uint16_t> m_pfcRxTrace;     //!< PFC frame received
    TracedCallback<uint8_t, bool> m_egressPausedTrace;  //!< a priority paused or resumed
    TracedCallback<uint8_t, bool> m_watchdogTrace;      //!< the watchdog tripped or restored
};

extern template class SlotPooled<PfcNetDevice, 32>;

} // namespace ns3

#endif // PFC_NET_DEVICE_H
