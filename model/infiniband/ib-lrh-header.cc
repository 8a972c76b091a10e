/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-lrh-header.h"

#include "ns3/abort.h"
#include "ns3/interconnect-compat.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(IbLrhHeader);

TypeId
IbLrhHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbLrhHeader")
                            .SetParent<Header>()
                            .SetGroupName("Interconnect")
                            .AddConstructor<IbLrhHeader>();
    return tid;
}

TypeId
IbLrhHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

IbLrhHeader::IbLrhHeader()
    : m_vl(0),
      m_sl(0),
      m_lnh(IBA_LOCAL),
      m_dlid(0),
      m_slid(0),
      m_pktLen(0)
{
}

IbLrhHeader
IbLrhHeader::Local(uint8_t vl, uint8_t sl, uint16_t dlid, uint16_t slid, uint32_t inner)
{
    IbLrhHeader lrh;
    lrh.SetVl(vl);
    lrh.SetSl(sl);
    lrh.SetLnh(IBA_LOCAL);
    lrh.SetDlid(dlid);
    lrh.SetSlid(slid);
    lrh.SetPktLen(static_cast<uint16_t>((inner + SIZE + 3) / 4));
    return lrh;
}

void
IbLrhHeader::SetVl(uint8_t vl)
{
    NS_ABORT_MSG_IF(vl > 15, "IbLrhHeader: VL " << +vl << " out of 0..15");
    m_vl = vl;
}

uint8_t
IbLrhHeader::GetVl() const
{
    return m_vl;
}

void
IbLrhHeader::SetSl(uint8_t sl)
{
    NS_ABORT_MSG_IF(sl > 15, "IbLrhHeader: SL " << +sl << " out of 0..15");
    m_sl = sl;
}

uint8_t
IbLrhHeader::GetSl() const
{
    return m_sl;
}

void
IbLrhHeader::SetLnh(Lnh lnh)
{
    m_lnh = lnh;
}

IbLrhHeader::Lnh
IbLrhHeader::GetLnh() const
{
    return m_lnh;
}

void
IbLrhHeader::SetDlid(uint16_t lid)
{
    m_dlid = lid;
}

uint16_t
IbLrhHeader::GetDlid() const
{
    return m_dlid;
}

void
IbLrhHeader::SetSlid(uint16_t lid)
{
    m_slid = lid;
}

uint16_t
IbLrhHeader::GetSlid() const
{
    return m_slid;
}

void
IbLrhHeader::SetPktLen(uint16_t words)
{
    NS_ABORT_MSG_IF(words > 0x7FF, "IbLrhHeader: PktLen " << words << " exceeds 11 bits");
    m_pktLen = words;
}

uint16_t
IbLrhHeader::GetPktLen() const
{
    return m_pktLen;
}

uint32_t
IbLrhHeader::GetSerializedSize() const
{
    return SIZE;
}

void
IbLrhHeader::Write(uint8_t* b) const
{
    b[0] = static_cast<uint8_t>(m_vl << 4); // LVer 0
    b[1] = static_cast<uint8_t>((m_sl << 4) | m_lnh);
    b[2] = static_cast<uint8_t>(m_dlid >> 8);
    b[3] = static_cast<uint8_t>(m_dlid);
    b[4] = static_cast<uint8_t>((m_pktLen & 0x7FF) >> 8);
    b[5] = static_cast<uint8_t>(m_pktLen);
    b[6] = static_cast<uint8_t>(m_slid >> 8);
    b[7] = static_cast<uint8_t>(m_slid);
}

void
IbLrhHeader::Read(const uint8_t* b)
{
    m_vl = b[0] >> 4;
    m_sl = b[1] >> 4;
    m_lnh = static_cast<Lnh>(b[1] & 0x03);
    m_dlid = static_cast<uint16_t>((b[2] << 8) | b[3]);
    m_pktLen = static_cast<uint16_t>(((b[4] << 8) | b[5]) & 0x7FF);
    m_slid = static_cast<uint16_t>((b[6] << 8) | b[7]);
}

void
IbLrhHeader::Serialize(Buffer::Iterator start) const
{
    uint8_t b[SIZE];
    Write(b);
    start.Write(b, SIZE);
}

uint32_t
IbLrhHeader::Deserialize(Buffer::Iterator start)
{
    uint8_t b[SIZE];
    start.Read(b, SIZE);
    Read(b);
    return SIZE;
}

void
IbLrhHeader::Print(std::ostream& os) const
{
    os << "LRH vl=" << +m_vl << " sl=" << +m_sl << " lnh=" << +m_lnh << " dlid=" << m_dlid
       << " slid=" << m_slid << " len=" << m_pktLen * 4;
}

namespace
{
/// The Address type of LIDs, registered on first use.
uint8_t
LidAddressType()
{
#if INTERCONNECT_NS3_AT_LEAST(47)
    static const uint8_t type = Address::Register("IbLid", 2); // named, with its length, since 3.47
#else
    static const uint8_t type = Address::Register();
#endif
    return type;
}
} // namespace

Address
IbLidAddress(uint16_t lid)
{
    const uint8_t bytes[2] = {static_cast<uint8_t>(lid >> 8), static_cast<uint8_t>(lid & 0xFF)};
    return Address(LidAddressType(), bytes, 2);
}

uint16_t
IbLidOf(const Address& address)
{
    NS_ABORT_MSG_UNLESS(address.CheckCompatible(LidAddressType(), 2),
                        "IbLidOf: " << address << " is not a LID");
    uint8_t bytes[2];
    address.CopyTo(bytes);
    return static_cast<uint16_t>((bytes[0] << 8) | bytes[1]);
}

} // namespace ns3
