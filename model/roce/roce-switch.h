/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_SWITCH_H
#define ROCE_SWITCH_H

#include "pfc-net-device.h"
#include "roce-switch-mmu.h"

#include "ns3/ipv4-address.h"
#include "ns3/object.h"
#include "ns3/sharp-aggregation-node.h"
#include "ns3/traced-callback.h"

#include <array>
#include <boost/container/small_vector.hpp>
#include <map>
#include <vector>

namespace ns3
{

class Node;

/**
 * @ingroup interconnect
 * @brief An IPv4-forwarding Ethernet switch for RoCEv2 and TCP traffic, aggregated to a Node.
 *
 * Each frame is parsed once on arrival (IPv4 header and the UDP/TCP ports, read in place): its
 * destination address selects an ECMP group of egress ports, a hash of the 5-tuple with this
 * switch's seed selects the member (so a flow keeps its path), or with EcmpMode=PacketSpray the
 * members take turns per packet. The priority is the DSCP class selector (DSCP / 8), so RoCEv2's
 * usual DSCP 26 travels on priority 3. The frame is then charged to the buffer manager
 * (RoceSwitchMmu), which may pause the ingress upstream (PFC), drop a lossy frame or ask for an
 * ECN mark, and queued on the egress port. Everything that is not IPv4 is dropped and counted.
 */
class alignas(128) RoceSwitch : public Object, public PfcPortOwner
{
  public:
    /// The lines of the switch that every frame's forwarding reads (the members from m_mmu to
    /// m_ports and its first 16 ports, after ns-3's Object and the port owner's table): six
    /// where Object takes 32 bytes (ns-3.37 to 3.41), seven where it takes more (from ns-3.42
    /// it has 24 bytes more).
    static constexpr std::size_t FORWARD_LINES = sizeof(Object) <= 32 ? 6 : 7;

    /// Why a frame was dropped.
    enum DropCause : uint8_t
    {
        DROP_NO_ROUTE = 0,   //!< no route to the destination address
        DROP_BUFFER = 1,     //!< lossy frame, buffer threshold reached
        DROP_NOT_IPV4 = 2,   //!< not an IPv4 frame
        DROP_CAUSE_COUNT = 3 //!< number of causes
    };

    /// How an ECMP group member is chosen.
    enum EcmpMode
    {
        FLOW_HASH,   //!< hash of the 5-tuple and the switch seed: one path per flow
        PACKET_SPRAY //!< round robin per packet
    };

    /**
     * TracedCallback signature for drops.
     * @param [in] packet the IPv4 packet
     * @param [in] cause the DropCause
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet, uint8_t cause);

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RoceSwitch();

    /**
     * Take a port; its index is the order of the calls (0, 1, ...).
     * @param device the port, already attached to its cable and added to the node
     * @return the port's index
     */
    uint32_t AddPort(Ptr<PfcNetDevice> device);

    /**
     * Size the buffer manager for the ports added so far; call once, after the last AddPort.
     */
    void Initialize();

    /**
     * Install (or replace) the route to a destination address.
     * @param destination the host address
     * @param ports the equal-cost egress ports (one or more)
     */
    void SetRoute(Ipv4Address destination, const std::vector<uint32_t>& ports);

    /// @return the number of ports
    uint32_t GetNPorts() const;
    /// @return port i
    Ptr<PfcNetDevice> GetPort(uint32_t i) const;
    /// @return the buffer manager
    Ptr<RoceSwitchMmu> GetMmu() const;
    /// @return the ECMP group towards a destination (empty if none)
    const std::vector<uint32_t>& GetRoute(Ipv4Address destination) const;

    /**
     * Whether the forwarding path says this switch's routes by arithmetic on the destination's
     * host number, reading no table (m_hostRule): as every switch of a fat-tree with k a power
     * of two from 4 up, whose hosts RoceHelper addresses, does (and others: m_hostRule). Either
     * way a frame takes the route GetRoute says.
     * @return true if so, for the routes as they are now
     */
    bool RoutesByHostNumber();

    /**
     * The egress port the switch would choose for a flow (FlowHash mode).
     * @param src source address
     * @param dst destination address
     * @param protocol IP protocol
     * @param srcPort source port
     * @param dstPort destination port
     * @return the port index, or GetNPorts() if there is no route
     */
    uint32_t SelectPort(Ipv4Address src,
                        Ipv4Address dst,
                        uint8_t protocol,
                        uint16_t srcPort,
                        uint16_t dstPort);

    /**
     * Move frames to another priority as they cross this switch (a match-action rule on
     * ingress port, egress port and priority, as Tagger does with ACLs: Hu et al., CoNEXT 2017).
     * A frame that arrives on `inPort` on `fromPriority` and is routed to `outPort` is charged
     * to the ingress on `fromPriority` (so PFC pauses the upstream where it sends) and queued on
     * `toPriority`; its IPv4 DSCP class selector (DSCP / 8) is rewritten to `toPriority` so the
     * next hop classifies it the same way (the other DSCP bits and ECN are kept). Fabric
     * helpers use it for the dateline of a torus. Only frames that match a rule pay for the
     * header rewrite; a switch without rules forwards exactly as before.
     * Call after Initialize().
     * @param inPort the ingress port
     * @param outPort the egress port
     * @param fromPriority the priority the frame arrives on
     * @param toPriority the priority it leaves on
     */
    void SetPriorityRemap(uint32_t inPort,
                          uint32_t outPort,
                          uint8_t fromPriority,
                          uint8_t toPriority);

    /**
     * @param inPort the ingress port
     * @param outPort the egress port
     * @param priority the priority a frame arrives on
     * @return the priority it leaves on (the same one when no rule matches)
     */
    uint8_t GetPriorityRemap(uint32_t inPort, uint32_t outPort, uint8_t priority) const;

    /// @return frames moved to another priority by a SetPriorityRemap rule
    uint64_t GetRemapped() const;

    /// @return frames dropped for a cause
    uint64_t GetDrops(DropCause cause) const;
    /**
     * @param priority a priority (0..7)
     * @return frames of that priority dropped here, for lack of buffer or of a route
     */
    uint64_t GetDropsByPriority(uint8_t priority) const;
    /// @return ECN marks made
    uint64_t GetEcnMarks() const;
    /// @return frames forwarded
    uint64_t GetForwarded() const;

    /**
     * @return the data frames that arrived with their header fields passed on by the previous
     *         switch or the NIC that framed them (PfcFrameInfo), so that this switch did not
     *         read their bytes
     */
    uint64_t GetFrameInfoCarried() const;

    /// @return with CheckFrameInfo, the frames whose carried fields differed from their bytes
    uint64_t GetFrameInfoMismatches() const;
    /// @return RoCEv2 data packets trimmed to their headers (Trimming)
    uint64_t GetTrimmed() const;

    /**
     * Hash used for ECMP: a 64-bit mix of the 5-tuple and a seed (deterministic across
     * platforms).
     * @param seed the switch seed
     * @param src source address
     * @param dst destination address
     * @param protocol IP protocol
     * @param srcPort source port
     * @param dstPort destination port
     * @return the hash
     */
    static uint64_t FlowHash(uint32_t seed,
                             uint32_t src,
                             uint32_t dst,
                             uint8_t protocol,
                             uint16_t srcPort,
                             uint16_t dstPort);

    /**
     * Assign fixed random variable stream numbers.
     * @param stream first stream index to use
     * @return the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * Give the switch an aggregation node (SHARP on Ethernet), addressed by an IPv4 address of
     * the switch's own: RoCEv2 packets to it go to the node instead of the routes, and the node
     * sends through the switch's ports. Its packets are one hop long and live in the node's
     * buffer, not the MMU's: they take no ingress or egress accounting, PFC or ECN.
     * @param node the node
     * @param address the switch's address (no host's)
     */
    void SetAggregationNode(Ptr<SharpAggregationNode> node, Ipv4Address address);
    /// @return the aggregation node, or nullptr
    Ptr<SharpAggregationNode> GetAggregationNode() const;
    /// @return aggregation packets an egress dropped (QueueLimit, PFC watchdog): nothing resends
    /// them, so their job does not complete
    uint64_t GetAggregationDrops() const;

    /**
     * @param tag the tag this switch gave a frame it queued (PfcNetDevice::GetQueuedTags)
     * @return the port the frame came in on
     */
    static uint32_t GetIngressPortOfTag(uint32_t tag);

  protected:
    void DoDispose() override;

  private:
    /**
     * SelectPort on a frame's header fields (the forwarding path's).
     * @param info the fields (addresses, protocol and ports)
     * @return the port index, or GetNPorts() if there is no route
     */
    uint32_t SelectPortOf(const PfcFrameInfo& info);

    /// A data frame arrived on a port (PfcPortOwner).
    bool PortReceive(uint32_t inPort,
                     const Ptr<Packet>& packet,
                     uint16_t type,
                     const PfcFrameInfo& info) override;
    /// A frame arrived, its reference to move on to its egress queue (PfcPortOwner): the
    /// packet is read only when its header is rewritten (a CE mark, a priority's remap,
    /// a trim) or its fields did not come with it.
    bool PortReceiveFrame(uint32_t inPort,
                          PacketRef& frame,
                          uint32_t bytes,
                          uint16_t type,
                          const PfcFrameInfo& carried) override;
    /// The send lines of the egress port a frame's route leads to, as things are now
    /// (PfcPortOwner).
    const void* PortArrivalHint(uint32_t inPort, const PfcFrameInfo& info) const override;
    /// The buffer's accounting of a port as ingress, which every frame arriving on the port
    /// reads (PfcPortOwner).
    const void* PortReceiveLine(uint32_t port) const override;
    /// Its forwarding fields (FORWARD_LINES), which a frame's forwarding reads first
    /// (PfcPortOwner).
    const void* PortReceiveSpan(uint32_t port) const override;
    /// Whether an arriving frame's packet is read as a rule: only when the frame's header
    /// fields are checked against it (CheckFrameInfo) (PfcPortOwner).
    bool PortReadsPackets(uint32_t port) const override;
    /// A frame leaves a port's queue (PfcPortOwner).
    void PortDequeue(uint32_t outPort,
                     const Ptr<Packet>& frame,
                     uint8_t priority,
                     uint32_t tag) override;
    /// A frame leaves a port's queue, with its size (PfcPortOwner): the buffer it held is
    /// released without the packet being read.
    void PortDequeueFrame(uint32_t outPort,
                          const Ptr<Packet>& frame,
                          uint8_t priority,
                          uint32_t tag,
                          uint32_t bytes) override;
    /// A frame a port will not send (PfcPortOwner): its buffer is released.
    void PortDrop(uint32_t outPort,
                  const Ptr<Packet>& frame,
                  uint8_t priority,
                  uint32_t tag) override;
    /**
     * Give back the buffer a queued frame held.
     * @param outPort its egress port
     * @param frame the frame
     * @param priority its egress priority
     * @param tag its tag
     */
    void ReleaseBuffer(uint32_t outPort, uint32_t bytes, uint8_t priority, uint32_t tag);
    /// A packet for the aggregation node arrived (IPv4 first) on a priority.
    bool ReceiveAggregation(uint32_t inPort, const Ptr<Packet>& packet, uint8_t priority);
    /// The aggregation node sends: IPv4, UDP, BTH and ICRC around it, then the port's queue.
    void SendAggregation(uint32_t port, uint32_t peer, Ptr<Packet> packet, uint8_t priority);
    /// Buffer manager's XOFF/XON decision.
    void Pause(uint32_t inPort, uint8_t priority, bool pause);
    /// Queue an admitted frame on its egress port after the switch's ForwardingLatency (at
    /// once if it is zero, its reference moved on and its packet not read).
    /// (bytes: its packet's size and the Ethernet header's; info: the header fields it goes
    /// with to the next switch, or unknown.)
    void ForwardAfterLatency(PacketRef frame,
                             uint32_t bytes,
                             uint32_t inPort,
                             uint32_t outPort,
                             uint8_t priority,
                             RoceSwitchMmu::Pool pool,
                             const PfcFrameInfo& info = PfcFrameInfo());
    /// Queue an admitted packet on its egress port, with the header fields it carries on:
    /// ForwardAfterLatency's event.
    void Forward(const Ptr<Packet>& packet,
                 uint32_t inPort,
                 uint32_t outPort,
                 uint8_t priority,
                 RoceSwitchMmu::Pool pool,
                 PfcFrameInfo info);
    /**
     * Forward with the frame's reference, which moves on to the queue, and its size: the
     * packet is not read.
     * @param frame the frame
     * @param bytes its packet's size and the Ethernet header's
     * @param inPort its ingress port (and the tag's flags)
     * @param outPort its egress port
     * @param priority its egress priority
     * @param pool the buffer pool it was admitted to
     * @param info its header fields, for the next switch
     */
    void ForwardFrame(PacketRef frame,
                      uint32_t bytes,
                      uint32_t inPort,
                      uint32_t outPort,
                      uint8_t priority,
                      RoceSwitchMmu::Pool pool,
                      const PfcFrameInfo& info);
    /**
     * Set CE in the IPv4 header of a frame (frames carry no Ethernet header object) that is
     * ECN-capable.
     * @param frame the frame
     * @return whether it was ECN-capable (and is now marked)
     */
    bool MarkCe(const Ptr<Packet>& frame);
    /**
     * Rewrite the TOS byte (DSCP and ECN) of a frame's IPv4 header: in place, its checksum
     * kept right (RFC 1624) when ns-3's checksums are on; through an Ipv4Header object when
     * packets carry metadata.
     * @param frame the frame
     * @param keep the bits of the TOS byte kept
     * @param set the bits then set
     * @param ectOnly rewrite only an ECN-capable header
     * @return whether the header was rewritten
     */
    bool RewriteTos(const Ptr<Packet>& frame, uint8_t keep, uint8_t set, bool ectOnly);
    /// Learn from a frame whether packets carry metadata, and whether ns-3's checksums are on
    /// (once). @param frame a frame
    void AskPacketModes(const Ptr<Packet>& frame);
    /**
     * Trim a RoCEv2 packet to its headers (IPv4, UDP, BTH, RETH or AETH, and 4 bytes where the
     * ICRC was), mark it with TrimDscp and queue it on TrimDscp / 8 (NDP's and UEC 1.0's
     * packet trimming), instead of dropping it.
     * @param packet the packet
     * @param inPort its ingress port
     * @param outPort its egress port
     * @param ihl its IPv4 header's length
     * @return false if it cannot be trimmed (no payload, or no buffer even for the header)
     */
    bool Trim(const Ptr<Packet>& packet, uint32_t inPort, uint32_t outPort, uint32_t ihl);
    /// The rest of Receive() for a frame that a SetPriorityRemap rule moves to another
    /// priority; @p tos is its IPv4 header's TOS byte as it arrived.
    bool ReceiveRemapped(Ptr<Packet> packet,
                         uint32_t inPort,
                         uint32_t outPort,
                         uint8_t inPriority,
                         uint8_t outPriority,
                         uint8_t tos);

    // What every frame's forwarding reads of the switch (PortReceiveFrame, SelectPortOf), first
    // and together: with ns-3's bases, the object's first FORWARD_LINES lines (the object on
    // 128 bytes: three pairs of lines on ns-3.37), the port table last among them (a switch of
    // up to 16 ports: its table in the object, not an allocation of its own, whose line was one
    // more wait before the egress port's), then, where the host rule does not say the routes,
    // the port sets, of which a hop reads one line more for a set of one port, two or three for
    // ECMP's. Spread over the object as they were declared, the fields and sets took nine lines
    // a hop, ten or eleven with ECMP: at k=16 a switch's lines have left the core's second-level
    // cache by its next frame (doc/performance-log.rst, the round of 2026-12-06, 15:20 UTC). The
    // constructor asserts where the fields end.
    Ptr<RoceSwitchMmu> m_mmu;           //!< buffer manager
    std::vector<uint16_t> m_routeSlot;  //!< address - m_routeBase -> port set index + 1
    uint32_t m_routeBase{0};            //!< the lowest address m_routeSlot covers
    uint32_t m_blockShift{0};           //!< log2 of the destinations per block
    std::vector<uint16_t> m_blockSlot;  //!< per block: its slot, or a split block's reference
    std::vector<uint16_t> m_splitSlots; //!< the split blocks' slots, block after block
    EcmpMode m_ecmpMode{FLOW_HASH};     //!< member selection
    uint32_t m_seed{0};                 //!< ECMP hash seed
    bool m_routesChanged{true};         //!< SetRoute since CompactRoutes
    bool m_ecnAtDequeue{false};         //!< mark at dequeue instead of enqueue
    bool m_checkFrameInfo{false};       //!< read every frame's bytes and compare the carried fields
    bool m_intEnabled{true};            //!< stamp INT hops on packets that carry an RdmaIntTag
    bool m_trimming{false};             //!< trim RoCEv2 data instead of dropping it
    uint8_t m_trimDscp{56};             //!< DSCP of trimmed packets
    uint32_t m_trimThreshold{0};        //!< trim above this egress queue (bytes; 0: only on a drop)
    uint32_t m_sharpAddress{0};     //!< the aggregation node's address (0: none; no host has it)
    Time m_latency;                 //!< forwarding latency
    uint64_t m_frameInfoCarried{0}; //!< frames whose header fields came with them
    uint64_t m_forwarded{0};        //!< frames forwarded
    uint64_t m_ecnMarks{0};         //!< CE marks
    std::vector<uint8_t> m_remap;   //!< (in, out, priority) -> priority; empty: no rules

    /// A switch's routes said as arithmetic on the destination's host number, where that says
    /// every one of them (FitHostRule): the hosts from the rule's first on, `count` of them, each
    /// have a port of their own, the same for each run of 2^`shift` consecutive hosts, the runs
    /// on consecutive ports from `firstPort`; every other destination has the port set of slot
    /// `otherSlot`, whose members, when they are consecutive ports, are `otherCount` from
    /// `otherFirst`. Hosts are numbered as RoceHelper addresses them, from .1 within each /24 of
    /// 254 (.0 and .255 no host's). That is each switch of a fat-tree whose k is a power of two
    /// from 4 up (an edge switch: one port per host below it, the uplinks for the rest; an
    /// aggregation switch: one port per edge switch of its pod; a core switch: one per pod), a
    /// spine-leaf fabric's leaves, when there are two spines or more, and its spines, when a leaf
    /// has a power of two of hosts, and a three-tier fabric's access switches with two uplinks or
    /// more, so that their forwarding reads no table: a frame going down takes a subtraction and
    /// a shift, one going up the hash's (or the spray's) member of consecutive ports. Where the
    /// routes are not so (a torus, a switch that reaches one below by several links, or the rest
    /// by one, runs of three hosts), `count` is 0 and the slots say them.
    struct HostRule
    {
        uint32_t bias{0};       //!< (address >> 8) * 254 + (address & 255) of the first host
        uint32_t count{0};      //!< hosts with a port of their own, from the first on; 0: no rule
        uint16_t firstPort{0};  //!< the port of the first run
        uint16_t otherSlot{0};  //!< the slot of every other destination; 0: no route
        uint16_t otherFirst{0}; //!< the first of that set's members, if they are consecutive
        uint8_t otherCount{0};  //!< that set's members, if consecutive (else 0: read the set)
        uint8_t shift{0};       //!< log2 of the hosts of a run
    };

    HostRule m_hostRule;               //!< the routes as arithmetic, where they are so
    Ptr<SharpAggregationNode> m_sharp; //!< aggregation node, or nullptr
    boost::container::small_vector<Ptr<PfcNetDevice>, 16> m_ports; //!< ports by index

    /// A port set as the forwarding path reads it: its port, or its members in m_portData.
    struct PortSpan
    {
        /// A set of one: its port, so that the path down a fat-tree (every hop after the
        /// top) reads no member array. Callgrind (1 MB last level), perm1024: the route's
        /// read misses 12.1 M to 10.3 M, the event loop's 190.6 M to 188.5 M, instructions
        /// unchanged. A larger set: the index of its first member in m_portData.
        uint32_t first;
        uint32_t count; //!< its members
    };

    // In the switch object while they are few (Boost's small_vector), right after the fields
    // forwarding reads, so that it finds them on the switch's next lines, not in an allocation
    // of their own (a second cache miss per hop at k=16).
    boost::container::small_vector<PortSpan, 16> m_portSpans; //!< per port set: its members
    boost::container::small_vector<uint32_t, 32> m_portData;  //!< the sets' members in turn

    /// The routes. A fabric's many destinations share a few port sets (on a fat-tree's edge
    /// switch: one per host below, and the uplinks for all the others), so each set is kept
    /// once and a destination's slot names it: the forwarding path reads a 2-byte slot and a
    /// set that stays in cache, not a table of hosts x switches of vectors.
    /// The set of a destination is m_portSpans[m_routeSlot[address - m_routeBase] - 1] (slot 0:
    /// none), its members in m_portData (a set of one: its port, in the span); m_portSets keeps
    /// each set whole for GetRoute and for building. Host addresses are dense, so this is an array
    /// lookup, not a hash. (The slots of a k=16 fat-tree's 320 switches for its 1 024 hosts take
    /// 660 kB; they took twice that as 4-byte slots, and the route was a tenth of that fabric's
    /// run.) The forwarding path reads them in blocks (m_blockSlot, above) where the host rule does
    /// not say them (m_hostRule), GetRoute here.
    std::vector<std::vector<uint32_t>> m_portSets;
    std::map<std::vector<uint32_t>, uint32_t> m_portSetIndex; //!< set -> index (building only)

    std::vector<uint32_t> m_sprayNext; //!< address - m_routeBase -> next member (PacketSpray)

    // The slots as the forwarding path reads them (CompactRoutes: m_blockSlot, m_splitSlots and
    // m_blockShift, among the forwarding fields above): the destinations in aligned blocks of
    // 2^m_blockShift, a block whose destinations share one slot kept as that slot, any other as
    // a reference (ROUTE_BLOCK_SPLIT + i) to its slots, block i of m_splitSlots.
    // A fat-tree numbers its hosts edge by edge, so that most blocks of a switch's hosts go
    // one way (the addresses skip each /24's .0 and .255, so that some edges straddle two
    // blocks): a k=16 fat-tree switch's 1 032 slots (2 kB, 33 lines, each frame missing one
    // of them at fabric scale) become 65 blocks of 16 and 4-9 split ones, or 129 of 8 and 4-16
    // split (260-510 B a switch; 0.12 MB for the fabric's 320 switches, where the slots took
    // 0.66 MB).
    static constexpr uint16_t ROUTE_BLOCK_SPLIT = 0x8000; //!< first reference to a split block

    /// Build m_blockSlot and m_splitSlots from m_routeSlot, at the block size that takes the
    /// fewest bytes, and m_hostRule.
    void CompactRoutes();

    /// Set m_hostRule from m_routeSlot: fitted to the routes, then checked against every
    /// destination's; off if any differs.
    void FitHostRule();

    /**
     * @param address a destination
     * @return its host number before the rule's bias: 254 per /24, numbered from .1
     */
    static uint32_t HostNumberOf(uint32_t address)
    {
        return (address >> 8) * 254 + (address & 0xFF);
    }

    /**
     * The port a frame takes once the routes are compacted (m_routesChanged false).
     * @param info the frame's header fields
     * @param members set to the members of the port set it was taken from: 1 for a port of its
     * own, 0 for none
     * @return the port index, GetNPorts() if the destination has no route
     */
    uint32_t CompactedPortOf(const PfcFrameInfo& info, uint32_t& members) const
    {
        const uint32_t offset = info.dst - m_routeBase;
        const auto none = static_cast<uint32_t>(m_ports.size());
        members = 0;
        uint16_t slot;
        if (m_hostRule.count != 0)
        {
            // (.0 and .255, no host's, have no route: the rule was checked so.)
            if (offset >= m_routeSlot.size() || ((info.dst + 1) & 0xFF) < 2)
            {
                return none;
            }
            const uint32_t x = HostNumberOf(info.dst) - m_hostRule.bias;
            if (x < m_hostRule.count)
            {
                members = 1;
                return m_hostRule.firstPort + (x >> m_hostRule.shift);
            }
            if (m_hostRule.otherCount != 0)
            {
                members = m_hostRule.otherCount;
                return m_hostRule.otherFirst + MemberIndex(members, offset, info);
            }
            slot = m_hostRule.otherSlot;
        }
        else
        {
            slot = CompactedSlotOf(info.dst);
        }
        if (slot == 0)
        {
            return none;
        }
        const PortSpan& set = m_portSpans[slot - 1];
        members = set.count;
        return set.count == 1 ? set.first
                              : m_portData[set.first + MemberIndex(set.count, offset, info)];
    }

    /**
     * A destination's slot once the routes are compacted (m_routesChanged false), as
     * m_routeSlot says it, read from the blocks.
     * @param address a destination
     * @return its slot (its port set's index + 1), 0 if it has no route
     */
    uint16_t CompactedSlotOf(uint32_t address) const
    {
        const uint32_t offset = address - m_routeBase;
        if (offset >= m_routeSlot.size())
        {
            return 0;
        }
        const uint16_t slot = m_blockSlot[offset >> m_blockShift];
        if (slot < ROUTE_BLOCK_SPLIT)
        {
            return slot;
        }
        const uint32_t block = slot - ROUTE_BLOCK_SPLIT;
        return m_splitSlots[(block << m_blockShift) | (offset & ((1u << m_blockShift) - 1))];
    }

    /**
     * Which member of a destination's port set of several a frame takes: the spray's turn (not
     * moved on), or the flow's hash.
     * @param count the set's members (more than one)
     * @param offset the destination's address - m_routeBase
     * @param info the frame's header fields
     * @return the member's index in the set
     */
    uint32_t MemberIndex(uint32_t count, uint32_t offset, const PfcFrameInfo& info) const
    {
        if (m_ecmpMode == PACKET_SPRAY)
        {
            return m_sprayNext[offset];
        }
        const uint64_t h =
            FlowHash(m_seed, info.src, info.dst, info.protocol, info.srcPort, info.dstPort);
        // The same member as h % count, without a 64-bit division (tens of cycles, the route's
        // hottest instruction) when the set's size is a power of two, as a fat-tree's are.
        if ((count & (count - 1)) == 0)
        {
            return static_cast<uint32_t>(h & (count - 1));
        }
        return static_cast<uint32_t>(h % count);
    }

    /// @return the slot offset of a destination address with a route, or m_routeSlot.size()
    uint32_t FindRoute(uint32_t address) const
    {
        const uint32_t offset = address - m_routeBase;
        if (offset >= m_routeSlot.size() || m_routeSlot[offset] == 0)
        {
            return static_cast<uint32_t>(m_routeSlot.size());
        }
        return offset;
    }

    /// Whether ns-3 records packet metadata: -1 not asked yet (AskPacketModes).
    int8_t m_metadata{-1};
    bool m_checksums{false};           //!< ns-3's IPv4 checksums are on (Node::ChecksumEnabled)
    uint64_t m_frameInfoMismatches{0}; //!< frames whose carried fields were unlike their bytes
    uint64_t m_trimmed{0};             //!< packets trimmed
    bool m_initialized;                //!< Initialize() done
    std::array<uint64_t, DROP_CAUSE_COUNT> m_drops; //!< drops per cause
    std::array<uint64_t, 8> m_dropsByPriority{};    //!< buffer and no-route drops per priority
    uint64_t m_remapped;                            //!< frames moved to another priority

    uint64_t m_sharpDrops{0}; //!< the aggregation node's packets an egress refused
    TracedCallback<Ptr<const Packet>, uint8_t> m_dropTrace; //!< drops
    TracedCallback<Ptr<const Packet>> m_trimTrace;          //!< trims (the packet before)
};

} // namespace ns3

#endif // ROCE_SWITCH_H
