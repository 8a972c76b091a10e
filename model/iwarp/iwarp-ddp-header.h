/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IWARP_DDP_HEADER_H
#define IWARP_DDP_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief A DDP segment header (RFC 5041) with the RDMAP control field (RFC 5040) in its first
 * reserved-for-the-ULP byte.
 *
 * @verbatim
   byte 0       T (1) | L (1) | Rsvd (4) | DV (2) = 1           DDP control
   byte 1       RV (2) = 1 | Rsv (2) | Opcode (4)                RDMAP control
   tagged (T = 1), 14 bytes:
     bytes 2-5    STag
     bytes 6-13   TO (tagged offset)
   untagged (T = 0), 18 bytes:
     bytes 2-5    RsvdULP (RDMAP: the STag to invalidate, Send with Invalidate)
     bytes 6-9    QN (queue number)
     bytes 10-13  MSN (message sequence number)
     bytes 14-17  MO (message offset)
   @endverbatim
 *
 * RDMAP opcodes: RDMA Write (tagged), Read Request (untagged, QN 1), Read Response (tagged),
 * Send and its variants (untagged, QN 0), Terminate (untagged, QN 2).
 */
class IwarpDdpHeader : public Header
{
  public:
    /// RDMAP opcodes (RFC 5040).
    enum Opcode : uint8_t
    {
        RDMA_WRITE = 0,
        RDMA_READ_REQUEST = 1,
        RDMA_READ_RESPONSE = 2,
        SEND = 3,
        SEND_INVALIDATE = 4,
        SEND_SE = 5,
        SEND_SE_INVALIDATE = 6,
        TERMINATE = 7
    };

    /// Untagged queue numbers (RFC 5040).
    enum Queue : uint32_t
    {
        QN_SEND = 0,         //!< Send and its variants
        QN_READ_REQUEST = 1, //!< RDMA Read Requests
        QN_TERMINATE = 2     //!< Terminate
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    IwarpDdpHeader();

    /// @param tagged a tagged segment (STag, TO) or an untagged one (QN, MSN, MO)
    void SetTagged(bool tagged);
    /// @return true if tagged
    bool IsTagged() const;
    /// @param last the last segment of its message
    void SetLast(bool last);
    /// @return true if the last segment
    bool IsLast() const;
    /// @param opcode the RDMAP opcode
    void SetOpcode(Opcode opcode);
    /// @return the RDMAP opcode
    Opcode GetOpcode() const;
    /// @param stag the steering tag (tagged)
    void SetStag(uint32_t stag);
    /// @return the steering tag
    uint32_t GetStag() const;
    /// @param to the tagged offset (tagged)
    void SetTaggedOffset(uint64_t to);
    /// @return the tagged offset
    uint64_t GetTaggedOffset() const;
    /// @param stag the STag a Send with Invalidate invalidates (untagged)
    void SetInvalidateStag(uint32_t stag);
    /// @return that STag
    uint32_t GetInvalidateStag() const;
    /// @param qn queue number (untagged)
    void SetQueueNumber(uint32_t qn);
    /// @return queue number
    uint32_t GetQueueNumber() const;
    /// @param msn message sequence number (untagged)
    void SetMsn(uint32_t msn);
    /// @return message sequence number
    uint32_t GetMsn() const;
    /// @param mo message offset (untagged)
    void SetMessageOffset(uint32_t mo);
    /// @return message offset
    uint32_t GetMessageOffset() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /// Size of a tagged header.
    static constexpr uint32_t TAGGED_SIZE = 14;
    /// Size of an untagged header.
    static constexpr uint32_t UNTAGGED_SIZE = 18;

  private:
    bool m_tagged;         //!< T
    bool m_last;           //!< L
    Opcode m_opcode;       //!< RDMAP opcode
    uint32_t m_stag;       //!< STag (tagged)
    uint64_t m_to;         //!< TO (tagged)
    uint32_t m_invalidate; //!< RsvdULP (untagged)
    uint32_t m_qn;         //!< QN (untagged)
    uint32_t m_msn;        //!< MSN (untagged)
    uint32_t m_mo;         //!< MO (untagged)
};

} // namespace ns3

#endif // IWARP_DDP_HEADER_H
