#!/usr/bin/env bash
# Where a case's event loop spends its time, per packet-hop: each case of interconnect-bench run
# ROUNDS times (the cases in turn, each round) under `perf record -e cpu-clock` with call chains,
# and the samples taken inside the event loop (under a simulator's Run) counted by the function
# they landed in (its self time; what was inlined into it counts as its own). Prints, per function,
# nanoseconds of CPU time per packet-hop for each case (samples / rate / packet-hops), and, for
# two cases or more, the last one's over the first's, sorted by that difference: where the cost
# per packet-hop grows from perm128 to perm1024. Then the instructions the last case's samples
# landed on most: on a machine without hardware counters (a virtual machine, as this project's)
# the clock's sample lands on the instruction that waits, so that these are the loads (and
# fetches) that miss. Figures are reported, never asserted; perf's own cost is in them (perm128's
# CPU time 5% more at 499 samples a second, the median of ten runs alternated with ten without
# perf; the cost grows with the rate: hence at most 1000). Samples whose call
# chain perf could not follow back to the program's start (main, or the dynamic loader's for a
# library's constructors) are not counted, in the loop or out of it, and are said apart; a case
# with fewer than 100 samples in the loop is said to want more rounds, and one with none is an
# error.
#
# usage: bench/profile.sh BUILD_DIR ROUNDS CASE [CASE ...]
# BUILD_DIR is one that `cmake --build` made (bench/interconnect-bench, the module's library). perf
# comes from Debian's linux-perf; a user may profile their own processes while
# kernel.perf_event_paranoid is 2 or less (some distributions' kernels set 3 or more: sysctl it to
# 2), and then the kernel's share of the loop (zeroing the heap's new pages) goes unsampled, where
# root's samples include it. Samples at INTERCONNECT_PROFILE_HZ per second (default 499, at most
# 1000); perf keeps no copies of the binaries (-N), and copies 8 KB of the stack a sample (with 4 KB
# it could not follow a fifth of perm128's samples back to the program's start). The programs run as
# started, like bench/alternated.sh's: set GLIBC_TUNABLES=glibc.malloc.hugetlb=1 and LD_BIND_NOW=1
# to profile what ./interconnect bench measures. Functions of libraries without their symbol tables
# (Debian's ns-3 keeps only the exported symbols) may be named after the exported function before
# them.
set -euo pipefail
[ "$#" -ge 3 ] || {
    echo "usage: bench/profile.sh BUILD_DIR ROUNDS CASE [CASE ...]" >&2
    exit 2
}
dir="$1" rounds="$2"
shift 2
cases=("$@")
script=profile
source "$(dirname "${BASH_SOURCE[0]}")/build-pair.sh"
check_rounds "$rounds"
hz="${INTERCONNECT_PROFILE_HZ:-499}"
[[ "$hz" =~ ^[1-9][0-9]{0,3}$ ]] && [ "$hz" -le 1000 ] || {
    echo "profile: INTERCONNECT_PROFILE_HZ '$hz' is not a whole number of samples per second" \
        "from 1 to 1000" >&2
    exit 2
}
check_cases "${cases[@]}"
check_build_dirs "$dir"
command -v perf >/dev/null || {
    echo "profile: perf not found: install Debian's linux-perf" >&2
    exit 2
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# One case's run: its packet-hops (the bench's column 7) into $tmp/hops, and its samples, counted
# by function (the first frame of a call chain that was not inlined; an unknown one by its library)
# and by instruction, when the chain passes through a simulator's Run, into $tmp/functions and
# $tmp/instructions. A frame reads "ADDRESS SYMBOL+0xOFFSET (LIBRARY)", or "[unknown]" for the
# symbol, or "(inlined)" for the library; a symbol may hold spaces and parentheses of its own.
run() { # run CASE ROUND
    local data="$tmp/$1.$2.data" out="$tmp/$1.$2.out"
    perf record -q -N -e cpu-clock -F "$hz" --call-graph=dwarf,8192 -o "$data" -- \
        env LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        "$dir/bench/interconnect-bench" "$1" >"$out" 2>&1 || {
        echo "profile: case '$1' failed (or perf could not record: kernel.perf_event_paranoid" \
            "must be 2 or less):" >&2
        cat "$out" >&2
        exit 1
    }
    local hops
    hops=$(awk -F, -v c="$1" '$1 == c { print $7; exit }' "$out")
    [[ "$hops" =~ ^[0-9]+$ ]] && [ "$hops" -gt 0 ] || {
        echo "profile: no packet-hops for case '$1' in the bench's output" >&2
        exit 1
    }
    echo "$1 $hops" >>"$tmp/hops"
    perf script -i "$data" >"$tmp/script" 2>"$tmp/script.err" || {
        echo "profile: perf script failed on case '$1':" >&2
        cat "$tmp/script.err" >&2
        exit 1
    }
    awk -v c="$1" -v f="$tmp/functions" -v i="$tmp/instructions" '
        BEGIN { RS = ""; FS = "\n" }
        function fold(x) { while (gsub(/<[^<>]*>/, "", x)) {} return x }
        {
            ++all
            loop = 0; whole = 0; leaf = ""
            for (k = 2; k <= NF; ++k) {
                line = $k
                sub(/^[ \t]+/, "", line)
                address = line; sub(/ .*$/, "", address)
                sub(/^[0-9a-f]+ /, "", line)
                library = ""
                if (match(line, / \([^()]*\)$/)) {
                    library = substr(line, RSTART + 2, RLENGTH - 3)
                    line = substr(line, 1, RSTART - 1)
                }
                if (line ~ /SimulatorImpl::Run/) loop = 1
                if (line ~ /^(main|__libc_start|_dl_start|_start)/) whole = 1
                if (leaf == "" && library != "inlined") {
                    sub(/^.*\//, "", library) # (without its directory)
                    if (line == "[unknown]") {
                        leaf = "[unknown] (" library ")"; at = leaf " " address
                    } else {
                        offset = line; sub(/^.*\+/, "+", offset)
                        if (offset !~ /^\+0x[0-9a-f]+$/) offset = ""
                        leaf = fold(substr(line, 1, length(line) - length(offset)))
                        at = leaf offset " (" library ")"
                    }
                }
            }
            if (!loop) { if (!whole) ++cut; next }
            ++fn[leaf]; ++ins[at]; ++inloop
        }
        END {
            for (x in fn) printf "%s\t%s\t%d\n", c, x, fn[x] >>f
            for (x in ins) printf "%s\t%s\t%d\n", c, x, ins[x] >>i
            printf "%s\t(all, in the event loop)\t%d\n", c, inloop >>f
            printf "%s\t(all, the whole process)\t%d\n", c, all >>f
            printf "%s\t(chains cut short)\t%d\n", c, cut >>f
        }' "$tmp/script"
    rm -f "$data" "$tmp/script"
}
: >"$tmp/functions"
: >"$tmp/instructions"
for r in $(seq "$rounds"); do
    for c in "${cases[@]}"; do
        run "$c" "$r"
    done
done
awk -v cases="${cases[*]}" -v hz="$hz" -v rounds="$rounds" -v hopsfile="$tmp/hops" \
    -v insfile="$tmp/instructions" '
    BEGIN {
        FS = "\t"
        n = split(cases, c, " ")
        while ((getline line < hopsfile) > 0) { split(line, h, " "); hops[h[1]] += h[2] }
    }
    { s[$1, $2] += $3; name[$2] = 1 }
    function ns(cs, x) { return s[cs, x] / hz / hops[cs] * 1e9 }
    END {
        for (k = 1; k <= n; ++k)
            if (s[c[k], "(all, in the event loop)"] == 0) {
                print "profile: no sample of case " c[k] " in the event loop (no call chain " \
                      "through a simulator'"'"'s Run)" > "/dev/stderr"
                failed = 1
            }
        if (failed) exit 1
        printf "event loop, nanoseconds of CPU time per packet-hop by function (self time; perf " \
               "cpu-clock at %d Hz, %d round%s)\n", hz, rounds, rounds == 1 ? "" : "s"
        printf "%-60s", "function"
        for (k = 1; k <= n; ++k) printf " %10s", c[k]
        if (n > 1) printf " %10s", "difference"
        printf "\n"
        m = 0
        for (x in name) {
            if (x ~ /^\((all|chains)/) continue
            key[++m] = x
            v[x] = n > 1 ? ns(c[n], x) - ns(c[1], x) : ns(c[1], x)
        }
        for (i = 2; i <= m; ++i) for (j = i; j > 1 && v[key[j - 1]] < v[key[j]]; --j) {
            t = key[j]; key[j] = key[j - 1]; key[j - 1] = t }
        rows[1] = "(all, in the event loop)"
        for (i = 1; i <= m && i <= 30; ++i) rows[i + 1] = key[i]
        for (i = 1; i in rows; ++i) {
            x = rows[i]
            printf "%-60s", (length(x) > 60 ? substr(x, 1, 57) "..." : x)
            for (k = 1; k <= n; ++k) printf " %10.1f", ns(c[k], x)
            if (n > 1) printf " %10.1f", ns(c[n], x) - ns(c[1], x)
            printf "\n"
        }
        for (k = 1; k <= n; ++k) {
            printf "%s: %.0f packet-hops, %.0f samples in the event loop of %.0f in all", c[k],
                hops[c[k]], s[c[k], "(all, in the event loop)"],
                s[c[k], "(all, the whole process)"]
            if (s[c[k], "(chains cut short)"] > 0)
                printf " (%.0f more that perf could not follow to the start, not counted)",
                    s[c[k], "(chains cut short)"]
            if (s[c[k], "(all, in the event loop)"] < 100) printf " (few: more rounds)"
            printf "\n"
        }
        while ((getline line < insfile) > 0) {
            split(line, f, "\t")
            if (f[1] == c[n]) at[f[2]] += f[3]
        }
        a = 0
        for (x in at) atk[++a] = x
        for (i = 2; i <= a; ++i) for (j = i; j > 1 && at[atk[j - 1]] < at[atk[j]]; --j) {
            t = atk[j]; atk[j] = atk[j - 1]; atk[j - 1] = t }
        printf "where %s'"'"'s samples landed most (function+offset, nanoseconds per packet-hop)\n", c[n]
        for (i = 1; i <= a && i <= 15; ++i)
            printf "%8.1f  %s\n", at[atk[i]] / hz / hops[c[n]] * 1e9,
                (length(atk[i]) > 100 ? substr(atk[i], 1, 97) "..." : atk[i])
    }' "$tmp/functions"
