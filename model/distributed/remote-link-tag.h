/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REMOTE_LINK_TAG_H
#define REMOTE_LINK_TAG_H

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/tag.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief What a frame crossing ranks of a distributed run carries besides its bytes.
 *
 * PfcRemoteChannel and IbRemoteChannel hand a frame to MpiInterface when its first bit reaches
 * the far end; this tag (serialized with the packet) tells the far end what the channel would
 * have passed to the receiving device and when: the link's own field (an EtherType; a virtual
 * lane and the flow-control flag), the frame's number on its direction of the link (the key of
 * its arrival for CanonicalScheduler) and the time from its first bit to when the device takes it.
 */
class RemoteLinkTag : public Tag
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer i) const override;
    void Deserialize(TagBuffer i) override;
    void Print(std::ostream& os) const override;

    uint16_t info{0};     //!< the link's field: EtherType, or VL | flow control << 8
    uint64_t sequence{0}; //!< the frame's number on its direction of the link
    int64_t remaining{0}; //!< time steps from its first bit to its arrival
};

#ifdef NS3_MPI
class NetDevice;
class Packet;

/**
 * @ingroup interconnect
 * Hand a frame to the rank of its receiver (MpiInterface::SendPacket), with its tag, for when
 * its first bit reaches the receiver.
 * @param packet the frame (a copy travels)
 * @param tag what the receiver's channel end needs
 * @param dst the receiving device, on another rank
 * @param firstBit when the frame's first bit reaches it (now + the link's delay)
 */
void SendToRank(Ptr<const Packet> packet,
                const RemoteLinkTag& tag,
                Ptr<const NetDevice> dst,
                Time firstBit);

/**
 * @ingroup interconnect
 * @param packet a frame from another rank
 * @return its tag, removed (a frame without one ends the program: it was not sent by a remote
 *         channel)
 */
RemoteLinkTag TakeRemoteLinkTag(Ptr<Packet> packet);

/**
 * @ingroup interconnect
 * Aggregate to a device an MpiReceiver that hands it frames from other ranks, unless it has one.
 * @param device a device whose peer is on another rank
 * @param receive what to do with such a frame
 */
void ConnectMpiReceiver(Ptr<NetDevice> device, Callback<void, Ptr<Packet>> receive);
#endif

} // namespace ns3

#endif // REMOTE_LINK_TAG_H
