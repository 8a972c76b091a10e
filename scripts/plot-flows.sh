#!/usr/bin/env bash
# Figures from the flows.csv of one or more run directories, with gnuplot:
#   DIR1/plots/fct-cdf.{pdf,png}        CDF of flow completion times (one curve per run)
#   DIR1/plots/slowdown-vs-size.{pdf,png}  FCT slowdown against flow size
# With several directories the curves are overlaid, named after each directory, and the figures
# go to the first directory's plots/.
#
# usage: scripts/plot-flows.sh RESULTS_DIR [RESULTS_DIR ...]
set -euo pipefail

[ $# -ge 1 ] || { echo "usage: plot-flows.sh RESULTS_DIR [RESULTS_DIR ...]" >&2; exit 2; }
for dir in "$@"; do
    [ -f "$dir/flows.csv" ] || { echo "plot: $dir has no flows.csv (is it a results directory?)" >&2; exit 2; }
    head -n 1 "$dir/flows.csv" | grep -q 'fct_ns' ||
        { echo "plot: $dir/flows.csv has no fct_ns column" >&2; exit 2; }
done

plots="$1/plots"
mkdir -p "$plots"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Column positions by header name, so the plots survive added columns.
column() { head -n 1 "$1" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1; }

cdf_plots=()
slow_plots=()
i=0
for dir in "$@"; do
    csv="$dir/flows.csv"
    fct=$(column "$csv" fct_ns)
    size=$(column "$csv" size)
    slow=$(column "$csv" slowdown)
    name=$(basename "$(cd "$dir" && pwd)")
    # CDF: sorted FCTs in microseconds against their cumulative fraction.
    tail -n +2 "$csv" | cut -d, -f"$fct" | sort -g |
        awk '{ v[NR] = $1 / 1000 } END { for (i = 1; i <= NR; i++) print v[i], i / NR }' \
            > "$work/cdf$i.dat"
    tail -n +2 "$csv" | awk -F, -v s="$size" -v d="$slow" '{ print $s, $d }' > "$work/slow$i.dat"
    cdf_plots+=("'$work/cdf$i.dat' using 1:2 with steps linewidth 2 title '${name//_/\\_}'")
    slow_plots+=("'$work/slow$i.dat' using 1:2 with points pointtype 7 pointsize 0.5 title '${name//_/\\_}'")
    i=$((i + 1))
done

join_by() { local sep="$1"; shift; local out="$1"; shift; for x in "$@"; do out+="$sep$x"; done; echo "$out"; }

for term in pdf png; do
    if [ "$term" = pdf ]; then
        setterm="set terminal pdfcairo size 3.3in,2.4in font 'Helvetica,9'"
    else
        setterm="set terminal pngcairo size 990,720 font 'Helvetica,20'"
    fi
    gnuplot <<GP
$setterm
set key bottom right
set grid
set output '$plots/fct-cdf.$term'
set xlabel 'Flow completion time (µs)'
set ylabel 'CDF'
set logscale x
set yrange [0:1.02]
plot $(join_by ', ' "${cdf_plots[@]}")
set output '$plots/slowdown-vs-size.$term'
set xlabel 'Flow size (bytes)'
set ylabel 'FCT slowdown'
set logscale x
set logscale y
set autoscale y
set key top left
plot $(join_by ', ' "${slow_plots[@]}")
GP
done
echo "plot: wrote $plots/fct-cdf.{pdf,png} and $plots/slowdown-vs-size.{pdf,png}"
