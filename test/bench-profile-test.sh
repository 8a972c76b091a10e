#!/usr/bin/env bash
# bench/profile.sh's arithmetic and attribution (never a machine's figures): with a stand-in bench
# and a stand-in perf whose samples are known (and which refuses to record at another rate or
# without its options), each function's nanoseconds per packet-hop, the difference of the last
# case over the first and its order, the samples outside the event loop left out and those perf
# could not follow said, inlined frames and template arguments (function types among them)
# folded into their function, unknown frames by their library, exactly; a case with no sample in
# the loop an error; with the real bench and perf (when this machine lets a user record), a line
# in the same form; bad arguments refused by name.
# Run by ctest: bench-profile-test.sh SCRIPT BUILD_DIR OUT_DIR
set -euo pipefail
script="$1"
build="$2"
dir="$3"
rm -rf "$dir"
mkdir -p "$dir/tools"
source "$(dirname "${BASH_SOURCE[0]}")/bench-stub.sh"
# A stand-in bench (column 7: packet-hops).
stub_bench "$dir/stub" fast=1000000 slow=500000 none=1000
# A stand-in perf: `record` checks its options, runs the program and notes its case in the data
# file; `script` prints call chains as perf script does. Per run, fast: 30 samples in Queue::Pop
# (a template, reached through an inlined helper), 10 in Port::Send, 2 in a std::function's
# handler (a function type among its template arguments), one with no symbol (in libz.so), one in
# the kernel, 5 outside the event loop and one that perf could not follow to the start (main, or
# the dynamic loader's start for a library's constructors); slow: 30 and 40
# and the 5 outside; none: only the 5 outside.
cat >"$dir/tools/perf" <<'STUB'
#!/usr/bin/env bash
chain() { # chain FRAMES...: one call chain
    echo "interconnect-be 1 1.0:    1001 cpu-clock: "
    for f in "$@"; do printf '\t%s\n' "$f"; done
    echo
}
sample() { # sample LEAF_FRAMES... : one call chain under the event loop
    chain "$@" "2e0 ns3::InterconnectSimulatorImpl::Run+0x16b (/b/libns3-interconnect.so)" \
        "7d26 main+0x56 (/b/bench/interconnect-bench)"
}
case "$1" in
record)
    shift
    opts=" $* "
    for o in " -N " " -e cpu-clock " " -F 1000 " " --call-graph=dwarf,8192 "; do
        [[ "$opts" == *"$o"* ]] || { echo "stand-in perf: '${o:1:-1}' not given: $*" >&2; exit 3; }
    done
    while [ $# -gt 0 ] && [ "$1" != -- ]; do [ "$1" = -o ] && { out="$2"; shift; }; shift; done
    [ $# -gt 1 ] || { echo "stand-in perf: no program after --" >&2; exit 3; }
    shift
    o=$("$@") || { status=$?; echo "$o"; exit "$status"; }
    echo "$o"
    echo "$o" | awk -F, 'NR == 2 { print $1 }' >"$out"
    ;;
script)
    c=$(cat "$3")
    if [ "$c" != none ]; then
        send=10
        [ "$c" = slow ] && send=40
        for _ in $(seq 30); do
            sample "a1 ns3::Queue<ns3::Item, 4ul>::Helper+0x10 (inlined)" \
                "a1 ns3::Queue<ns3::Item, 4ul>::Pop+0x10 (/lib/x/libq.so)"
        done
        for _ in $(seq "$send"); do sample "b2 ns3::Port::Send+0x2a (/lib/x/libp.so)"; done
    fi
    if [ "$c" = fast ]; then
        for _ in 1 2; do
            sample "c3 std::_Function_handler<void (int), ns3::F<(anonymous namespace)::G> >::_M_invoke+0x8 (/lib/x/libf.so)"
        done
        sample "d4 [unknown] (/lib/x/libz.so)"
        sample "ffffffff8163c0a2 clear_page_erms+0x7 ([kernel.kallsyms])" \
            "ffffffff81000c82 asm_exc_page_fault+0x22 ([kernel.kallsyms])"
        chain "e5 ns3::Port::Send+0x2a (/lib/x/libp.so)" "ffffffffffffffff [unknown] ([unknown])"
    fi
    for _ in $(seq 5); do
        chain "c3 ns3::Setup::Build+0x1 (/b/lib.so)" "7d26 main+0x56 (/b/x)"
    done
    ;;
*) exit 3 ;;
esac
STUB
chmod +x "$dir/tools/perf"
# (Run as the README runs it, not through bash: the script's executable bit counts.)
PATH="$dir/tools:$PATH" INTERCONNECT_PROFILE_HZ=1000 "$script" "$dir/stub" 2 fast slow \
    >"$dir/stub.out" 2>"$dir/stub.err" || fail "the stand-ins failed: $(cat "$dir/stub.out" "$dir/stub.err")"
# 30 samples / 1000 Hz / 10^6 packet-hops = 30 ns; slow: 30 and 40 over 5 x 10^5 = 60 and 80 ns.
row() { # row NAME FAST SLOW DIFFERENCE: that line, with any spacing
    grep -Eq "^$1 +$2 +$3 +$4\$" "$dir/stub.out" || fail "row $1 wrong: $(cat "$dir/stub.out")"
}
row '\(all, in the event loop\)' 44.0 140.0 96.0
row 'ns3::Port::Send' 10.0 80.0 70.0
row 'ns3::Queue::Pop' 30.0 60.0 30.0
row 'std::_Function_handler::_M_invoke' 2.0 0.0 -2.0
row '\[unknown\] \(libz\.so\)' 1.0 0.0 -1.0
row 'clear_page_erms' 1.0 0.0 -1.0
grep -q 'Setup::Build\|Helper\|asm_exc' "$dir/stub.out" &&
    fail "a frame outside the loop, or one not the leaf, counted: $(cat "$dir/stub.out")"
[ "$(grep -n 'ns3::Port::Send' "$dir/stub.out" | cut -d: -f1 | head -1)" -lt \
    "$(grep -n 'ns3::Queue::Pop' "$dir/stub.out" | cut -d: -f1 | head -1)" ] ||
    fail "not sorted by the difference: $(cat "$dir/stub.out")"
grep -Fxq "fast: 2000000 packet-hops, 88 samples in the event loop of 100 in all (2 more that perf could not follow to the start, not counted) (few: more rounds)" "$dir/stub.out" ||
    fail "fast's totals wrong: $(cat "$dir/stub.out")"
grep -Fxq 'slow: 1000000 packet-hops, 140 samples in the event loop of 150 in all' "$dir/stub.out" ||
    fail "slow's totals wrong: $(cat "$dir/stub.out")"
grep -Eq '^ +80\.0  ns3::Port::Send\+0x2a \(libp\.so\)$' "$dir/stub.out" ||
    fail "slow's instructions wrong: $(cat "$dir/stub.out")"
grep -q 'cpu-clock at 1000 Hz, 2 rounds' "$dir/stub.out" || fail "rate or rounds not said"
# A case none of whose samples is in the loop: an error, not a table of zeros.
refusal=0
PATH="$dir/tools:$PATH" INTERCONNECT_PROFILE_HZ=1000 bash "$script" "$dir/stub" 1 fast none \
    >"$dir/none.out" 2>"$dir/none.err" || refusal=$?
[ "$refusal" -eq 1 ] && grep -q "no sample of case none in the event loop" "$dir/none.err" &&
    [ ! -s "$dir/none.out" ] || fail "a case without samples in the loop not refused: $(cat "$dir/none.err")"
# The stand-in records only with the script's options: at another rate it refuses.
refusal=0
PATH="$dir/tools:$PATH" INTERCONNECT_PROFILE_HZ=999 bash "$script" "$dir/stub" 1 fast \
    >/dev/null 2>"$dir/rate.err" || refusal=$?
[ "$refusal" -eq 1 ] && grep -q "'-F 1000' not given" "$dir/rate.err" ||
    fail "the stand-in perf took another rate: $(cat "$dir/rate.err")"
# The real bench under the real perf, where this machine lets a user record.
if command -v perf >/dev/null && perf record -q -N -e cpu-clock -o "$dir/probe.data" true \
    >/dev/null 2>&1; then
    bash "$script" "$build" 1 incast64 >"$dir/out" 2>&1 || fail "one round failed: $(cat "$dir/out")"
    grep -Eq '^\(all, in the event loop\) +[0-9]+\.[0-9]$' "$dir/out" &&
        grep -Eq '^ns3::[A-Za-z]+::[A-Za-z]+ +[0-9]+\.[0-9]$' "$dir/out" &&
        grep -Eq '^incast64: [1-9][0-9]* packet-hops, [0-9]+ samples in the event loop' "$dir/out" ||
        fail "no profile of incast64: $(cat "$dir/out")"
else
    echo "perf cannot record here: the real bench's profile not tried"
fi
refused() { # refused STATUS MESSAGE ARGS...: the script exits STATUS saying MESSAGE
    local want="$1" msg="$2" status=0
    shift 2
    "$@" >/dev/null 2>"$dir/err" || status=$?
    [ "$status" -eq "$want" ] && grep -qF "$msg" "$dir/err" ||
        fail "not refused with '$msg' (status $status): $(cat "$dir/err")"
}
refused 2 "ROUNDS '0'" bash "$script" "$dir/stub" 0 fast
refused 2 "CASE 'fast' is given twice" bash "$script" "$dir/stub" 1 fast fast
refused 2 "CASE '--repeat=3' is an option" bash "$script" "$dir/stub" 1 --repeat=3
refused 2 "'$dir/none' holds no bench/interconnect-bench" bash "$script" "$dir/none" 1 fast
refused 2 "INTERCONNECT_PROFILE_HZ 'fast'" env INTERCONNECT_PROFILE_HZ=fast bash "$script" \
    "$dir/stub" 1 fast
refused 2 "INTERCONNECT_PROFILE_HZ '4999'" env INTERCONNECT_PROFILE_HZ=4999 bash "$script" \
    "$dir/stub" 1 fast
refused 2 "CASE '../leak' is not a case name" bash "$script" "$dir/stub" 1 ../leak
refused 2 "CASE '' is not a case name" bash "$script" "$dir/stub" 1 ""
refused 1 "unknown benchmark case 'nosuch'" env PATH="$dir/tools:$PATH" \
    INTERCONNECT_PROFILE_HZ=1000 bash "$script" "$dir/stub" 1 nosuch
# Without perf: a PATH of the tools the script needs, and no perf among them.
mkdir -p "$dir/noperf"
for t in bash env awk seq mktemp cat rm dirname; do ln -sf "$(command -v "$t")" "$dir/noperf/$t"; done
refused 2 "perf not found: install Debian's linux-perf" env PATH="$dir/noperf" bash "$script" \
    "$dir/stub" 1 fast
echo "bench/profile.sh: OK"
