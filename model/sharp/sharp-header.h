/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SHARP_HEADER_H
#define SHARP_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief The aggregation header of an in-network reduction's packets, 8 bytes, after the
 * transport's base header (InfiniBand: LRH, BTH with opcode BTH_OPCODE, this, the data, ICRC).
 *
 * @verbatim
   byte 0      Opcode: 1 reduce (a child's contribution, towards the root), 2 result (the
               reduced chunk, from the root down to every member)
   byte 1      Operation and data type (the model reduces no values: carried, not interpreted)
   bytes 2-3   Job: the aggregation tree the packet belongs to
   bytes 4-7   Sequence: the chunk's number within the job's buffer
   @endverbatim
 *
 * SHARP's packets carry their tree, operation, data type and a sequence in a header of their
 * own (Graham et al., "Scalable Hierarchical Aggregation Protocol (SHArP): a hardware
 * architecture for efficient data reduction", COMHPC 2016). Its exact layout is NVIDIA's and not
 * public; this one carries what the model needs in a size of the same order.
 */
class SharpHeader : public Header
{
  public:
    /// Opcode values.
    enum Opcode : uint8_t
    {
        REDUCE = 1, //!< a contribution, up the tree
        RESULT = 2  //!< the reduced chunk, down the tree
    };

    /// The BTH opcode of aggregation packets on InfiniBand: the first of the IBTA's
    /// manufacturer-specific opcodes (0xC0-0xFF), which no standard transport uses.
    static constexpr uint8_t BTH_OPCODE = 0xC0;

    /// Size on the wire.
    static constexpr uint32_t SIZE = 8;

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    SharpHeader();

    /// @param opcode reduce or result
    void SetOpcode(Opcode opcode);
    /// @return the opcode (as read: may be neither value)
    uint8_t GetOpcode() const;
    /// @param job the aggregation job (tree)
    void SetJob(uint16_t job);
    /// @return the job
    uint16_t GetJob() const;
    /// @param sequence the chunk's number
    void SetSequence(uint32_t sequence);
    /// @return the chunk's number
    uint32_t GetSequence() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

  private:
    uint8_t m_opcode;    //!< opcode
    uint8_t m_operation; //!< operation and data type (0: sum of FP32)
    uint16_t m_job;      //!< job
    uint32_t m_sequence; //!< chunk number
};

} // namespace ns3

#endif // SHARP_HEADER_H
