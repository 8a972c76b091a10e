/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IWARP_READ_REQUEST_HEADER_H
#define IWARP_READ_REQUEST_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief The RDMAP Read Request header (RFC 5040, section 4.4), the 28-byte payload of an
 * untagged DDP segment on queue 1.
 *
 * @verbatim
   bytes 0-3    Data Sink STag       where the Read Responses go (the requester's buffer)
   bytes 4-11   Data Sink Tagged Offset
   bytes 12-15  RDMA Read Message Size
   bytes 16-19  Data Source STag     what is read (the responder's buffer)
   bytes 20-27  Data Source Tagged Offset
   @endverbatim
 */
class IwarpReadRequestHeader : public Header
{
  public:
    /// Its size.
    static constexpr uint32_t SIZE = 28;

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    IwarpReadRequestHeader();

    /// @param stag the data sink STag
    void SetSinkStag(uint32_t stag);
    /// @return the data sink STag
    uint32_t GetSinkStag() const;
    /// @param to the data sink tagged offset
    void SetSinkOffset(uint64_t to);
    /// @return the data sink tagged offset
    uint64_t GetSinkOffset() const;
    /// @param size the bytes to read
    void SetSize(uint32_t size);
    /// @return the bytes to read
    uint32_t GetSize() const;
    /// @param stag the data source STag
    void SetSourceStag(uint32_t stag);
    /// @return the data source STag
    uint32_t GetSourceStag() const;
    /// @param to the data source tagged offset
    void SetSourceOffset(uint64_t to);
    /// @return the data source tagged offset
    uint64_t GetSourceOffset() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

  private:
    uint32_t m_sinkStag;   //!< data sink STag
    uint64_t m_sinkTo;     //!< data sink TO
    uint32_t m_size;       //!< RDMA Read Message Size
    uint32_t m_sourceStag; //!< data source STag
    uint64_t m_sourceTo;   //!< data source TO
};

} // namespace ns3

#endif // IWARP_READ_REQUEST_HEADER_H
