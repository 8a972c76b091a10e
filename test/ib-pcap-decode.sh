#!/usr/bin/env bash
# Wireshark (tshark) decodes the InfiniBand captures: data packets with their LRH and BTH, and
# link-layer flow-control packets with FCTBS and FCCL. Run by ctest:
# ib-pcap-decode.sh IB_CREDIT_LINK TSHARK DIR
set -euo pipefail
example="$1"
tshark="$2"
dir="$3"
rm -rf "$dir"
"$example" --packets=5 --bufferBlocks=130 --pcap="$dir/pcap" --out="$dir/out" >/dev/null
sender="$dir/pcap/ib-credit-link-0-0.pcap"
receiver="$dir/pcap/ib-credit-link-1-0.pcap"
[ -s "$sender" ] || { echo "no capture at $sender"; exit 1; }
fail() { echo "FAIL: $*"; exit 1; }
fields() { "$tshark" -r "$1" -Y "$2" -T fields "${@:3}" 2>/dev/null; }

# Five SEND packets from LID 1 to LID 2: First, Middle x3, Last; PSN 0..4.
data=$(fields "$sender" "infiniband.lrh.dlid == 2" -e infiniband.lrh.slid -e infiniband.bth.opcode \
    -e infiniband.bth.psn | tr '\t\n' ', ')
[ "$data" = "1,0,0 1,1,1 1,1,2 1,1,3 1,2,4 " ] || fail "SEND packets LID 1 -> 2 expected, got '$data'"
# The receiver's flow-control packets on VL 0 (in its own capture): FCCL starts at its 130-block buffer and grows by
# 65 blocks (one packet) per released packet, to 130 + 5 x 65.
fccl=$(fields "$receiver" "infiniband_link.vl == 0 && infiniband_link.fctbs == 0" -e infiniband_link.fccl |
    sort -n -u | tr '\n' ' ')
[ "$fccl" = "130 195 260 325 390 455 " ] || fail "FCCL 130..455 by 65 expected, got '$fccl'"
echo "ib pcap: LRH/BTH data packets and FCTBS/FCCL flow-control packets decoded"
