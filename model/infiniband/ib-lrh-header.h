/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_LRH_HEADER_H
#define IB_LRH_HEADER_H

#include "ns3/address.h"
#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief The InfiniBand Local Routing Header (LRH), 8 bytes: the first header of every packet
 * on an InfiniBand link (IBTA Vol. 1, chapter 7, "Local Routing Header").
 *
 * @verbatim
   byte 0      VL (4) | LVer (4)
   byte 1      SL (4) | reserved (2) | LNH (2)
   bytes 2-3   DLID (16)
   bytes 4-5   reserved (5) | PktLen (11): the packet's length in 4-byte words, LRH to ICRC
   bytes 6-7   SLID (16)
   @endverbatim
 *
 * LNH (link next header): 0 raw, 1 raw IPv6, 2 IBA local (BTH follows), 3 IBA global (GRH).
 */
class IbLrhHeader : public Header
{
  public:
    /// Link next header values.
    enum Lnh : uint8_t
    {
        RAW = 0,       //!< raw packet
        RAW_IPV6 = 1,  //!< raw IPv6
        IBA_LOCAL = 2, //!< BTH follows
        IBA_GLOBAL = 3 //!< GRH follows
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
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

    TypeId GetInstanceTypeId() const override;

    IbLrhHeader();

    /**
     * @param vl the VL @param sl the SL @param dlid destination LID @param slid source LID
     * @param inner bytes after the LRH, to the ICRC included
     * @return the LRH of a local (IBA_LOCAL: BTH next) packet, its PktLen from `inner`
     */
    static IbLrhHeader Local(uint8_t vl, uint8_t sl, uint16_t dlid, uint16_t slid, uint32_t inner);

    /// @param vl virtual lane 0..15
    void SetVl(uint8_t vl);
    /// @return the virtual lane
    uint8_t GetVl() const;
    /// @param sl service level 0..15
    void SetSl(uint8_t sl);
    /// @return the service level
    uint8_t GetSl() const;
    /// @param lnh link next header
    void SetLnh(Lnh lnh);
    /// @return link next header
    Lnh GetLnh() const;
    /// @param lid destination LID
    void SetDlid(uint16_t lid);
    /// @return destination LID
    uint16_t GetDlid() const;
    /// @param lid source LID
    void SetSlid(uint16_t lid);
    /// @return source LID
    uint16_t GetSlid() const;
    /// @param words packet length in 4-byte words, LRH to ICRC (11 bits)
    void SetPktLen(uint16_t words);
    /// @return packet length in 4-byte words
    uint16_t GetPktLen() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /// Size on the wire.
    static constexpr uint32_t SIZE = 8;

  private:
    uint8_t m_vl;      //!< VL
    uint8_t m_sl;      //!< SL
    Lnh m_lnh;         //!< LNH
    uint16_t m_dlid;   //!< DLID
    uint16_t m_slid;   //!< SLID
    uint16_t m_pktLen; //!< PktLen
};

/**
 * @ingroup interconnect
 * A LID as an ns3::Address (an address type of its own), so that a queue pair names its ends
 * the same way on every link (an Ipv4Address on RoCEv2).
 * @param lid the LID
 * @return the address
 */
Address IbLidAddress(uint16_t lid);

/**
 * @ingroup interconnect
 * @param address an address made by IbLidAddress
 * @return its LID (the program stops on any other address)
 */
uint16_t IbLidOf(const Address& address);

} // namespace ns3

#endif // IB_LRH_HEADER_H
