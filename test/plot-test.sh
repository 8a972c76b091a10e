#!/usr/bin/env bash
# Paper-ready figures (scripts/plot-run.sh):
#  * every PDF is one column wide (3.4 in) with no text under 7 pt;
#  * an overlay goes to --out under its --labels, and leaves the runs' own plots/ alone;
#  * the queue and PFC figures share one time axis, clipped to the activity;
#  * the collectives figure has one series per named phase kind, at whole phase numbers;
#  * a sweep's figure against a grid key; bad options refused by name;
#  * when gnuplot fails, its message is shown and no empty figure is left;
#  * `example quickstart` and `run quickstart` write into different default directories.
# Run by ctest: plot-test.sh PLOT_SH RUNNER QUICKSTART_EXAMPLE SOURCE_DIR DIR
set -euo pipefail
plot="$1"
runner="$2"
example="$3"
src="$4"
dir="$5"
rm -rf "$dir"
mkdir -p "$dir"
fail() { echo "FAIL: $*"; exit 1; }
off=(--set output.plots=false)

"$runner" "$src/examples/scenarios/incast-pfc.json" "${off[@]}" --set workloads.0.rounds=2 \
    --set stopTime=1ms --out "$dir/pfc" >/dev/null 2>&1 || fail "incast-pfc failed"
"$runner" "$src/examples/scenarios/incast-pfc.json" "${off[@]}" --set workloads.0.rounds=2 \
    --set stopTime=1ms --set nic.cc=dcqcn --out "$dir/dcqcn" >/dev/null 2>&1 || fail "dcqcn failed"
"$runner" "$src/examples/scenarios/moe-dgx-h100.json" "${off[@]}" --out "$dir/moe" >/dev/null 2>&1 ||
    fail "moe-dgx-h100 failed"

# A folder of one's own as --out: what the script did not write there stays.
mkdir -p "$dir/overlay/gnuplot"
echo mine >"$dir/overlay/gnuplot/notes.txt"
: >"$dir/overlay/.gitkeep"
bash "$plot" "$dir/pfc" "$dir/dcqcn" --label 'No CC' --label DCQCN --out "$dir/overlay" >"$dir/overlay.log" 2>&1 ||
    fail "overlay failed: $(cat "$dir/overlay.log")"
[ ! -e "$dir/pfc/plots" ] || fail "the overlay wrote into the first run's plots/"
[ -f "$dir/overlay/gnuplot/notes.txt" ] && [ -f "$dir/overlay/.gitkeep" ] || fail "the overlay deleted files of its --out folder"
bash "$plot" "$dir/moe" >"$dir/moe.log" 2>&1 || fail "moe plot failed: $(cat "$dir/moe.log")"

# Sizes: the page width and the smallest text of every PDF (cairo writes each text object's
# size as its text matrix's scale times the font size).
python3 - "$dir/overlay"/*.pdf "$dir/moe/plots"/*.pdf <<'PY' || fail "a figure is not one column wide with text of 7 pt or more"
import re, sys, zlib
for path in sys.argv[1:]:
    d = open(path, 'rb').read()
    box = re.search(rb'/MediaBox\s*\[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)', d)
    width = (float(box.group(3)) - float(box.group(1))) / 72
    sizes = []
    for s in re.finditer(rb'stream\r?\n(.*?)\r?\nendstream', d, re.S):
        try:
            t = zlib.decompress(s.group(1)).decode('latin1')
        except zlib.error:
            continue
        for bt in re.findall(r'BT(.*?)ET', t, re.S):
            tm = re.search(r'([-\d.]+) ([-\d.]+) [-\d.]+ [-\d.]+ [-\d.]+ [-\d.]+ Tm', bt)
            tf = re.search(r' ([-\d.]+) Tf', bt)
            if tm and tf:
                sizes.append(float(tf.group(1)) * (float(tm.group(1)) ** 2 + float(tm.group(2)) ** 2) ** 0.5)
    ok = abs(width - 3.4) < 0.05 and sizes and min(sizes) >= 7
    print(path, "width %.2f in, %d texts, smallest %.2f pt" % (width, len(sizes), min(sizes or [0])))
    assert ok, path
PY

gp="$dir/overlay/gnuplot/figures.gp"
[ -s "$gp" ] || fail "no gnuplot script kept in the overlay's gnuplot/"
grep -q "title 'No CC'" "$gp" && grep -q "title 'DCQCN'" "$gp" || fail "the overlay's series are not under their labels"
grep -q '^"No CC" ' "$dir/overlay/slowdown-vs-size.dat" || fail "slowdown-vs-size.dat does not name the first label"
ranges=$(grep -o 'set xrange \[[^]]*\]' "$gp" | sort -u || true)
[ "$(echo "$ranges" | wc -l)" -eq 1 ] && [ "$(grep -c 'set xrange' "$gp")" -eq 2 ] ||
    fail "queue and pfc-timeline do not share one time axis: $ranges"
echo "$ranges" | grep -q '\[\*' && fail "the time axis is not clipped to the activity"
# The incast's activity ends within 1 ms: the axis is in µs, and says so.
[ "$(grep -c "set xlabel 'Time (µs)'" "$gp")" -eq 2 ] || fail "the time axes are not labelled in µs: $(grep -o "Time ([^)]*)" "$gp" | sort -u)"
(cd "$dir/overlay" && gnuplot gnuplot/figures.gp 2>/dev/null) || fail "the kept script does not redraw the figures"

kinds=$(tail -n +2 "$dir/moe/collectives.csv" | cut -d, -f1 | sort -u | wc -l)
for k in $(tail -n +2 "$dir/moe/collectives.csv" | cut -d, -f1 | sort -u); do
    grep -q "title '$k'" "$dir/moe/plots/gnuplot/figures.gp" || fail "the collectives figure has no series named $k"
done
[ "$kinds" -ge 2 ] || fail "moe-dgx-h100 should have several phase kinds"
grep -q "set xtics [0-9]* format '%.0f'" "$dir/moe/plots/gnuplot/figures.gp" || fail "phases are not at whole numbers"

# A sweep, against a grid key.
mkdir -p "$dir/sweep/000_a" "$dir/sweep/001_b"
printf 'run\tdir\tnic.cc\n0\t000_a\tdcqcn\n1\t001_b\thpcc\n2\t002_c\ttimely\n' >"$dir/sweep/grid.tsv"
# (the scenario's name, quoted, holds a comma: the figure after it must not shift)
printf 'run,dir,nic.cc,status,name,slowdown_p99\n0,000_a,dcqcn,ok,"a,b",3.5\n1,001_b,hpcc,ok,"a,b",2.25\n2,002_c,timely,failed,"a,b",\n' >"$dir/sweep/summary.csv"
bash "$plot" "$dir/sweep" --x nic.cc --y p99 >"$dir/sweep.log" 2>&1 || fail "sweep plot failed: $(cat "$dir/sweep.log")"
grep -q "left out of the sweep figure, without slowdown_p99: 002_c (failed)" "$dir/sweep.log" ||
    fail "the failed point is not named: $(cat "$dir/sweep.log")"
[ "$(stat -c %s "$dir/sweep/plots/sweep-p99.pdf")" -gt 1000 ] || fail "no sweep-p99.pdf"
grep -q '"dcqcn"' "$dir/sweep/plots/gnuplot/series0.dat" && grep -q '3.5' "$dir/sweep/plots/gnuplot/series0.dat" ||
    fail "the sweep figure does not plot dcqcn at 3.5"
refused() { # WHAT ARGS...
    local what="$1" status=0
    shift
    bash "$plot" "$@" >/dev/null 2>"$dir/refused" || status=$?
    [ "$status" -eq 2 ] && grep -q -- "$what" "$dir/refused" || fail "$what: not refused by name ($status): $(cat "$dir/refused")"
}
refused "--x 'seed'" "$dir/sweep" --x seed
refused "--y 'nope'" "$dir/sweep" --x nic.cc --y nope
refused "--label" "$dir/pfc" --label a --label b
refused "unknown option '--bogus'" "$dir/pfc" --bogus

# gnuplot's own message when it fails, and no empty figure left.
mkdir -p "$dir/fakebin"
printf '#!/bin/sh\necho "line 3: unknown terminal type pdfcairo (fake)" >&2\n: > fct-cdf.pdf\nexit 1\n' >"$dir/fakebin/gnuplot"
chmod +x "$dir/fakebin/gnuplot"
status=0
PATH="$dir/fakebin:$PATH" bash "$plot" "$dir/pfc" --out "$dir/broken" >/dev/null 2>"$dir/broken.err" || status=$?
[ "$status" -eq 1 ] || fail "a failing gnuplot: exit status $status, 1 expected"
grep -q "unknown terminal type pdfcairo (fake)" "$dir/broken.err" || fail "gnuplot's message is not shown: $(cat "$dir/broken.err")"
[ ! -e "$dir/broken/fct-cdf.pdf" ] || fail "an empty figure was left behind"

# The quickstart example and the quickstart scenario, by default, into different directories.
mkdir -p "$dir/cwd"
(cd "$dir/cwd" && "$example" --flowSize=100000 >/dev/null 2>&1) || fail "the quickstart example failed"
(cd "$dir/cwd" && "$runner" "$src/examples/scenarios/quickstart.json" --set stopTime=200us "${off[@]}" \
    >/dev/null 2>&1) || fail "the quickstart scenario failed"
[ -f "$dir/cwd/results/examples/quickstart/config.json" ] && [ -f "$dir/cwd/results/quickstart/config.json" ] ||
    fail "example and run did not write results/examples/quickstart and results/quickstart"
grep -q '"program": "quickstart"' "$dir/cwd/results/examples/quickstart/config.json" ||
    fail "results/examples/quickstart is not the example's"
echo "figures paper-ready"
