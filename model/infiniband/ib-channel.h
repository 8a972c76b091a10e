/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_CHANNEL_H
#define IB_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

namespace ns3
{

class IbNetDevice;
class Packet;

/**
 * @ingroup interconnect
 * @brief A full-duplex InfiniBand link (cable) between two IbNetDevices.
 *
 * A packet whose transmission starts at t arrives whole at the peer at t + transmission time +
 * Delay (a cut-through receiver takes a data packet once its LRH is in; at least one time step
 * after the first bit in either case). The virtual lane and whether it is a link-layer
 * flow-control packet travel with it. Deliveries are keyed for CanonicalScheduler;
 * IbRemoteChannel is the link between two ranks of a distributed run.
 */
class IbChannel : public Channel
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    IbChannel();

    /// @param device one end; a link takes exactly two
    void Attach(Ptr<IbNetDevice> device);

    /**
     * Carry a packet to the other end.
     * @param packet the packet
     * @param src the sending device
     * @param txTime its transmission time
     * @param vl its virtual lane
     * @param flowControl true for a link-layer flow-control packet
     */
    virtual void TransmitStart(Ptr<Packet> packet,
                               Ptr<IbNetDevice> src,
                               Time txTime,
                               uint8_t vl,
                               bool flowControl);

    /**
     * Deliver a packet to a device, keyed for CanonicalScheduler.
     * @param dst the receiving device
     * @param delay time until the receiver takes it (its last bit, or its LRH when cutting through)
     * @param sequence its number on its direction of the link
     * @param packet the packet
     * @param vl its virtual lane
     * @param flowControl true for a link-layer flow-control packet
     */
    static void ScheduleArrival(Ptr<IbNetDevice> dst,
                                Time delay,
                                uint64_t sequence,
                                Ptr<Packet> packet,
                                uint8_t vl,
                                bool flowControl);

    /// @return the propagation delay
    Time GetDelay() const;
    /// @param src one end @return the other end
    Ptr<IbNetDevice> GetPeer(Ptr<const IbNetDevice> src) const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  protected:
    void DoDispose() override;

    /**
     * @param src one end
     * @return the direction (0: from device 0, 1: from device 1)
     */
    std::size_t DirectionFrom(Ptr<const IbNetDevice> src) const;

    /**
     * @param src the sending end
     * @param txTime the packet's transmission time
     * @param flowControl true for a flow-control packet
     * @return when the receiver takes the packet, after its first bit arrived (at least one
     *         time step)
     */
    Time TakenAfter(Ptr<const IbNetDevice> src, Time txTime, bool flowControl) const;

    Time m_delay;                 //!< propagation delay
    Ptr<IbNetDevice> m_device[2]; //!< the two ends
    std::size_t m_nDevices;       //!< ends attached
    uint64_t m_sent[2];           //!< packets sent in each direction (CanonicalScheduler keys)
};

} // namespace ns3

#endif // IB_CHANNEL_H
