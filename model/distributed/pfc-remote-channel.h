/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFC_REMOTE_CHANNEL_H
#define PFC_REMOTE_CHANNEL_H

// The cable between two ranks of a distributed (MPI) run; only in an ns-3 built with MPI
// (./interconnect setup-mpi), as ns-3's own PointToPointRemoteChannel.
#ifdef NS3_MPI

#include "ns3/pfc-channel.h"

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief A PfcChannel whose two ends live on different ranks of a distributed simulation.
 *
 * A frame whose receiver is on another rank goes to MpiInterface::SendPacket, timed for when
 * its first bit reaches the far end (now + Delay, which is at least the lookahead ns-3 computed
 * from the Delay of every cable between ranks). On the far rank the device's MpiReceiver hands
 * it to Receive(), which schedules the frame's arrival at its last bit, keyed for
 * CanonicalScheduler exactly as a PfcChannel would: a frame crossing ranks reaches the same
 * place in the order of events as on one rank. The frame's EtherType, its number on the cable
 * and its transmission time travel in a RemoteLinkTag.
 *
 * RoceHelper makes this channel for every link whose nodes have different system ids, and
 * aggregates the MpiReceiver to both devices.
 */
class PfcRemoteChannel : public PfcChannel
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    void TransmitStart(const Ptr<Packet>& packet,
                       const Ptr<PfcNetDevice>& src,
                       int64_t now,
                       Time txTime,
                       uint16_t etherType,
                       const PfcFrameInfo& info) override;

    /**
     * A frame from another rank reached this device (the MpiReceiver's callback).
     * @param device the receiving device
     * @param packet the frame, with its RemoteLinkTag
     */
    static void Receive(Ptr<PfcNetDevice> device, Ptr<Packet> packet);

    /**
     * Aggregate an MpiReceiver that hands frames to Receive(), unless the device has one.
     * @param device a device on this rank whose peer is on another
     */
    static void ConnectReceiver(Ptr<PfcNetDevice> device);
};

} // namespace ns3

#endif // NS3_MPI

#endif // PFC_REMOTE_CHANNEL_H
