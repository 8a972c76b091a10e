#!/usr/bin/env bash
# A scenario on 1, 2 and 4 ranks (ns-3's distributed simulator, both synchronisation
# algorithms) writes the same flow completion records, PFC frames, link counters, queue
# samples and congestion-control changes (cc.csv), byte for byte. Needs the MPI-enabled build of `./interconnect setup-mpi`.
#
# usage: test/mpi-ranks.sh RUNNER SCENARIO OUTDIR [--set key=value ...]
set -euo pipefail
runner="$1" scenario="$2" out="$3"
shift 3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rm -rf "$out"
mkdir -p "$out"
common=(--set output.plots=false --set output.ccState=true "$@")

"$runner" "$scenario" "${common[@]}" --out "$out/ranks1" 2>"$out/ranks1.log" >/dev/null
grep -q ',[0-9]*\.[0-9]*$' "$out/ranks1/flows.csv" || { echo "no completed flow on 1 rank"; exit 1; }
for run in 2:granted-time-window 4:granted-time-window 2:null-message 4:null-message; do
    n="${run%%:*}" sim="${run#*:}"
    dir="$out/ranks$n-$sim"
    mpirun --oversubscribe -np "$n" "$runner" "$scenario" "${common[@]}" \
        --set "parallel.ranks=$n" --set "parallel.simulator=$sim" --out "$dir" \
        2>"$dir.log" >/dev/null || { cat "$dir.log"; exit 1; }
    # The run really was split, with links across ranks.
    grep -Eq "$n ranks \([a-z]+\).*; [1-9][0-9]* links across ranks" "$dir.log" ||
        { echo "$dir: not split over $n ranks:"; cat "$dir.log"; exit 1; }
    for f in flows.csv pfc.csv links.csv queue.csv cc.csv; do
        cmp "$out/ranks1/$f" "$dir/$f" || { echo "$f differs on $n ranks ($sim)"; exit 1; }
    done
    echo "$n ranks ($sim): flows.csv, pfc.csv, links.csv, queue.csv, cc.csv identical to 1 rank"
done
