/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_BTH_HEADER_H
#define IB_BTH_HEADER_H

#include "ns3/header.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief The InfiniBand Base Transport Header (BTH), 12 bytes.
 *
 * Every InfiniBand transport packet, native or carried in UDP/IPv4 as RoCEv2 (destination port
 * 4791), starts with this header (IBTA Vol. 1, section 9.2, "Base Transport Header"). Layout, in
 * network byte order, most significant bit first:
 *
 * @verbatim
   byte 0      OpCode (8)
   byte 1      SE (1) | M (1) | PadCnt (2) | TVer (4)
   bytes 2-3   P_Key (16)
   byte 4      F (1) | B (1) | reserved (6)      (resv8a in IBA; FECN/BECN per IBA 1.2.1
                                                 annex A10 and RoCEv2 annex A17)
   bytes 5-7   DestQP (24)
   byte 8      A (1) | reserved (7)
   bytes 9-11  PSN (24)
   @endverbatim
 *
 * Reserved bits are transmitted as zero and ignored on receive.
 *
 * The opcode constants name the Reliable Connection (RC) operations of IBTA Vol. 1, 9.2.1 (OpCode)
 * (transport bits 7:5 = 000) and the RoCEv2 Congestion Notification Packet (annex A17.9.3). The
 * static predicates describe those opcodes; they return false for any other transport.
 */
class IbBth
{
  public:
    /// @name Reliable Connection opcodes (IBTA Vol. 1, 9.2.1)
    /// @{
    static constexpr uint8_t RC_SEND_FIRST = 0x00;           //!< SEND First
    static constexpr uint8_t RC_SEND_MIDDLE = 0x01;          //!< SEND Middle
    static constexpr uint8_t RC_SEND_LAST = 0x02;            //!< SEND Last
    static constexpr uint8_t RC_SEND_LAST_IMM = 0x03;        //!< SEND Last with Immediate
    static constexpr uint8_t RC_SEND_ONLY = 0x04;            //!< SEND Only
    static constexpr uint8_t RC_SEND_ONLY_IMM = 0x05;        //!< SEND Only with Immediate
    static constexpr uint8_t RC_WRITE_FIRST = 0x06;          //!< RDMA WRITE First (RETH)
    static constexpr uint8_t RC_WRITE_MIDDLE = 0x07;         //!< RDMA WRITE Middle
    static constexpr uint8_t RC_WRITE_LAST = 0x08;           //!< RDMA WRITE Last
    static constexpr uint8_t RC_WRITE_LAST_IMM = 0x09;       //!< RDMA WRITE Last with Immediate
    static constexpr uint8_t RC_WRITE_ONLY = 0x0A;           //!< RDMA WRITE Only (RETH)
    static constexpr uint8_t RC_WRITE_ONLY_IMM = 0x0B;       //!< RDMA WRITE Only with Immediate
    static constexpr uint8_t RC_READ_REQUEST = 0x0C;         //!< RDMA READ Request (RETH)
    static constexpr uint8_t RC_READ_RESPONSE_FIRST = 0x0D;  //!< RDMA READ Response First (AETH)
    static constexpr uint8_t RC_READ_RESPONSE_MIDDLE = 0x0E; //!< RDMA READ Response Middle
    static constexpr uint8_t RC_READ_RESPONSE_LAST = 0x0F;   //!< RDMA READ Response Last (AETH)
    static constexpr uint8_t RC_READ_RESPONSE_ONLY = 0x10;   //!< RDMA READ Response Only (AETH)
    static constexpr uint8_t RC_ACKNOWLEDGE = 0x11;          //!< Acknowledge (AETH)
    /// @}

    /// RoCEv2 Congestion Notification Packet (IBTA RoCEv2 annex A17.9.3): BTH with BECN set,
    /// 16 reserved bytes, ICRC.
    static constexpr uint8_t ROCE_CNP = 0x81;
    /// InfiniBand Congestion Notification Packet (IBTA annex A10, opcode class CNP, 100 00000):
    /// BTH with BECN set, 16 reserved bytes, ICRC.
    static constexpr uint8_t IB_CNP = 0x80;

    /// The serialized size of the header, in bytes.
    static constexpr uint32_t SIZE = 12;
    /// The largest value of a 24-bit field (DestQP, PSN).
    static constexpr uint32_t MAX_24BIT = 0xFFFFFF;
    /// The default partition key (full member of the default partition, IBTA Vol. 1).
    static constexpr uint16_t DEFAULT_PKEY = 0xFFFF;

    /// A header with every field zero (opcode RC_SEND_FIRST) except P_Key (DEFAULT_PKEY).
    IbBth() = default;

    /// @param opcode the OpCode (8 bits)
    void SetOpcode(uint8_t opcode);

    /// @return the OpCode
    uint8_t GetOpcode() const
    {
        return m_opcode;
    }

    /// @param se the Solicited Event bit
    void SetSolicitedEvent(bool se);

    /// @return the Solicited Event bit
    bool GetSolicitedEvent() const
    {
        return m_se;
    }

    /// @param migReq the MigReq bit (path migration state)
    void SetMigReq(bool migReq);

    /// @return the MigReq bit
    bool GetMigReq() const
    {
        return m_migReq;
    }

    /// @param padCount the number of pad bytes (0..3) that align the payload to 4 bytes
    void SetPadCount(uint8_t padCount);

    /// @return the pad count (0..3)
    uint8_t GetPadCount() const
    {
        return m_padCount;
    }

    /// @param tver the transport header version (0..15; IBA defines 0)
    void SetTver(uint8_t tver);

    /// @return the transport header version
    uint8_t GetTver() const
    {
        return m_tver;
    }

    /// @param pkey the partition key
    void SetPkey(uint16_t pkey);

    /// @return the partition key
    uint16_t GetPkey() const
    {
        return m_pkey;
    }

    /// @param fecn the FECN bit: the packet went through a point of congestion
    void SetFecn(bool fecn);

    /// @return the FECN bit
    bool GetFecn() const
    {
        return m_fecn;
    }

    /// @param becn the BECN bit (set in CNPs and, in native IB, in responses to FECN)
    void SetBecn(bool becn);

    /// @return the BECN bit
    bool GetBecn() const
    {
        return m_becn;
    }

    /// @param destQp the destination queue pair number (24 bits)
    void SetDestQp(uint32_t destQp);

    /// @return the destination queue pair number
    uint32_t GetDestQp() const
    {
        return m_destQp;
    }

    /// @param ackRequest the AckReq bit: the requester asks the responder to acknowledge
    void SetAckRequest(bool ackRequest);

    /// @return the AckReq bit
    bool GetAckRequest() const
    {
        return m_ackRequest;
    }

    /// @param psn the packet sequence number (24 bits)
    void SetPsn(uint32_t psn);

    /// @return the packet sequence number
    uint32_t GetPsn() const
    {
        return m_psn;
    }

    /**
     * @param opcode a BTH opcode
     * @return true if a RETH follows the BTH: RDMA WRITE First, Only, Only with Immediate and
     *         RDMA READ Request (IBTA Vol. 1, 9.2.1)
     */
    static bool HasReth(uint8_t opcode);
    /**
     * @param opcode a BTH opcode
     * @return true if an AETH follows the BTH: Acknowledge and RDMA READ Response First, Last
     *         and Only (IBTA Vol. 1, 9.2.1)
     */
    static bool HasAeth(uint8_t opcode);
    /**
     * @param opcode a BTH opcode
     * @return true if a 4-byte Immediate Data header (ImmDt) follows the BTH (and RETH):
     *         SEND and RDMA WRITE Last/Only with Immediate
     */
    static bool HasImmediate(uint8_t opcode);
    /**
     * @param opcode a BTH opcode
     * @return true if the packet starts a multi- or single-packet message: the First and Only
     *         opcodes of SEND, RDMA WRITE and RDMA READ Response; false for READ Request,
     *         Acknowledge and CNP
     */
    static bool IsFirst(uint8_t opcode);
    /**
     * @param opcode a BTH opcode
     * @return true if the packet ends a message: the Last and Only opcodes (with or without
     *         Immediate) of SEND, RDMA WRITE and RDMA READ Response; false for READ Request,
     *         Acknowledge and CNP
     */
    static bool IsLast(uint8_t opcode);
    /**
     * @param opcode a BTH opcode
     * @return true for the RC SEND opcodes (0x00..0x05)
     */
    static bool IsSend(uint8_t opcode);
    /**
     * @param opcode a BTH opcode
     * @return true for the RC RDMA WRITE opcodes (0x06..0x0B)
     */
    static bool IsWrite(uint8_t opcode);
    /**
     * @param opcode a BTH opcode
     * @return true for the RC RDMA READ Response opcodes (0x0D..0x10)
     */
    static bool IsReadResponse(uint8_t opcode);
    /**
     * @param opcode a BTH opcode
     * @return true for the RC opcodes that carry data: SEND, RDMA WRITE and READ Response (not
     *         READ Request, ACKNOWLEDGE or CNP)
     */
    static bool CarriesData(uint8_t opcode);
    /**
     * @param opcode a BTH opcode
     * @return the name of its constant here (e.g. "RC_WRITE_ONLY", "ROCE_CNP"), or
     *         "UNKNOWN_0xNN" for an opcode without one
     */
    static std::string OpcodeName(uint8_t opcode);

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
    uint8_t m_opcode{RC_SEND_FIRST}; //!< OpCode
    bool m_se{false};                //!< Solicited Event
    bool m_migReq{false};            //!< MigReq
    uint8_t m_padCount{0};           //!< PadCnt, 0..3
    uint8_t m_tver{0};               //!< TVer, 0..15
    uint16_t m_pkey{DEFAULT_PKEY};   //!< P_Key
    bool m_fecn{false};              //!< FECN (bit 7 of byte 4)
    bool m_becn{false};              //!< BECN (bit 6 of byte 4)
    uint32_t m_destQp{0};            //!< DestQP, 24 bits
    bool m_ackRequest{false};        //!< AckReq
    uint32_t m_psn{0};               //!< PSN, 24 bits
};

/**
 * @ingroup interconnect
 * @brief The BTH as an ns-3 Header, to put on a packet and print.
 *
 * The per-packet path builds and reads the plain IbBth instead (RdmaTransportHeaders): an
 * ns-3 Header's construction and destruction go through ObjectBase, whose destructor checks a
 * log level in Debian's ns-3 (some 80 instructions a header: 3.5% of perm128's event loop).
 */
class IbBthHeader : public Header, public IbBth
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /// As IbBth().
    IbBthHeader();
    /// @param fields the header's fields
    explicit IbBthHeader(const IbBth& fields);

    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
};

} // namespace ns3

#endif // IB_BTH_HEADER_H
