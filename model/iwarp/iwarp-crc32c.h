/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IWARP_CRC32C_H
#define IWARP_CRC32C_H

#include <cstddef>
#include <cstdint>

namespace ns3
{

/**
 * @ingroup interconnect
 * CRC32c (Castagnoli polynomial 0x1EDC6F41, reflected, initial value and final XOR 0xFFFFFFFF),
 * the CRC of iSCSI (RFC 3720) that MPA (RFC 5044) puts at the end of every FPDU. Computed with
 * the SSE4.2 CRC32 instruction where the processor has it, else Boost.CRC. The value goes on the
 * wire least significant byte first, as iSCSI sends it (RFC 3720, appendix B.4: 32 zero bytes give
 * 0x8A9136AA, sent as aa 36 91 8a).
 * @param data the bytes
 * @param size how many
 * @return the CRC
 */
uint32_t IwarpCrc32c(const uint8_t* data, std::size_t size);

/**
 * @ingroup interconnect
 * The same CRC computed with Boost.CRC's tables only (what IwarpCrc32c falls back to).
 * @param data the bytes
 * @param size how many
 * @return the CRC
 */
uint32_t IwarpCrc32cPortable(const uint8_t* data, std::size_t size);

} // namespace ns3

#endif // IWARP_CRC32C_H
