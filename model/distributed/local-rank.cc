/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "local-rank.h"

#include "ns3/node.h"

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"
#endif

namespace ns3
{

uint32_t
GetLocalRank()
{
#ifdef NS3_MPI
    return MpiInterface::IsEnabled() ? MpiInterface::GetSystemId() : 0;
#else
    return 0;
#endif
}

uint32_t
GetRankCount()
{
#ifdef NS3_MPI
    return MpiInterface::IsEnabled() ? MpiInterface::GetSize() : 1;
#else
    return 1;
#endif
}

bool
IsOnThisRank(Ptr<const Node> node)
{
    return node->GetSystemId() == GetLocalRank();
}

} // namespace ns3
