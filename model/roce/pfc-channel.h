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

#include <cstdint>

namespace ns3
{

class PfcNetDevice;
class Packet;
struct PfcFrameInfo;

/**
 * @ingroup interconnect
 * @brief A full-duplex point-to-point Ethernet cable between two PfcNetDevices.
 *
 * Each direction is independent; a frame whose transmission starts at t arrives whole at the
 * peer at t + transmission time + Delay (store and forward: the receiver sees the frame when its
 * last bit has arrived). Deliveries are keyed for CanonicalScheduler (receiving device, frame
 * number on that direction), so that a run's order of simultaneous events does not depend on
 * how it is split over processes; PfcRemoteChannel is the cable between two ranks.
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
     * @param now the current time step (the sender has it: one Simulator::Now per frame)
     * @param txTime the time the sender takes to put the frame on the wire
     * @param etherType the frame's EtherType
     * @param info its header fields for the next switch, or unknown (PfcFrameInfo)
     */
    virtual void TransmitStart(const Ptr<Packet>& packet,
                               const Ptr<PfcNetDevice>& src,
                               int64_t now,
                               Time txTime,
                               uint16_t etherType,
                               const PfcFrameInfo& info);

    /// @return the propagation delay of the cable
    Time GetDelay() const;

    /**
     * Set the propagation delay (the Delay attribute); the ends hear of it at once.
     * @param delay the delay (>= 0)
     */
    void SetDelay(Time delay);

    /**
     * @param txTime a frame's transmission time
     * @return the time from its first bit to its last at the far end: at least one time step,
     *         since a frame from another rank is handed over at its first bit
     */
    static Time OnWire(Time txTime);

    /// OnWire in time steps. @param txSteps a frame's transmission time @return its time on wire
    static int64_t OnWireSteps(int64_t txSteps)
    {
        return txSteps > 1 ? txSteps : 1;
    }

    /**
     * @param src one end of the cable
     * @return the device at the other end
     */
    Ptr<PfcNetDevice> GetPeer(Ptr<const PfcNetDevice> src) const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

    /**
     * Deliver a frame to a device now, keyed for CanonicalScheduler.
     * @param dst the receiving device
     * @param now the current time step
     * @param delay time until the frame's last bit has arrived
     * @param sequence the frame's number on its direction of the cable
     * @param packet the frame
     * @param etherType its EtherType
     * @param info its header fields, or unknown (PfcFrameInfo)
     */
    static void ScheduleArrival(const Ptr<PfcNetDevice>& dst,
                                int64_t now,
                                Time delay,
                                uint64_t sequence,
                                const Ptr<Packet>& packet,
                                uint16_t etherType,
                                const PfcFrameInfo& info);

  protected:
    void DoDispose() override;

    /**
     * @param src one end of the cable
     * @return the direction (0: from device 0, 1: from device 1)
     */
    std::size_t DirectionFrom(Ptr<const PfcNetDevice> src) const;

    Time m_delay;                  //!< propagation delay
    Ptr<PfcNetDevice> m_device[2]; //!< the two ends
    std::size_t m_nDevices;        //!< how many ends are attached
    uint64_t m_sent[2];            //!< frames sent in each direction (TransmitStart)

  private:
    /**
     * Tell both ends of the cable what a send on a plain PfcChannel reads of it (the far end,
     * the delay), so that a frame's send does not touch this object, which at fabric scale has
     * left the cache; a class derived from PfcChannel is told nothing, its ends calling its
     * TransmitStart for every frame.
     */
    void TellEnds();
};

} // namespace ns3

#endif // PFC_CHANNEL_H
