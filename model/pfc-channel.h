/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFC_CHANNEL_H
#define PFC_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

namespace ns3
{

class PfcNetDevice;
class Packet;

/**
 * @ingroup interconnect
 * @brief A full-duplex point-to-point Ethernet cable between two PfcNetDevices.
 *
 * Each direction is independent; a frame whose transmission starts at t arrives whole at the
 * peer at t + transmission time + Delay (store and forward: the receiver sees the frame when its
 * last bit has arrived).
 */
class PfcChannel : public Channel
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    PfcChannel();

    /**
     * Attach a device; a channel takes exactly two.
     * @param device the device
     */
    void Attach(Ptr<PfcNetDevice> device);

    /**
     * Carry a frame from one end to the other.
     * @param packet the frame's payload (its Ethernet header is implicit)
     * @param src the sending device
     * @param txTime the time the sender takes to put the frame on the wire
     * @param etherType the frame's EtherType
     */
    void TransmitStart(Ptr<Packet> packet, Ptr<PfcNetDevice> src, Time txTime, uint16_t etherType);

    /// @return the propagation delay of the cable
    Time GetDelay() const;

    /**
     * @param src one end of the cable
     * @return the device at the other end
     */
    Ptr<PfcNetDevice> GetPeer(Ptr<const PfcNetDevice> src) const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  protected:
    void DoDispose() override;

  private:
    Time m_delay;                  //!< propagation delay
    Ptr<PfcNetDevice> m_device[2]; //!< the two ends
    std::size_t m_nDevices;        //!< how many ends are attached
};

} // namespace ns3

#endif // PFC_CHANNEL_H
