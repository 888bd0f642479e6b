#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the vmlab VM (vmlab/vm.sh run -- bash vmlab/guest/qdisc_gate.sh):
# the stock kernel has mqprio and plug, and a plug under an mqprio class is
# a gate: closed, the class's packets wait in the queue (none lost);
# released, the waiting packets leave.
set -u
fail() { echo "FAIL: $*"; exit 1; }
ok() { echo "ok: $*"; }
for q in mqprio plug prio fq netem htb tbf; do
	grep -qw "sch_$q" /proc/modules || fail "sch_$q not loaded"
done
ok "mqprio, plug, prio, fq, netem, htb, tbf present ($(uname -r))"

ip netns add a && ip netns add b || fail "netns"
A="nsenter --net=/run/netns/a" B="nsenter --net=/run/netns/b"
ip link add va numtxqueues 4 netns a type veth peer name vb netns b || fail veth
# No IPv6: its neighbour discovery (priority 7, ungated) would be counted.
for ns in a b; do
	ip netns exec $ns sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 \
		net.ipv6.conf.va.disable_ipv6=1 net.ipv6.conf.vb.disable_ipv6=1 2>/dev/null
done
$A ip addr add 10.9.0.1/24 dev va; $B ip addr add 10.9.0.2/24 dev vb
$A ip link set va up; $B ip link set vb up; $A ip link set lo up
# Priority 0 (ping's) -> traffic class 1 -> queue 1, gated by a plug;
# priority 6 -> class 0, never gated.
$A tc qdisc add dev va root handle 1: mqprio num_tc 2 \
	map 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 queues 2@0 2@2 hw 0 || fail "mqprio"
for c in 3 4; do
	$A tc qdisc add dev va parent 1:$c handle $c: plug limit 1000 || fail "plug"
done
$A ip neigh add 10.9.0.2 lladdr "$(ip netns exec b cat /sys/class/net/vb/address)" dev va nud permanent
ok "mqprio with a plug under each queue of class 1 on va"
# UDP datagrams at priority 0 from namespace a (bash's /dev/udp: the host
# has no ping); the receiver's rx_packets counts what crosses the veth.
send() { $A bash -c "for i in \$(seq $1); do echo x > /dev/udp/10.9.0.2/9; done"; }
rx() { ip netns exec b cat /sys/class/net/vb/statistics/rx_packets; }

# A new plug starts closed.
rx0=$(rx)
send 20
sleep 0.3
[ "$(rx)" -eq "$rx0" ] || fail "$(( $(rx) - rx0 )) packets passed a closed plug"
backlog=$($A tc -s qdisc show dev va | awk '/^qdisc plug/ { p=1 } p && /backlog/ { n += $3; p=0 } END { print n+0 }')
[ "$backlog" -ge 20 ] || fail "closed plug holds $backlog packets, expected >= 20"
ok "closed plug holds the class's packets ($backlog queued)"
drops=$($A tc -s qdisc show dev va | awk '/^qdisc plug/ { p=1 } p && /dropped/ { sub(",","",$7); n += $7; p=0 } END { print n+0 }')
[ "$drops" -eq 0 ] || fail "closed plug dropped $drops"
ok "no drops behind the closed plug"

for c in 3 4; do $A tc qdisc change dev va parent 1:$c handle $c: plug release_indefinite; done
send 1
sleep 0.3
rx1=$(rx)
[ $((rx1 - rx0)) -ge 21 ] || fail "released plug delivered $((rx1 - rx0)) packets, expected >= 21"
ok "released plug delivers the held packets ($((rx1 - rx0)) received)"

for c in 3 4; do $A tc qdisc change dev va parent 1:$c handle $c: plug block; done
send 5
sleep 0.3
[ "$(rx)" -eq "$rx1" ] || fail "packets passed a re-closed plug"
ok "plug block closes the gate again"
ip netns del a; ip netns del b
echo "PASS"
