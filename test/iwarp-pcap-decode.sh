#!/usr/bin/env bash
# Wireshark (tshark) decodes the iWARP captures of iwarp-vs-roce as MPA and DDP/RDMAP: the
# start-up frames, every data segment as one or more whole FPDUs with good CRCs (with and without
# markers), and the RDMAP opcodes of Write, Read Request, Read Response and Send. Run by ctest:
# iwarp-pcap-decode.sh IWARP_VS_ROCE TSHARK DIR
set -euo pipefail
example="$1"
tshark="$2"
dir="$3"
rm -rf "$dir"
fail() { echo "FAIL: $*"; exit 1; }
fields() { "$tshark" -r "$1" -Y "$2" -T fields "${@:3}" 2>/dev/null; }
count() { "$tshark" -r "$1" -Y "$2" 2>/dev/null | wc -l; }

check() { # VERB MARKERS OPCODES_FROM_HOST0 OPCODES_FROM_HOST3
    local verb="$1" markers="$2"
    local out="$dir/$verb-$markers"
    "$example" --hostsPerLeaf=2 --flowSize=20KB --victimSize=5KB --verb="$verb" \
        --markers="$markers" --pcap="$out/pcap" --out="$out" >/dev/null
    # Host 0's port: its connection to host 3 (10.0.0.1 <-> 10.0.0.4).
    local cap="$out/pcap/iwarp-0-0.pcap"
    [ -s "$cap" ] || fail "no capture at $cap"
    [ "$(count "$cap" iwarp_mpa.req)" = 1 ] || fail "$verb: one MPA request expected"
    [ "$(count "$cap" iwarp_mpa.rep)" = 1 ] || fail "$verb: one MPA reply expected"
    local undecoded
    undecoded=$(count "$cap" "tcp.len > 0 && !iwarp_mpa")
    [ "$undecoded" = 0 ] || fail "$verb markers=$markers: $undecoded data segments not decoded as MPA"
    local fpdus good bad
    fpdus=$(count "$cap" "iwarp_ddp")
    good=$("$tshark" -r "$cap" -V 2>/dev/null | grep -c "(Good CRC32)" || true)
    bad=$("$tshark" -r "$cap" -V 2>/dev/null | grep -c "Bad CRC32" || true)
    [ "$fpdus" -gt 10 ] || fail "$verb: only $fpdus FPDUs decoded"
    [ "$good" = "$fpdus" ] && [ "$bad" = 0 ] ||
        fail "$verb markers=$markers: $good good and $bad bad CRCs for $fpdus FPDUs"
    if [ "$markers" = 1 ]; then
        [ "$(count "$cap" iwarp_mpa.marker_fpduptr)" -gt 0 ] || fail "$verb: no markers decoded"
    fi
    local from0 from3
    from0=$(fields "$cap" "ip.src == 10.0.0.1 && iwarp_rdma" -e iwarp_rdma.opcode | sort -u | tr '\n' ' ')
    from3=$(fields "$cap" "ip.src == 10.0.0.4 && iwarp_rdma" -e iwarp_rdma.opcode | sort -u | tr '\n' ' ')
    [ "$from0" = "$3" ] || fail "$verb: opcodes from the initiator '$from0', expected '$3'"
    [ "$from3" = "$4" ] || fail "$verb: opcodes from the responder '$from3', expected '$4'"
}

# RDMAP opcodes: 0x00 Write (the initiator's first FPDU is a zero-length Write), 0x01 Read
# Request, 0x02 Read Response, 0x03 Send.
check write 1 "0x00 " ""
check read 0 "0x00 0x01 " "0x02 "
check read 1 "0x00 0x01 " "0x02 "
check send 1 "0x00 0x03 " ""
size=$(fields "$dir/read-1/pcap/iwarp-0-0.pcap" "iwarp_rdma.opcode == 1" -e iwarp_rdma.rdmardsz)
[ "$size" = 20000 ] || fail "Read Request of 20000 bytes expected, got '$size'"
echo "iwarp pcap: MPA start-up, FPDUs with good CRCs (markers on and off), Write/Read/Send decoded"
