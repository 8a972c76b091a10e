#!/usr/bin/env bash
# Any attribute from a scenario, recorded however it was set:
#  * an attribute default set by NS_ATTRIBUTE_DEFAULT changes the run, and config.json records
#    it in attributes: run again from config.json, without the variable, the records are the
#    same byte for byte; --ns3::Class::Attribute=value and attributes.NAME (--set) give the
#    same run; config.json records the ns-3 version and the module's commit;
#  * a sweep over attributes.NAME gives one run per value, each recorded;
#  * an example program (cc-dumbbell) records the default NS_ATTRIBUTE_DEFAULT gave it;
#  * a malformed NS_ATTRIBUTE_DEFAULT, or --ns3:: naming no attribute, is refused by name.
# Run by ctest: attribute-record-test.sh RUNNER SWEEP_SH CC_DUMBBELL SOURCE_DIR DIR
set -euo pipefail
runner="$1"
sweep="$2"
dumbbell="$3"
src="$4"
dir="$5"
rm -rf "$dir"
mkdir -p "$dir"
fail() { echo "FAIL: $*"; exit 1; }
scenario="$src/examples/scenarios/incast-pfc.json"
small=(--set nic.cc=dcqcn --set stopTime=1ms --set workloads.0.rounds=2 --set output.plots=false)
attr=ns3::DcqcnCongestionControl::MinRate

"$runner" "$scenario" "${small[@]}" --out "$dir/plain" >/dev/null 2>&1 || fail "plain run failed"
NS_ATTRIBUTE_DEFAULT="$attr=90Gbps" "$runner" "$scenario" "${small[@]}" --out "$dir/env" \
    >/dev/null 2>&1 || fail "run with NS_ATTRIBUTE_DEFAULT failed"
cmp -s "$dir/plain/flows.csv" "$dir/env/flows.csv" &&
    fail "$attr=90Gbps in NS_ATTRIBUTE_DEFAULT did not change the run"
grep -q "\"$attr\": \"90Gbps\"" "$dir/env/config.json" ||
    fail "config.json does not record $attr from NS_ATTRIBUTE_DEFAULT in attributes"

"$runner" "$dir/env/config.json" --out "$dir/rerun" >/dev/null 2>&1 || fail "rerun failed"
for f in config.json flows.csv queue.csv pfc.csv links.csv summary.json; do
    cmp -s "$dir/env/$f" "$dir/rerun/$f" ||
        fail "$f differs between the run under NS_ATTRIBUTE_DEFAULT and its rerun from config.json"
done
"$runner" "$scenario" "${small[@]}" "--$attr=90Gbps" --out "$dir/option" >/dev/null 2>&1 ||
    fail "run with --$attr=90Gbps failed"
"$runner" "$scenario" "${small[@]}" --set "attributes.$attr=90Gbps" --out "$dir/set" \
    >/dev/null 2>&1 || fail "run with --set attributes.$attr=90Gbps failed"
for d in option set; do
    cmp -s "$dir/env/flows.csv" "$dir/$d/flows.csv" || fail "$d: not the run NS_ATTRIBUTE_DEFAULT gave"
    cmp -s "$dir/env/config.json" "$dir/$d/config.json" || fail "$d: config.json differs"
done
# An environment entry equal to the declared default still wins over the scenario's entry (as
# ns-3 gives the environment precedence), and is recorded so that the rerun does the same.
NS_ATTRIBUTE_DEFAULT="$attr=10Mbps" "$runner" "$scenario" "${small[@]}" --set "attributes.$attr=90Gbps" \
    --out "$dir/declared" >/dev/null 2>"$dir/declared.err" || fail "run with the declared value in NS_ATTRIBUTE_DEFAULT failed"
cmp -s "$dir/plain/flows.csv" "$dir/declared/flows.csv" || fail "NS_ATTRIBUTE_DEFAULT's entry did not win over attributes"
grep -q "overrides the scenario's attributes.$attr" "$dir/declared.err" || fail "no warning that the environment overrides"
grep -q "\"$attr\": \"10Mbps\"" "$dir/declared/config.json" || fail "the environment's 10Mbps is not recorded"
"$runner" "$dir/declared/config.json" --out "$dir/declared-rerun" >/dev/null 2>&1 || fail "rerun failed"
cmp -s "$dir/declared/flows.csv" "$dir/declared-rerun/flows.csv" || fail "the rerun of the declared-value run differs"

python3 - "$dir/env/config.json" "$src" <<'PY' || fail "config.json's recorded section is wrong"
import json, subprocess, sys
recorded = json.load(open(sys.argv[1]))["recorded"]
assert recorded["ns3Version"].startswith("3"), recorded
head = subprocess.run(["git", "-C", sys.argv[2], "rev-parse", "HEAD"], capture_output=True, text=True)
if head.returncode == 0 and subprocess.run(["git", "-C", sys.argv[2], "rev-parse", "--show-toplevel"],
        capture_output=True, text=True).stdout.strip() == sys.argv[2]:
    # The build's commit: HEAD, or (built from changes not committed yet, then committed
    # without a rebuild) a commit HEAD descends from, marked -dirty.
    commit = recorded["moduleCommit"]
    if commit.endswith("-dirty"):
        ancestor = subprocess.run(["git", "-C", sys.argv[2], "merge-base", "--is-ancestor",
                                   commit[:-6], "HEAD"])
        assert ancestor.returncode == 0, recorded
    else:
        assert commit == head.stdout.strip(), recorded
assert recorded["attributeDefaults"]["ns3::DcqcnCongestionControl::MinRate"] == "90000000000bps", recorded
PY

bash "$sweep" "$runner" "$scenario" --grid "attributes.$attr=20Gbps,90Gbps" "${small[@]}" \
    --out "$dir/sweep" --jobs 2 >/dev/null 2>"$dir/sweep.err" || fail "sweep failed: $(cat "$dir/sweep.err")"
mapfile -t points < <(find "$dir/sweep" -mindepth 1 -maxdepth 1 -type d | sort)
[ "${#points[@]}" -eq 2 ] || fail "2 sweep points expected, found ${#points[@]}"
grep -q "\"$attr\": \"20Gbps\"" "${points[0]}/config.json" || fail "sweep point 1 does not record 20Gbps"
grep -q "\"$attr\": \"90Gbps\"" "${points[1]}/config.json" || fail "sweep point 2 does not record 90Gbps"
cmp -s "${points[0]}/flows.csv" "${points[1]}/flows.csv" && fail "the sweep's two points ran the same"
cmp -s "${points[1]}/flows.csv" "$dir/env/flows.csv" || fail "sweep point 90Gbps is not the run it names"

NS_ATTRIBUTE_DEFAULT="ns3::HpccCongestionControl::MaxStage=0" "$dumbbell" --cc=hpcc --flows=2 \
    --duration=200us --out="$dir/dumbbell" >/dev/null 2>&1 || fail "cc-dumbbell failed"
grep -q '"ns3::HpccCongestionControl::MaxStage": "0"' "$dir/dumbbell/config.json" ||
    fail "cc-dumbbell's config.json does not record MaxStage 0 from NS_ATTRIBUTE_DEFAULT"

expect_refused() { # NAME ERRFILE
    local status=0
    "${@:3}" >/dev/null 2>"$2" || status=$?
    [ "$status" -eq 1 ] || fail "$1: exit status $status, 1 (a configuration error) expected"
    grep -q "$1" "$2" || fail "$1: the message does not name it: $(cat "$2")"
}
NS_ATTRIBUTE_DEFAULT="$attr" expect_refused NS_ATTRIBUTE_DEFAULT "$dir/e1" \
    "$runner" "$scenario" --out "$dir/refused"
NS_ATTRIBUTE_DEFAULT="ns3::NoSuchClass::X=1" expect_refused NS_ATTRIBUTE_DEFAULT "$dir/e2" \
    "$runner" "$scenario" --out "$dir/refused"
expect_refused "attributes.ns3::DcqcnCongestionControl::NoSuch" "$dir/e3" \
    "$runner" "$scenario" --ns3::DcqcnCongestionControl::NoSuch=1 --out "$dir/refused"
expect_refused "attributes.$attr" "$dir/e4" "$runner" "$scenario" "--$attr=fast" --out "$dir/refused"
# ns-3's own options, as in every ns-3 program.
"$runner" --PrintAttributes=ns3::RdmaNic >"$dir/print" 2>&1 || fail "--PrintAttributes failed"
grep -q -- "--ns3::RdmaNic::CnpInterval=" "$dir/print" || fail "--PrintAttributes=ns3::RdmaNic lists no CnpInterval"
"$runner" --PrintHelp >"$dir/help" 2>&1 || fail "--PrintHelp failed"
grep -q -- "--set" "$dir/help" && grep -q -- "--PrintAttributes" "$dir/help" ||
    fail "--PrintHelp names neither --set nor ns-3's options"
expect_refused PrintAttributes "$dir/e5" "$runner" --PrintAttributes=ns3::NoSuchClass
echo "attributes recorded and replayed"
