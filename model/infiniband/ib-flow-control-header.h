/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_FLOW_CONTROL_HEADER_H
#define IB_FLOW_CONTROL_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief The InfiniBand link-layer flow-control packet, 6 bytes (IBTA Vol. 1, chapter 7, link
 * layer, "flow control packet").
 *
 * @verbatim
   bits 0-3    Op (4): 0 normal, 1 initialization
   bits 4-15   FCTBS (12): flow control total blocks sent on the VL, modulo 4096
   bits 16-19  VL (4)
   bits 20-31  FCCL (12): flow control credit limit, modulo 4096
   bits 32-47  LPCRC (16): link packet CRC (not computed here: zero)
   @endverbatim
 *
 * A block is 64 bytes. The receiver advertises FCCL = adjusted blocks received + free receive
 * buffer blocks (modulo 4096); the sender may send a packet of B blocks on the VL when
 * (FCCL - (FCTBS + B)) mod 4096 <= 2048.
 *
 * So at most 2048 blocks (128 KiB) are outstanding on a VL, whatever the receive buffer: a
 * round trip of 2.6 us at 400 Gb/s. Long-haul InfiniBand goes through extenders (NVIDIA MetroX
 * and the like) that buffer the distance and carry the traffic over it with flow control of
 * their own. The EXTENDED form (Op 2, unused by the IBTA) stands for that: the same credit
 * protocol with 32-bit counters, modulo 2^32 with a window of 2^31 blocks, 12 bytes long:
 *
 * @verbatim
   bits 0-3    Op (4): 2
   bits 4-7    VL (4)
   bits 8-15   reserved
   bits 16-47  FCTBS (32)
   bits 48-79  FCCL (32)
   bits 80-95  LPCRC (16)
   @endverbatim
 */
class IbFlowControlHeader : public Header
{
  public:
    /// Op values.
    enum Op : uint8_t
    {
        NORMAL = 0,  //!< normal flow-control packet
        INIT = 1,    //!< initialization
        EXTENDED = 2 //!< not the IBTA's: a long-haul extender's credits, 32-bit counters
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    IbFlowControlHeader();

    /// @param op the Op field
    void SetOp(Op op);
    /// @return the Op field
    Op GetOp() const;
    /// @param vl the virtual lane, 0..15
    void SetVl(uint8_t vl);
    /// @return the virtual lane
    uint8_t GetVl() const;
    /// @param fctbs total blocks sent (only the low 12 bits are kept, but with EXTENDED)
    void SetFctbs(uint32_t fctbs);
    /// @return FCTBS, 0..4095 (EXTENDED: 32 bits)
    uint32_t GetFctbs() const;
    /// @param fccl credit limit (only the low 12 bits are kept, but with EXTENDED)
    void SetFccl(uint32_t fccl);
    /// @return FCCL, 0..4095 (EXTENDED: 32 bits)
    uint32_t GetFccl() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /// Size on the wire.
    static constexpr uint32_t SIZE = 6;
    /// Size on the wire of the EXTENDED form: Op and VL (2 bytes), FCTBS and FCCL (4 each),
    /// LPCRC (2).
    static constexpr uint32_t EXTENDED_SIZE = 12;

  private:
    Op m_op;          //!< Op
    uint32_t m_fctbs; //!< FCTBS (12 bits; EXTENDED: 32)
    uint8_t m_vl;     //!< VL (4 bits)
    uint32_t m_fccl;  //!< FCCL (12 bits; EXTENDED: 32)
};

} // namespace ns3

#endif // IB_FLOW_CONTROL_HEADER_H
