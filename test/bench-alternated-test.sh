#!/usr/bin/env bash
# bench/alternated.sh's reporting (never its figures): per case the two builds' medians and the
# median ratio, the second case's cost per packet-hop over the first's, for two rounds of one
# build against itself; bad arguments are refused by name with exit status 2.
# Run by ctest: bench-alternated-test.sh SCRIPT BUILD_DIR OUT_DIR
set -euo pipefail
script="$1"
build="$2"
dir="$3"
rm -rf "$dir"
mkdir -p "$dir"
fail() { echo "FAIL: $*"; exit 1; }
bash "$script" "$build" "$build" 2 incast64 a2a64 >"$dir/out" || fail "two rounds failed: $(cat "$dir/out")"
for c in incast64 a2a64; do
    grep -Eq "^$c +[0-9]+\.[0-9]{2} M +[0-9]+\.[0-9]{2} M +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3}-[0-9]+\.[0-9]{3}$" "$dir/out" ||
        fail "no line for $c: $(cat "$dir/out")"
done
grep -Eq '^cost per packet-hop, a2a64 over incast64: base [0-9]+\.[0-9]{3} \([0-9.]+-[0-9.]+\), new [0-9]+\.[0-9]{3} \([0-9.]+-[0-9.]+\)$' "$dir/out" ||
    fail "no cost ratio of the second case to the first: $(cat "$dir/out")"
grep -q '^over 2 rounds$' "$dir/out" || fail "rounds not said: $(cat "$dir/out")"
# a2a64's packet-hops cost more than incast64's (1.4 to 1.6 times in every table so far):
# the ratio is above 1 for both builds, so a swapped division would show.
awk '/^cost per packet-hop/ { if ($8 + 0 <= 1 || $11 + 0 <= 1) exit 1 }' "$dir/out" ||
    fail "the cost ratio is not a2a64's over incast64's: $(cat "$dir/out")"
status=0
bash "$script" "$build" "$build" 0 incast64 >/dev/null 2>"$dir/e1" || status=$?
[ "$status" -eq 2 ] && grep -q "ROUNDS '0'" "$dir/e1" || fail "ROUNDS=0 not refused by name"
status=0
bash "$script" "$dir/none" "$build" 1 incast64 >/dev/null 2>"$dir/e2" || status=$?
[ "$status" -eq 2 ] && grep -q "'$dir/none' holds no bench/interconnect-bench" "$dir/e2" ||
    fail "a directory without the bench not refused by name"
status=0
bash "$script" "$build" "$build" 1 nosuch >/dev/null 2>"$dir/e3" || status=$?
[ "$status" -eq 1 ] && grep -q "unknown benchmark case" "$dir/e3" || fail "an unknown case not reported"
echo "bench/alternated.sh: OK"
