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
 *
 * For tools that read libpcap's own InfiniBand link type, the INFINIBAND format writes
 * DLT_INFINIBAND (247) captures: data packets only, each from its LRH to its ICRC, as that link
 * type defines them (flow-control packets have no place in it).
 */
class IbPcapHelper
{
  public:
    /// The capture's encapsulation.
    enum Format
    {
        ERF,       //!< DLT_ERF (197): data and flow-control packets; Wireshark decodes both
        INFINIBAND //!< DLT_INFINIBAND (247): data packets from the LRH
    };

    /**
     * Capture one port into PREFIX-NODE-INTERFACE.pcap.
     * @param prefix path prefix
     * @param device the port
     * @param format the encapsulation (default ERF)
     */
    static void EnablePcap(const std::string& prefix, Ptr<IbNetDevice> device, Format format = ERF);
};

} // namespace ns3

#endif // IB_PCAP_HELPER_H
