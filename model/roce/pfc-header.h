/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFC_HEADER_H
#define PFC_HEADER_H

#include "ns3/data-rate.h"
#include "ns3/header.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief The MAC Control payload of an IEEE 802.1Qbb priority-based flow control (PFC) frame.
 *
 * A PFC frame is an Ethernet frame to the reserved multicast address 01:80:C2:00:00:01
 * (GetMulticastAddress) with EtherType 0x8808 (MAC Control, ETHERTYPE); the Ethernet header is
 * not part of this header. The payload (IEEE 802.1Qbb clause 36, IEEE 802.3 annex 31D), in
 * network byte order:
 *
 * @verbatim
   bytes 0-1    MAC Control opcode (16) = 0x0101
   bytes 2-3    priority-enable vector (16): upper octet 0; bit i of the lower octet set means
                time[i] is valid for priority i
   bytes 4-19   time[0] .. time[7] (16 each): pause time in quanta of 512 bit times;
                0 resumes the priority at once
   bytes 20-45  zero padding to the 46-byte minimum Ethernet payload
   @endverbatim
 *
 * A frame whose opcode is not 0x0101 deserializes without aborting but reports IsValid() false;
 * its other fields are then read as if it were a PFC frame and should be ignored.
 */
class PfcHeader : public Header
{
  public:
    /// The MAC Control opcode of priority-based flow control.
    static constexpr uint16_t OPCODE = 0x0101;
    /// The EtherType of MAC Control frames (IEEE 802.3 clause 31).
    static constexpr uint16_t ETHERTYPE = 0x8808;
    /// The number of priorities a PFC frame addresses.
    static constexpr uint8_t N_PRIORITIES = 8;
    /// The serialized size: the minimum Ethernet payload, in bytes.
    static constexpr uint32_t SIZE = 46;
    /// The length of a pause quantum, in bit times.
    static constexpr uint32_t QUANTUM_BITS = 512;
    /// The longest pause a frame can ask for, in quanta.
    static constexpr uint16_t MAX_QUANTA = 0xFFFF;

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /// A valid PFC payload with no priority enabled.
    PfcHeader();

    /// @return the reserved multicast destination of MAC Control frames, 01:80:C2:00:00:01
    static Mac48Address GetMulticastAddress();

    /**
     * Enable a priority in the frame and set its pause time.
     * @param priority the priority (0..7)
     * @param quanta the pause time in quanta of 512 bit times; 0 means resume (XON)
     */
    void SetPause(uint8_t priority, uint16_t quanta);
    /**
     * @param priority the priority (0..7)
     * @return true if the frame's enable bit for the priority is set
     */
    bool IsEnabled(uint8_t priority) const;
    /**
     * @param priority the priority (0..7)
     * @return the pause time for the priority, in quanta (0 when not enabled)
     */
    uint16_t GetQuanta(uint8_t priority) const;
    /// @return the lower octet of the priority-enable vector (bit i: priority i)
    uint8_t GetEnableVector() const;
    /// @return the MAC Control opcode as read (OPCODE for a frame built here)
    uint16_t GetOpcode() const;
    /// @return true if the opcode is OPCODE (false after reading another MAC Control frame)
    bool IsValid() const;

    /**
     * The duration of a pause at a link rate: quanta × 512 bit times.
     *
     * Computed as DataRate::CalculateBytesTxTime(quanta × 64), the same arithmetic the devices
     * use for transmission times; exact when the result is a whole number of time steps of the
     * simulator's resolution (e.g. 65535 quanta at 100 Gb/s = 335.5392 us with picosecond
     * resolution), otherwise rounded to the nearest step.
     *
     * @param quanta the pause time in quanta
     * @param linkRate the rate of the link the frame was received on
     * @return the pause duration
     */
    static Time QuantaToTime(uint16_t quanta, DataRate linkRate);
    /**
     * The smallest number of quanta whose QuantaToTime is at least t (round up), saturated at
     * MAX_QUANTA; 0 for t <= 0.
     *
     * The result is exact with respect to QuantaToTime: QuantaToTime(result) >= t and, unless
     * the result is 0 or saturated, QuantaToTime(result - 1) < t.
     *
     * @param t the pause duration wanted
     * @param linkRate the rate of the link the frame is sent on
     * @return the pause time in quanta
     */
    static uint16_t TimeToQuanta(Time t, DataRate linkRate);

    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

  private:
    uint16_t m_opcode;                             //!< MAC Control opcode
    uint8_t m_enable;                              //!< priority-enable vector, lower octet
    std::array<uint16_t, N_PRIORITIES> m_quanta{}; //!< time[i], in quanta
};

} // namespace ns3

#endif // PFC_HEADER_H
