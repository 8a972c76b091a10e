#!/usr/bin/env bash
# The WebSearch validation of doc/interconnect.rst: the quickstart's k=4 fat-tree (16 hosts,
# 100 Gb/s) with WebSearch flows at 40% load for 20 ms (942 flows), run to completion (100 ms),
# under DCQCN (paper and hpcc-sim presets) and HPCC, with a queue pair per flow and, for
# contrast, one per host pair. Prints each run's slowdown p50/p95/p99 per flow-size bucket
# (slowdown.csv) and writes the runs into DIR (default results/validation-websearch).
#
# usage: scripts/validation-websearch.sh RUNNER SCENARIO [DIR]
set -euo pipefail
runner="$1"
scenario="$2"
dir="${3:-results/validation-websearch}"
mkdir -p "$dir"
common=(--set workloads.0.load=0.4 --set workloads.0.stop=20ms --set stopTime=100ms
        --set output.plots=false)
run() {
    local name="$1"
    shift
    "$runner" "$scenario" "${common[@]}" --set "name=$name" "$@" --out "$dir/$name" >/dev/null
    echo "== $name ($(grep -o '"posted": [0-9]*, "completed": [0-9]*' "$dir/$name/summary.json" | head -1))"
    cut -d, -f1,4,5,9-11 "$dir/$name/slowdown.csv"
}
run dcqcn --set nic.cc=dcqcn
run dcqcn-hpcc-sim --set nic.cc=dcqcn --set nic.dcqcnPreset=hpcc-sim
run hpcc --set nic.cc=hpcc --set switch.ecn=false
run dcqcn-per-host-pair --set nic.cc=dcqcn --set nic.queuePairs=per-host-pair
run hpcc-per-host-pair --set nic.cc=hpcc --set switch.ecn=false --set nic.queuePairs=per-host-pair
