#!/usr/bin/env bash
# Two builds of interconnect-bench compared in runs alternated one after the other, as the
# build-to-build ratios of doc/performance-log.rst are measured (the manual's bench table, in
# doc/interconnect.rst, Performance, is ./interconnect bench --repeat=N on one build): each round
# runs the cases on one build, then on the other (the base first in odd rounds, the new first in
# even ones), so that both see the machine's slow and fast minutes alike. Prints, per case, the median packet-hops per
# CPU-second of each build and the median and range of the rounds' ratios (new over base); then,
# for every case after the first, its cost per packet-hop over the first case's, as the median
# over the rounds of the ratio of the two speeds in one run (perm128 then perm1024: the growth
# that the speed targets bound). Figures are reported, never asserted.
# bench/paired.sh runs the two builds at once instead, for a single long case.
#
# usage: bench/alternated.sh BASE_BUILD_DIR NEW_BUILD_DIR ROUNDS CASE [CASE ...]
# A build directory is one that `cmake --build` made (bench/interconnect-bench and the module's
# library). The programs run as started: on 4 KB pages unless GLIBC_TUNABLES says otherwise
# (GLIBC_TUNABLES=glibc.malloc.hugetlb=1 for huge pages, as ./interconnect bench runs them), and
# with the libraries' calls bound lazily unless LD_BIND_NOW=1 (as ./interconnect bench runs them:
# it counts only in a case's peak RSS, which this script does not compare).
set -euo pipefail
[ "$#" -ge 4 ] || {
    echo "usage: bench/alternated.sh BASE_BUILD_DIR NEW_BUILD_DIR ROUNDS CASE [CASE ...]" >&2
    exit 2
}
base_dir="$1" new_dir="$2" rounds="$3"
shift 3
cases=("$@")
script=alternated
source "$(dirname "${BASH_SOURCE[0]}")/build-pair.sh"
check_rounds "$rounds"
check_cases "${cases[@]}"
check_build_dirs "$base_dir" "$new_dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { # run DIR NAME ROUND: the cases' lines into $tmp/NAME.ROUND
    run_bench "$1" "${cases[@]}" >"$tmp/$2.$3" 2>&1 || {
        echo "alternated: the $2 build failed:" >&2
        cat "$tmp/$2.$3" >&2
        exit 1
    }
}
for i in $(seq "$rounds"); do
    if [ $((i % 2)) -eq 1 ]; then
        run "$base_dir" base "$i"
        run "$new_dir" new "$i"
    else
        run "$new_dir" new "$i"
        run "$base_dir" base "$i"
    fi
done
# One line per round and build: "build round case hops" (a case's first line: column 8 is its
# packet-hops per CPU-second), all of them before the summary is made of them.
for i in $(seq "$rounds"); do
    for b in base new; do
        for c in "${cases[@]}"; do
            h=$(awk -F, -v c="$c" '$1 == c { print $8; exit }' "$tmp/$b.$i")
            [[ "$h" =~ ^[0-9]+$ ]] && [ "$h" -gt 0 ] || {
                echo "alternated: no packet-hops for case '$c' from the $b build" >&2
                exit 1
            }
            echo "$b $i $c $h" >>"$tmp/lines"
        done
    done
done
awk -v cases="${cases[*]}" -v rounds="$rounds" '
    function median(a, n,    i, j, t) {
        for (i = 2; i <= n; ++i) for (j = i; j > 1 && a[j - 1] > a[j]; --j) {
            t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
        return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    function range(a, n,    i, lo, hi) {
        lo = a[1]; hi = a[1]
        for (i = 2; i <= n; ++i) { if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] }
        return sprintf("%.3f-%.3f", lo, hi)
    }
    { h[$1, $2, $3] = $4 }
    END {
        n = split(cases, c, " ")
        printf "%-14s %12s %12s %8s %13s\n", "case", "base", "new", "new/base", "range"
        for (k = 1; k <= n; ++k) {
            for (i = 1; i <= rounds; ++i) {
                b[i] = h["base", i, c[k]]; w[i] = h["new", i, c[k]]; r[i] = w[i] / b[i]
            }
            rg = range(r, rounds)
            printf "%-14s %10.2f M %10.2f M %8.3f %13s\n", c[k], median(b, rounds) / 1e6,
                median(w, rounds) / 1e6, median(r, rounds), rg
        }
        for (k = 2; k <= n; ++k) {
            for (i = 1; i <= rounds; ++i) {
                b[i] = h["base", i, c[1]] / h["base", i, c[k]]
                w[i] = h["new", i, c[1]] / h["new", i, c[k]]
            }
            rb = range(b, rounds); rw = range(w, rounds)
            printf "cost per packet-hop, %s over %s: base %.3f (%s), new %.3f (%s)\n", c[k], c[1],
                median(b, rounds), rb, median(w, rounds), rw
        }
        printf "over %d rounds\n", rounds
    }' "$tmp/lines"
