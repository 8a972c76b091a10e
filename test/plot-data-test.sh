#!/usr/bin/env bash
# The slowdown-vs-size figure plots the figures summary.json reports (one statistics path), the
# flow counts of summary.json match flows.csv, and a scenario name full of shell and CSV
# metacharacters neither runs a command nor breaks summary.json or summary.csv.
# Run by ctest: plot-data-test.sh RUNNER SCENARIO DIR
set -euo pipefail
runner="$1"
scenario="$2"
dir="$3"
rm -rf "$dir"
mkdir -p "$dir"
fail() { echo "FAIL: $*"; exit 1; }

# A short run whose last flows cannot finish: unfinished ones count at their lower bound.
"$runner" "$scenario" --set stopTime=1500us --set workloads.0.stop=1400us \
    --out "$dir/run" >"$dir/run.out" 2>"$dir/run.err" || fail "run failed: $(cat "$dir/run.err")"
summary="$dir/run/summary.json"
dat="$dir/run/plots/slowdown-vs-size.dat"
[ -s "$dat" ] || fail "no $dat"
points=0
while read -r _ median p50 p99; do
    line=$(grep "\"medianBytes\": $median, \"p50\": $p50, \"p95\": [0-9.]*, \"p99\": $p99}" "$summary") ||
        fail "figure point ($median, $p50, $p99) is not a bucket of summary.json"
    points=$((points + 1))
done < <(grep -v '^#' "$dat")
buckets=$(grep -c '"bucket": .*"p50": [0-9]' "$summary")
[ "$points" -eq "$buckets" ] || fail "$points figure points, $buckets buckets with figures in summary.json"
[ "$points" -ge 5 ] || fail "only $points buckets with flows"

# Every flow counts: posted = rows of flows.csv, completed = rows with an end time.
posted=$(($(wc -l <"$dir/run/flows.csv") - 1))
slow=$(head -1 "$dir/run/flows.csv" | tr ',' '\n' | grep -nx end_ns | cut -d: -f1)
completed=$(tail -n +2 "$dir/run/flows.csv" | awk -F, -v c="$slow" '$c != ""' | wc -l)
grep -q "\"flows\": {\"posted\": $posted, \"completed\": $completed, \"unfinished\": $((posted - completed))" "$summary" ||
    fail "summary.json flows do not match flows.csv ($posted posted, $completed completed)"
[ "$completed" -lt "$posted" ] || fail "expected unfinished flows in a 1.5 ms run"
grep -q "did not complete by the end of the run" "$dir/run.err" || fail "no warning about unfinished flows"
grep -q "10KB-30KB" "$dir/run.out" || fail "no per-bucket report on the terminal"

# A hostile name, without --out: the default directory results/NAME, the plots, no shell.
name='q"x,y$(touch pwned)`touch pwned2`;touch pwned3'
(cd "$dir" && "$runner" "$scenario" --set stopTime=300us --set "name=$name" \
    >name.out 2>name.err) || fail "run with a hostile name failed: $(cat "$dir/name.err")"
for f in pwned pwned2 pwned3; do
    [ ! -e "$dir/$f" ] && [ ! -e "$dir/run/$f" ] || fail "the scenario name ran a command ($f)"
done
# Without a double quote, the same name would have run through the old shell string.
(cd "$dir" && "$runner" "$scenario" --set stopTime=300us --set 'name=q$(touch pwned4)' \
    >name2.out 2>name2.err) || fail "run with a hostile name failed: $(cat "$dir/name2.err")"
[ ! -e "$dir/pwned4" ] || fail "the scenario name ran a command (pwned4)"
out="$dir/results/$name"
[ -s "$out/plots/fct-cdf.png" ] || fail "no plots for the hostile name"
grep -qF '"name": "q\"x,y$(touch pwned)`touch pwned2`;touch pwned3",' "$out/summary.json" ||
    fail "summary.json does not escape the name"
tail -1 "$out/summary.csv" | grep -qF '"q""x,y$(touch pwned)`touch pwned2`;touch pwned3",' ||
    fail "summary.csv does not quote the name"
echo "figure data = summary.json ($points buckets); counts match flows.csv; hostile name harmless"
