/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pcie-link.h"

#include "ns3/interconnect-config-error.h"

#include <string>

namespace ns3
{

double
PcieLink::RawBandwidth(uint32_t generation, uint32_t lanes)
{
    if (lanes != 1 && lanes != 2 && lanes != 4 && lanes != 8 && lanes != 16)
    {
        InterconnectConfigError("PCIe lanes", std::to_string(lanes), "1, 2, 4, 8 or 16");
    }
    double gts;
    double efficiency;
    switch (generation)
    {
    case 1:
        gts = 2.5e9;
        efficiency = 8.0 / 10;
        break;
    case 2:
        gts = 5e9;
        efficiency = 8.0 / 10;
        break;
    case 3:
        gts = 8e9;
        efficiency = 128.0 / 130;
        break;
    case 4:
        gts = 16e9;
        efficiency = 128.0 / 130;
        break;
    case 5:
        gts = 32e9;
        efficiency = 128.0 / 130;
        break;
    case 6:
        gts = 64e9;
        efficiency = 236.0 / 256; // FLIT mode: TLP bytes per 256-byte flit
        break;
    default:
        InterconnectConfigError("PCIe generation", std::to_string(generation), "1..6");
    }
    return lanes * gts * efficiency / 8;
}

uint32_t
PcieLink::TlpOverhead(uint32_t generation)
{
    return generation >= 6 ? 16 : 24;
}

double
PcieLink::Bandwidth(uint32_t generation, uint32_t lanes, uint32_t maxPayloadSize)
{
    if (maxPayloadSize < 128 || maxPayloadSize > 4096 ||
        (maxPayloadSize & (maxPayloadSize - 1)) != 0)
    {
        InterconnectConfigError("PCIe max payload size",
                                std::to_string(maxPayloadSize),
                                "128, 256, 512, 1024, 2048 or 4096 bytes");
    }
    const double mps = maxPayloadSize;
    return RawBandwidth(generation, lanes) * mps / (mps + TlpOverhead(generation));
}

} // namespace ns3
