#!/usr/bin/env bash
# Of the last-level read misses in a callgrind profile of a prefetch-as-load build (see
# bench/prefetch-as-load.h), how many the prefetches took (charged to the header's line: its
# PrefetchAsLoad, which each fetch calls; it was inlined where each fetch is until 2026-12-06) and
# how many are left where the code reads a line no fetch named, with the functions that take most
# of the latter. Figures are reported, never asserted.
#
# usage: bench/prefetch-cover.sh CALLGRIND_FILE [TOP]
# Profile with a cache model, e.g.
#   valgrind --tool=callgrind --cache-sim=yes --LL=8388608,16,128 \
#     --toggle-collect='ns3::Simulator::Run()' build-prefetch-as-load/bench/interconnect-bench perm1024
# (the bench runs each case in a child: take the larger of the two files it writes).
set -euo pipefail
if [[ $# -lt 1 || $# -gt 2 || ! -f "$1" ]]; then
  echo "usage: $0 CALLGRIND_FILE [TOP]  (CALLGRIND_FILE: a callgrind.out of a prefetch-as-load build)" >&2
  exit 2
fi
top="${2:-20}"
if ! [[ "$top" =~ ^[0-9]+$ ]]; then
  echo "$0: TOP must be a whole number, not '$top'" >&2
  exit 2
fi
callgrind_annotate --show=DLmr --sort=DLmr --threshold=100 --auto=no "$1" | awk -v top="$top" '
  /PROGRAM TOTALS/ { gsub(",", "", $1); total = $1; next }
  /^ *[0-9,]+ +(\( *[0-9.]+%\) +)?[^ 0-9(]/ && total != "" {
    v = $1; gsub(",", "", v)
    line = $0; sub(/^ *[0-9,]+ +(\( *[0-9.]+%\) +)?/, "", line)
    if (line ~ /prefetch-as-load\.h:/) { taken += v } else { left[++n] = v; what[n] = line }
  }
  END {
    if (total == "") { print "no PROGRAM TOTALS: not a callgrind profile with DLmr?" > "/dev/stderr"; exit 1 }
    if (taken == 0) { print "no misses at bench/prefetch-as-load.h: not a prefetch-as-load build?" > "/dev/stderr"; exit 1 }
    # (%.0f, not %d: some awks cap %d at 2^31 - 1)
    printf "last-level read misses %.0f: taken by prefetches %.0f (%.1f%%), left where read %.0f\n", total, taken, 100 * taken / total, total - taken
    for (i = 1; i <= n && i <= top; ++i) { printf "%10.0f  %s\n", left[i], substr(what[i], 1, 150) }
  }'
