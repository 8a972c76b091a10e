#!/usr/bin/env bash
# The span hints are fetched in the built code (CanonicalScheduler::FetchSpan). GCC 12 took a
# function whose only effect is __builtin_prefetch for one free of side effects and deleted the
# call, so that for several rounds no span was fetched while the manual said it was; nothing but
# the machine code can tell (a fetch changes no result). Every function of the library that takes
# events (InterconnectSimulatorImpl::Run, CanonicalScheduler::RemoveNext, where they hold any fetch
# at all) must fetch at the offsets of a span's lines after its first: 64, 128, ... 960 bytes.
# With "arrivals", the fetches the ports' arrivals issue themselves instead: a NIC's of the queue
# pair that a frame is for (RdmaChannelAdapter::PrefetchQueuePair, deleted in the same way until
# it was always inlined), a switch's of the egress queue that a frame may wait in, and a port's
# of the bytes of the frame next in line (ArrivalQueue::FirstArrives, FetchFirstBytes).
# Run by ctest: span-fetch-test.sh LIBRARY [arrivals]
set -euo pipefail
lib="$1"
mode="${2:-scheduler}"
command -v objdump >/dev/null || { echo "SKIP: no objdump"; exit 77; }
# A sanitized build's code is not the module's (AddressSanitizer rewrites the loads and the
# addresses around them): its fetches are not where this reads them.
if objdump -T "$lib" | grep -c '__asan_report_' >/dev/null; then
    echo "SKIP: $lib is built with AddressSanitizer"
    exit 77
fi
fail() { echo "FAIL: $*"; exit 1; }
code=$(mktemp)
trap 'rm -f "$code"' EXIT
objdump -d --no-show-raw-insn -C "$lib" >"$code"
# The instructions of function $1: from its label to the blank line that ends it.
body_of() { awk -v fn="<$1>:" 'index($0, fn) { f = 1; next } f && /^$/ { exit } f' "$code"; }
if [ "$mode" = arrivals ]; then
    nic='ns3::RdmaNic::PortReceive(unsigned int, ns3::Ptr<ns3::Packet> const&, unsigned short, ns3::PfcFrameInfo const&)'
    body=$(body_of "$nic")
    [ -n "$body" ] || fail "no $nic in the library"
    # An acknowledgement's queue pair: its send lines, 64 to 384 bytes in.
    for offset in 0x40 0x80 0xc0 0x100 0x140 0x180; do
        grep -Eq "prefetch[a-z0-9]*[[:space:]]+${offset}\(" <<<"$body" ||
            fail "$nic does not fetch a queue pair's line at +$offset"
    done
    switch='ns3::RoceSwitch::PortReceiveFrame(unsigned int, ns3::PacketRef&, unsigned int, unsigned short, ns3::PfcFrameInfo const&)'
    body=$(body_of "$switch")
    [ -n "$body" ] || fail "no $switch in the library"
    # The egress queue's ring: its first byte and its last (39 bytes on: 0x27), a line each.
    # (This reads how GCC 12 builds it, the queue's address in a register; another compiler
    # may fold the member's offset in, and the test then fails with the fetches there.)
    grep -Eq "prefetch[a-z0-9]*[[:space:]]+0x27\(" <<<"$body" ||
        fail "$switch does not fetch the end of an egress queue's ring"
    # A port's frames in flight: as one arrives, the next one's bytes (its first
    # PfcNetDevice::ARRIVAL_READ_BYTES, 56, two lines: the call that finds them, then, on the
    # address it returns, the fetches of their first byte and their 56th, 55 = 0x37 on). (Reads
    # the arrival's event with FirstArrives inlined into it, as GCC 12 builds it.)
    label='ns3::ArrivalQueue<ns3::PfcNetDevice, ns3::PfcNetDevice::Arriving, &ns3::PfcNetDevice::Arrive, &(ns3::PfcNetDevice::ArrivalHint'
    body=$(awk -v a="$label" 'index($0, a) && index($0, "FirstArrives>::Notify()>:") { f = 1; next }
                              f && /^$/ { exit } f' "$code")
    [ -n "$body" ] || fail "no arrival event of a port's frames in flight in the library"
    grep -Eq 'call.*<ns3::PacketBytesAddress\(ns3::Packet const&\)(@plt)?>' <<<"$body" ||
        fail "a port's arrival does not find the next frame's bytes"
    # (awk alone: a pipe into head could end sed with SIGPIPE, which pipefail makes a failure)
    after=$(awk '/call.*<ns3::PacketBytesAddress/ { f = 1 } f && n++ < 6' <<<"$body")
    grep -Eq "prefetch[a-z0-9]*[[:space:]]+\(%rax\)" <<<"$after" ||
        fail "a port's arrival does not fetch the next frame's first byte"
    grep -Eq "prefetch[a-z0-9]*[[:space:]]+0x37\(%rax\)" <<<"$after" ||
        fail "a port's arrival does not fetch the next frame's 56th byte"
    echo "PASS: a NIC's arrival fetches the queue pair, a switch's the egress queue, a port's"
    echo "      arrival the next frame's bytes"
    exit 0
fi
checked=0
for fn in 'ns3::InterconnectSimulatorImpl::Run()' 'ns3::CanonicalScheduler::RemoveNext()'; do
    body=$(body_of "$fn")
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
