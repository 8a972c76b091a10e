#!/usr/bin/env bash
# Parameter sweeps over a scenario: expand a grid of --set values, run every point with the
# scenario runner in parallel on this machine (GNU parallel when installed, xargs -P otherwise),
# or emit a Slurm array job that runs the same grid on a cluster; then stack every run's
# summary.csv into one table.
#
#   sweep.sh RUNNER SCENARIO [--grid key=v1,v2 ...] [--seeds N] [--set key=value ...]
#            [--out DIR] [--jobs N] [--slurm FILE]
#   sweep.sh --summarize DIR
#
# The grid is the Cartesian product of the --grid lists, the first key varying slowest. Every point
# runs in DIR/NNN_key=value_... with its own config.json (the resolved scenario and seed), log and
# outputs; DIR/grid.tsv lists the points and DIR/summary.csv has one row per point.
set -euo pipefail

die() {
    echo "sweep: $*" >&2
    exit 2
}

# One directory name per point: index, then key=value pairs with anything outside [A-Za-z0-9._=-]
# made '_'.
point_dir() {
    local index="$1"
    shift
    local name
    name=$(printf '%03d' "$index")
    local kv
    for kv in "$@"; do
        name+="_$(printf '%s' "$kv" | tr -c 'A-Za-z0-9._=-' '_')"
    done
    printf '%s' "$name"
}

# Stack DIR/*/summary.csv under the grid's columns into DIR/summary.csv. A failed point keeps its
# row, with status and the log to read, and empty figures.
summarize() {
    local dir="$1"
    [ -f "$dir/grid.tsv" ] || die "--summarize: '$dir' has no grid.tsv (not a sweep directory)"
    local header keys=() line first=1 failed=0
    IFS=$'\t' read -r -a header <"$dir/grid.tsv"
    keys=("${header[@]:2}")
    local figures_header=""
    while IFS=$'\t' read -r -a line; do
        [ "${line[0]}" = "run" ] && continue
        if [ -f "$dir/${line[1]}/summary.csv" ]; then
            figures_header=$(head -n 1 "$dir/${line[1]}/summary.csv")
            break
        fi
    done <"$dir/grid.tsv"
    # A run's figures that a grid key already names (seed, say) are left out: the grid's column
    # holds the same value.
    local grid_keys
    grid_keys=$(
        IFS=,
        echo "${keys[*]}"
    )
    drop_grid_columns() {
        awk -F, -v OFS=, -v keys="$grid_keys" -v header="$figures_header" '
            BEGIN { n = split(keys, k, ","); for (i = 1; i <= n; ++i) grid[k[i]] = 1
                    m = split(header, h, ","); for (i = 1; i <= m; ++i) keep[i] = !(h[i] in grid) }
            { out = ""; for (i = 1; i <= NF; ++i) if (keep[i]) out = out (out == "" ? "" : ",") $i
              print out }'
    }
    {
        local cols="run,dir"
        local k
        for k in "${keys[@]}"; do
            cols+=",$k"
        done
        echo "$cols,status${figures_header:+,$(echo "$figures_header" | drop_grid_columns)}"
        while IFS=$'\t' read -r -a line; do
            if [ $first -eq 1 ]; then
                first=0
                continue
            fi
            local row
            row=$(
                IFS=,
                echo "${line[*]}"
            )
            local point="$dir/${line[1]}"
            if [ -f "$point/summary.csv" ] && [ "$(wc -l <"$point/summary.csv")" -eq 2 ]; then
                echo "$row,ok,$(tail -n 1 "$point/summary.csv" | drop_grid_columns)"
            else
                failed=$((failed + 1))
                echo "$row,failed (see ${line[1]}/log)"
            fi
        done <"$dir/grid.tsv"
    } >"$dir/summary.csv"
    local n
    n=$(($(wc -l <"$dir/grid.tsv") - 1))
    echo "sweep: $((n - failed))/$n runs completed; summary in $dir/summary.csv" >&2
    [ $failed -eq 0 ]
}

# Run point INDEX of the sweep in DIR (a line of DIR/grid.tsv). Used by the local runner and by
# nothing else; the Slurm script carries its own copy of the grid.
run_point() {
    local dir="$1" index="$2" line
    line=$(awk -F'\t' -v i="$index" 'NR > 1 && $1 == i' "$dir/grid.tsv")
    [ -n "$line" ] || die "no point $index in $dir/grid.tsv"
    local fields
    IFS=$'\t' read -r -a fields <<<"$line"
    local runner scenario
    runner=$(cat "$dir/.runner")
    scenario=$(cat "$dir/.scenario")
    local args=() kv
    while IFS= read -r kv; do
        [ -n "$kv" ] && args+=(--set "$kv")
    done <"$dir/.sets"
    local keys
    IFS=$'\t' read -r -a keys <"$dir/grid.tsv"
    local j
    for ((j = 2; j < ${#fields[@]}; ++j)); do
        args+=(--set "${keys[$j]}=${fields[$j]}")
    done
    local out="$dir/${fields[1]}"
    mkdir -p "$out"
    if "$runner" "$scenario" "${args[@]}" --set output.plots=false --out "$out" >"$out/log" 2>&1; then
        echo "sweep: [$index] ${fields[1]} done" >&2
    else
        echo "sweep: [$index] ${fields[1]} FAILED (exit $?): see $out/log" >&2
    fi
}

if [ "${1:-}" = "--summarize" ]; then
    [ $# -eq 2 ] || die "usage: sweep.sh --summarize DIR"
    summarize "$2"
    exit $?
fi
if [ "${1:-}" = "--run-point" ]; then
    run_point "$2" "$3"
    exit 0
fi

[ $# -ge 2 ] || die "usage: ./interconnect sweep SCENARIO --grid key=v1,v2 [--grid ...] [--seeds N] [--set key=value] [--out DIR] [--jobs N] [--slurm FILE]"
runner="$1"
scenario="$2"
shift 2
[ -f "$scenario" ] || die "scenario file '$scenario' does not exist"
grid_keys=()
grid_values=()
sets=()
out=""
jobs="$(nproc 2>/dev/null || echo 2)"
slurm=""
seeds=""
while [ $# -gt 0 ]; do
    opt="$1"
    case "$opt" in
        --grid | --set | --out | --jobs | --slurm | --seeds)
            [ $# -ge 2 ] || die "$opt needs a value"
            value="$2"
            shift 2
            ;;
        --grid=* | --set=* | --out=* | --jobs=* | --slurm=* | --seeds=*)
            value="${opt#*=}"
            opt="${opt%%=*}"
            shift
            ;;
        *) die "unknown option '$opt'; accepted: --grid key=v1,v2 --seeds N --set key=value --out DIR --jobs N --slurm FILE" ;;
    esac
    case "$opt" in
        --grid)
            [[ "$value" =~ ^[A-Za-z0-9_.:]+=[^[:space:]]+$ ]] ||
                die "--grid '$value': expected key=v1,v2,... (a scenario key path or attributes.ns3::Class::Attribute, then comma-separated values without spaces)"
            key="${value%%=*}"
            list="${value#*=}"
            [[ ",$list," != *",,"* ]] || die "--grid '$value': empty value in the list"
            for k in "${grid_keys[@]}"; do
                [ "$k" != "$key" ] || die "--grid '$value': key '$key' is given twice"
            done
            grid_keys+=("$key")
            grid_values+=("$list")
            ;;
        --seeds)
            [[ "$value" =~ ^[1-9][0-9]*$ ]] || die "--seeds '$value': expected a positive integer (seeds 1..N)"
            seeds="$value"
            ;;
        --set)
            [[ "$value" =~ ^[A-Za-z0-9_.:]+=.*$ ]] || die "--set '$value': expected key=value (a scenario key path or attributes.ns3::Class::Attribute)"
            sets+=("$value")
            ;;
        --out) out="$value" ;;
        --jobs)
            [[ "$value" =~ ^[1-9][0-9]*$ ]] || die "--jobs '$value': expected a positive integer"
            jobs="$value"
            ;;
        --slurm) slurm="$value" ;;
    esac
done
if [ -n "$seeds" ]; then
    for k in "${grid_keys[@]}"; do
        [ "$k" != "seed" ] || die "--seeds and --grid seed=... both give the seeds; use one"
    done
    grid_keys+=("seed")
    grid_values+=("$(seq -s, 1 "$seeds")")
fi
[ ${#grid_keys[@]} -gt 0 ] || die "no --grid (or --seeds) given: nothing to sweep"

name=$(basename "$scenario" .json)
[ -n "$out" ] || out="results/sweep-$name"
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
    die "--out '$out' exists and is not empty; remove it or choose another directory"
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

# Expand the grid: points as tab-separated value lists, first key slowest.
points=("")
for ((g = 0; g < ${#grid_keys[@]}; ++g)); do
    IFS=, read -r -a vals <<<"${grid_values[$g]}"
    next=()
    for p in "${points[@]}"; do
        for v in "${vals[@]}"; do
            next+=("${p:+$p$'\t'}$v")
        done
    done
    points=("${next[@]}")
done

{
    printf 'run\tdir'
    printf '\t%s' "${grid_keys[@]}"
    printf '\n'
    i=0
    for p in "${points[@]}"; do
        IFS=$'\t' read -r -a vals <<<"$p"
        kvs=()
        for ((g = 0; g < ${#grid_keys[@]}; ++g)); do
            kvs+=("${grid_keys[$g]}=${vals[$g]}")
        done
        printf '%d\t%s\t%s\n' "$i" "$(point_dir "$i" "${kvs[@]}")" "$p"
        i=$((i + 1))
    done
} >"$out/grid.tsv"
n=${#points[@]}
readlink -f "$runner" >"$out/.runner"
echo "$out/scenario.json" >"$out/.scenario"
printf '%s\n' "${sets[@]+"${sets[@]}"}" >"$out/.sets"
cp "$scenario" "$out/scenario.json"

if [ -n "$slurm" ]; then
    # A self-contained Slurm array job: the grid is written out in it, one array task per point.
    {
        echo "#!/bin/bash"
        echo "# Sweep of $name: $n runs; grid:"
        for ((g = 0; g < ${#grid_keys[@]}; ++g)); do
            echo "#   ${grid_keys[$g]}=${grid_values[$g]}"
        done
        echo "#SBATCH --job-name=sweep-$name"
        echo "#SBATCH --array=0-$((n - 1))"
        echo "#SBATCH --ntasks=1"
        echo "#SBATCH --cpus-per-task=1"
        echo "#SBATCH --output=$out/slurm-%A_%a.log"
        echo "set -euo pipefail"
        printf 'RUNNER=%q\n' "${INTERCONNECT_SLURM_RUNNER:-$(cat "$out/.runner")}"
        printf 'SCENARIO=%q\n' "$out/scenario.json"
        printf 'OUT=%q\n' "$out"
        echo "SETS=("
        for kv in "${sets[@]+"${sets[@]}"}"; do
            printf '  --set %q\n' "$kv"
        done
        echo ")"
        echo "DIRS=("
        tail -n +2 "$out/grid.tsv" | while IFS=$'\t' read -r -a f; do
            printf '  %q\n' "${f[1]}"
        done
        echo ")"
        echo "POINTS=("
        tail -n +2 "$out/grid.tsv" | while IFS=$'\t' read -r -a f; do
            args=""
            for ((g = 0; g < ${#grid_keys[@]}; ++g)); do
                args+="--set ${grid_keys[$g]}=${f[$((g + 2))]} "
            done
            printf '  %q\n' "${args% }"
        done
        echo ")"
        echo 'i=${SLURM_ARRAY_TASK_ID:?run this script with sbatch (it is an array job)}'
        echo 'read -r -a point <<<"${POINTS[$i]}"'
        echo 'mkdir -p "$OUT/${DIRS[$i]}"'
        echo '"$RUNNER" "$SCENARIO" "${SETS[@]}" "${point[@]}" --set output.plots=false \'
        echo '    --out "$OUT/${DIRS[$i]}" >"$OUT/${DIRS[$i]}/log" 2>&1'
        echo "# When every task has finished: ./interconnect sweep --summarize $out"
    } >"$slurm"
    chmod +x "$slurm"
    echo "sweep: wrote $slurm (Slurm array of $n runs over $out); submit with: sbatch $slurm" >&2
    exit 0
fi

echo "sweep: $n runs of $name, $jobs at a time, into $out" >&2
self="$(readlink -f "${BASH_SOURCE[0]}")"
if command -v parallel >/dev/null 2>&1 && parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
    seq 0 $((n - 1)) | parallel --will-cite --jobs "$jobs" --joblog "$out/joblog" \
        bash "$self" --run-point "$out" {}
else
    seq 0 $((n - 1)) | xargs -P "$jobs" -I{} bash "$self" --run-point "$out" {}
fi
summarize "$out"
