#!/usr/bin/env bash
# A 2x2 sweep gives four run directories and one summary of four rows; the Slurm script it emits
# for the same grid passes `bash -n` and names that grid; a failing point is reported in the
# summary and by the exit status; malformed options are refused with a message naming them.
# Run by ctest: sweep-test.sh SWEEP_SH RUNNER SCENARIO DIR
set -euo pipefail
sweep="$1"
runner="$2"
scenario="$3"
dir="$4"
rm -rf "$dir"
mkdir -p "$dir"
fail() { echo "FAIL: $*"; exit 1; }
small=(--set stopTime=1ms --set workloads.0.stop=500us)

bash "$sweep" "$runner" "$scenario" --grid nic.cc=dcqcn,hpcc --grid seed=1,2 "${small[@]}" \
    --out "$dir/grid" --jobs 2 2>"$dir/grid.err" || fail "sweep failed: $(cat "$dir/grid.err")"
runs=$(find "$dir/grid" -mindepth 2 -maxdepth 2 -name config.json | wc -l)
[ "$runs" -eq 4 ] || fail "4 run directories with config.json expected, found $runs"
[ "$(wc -l <"$dir/grid/summary.csv")" -eq 5 ] || fail "summary.csv: header + 4 rows expected"
for point in "nic.cc=dcqcn seed=1" "nic.cc=dcqcn seed=2" "nic.cc=hpcc seed=1" "nic.cc=hpcc seed=2"; do
    read -r cc seed <<<"$point"
    d=$(ls "$dir/grid" | grep -x "[0-9]*_${cc}_${seed}") || fail "no directory for $point"
    grep -q "\"cc\": \"${cc#nic.cc=}\"" "$dir/grid/$d/config.json" ||
        fail "$d/config.json does not record $cc"
    grep -q "\"seed\": ${seed#seed=}," "$dir/grid/$d/config.json" ||
        fail "$d/config.json does not record $seed"
    grep -q "^[0-9]*,$d,${cc#nic.cc=},${seed#seed=},ok,quickstart,1," \
        "$dir/grid/summary.csv" || fail "summary.csv has no ok row for $point"
done
# The grid's seed column is not repeated among the run's figures (the runner's run number is).
header=$(head -n 1 "$dir/grid/summary.csv")
[ "$header" = "${header/seed,*seed,/}" ] || fail "summary.csv repeats the seed column: $header"
# The two seeds give different traffic, the same seed the same traffic under both CCs.
posted() { awk -F, -v d="$1" '$2 ~ d {print $8}' "$dir/grid/summary.csv"; }
[ "$(posted dcqcn_seed=1)" = "$(posted hpcc_seed=1)" ] || fail "same seed, different flows posted"
[ "$(posted dcqcn_seed=1)" != "$(posted dcqcn_seed=2)" ] || fail "seeds 1 and 2 posted the same flows"

# The Slurm array job of the same grid.
bash "$sweep" "$runner" "$scenario" --grid nic.cc=dcqcn,hpcc --grid seed=1,2 "${small[@]}" \
    --out "$dir/slurm" --slurm "$dir/slurm/array.sbatch" 2>/dev/null
bash -n "$dir/slurm/array.sbatch" || fail "the Slurm script does not parse"
grep -q '^#SBATCH --array=0-3$' "$dir/slurm/array.sbatch" || fail "no 4-task array"
grep -q '^#   nic.cc=dcqcn,hpcc$' "$dir/slurm/array.sbatch" || fail "grid nic.cc not named"
grep -q '^#   seed=1,2$' "$dir/slurm/array.sbatch" || fail "grid seed not named"
for point in "nic.cc=dcqcn --set seed=1" "nic.cc=hpcc --set seed=2"; do
    grep -qF -- "--set\\ $(echo "$point" | sed 's/ /\\ /g')" "$dir/slurm/array.sbatch" ||
        fail "point '$point' missing from the Slurm script"
done
# Run task 3 of the array the way Slurm would, then summarize.
SLURM_ARRAY_TASK_ID=3 bash "$dir/slurm/array.sbatch"
[ -s "$dir/slurm/003_nic.cc=hpcc_seed=2/summary.csv" ] || fail "array task 3 wrote no summary"

# A point that fails (unknown congestion control) is reported, and the sweep exits non-zero.
if bash "$sweep" "$runner" "$scenario" --grid nic.cc=dcqcn,bogus "${small[@]}" \
    --out "$dir/failing" 2>"$dir/failing.err"; then
    fail "a sweep with a failing point exited 0"
fi
grep -q '^1,001_nic.cc=bogus,bogus,failed (see 001_nic.cc=bogus/log)$' "$dir/failing/summary.csv" ||
    fail "the failed point is not reported in summary.csv"
grep -q "nic.cc" "$dir/failing/001_nic.cc=bogus/log" || fail "the failed run's log does not name nic.cc"
grep -q '1/2 runs completed' "$dir/failing.err" || fail "no count of completed runs"

# Malformed options.
expect_error() {
    local pattern="$1"
    shift
    if bash "$sweep" "$runner" "$scenario" "$@" --out "$dir/bad" 2>"$dir/bad.err"; then
        fail "accepted: $*"
    fi
    grep -q -- "$pattern" "$dir/bad.err" || fail "error for '$*' does not say '$pattern': $(cat "$dir/bad.err")"
    rm -rf "$dir/bad"
}
expect_error "--grid 'nic.cc': expected key=v1,v2" --grid nic.cc
expect_error "empty value" --grid nic.cc=dcqcn,,hpcc
expect_error "given twice" --grid seed=1 --grid seed=2
expect_error "--seeds '0'" --seeds 0
expect_error "--jobs 'x'" --grid seed=1 --jobs x
expect_error "nothing to sweep" --set seed=3
expect_error "unknown option '--gird'" --gird seed=1
echo "sweep: grid, summary, Slurm script, failures and bad options as expected"
