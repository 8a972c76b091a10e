/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-pcap-helper.h"

#include "ns3/interconnect-config-error.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/pcap-file-wrapper.h"
#include "ns3/simulator.h"

#include <cmath>
#include <filesystem>
#include <vector>

namespace ns3
{

namespace
{

/// libpcap link type of ERF records.
constexpr uint32_t DLT_ERF = 197;
/// libpcap link type of raw InfiniBand data packets, from the LRH.
constexpr uint32_t DLT_INFINIBAND = 247;

void
WriteRaw(Ptr<PcapFileWrapper> file,
         Ptr<const Packet> packet,
         uint8_t /* vl */,
         bool flowControl,
         bool /* sent */)
{
    if (!flowControl)
    {
        file->Write(Simulator::Now(), packet);
    }
}

/// ERF record types (Endace ERF types; Wireshark's erf dissector).
constexpr uint8_t ERF_TYPE_INFINIBAND = 21;
constexpr uint8_t ERF_TYPE_INFINIBAND_LINK = 25;

void
WriteErf(Ptr<PcapFileWrapper> file,
         Ptr<const Packet> packet,
         uint8_t /* vl */,
         bool flowControl,
         bool /* sent */)
{
    const uint32_t size = packet->GetSize();
    const uint32_t body = size + 2; // VCRC, or the pad after a flow-control packet
    std::vector<uint8_t> record(16 + body, 0);
    // ERF timestamp: 32.32 fixed point seconds, little endian.
    const Time now = Simulator::Now();
    const uint64_t seconds = static_cast<uint64_t>(now.GetSeconds());
    const uint64_t fraction =
        static_cast<uint64_t>(std::ldexp((now - Seconds(seconds)).GetSeconds(), 32));
    const uint64_t ts = (seconds << 32) | (fraction & 0xFFFFFFFF);
    for (int i = 0; i < 8; ++i)
    {
        record[i] = static_cast<uint8_t>(ts >> (8 * i));
    }
    record[8] = flowControl ? ERF_TYPE_INFINIBAND_LINK : ERF_TYPE_INFINIBAND;
    record[9] = 0x04; // varying record length
    const uint16_t rlen = static_cast<uint16_t>(record.size());
    record[10] = rlen >> 8;
    record[11] = rlen & 0xFF;
    record[14] = static_cast<uint8_t>(body >> 8);
    record[15] = static_cast<uint8_t>(body & 0xFF);
    packet->CopyData(record.data() + 16, size);
    Ptr<Packet> p = Create<Packet>(record.data(), record.size());
    file->Write(now, p);
}

} // namespace

void
IbPcapHelper::EnablePcap(const std::string& prefix, Ptr<IbNetDevice> device, Format format)
{
    const std::string path = prefix + "-" + std::to_string(device->GetNode()->GetId()) + "-" +
                             std::to_string(device->GetIfIndex()) + ".pcap";
    const std::filesystem::path dir = std::filesystem::path(path).parent_path();
    std::error_code ec;
    if (!dir.empty())
    {
        std::filesystem::create_directories(dir, ec);
    }
    Ptr<PcapFileWrapper> file = CreateObject<PcapFileWrapper>();
    file->Open(path, std::ios::out | std::ios::binary);
    if (file->Fail())
    {
        InterconnectConfigError("pcap", path, "a writable file");
    }
    if (format == INFINIBAND)
    {
        file->Init(DLT_INFINIBAND, 65535);
        device->TraceConnectWithoutContext("Sniffer", MakeBoundCallback(&WriteRaw, file));
        return;
    }
    file->Init(DLT_ERF, 65535);
    device->TraceConnectWithoutContext("Sniffer", MakeBoundCallback(&WriteErf, file));
}

} // namespace ns3
