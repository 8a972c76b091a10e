#!/usr/bin/env bash
# The span hints are fetched in the built code (CanonicalScheduler::FetchSpan). GCC 12 took a
# function whose only effect is __builtin_prefetch for one free of side effects and deleted the
# call, so that for several rounds no span was fetched while the manual said it was; nothing but
# the machine code can tell (a fetch changes no result). Every function of the library that takes
# events (InterconnectSimulatorImpl::Run, CanonicalScheduler::RemoveNext, where they hold any fetch
# at all) must fetch at the offsets of a span's lines after its first: 64, 128, ... 960 bytes.
# Run by ctest: span-fetch-test.sh LIBRARY
set -euo pipefail
lib="$1"
command -v objdump >/dev/null || { echo "SKIP: no objdump"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
code=$(mktemp)
trap 'rm -f "$code"' EXIT
objdump -d --no-show-raw-insn -C "$lib" >"$code"
checked=0
for fn in 'ns3::InterconnectSimulatorImpl::Run()' 'ns3::CanonicalScheduler::RemoveNext()'; do
    # The function's instructions: from its label to the blank line that ends it.
    body=$(awk -v fn="<$fn>:" 'index($0, fn) { f = 1; next } f && /^$/ { exit } f' "$code")
    fetches=$(grep -c 'prefetch' <<<"$body" || true)
    [ "$fetches" -gt 0 ] || continue
    for offset in 0x40 0x80 0xc0 0x100 0x140 0x180 0x1c0 0x200 0x240 0x280 0x2c0 0x300 0x340 0x380 0x3c0; do
        grep -Eq "prefetch[a-z0-9]*[[:space:]]+${offset}\(" <<<"$body" ||
            fail "$fn fetches ($fetches fetches) but not a span's line at +$offset"
    done
    checked=$((checked + 1))
done
[ "$checked" -gt 0 ] || fail "no function that takes events fetches anything"
echo "PASS: $checked functions fetch every line of a span"
