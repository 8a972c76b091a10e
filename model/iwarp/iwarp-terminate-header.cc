/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "iwarp-terminate-header.h"

#include <cstdio>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(IwarpTerminateHeader);

TypeId
IwarpTerminateHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IwarpTerminateHeader")
                            .SetParent<Header>()
                            .SetGroupName("Interconnect")
                            .AddConstructor<IwarpTerminateHeader>();
    return tid;
}

TypeId
IwarpTerminateHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

IwarpTerminateHeader::IwarpTerminateHeader()
    : m_layer(RDMAP),
      m_type(0),
      m_code(0)
{
}

IwarpTerminateHeader::IwarpTerminateHeader(Layer layer, uint8_t etype, uint8_t code)
    : m_layer(layer),
      m_type(static_cast<uint8_t>(etype & 0x0F)),
      m_code(code)
{
}

IwarpTerminateHeader::Layer
IwarpTerminateHeader::GetLayer() const
{
    return m_layer;
}

uint8_t
IwarpTerminateHeader::GetErrorType() const
{
    return m_type;
}

uint8_t
IwarpTerminateHeader::GetErrorCode() const
{
    return m_code;
}

std::string
IwarpTerminateHeader::Describe() const
{
    static const char* layers[] = {"RDMAP", "DDP", "LLP"};
    const char* what = "unknown error";
    const uint32_t key = (uint32_t(m_layer) << 12) | (uint32_t(m_type) << 8) | m_code;
    switch (key)
    {
    case 0x2002:
        what = "MPA CRC error";
        break;
    case 0x2003:
        what = "MPA marker and ULPDU length mismatch";
        break;
    case 0x2004:
        what = "invalid MPA request or reply frame";
        break;
    case 0x1000:
        what = "DDP local catastrophic error";
        break;
    case 0x1100:
        what = "invalid STag";
        break;
    case 0x1101:
        what = "base or bounds violation";
        break;
    case 0x1104:
    case 0x1206:
        what = "invalid DDP version";
        break;
    case 0x1201:
        what = "invalid queue number";
        break;
    case 0x1203:
        what = "invalid MSN";
        break;
    case 0x1204:
        what = "invalid MO";
        break;
    case 0x0205:
        what = "invalid RDMAP version";
        break;
    case 0x0206:
        what = "unexpected opcode";
        break;
    default:
        break;
    }
    char buffer[96];
    std::snprintf(buffer,
                  sizeof(buffer),
                  "%s/%u/0x%02x (%s)",
                  m_layer <= LLP ? layers[m_layer] : "?",
                  unsigned(m_type),
                  unsigned(m_code),
                  what);
    return buffer;
}

uint32_t
IwarpTerminateHeader::GetSerializedSize() const
{
    return SIZE;
}

void
IwarpTerminateHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteU8(static_cast<uint8_t>((m_layer << 4) | m_type));
    start.WriteU8(m_code);
    start.WriteU16(0); // M, D, H clear: no copy of the offending headers follows
}

uint32_t
IwarpTerminateHeader::Deserialize(Buffer::Iterator start)
{
    const uint8_t first = start.ReadU8();
    m_layer = static_cast<Layer>(first >> 4);
    m_type = first & 0x0F;
    m_code = start.ReadU8();
    start.ReadU16();
    return SIZE;
}

void
IwarpTerminateHeader::Print(std::ostream& os) const
{
    os << "RDMAP Terminate " << Describe();
}

} // namespace ns3
