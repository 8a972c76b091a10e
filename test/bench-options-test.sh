#!/usr/bin/env bash
# The bench's reporting (never its figures: speed is measured, not asserted): --repeat=N runs a case
# N times and summarizes min/median/max, and each case's cost per packet-hop and per event over
# perm128's per round; --compare=FILE prints the ratio against a saved run; --simulator=default runs
# the same events on ns-3's implementation; --timeline=US splits a run into stretches of simulated
# time that add up to it; the loop's kernel time is a part of its CPU time; the cases that set
# perm1024's fabric and flows apart complete; bad values (a case given twice among them) are refused
# by name.
# Run by ctest: bench-options-test.sh BENCH DIR
set -euo pipefail
bench="$1"
dir="$2"
rm -rf "$dir"
mkdir -p "$dir"
fail() { echo "FAIL: $*"; exit 1; }
"$bench" --repeat=2 --csv="$dir/base.csv" incast64 >"$dir/repeat.out" 2>"$dir/repeat.err" ||
    fail "--repeat=2 failed"
# The machine the figures belong to: on stderr, not in the runs' lines (stdout, the CSV file).
grep -Eq '^interconnect-bench: machine: .*, [1-9][0-9]* CPUs?(;|$)' "$dir/repeat.err" ||
    fail "no machine line on stderr: $(cat "$dir/repeat.err")"
grep -q 'machine' "$dir/repeat.out" "$dir/base.csv" && fail "the machine line is in the runs' lines"
[ "$(grep -c '^incast64,0\.' "$dir/base.csv")" -eq 2 ] || fail "--csv does not hold the two runs"
# The loop's kernel time (column 12) is a part of its CPU time (column 4), its minor page faults
# (column 13) a count.
head -1 "$dir/base.csv" | grep -q ',completed,posted,sys_s,minor_faults$' || fail "no sys_s,minor_faults columns"
awk -F, 'NR > 1 && !(NF == 13 && $12 >= 0 && $12 <= $4 && $13 ~ /^[0-9]+$/) { bad = 1 } END { exit bad }' \
    "$dir/base.csv" || fail "the loop's kernel time or faults out of range: $(cat "$dir/base.csv")"
grep -Eq '^incast64,2,[0-9]+,[0-9]+,[0-9]+,[0-9]+,[0-9]+,[0-9]+,[0-9.]+$' "$dir/repeat.out" ||
    fail "no min/median/max summary of two runs: $(cat "$dir/repeat.out")"
"$bench" --compare="$dir/base.csv" incast64 >"$dir/compare.out" || fail "--compare failed"
grep -Eq '^incast64,1,.*,[0-9]+,[0-9]+\.[0-9]{3}$' "$dir/compare.out" ||
    fail "no ratio against the baseline: $(cat "$dir/compare.out")"
# Both simulator implementations run the same events and frames to the same simulated end
# (columns 2, 5 and 7: simulated time, events, packet-hops).
"$bench" --simulator=default --csv="$dir/default.csv" incast64 >/dev/null || fail "--simulator=default failed"
[ "$(tail -1 "$dir/default.csv" | cut -d, -f1,2,5,7)" = "$(tail -1 "$dir/base.csv" | cut -d, -f1,2,5,7)" ] ||
    fail "the default implementation ran other events: $(tail -1 "$dir/default.csv")"
# The cost per packet-hop over perm128's (the reference when it runs, even second), per round:
# the ratio of the two speeds in one round, its median (of two: their mean) and range; then the
# same per event (packet-hops per CPU-second in column 8, events in column 6), each in a section
# of its own.
"$bench" --repeat=2 --csv="$dir/pair.csv" incast64 perm128 >"$dir/pair.out" || fail "--repeat=2 of two cases failed"
for measure in hop:8 event:6; do
    name=${measure%%:*}
    column=${measure#*:}
    expected=$(awk -F, -v col="$column" 'NR > 1 { v[NR - 2] = $col }
        END { a = v[1] / v[0]; b = v[3] / v[2]; lo = a < b ? a : b; hi = a < b ? b : a
              printf "incast64/perm128,2,%.3f,%.3f,%.3f\n", (a + b) / 2, lo, hi }' "$dir/pair.csv")
    got=$(awk -v header="cost_per_$name,rounds,median,min,max" \
        '$0 == header { on = 1; next } /^$/ { on = 0 } on && /^incast64\/perm128,/' "$dir/pair.out")
    [ "$got" = "$expected" ] || fail "cost per $name over perm128: '$got', expected '$expected'"
done
grep -q '^perm128/' "$dir/pair.out" && fail "the reference case is reported over itself"
# The timeline's stretches add up to the run's events and packet-hops (columns 5 and 7) and the
# last one ends where the run does: incast64 ends on the timeline's own event, perm128-ib (whose
# credit updates never stop) on the bench's Stop, after the last stretch's event.
for c in incast64 perm128-ib; do
    "$bench" --timeline=100 --csv="$dir/timeline.csv" "$c" >/dev/null 2>"$dir/timeline.err" ||
        fail "--timeline=100 $c failed"
    grep -q '^timeline,case,until_us,events,packet_hops,cpu_s,' "$dir/timeline.err" ||
        fail "no timeline header"
    [ "$(grep -c "^timeline,$c," "$dir/timeline.err")" -ge 10 ] ||
        fail "too few stretches of 100 us in a run of $c: $(cat "$dir/timeline.err")"
    sums=$(awk -F, -v c="$c" '$1 == "timeline" && $2 == c { e += $4; h += $5 } END { print e "," h }' \
        "$dir/timeline.err")
    [ "$sums" = "$(tail -1 "$dir/timeline.csv" | cut -d, -f5,7)" ] ||
        fail "$c: the stretches add up to $sums (events,packet-hops), the run: $(tail -1 "$dir/timeline.csv")"
    awk -F, -v c="$c" -v sim="$(tail -1 "$dir/timeline.csv" | cut -d, -f2)" \
        '$1 == "timeline" && $2 == c { t = $3 } END { exit !(t >= sim * 1e6 - 1 && t <= sim * 1e6 + 1) }' \
        "$dir/timeline.err" || fail "$c: the last stretch does not end where the run does"
done
# The two cases that set perm1024's differences from perm128 apart (its fabric, its flows) post
# and complete their flows: 128 on the k=16 fat-tree, 1024 on the k=8 one (columns 10 and 11; a
# case that leaves flows unfinished already fails the bench).
"$bench" --csv="$dir/apart.csv" perm128-k16 perm1024-k8 >/dev/null ||
    fail "perm128-k16 perm1024-k8 failed"
[ "$(grep '^perm128-k16,' "$dir/apart.csv" | cut -d, -f10,11)" = "128,128" ] ||
    fail "perm128-k16 did not post and complete 128 flows: $(cat "$dir/apart.csv")"
[ "$(grep '^perm1024-k8,' "$dir/apart.csv" | cut -d, -f10,11)" = "1024,1024" ] ||
    fail "perm1024-k8 did not post and complete 1024 flows: $(cat "$dir/apart.csv")"
status=0
"$bench" --timeline=0 incast64 >/dev/null 2>"$dir/e4" || status=$?
[ "$status" -eq 2 ] && grep -q -- "--timeline = 0" "$dir/e4" || fail "--timeline=0 not refused by name"
status=0
"$bench" --simulator=fast incast64 >/dev/null 2>"$dir/e3" || status=$?
[ "$status" -eq 2 ] && grep -q -- "--simulator = fast" "$dir/e3" || fail "--simulator=fast not refused by name"
status=0
"$bench" incast64 perm128 incast64 >/dev/null 2>"$dir/e5" || status=$?
[ "$status" -eq 2 ] && grep -q -- "case incast64 given twice" "$dir/e5" || fail "a case given twice not refused by name"
status=0
"$bench" --repeat=0 incast64 >/dev/null 2>"$dir/e1" || status=$?
[ "$status" -eq 2 ] && grep -q -- "--repeat" "$dir/e1" || fail "--repeat=0 not refused by name"
status=0
"$bench" --compare="$dir/none.csv" incast64 >/dev/null 2>"$dir/e2" || status=$?
[ "$status" -ne 0 ] && grep -q -- "--compare" "$dir/e2" || fail "a missing baseline not refused by name"
echo "bench options work"
