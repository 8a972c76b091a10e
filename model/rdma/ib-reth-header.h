/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_RETH_HEADER_H
#define IB_RETH_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief The InfiniBand RDMA Extended Transport Header (RETH), 16 bytes.
 *
 * Follows the BTH of RDMA WRITE First/Only and RDMA READ Request packets
 * (IbBthHeader::HasReth) and names the remote buffer of the operation (IBTA Vol. 1, 9.3.3).
 * Layout, in network byte order:
 *
 * @verbatim
   bytes 0-7    Virtual Address (64)
   bytes 8-11   R_Key (32)
   bytes 12-15  DMA Length (32), in bytes, of the whole RDMA operation
   @endverbatim
 */
class IbReth
{
  public:
    /// The serialized size of the header, in bytes.
    static constexpr uint32_t SIZE = 16;

    /// A header with every field zero.
    IbReth() = default;

    /// @param va the virtual address of the remote buffer
    void SetVirtualAddress(uint64_t va);

    /// @return the virtual address of the remote buffer
    uint64_t GetVirtualAddress() const
    {
        return m_virtualAddress;
    }

    /// @param rkey the remote key that authorises access to the buffer
    void SetRkey(uint32_t rkey);

    /// @return the remote key
    uint32_t GetRkey() const
    {
        return m_rkey;
    }

    /// @param length the length of the whole RDMA operation, in bytes
    void SetDmaLength(uint32_t length);

    /// @return the length of the whole RDMA operation, in bytes
    uint32_t GetDmaLength() const
    {
        return m_dmaLength;
    }

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
    uint64_t m_virtualAddress{0}; //!< Virtual Address
    uint32_t m_rkey{0};           //!< R_Key
    uint32_t m_dmaLength{0};      //!< DMA Length, bytes
};

/**
 * @ingroup interconnect
 * @brief The RETH as an ns-3 Header, to put on a packet and print.
 *
 * The per-packet path builds and reads the plain IbReth instead (RdmaTransportHeaders): an
 * ns-3 Header's construction and destruction go through ObjectBase, whose destructor checks a
 * log level in Debian's ns-3 (some 80 instructions a header: 3.5% of perm128's event loop).
 */
class IbRethHeader : public Header, public IbReth
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /// As IbReth().
    IbRethHeader();
    /// @param fields the header's fields
    explicit IbRethHeader(const IbReth& fields);

    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
};

} // namespace ns3

#endif // IB_RETH_HEADER_H
