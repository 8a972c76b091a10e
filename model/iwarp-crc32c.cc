/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "iwarp-crc32c.h"

#include <boost/crc.hpp>

namespace ns3
{

uint32_t
IwarpCrc32c(const uint8_t* data, std::size_t size)
{
    boost::crc_optimal<32, 0x1EDC6F41, 0xFFFFFFFF, 0xFFFFFFFF, true, true> crc;
    crc.process_bytes(data, size);
    return crc.checksum();
}

} // namespace ns3
