#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs inside each VM of vmlab/scenarios/clos-bounce-rdma.sh: the VM is two
# hosts of the lab, one per NIC (eth0, eth1: taps on two switches' ports).
# Each NIC is configured as the lab configures a host's port (its /31
# address, the ToR as gateway for what this address sends: a routing
# table per NIC), tagged like the lab's hosts (tagger host attach, RoCEv2
# into the lossless class), one pause agent on both (the VM obeys its
# ToRs' PAUSEs), soft RoCE on each (rxe0, rxe1). Once the lab tells the
# VM (its data plane and agents run then: a datagram), each NIC runs one
# ib_write_bw, as server or client, all at once.
#
#   lab_clos_rdma_vm_guest.sh TOP NAME server|client RULES AGENT_OPTS BW_OPTS \
#       BW_SECS HOST:ADDR:GW:PEER:TCPPORT...
#
# BW_SECS: how long an ib_write_bw may run (then it is killed: a QP whose
# packets sit behind a deadlock's pauses neither completes nor fails).
# One HOST:... per NIC in order: the lab host it is, its address, its
# ToR's end of the link, the other end of its RDMA flow, the port perftest
# talks over. Lines for the scenario: "ready NAME", "go", "bw-exit HOST
# CODE SECONDS", "rdma-before|rdma-after HOST COUNTERS", "pfc JSON".
top=$1 name=$2 role=$3 rules=$4 agent_opts=$5 bw_opts=$6 bw_secs=$7
shift 7
cd "$top" || exit 1
export TAGGER_BPF_ROOT=/sys/fs/bpf/tagger TAGGER_PFC_DIR=/run/tagger-pfc
mac() { echo "$1" | awk -F. '{ printf "02:00:%02x:%02x:%02x:%02x\n", $1, $2, $3, $4 }'; }
hexip() { echo "$1" | awk -F. '{ printf "%02x%02x:%02x%02x", $1, $2, $3, $4 }'; }
echo 1 > /proc/sys/net/ipv6/conf/all/disable_ipv6
# Two addresses, two gateways: a reply must leave by its address's NIC.
for k in all default; do echo 0 > "/proc/sys/net/ipv4/conf/$k/rp_filter"; done
i=0 ports=
for spec in "$@"; do
	IFS=: read -r host addr gw peer tport <<EOT
$spec
EOT
	dev=eth$i
	echo 0 > "/proc/sys/net/ipv4/conf/$dev/rp_filter"
	ip link set "$dev" up && ip addr add "$addr/31" dev "$dev" &&
		ip neigh replace "$gw" lladdr "$(mac "$gw")" dev "$dev" nud permanent &&
		ip route add "$peer" via "$gw" dev "$dev" &&
		ip route add default via "$gw" dev "$dev" table $((100 + i)) &&
		ip rule add from "$addr" table $((100 + i)) || { echo "$dev setup failed"; exit 1; }
	ethtool -K "$dev" tso off gso off 2>/dev/null
	build/tagger host attach "$host" "$dev" "$rules" --udp-dport 4791 ||
		{ echo "host attach $host $dev failed"; exit 1; }
	rdma link add "rxe$i" type rxe netdev "$dev" || { echo "rdma link add rxe$i failed"; exit 1; }
	ports="$ports $dev"
	i=$((i + 1))
done
# shellcheck disable=SC2086 # the agent's options and ports, word by word
build/tagger pfc agent "$name" $ports $agent_opts --watchdog-action report \
	--busy-poll 0 > /tmp/pfc.log 2>&1 &
agent=$!
for _ in $(seq 100); do
	build/tagger pfc show "$name" > /dev/null 2>&1 && break
	kill -0 $agent 2>/dev/null || { echo "pfc agent died:"; cat /tmp/pfc.log; exit 1; }
	sleep 0.1
done
# gid N ADDR: the RoCE v2 GID index of ADDR on rxeN (IPv6 is off).
gid() {
	for g in "/sys/class/infiniband/rxe$1/ports/1/gids/"*; do
		[ "$(cat "$g")" = "0000:0000:0000:0000:0000:ffff:$(hexip "$2")" ] || continue
		[ "$(cat "/sys/class/infiniband/rxe$1/ports/1/gid_attrs/types/${g##*/}" 2>/dev/null)" = "RoCE v2" ] &&
			echo "${g##*/}" && return 0
	done
	return 1
}
counters() { rdma statistic show link "rxe$1/1" | sed "s/^link rxe$1\/1 //"; }
echo "ready $name"
# The lab sends each VM a datagram to a port nobody listens on once its
# data plane and agents run: the go (UDP NoPorts).
t0=$(date +%s)
while [ "$(awk '/^Udp: [0-9]/ { print $3 }' /proc/net/snmp)" -lt 1 ]; do
	[ $(($(date +%s) - t0)) -lt 300 ] || { echo "no go from the lab in 300 s"; exit 1; }
	sleep 0.2
done
echo "go"
# flow N HOST ADDR PEER TCPPORT: one ib_write_bw on rxeN; the client
# retries while the server does not listen yet (the other VM).
flow() {
	g=$(gid "$1" "$3") || { echo "bw-exit $2 1 0 (no RoCE v2 GID for $3)"; return; }
	echo "rdma-before $2 $(counters "$1")"
	s=$(date +%s.%N)
	if [ "$role" = server ]; then
		# shellcheck disable=SC2086
		timeout "$bw_secs" ib_write_bw -d "rxe$1" -x "$g" -p "$5" $bw_opts > "/tmp/bw-$2.out" 2>&1
		rc=$?
	else
		for _ in $(seq 60); do
			# shellcheck disable=SC2086
			timeout "$bw_secs" ib_write_bw -d "rxe$1" -x "$g" -p "$5" $bw_opts "$4" > "/tmp/bw-$2.out" 2>&1
			rc=$?
			grep -q "Couldn't connect\|Unable to init the socket" "/tmp/bw-$2.out" || break
			sleep 1
		done
	fi
	echo "bw-exit $2 $rc $(echo "$(date +%s.%N) - $s" | bc)"
	sed "s/^/$2: /" "/tmp/bw-$2.out"
	echo "rdma-after $2 $(counters "$1")"
}
i=0 pids=
for spec in "$@"; do
	IFS=: read -r host addr gw peer tport <<EOT
$spec
EOT
	flow $i "$host" "$addr" "$peer" "$tport" &
	pids="$pids $!"
	i=$((i + 1))
done
# shellcheck disable=SC2086
wait $pids
echo "pfc $(build/tagger -j pfc show "$name" | tr -d '\n')"
kill $agent
wait $agent
exit 0
