#!/usr/bin/env bash
# Figures of one or more run directories, with gnuplot, as PDF (for papers) and PNG:
#   fct-cdf             CDF of flow completion times over the flows that started: it tops out at
#                       the share that completed, never at 1 when some did not
#   slowdown-vs-size    FCT slowdown p50 (dashed) and p99 (solid) per flow-size bucket, at each
#                       bucket's median size: the figures of slowdown.csv, which summary.json
#                       also shows (unfinished flows at their lower bound); the points are kept
#                       in plots/slowdown-vs-size.dat
#   queue               the largest sampled switch queue over time        (needs queue.csv)
#   pfc-timeline        PFC pause frames sent per 10 us                   (needs pfc.csv)
#   collectives         time of each collective phase over its lower bound (needs collectives.csv)
# With several directories the curves are overlaid with each run's name (the directory name) in
# the key, and the figures go to the first directory's plots/.
#
# usage: scripts/plot-run.sh RESULTS_DIR [RESULTS_DIR ...]
set -euo pipefail

[ $# -ge 1 ] || { echo "usage: plot-run.sh RESULTS_DIR [RESULTS_DIR ...]" >&2; exit 2; }
for dir in "$@"; do
    [ -f "$dir/flows.csv" ] || { echo "plot: $dir has no flows.csv (is it a results directory?)" >&2; exit 2; }
    head -n 1 "$dir/flows.csv" | grep -q 'fct_ns' ||
        { echo "plot: $dir/flows.csv has no fct_ns column" >&2; exit 2; }
    [ -f "$dir/slowdown.csv" ] ||
        { echo "plot: $dir has no slowdown.csv (made by an older runner: run it again)" >&2; exit 2; }
done

plots="$1/plots"
mkdir -p "$plots"
plots=$(cd "$plots" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
: > "$work/slowdown-vs-size.dat"

# Column position by header name, so the plots survive added columns.
column() { head -n 1 "$1" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1; }
join_by() { local sep="$1"; shift; local out="$1"; shift; for x in "$@"; do out+="$sep$x"; done; echo "$out"; }

cdf=(); slow50=(); slow99=(); queue=(); pfc=(); coll=()
i=0
for dir in "$@"; do
    # A legend label only: anything but letters, digits, dot and dash becomes a space, so that no
    # directory name can end a gnuplot string (gnuplot can run shell commands).
    name=$(basename "$(cd "$dir" && pwd)" | tr -c 'A-Za-z0-9.\n-' ' ')
    title="$name"
    csv="$dir/flows.csv"
    fct=$(column "$csv" fct_ns)
    size=$(column "$csv" size)
    slow=$(column "$csv" slowdown)
    started=$(awk -F, -v p="$(column "$dir/slowdown.csv" posted)" \
                      -v n="$(column "$dir/slowdown.csv" not_started)" \
                      '$1 == "all" { print $p - $n }' "$dir/slowdown.csv")
    tail -n +2 "$csv" | awk -F, -v c="$fct" '$c != "" { print $c / 1000 }' | sort -g |
        awk -v n="$started" '{ v[NR] = $1 } END { for (i = 1; i <= NR; i++) print v[i], i / n }' > "$work/cdf$i.dat"
    if [ -s "$work/cdf$i.dat" ]; then
        cdf+=("'$work/cdf$i.dat' using 1:2 with steps linewidth 2 title '$title'")
    fi
    # Slowdown percentiles per size bucket, as slowdown.csv has them (buckets with no started
    # flow have none).
    sc="$dir/slowdown.csv"
    awk -F, -v b="$(column "$sc" bucket)" -v m="$(column "$sc" median_bytes)" \
            -v p50="$(column "$sc" p50)" -v p99="$(column "$sc" p99)" \
            'NR > 1 && $b != "all" && $p50 != "n/a" { print $m, $p50, $p99 }' "$sc" > "$work/slow$i.dat"
    awk -v r="$title" '{ print "\"" r "\"", $0 }' "$work/slow$i.dat" >> "$work/slowdown-vs-size.dat"
    if [ -s "$work/slow$i.dat" ]; then
        slow50+=("'$work/slow$i.dat' using 1:2 with linespoints dashtype 2 linewidth 2 linecolor $((i + 1)) title '$title p50'")
        slow99+=("'$work/slow$i.dat' using 1:3 with linespoints linewidth 2 linecolor $((i + 1)) title '$title p99'")
    fi
    if [ -s "$dir/queue.csv" ] && [ "$(wc -l < "$dir/queue.csv")" -gt 1 ]; then
        tail -n +2 "$dir/queue.csv" | awk -F, '{ if ($3 > m[$1]) m[$1] = $3; t[$1] = 1 }
            END { for (x in t) print x / 1e6, m[x] / 1e3 }' | sort -g > "$work/queue$i.dat"
        queue+=("'$work/queue$i.dat' using 1:2 with lines linewidth 2 title '$title'")
    fi
    if [ -s "$dir/pfc.csv" ] && [ "$(wc -l < "$dir/pfc.csv")" -gt 1 ]; then
        tail -n +2 "$dir/pfc.csv" | awk -F, '$5 > 0 { n[int($1 / 10000)]++ }
            END { for (b in n) print b * 0.01, n[b] }' | sort -g > "$work/pfc$i.dat"
        pfc+=("'$work/pfc$i.dat' using 1:2 with impulses linewidth 2 title '$title'")
    fi
    if [ -s "$dir/collectives.csv" ] && [ "$(wc -l < "$dir/collectives.csv")" -gt 1 ]; then
        tail -n +2 "$dir/collectives.csv" | awk -F, '$8 != "" { print NR, $8 }' > "$work/coll$i.dat"
        coll+=("'$work/coll$i.dat' using 1:2 with linespoints pointtype 7 linewidth 2 title '$title'")
    fi
    i=$((i + 1))
done

{
    echo "# run median_flow_bytes slowdown_p50 slowdown_p99 (from each run's slowdown.csv)"
    cat "$work/slowdown-vs-size.dat"
} > "$plots/slowdown-vs-size.dat"

# gnuplot runs in the plots directory and writes plain file names there: no directory name
# given on the command line reaches its script.
cd "$plots"
for term in pdf png; do
    if [ "$term" = pdf ]; then
        setterm="set terminal pdfcairo size 3.4in,2.4in font 'Helvetica,8'"
    else
        setterm="set terminal pngcairo size 1020,720 font 'Helvetica,18'"
    fi
    {
        echo "$setterm"
        echo "set grid"
        echo "set key outside top center horizontal"
        if [ ${#cdf[@]} -gt 0 ]; then
            echo "set output 'fct-cdf.$term'"
            echo "set xlabel 'Flow completion time (µs)'; set ylabel 'CDF'; set logscale x; set yrange [0:1.02]"
            echo "plot $(join_by ', ' "${cdf[@]}")"
            echo "unset logscale; set autoscale"
        fi
        if [ ${#slow50[@]} -gt 0 ]; then
            echo "set output 'slowdown-vs-size.$term'"
            echo "set xlabel 'Flow size (bytes)'; set ylabel 'FCT slowdown'; set logscale xy; set autoscale y"
            echo "plot $(join_by ', ' "${slow50[@]}" "${slow99[@]}")"
            echo "unset logscale"
        fi
        if [ ${#queue[@]} -gt 0 ]; then
            echo "set output 'queue.$term'"
            echo "set xlabel 'Time (ms)'; set ylabel 'Largest queue (KB)'; set autoscale"
            echo "plot $(join_by ', ' "${queue[@]}")"
        fi
        if [ ${#pfc[@]} -gt 0 ]; then
            echo "set output 'pfc-timeline.$term'"
            echo "set xlabel 'Time (ms)'; set ylabel 'Pause frames per 10 µs'; set autoscale"
            echo "plot $(join_by ', ' "${pfc[@]}")"
        fi
        if [ ${#coll[@]} -gt 0 ]; then
            echo "set output 'collectives.$term'"
            echo "set xlabel 'Collective phase'; set ylabel 'Time / lower bound'; set autoscale; set yrange [0:*]"
            echo "plot $(join_by ', ' "${coll[@]}")"
        fi
    } | gnuplot 2>/dev/null
done
[ ${#cdf[@]} -gt 0 ] || echo "plot: no flow completed: no FCT figures" >&2
echo "plot: wrote $(cd "$plots" && ls | tr '\n' ' ')in $plots"
