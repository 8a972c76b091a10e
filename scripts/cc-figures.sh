#!/usr/bin/env bash
# The congestion-control validation figures of doc/interconnect.rst: for each algorithm, four
# flows join a 25 Gb/s bottleneck 5 ms apart (cc-dumbbell --stagger); per-flow rate and the
# bottleneck queue over time. Writes doc/figures/cc-<algorithm>.png and prints the numbers the
# documentation quotes (second half of the run).
#
# usage: scripts/cc-figures.sh [BUILD_DIR]     (default: build)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
OUT="$ROOT/results/cc-figures"
FIG="$ROOT/doc/figures"
mkdir -p "$FIG" "$OUT"
for cc in dcqcn hpcc timely dctcp; do
    dir="$OUT/$cc"
    "$BUILD/examples/cc-dumbbell" --cc="$cc" --flows=4 --rate=25Gbps --stagger=5ms \
        --duration=40ms --interval=100us --out="$dir" | sed -n 2p | sed "s/^/$cc: /"
    for f in 0 1 2 3; do
        awk -F, -v f="flow$f" 'NR > 1 && $2 == f { print $1 / 1e6, $3 / 1e9 }' \
            "$dir/rates.csv" > "$dir/rate$f.dat"
    done
    awk -F, 'NR > 1 { print $1 / 1e6, $3 / 1e3 }' "$dir/queue.csv" > "$dir/queue.dat"
    gnuplot <<GP
set terminal pngcairo size 1000,640 font 'Helvetica,16'
set output '$FIG/cc-$cc.png'
set multiplot layout 2,1 title '$cc: 4 flows join a 25 Gb/s bottleneck 5 ms apart'
set grid
set ylabel 'Rate (Gb/s)'
set yrange [0:26]
set key outside right
plot for [f=0:3] '$dir/rate'.f.'.dat' using 1:2 with lines linewidth 2 title 'flow '.f
set xlabel 'Time (ms)'
set ylabel 'Queue (KB)'
set autoscale y
unset key
plot '$dir/queue.dat' using 1:2 with lines linewidth 2 linecolor rgb '#333333'
unset multiplot
GP
done
echo "figures in $FIG"
