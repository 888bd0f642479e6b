#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lab_host_tap HOST NODE and lab_tap_home (vmlab/lib.sh), without a VM: a
# program that opens the tap as QEMU does (TUNSETIFF) stands in for it.
# fixtures/rdma_lab.topo: h2 under B. The tap of h2 is made in A's
# namespace (where the VM would run) with h2's veth gone from B; moved
# home it is B's port h2 again: the switch's address, a route to h2, the
# carrier of the open file, and a frame written to the file arrives at B.
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd python3
source "$TOP/vmlab/lib.sh"
lab_init "${TGR_PREFIX}t" || fail "lab name"
tgr_on_exit 'lab_down_mine'
LAB_QUIET=1 lab_up "$TOP/tests/shell/fixtures/rdma_lab.topo" --shortest || fail "lab up"

read -r sw port addr gw < <(lab_host_tap h2 A) || fail "lab_host_tap h2 A"
check "prints SWITCH PORT ADDR GW" [ "$sw $port" = "B h2" ] && [ -n "$addr" ] && [ -n "$gw" ]
check "the tap is in A's namespace" sh -c "ip -n $(lab_ns A) -d link show dev h2 | grep -q 'tun type tap'"
check "h2's veth is gone from B" sh -c "! ip -n $(lab_ns B) link show dev h2 2>/dev/null"
check "no address on the tap in A" sh -c "! ip -n $(lab_ns A) addr show dev h2 | grep -q 'inet '"

# The stand-in for QEMU: holds the tap open, writes one frame when told.
fifo=$TGR_TMP/go
mkfifo "$fifo"
nsenter --net="/run/netns/$(lab_ns A)" python3 -c '
import fcntl, os, struct, sys
fd = os.open("/dev/net/tun", os.O_RDWR)
fcntl.ioctl(fd, 0x400454ca, struct.pack("16sH", b"h2", 0x0002 | 0x1000))
print("open", flush=True)
open(sys.argv[1]).read()
os.write(fd, bytes.fromhex("ffffffffffff02000a000002" "88b5") + bytes(60))
print("sent", flush=True)
' "$fifo" > "$TGR_TMP/tap.out" 2>&1 &
holder=$!
for _ in $(seq 100); do grep -q open "$TGR_TMP/tap.out" && break; sleep 0.05; done
check "the stand-in opened the tap" grep -q open "$TGR_TMP/tap.out"

lab_tap_home h2 A || fail "lab_tap_home h2 A"
check "the tap left A" sh -c "! ip -n $(lab_ns A) link show dev h2 2>/dev/null"
check "B's port h2 is the tap" sh -c "ip -n $(lab_ns B) -d link show dev h2 | grep -q 'tun type tap'"
check "with the switch's address $gw/31" sh -c "ip -n $(lab_ns B) -br addr show dev h2 | grep -q '$gw/31'"
check "B routes h2's address to it" sh -c "ip -n $(lab_ns B) route get $addr | grep -q 'dev h2'"
check "carrier: the file stayed open across the move" \
	sh -c "ip -n $(lab_ns B) link show dev h2 | grep -q LOWER_UP"
rx0=$(ip -n "$(lab_ns B)" -j -s link show dev h2 | jq '.[0].stats64.rx.packets')
echo go > "$fifo"
wait $holder
rx1=$(ip -n "$(lab_ns B)" -j -s link show dev h2 | jq '.[0].stats64.rx.packets')
check "a frame written to the file arrives at B ($rx0 -> $rx1 packets)" [ "$rx1" -gt "$rx0" ]
no_home() { ! lab_tap_home "$1" "$2" 2>/dev/null; }
check "lab_tap_home h3 B: no such tap in B, fails" no_home h3 B
check "lab_tap_home of a host not in the lab fails" no_home h9 A
lab_down
echo PASS
