#!/usr/bin/env bash
# bench/paired.sh's reporting (never its figures): a ratio per pair and their median, from two
# builds run at once; bad arguments are refused by name with exit status 2.
# Run by ctest: bench-paired-test.sh SCRIPT BUILD_DIR OUT_DIR
set -euo pipefail
script="$1"
build="$2"
dir="$3"
rm -rf "$dir"
mkdir -p "$dir"
fail() { echo "FAIL: $*"; exit 1; }
# (Run as the README runs it, not through bash: the script's executable bit counts.)
"$script" "$build" "$build" incast64 2 >"$dir/out" || fail "two rounds failed: $(cat "$dir/out")"
[ "$(grep -Ec '^[12] +[0-9]+ +[0-9]+ +[0-9]+\.[0-9]{3}$' "$dir/out")" -eq 2 ] ||
    fail "not one ratio per round: $(cat "$dir/out")"
grep -Eq '^median [0-9]+\.[0-9]{3}, range [0-9]+\.[0-9]{3}-[0-9]+\.[0-9]{3} over 2 pairs$' "$dir/out" ||
    fail "no median of the pairs: $(cat "$dir/out")"
status=0
bash "$script" "$build" "$build" incast64 0 >/dev/null 2>"$dir/e1" || status=$?
[ "$status" -eq 2 ] && grep -q "ROUNDS '0'" "$dir/e1" || fail "ROUNDS=0 not refused by name"
status=0
bash "$script" "$dir/none" "$build" incast64 >/dev/null 2>"$dir/e2" || status=$?
[ "$status" -eq 2 ] && grep -q "'$dir/none' holds no bench/interconnect-bench" "$dir/e2" ||
    fail "a directory without the bench not refused by name"
status=0
bash "$script" "$build" "$build" nosuch 1 >/dev/null 2>"$dir/e3" || status=$?
[ "$status" -eq 1 ] && grep -q "unknown benchmark case" "$dir/e3" || fail "an unknown case not reported"
echo "bench/paired.sh: OK"
