/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// libFuzzer target: the wire-format parsers a receiver runs on bytes from the wire. The first
// byte picks the parser; the rest is what arrived. Headers are read as receivers read them
// (only when the packet holds one) and written back; the MPA deframer takes the bytes as a TCP
// stream in two pieces. Never a crash, a sanitizer report or a hang.

#include "ns3/ib-aeth-header.h"
#include "ns3/ib-bth-header.h"
#include "ns3/ib-flow-control-header.h"
#include "ns3/ib-lrh-header.h"
#include "ns3/ib-reth-header.h"
#include "ns3/interconnect-config-error.h"
#include "ns3/iwarp-ddp-header.h"
#include "ns3/iwarp-mpa.h"
#include "ns3/iwarp-read-request-header.h"
#include "ns3/iwarp-terminate-header.h"
#include "ns3/packet.h"
#include "ns3/pfc-header.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace
{

/// Read a header from the bytes as a receiver does, then write it back and read it again.
template <typename H>
void
RoundTrip(const uint8_t* data, std::size_t size)
{
    H header;
    ns3::Ptr<ns3::Packet> p = ns3::Create<ns3::Packet>(data, static_cast<uint32_t>(size));
    if (p->GetSize() < header.GetSerializedSize())
    {
        return; // a receiver checks the length first
    }
    p->RemoveHeader(header);
    ns3::Ptr<ns3::Packet> again = ns3::Create<ns3::Packet>();
    again->AddHeader(header);
    H copy;
    again->RemoveHeader(copy);
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    if (size == 0)
    {
        return 0;
    }
    const uint8_t which = data[0];
    ++data;
    --size;
    try
    {
        switch (which % 11)
        {
        case 0:
            RoundTrip<ns3::IbLrhHeader>(data, size);
            break;
        case 1:
            RoundTrip<ns3::IbBthHeader>(data, size);
            break;
        case 2:
            RoundTrip<ns3::IbRethHeader>(data, size);
            break;
        case 3:
            RoundTrip<ns3::IbAethHeader>(data, size);
            break;
        case 4:
            RoundTrip<ns3::IbFlowControlHeader>(data, size);
            break;
        case 5:
            RoundTrip<ns3::PfcHeader>(data, size);
            break;
        case 6:
            RoundTrip<ns3::IwarpDdpHeader>(data, size);
            break;
        case 7:
            RoundTrip<ns3::IwarpReadRequestHeader>(data, size);
            break;
        case 8:
            RoundTrip<ns3::IwarpTerminateHeader>(data, size);
            break;
        case 9: {
            ns3::IwarpMpa::Startup startup;
            std::string error;
            ns3::IwarpMpa::ParseStartupFrame(std::vector<uint8_t>(data, data + size),
                                             startup,
                                             error);
            break;
        }
        default: {
            // An MPA stream with markers and CRCs, arriving in two pieces.
            ns3::IwarpMpa mpa(size > 0 && (data[0] & 1), true);
            std::vector<std::vector<uint8_t>> ulpdus;
            std::string error;
            const std::size_t cut = size / 2;
            if (mpa.Receive(std::vector<uint8_t>(data, data + cut), ulpdus, error))
            {
                mpa.Receive(std::vector<uint8_t>(data + cut, data + size), ulpdus, error);
            }
            break;
        }
        }
    }
    catch (const ns3::InterconnectConfigException&)
    {
        // a configuration error, not a crash
    }
    return 0;
}
