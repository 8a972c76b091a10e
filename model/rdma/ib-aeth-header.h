/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_AETH_HEADER_H
#define IB_AETH_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief The InfiniBand ACK Extended Transport Header (AETH), 4 bytes.
 *
 * Follows the BTH of Acknowledge and RDMA READ Response First/Last/Only packets
 * (IbBthHeader::HasAeth) and tells the requester how its requests fared (IBTA Vol. 1, 9.3.5 and
 * 9.7.5.1). Layout, in network byte order:
 *
 * @verbatim
   byte 0      Syndrome (8)
   bytes 1-3   MSN (24): Message Sequence Number of the last completed request message
   @endverbatim
 *
 * The syndrome (IBTA Vol. 1, 9.7.5.1):
 *
 * @verbatim
   bit 7       reserved, 0
   bits 6:5    type: 00 ACK, 01 RNR NAK, 10 reserved, 11 NAK
   bits 4:0    ACK: credit count (encoded; 11111b = invalid, i.e. end-to-end flow control off)
               RNR NAK: RNR timer code
               NAK: NAK code (NakCode)
   @endverbatim
 *
 * Setting a value that does not fit its field (syndrome bit 7, MSN above 24 bits, credit count or
 * RNR timer above 31) is a programming error caught by NS_ASSERT. Deserialize accepts any byte
 * as syndrome: a reserved type then answers false to IsAck(), IsNak() and IsRnrNak().
 */
class IbAeth
{
  public:
    /// The NAK codes of the syndrome's low 5 bits (IBTA Vol. 1, 9.7.5.1).
    enum NakCode : uint8_t
    {
        PSN_SEQUENCE_ERROR = 0,       //!< a request arrived with a PSN beyond the expected one
        INVALID_REQUEST = 1,          //!< unsupported or malformed request
        REMOTE_ACCESS_ERROR = 2,      //!< R_Key / address / length check failed
        REMOTE_OPERATIONAL_ERROR = 3, //!< the responder could not complete the request
        INVALID_RD_REQUEST = 4,       //!< invalid Reliable Datagram request
        /// Reserved by IBTA (5..31); this model's IRN NAK (Mittal et al., SIGCOMM 2018,
        /// section 3.1): an IrnSackHeader with the PSN that triggered it follows the AETH.
        IRN_SELECTIVE_NAK = 5,
        /// Reserved by IBTA; this model's NAK for a trimmed packet (NDP, Handley et al.
        /// SIGCOMM 2017; UEC 1.0's trimming): an IrnSackHeader names the trimmed PSN.
        TRIMMED_NAK = 6,
    };

    /// The serialized size of the header, in bytes.
    static constexpr uint32_t SIZE = 4;
    /// The largest Message Sequence Number (24 bits).
    static constexpr uint32_t MAX_MSN = 0xFFFFFF;
    /// The credit count value meaning "invalid": no end-to-end credit information.
    static constexpr uint8_t CREDITS_INVALID = 0x1F;

    /// An ACK with credit count 0 and MSN 0 (syndrome 0x00).
    IbAeth() = default;

    /// @param syndrome the raw syndrome byte (bit 7 must be 0)
    void SetSyndrome(uint8_t syndrome);

    /// @return the raw syndrome byte
    uint8_t GetSyndrome() const
    {
        return m_syndrome;
    }

    /// @param msn the Message Sequence Number (24 bits)
    void SetMsn(uint32_t msn);

    /// @return the Message Sequence Number
    uint32_t GetMsn() const
    {
        return m_msn;
    }

    /**
     * Make the syndrome an ACK (type 00).
     * @param credits the encoded credit count (0..31; CREDITS_INVALID when not used)
     */
    void SetAck(uint8_t credits);
    /**
     * Make the syndrome a NAK (type 11).
     * @param code the NAK code
     */
    void SetNak(NakCode code);
    /**
     * Make the syndrome an RNR NAK (type 01): the responder was Receiver Not Ready.
     * @param timerCode the encoded minimum RNR NAK timer (0..31, encoded as IBTA Vol. 1 specifies)
     */
    void SetRnrNak(uint8_t timerCode);

    /// @return true if the syndrome is an ACK
    bool IsAck() const;
    /// @return true if the syndrome is a NAK (not an RNR NAK)
    bool IsNak() const;
    /// @return true if the syndrome is an RNR NAK
    bool IsRnrNak() const;

    /**
     * @return the NAK code (the syndrome's low 5 bits); only meaningful when IsNak(), asserted.
     * A code above INVALID_RD_REQUEST (reserved by IBTA) is returned as read.
     */
    NakCode GetNakCode() const;
    /// @return the encoded credit count; only meaningful when IsAck(), asserted
    uint8_t GetCreditCount() const;
    /// @return the encoded RNR timer; only meaningful when IsRnrNak(), asserted
    uint8_t GetRnrTimer() const;

    /**
     * Write the header's SIZE bytes as they go on the wire (what Serialize writes).
     * @param b where to write them
     */
    void Write(uint8_t* b) const;
    /**
     * Read the header from its SIZE bytes on the wire (what Deserialize reads).
     * @param b the bytes
     */
    void Read(const uint8_t* b);

  private:
    uint8_t m_syndrome{0}; //!< Syndrome
    uint32_t m_msn{0};     //!< MSN, 24 bits
};

/**
 * @ingroup interconnect
 * @brief The AETH as an ns-3 Header, to put on a packet and print.
 *
 * The per-packet path builds and reads the plain IbAeth instead (RdmaTransportHeaders): an
 * ns-3 Header's construction and destruction go through ObjectBase, whose destructor checks a
 * log level in Debian's ns-3 (some 80 instructions a header: 3.5% of perm128's event loop).
 */
class IbAethHeader : public Header, public IbAeth
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /// As IbAeth().
    IbAethHeader();
    /// @param fields the header's fields
    explicit IbAethHeader(const IbAeth& fields);

    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
};

} // namespace ns3

#endif // IB_AETH_HEADER_H
