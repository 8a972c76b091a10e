/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IWARP_TERMINATE_HEADER_H
#define IWARP_TERMINATE_HEADER_H

#include "ns3/header.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief The RDMAP Terminate control field (RFC 5040, section 4.8), the payload of an untagged
 * DDP segment on queue 2: which layer found the error, its type and its code.
 *
 * @verbatim
   bits 0-3    Layer       0 RDMAP, 1 DDP, 2 LLP (MPA, TCP)
   bits 4-7    EType       error type within the layer
   bits 8-15   Error Code
   bit 16-18   M, D, H     a copy of the offending headers follows (this model sends none: 0)
   bits 19-31  reserved
   @endverbatim
 *
 * The codes this model raises (RFC 5040 section 7.2, RFC 5041 section 7.2, RFC 5044 section 8):
 * LLP/0/0x02 MPA CRC error; LLP/0/0x03 marker and ULPDU length mismatch; LLP/0/0x04 invalid MPA
 * request or reply; DDP/0/0x00 local catastrophic (a ULPDU shorter than its DDP header);
 * DDP/1/0x00 invalid STag; DDP/1/0x01 base or bounds violation (a tagged offset out of order);
 * DDP/1/0x04 and DDP/2/0x06 invalid DDP version; DDP/2/0x01 invalid queue number; DDP/2/0x03
 * invalid MSN; DDP/2/0x04 invalid MO; RDMAP/2/0x05 invalid RDMAP version; RDMAP/2/0x06 unexpected
 * opcode.
 */
class IwarpTerminateHeader : public Header
{
  public:
    /// The layers.
    enum Layer : uint8_t
    {
        RDMAP = 0,
        DDP = 1,
        LLP = 2
    };

    /// Its size (the control field and its reserved bits).
    static constexpr uint32_t SIZE = 4;

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    IwarpTerminateHeader();

    /**
     * @param layer the layer
     * @param etype the error type (0..15)
     * @param code the error code
     */
    IwarpTerminateHeader(Layer layer, uint8_t etype, uint8_t code);

    /// @return the layer
    Layer GetLayer() const;
    /// @return the error type
    uint8_t GetErrorType() const;
    /// @return the error code
    uint8_t GetErrorCode() const;
    /// @return "LLP/0/0x02 (MPA CRC error)" and the like
    std::string Describe() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

  private:
    Layer m_layer;  //!< layer
    uint8_t m_type; //!< EType
    uint8_t m_code; //!< error code
};

} // namespace ns3

#endif // IWARP_TERMINATE_HEADER_H
