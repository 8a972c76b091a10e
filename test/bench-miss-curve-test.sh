#!/usr/bin/env bash
# bench/miss-curve.sh's arithmetic and plumbing (never a machine's figures): with a stand-in bench
# and a stand-in valgrind whose counts are known (and which refuses to run without the cache model,
# the first level and the loop's toggle, or at a last level other than the one asked), each case's
# instructions and last-level read and write misses per packet-hop at each size, exactly, from the
# case's child's file and not the parent's; the sizes from INTERCONNECT_LL_MB; a run that fails
# named with its output; bad arguments refused by name.
# Run by ctest: bench-miss-curve-test.sh SCRIPT OUT_DIR
set -euo pipefail
script="$1"
dir="$2"
rm -rf "$dir"
mkdir -p "$dir/tools"
source "$(dirname "${BASH_SOURCE[0]}")/bench-stub.sh"
# A stand-in bench (column 7: packet-hops).
stub_bench "$dir/stub" small=1000 large=4000
# A stand-in valgrind: checks its options, runs the program, and writes two callgrind files as
# the bench's parent and its case's child would (the parent's named after the child's, so that
# a script that took the last file would take the wrong one): the parent's with nothing counted,
# the child's with 2 000 instructions a packet-hop and, per packet-hop, 16 / MB read misses and
# 4 / MB write misses (MB: the last level's size), its events in callgrind's order.
cat >"$dir/tools/valgrind" <<'STUB'
#!/usr/bin/env bash
args=" $* "
for o in " --tool=callgrind " " --cache-sim=yes " " --D1=49152,12,64 " \
    " --toggle-collect=ns3::*SimulatorImpl::Run() "; do
    [[ "$args" == *"$o"* ]] || { echo "stand-in valgrind: '${o:1:-1}' not given: $*" >&2; exit 3; }
done
ll="" out=""
while [ $# -gt 0 ] && [[ "$1" == --* ]]; do
    case "$1" in
    --LL=*) ll="${1#--LL=}" ;;
    --callgrind-out-file=*) out="${1#--callgrind-out-file=}" ;;
    esac
    shift
done
[[ "$ll" =~ ^([0-9]+),16,64$ ]] || { echo "stand-in valgrind: bad --LL '$ll'" >&2; exit 3; }
mb=$((BASH_REMATCH[1] / 1048576))
[ "$((mb * 1048576))" = "${BASH_REMATCH[1]}" ] || {
    echo "stand-in valgrind: --LL '$ll' is not whole megabytes" >&2
    exit 3
}
o=$("$@") || { status=$?; echo "$o"; exit "$status"; }
echo "$o"
hops=$(echo "$o" | awk -F, 'NR == 2 { print $7 }')
printf 'events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\nsummary: 0 0 0 0 0 0 0 0 0\n' \
    >"${out//%p/200}"
printf 'events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\nsummary: %d 9 9 9 9 9 9 %d %d\n' \
    $((hops * 2000)) $((hops * 16 / mb)) $((hops * 4 / mb)) >"${out//%p/101}"
STUB
chmod +x "$dir/tools/valgrind"
export PATH="$dir/tools:$PATH"

out=$(INTERCONNECT_LL_MB="1 4" bash "$script" "$dir/stub" small large) ||
    fail "the run failed: $out"
expected="case          ll_mb  instr_per_hop  ll_read_per_hop ll_write_per_hop
small             1         2000.0           16.000            4.000
small             4         2000.0            4.000            1.000
large             1         2000.0           16.000            4.000
large             4         2000.0            4.000            1.000"
[ "$out" = "$expected" ] || fail "the table:
$out
expected:
$expected"
# The default sizes: 2, 8 and 16 MB.
out=$(bash "$script" "$dir/stub" small) || fail "the default sizes' run failed: $out"
[ "$(echo "$out" | awk 'NR > 1 { printf "%s:%s ", $2, $4 }')" = "2:8.000 8:2.000 16:1.000 " ] ||
    fail "the default sizes: $out"

# A run that fails is named, with its output, and the script fails.
if out=$(INTERCONNECT_LL_MB=2 bash "$script" "$dir/stub" small nosuch 2>&1); then
    fail "a failing case was not refused: $out"
fi
[[ "$out" == *"the run of nosuch with a last level of 2 MB failed"* ]] || fail "the failure: $out"
[[ "$out" == *"unknown benchmark case 'nosuch'"* ]] || fail "the failure's output: $out"

# Bad arguments, refused by name with status 2.
refuse() { # refuse MESSAGE_PART COMMAND...
    local message="$1" status=0
    shift
    out=$("$@" 2>&1) || status=$?
    [ "$status" = 2 ] || fail "'$*' gave status $status, not 2: $out"
    [[ "$out" == *"$message"* ]] || fail "'$*' said: $out"
}
refuse "usage: bench/miss-curve.sh" bash "$script" "$dir/stub"
refuse "'$dir/nowhere' holds no bench/interconnect-bench" bash "$script" "$dir/nowhere" small
refuse "CASE 'a;b' is not a case name" bash "$script" "$dir/stub" 'a;b'
refuse "INTERCONNECT_LL_MB's '3' is not a power of two" env INTERCONNECT_LL_MB="2 3" \
    bash "$script" "$dir/stub" small
refuse "INTERCONNECT_LL_MB's '1024' is not a power of two from 1 to 512" \
    env INTERCONNECT_LL_MB=1024 bash "$script" "$dir/stub" small
refuse "INTERCONNECT_LL_MB names no size" env INTERCONNECT_LL_MB=" " \
    bash "$script" "$dir/stub" small
echo "PASS"
