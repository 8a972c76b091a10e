/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-deadlock-monitor.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pfc-net-device.h"
#include "ns3/roce-switch.h"
#include "ns3/simulator.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcDeadlockMonitor");

PfcDeadlockMonitor::PfcDeadlockMonitor(std::vector<Ptr<RoceSwitch>> switches)
    : m_switches(std::move(switches))
{
    std::map<Ptr<PfcNetDevice>, std::pair<uint32_t, uint32_t>> where;
    for (uint32_t s = 0; s < m_switches.size(); ++s)
    {
        for (uint32_t p = 0; p < m_switches[s]->GetNPorts(); ++p)
        {
            where[m_switches[s]->GetPort(p)] = {s, p};
        }
    }
    for (const auto& [device, at] : where)
    {
        const auto peer = where.find(device->GetPeer());
        if (peer != where.end())
        {
            m_peer[at] = peer->second; // a switch-to-switch link
        }
    }
}

void
PfcDeadlockMonitor::Start(Time interval, Time stop)
{
    NS_ABORT_MSG_UNLESS(interval.IsStrictlyPositive(),
                        "PfcDeadlockMonitor::Start: the interval must be above 0, not "
                            << interval.As(Time::US));
    m_interval = interval;
    m_stop = stop;
    m_event.Cancel();
    ScheduleCheck();
}

void
PfcDeadlockMonitor::ScheduleCheck()
{
    if (Simulator::Now() + m_interval > m_stop)
    {
        return;
    }
    m_event = Simulator::Schedule(m_interval, [this]() {
        Check();
        ScheduleCheck();
    });
}

std::string
PfcDeadlockMonitor::Name(const Channel& c) const
{
    const auto& [s, p, priority] = c;
    const auto to = m_peer.at({s, p});
    return "switch " + std::to_string(s) + " port " + std::to_string(p) + " -> switch " +
           std::to_string(to.first) + " (prio " + std::to_string(priority) + ")";
}

void
PfcDeadlockMonitor::Check()
{
    // The channels that cannot send: paused by a peer switch, frames waiting.
    std::vector<Channel> stuck;
    std::map<Channel, std::size_t> index;
    for (const auto& [at, to] : m_peer)
    {
        Ptr<PfcNetDevice> port = m_switches[at.first]->GetPort(at.second);
        for (uint8_t q = 0; q < PfcNetDevice::N_PRIORITIES; ++q)
        {
            if (port->IsEgressPaused(q) && port->GetQueueBytes(q) > 0)
            {
                index[Channel{at.first, at.second, q}] = stuck.size();
                stuck.emplace_back(at.first, at.second, q);
            }
        }
    }
    // A (s -> t) waits for B (t -> u) when B's queue holds a frame that came in over A's link.
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
    Graph waits(stuck.size());
    for (std::size_t b = 0; b < stuck.size(); ++b)
    {
        const auto& [t, port, q] = stuck[b];
        std::set<uint32_t> from;
        for (uint32_t tag : m_switches[t]->GetPort(port)->GetQueuedTags(q))
        {
            from.insert(RoceSwitch::GetIngressPortOfTag(tag));
        }
        for (uint32_t in : from)
        {
            const auto upstream = m_peer.find({t, in});
            if (upstream == m_peer.end())
            {
                continue; // from a host
            }
            // The upstream's egress toward t on any priority that is stuck (a remapped frame
            // is charged to the ingress on the priority it came in on).
            for (uint8_t p = 0; p < PfcNetDevice::N_PRIORITIES; ++p)
            {
                const auto a =
                    index.find(Channel{upstream->second.first, upstream->second.second, p});
                if (a != index.end())
                {
                    boost::add_edge(a->second, b, waits);
                }
            }
        }
    }
    std::vector<std::size_t> component(stuck.size());
    const std::size_t n = stuck.empty() ? 0 : boost::strong_components(waits, component.data());
    std::vector<std::set<Channel>> cycles(n);
    for (std::size_t v = 0; v < stuck.size(); ++v)
    {
        cycles[component[v]].insert(stuck[v]);
    }
    const Time now = Simulator::Now();
    for (const std::set<Channel>& cycle : cycles)
    {
        if (cycle.size() < 2 || m_reported.count(cycle))
        {
            continue;
        }
        bool held = m_lastCheck >= Time(0);
        for (const auto& [s, p, q] : cycle)
        {
            held = held && m_switches[s]->GetPort(p)->GetEgressPauseStart(q) <= m_lastCheck;
        }
        if (!held)
        {
            continue; // formed since the last check: it may still clear
        }
        m_reported.insert(cycle);
        Deadlock d{now, {}};
        for (const Channel& c : cycle)
        {
            d.cycle.push_back(Name(c));
        }
        NS_LOG_WARN("PFC deadlock at " << now.As(Time::US) << ": " << cycle.size() << " channels");
        m_deadlocks.push_back(std::move(d));
    }
    m_lastCheck = now;
}

const std::vector<PfcDeadlockMonitor::Deadlock>&
PfcDeadlockMonitor::GetDeadlocks() const
{
    return m_deadlocks;
}

} // namespace ns3
