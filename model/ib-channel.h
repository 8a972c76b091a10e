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
 * Delay. The virtual lane and whether it is a link-layer flow-control packet travel with it.
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
    void TransmitStart(Ptr<Packet> packet,
                       Ptr<IbNetDevice> src,
                       Time txTime,
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

  private:
    Time m_delay;                 //!< propagation delay
    Ptr<IbNetDevice> m_device[2]; //!< the two ends
    std::size_t m_nDevices;       //!< ends attached
    uint64_t m_sent[2];           //!< packets sent in each direction (CanonicalScheduler keys)
};

} // namespace ns3

#endif // IB_CHANNEL_H
