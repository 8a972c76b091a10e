/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_REMOTE_CHANNEL_H
#define IB_REMOTE_CHANNEL_H

// The InfiniBand link between two ranks of a distributed (MPI) run; only in an ns-3 built with
// MPI (./interconnect setup-mpi).
#ifdef NS3_MPI

#include "ns3/ib-channel.h"

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief An IbChannel whose two ends live on different ranks of a distributed simulation.
 *
 * As PfcRemoteChannel: a packet (data, or a credit update of the link-level flow control) for a
 * device on another rank goes to MpiInterface::SendPacket when its first bit reaches the far end
 * (now + Delay, at least the lookahead); the far device's MpiReceiver schedules the moment the
 * device takes it (its last bit, or its LRH when cutting through), keyed for CanonicalScheduler
 * as an IbChannel would. The VL, the flow-control flag, the packet's number on the link and the
 * remaining time travel in a RemoteLinkTag. Credits therefore cross ranks with the link's delay,
 * as on one rank.
 *
 * IbSubnetHelper makes this channel for every link whose nodes have different system ids.
 */
class IbRemoteChannel : public IbChannel
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    void TransmitStart(Ptr<Packet> packet,
                       Ptr<IbNetDevice> src,
                       Time txTime,
                       uint8_t vl,
                       bool flowControl) override;

    /**
     * A packet from another rank reached this device (the MpiReceiver's callback).
     * @param device the receiving device
     * @param packet the packet, with its RemoteLinkTag
     */
    static void Receive(Ptr<IbNetDevice> device, Ptr<Packet> packet);

    /**
     * Aggregate an MpiReceiver that hands packets to Receive(), unless the device has one.
     * @param device a device whose peer is on another rank
     */
    static void ConnectReceiver(Ptr<IbNetDevice> device);
};

} // namespace ns3

#endif // NS3_MPI

#endif // IB_REMOTE_CHANNEL_H
