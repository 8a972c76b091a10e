#!/usr/bin/env bash
# What grows from perm128 to perm1024, counted without the machine's noise: each case's event loop
# run under callgrind's cache model with a 48 KB first level (this machine's: 12-way, 64-byte lines)
# and a last level of each size given, and, per packet-hop, the instructions and the last level's
# data read and write misses (callgrind's DLmr and DLmw). The instructions per packet-hop hardly
# change with the fabric (2 066 on perm128, 2 089 on perm1024 at dd26538); the misses do, and the
# sizes at which they fall say how much memory a case's loop keeps going: perm1024's 14.6 read
# misses a packet-hop with 2 MB (a core's second level here) fall to 1.65 with 8 MB and 0.36 with 16
# MB, where perm128's are 0.35 already with 2 MB. Read them against bench/memory-reach.cc's times
# for a load at each size (doc/interconnect.rst, Performance). The model drops prefetch
# instructions: a miss counted here may be one a hint fetched ahead (bench/prefetch-cover.sh tells
# the two apart). Figures are reported, never asserted; each run takes some 100 times the case's own
# time (perm1024: 4 to 5 minutes), and the runs go side by side, as many at once as the machine has
# cores. A run that fails is named with its output and stops the others (each runs in a process
# group of its own), as the script's own end by a signal does.
#
# usage: bench/miss-curve.sh BUILD_DIR CASE [CASE ...]
# BUILD_DIR is one that `cmake --build` made (bench/interconnect-bench, the module's library).
# The last level's sizes are INTERCONNECT_LL_MB, megabytes separated by spaces (default "2 8 16";
# each a power of two from 1 to 512, 16-way, 64-byte lines). valgrind comes from Debian's
# valgrind package.
set -euo pipefail
[ "$#" -ge 2 ] || {
    echo "usage: bench/miss-curve.sh BUILD_DIR CASE [CASE ...]" >&2
    exit 2
}
dir="$1"
shift
script=miss-curve
source "$(dirname "${BASH_SOURCE[0]}")/build-pair.sh"
check_build_dirs "$dir"
[[ "$dir" == /* ]] || dir="$PWD/$dir" # (absolute: a name that starts with '-' is no option)
command -v valgrind >/dev/null || {
    echo "miss-curve: valgrind not found: install Debian's valgrind" >&2
    exit 2
}
list="${INTERCONNECT_LL_MB:-2 8 16}"
[[ "$list" != *$'\n'* ]] || {
    echo "miss-curve: INTERCONNECT_LL_MB holds a newline (sizes are separated by spaces)" >&2
    exit 2
}
read -r -a sizes <<<"$list"
[ "${#sizes[@]}" -ge 1 ] || {
    echo "miss-curve: INTERCONNECT_LL_MB names no size" >&2
    exit 2
}
declare -A seen=()
for mb in "${sizes[@]}"; do
    [[ "$mb" =~ ^(1|2|4|8|16|32|64|128|256|512)$ ]] || {
        echo "miss-curve: INTERCONNECT_LL_MB's '$mb' is not a power of two from 1 to 512" \
            "(megabytes)" >&2
        exit 2
    }
    [ -z "${seen[$mb]:-}" ] || {
        echo "miss-curve: INTERCONNECT_LL_MB names $mb twice" >&2
        exit 2
    }
    seen[$mb]=1
done
check_cases "$@"
tmp=$(mktemp -d)
declare -A running=() # process (and group) -> its run, CASE.MB
# At the end, however it comes: the runs still going stopped, each with its process group (valgrind
# and the bench's child under it), and waited for, valgrind included (it writes its profile as it
# ends), for ten seconds at most before they are killed; then the files removed. (set -e holds in
# a trap: hence || true.)
finish() {
    set +m # (no job-control notices of the runs stopped)
    local pid tries
    for pid in "${!running[@]}"; do
        kill -- "-$pid" 2>/dev/null || true
    done
    for pid in "${!running[@]}"; do
        wait "$pid" 2>/dev/null || true # (the group's leader, this shell's child: no zombie)
        for ((tries = 0; tries < 100; ++tries)); do
            kill -0 -- "-$pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -KILL -- "-$pid" 2>/dev/null || true
    done
    rm -rf "$tmp"
}
trap finish EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
set -m # (each run in a process group of its own)
jobs_max=$(nproc)

# One case at one size: the bench's output into $tmp/CASE.MB.out and callgrind's files (the
# parent's, with nothing counted, and the case's child's) as $tmp/CASE.MB.cg.PID.
measure() { # measure CASE MB
    LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" valgrind --tool=callgrind \
        --cache-sim=yes --D1=49152,12,64 --LL=$(($2 * 1048576)),16,64 \
        --toggle-collect='ns3::*SimulatorImpl::Run()' \
        --callgrind-out-file="$tmp/$1.$2.cg.%p" \
        "$dir/bench/interconnect-bench" "$1" >"$tmp/$1.$2.out" 2>&1 </dev/null
}
# Wait for the next run to end; if it failed, say which, with its output, and stop.
reap() {
    local pid="" status=0
    wait -n -p pid || status=$?
    [ -n "${pid:-}" ] || {
        echo "miss-curve: a run stopped, or ended unseen (wait: status $status)" >&2
        exit 1
    }
    local run="${running[$pid]}"
    unset "running[$pid]"
    [ "$status" -eq 0 ] || {
        echo "miss-curve: the run of ${run%.*} with a last level of ${run##*.} MB failed" \
            "(status $status):" >&2
        cat "$tmp/$run.out" >&2
        exit 1
    }
}
for c in "$@"; do
    for mb in "${sizes[@]}"; do
        while [ "${#running[@]}" -ge "$jobs_max" ]; do
            reap
        done
        measure "$c" "$mb" &
        running[$!]="$c.$mb"
    done
done
while [ "${#running[@]}" -gt 0 ]; do
    reap
done

printf "%-12s %6s %14s %16s %16s\n" case ll_mb instr_per_hop ll_read_per_hop ll_write_per_hop
for c in "$@"; do
    for mb in "${sizes[@]}"; do
        hops=$(awk -F, -v c="$c" '$1 == c { print $7; exit }' "$tmp/$c.$mb.out")
        [[ "$hops" =~ ^[0-9]+$ ]] && [ "$hops" -gt 0 ] || {
            echo "miss-curve: no packet-hops for case '$c' in the bench's output" >&2
            exit 1
        }
        files=("$tmp/$c.$mb".cg.*)
        [ -e "${files[0]}" ] || {
            echo "miss-curve: callgrind wrote no profile for case '$c' at $mb MB" >&2
            exit 1
        }
        # The file with the most instructions is the case's child's (the parent runs no loop).
        awk -v hops="$hops" -v c="$c" -v mb="$mb" '
            /^events:/ { delete at; for (i = 2; i <= NF; ++i) at[$i] = i - 1 }
            /^summary:/ && ("Ir" in at) && ("DLmr" in at) && ("DLmw" in at) {
                if ($(1 + at["Ir"]) + 0 > best) {
                    best = $(1 + at["Ir"]) + 0; r = $(1 + at["DLmr"]) + 0
                    w = $(1 + at["DLmw"]) + 0
                }
            }
            END {
                if (best == 0) {
                    print "miss-curve: callgrind counted nothing in the loop of case " c \
                        " (a cache model with its last level'"'"'s data misses, DLmr and DLmw)" \
                        > "/dev/stderr"
                    exit 1
                }
                printf "%-12s %6d %14.1f %16.3f %16.3f\n", c, mb, best / hops, r / hops, w / hops
            }' "${files[@]}"
    done
done
