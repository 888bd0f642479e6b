#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tagger topo discover and check with lldpd: the lab of "tagger topo ring
# 3 --hosts 1" (a namespace a node, a veth pair a link), lldpd in every
# namespace with its own control socket (the inventory's
# tagger_lldp_socket) and a one-second tx interval. discover writes the
# lab's topology (the hosts, not in the inventory, as host lines); check
# against it passes; after two cables of sw2 are swapped (its eth2 and
# eth3 renamed into each other), check exits 1 naming both links, in text
# and -j; a switch that only listens makes its cables heard from one side
# (warnings, links kept); a switch whose lldpd is gone exits 3 naming it.
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd jq
command -v lldpd >/dev/null 2>&1 || skip "needs lldpd (apt-get install lldpd)"
require_cmd lldpcli
cd "$TGR_TMP" || exit 1
T=$TAGGER

"$T" topo ring 3 --hosts 1 -o lab.topo || fail "topo ring"
nodes=$(awk '$1 == "switch" || $1 == "host" { print $2 }' lab.topo)
sock() { echo "/run/$(ns_name "$1").lldpd.socket"; }
for n in $nodes; do ns_new "$n"; done
# A veth pair a link, each end named as its port.
i=0
while read -r _ a b; do
	i=$((i + 1))
	ip link add "$TGR_PREFIX-a$i" netns "$(ns_name "${a%%:*}")" type veth \
		peer "$TGR_PREFIX-b$i" netns "$(ns_name "${b%%:*}")" || fail "veth $a $b"
	ip -n "$(ns_name "${a%%:*}")" link set "$TGR_PREFIX-a$i" name "${a#*:}" up &&
		ip -n "$(ns_name "${b%%:*}")" link set "$TGR_PREFIX-b$i" name "${b#*:}" up ||
		fail "naming $a $b"
done < <(grep '^link ' lab.topo)

tgr_on_exit "rm -f /run/$TGR_PREFIX-*.lldpd.socket"
for n in $nodes; do
	ns_exec "$n" lldpd -d -u "$(sock "$n")" -O /dev/null >"lldpd-$n.log" 2>&1 &
	bg_track $!
done
for n in $nodes; do
	for _ in $(seq 50); do [ -S "$(sock "$n")" ] && break; sleep 0.1; done
	ns_exec "$n" lldpcli -u "$(sock "$n")" configure system hostname "$n" >/dev/null &&
		ns_exec "$n" lldpcli -u "$(sock "$n")" configure lldp tx-interval 1 >/dev/null ||
		fail "configuring lldpd in $n"
done
{
	echo "[lab]"
	for s in sw1 sw2 sw3; do
		echo "$s tagger_netns=$(ns_name "$s") tagger_lldp_socket=$(sock "$s")"
	done
	echo "[lab:vars]"
	echo "tagger_timeout=5"
} >inv

# A topology's lines in one order, each link's ends in one order.
canon() {
	awk '$1 == "link" { if ($2 > $3) { t = $2; $2 = $3; $3 = t } } { print }' "$1" | sort
}

# Every node heard by its neighbours: bounded, lldpd sends every second.
for _ in $(seq 30); do
	"$T" topo discover inv -o found.topo 2>discover.err &&
		[ "$(canon found.topo)" = "$(canon lab.topo)" ] &&
		[ ! -s discover.err ] && break
	sleep 1
done
check "discover writes the lab's topology" \
	diff <(canon lab.topo) <(canon found.topo)
check "discover warns of nothing" test ! -s discover.err
check "the hosts are host lines" grep -qx 'host h1' found.topo
check "-j: a summary" bash -c "'$T' -j topo discover inv | jq -e \
	'.switches == 3 and .hosts == 3 and .links == 6 and .warnings == []' >/dev/null"
"$T" topo check lab.topo inv >check.out
check "check against the lab's topology: exit 0" test $? -eq 0
check "check says it matches" grep -q "the cabling is lab.topo's" check.out

# Swap the cables in sw2's eth2 (to sw1) and eth3 (to sw3).
ns2=$(ns_name sw2)
ip -n "$ns2" link set eth2 down && ip -n "$ns2" link set eth3 down &&
	ip -n "$ns2" link set eth2 name swap && ip -n "$ns2" link set eth3 name eth2 &&
	ip -n "$ns2" link set swap name eth3 &&
	ip -n "$ns2" link set eth2 up && ip -n "$ns2" link set eth3 up ||
	fail "swapping sw2's cables"
for _ in $(seq 30); do
	"$T" topo check lab.topo inv >check.out 2>check.err
	rc=$?
	[ $rc -eq 1 ] && [ "$(grep -c '^differs' check.out)" -eq 2 ] &&
		! grep -q '^extra\|^missing' check.out && [ ! -s check.err ] && break
	sleep 1
done
cat check.out
check "check after the swap: exit 1" test $rc -eq 1
check "the link to sw1 is named" \
	grep -qx 'differs  link sw1:eth2 sw2:eth2  cabled: sw1:eth2 sw2:eth3, sw2:eth2 sw3:eth2' check.out
check "the link to sw3 is named" \
	grep -qx 'differs  link sw2:eth3 sw3:eth2  cabled: sw2:eth3 sw1:eth2, sw3:eth2 sw2:eth2' check.out
check "nothing else differs" test "$(grep -c 'link' check.out)" -eq 2
"$T" -j topo check lab.topo inv >check.json
check "-j: exit 1" test $? -eq 1
check "-j: the two links, with what is cabled" jq -e '.match == false and
	([.differences[] | select(.kind == "differs") | .link] | sort) ==
	["sw1:eth2 sw2:eth2", "sw2:eth3 sw3:eth2"] and
	(.differences[0].found | length) == 2 and .warnings == []' check.json >/dev/null
"$T" topo discover inv -o swapped.topo 2>/dev/null
check "discover writes the swapped cabling" grep -q 'sw2:eth3 sw1:eth2\|sw1:eth2 sw2:eth3' swapped.topo

# sw3 only listens: its cables are heard from its side only.
ns_exec sw3 lldpcli -u "$(sock sw3)" configure lldp status rx-only >/dev/null ||
	fail "rx-only on sw3"
for _ in $(seq 30); do
	"$T" topo discover inv -o rx.topo 2>rx.err
	[ "$(grep -c 'heard by sw3 only' rx.err)" -eq 2 ] && break
	sleep 1
done
cat rx.err
check "a cable heard by one end: warned" grep -q 'Warning: link .*sw1:eth3.* is heard by sw3 only' rx.err
check "... and still a link" grep -q 'sw3:eth3 sw1:eth3\|sw1:eth3 sw3:eth3' rx.topo

# sw1's lldpd gone: exit 3 naming the switch.
pkill_ns() { ip netns pids "$(ns_name "$1")" | xargs -r kill; }
pkill_ns sw1
for _ in $(seq 30); do [ -z "$(ip netns pids "$(ns_name sw1)")" ] && break; sleep 0.1; done
"$T" topo discover inv -o gone.topo 2>gone.err
check "no lldpd on sw1: exit 3" test $? -eq 3
check "... naming sw1" grep -q '^Error: sw1: lldpcli exited' gone.err
check "... and no file" test ! -e gone.topo
# A bad inventory: exit 2 with its line.
printf '[x]\nsw1 tagger_lldp_socket=rel/sock\n' >bad.inv
"$T" topo discover bad.inv 2>bad.err
check "a relative socket path: exit 2" test $? -eq 2
check "... with its line" grep -q '^bad.inv:2: tagger_lldp_socket=rel/sock' bad.err
echo "PASS"
