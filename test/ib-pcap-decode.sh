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
# Reliable connections: a 3-packet RDMA WRITE (First with its RETH, Middle, Last) and the
# responder's ACKs (opcode 17, with AETH); a 3-packet READ: the request with its RETH (opcode 12)
# and the responses First/Middle/Last (13, 14, 15) with AETHs on the first and last.
rm -rf "$dir/rc"
"$example" --verb=write --packets=3 --bufferBlocks=130 --pcap="$dir/rc/write" --out="$dir/rc/out" >/dev/null
write=$(fields "$dir/rc/write/ib-credit-link-0-0.pcap" "infiniband.lrh" -e infiniband.lrh.slid \
    -e infiniband.bth.opcode -e infiniband.bth.psn -e infiniband.reth.dmalen | tr '\t\n' ', ')
case "$write" in
"1,6,0,12288 1,7,1, 1,8,2, 2,17,0, 2,17,1, "*) ;;
*) fail "WRITE First/Middle/Last with a RETH of 12288 bytes and ACKs expected, got '$write'" ;;
esac
"$example" --verb=read --packets=3 --bufferBlocks=130 --pcap="$dir/rc/read" --out="$dir/rc/out" >/dev/null
read=$(fields "$dir/rc/read/ib-credit-link-0-0.pcap" "infiniband.lrh" -e infiniband.lrh.slid \
    -e infiniband.bth.opcode -e infiniband.reth.dmalen -e infiniband.aeth.msn | tr '\t\n' ', ')
[ "$read" = "1,12,12288, 2,13,,1 2,14,, 2,15,,1 " ] ||
    fail "READ request and First/Middle/Last responses with AETHs expected, got '$read'"
# DLT_INFINIBAND (247) captures, for tools that read that link type (Debian 12's Wireshark does
# not): the link type in the file header, then each data packet from its LRH (VL 0, LNH 2,
# DLID 2, PktLen 1034 words for 4 KiB with its RETH, SLID 1), 4136 bytes long.
"$example" --verb=write --packets=3 --bufferBlocks=130 --pcapFormat=infiniband \
    --pcap="$dir/rc/raw" --out="$dir/rc/out" >/dev/null
raw="$dir/rc/raw/ib-credit-link-0-0.pcap"
linktype=$(od -An -tu4 -j20 -N4 "$raw" | tr -d ' ')
[ "$linktype" = 247 ] || fail "DLT_INFINIBAND (247) expected in the header, got '$linktype'"
caplen=$(od -An -tu4 -j32 -N4 "$raw" | tr -d ' ')
lrh=$(od -An -tx1 -j40 -N8 "$raw" | tr -d ' \n')
[ "$caplen" = 4136 ] && [ "$lrh" = 00020002040a0001 ] ||
    fail "a 4136-byte packet from its LRH 00020002040a0001 expected, got $caplen bytes, LRH $lrh"
echo "ib pcap: LRH/BTH data packets, RC WRITE/READ with RETH/AETH and ACKs, and FCTBS/FCCL flow-control packets decoded; DLT 247 captures written"
