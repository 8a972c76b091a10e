#!/usr/bin/env bash
# Wall-clock speedup of distributed runs (ns-3's MPI simulator) over one rank, on a k=8 fat-tree
# (128 hosts, 80 switches, 100 Gb/s) with WebSearch flows at 50% load and DCQCN: the quickstart
# scenario scaled up. Also checks that every run wrote the same flows.csv as the one-rank run.
# Needs `./interconnect setup-mpi`. Figures are reported, never asserted.
#
# usage: bench/mpi-speedup.sh [OUTDIR]     (default: results/mpi-speedup)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE_DIR="${INTERCONNECT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ns3-interconnect}"
out="${1:-$ROOT/results/mpi-speedup}"
runner=$(find "$CACHE_DIR/mpi/ns-3.37/build" -type f -perm -u+x -name '*interconnect-run*' 2>/dev/null | head -n 1)
[ -n "$runner" ] || { echo "mpi-speedup: no MPI build; run ./interconnect setup-mpi first" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
scenario=(
    "$ROOT/examples/scenarios/quickstart.json" --set name=fat-tree-k8 --set fabric.k=8
    --set stopTime=4ms --set workloads.0.stop=2ms --set workloads.0.load=0.5
    --set output.plots=false --set output.queues=none
)
rm -rf "$out"
mkdir -p "$out"
echo "cores: $(nproc); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
printf '%-6s %-20s %9s %8s %12s %15s %14s %s\n' ranks simulator wall_s speedup events/s \
    packet-hops/s peak_rss_MB flows.csv
base=""
for run in 1:sequential 2:granted-time-window 4:granted-time-window 2:null-message 4:null-message; do
    n="${run%%:*}" sim="${run#*:}"
    dir="$out/ranks$n-$sim"
    if [ "$n" -eq 1 ]; then
        cmd=("$runner" "${scenario[@]}" --out "$dir")
    else
        cmd=(mpirun --oversubscribe -np "$n" "$runner" "${scenario[@]}" --set "parallel.ranks=$n"
             --set "parallel.simulator=$sim" --out "$dir")
    fi
    start=$(date +%s.%N)
    /usr/bin/time -f '%M' -o "$dir.rss" "${cmd[@]}" >"$dir.log" 2>&1
    wall=$(awk -v a="$(date +%s.%N)" -v b="$start" 'BEGIN { print a - b }')
    [ -n "$base" ] || base="$wall"
    same="same"
    [ "$n" -eq 1 ] || cmp -s "$out/ranks1-sequential/flows.csv" "$dir/flows.csv" || same="DIFFERS"
    # Events and packet hops are the whole network's (summed over ranks).
    events=$(sed -n 's/.*"events": \([0-9]*\).*/\1/p' "$dir/summary.json" | tail -n 1)
    hops=$(sed -n 's/.*"packetHops": \([0-9]*\).*/\1/p' "$dir/summary.json" | tail -n 1)
    awk -v n="$n" -v sim="$sim" -v wall="$wall" -v base="$base" -v ev="$events" -v hops="$hops" \
        -v rss="$(tail -n 1 "$dir.rss")" -v same="$same" 'BEGIN {
            printf "%-6s %-20s %9.2f %8.2f %12.0f %15.0f %14.0f %s\n",
                   n, sim, wall, base / wall, ev / wall, hops / wall, rss / 1024, same }'
done
