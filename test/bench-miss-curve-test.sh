#!/usr/bin/env bash
# bench/miss-curve.sh's arithmetic and plumbing (never a machine's figures): with a stand-in bench
# and a stand-in valgrind whose counts are known (and which refuses to run without the cache model,
# the first level, the loop's toggle or a profile per process, or at a last level other than the
# one asked), each case's instructions and last-level data read and write misses per packet-hop at
# each size, exactly, from the case's child's file and not the parent's, whichever comes first in
# the directory; the sizes from INTERCONNECT_LL_MB; a run that fails named with its output, and
# the runs still going stopped with it; a case without packet-hops or a profile with nothing
# counted an error; the temporary files removed; bad arguments refused by name.
# Run by ctest: bench-miss-curve-test.sh SCRIPT OUT_DIR
set -euo pipefail
script="$1"
dir="$2"
[[ "$script" == /* ]] || script="$PWD/$script"
[[ "$dir" == /* ]] || dir="$PWD/$dir"
rm -rf "$dir"
mkdir -p "$dir/tools" "$dir/tmp"
source "$(dirname "${BASH_SOURCE[0]}")/bench-stub.sh"
# A stand-in valgrind: checks its options (and that the program is named by an absolute path),
# says what valgrind says on stderr, runs the program (its case "slow" sleeps first, noting the
# sleep's process in $STUB_PIDS; "blank" counts nothing; "noprofile" writes no profile; "nodl"
# writes the child's without data-miss events, after the parent's) and writes two callgrind files as
# the bench's child and then its parent would, the child's first as it exits first: the parent's
# with nothing counted (callgrind drops trailing zeros), the child's with 2 000 instructions a
# packet-hop and, per packet-hop, 16 / MB data read misses and 4 / MB write misses (MB: the last
# level's size), 7 instruction misses, its events in callgrind's order. The child's process number
# sorts before the parent's at 1, 8 and 16 MB and after it at 2 and 4 MB.
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
[[ "$out" == *%p* ]] || {
    echo "stand-in valgrind: one file for both processes: '$out'" >&2
    exit 3
}
[[ "$ll" =~ ^([0-9]+),16,64$ ]] || { echo "stand-in valgrind: bad --LL '$ll'" >&2; exit 3; }
mb=$((BASH_REMATCH[1] / 1048576))
[ "$((mb * 1048576))" = "${BASH_REMATCH[1]}" ] || {
    echo "stand-in valgrind: --LL '$ll' is not whole megabytes" >&2
    exit 3
}
[[ "$1" == /* ]] || { echo "stand-in valgrind: program '$1' is not an absolute path" >&2; exit 3; }
echo "==4242== Callgrind, a call-graph generating cache profiler" >&2
echo "==4242== Command: $*" >&2
case "$2" in
slow)
    sleep 30 &
    echo "$!" >>"$STUB_PIDS"
    wait
    ;;
esac
o=$("$@") || { status=$?; echo "$o"; exit "$status"; }
echo "$o"
hops=$(echo "$o" | awk -F, 'NR == 2 { print $7 }')
case "$mb" in 2 | 4) child=301 ;; *) child=101 ;; esac
if [ "$2" = noprofile ]; then
    exit 0
elif [ "$2" = nodl ]; then
    printf 'events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\nsummary: 0\n' >"${out//%p/200}"
    printf 'events: Ir Dr Dw\nsummary: %d 9 9\n' $((hops * 2000)) >"${out//%p/$child}"
    exit 0
elif [ "$2" = blank ]; then
    printf 'events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\nsummary: 0\n' >"${out//%p/$child}"
else
    printf 'events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\nsummary: %d 9 9 9 9 9 7 %d %d\n' \
        $((hops * 2000)) $((hops * 16 / mb)) $((hops * 4 / mb)) >"${out//%p/$child}"
fi
printf 'events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\nsummary: 0\n' >"${out//%p/200}"
STUB
chmod +x "$dir/tools/valgrind"
# A stand-in bench (column 7: packet-hops); "empty" has none.
stub_bench "$dir/stub" small=1000 large=4000 empty=0 slow=1000 blank=1000 noprofile=1000 nodl=1000
export PATH="$dir/tools:$PATH"
export TMPDIR="$dir/tmp"
export STUB_PIDS="$dir/pids"
# gone: the slow runs' sleeps noted in $STUB_PIDS are all gone (none left behind)
gone() {
    local pid
    [ -s "$STUB_PIDS" ] || return 0
    while read -r pid; do
        ! kill -0 "$pid" 2>/dev/null || return 1
    done <"$STUB_PIDS"
}

# (Run as the README runs it, not through bash: the script's executable bit counts.)
out=$(INTERCONNECT_LL_MB="1 4" "$script" "$dir/stub" small large) ||
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
[ -z "$(ls -A "$dir/tmp")" ] || fail "temporary files left: $(ls -A "$dir/tmp")"

failed() { # failed MESSAGE ARGS...: the script exits 1 saying MESSAGE
    local msg="$1" status=0
    shift
    out=$("$@" 2>&1) || status=$?
    [ "$status" = 1 ] || fail "'$*' gave status $status, not 1: $out"
    [[ "$out" == *"$msg"* ]] || fail "'$*' said: $out"
}
# A run that fails is named, with its output, as soon as it ends (on two cores or more, the slow
# run started before it is still going); the runs still going are then stopped, not left behind,
# and the files are removed.
cases=(slow nosuch)
[ "$(nproc)" -ge 2 ] || cases=(nosuch slow) # (one run at a time: slow first would take its 30 s)
: >"$STUB_PIDS"
start=$SECONDS
failed "the run of nosuch with a last level of 2 MB failed" \
    env INTERCONNECT_LL_MB=2 bash "$script" "$dir/stub" "${cases[@]}"
[[ "$out" == *"unknown benchmark case 'nosuch'"* ]] || fail "the failure's output: $out"
[ "$((SECONDS - start))" -lt 20 ] || fail "a failure waited for the slow run to end"
gone || fail "a slow run was left going after the failure: $(cat "$STUB_PIDS")"
[ -z "$(ls -A "$dir/tmp")" ] || fail "temporary files left after a failure: $(ls -A "$dir/tmp")"
# The script's end by a signal stops its runs too.
: >"$STUB_PIDS"
INTERCONNECT_LL_MB=2 bash "$script" "$dir/stub" slow >/dev/null 2>&1 &
victim=$!
for ((tries = 0; tries < 100; ++tries)); do
    [ ! -s "$STUB_PIDS" ] || break
    sleep 0.1
done
[ -s "$STUB_PIDS" ] || fail "the slow run never started"
kill -TERM "$victim"
status=0
wait "$victim" || status=$?
[ "$status" = 143 ] || fail "the script ended by TERM with status $status, not 143"
gone || fail "a slow run was left going after TERM: $(cat "$STUB_PIDS")"
[ -z "$(ls -A "$dir/tmp")" ] || fail "temporary files left after TERM: $(ls -A "$dir/tmp")"
failed "no packet-hops for case 'empty'" env INTERCONNECT_LL_MB=2 bash "$script" "$dir/stub" empty
failed "callgrind counted nothing in the loop of case blank" \
    env INTERCONNECT_LL_MB=2 bash "$script" "$dir/stub" blank
failed "callgrind wrote no profile for case 'noprofile' at 2 MB" \
    env INTERCONNECT_LL_MB=2 bash "$script" "$dir/stub" noprofile
# (The parent's file, read first at 2 MB, names the data-miss events; the child's does not.)
failed "callgrind counted nothing in the loop of case nodl" \
    env INTERCONNECT_LL_MB=2 bash "$script" "$dir/stub" nodl
# A build directory whose name starts with '-', given relative to where the script runs.
cp -r "$dir/stub" "$dir/-stub"
out=$(cd "$dir" && INTERCONNECT_LL_MB=2 bash "$script" -stub small) ||
    fail "a build directory named '-stub': $out"
[ "$(echo "$out" | awk 'NR == 2 { print $4 }')" = "8.000" ] || fail "'-stub': $out"

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
refuse "CASE '' is not a case name" bash "$script" "$dir/stub" ''
refuse "CASE '../x' is not a case name" bash "$script" "$dir/stub" ../x
refuse "CASE '--repeat=3' is an option" bash "$script" "$dir/stub" small --repeat=3
refuse "CASE 'small' is given twice" bash "$script" "$dir/stub" small large small
refuse "INTERCONNECT_LL_MB's '3' is not a power of two" env INTERCONNECT_LL_MB="2 3" \
    bash "$script" "$dir/stub" small
refuse "INTERCONNECT_LL_MB's '1024' is not a power of two from 1 to 512" \
    env INTERCONNECT_LL_MB=1024 bash "$script" "$dir/stub" small
refuse "INTERCONNECT_LL_MB names 2 twice" env INTERCONNECT_LL_MB="2 8 2" \
    bash "$script" "$dir/stub" small
refuse "INTERCONNECT_LL_MB holds a newline" env INTERCONNECT_LL_MB=$'2\n3' \
    bash "$script" "$dir/stub" small
refuse "INTERCONNECT_LL_MB names no size" env INTERCONNECT_LL_MB=" " \
    bash "$script" "$dir/stub" small
# Without valgrind: a PATH of the tools the script needs, and no valgrind among them.
mkdir -p "$dir/novalgrind"
for t in bash env awk cat rm mkdir mktemp dirname nproc; do
    ln -sf "$(command -v "$t")" "$dir/novalgrind/$t"
done
refuse "valgrind not found: install Debian's valgrind" env PATH="$dir/novalgrind" \
    bash "$script" "$dir/stub" small
echo "PASS"
