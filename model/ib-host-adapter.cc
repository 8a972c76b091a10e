/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-host-adapter.h"

#include "ib-bth-header.h"
#include "ib-lrh-header.h"

#include "ns3/abort.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(IbHostAdapter);

namespace
{
/// Bytes of the invariant CRC at the end of every transport packet.
constexpr uint32_t ICRC = 4;
} // namespace

TypeId
IbHostAdapter::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbHostAdapter")
                            .SetParent<Object>()
                            .SetGroupName("Interconnect")
                            .AddConstructor<IbHostAdapter>()
                            .AddTraceSource("Message",
                                            "A message arrived whole: source LID, bytes",
                                            MakeTraceSourceAccessor(&IbHostAdapter::m_messageTrace),
                                            "ns3::IbHostAdapter::MessageTracedCallback");
    return tid;
}

IbHostAdapter::IbHostAdapter()
    : m_lid(0),
      m_psn(0),
      m_bytesReceived(0),
      m_misdelivered(0)
{
}

void
IbHostAdapter::DoDispose()
{
    if (m_device)
    {
        m_device->SetIbReceiveCallback(IbNetDevice::IbReceiveCallback());
    }
    m_device = nullptr;
    Object::DoDispose();
}

void
IbHostAdapter::Install(Ptr<IbNetDevice> device, uint16_t lid)
{
    m_device = device;
    m_lid = lid;
    device->SetIbReceiveCallback(MakeCallback(&IbHostAdapter::Receive, this));
}

uint16_t
IbHostAdapter::GetLid() const
{
    return m_lid;
}

Ptr<IbNetDevice>
IbHostAdapter::GetDevice() const
{
    return m_device;
}

void
IbHostAdapter::Send(uint16_t dlid, uint64_t bytes, uint8_t sl)
{
    NS_ABORT_MSG_IF(bytes == 0, "IbHostAdapter::Send: an empty message");
    const uint64_t mtu = m_device->GetMtu();
    const uint8_t vl = m_device->GetVlOfSl(sl);
    for (uint64_t offset = 0; offset < bytes; offset += mtu)
    {
        const uint32_t payload = static_cast<uint32_t>(std::min(mtu, bytes - offset));
        const bool first = offset == 0;
        const bool last = offset + payload >= bytes;
        Ptr<Packet> p = Create<Packet>(payload + ICRC);
        IbBthHeader bth;
        bth.SetOpcode(first && last ? IbBthHeader::RC_SEND_ONLY
                                    : (first ? IbBthHeader::RC_SEND_FIRST
                                             : (last ? IbBthHeader::RC_SEND_LAST
                                                     : IbBthHeader::RC_SEND_MIDDLE)));
        bth.SetPsn(m_psn);
        m_psn = (m_psn + 1) & 0xFFFFFF;
        p->AddHeader(bth);
        IbLrhHeader lrh;
        lrh.SetVl(vl);
        lrh.SetSl(sl);
        lrh.SetLnh(IbLrhHeader::IBA_LOCAL);
        lrh.SetDlid(dlid);
        lrh.SetSlid(m_lid);
        lrh.SetPktLen(static_cast<uint16_t>((p->GetSize() + IbLrhHeader::SIZE + 3) / 4));
        p->AddHeader(lrh);
        m_device->EnqueueVl(p, vl);
    }
}

void
IbHostAdapter::Receive(Ptr<IbNetDevice> device, Ptr<Packet> packet, uint8_t vl)
{
    const uint32_t blocks = IbNetDevice::Blocks(packet->GetSize());
    IbLrhHeader lrh;
    packet->RemoveHeader(lrh);
    IbBthHeader bth;
    packet->RemoveHeader(bth);
    if (vl != IbNetDevice::MANAGEMENT_VL)
    {
        device->Release(vl, blocks); // the adapter takes the packet into memory at once
    }
    if (lrh.GetDlid() != m_lid)
    {
        ++m_misdelivered;
        return;
    }
    const uint64_t payload = packet->GetSize() - ICRC;
    m_bytesReceived += payload;
    // A source's packets on one VL arrive in order (one path per DLID): count per (SLID, VL).
    const uint16_t slid = lrh.GetSlid();
    const std::size_t key = std::size_t(slid) * 16 + vl;
    if (key >= m_partial.size())
    {
        m_partial.resize(key + 1, 0);
    }
    m_partial[key] += payload;
    const uint8_t op = bth.GetOpcode();
    if (op == IbBthHeader::RC_SEND_LAST || op == IbBthHeader::RC_SEND_ONLY)
    {
        m_messages.push_back(Message{slid, m_partial[key], Simulator::Now()});
        m_messageTrace(slid, m_partial[key]);
        m_partial[key] = 0;
    }
}

const std::vector<IbHostAdapter::Message>&
IbHostAdapter::GetMessages() const
{
    return m_messages;
}

uint64_t
IbHostAdapter::GetBytesReceived() const
{
    return m_bytesReceived;
}

uint64_t
IbHostAdapter::GetMisdelivered() const
{
    return m_misdelivered;
}

} // namespace ns3
