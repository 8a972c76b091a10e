/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_ICRC_TRAILER_H
#define ROCE_ICRC_TRAILER_H

#include "ns3/ptr.h"
#include "ns3/trailer.h"

#include <cstdint>

namespace ns3
{

class Packet;

/**
 * @ingroup interconnect
 * @brief The 4-byte Invariant CRC (ICRC) that ends every RoCEv2 packet, after the IB payload and
 *        before the Ethernet FCS.
 *
 * The value is kept as the four ICRC bytes read in network byte order, i.e. exactly as they
 * appear in a hex dump of the frame: Serialize writes it most significant byte first. The CRC
 * itself (IBTA Vol. 1, 7.8: the CRC-32 of IEEE 802.3, polynomial 0x04C11DB7, register preset to
 * all ones, result complemented) puts its least significant byte on the wire first, so the value
 * here is the byte-swapped CRC-32; Compute() returns it in this form.
 *
 * A simulation may leave the ICRC at 0 (the default): nothing in the module checks it. Compute()
 * fills in the real value, for instance for pcap files that a hardware-faithful tool will check.
 */
class RoceIcrcTrailer : public Trailer
{
  public:
    /// The serialized size of the trailer, in bytes.
    static constexpr uint32_t SIZE = 4;

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /// A trailer with ICRC 0.
    RoceIcrcTrailer();

    /// @param icrc the ICRC, as its four bytes read in network byte order
    void SetIcrc(uint32_t icrc);
    /// @return the ICRC, as its four bytes read in network byte order
    uint32_t GetIcrc() const;

    /**
     * Compute the ICRC of a RoCEv2 packet over IPv4 (IBTA RoCEv2 annex A17, invariant CRC).
     *
     * The CRC covers, in this order: 8 bytes of 0xFF standing for the masked LRH of native IB;
     * the IPv4 header with Type of Service, Time to Live and Header Checksum replaced by ones;
     * the UDP header with its Checksum replaced by ones; the BTH with its byte 4 (FECN, BECN and
     * reserved bits: resv8a) replaced by ones; the rest of the packet up to, not including, the
     * ICRC. The fields replaced by ones are the ones routers and switches may change in flight.
     *
     * The input is the whole IPv4 packet, ICRC field included (its value is ignored), because
     * that is what the IPv4 Total Length and UDP Length count: build the packet with a
     * placeholder trailer, compute, then store the result in the trailer. IPv6 (RoCEv2 over
     * IPv6) is not supported.
     *
     * @param ipv4HeaderStart the first byte of the IPv4 header
     * @param length the length of the IPv4 packet, ICRC included; must equal its Total Length
     *        field and hold at least the IPv4, UDP and BTH headers and the ICRC
     * @return the ICRC, in the form SetIcrc() takes
     */
    static uint32_t Compute(const uint8_t* ipv4HeaderStart, uint32_t length);
    /**
     * Compute the ICRC of a RoCEv2 packet held in an ns-3 Packet (copies its bytes once).
     *
     * @code
     *   packet->AddHeader(bth);                // after the payload (and RETH/AETH)
     *   packet->AddTrailer(RoceIcrcTrailer()); // placeholder: UDP and IPv4 lengths count it
     *   packet->AddHeader(udp);
     *   packet->AddHeader(ipv4);
     *   uint32_t value = RoceIcrcTrailer::Compute(packet); // or simply Stamp(packet)
     * @endcode
     *
     * @param ipv4Packet the IPv4 packet from its IPv4 header to the end of the ICRC field
     *        (without Ethernet header and FCS); the ICRC's value is ignored
     * @return the ICRC, in the form SetIcrc() takes
     */
    static uint32_t Compute(Ptr<const Packet> ipv4Packet);
    /**
     * Replace the ICRC trailer at the end of an IPv4 packet by one holding its computed ICRC.
     * @param ipv4Packet the IPv4 packet, from its IPv4 header to the end of its (placeholder)
     *        ICRC trailer
     */
    static void Stamp(Ptr<Packet> ipv4Packet);

    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator end) const override;
    uint32_t Deserialize(Buffer::Iterator end) override;

  private:
    uint32_t m_icrc; //!< ICRC, bytes in network order
};

} // namespace ns3

#endif // ROCE_ICRC_TRAILER_H
