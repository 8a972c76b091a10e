/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-flow-control-header.h"

#include "ns3/abort.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(IbFlowControlHeader);

TypeId
IbFlowControlHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbFlowControlHeader")
                            .SetParent<Header>()
                            .SetGroupName("Interconnect")
                            .AddConstructor<IbFlowControlHeader>();
    return tid;
}

TypeId
IbFlowControlHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

IbFlowControlHeader::IbFlowControlHeader()
    : m_op(NORMAL),
      m_fctbs(0),
      m_vl(0),
      m_fccl(0)
{
}

void
IbFlowControlHeader::SetOp(Op op)
{
    m_op = op;
}

IbFlowControlHeader::Op
IbFlowControlHeader::GetOp() const
{
    return m_op;
}

void
IbFlowControlHeader::SetVl(uint8_t vl)
{
    NS_ABORT_MSG_IF(vl > 15, "IbFlowControlHeader: VL " << +vl << " out of 0..15");
    m_vl = vl;
}

uint8_t
IbFlowControlHeader::GetVl() const
{
    return m_vl;
}

void
IbFlowControlHeader::SetFctbs(uint32_t fctbs)
{
    m_fctbs = m_op == EXTENDED ? fctbs : fctbs & 0x0FFF;
}

uint32_t
IbFlowControlHeader::GetFctbs() const
{
    return m_fctbs;
}

void
IbFlowControlHeader::SetFccl(uint32_t fccl)
{
    m_fccl = m_op == EXTENDED ? fccl : fccl & 0x0FFF;
}

uint32_t
IbFlowControlHeader::GetFccl() const
{
    return m_fccl;
}

uint32_t
IbFlowControlHeader::GetSerializedSize() const
{
    return m_op == EXTENDED ? EXTENDED_SIZE : SIZE;
}

void
IbFlowControlHeader::Serialize(Buffer::Iterator start) const
{
    if (m_op == EXTENDED)
    {
        start.WriteHtonU16(static_cast<uint16_t>((uint16_t(m_op) << 12) | (uint16_t(m_vl) << 8)));
        start.WriteHtonU32(m_fctbs);
        start.WriteHtonU32(m_fccl);
        start.WriteHtonU16(0); // LPCRC
        return;
    }
    start.WriteHtonU16(static_cast<uint16_t>((uint16_t(m_op) << 12) | (m_fctbs & 0x0FFF)));
    start.WriteHtonU16(static_cast<uint16_t>((uint16_t(m_vl) << 12) | (m_fccl & 0x0FFF)));
    start.WriteHtonU16(0); // LPCRC
}

uint32_t
IbFlowControlHeader::Deserialize(Buffer::Iterator start)
{
    const uint16_t a = start.ReadNtohU16();
    if ((a >> 12) == EXTENDED && start.GetRemainingSize() >= EXTENDED_SIZE - 2)
    {
        m_op = EXTENDED;
        m_vl = static_cast<uint8_t>((a >> 8) & 0x0F);
        m_fctbs = start.ReadNtohU32();
        m_fccl = start.ReadNtohU32();
        start.ReadNtohU16();
        return EXTENDED_SIZE;
    }
    const uint16_t b = start.ReadNtohU16();
    start.ReadNtohU16();
    m_op = static_cast<Op>(a >> 12 == EXTENDED ? NORMAL : a >> 12);
    m_fctbs = a & 0x0FFF;
    m_vl = static_cast<uint8_t>(b >> 12);
    m_fccl = b & 0x0FFF;
    return SIZE;
}

void
IbFlowControlHeader::Print(std::ostream& os) const
{
    os << "IB flow control op=" << +m_op << " vl=" << +m_vl << " fctbs=" << m_fctbs
       << " fccl=" << m_fccl;
}

} // namespace ns3
