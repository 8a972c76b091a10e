/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef LOSSY_WRITE_H
#define LOSSY_WRITE_H

// For the loss-recovery tests (IRN, UET): one WRITE over one 100 Gb/s cable whose receiver loses
// chosen PSNs once each.

#include "drop-psn-error-model.h"

#include "ns3/core-module.h"
#include "ns3/rdma-psn.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-transport.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace test
{

/// Path MTU of the lossy WRITE's queue pairs.
constexpr uint32_t LOSSY_WRITE_MTU = 1024;

/// What a lossy WRITE did.
struct LossyWrite
{
    Ptr<RdmaQueuePair> sender;    //!< the writer's queue pair
    Ptr<RdmaQueuePair> responder; //!< the receiver's
    FlowRecord flow;              //!< the WRITE's record
    uint32_t lost{0};             //!< packets lost
    uint32_t maxInFlight{0};      //!< most PSNs in flight seen at the sender (every 10 ns)
    uint64_t sackedAtEnd{0};      //!< the sender's selectively acknowledged bytes at the end
};

/**
 * Run one WRITE of `packets` full packets from host 0 to host 1 over one 100 Gb/s cable whose
 * receiver loses the WRITE data packets with the PSNs in `lose`, each once (a PSN listed twice
 * is lost twice: its retransmission too). The queue pairs' RetransmitTimeout is 1 ms and
 * IrnRtoLow 100 us, unless `attributes` sets them.
 * @param transport RdmaQueuePair::Transport: gbn, irn or uet
 * @param packets the WRITE's packets
 * @param lose the PSNs to lose
 * @param attributes more RdmaQueuePair attributes, name and value
 * @return what happened
 */
inline LossyWrite
RunLossyWrite(const std::string& transport,
              uint32_t packets,
              const std::vector<uint32_t>& lose,
              const std::vector<std::pair<std::string, std::string>>& attributes = {})
{
    RoceHelper h;
    h.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
    h.SetQueuePairAttribute("Transport", StringValue(transport));
    h.SetQueuePairAttribute("RetransmitTimeout", StringValue("1ms"));
    h.SetQueuePairAttribute("IrnRtoLow", StringValue("100us"));
    for (const auto& [name, value] : attributes)
    {
        h.SetQueuePairAttribute(name, StringValue(value));
    }
    Ptr<Node> a = h.AddHost();
    Ptr<Node> b = h.AddHost();
    auto link = h.Link(a, b);
    Ptr<DropPsnErrorModel> em = CreateObject<DropPsnErrorModel>();
    for (uint32_t psn : lose)
    {
        em->Add(psn, &IsWriteData);
    }
    link.second->SetAttribute("ReceiveErrorModel", PointerValue(em));
    h.Finalize();
    RoceTransport rdma(h);
    rdma.Post(0, 1, RdmaVerb::WRITE, uint64_t{packets} * LOSSY_WRITE_MTU, Time(0), 3);
    LossyWrite out;
    out.sender = h.GetNic(0)->GetQueuePair(0x100);
    out.responder = h.GetNic(1)->GetQueuePair(0x100);
    // Sample the PSNs in flight every 10 ns while the WRITE runs.
    std::function<void()> sample = [&out, &sample]() {
        const auto inFlight = static_cast<uint32_t>(
            (out.sender->GetSndNxt() - out.sender->GetSndUna()) & rdma::PSN_MASK);
        out.maxInFlight = std::max(out.maxInFlight, inFlight);
        if (Simulator::Now() < MicroSeconds(2000))
        {
            Simulator::Schedule(NanoSeconds(10), sample);
        }
    };
    Simulator::Schedule(NanoSeconds(1), sample);
    Simulator::Run();
    out.sackedAtEnd = out.sender->GetSackedBytes();
    out.flow = rdma.GetFlows()[0];
    out.lost = em->m_dropped;
    Simulator::Destroy();
    return out;
}

} // namespace test
} // namespace ns3

#endif // LOSSY_WRITE_H
