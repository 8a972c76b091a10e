#!/usr/bin/env bash
# bench/prefetch-cover.sh's arithmetic (never a machine's figures): with a stand-in
# callgrind_annotate whose listing is known (and which refuses other options), the misses the
# prefetches took (those charged to bench/prefetch-as-load.h, in its function or inlined), those
# left and the functions that hold the latter, in order and cut at TOP, exactly; a listing with no
# prefetch-as-load line, or no totals, an error; bad arguments refused by name.
# Run by ctest: bench-prefetch-cover-test.sh SCRIPT OUT_DIR
set -euo pipefail
script="$1"
dir="$2"
rm -rf "$dir"
mkdir -p "$dir/tools"
fail() { echo "FAIL: $*"; exit 1; }
cat >"$dir/tools/callgrind_annotate" <<'STUB'
#!/usr/bin/env bash
[[ "$1" == --show=DLmr && "$2" == --sort=DLmr && "$3" == --threshold=100 && "$4" == --auto=no ]] ||
  { echo "stub: options $*" >&2; exit 3; }
case "$(cat "$5")" in
covered)
  cat <<'OUT'
--------------------------------------------------------------------------------
Profile data file 'x' (creator: callgrind-3.19.0)
--------------------------------------------------------------------------------
DLmr
--------------------------------------------------------------------------------
1,000,000 (100.0%)  PROGRAM TOTALS

--------------------------------------------------------------------------------
DLmr               file:function
--------------------------------------------------------------------------------
400,000 (40.00%)  /b/prefetch-as-load.h:ns3::Simulator::Run() [/b/libns3-interconnect.so]
300,000 (30.00%)  /m/a.cc:ns3::A::Read(unsigned int) const [/b/libns3-interconnect.so]
200,000 (20.00%)  /b/prefetch-as-load.h:ns3::B::Hint() [/b/libns3-interconnect.so]
100,000 (10.00%)  ???:ns3::Buffer::CopyData(unsigned char*, unsigned int) const [/usr/lib/libns3-network.so]
OUT
  ;;
large)
  printf '%s\n' '5,000,000,000  PROGRAM TOTALS' '' '3,000,000,000  /b/prefetch-as-load.h:ns3::Run() [/b/lib.so]' \
    '2,000,000,000  /m/a.cc:ns3::A::Read() [/b/lib.so]'
  ;;
plain)
  printf '%s\n' '1,000 (100.0%)  PROGRAM TOTALS' '' '1,000 (100.0%)  /m/a.cc:ns3::A::Read() [/b/lib.so]'
  ;;
empty) echo "no data" ;;
esac
STUB
chmod +x "$dir/tools/callgrind_annotate"
export PATH="$dir/tools:$PATH"
echo covered >"$dir/covered.out"
echo plain >"$dir/plain.out"
echo empty >"$dir/empty.out"
echo large >"$dir/large.out"

# (Run as the README runs it, not through bash: the script's executable bit counts.)
out=$("$script" "$dir/covered.out")
expected="last-level read misses 1000000: taken by prefetches 600000 (60.0%), left where read 400000
    300000  /m/a.cc:ns3::A::Read(unsigned int) const [/b/libns3-interconnect.so]
    100000  ???:ns3::Buffer::CopyData(unsigned char*, unsigned int) const [/usr/lib/libns3-network.so]"
[[ "$out" == "$expected" ]] || fail "the split: got
$out"
# Counts beyond 2^31 and a listing without percentages (--show-percs=no).
out=$(bash "$script" "$dir/large.out")
expected="last-level read misses 5000000000: taken by prefetches 3000000000 (60.0%), left where read 2000000000
2000000000  /m/a.cc:ns3::A::Read() [/b/lib.so]"
[[ "$out" == "$expected" ]] || fail "large counts: got
$out"
out=$(bash "$script" "$dir/covered.out" 1)
[[ "$(echo "$out" | wc -l)" == 2 && "$out" == *"ns3::A::Read"* && "$out" != *CopyData* ]] ||
  fail "TOP 1: got
$out"

if err=$(bash "$script" "$dir/plain.out" 2>&1); then fail "a listing with no prefetch-as-load line was taken"; fi
[[ "$err" == *"not a prefetch-as-load build"* ]] || fail "its message: $err"
if err=$(bash "$script" "$dir/empty.out" 2>&1); then fail "a listing with no totals was taken"; fi
[[ "$err" == *"no PROGRAM TOTALS"* ]] || fail "its message: $err"

set +e
bash "$script" >/dev/null 2>"$dir/err"; rc=$?
[[ $rc == 2 ]] && grep -q "usage:" "$dir/err" || fail "no argument: rc $rc, $(cat "$dir/err")"
bash "$script" "$dir/none.out" >/dev/null 2>"$dir/err"; rc=$?
[[ $rc == 2 ]] && grep -q "CALLGRIND_FILE" "$dir/err" || fail "a missing file: rc $rc, $(cat "$dir/err")"
bash "$script" "$dir/covered.out" ten >/dev/null 2>"$dir/err"; rc=$?
[[ $rc == 2 ]] && grep -q "TOP must be a whole number, not 'ten'" "$dir/err" || fail "TOP ten: rc $rc, $(cat "$dir/err")"
set -e
echo "PASS"
