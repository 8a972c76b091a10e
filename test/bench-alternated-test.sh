#!/usr/bin/env bash
# bench/alternated.sh's reporting (never a machine's figures): with two stand-in benches of fixed
# speeds, the medians, the ratios and the cost per packet-hop of a later case over the first,
# exactly; with the real bench, a line per case in the same form; bad arguments refused by name.
# Run by ctest: bench-alternated-test.sh SCRIPT BUILD_DIR OUT_DIR
set -euo pipefail
script="$1"
build="$2"
dir="$3"
rm -rf "$dir"
mkdir -p "$dir"
fail() { echo "FAIL: $*"; exit 1; }
# A stand-in bench: CASE lines as interconnect-bench prints them, packet-hops per CPU-second in
# column 8, at the speeds given for "fast" and "slow".
stub() { # stub DIR FAST SLOW
    mkdir -p "$1/bench"
    cat >"$1/bench/interconnect-bench" <<STUB
#!/usr/bin/env bash
echo "case,sim_s,wall_s,cpu_s,events,events_per_cpu_s,packet_hops,hops_per_cpu_s,peak_rss_mb,completed,posted,sys_s,minor_faults"
for c in "\$@"; do
    case "\$c" in
    fast) echo "fast,0,0,0,0,0,0,$2,1,0,0,0,0" ;;
    slow) echo "slow,0,0,0,0,0,0,$3,1,0,0,0,0" ;;
    *) echo "unknown benchmark case '\$c'" >&2; exit 2 ;;
    esac
done
STUB
    chmod +x "$1/bench/interconnect-bench"
}
stub "$dir/base" 3000000 1000000
stub "$dir/new" 6000000 1500000
# (Run as the README runs it, not through bash: the script's executable bit counts.)
"$script" "$dir/base" "$dir/new" 3 fast slow >"$dir/stub.out" || fail "the stand-ins failed: $(cat "$dir/stub.out")"
grep -Eq '^fast +3\.00 M +6\.00 M +2\.000 +2\.000-2\.000$' "$dir/stub.out" ||
    fail "fast's medians or ratio wrong: $(cat "$dir/stub.out")"
grep -Eq '^slow +1\.00 M +1\.50 M +1\.500 +1\.500-1\.500$' "$dir/stub.out" ||
    fail "slow's medians or ratio wrong: $(cat "$dir/stub.out")"
grep -Fxq 'cost per packet-hop, slow over fast: base 3.000 (3.000-3.000), new 4.000 (4.000-4.000)' "$dir/stub.out" ||
    fail "the cost per packet-hop of slow over fast wrong: $(cat "$dir/stub.out")"
grep -Fxq 'over 3 rounds' "$dir/stub.out" || fail "rounds not said: $(cat "$dir/stub.out")"
# The real bench: its columns as the script reads them.
bash "$script" "$build" "$build" 1 incast64 >"$dir/out" || fail "one round failed: $(cat "$dir/out")"
grep -Eq '^incast64 +[0-9]+\.[0-9]{2} M +[0-9]+\.[0-9]{2} M +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3}-[0-9]+\.[0-9]{3}$' "$dir/out" ||
    fail "no line for incast64: $(cat "$dir/out")"
status=0
bash "$script" "$build" "$build" 0 incast64 >/dev/null 2>"$dir/e1" || status=$?
[ "$status" -eq 2 ] && grep -q "ROUNDS '0'" "$dir/e1" || fail "ROUNDS=0 not refused by name"
status=0
bash "$script" "$dir/none" "$build" 1 incast64 >/dev/null 2>"$dir/e2" || status=$?
[ "$status" -eq 2 ] && grep -q "'$dir/none' holds no bench/interconnect-bench" "$dir/e2" ||
    fail "a directory without the bench not refused by name"
status=0
bash "$script" "$dir/base" "$dir/new" 1 fast --repeat=3 >/dev/null 2>"$dir/e3" || status=$?
[ "$status" -eq 2 ] && grep -q "CASE '--repeat=3' is an option" "$dir/e3" || fail "an option as a case not refused"
status=0
bash "$script" "$dir/base" "$dir/new" 1 fast fast >/dev/null 2>"$dir/e4" || status=$?
[ "$status" -eq 2 ] && grep -q "CASE 'fast' is given twice" "$dir/e4" || fail "a case given twice not refused"
status=0
bash "$script" "$dir/base" "$dir/new" 1 nosuch >"$dir/o5" 2>"$dir/e5" || status=$?
[ "$status" -eq 1 ] && grep -q "unknown benchmark case" "$dir/e5" && [ ! -s "$dir/o5" ] ||
    fail "an unknown case not reported, or a summary printed"
echo "bench/alternated.sh: OK"
