/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WORKLOAD_KIND_H
#define WORKLOAD_KIND_H

#include "ns3/collective-helper.h"
#include "ns3/message-transport.h"
#include "ns3/nstime.h"
#include "ns3/scenario.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * What a workload of a scenario posts its messages with.
 */
struct WorkloadContext
{
    const Scenario& scenario;      //!< the scenario
    std::string prefix;            //!< its keys' path prefix, "workloads.<i>."
    MessageTransport& network;     //!< posts messages between hosts
    CollectiveHelper& collectives; //!< collectives and MoE layers (on GPUs with GPU servers)
    uint32_t hosts;                //!< hosts of the fabric
    Time start;                    //!< its start (the key "start")
    Time stop;                     //!< the run's stop time
    int64_t stream;                //!< its first random stream
    /// The endpoints a group key names: hosts 0..n-1 (0: all), or their servers' GPUs.
    std::function<std::vector<uint32_t>(const std::string& key)> group;
};

/**
 * @ingroup interconnect
 * @brief One kind of workload of a scenario file (poisson, incast, ...): the keys it takes and
 * what it posts.
 *
 * Scenario checks a workload's keys against its kind's GetKeys (besides "kind" and "start",
 * which every kind has); the runner calls Post once per workload, before the simulation
 * starts. A new kind is a subclass registered with Register before the scenario is loaded:
 * its name is then accepted as a "kind" and its keys are checked and completed like the
 * built-in ones'.
 */
class WorkloadKind
{
  public:
    virtual ~WorkloadKind();

    /// @return the value of "kind" that selects it
    virtual std::string GetName() const = 0;
    /// @return its keys besides "kind" and "start", with their defaults and ranges
    virtual std::vector<ScenarioKey> GetKeys() const = 0;
    /**
     * Post the workload's messages, collectives or layers; a bad value is a configuration
     * error naming its key.
     * @param context what to post them with
     */
    virtual void Post(const WorkloadContext& context) const = 0;

    /**
     * Add a kind (after the built-in ones).
     * @param kind the kind; its name must be new
     */
    static void Register(std::shared_ptr<const WorkloadKind> kind);
    /// @param name a kind's name @return the kind, or nullptr
    static const WorkloadKind* Find(const std::string& name);
    /// @return the names of the kinds, the built-in ones first
    static std::vector<std::string> GetNames();
};

} // namespace ns3

#endif // WORKLOAD_KIND_H
