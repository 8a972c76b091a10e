#!/usr/bin/env bash
# Figures of one or more run directories, or of a sweep, with gnuplot, as PDF (for papers: 3.4 in
# wide, one column, text at 8 pt) and PNG:
#   fct-cdf             CDF of flow completion times over the flows that started: it tops out at
#                       the share that completed, never at 1 when some did not
#   slowdown-vs-size    FCT slowdown p50 (dashed) and p99 (solid) per flow-size bucket, at each
#                       bucket's median size: the figures of slowdown.csv, which summary.json
#                       also shows (unfinished flows at their lower bound); the points are kept
#                       in plots/slowdown-vs-size.dat
#   queue               the largest sampled switch queue over time        (needs queue.csv)
#   pfc-timeline        PFC pause frames sent per 10 us                   (needs pfc.csv)
#                       (queue and pfc-timeline share one time axis, clipped to the activity)
#   collectives         time of each collective phase over its lower bound, by phase number,
#                       one series per phase kind             (needs collectives.csv)
# With several directories the curves are overlaid, each under its label (--label, in the order
# of the directories; the directory's name by default), and the figures go to --out DIR (by
# default the first directory's plots/).
#
# A sweep directory (scripts/sweep.sh: grid.tsv and summary.csv) gives one figure instead,
# sweep-FIGURE: the figure (p50, p95, p99 for the slowdown percentiles, or any column of
# summary.csv) against the grid key --x, one line per value of the other grid keys.
#
# usage: plot-run.sh RESULTS_DIR [RESULTS_DIR ...] [--label NAME ...] [--out DIR]
#        plot-run.sh SWEEP_DIR --x KEY [--y FIGURE] [--out DIR]
set -euo pipefail

die() {
    echo "plot: $*" >&2
    exit 2
}
usage="usage: plot-run.sh RESULTS_DIR [RESULTS_DIR ...] [--label NAME ...] [--out DIR]
       plot-run.sh SWEEP_DIR --x KEY [--y FIGURE] [--out DIR]"

dirs=()
labels=()
out=""
xkey=""
yfig=""
while [ $# -gt 0 ]; do
    case "$1" in
        --out | --label | --x | --y)
            [ $# -ge 2 ] || die "$1 needs a value"
            case "$1" in
                --out) out="$2" ;;
                --label) labels+=("$2") ;;
                --x) xkey="$2" ;;
                --y) yfig="$2" ;;
            esac
            shift 2
            ;;
        --out=* | --label=* | --x=* | --y=*)
            value="${1#*=}"
            case "$1" in
                --out=*) out="$value" ;;
                --label=*) labels+=("$value") ;;
                --x=*) xkey="$value" ;;
                --y=*) yfig="$value" ;;
            esac
            shift
            ;;
        -h | --help)
            echo "$usage"
            exit 0
            ;;
        -*) die "unknown option '$1'; accepted: --label NAME, --out DIR, --x KEY, --y FIGURE" ;;
        *)
            dirs+=("$1")
            shift
            ;;
    esac
done
[ ${#dirs[@]} -ge 1 ] || { echo "$usage" >&2; exit 2; }
command -v gnuplot >/dev/null 2>&1 || die "gnuplot not found (Debian: gnuplot-nox; ./interconnect plot installs it)"

# A label or a name in a figure: anything but letters, digits, dot, dash, colon, equals and
# plus becomes a space, so that no name can end a gnuplot string (gnuplot can run commands).
safe() { printf '%s' "$1" | tr -c 'A-Za-z0-9.:=+-' ' '; }
# Column position by header name, so the plots survive added columns.
column() { head -n 1 "$1" | tr ',' '\n' | grep -nxF -- "$2" | head -n 1 | cut -d: -f1; }
join_by() { local sep="$1"; shift; local s="$1"; shift; for x in "$@"; do s+="$sep$x"; done; echo "$s"; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The figures' script is kept with its data (plots/gnuplot/NAME.gp, plots/gnuplot/*.dat): edit it
# and run `gnuplot gnuplot/NAME.gp` in plots/ to redraw the PDFs (gnuplot -e "ext='png'" ... the
# PNGs). The PDF is one column wide with 8 pt text (pdfcairo draws its fonts at 2/3 of the size
# named: 12 gives 8 pt), the PNG at the same proportions for screens.
terminal() {
    echo "if (!exists('ext')) ext = 'pdf'"
    echo "if (ext eq 'pdf') { set terminal pdfcairo size 3.4in,2.4in font 'Helvetica,12' linewidth 1 } \\"
    echo "else { set terminal pngcairo size 1020,720 font 'Helvetica,16' linewidth 2 }"
}

# Keep a gnuplot script (standard input) as plots/gnuplot/NAME.gp and run it in the plots
# directory for PDF and PNG; on failure show gnuplot's own message, remove what it left
# half-written and fail.
run_gnuplot() {
    local script="$gp/$1.gp" ext
    cat >"$script"
    for ext in pdf png; do
        if ! (cd "$plots" && gnuplot -e "ext='$ext'" "gnuplot/$1.gp") 2>"$work/gnuplot.err"; then
            echo "plot: gnuplot failed on $script:" >&2
            cat "$work/gnuplot.err" >&2
            # The figures this script names (set output 'NAME.'.ext), when left empty.
            local name
            for name in $(grep -o "set output '[A-Za-z0-9_.-]*'\." "$script" | cut -d"'" -f2); do
                [ -s "$plots/$name$ext" ] || rm -f "$plots/$name$ext"
            done
            exit 1
        fi
        # gnuplot warns on stderr without failing (an empty range, a skipped file): say it too.
        if [ -s "$work/gnuplot.err" ]; then
            sed 's/^/plot: gnuplot: /' "$work/gnuplot.err" >&2
        fi
    done
}

# The figures' directory (plots, absolute) and, afresh, its gnuplot/ (gp) for the script and data.
use_plots() {
    mkdir -p "$1"
    plots=$(cd "$1" && pwd)
    gp="$plots/gnuplot"
    mkdir -p "$gp"
    # Only what this script wrote there before (a user's own files in the folder stay).
    find "$gp" -maxdepth 1 -type f \( -name 'figures.gp' -o -name 'sweep-*.gp' -o \
        -name 'cdf[0-9]*.dat' -o -name 'slow[0-9]*.dat' -o -name 'queue[0-9]*.dat' -o \
        -name 'pfc[0-9]*.dat' -o -name 'coll[0-9]*.dat' -o -name 'series[0-9]*.dat' \) -delete
}

# Common settings: a grid, the key above the plot, tick labels in engineering notation.
preamble() {
    echo "set encoding utf8"
    echo "set grid"
    echo "set key outside top center horizontal"
}

if [ -f "${dirs[0]}/grid.tsv" ] && [ -f "${dirs[0]}/summary.csv" ]; then
    # ---- A sweep ---------------------------------------------------------------------------
    sweep="${dirs[0]}"
    [ ${#dirs[@]} -eq 1 ] || die "one sweep directory at a time (got ${#dirs[@]} directories)"
    [ ${#labels[@]} -eq 0 ] || die "--label is for run directories, not a sweep"
    summary="$sweep/summary.csv"
    IFS=$'\t' read -r -a grid <"$sweep/grid.tsv"
    keys=("${grid[@]:2}")
    [ -n "$xkey" ] || die "--x: name the grid key for the x axis; this sweep's keys: ${keys[*]}"
    printf '%s\n' "${keys[@]}" | grep -qxF -- "$xkey" ||
        die "--x '$xkey': not a grid key of $sweep; its keys: ${keys[*]}"
    yfig="${yfig:-p99}"
    case "$yfig" in p50 | p95 | p99) ycol="slowdown_$yfig" ;; *) ycol="$yfig" ;; esac
    [ -n "$(column "$summary" "$ycol")" ] ||
        die "--y '$yfig': not a figure of $summary; p50, p95, p99 or a column: $(head -n 1 "$summary")"
    use_plots "${out:-$sweep/plots}"
    # The points: x, y, series (the other grid keys' values), from the rows that ran.
    others=()
    for k in "${keys[@]}"; do [ "$k" = "$xkey" ] || others+=("$k"); done
    xc=$(column "$summary" "$xkey")
    yc=$(column "$summary" "$ycol")
    sc=$(column "$summary" status)
    oc=""
    for k in "${others[@]}"; do oc+="$(column "$summary" "$k") "; done
    # The scenario's name is the one cell that can hold a comma (quoted): the columns after it
    # are counted from the end of the line, the grid's (before it) from the start.
    nc=$(column "$summary" name)
    hn=$(head -n 1 "$summary" | awk -F, '{ print NF }')
    # A series is named by the other grid keys and their values (switch.pfc=false).
    awk -F, -v xc="$xc" -v yc="$yc" -v sc="$sc" -v oc="$oc" -v on="${others[*]}" -v nc="${nc:-0}" -v hn="$hn" '
        function cell(c) { return (nc > 0 && c > nc) ? $(NF - (hn - c)) : $c }
        NR > 1 && cell(sc) == "ok" && cell(yc) != "" {
            n = split(oc, o, " "); split(on, names, " "); s = ""
            for (i = 1; i <= n; ++i) s = s (i > 1 ? " " : "") names[i] "=" cell(o[i])
            print cell(xc) "\t" cell(yc) "\t" s }' "$summary" >"$work/points"
    [ -s "$work/points" ] || die "no run of $sweep has $ycol (did every point fail?)"
    # A point that failed, or has no such figure, is not in the figure: say which.
    dc=$(column "$summary" dir)
    missing=$(awk -F, -v sc="$sc" -v yc="$yc" -v dc="$dc" -v nc="${nc:-0}" -v hn="$hn" '
        function cell(c) { return (nc > 0 && c > nc) ? $(NF - (hn - c)) : $c }
        NR > 1 && !(cell(sc) == "ok" && cell(yc) != "") { printf " %s (%s)", cell(dc), cell(sc) }' "$summary")
    [ -z "$missing" ] || echo "plot: left out of the sweep figure, without $ycol:$missing" >&2
    # Numeric x values plot at their value; others (20Gbps, dcqcn) in grid order, by name.
    numeric=1
    if awk -F'\t' '$1 !~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/ { found = 1 } END { exit !found }' "$work/points"; then
        numeric=0
    fi
    awk -F'\t' '!seen[$1]++ { print $1 }' "$work/points" >"$work/xs"
    series=()
    i=0
    while IFS= read -r s; do
        awk -F'\t' -v s="$s" -v numeric="$numeric" -v xs="$work/xs" '
            BEGIN { while ((getline v < xs) > 0) pos[v] = ++n }
            $3 == s { print (numeric ? $1 : pos[$1]), $2, "\"" $1 "\"" }' "$work/points" |
            tr -c 'A-Za-z0-9.:=+" \n-' ' ' >"$gp/series$i.dat"
        title=$(safe "${s:-$ycol}")
        if [ "$numeric" -eq 1 ]; then
            series+=("'gnuplot/series$i.dat' using 1:2 with linespoints pointtype 7 title '$title'")
        else
            series+=("'gnuplot/series$i.dat' using 1:2:xtic(3) with linespoints pointtype 7 title '$title'")
        fi
        i=$((i + 1))
    done < <(cut -f3 "$work/points" | awk '!seen[$0]++')
    xlabel=$(safe "$xkey")
    ylabel=$(safe "$ycol")
    case "$ycol" in slowdown_*) ylabel=$(safe "FCT slowdown ${ycol#slowdown_}") ;; esac
    # Plain numbers for figures like slowdowns, SI prefixes for counts (1.2M packet hops).
    yformat=$(awk -F'\t' '{ v = $2 < 0 ? -$2 : $2; if (v > m) m = v } END { print (m >= 1e4 ? "%.3s%c" : "%g") }' "$work/points")
    name="sweep-$(printf '%s' "$yfig" | tr -c 'A-Za-z0-9._-' '_')"
    {
        terminal
        preamble
        echo "set output '$name.'.ext"
        echo "set xlabel '$xlabel'; set ylabel '$ylabel'; set format y '$yformat'"
        [ "$numeric" -eq 1 ] && echo "set format x '%.3s%c'" || echo "set offsets 0.3, 0.3, 0, 0"
        echo "plot $(join_by ', ' "${series[@]}")"
    } | run_gnuplot "$name"
    echo "plot: wrote $name.pdf $name.png in $plots (the script and its data in gnuplot/)"
    exit 0
fi
[ -z "$xkey" ] && [ -z "$yfig" ] || die "--x and --y are for a sweep directory (one with grid.tsv)"

# ---- Runs ------------------------------------------------------------------------------------
for dir in "${dirs[@]}"; do
    [ -f "$dir/flows.csv" ] || die "$dir has no flows.csv (is it a results directory?)"
    head -n 1 "$dir/flows.csv" | grep -q 'fct_ns' || die "$dir/flows.csv has no fct_ns column"
    [ -f "$dir/slowdown.csv" ] || die "$dir has no slowdown.csv (made by an older runner: run it again)"
done
[ ${#labels[@]} -eq 0 ] || [ ${#labels[@]} -eq ${#dirs[@]} ] ||
    die "--label: ${#labels[@]} labels for ${#dirs[@]} directories (give one per directory, in order)"

use_plots "${out:-${dirs[0]}/plots}"
: >"$work/slowdown-vs-size.dat"

cdf=(); slow50=(); slow99=(); queue=(); pfc=(); coll=()
phases=0
: >"$work/activity"
i=0
for dir in "${dirs[@]}"; do
    if [ ${#labels[@]} -gt 0 ]; then
        title=$(safe "${labels[$i]}")
    else
        title=$(safe "$(basename "$(cd "$dir" && pwd)")")
    fi
    csv="$dir/flows.csv"
    fct=$(column "$csv" fct_ns)
    started=$(awk -F, -v p="$(column "$dir/slowdown.csv" posted)" \
                      -v n="$(column "$dir/slowdown.csv" not_started)" \
                      '$1 == "all" { print $p - $n }' "$dir/slowdown.csv")
    # FCTs in seconds: the axis writes them with SI prefixes (10µs, 1ms).
    tail -n +2 "$csv" | awk -F, -v c="$fct" '$c != "" { print $c / 1e9 }' | sort -g |
        awk -v n="$started" '{ v[NR] = $1 } END { for (i = 1; i <= NR; i++) print v[i], i / n }' >"$gp/cdf$i.dat"
    if [ -s "$gp/cdf$i.dat" ]; then
        cdf+=("'gnuplot/cdf$i.dat' using 1:2 with steps linewidth 2 linecolor $((i + 1)) title '$title'")
    fi
    # Slowdown percentiles per size bucket, as slowdown.csv has them (buckets with no started
    # flow have none).
    sc="$dir/slowdown.csv"
    awk -F, -v b="$(column "$sc" bucket)" -v m="$(column "$sc" median_bytes)" \
            -v p50="$(column "$sc" p50)" -v p99="$(column "$sc" p99)" \
            'NR > 1 && $b != "all" && $p50 != "n/a" { print $m, $p50, $p99 }' "$sc" >"$gp/slow$i.dat"
    awk -v r="$title" '{ print "\"" r "\"", $0 }' "$gp/slow$i.dat" >>"$work/slowdown-vs-size.dat"
    if [ -s "$gp/slow$i.dat" ]; then
        slow50+=("'gnuplot/slow$i.dat' using 1:2 with linespoints dashtype 2 linewidth 2 linecolor $((i + 1)) title '$title p50'")
        slow99+=("'gnuplot/slow$i.dat' using 1:3 with linespoints linewidth 2 linecolor $((i + 1)) title '$title p99'")
    fi
    # The largest queue of any switch port at each sample (seconds, bytes), and the times
    # anything was queued, for the shared time axis.
    if [ -s "$dir/queue.csv" ] && [ "$(wc -l <"$dir/queue.csv")" -gt 1 ]; then
        tail -n +2 "$dir/queue.csv" | awk -F, '{ if ($3 > m[$1]) m[$1] = $3; t[$1] = 1 }
            END { for (x in t) print x / 1e9, m[x] + 0 }' | sort -g >"$gp/queue$i.dat"
        queue+=("'gnuplot/queue$i.dat' using (\$1 * tscale):2 with lines linewidth 2 linecolor $((i + 1)) title '$title'")
        awk '$2 > 0 { print $1 }' "$gp/queue$i.dat" >>"$work/activity"
    fi
    if [ -s "$dir/pfc.csv" ] && [ "$(wc -l <"$dir/pfc.csv")" -gt 1 ]; then
        tail -n +2 "$dir/pfc.csv" | awk -F, '$5 > 0 { n[int($1 / 10000)]++ }
            END { for (b in n) print b * 1e-5, n[b] }' | sort -g >"$gp/pfc$i.dat"
        if [ -s "$gp/pfc$i.dat" ]; then
            pfc+=("'gnuplot/pfc$i.dat' using (\$1 * tscale):2 with impulses linewidth 2 linecolor $((i + 1)) title '$title'")
            cut -d' ' -f1 "$gp/pfc$i.dat" >>"$work/activity"
        fi
    fi
    # Collective phases by number, one series per kind (moe-dispatch, all-to-all:rail, ...).
    if [ -s "$dir/collectives.csv" ] && [ "$(wc -l <"$dir/collectives.csv")" -gt 1 ]; then
        cc="$dir/collectives.csv"
        tail -n +2 "$cc" | awk -F, -v k="$(column "$cc" kind)" -v r="$(column "$cc" ratio)" \
            '$r != "" { print NR, $r, $k }' >"$work/coll$i.all"
        n=$(wc -l <"$work/coll$i.all")
        [ "$n" -le "$phases" ] || phases=$n
        j=0
        while IFS= read -r kind; do
            awk -v k="$kind" '$3 == k { print $1, $2 }' "$work/coll$i.all" >"$gp/coll$i-$j.dat"
            name=$(safe "$kind")
            [ ${#dirs[@]} -eq 1 ] || name="$title $name"
            coll+=("'gnuplot/coll$i-$j.dat' using 1:2 with points pointtype $((7 + 2 * j)) linecolor $((i + 1)) title '$name'")
            j=$((j + 1))
        done < <(awk '!seen[$3]++ { print $3 }' "$work/coll$i.all")
    fi
    i=$((i + 1))
done
# Shared time axis for queue and PFC figures: from the first activity to the last, with 5% on
# either side (the whole run when nothing was queued or paused).
# The axis is in ms from 1 ms up, in µs below.
trange=$(sort -g "$work/activity" | awk 'NR == 1 { a = $1 } { b = $1 }
    END { if (NR > 0) { m = (b - a) * 0.05; if (m == 0) m = 1e-5; lo = a - m; if (lo < 0) lo = 0;
                        hi = b + m } else { lo = "*"; hi = "*" }
          unit = (NR > 0 && hi < 1e-3) ? "1000000" : "1000"
          printf "%s %s %s\n", (lo == "*" ? "*" : lo * unit), (hi == "*" ? "*" : hi * unit), unit }')
read -r tlo thi tscale <<<"$trange"
tunit=$([ "$tscale" = 1000000 ] && echo µs || echo ms)

{
    echo "# run median_flow_bytes slowdown_p50 slowdown_p99 (from each run's slowdown.csv)"
    cat "$work/slowdown-vs-size.dat"
} >"$plots/slowdown-vs-size.dat"

# gnuplot runs in the plots directory and writes plain file names there: no directory name
# given on the command line reaches its script.
{
    terminal
    preamble
    if [ ${#cdf[@]} -gt 0 ]; then
        echo "set output 'fct-cdf.'.ext"
        echo "set xlabel 'Flow completion time'; set ylabel 'CDF'; set logscale x; set yrange [0:1.02]"
        echo "set format x '%.0s%cs'; set format y '%g'"
        echo "plot $(join_by ', ' "${cdf[@]}")"
        echo "unset logscale; set autoscale"
    fi
    if [ ${#slow50[@]} -gt 0 ]; then
        echo "set output 'slowdown-vs-size.'.ext"
        echo "set xlabel 'Flow size'; set ylabel 'FCT slowdown'; set logscale xy; set autoscale y"
        echo "set format x '%.0s%cB'; set format y '%g'"
        echo "plot $(join_by ', ' "${slow50[@]}" "${slow99[@]}")"
        echo "unset logscale"
    fi
    if [ ${#queue[@]} -gt 0 ]; then
        echo "set output 'queue.'.ext"
        echo "tscale = $tscale; set xlabel 'Time ($tunit)'; set ylabel 'Largest switch queue'"
        echo "set autoscale; set xrange [$tlo:$thi]; set format x '%g'; set format y '%.0s%cB'"
        echo "plot $(join_by ', ' "${queue[@]}")"
    fi
    if [ ${#pfc[@]} -gt 0 ]; then
        echo "set output 'pfc-timeline.'.ext"
        echo "tscale = $tscale; set xlabel 'Time ($tunit)'; set ylabel 'Pause frames per 10 µs'"
        echo "set autoscale; set xrange [$tlo:$thi]; set format x '%g'; set format y '%g'"
        echo "plot $(join_by ', ' "${pfc[@]}")"
    fi
    if [ ${#coll[@]} -gt 0 ]; then
        echo "set output 'collectives.'.ext"
        echo "set xlabel 'Collective phase'; set ylabel 'Time / lower bound'; set autoscale; set yrange [0:*]"
        # Whole phase numbers, about ten ticks at most.
        echo "set xtics $(( (phases + 9) / 10 )) format '%.0f'; set mxtics 1; set format y '%g'"
        echo "set offsets 0.5, 0.5, 0, 0"
        echo "plot $(join_by ', ' "${coll[@]}")"
    fi
} | run_gnuplot figures
[ ${#cdf[@]} -gt 0 ] || echo "plot: no flow completed: no FCT figures" >&2
echo "plot: wrote $(cd "$plots" && ls -p | grep -v / | tr '\n' ' ')in $plots (the script and its data in gnuplot/)"
