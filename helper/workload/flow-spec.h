/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_SPEC_H
#define FLOW_SPEC_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup interconnect
 * One flow a workload generator asks for: who sends how much to whom, and when.
 */
struct FlowSpec
{
    uint32_t src;   //!< source host index
    uint32_t dst;   //!< destination host index
    uint64_t bytes; //!< size
    Time start;     //!< when it is posted
};

} // namespace ns3

#endif // FLOW_SPEC_H
