#!/usr/bin/env bash
# Two builds of interconnect-bench compared in runs paired in time: each round runs one case on
# both builds at once, one per core, so that both see the same state of this shared machine
# (its speed varies by 20-40% from minute to minute, which runs taken one after the other turn
# into noise in their ratio). Prints each pair's packet-hops per CPU-second and their ratio
# (new over base), then the median and range of the ratios; the builds swap their start order
# every round. Check that two copies of one build give ratios near 1 before trusting a
# difference (they gave 0.92-1.03 on perm1024 here). It suits cases whose event loop lasts
# seconds (perm1024, a2a128, moe): on perm128 (0.3 s of loop after a longer set-up) the two
# loops barely overlap, and pairs ranged 0.6-1.5. Figures are reported, never asserted.
#
# usage: bench/paired.sh BASE_BUILD_DIR NEW_BUILD_DIR CASE [ROUNDS]   (default 6 rounds)
# A build directory is one that `cmake --build` made (it holds bench/interconnect-bench and
# the module's library); keep a base with `git worktree add` and a build of it.
set -euo pipefail
[ "$#" -ge 3 ] && [ "$#" -le 4 ] || {
    echo "usage: bench/paired.sh BASE_BUILD_DIR NEW_BUILD_DIR CASE [ROUNDS]" >&2
    exit 2
}
base_dir="$1" new_dir="$2" case_name="$3" rounds="${4:-6}"
script=paired
source "$(dirname "${BASH_SOURCE[0]}")/build-pair.sh"
check_rounds "$rounds"
check_build_dirs "$base_dir" "$new_dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { # run DIR OUTFILE
    run_bench "$1" "$case_name" >"$2" 2>&1
}
hops() { # the packet-hops per CPU-second of the case's line in FILE
    awk -F, -v c="$case_name" '$1 == c { print $8 }' "$1"
}
printf '%-8s %14s %14s %8s\n' round base new new/base
ratios=()
for i in $(seq "$rounds"); do
    if [ $((i % 2)) -eq 1 ]; then
        run "$base_dir" "$tmp/base" & a=$!
        run "$new_dir" "$tmp/new" & b=$!
    else
        run "$new_dir" "$tmp/new" & b=$!
        run "$base_dir" "$tmp/base" & a=$!
    fi
    wait "$a" || {
        kill "$b" 2>/dev/null || true
        echo "paired: the base build failed on '$case_name':" >&2
        cat "$tmp/base" >&2
        exit 1
    }
    wait "$b" || { echo "paired: the new build failed on '$case_name':" >&2; cat "$tmp/new" >&2; exit 1; }
    x=$(hops "$tmp/base") y=$(hops "$tmp/new")
    [ -n "$x" ] && [ -n "$y" ] || { echo "paired: no line for case '$case_name'" >&2; exit 1; }
    r=$(awk -v x="$x" -v y="$y" 'BEGIN { printf "%.3f", y / x }')
    ratios+=("$r")
    printf '%-8s %14s %14s %8s\n' "$i" "$x" "$y" "$r"
done
printf '%s\n' "${ratios[@]}" | sort -g | awk '
    { v[NR] = $1 }
    END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
          printf "median %.3f, range %.3f-%.3f over %d pairs\n", m, v[1], v[NR], NR }'
