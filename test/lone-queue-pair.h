/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef LONE_QUEUE_PAIR_H
#define LONE_QUEUE_PAIR_H

// For the congestion-control unit tests: a queue pair without a NIC or a network, whose
// algorithm the test drives by hand (ACKs, CNPs, INT stacks, RTT samples).

#include "ns3/ipv4-address.h"
#include "ns3/rdma-queue-pair.h"

namespace ns3
{
namespace test
{

/**
 * @param lineRate the queue pair's line rate
 * @return a queue pair set up from 10.0.0.1 to 10.0.0.2 on priority 3 (QPN 0x100), not connected
 */
inline Ptr<RdmaQueuePair>
LoneQueuePair(DataRate lineRate)
{
    Ptr<RdmaQueuePair> qp = CreateObject<RdmaQueuePair>();
    qp->Setup(0x100, Ipv4Address("10.0.0.1"), Ipv4Address("10.0.0.2"), 50000, 3, lineRate);
    return qp;
}

} // namespace test
} // namespace ns3

#endif // LONE_QUEUE_PAIR_H
