/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_RUNNER_H
#define SCENARIO_RUNNER_H

#include "scenario.h"

#include "ns3/collective-helper.h"
#include "ns3/fabric-helper.h"
#include "ns3/fabric.h"
#include "ns3/ib-rc-transport.h"
#include "ns3/interconnect-config-error.h"
#include "ns3/nstime.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-time-series.h"
#include "ns3/sharp-aggregation-manager.h"

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief A scenario file run as a pipeline: parse and check it, build the fabric, install the
 * link technology on it, post the workloads, run, and write the records.
 *
 * Each step is a method, in this order: Start (parallel set-up, scheduler, seeds),
 * BuildNetwork, AddWorkloads, AddMonitors, PrepareOutputs, Run, WriteRecords, Report. A step
 * never ends the program: a bad value is an InterconnectConfigException naming its scenario
 * key, an output that cannot be written one naming the file. Main does all of them for a
 * command line, as the interconnect-run program does.
 *
 * @code
 *   ScenarioRunner runner(Scenario::Load("incast.json", {"nic.cc=hpcc"}), "results/incast");
 *   runner.Start(nullptr, nullptr);
 *   runner.BuildNetwork();
 *   runner.AddWorkloads();
 *   runner.AddMonitors();
 *   runner.PrepareOutputs();
 *   runner.Run();
 *   runner.WriteRecords();
 * @endcode
 */
class ScenarioRunner
{
  public:
    /**
     * Run a scenario from a command line: SCENARIO.json [--set path.to.key=value ...]
     * [--out DIR]; with output.plots, the plot script draws the figures.
     * @param argc the argument count
     * @param argv the arguments
     * @param plotScript the script that draws a run's figures (scripts/plot-run.sh)
     * @return the exit status: 0, 2 for a bad command line, 128 + the signal after SIGINT or
     *         SIGTERM (the records of what ran are written, marked partial)
     */
    static int Main(int argc, char* argv[], const std::string& plotScript);

    /**
     * A configuration error of an attribute the scenario sets, named by its scenario key (e.g.
     * ns3::RoceSwitchMmu::BufferSize as switch.bufferSize), the attribute's message kept.
     * @param e the error
     * @return the same error in the scenario's terms (unchanged if no key sets the attribute)
     */
    static InterconnectConfigException InScenarioTerms(const InterconnectConfigException& e);

    /**
     * @param scenario the resolved scenario
     * @param out the output directory ("": results/<name>)
     */
    ScenarioRunner(const Scenario& scenario, const std::string& out);
    ~ScenarioRunner();

    /**
     * The whole pipeline up to the records: Start, BuildNetwork, AddWorkloads, AddMonitors,
     * PrepareOutputs, Run and WriteRecords (Report is left to the caller). A configuration
     * error names the scenario key that sets a refused model attribute (InScenarioTerms).
     * @param argc the program's argument count, for MPI (nullptr with one rank)
     * @param argv its arguments
     */
    void Execute(int* argc, char*** argv);

    /**
     * The simulator for the scenario's ranks (ns-3's distributed simulator over MPI when
     * parallel.ranks > 1), the canonical scheduler (the same records on any number of ranks)
     * and the seed and run number.
     * @param argc the program's argument count, for MPI (nullptr with one rank)
     * @param argv its arguments
     */
    void Start(int* argc, char*** argv);
    /// Build the fabric with its link technology (RoCEv2, iWARP or InfiniBand), and the GPU
    /// servers, if any.
    void BuildNetwork();
    /// Set nic.maxOutstanding on the queue pairs to come (bdp: computed from the fabric).
    void LimitOutstandingPackets();
    /// @return the base round trip of the fabric's longest path, seconds: a full data frame out
    ///         and its ACK back over the diameter's links, at the hosts' rate
    double LongestPathRtt() const;
    /// NSCC's base round trip (nic.nsccBaseRtt, or the longest path's), when nic.cc is nscc.
    /// @param cc the congestion control's TypeId name
    void SetNsccBaseRtt(const std::string& cc);
    /// The PFC watchdog on the switch ports and the pause storm of the faults section.
    void ArmPfcFaults();
    /// Post every workload's messages and collectives.
    void AddWorkloads();
    /// Watch the switch queues, PFC frames and credit stalls; report progress on stderr.
    void AddMonitors();
    /// Create the output directory and write config.json, before simulated time is spent.
    void PrepareOutputs();
    /// Run to the stop time, or to SIGINT or SIGTERM.
    void Run();
    /// Write every record (merged from the ranks in a distributed run).
    void WriteRecords();
    /**
     * Print the headline figures and warnings; draw the figures with output.plots.
     * @param plotScript the plot script ("": none)
     * @return the exit status
     */
    int Report(const std::string& plotScript);

  private:
    /// @param cc the resolved congestion control @return nic.cnpInterval applies to it
    bool SetsCnpInterval(const std::string& cc) const;
    /// Configure the Ethernet technologies (RoCEv2, iWARP) on the RoCE helper.
    void ConfigureEthernet(const std::string& cc);
    /// Give the switches SHARP's aggregation nodes if a workload asks for them.
    void InstallSharp();
    /// Build the InfiniBand subnet of the fabric.
    void BuildInfiniBand(const std::string& cc);
    /// Add the GPU servers of server.preset.
    void AddServers();
    /// @param key a workload's hosts key @return its group (GPUs with GPU servers)
    std::vector<uint32_t> Group(const std::string& key) const;
    /// Write summary.json, summary.csv and timing.json.
    void WriteSummaries();
    /**
     * @return config.json: the resolved scenario, with the attribute defaults set outside it
     *         that a rerun needs added to its attributes, and what the run records of itself
     *         ("recorded": the ns-3 version, the module's commit, every attribute default
     *         that is not its TypeId's)
     */
    nlohmann::ordered_json ResolvedConfiguration() const;

    Scenario m_s;             //!< the scenario
    std::string m_out;        //!< the output directory
    uint32_t m_ranks;         //!< ranks
    uint32_t m_rank;          //!< this rank
    Time m_stop;              //!< stop time
    bool m_infiniband;        //!< an InfiniBand subnet
    bool m_autoMapping;       //!< nic.queuePairs auto
    uint32_t m_hosts;         //!< hosts of the fabric
    uint32_t m_nicsPerServer; //!< compute NICs per GPU server (0: no servers)
    uint32_t m_gpusPerServer; //!< GPUs per server

    RoceHelper m_roce;                                //!< the Ethernet network (RoCEv2, iWARP)
    std::unique_ptr<MessageTransport> m_ethernet;     //!< RoceTransport or IwarpTransport
    std::unique_ptr<FabricHelper> m_fabricHelper;     //!< the topology
    std::unique_ptr<IbRcTransport> m_ib;              //!< InfiniBand
    std::unique_ptr<SharpAggregationManager> m_sharp; //!< SHARP (an allreduce asks for it)
    Fabric m_fabric;                                  //!< the built fabric
    MessageTransport* m_network;                      //!< the transport of the messages
    std::unique_ptr<CollectiveHelper> m_collectives;  //!< collectives and MoE layers

    struct Monitors;                               //!< what the run records as it goes
    std::unique_ptr<Monitors> m_monitors;          //!< the monitors
    std::map<std::string, std::string> m_external; //!< defaults set outside the scenario
    bool m_partial;                                //!< interrupted
    double m_wall;                                 //!< wall seconds of the run
};

} // namespace ns3

#endif // SCENARIO_RUNNER_H
