#!/usr/bin/env bash
# A shipped scenario runs (its first 300 us) and writes records for its technology: queue.csv
# and links.csv have rows; where summary.json counts ECN marks, PFC frames or credit stalls,
# the queues have a non-zero peak; PFC frames are in pfc.csv and, on InfiniBand, credit stalls
# in credits.csv.
# Run by ctest: scenario-records.sh RUNNER SCENARIO DIR
set -euo pipefail
runner="$1"
scenario="$2"
dir="$3"
rm -rf "$dir"
fail() { echo "FAIL: $(basename "$scenario"): $*"; exit 1; }
"$runner" "$scenario" --set stopTime=300us --set output.plots=false --out "$dir" ||
    fail "the run failed"
figure() { grep -o "\"$1\": [0-9]*" "$dir/summary.json" | head -1 | grep -o '[0-9]*$'; }
rows() { echo $(($(wc -l <"$dir/$1") - 1)); }
peak() { awk -F, -v c="$2" 'NR > 1 && $c + 0 > m { m = $c + 0 } END { print m + 0 }' "$dir/$1"; }
marks=$(figure ecnMarks)
pfc=$(figure framesSent)
stalls=$(figure creditStallNs)
[ "$(rows links.csv)" -gt 0 ] || fail "links.csv has no rows"
[ "$(peak links.csv 5)" -gt 0 ] || fail "links.csv: no port sent a byte"
if grep -q '"queues": "none"' "$dir/config.json"; then
    [ "$(rows queue.csv)" -eq 0 ] || fail "queue.csv has rows with output.queues none"
else
    [ "$(rows queue.csv)" -gt 0 ] || fail "queue.csv has no rows"
fi
if [ "$(rows queue.csv)" -gt 0 ] && { [ "$marks" -gt 0 ] || [ "$pfc" -gt 0 ] || [ "$stalls" -gt 0 ]; }; then
    [ "$(peak queue.csv 3)" -gt 0 ] ||
        fail "queue.csv is all zero with $marks ECN marks, $pfc PFC frames, $stalls ns of credit stalls"
fi
if [ "$pfc" -gt 0 ]; then
    [ "$(rows pfc.csv)" -eq "$pfc" ] || fail "pfc.csv has $(rows pfc.csv) rows for $pfc PFC frames"
fi
if [ -f "$dir/credits.csv" ] && [ "$stalls" -gt 0 ]; then
    [ "$(rows credits.csv)" -gt 0 ] || fail "credits.csv has no rows with $stalls ns of stalls"
fi
echo "$(basename "$scenario"): $(rows queue.csv) queue samples (peak $(peak queue.csv 3) B)," \
    "$(rows links.csv) links, $marks marks, $pfc PFC frames, $stalls ns credit stalls"
