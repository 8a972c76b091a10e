#!/usr/bin/env bash
# Wireshark (tshark) must decode the module's pcap output as RoCEv2 and as 802.1Qbb PFC, with
# the field values the simulation put there. Run by ctest: pcap-decode.sh ROCE_INCAST TSHARK DIR
set -euo pipefail
incast="$1"
tshark="$2"
dir="$3"
rm -rf "$dir"
"$incast" --senders=4 --flowSize=300000 --bufferSize=400000 --pcap="$dir/pcap" --out="$dir/out" \
    >/dev/null
host="$dir/pcap/roce-incast-0-0.pcap" # sender 0's port: its data out, ACKs and PFC in
[ -s "$host" ] || { echo "no pcap written at $host"; exit 1; }

fields() { "$tshark" -r "$1" -Y "$2" -T fields -e "$3" 2>/dev/null; }
fail() { echo "FAIL: $*"; exit 1; }

# RoCEv2 data: the first frame of the WRITE is RDMA WRITE First (opcode 6) with a RETH giving
# the message length; PSNs count up from 0 without gaps.
first=$(fields "$host" "udp.dstport == 4791 && infiniband.bth.opcode == 6" infiniband.reth.dmalen)
[ "$first" = "300000" ] || fail "RDMA WRITE First with DMA length 300000 expected, got '$first'"
psns=$(fields "$host" "ip.src == 10.0.0.1 && infiniband.bth.opcode >= 6 && infiniband.bth.opcode <= 10" \
    infiniband.bth.psn | head -n 293 | tr '\n' ' ')
expected=$(seq 0 292 | tr '\n' ' ')
[ "$psns" = "$expected" ] || fail "PSNs 0..292 in order expected"
# ACKs (opcode 17) with an AETH of type ACK (syndrome opcode 0).
acks=$(fields "$host" "infiniband.bth.opcode == 17 && infiniband.aeth.syndrome.opcode == 0" \
    infiniband.bth.psn | wc -l)
[ "$acks" -gt 0 ] || fail "no ACKs decoded"
# PFC: MAC control opcode 0x0101 with priority 3 enabled, pause and resume both present.
pauses=$(fields "$host" "macc.opcode == 0x0101 && macc.cbfc.enbv.c3 == 1" macc.cbfc.pause_time.c3 |
    sort -u | tr '\n' ' ')
[ "$pauses" = "0 65535 " ] || fail "PFC frames with C3 times {0, 65535} expected, got '$pauses'"
echo "pcap decodes: RoCEv2 WRITE/ACK with PSNs 0..292 in order, $acks ACKs, PFC pause and resume"
