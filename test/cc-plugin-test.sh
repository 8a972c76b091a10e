#!/usr/bin/env bash
# A congestion control of one's own in the runner: nic.ccLibrary loads a plugin (the one of
# examples/custom-congestion-control.cc) before the scenario is checked, nic.cc names its
# TypeId and attributes its attribute; the algorithm then sets the rates (cc.csv steps by its
# RateStep), the run is recorded and reruns from config.json byte for byte. A relative path
# starts at the scenario file's folder; a missing library, or the TypeId without it, is refused
# by name.
# Run by ctest: cc-plugin-test.sh RUNNER PLUGIN SCENARIO DIR
set -euo pipefail
runner="$1"
plugin="$2"
scenario="$3"
dir="$4"
rm -rf "$dir"
mkdir -p "$dir/scenario"
fail() { echo "FAIL: $*"; exit 1; }
cc=ns3::ExampleAimdCongestionControl
small=(--set stopTime=1ms --set workloads.0.rounds=2 --set output.plots=false --set output.ccState=true)

status=0
"$runner" "$scenario" "${small[@]}" --set nic.cc=$cc --out "$dir/none" >/dev/null 2>"$dir/e1" || status=$?
[ "$status" -eq 1 ] && grep -q "nic.cc" "$dir/e1" || fail "$cc without its library: not refused by name ($status)"
status=0
"$runner" "$scenario" "${small[@]}" --set nic.ccLibrary=/no/such/lib.so --set nic.cc=$cc \
    --out "$dir/none" >/dev/null 2>"$dir/e2" || status=$?
[ "$status" -eq 1 ] && grep -q "nic.ccLibrary" "$dir/e2" || fail "a missing library: not refused by name"
status=0
"$runner" "$scenario" "${small[@]}" --set nic.ccLibrary="$scenario" --set nic.cc=$cc \
    --out "$dir/none" >/dev/null 2>"$dir/e3" || status=$?
[ "$status" -eq 1 ] && grep -q "nic.ccLibrary" "$dir/e3" || fail "a file that is no library: not refused by name"

for step in 20Mbps 50Mbps; do
    "$runner" "$scenario" "${small[@]}" --set nic.ccLibrary="$plugin" --set nic.cc=$cc \
        --set "attributes.$cc::RateStep=$step" --out "$dir/$step" >/dev/null 2>&1 ||
        fail "the run with the plugin (RateStep $step) failed"
done
# The algorithm acts: rates rise by RateStep per acknowledged kilobyte (the largest rise from one
# row to the next of a queue pair is a whole number of steps, the smallest exactly one).
for step in 20 50; do
    awk -F, -v step="${step}000000" 'NR > 1 {
            if (($2, $3) in last && $4 > last[$2, $3]) {
                rise = $4 - last[$2, $3]; n++
                if (rise % step != 0) bad++
                if (min == "" || rise < min) min = rise
            }
            last[$2, $3] = $4 }
        END { exit !(n > 10 && bad == 0 && min == step) }' "$dir/${step}Mbps/cc.csv" ||
        fail "cc.csv of RateStep ${step}Mbps does not rise in steps of ${step} Mb/s"
done
"$runner" "$scenario" "${small[@]}" --set nic.cc=none --out "$dir/off" >/dev/null 2>&1 || fail "cc none failed"
cmp -s "$dir/off/flows.csv" "$dir/50Mbps/flows.csv" && fail "the plugin's algorithm changed nothing"
grep -q "\"ccLibrary\": \"$plugin\"" "$dir/50Mbps/config.json" || fail "config.json does not record the library"
"$runner" "$dir/50Mbps/config.json" --out "$dir/rerun" >/dev/null 2>&1 || fail "rerun failed"
for f in config.json flows.csv cc.csv summary.json; do
    cmp -s "$dir/50Mbps/$f" "$dir/rerun/$f" || fail "$f differs on the rerun from config.json"
done

# A relative path, from the scenario file's folder (the runner started elsewhere).
cp "$plugin" "$dir/scenario/my-cc.so"
python3 - "$dir/50Mbps/config.json" "$dir/scenario/s.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))  # (a resolved scenario: plain JSON)
s["nic"]["ccLibrary"] = "my-cc.so"
json.dump(s, open(sys.argv[2], "w"))
PY
(cd / && "$runner" "$dir/scenario/s.json" --out "$dir/relative" >/dev/null 2>&1) ||
    fail "a library relative to the scenario's folder was not found"
grep -q "\"ccLibrary\": \"$dir/scenario/my-cc.so\"" "$dir/relative/config.json" ||
    fail "the relative library is not recorded by its absolute path"
echo "plugin loaded, in effect, recorded"
