/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PCIE_LINK_H
#define PCIE_LINK_H

#include <cstdint>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief Bandwidth of a PCI Express link, per direction, from its generation and width.
 *
 * Raw data rate = lanes x transfer rate x encoding efficiency / 8 (PCI-SIG base
 * specifications): Gen1 2.5 GT/s and Gen2 5 GT/s with 8b/10b; Gen3 8 GT/s, Gen4 16 GT/s and
 * Gen5 32 GT/s with 128b/130b; Gen6 64 GT/s in FLIT mode, where a 256-byte flit carries 236
 * bytes of TLPs (the rest: 6 of DLLPs, 8 of CRC, 6 of FEC). Gen3 x16 gives 15.75 GB/s, Gen4
 * x16 31.5 GB/s, Gen5 x16 63 GB/s.
 *
 * Transaction-layer overhead: every TLP carries at most MaxPayloadSize bytes of data plus a
 * 16-byte header (4 DW, 64-bit addressing); up to Gen5 each TLP also has 4 bytes of framing
 * and sequence number and a 4-byte LCRC, 24 bytes in all; in Gen6 FLIT mode those are part
 * of the flit, leaving the 16-byte header. Payload bandwidth = raw x MPS / (MPS + overhead).
 * DLLP traffic (ACK/NAK, flow-control updates) is not counted.
 */
class PcieLink
{
  public:
    /**
     * @param generation 1..6
     * @param lanes 1, 2, 4, 8 or 16
     * @return bytes per second per direction before TLP overhead
     */
    static double RawBandwidth(uint32_t generation, uint32_t lanes);

    /**
     * @param generation 1..6
     * @return bytes of overhead per TLP besides its payload
     */
    static uint32_t TlpOverhead(uint32_t generation);

    /**
     * @param generation 1..6
     * @param lanes 1, 2, 4, 8 or 16
     * @param maxPayloadSize bytes of data per TLP (128..4096)
     * @return payload bytes per second per direction
     */
    static double Bandwidth(uint32_t generation, uint32_t lanes, uint32_t maxPayloadSize);
};

} // namespace ns3

#endif // PCIE_LINK_H
