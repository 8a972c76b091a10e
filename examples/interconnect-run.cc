/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The scenario runner: one JSON file describes a whole experiment.
//
//   interconnect-run SCENARIO.json [--set path.to.key=value ...] [--out DIR]
//   interconnect-run --keys      the scenario keys (the manual's table)
//   interconnect-run             the quickstart scenario (examples/scenarios/quickstart.json)
//
// The scenario names the fabric, link, switch and NIC settings, the congestion control, the
// workloads, the seed and the stop time (doc/interconnect.rst lists every key and its default).
// Outputs in DIR (default results/<name>):
//   config.json       the resolved scenario (every key); `interconnect-run DIR/config.json`
//                     reproduces the run byte for byte
//   flows.csv         one row per message (FCT, ideal FCT, slowdown, priority, workload, QP)
//   slowdown.csv      slowdown percentiles per flow-size bucket, with completed/posted counts
//   collectives.csv   one row per collective phase (time against its lower bound)
//   queue.csv         switch egress queue lengths every output.queueInterval
//   pfc.csv           every PFC frame sent (time, node, port, priority, quanta)
//   credits.csv       InfiniBand: when each VL started and stopped waiting for credits
//   links.csv         bytes and utilization of every port
//   summary.json      FCT slowdown percentiles overall and per size bucket, drops, pauses...
//   summary.csv       the headline figures of summary.json as one CSV row (sweeps stack them)
//   timing.json       wall time, events/s, peak RSS and the machine they were measured on
//                     (the only file that differs between reruns)
//   plots/            figures (gnuplot), unless output.plots is false
//
// With parallel.ranks = N > 1 it runs on ns-3's distributed simulator under `mpirun -np N`
// (`./interconnect run SCENARIO --ranks=N` starts it so): every rank writes the flows, PFC
// frames, links, queues and counters of its own nodes into DIR/ranks/<rank>/, and rank 0 merges
// them into the files above, the same records a run on one rank writes.
//
// The pipeline itself (parse, check, build the fabric, install the technology, post the
// workloads, run, record) is ns3::ScenarioRunner, in the module's library.

#include "ns3/interconnect-config-error.h"
#include "ns3/scenario-runner.h"

#include <cstdio>
#include <string>
#include <vector>

int
main(int argc, char* argv[])
{
    // With no arguments (as ns-3's automatic example tests run every example) it runs the
    // quickstart scenario.
    std::string quickstart =
        std::string(INTERCONNECT_SOURCE_DIR) + "/examples/scenarios/quickstart.json";
    std::vector<char*> args(argv, argv + argc);
    if (argc == 1)
    {
        std::fprintf(stderr,
                     "interconnect-run: no scenario given: running %s\n",
                     quickstart.c_str());
        args.push_back(quickstart.data());
    }
    args.push_back(nullptr);
    int n = static_cast<int>(args.size()) - 1;
    char** v = args.data();
    return ns3::ReportConfigErrors([&]() {
        return ns3::ScenarioRunner::Main(n,
                                         v,
                                         std::string(INTERCONNECT_SOURCE_DIR) +
                                             "/scripts/plot-run.sh");
    });
}
