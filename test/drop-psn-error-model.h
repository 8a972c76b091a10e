/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DROP_PSN_ERROR_MODEL_H
#define DROP_PSN_ERROR_MODEL_H

// For the transport tests: a receive error model that loses chosen RoCEv2 frames.

#include "ns3/error-model.h"
#include "ns3/ib-bth-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/packet.h"
#include "ns3/udp-header.h"

#include <utility>
#include <vector>

namespace ns3
{
namespace test
{

/// Loses chosen RoCEv2 data frames, picked by BTH opcode class and PSN, once each.
class DropPsnErrorModel : public ErrorModel
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::test::DropPsnErrorModel")
                                .SetParent<ErrorModel>()
                                .AddConstructor<DropPsnErrorModel>();
        return tid;
    }

    /// Lose the first frame carrying this PSN whose opcode satisfies `match`.
    void Add(uint32_t psn, bool (*match)(uint8_t))
    {
        m_targets.push_back({psn, match});
    }

    uint32_t m_dropped{0}; //!< frames lost

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        Ptr<Packet> copy = p->Copy();
        uint8_t eth[14];
        copy->RemoveAtStart(14); // Ethernet
        copy->CopyData(eth, 1);
        if ((eth[0] >> 4) != 4)
        {
            return false;
        }
        Ipv4Header ip;
        copy->RemoveHeader(ip);
        if (ip.GetProtocol() != 17)
        {
            return false;
        }
        UdpHeader udp;
        copy->RemoveHeader(udp);
        IbBthHeader bth;
        copy->RemoveHeader(bth);
        for (auto it = m_targets.begin(); it != m_targets.end(); ++it)
        {
            if (it->first == bth.GetPsn() && it->second(bth.GetOpcode()))
            {
                m_targets.erase(it);
                ++m_dropped;
                return true;
            }
        }
        return false;
    }

    void DoReset() override
    {
    }

    std::vector<std::pair<uint32_t, bool (*)(uint8_t)>> m_targets;
};

/// @return whether the opcode is a WRITE's @param opcode a BTH opcode
inline bool
IsWriteData(uint8_t opcode)
{
    return IbBthHeader::IsWrite(opcode);
}

/// @return whether the opcode is a READ response's @param opcode a BTH opcode
inline bool
IsReadResponse(uint8_t opcode)
{
    return IbBthHeader::IsReadResponse(opcode);
}

} // namespace test
} // namespace ns3

#endif // DROP_PSN_ERROR_MODEL_H
