/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_TRANSPORT_H
#define RDMA_TRANSPORT_H

#include "ib-aeth-header.h"
#include "ib-bth-header.h"
#include "ib-reth-header.h"
#include "rdma-int-tag.h"
#include "rdma-queue-pair.h"

#include "ns3/header.h"
#include "ns3/packet.h"

#include <array>

namespace ns3
{

/**
 * @ingroup interconnect
 * A frame's headers as one ns-3 header: their bytes, written back to front (the innermost
 * first) and put on the packet with one AddHeader. ns-3 adds each header object with its own
 * buffer operation and its metadata; a RoCEv2 data packet has four (BTH, UDP, IPv4 and the
 * ICRC trailer). The bytes are those the header objects would write (test/packed-frame-test.cc
 * compares them): captures and everything that reads a frame see no difference. Adapters pack
 * only while ns-3's packet metadata is off (IsPacketMetadataEnabled); with
 * Packet::EnablePrinting or EnableChecking frames carry the header objects, so that printing
 * names them and checked RemoveHeader calls find them.
 */
class RdmaPackedHeader : public Header
{
  public:
    /// Bytes it can hold: a RoCEv2 frame's IPv4, UDP, BTH and RETH are 56.
    static constexpr uint32_t CAPACITY = 96;

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaPackedHeader();

    /**
     * Make room for a header in front of those written so far.
     * @param bytes its size
     * @return where to write it
     */
    uint8_t* Prepend(uint32_t bytes);

    /**
     * Set how many bytes Deserialize reads (a packed header does not say its size).
     * @param bytes the size
     */
    void SetSize(uint32_t bytes);

    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

  private:
    std::array<uint8_t, CAPACITY> m_bytes; //!< the headers, in m_bytes[m_start..]
    uint32_t m_start;                      //!< where the outermost header begins
};

/**
 * @ingroup interconnect
 * @return whether ns-3 records packet metadata (Packet::EnablePrinting or EnableChecking);
 *         adapters then frame packets with one header object per header
 */
bool IsPacketMetadataEnabled();

/**
 * @ingroup interconnect
 * @brief The selective acknowledgement an IRN NAK carries after its AETH: the PSN of the
 * packet whose arrival past a gap triggered the NAK (Mittal et al., "Revisiting Network Support
 * for RDMA", SIGCOMM 2018, section 3.1). Four bytes, laid out as the BTH's PSN word: 8 reserved
 * bits (0), then the 24-bit PSN. IRN is a proposal, not an IBTA header; its NAK is told apart
 * by its AETH's NAK code, IbAethHeader::IRN_SELECTIVE_NAK (reserved by IBTA).
 */
class IrnSackHeader : public Header
{
  public:
    /// The serialized size, in bytes.
    static constexpr uint32_t SIZE = 4;

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /// @param psn the PSN that arrived (24 bits)
    void SetPsn(uint32_t psn);
    /// @return the PSN that arrived
    uint32_t GetPsn() const;

    /// Write the 4 bytes. @param b where
    void Write(uint8_t* b) const;
    /// Read the 4 bytes. @param b from where
    void Read(const uint8_t* b);

    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

  private:
    uint32_t m_psn{0}; //!< the PSN, 24 bits
};

/**
 * @ingroup interconnect
 * The transport headers of a queue pair's packet: the BTH, then the RETH of a first request
 * and the AETH of an ACK or a READ response. RoCEv2 (RdmaNic) and native InfiniBand
 * (IbHostAdapter) share them; only what goes around them differs.
 */
struct RdmaTransportHeaders
{
    IbBth bth;           //!< base transport header
    IbReth reth;         //!< RDMA extended transport header, if hasReth
    IbAeth aeth;         //!< ACK extended transport header, if hasAeth
    uint32_t sackPsn{0}; //!< an IRN NAK's selective acknowledgement, if hasSack
    bool hasReth{false}; //!< a RETH follows the BTH
    bool hasAeth{false}; //!< an AETH follows the BTH (and the RETH)
    bool hasSack{false}; //!< an IrnSackHeader follows the AETH (an IRN NAK)
    // (Plain fields, not ns-3 Header objects, so that the per-packet path builds none: AddTo
    // makes the header objects.)

    /**
     * The headers of a request or READ response.
     * @param d what the queue pair sends
     * @param destQp the peer's QPN (also the RETH's R_Key)
     * @return the headers
     */
    static RdmaTransportHeaders ForPacket(const RdmaTxDescriptor& d, uint32_t destQp);
    /**
     * The headers of an ACK or a NAK (PSN sequence error).
     * @param destQp the requester's QPN
     * @param psn the PSN acknowledged, or the expected PSN of a NAK
     * @param nak a NAK
     * @param msn the responder's MSN
     * @param becn mark BECN (the acknowledged data arrived CE-marked; IBTA annex A10)
     * @return the headers
     */
    static RdmaTransportHeaders ForAck(uint32_t destQp,
                                       uint32_t psn,
                                       bool nak,
                                       uint32_t msn,
                                       bool becn);
    /**
     * The headers of an IRN NAK: an ACKNOWLEDGE whose AETH says IRN_SELECTIVE_NAK, and the PSN
     * that triggered it; or, trimmed, a NAK whose AETH says TRIMMED_NAK and the PSN whose
     * payload a switch trimmed.
     * @param destQp the requester's QPN
     * @param expected the responder's expected PSN (the cumulative acknowledgement)
     * @param sacked the PSN that arrived past the gap (trimmed: the trimmed packet's)
     * @param msn the responder's MSN
     * @param becn mark BECN
     * @param trimmed a trimmed packet's NAK
     * @return the headers
     */
    static RdmaTransportHeaders ForSelectiveNak(uint32_t destQp,
                                                uint32_t expected,
                                                uint32_t sacked,
                                                uint32_t msn,
                                                bool becn,
                                                bool trimmed = false);

    /// @return their size on the wire
    uint32_t GetSerializedSize() const;
    /**
     * Put them on a packet as header objects.
     * @param packet the payload (and ICRC)
     */
    void AddTo(Ptr<Packet> packet) const;
    /**
     * Write them in front of what a packed header holds.
     * @param packed the header
     */
    void WriteTo(RdmaPackedHeader& packed) const;
    /**
     * Read them from a frame's bytes at its BTH; which extension headers follow is the
     * opcode's (IbBthHeader::HasReth, HasAeth), and an AETH's NAK code's (IrnSackHeader).
     * @param b the bytes
     * @param n how many there are
     * @return the bytes the headers take, or 0 if there are too few
     */
    uint32_t ReadFrom(const uint8_t* b, uint32_t n);
};

/**
 * @ingroup interconnect
 * What a transport packet did to its queue pair.
 */
struct RdmaDelivery
{
    RdmaRxVerdict verdict{}; //!< a request's verdict: the ACK or NAK to send, if any
    bool activate{false};    //!< the queue pair may have something new to send
};

/**
 * @ingroup interconnect
 * Hand a transport packet to its queue pair: an ACK or NAK, a READ response, or a request
 * (WRITE, SEND, READ request).
 * @param qp the queue pair the BTH names
 * @param headers the packet's transport headers
 * @param payload its payload bytes (without headers and ICRC)
 * @param ce the packet arrived CE-marked
 * @param intStack the packet's INT records, if any
 * @return what happened
 */
RdmaDelivery DeliverRdmaPacket(Ptr<RdmaQueuePair> qp,
                               const RdmaTransportHeaders& headers,
                               uint32_t payload,
                               bool ce,
                               const RdmaIntTag* intStack);

} // namespace ns3

#endif // RDMA_TRANSPORT_H
