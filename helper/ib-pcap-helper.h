/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_PCAP_HELPER_H
#define IB_PCAP_HELPER_H

#include "ns3/ib-net-device.h"

#include <string>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief Packet captures of InfiniBand ports that Wireshark decodes.
 *
 * libpcap's link type for raw InfiniBand (DLT_INFINIBAND, 247: packets starting with the LRH)
 * is not read by the Wireshark of Debian 12, so the captures use the ERF encapsulation
 * (DLT_ERF, 197), which Wireshark reads: data packets as ERF type 21 (INFINIBAND: LRH to ICRC,
 * then the VCRC, written as zero) and flow-control packets as ERF type 25 (INFINIBAND_LINK:
 * the 6-byte packet, padded to 8 bytes as Wireshark's link dissector reads it). ICRCs are
 * zero. Every packet a port sends or receives is written, with the simulation time.
 */
class IbPcapHelper
{
  public:
    /**
     * Capture one port into PREFIX-NODE-INTERFACE.pcap.
     * @param prefix path prefix
     * @param device the port
     */
    static void EnablePcap(const std::string& prefix, Ptr<IbNetDevice> device);
};

} // namespace ns3

#endif // IB_PCAP_HELPER_H
