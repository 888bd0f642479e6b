#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs inside each VM of tests/shell/slow_lab_rdma_vm.sh: the VM is a host
# of a namespace lab on the machine, its eth0 the lab's tap (vm.sh --nic).
# It configures eth0 as the lab would a host's port, tags and queues like
# the lab's hosts (tagger host attach, tagger pfc agent: it obeys its ToR's
# PAUSEs), puts soft RoCE (rdma_rxe) on eth0, and runs perftest as server
# or client: ib_write_bw (RC, fixed size and count), then ib_send_lat.
# rxe's counters are printed before and after, and the agent's -j show.
#
#   lab_rdma_vm_guest.sh TOP NAME server|client ADDR GW PEER RULES AGENT_OPTS BW_OPTS LAT_OPTS WAIT_RX
#
# WAIT_RX: packets eth0 must have received before perftest starts (the
# lab's filler arriving; at most 60 s), and at the end, receiving stopped
# for 2 s (the test stops the filler once the client's VM is done; at
# most 60 s): a tap whose VM is gone drops what its switch still sends
# it, which the lab would count. 0 for neither.
# ADDR is this host's /31 address, GW its ToR's end of the link, PEER the
# other VM's address. Lines for the test: "rdma-before|rdma-after COUNTERS",
# "bw-exit N", "lat-exit N", "pfc JSON"; perftest's own output in between.
# The modules (virtio_net, rdma_rxe, ib_uverbs, crc32_generic) are in
# vm.sh's initramfs.
top=$1 name=$2 role=$3 addr=$4 gw=$5 peer=$6 rules=$7 agent_opts=$8 bw_opts=$9 lat_opts=${10} wait_rx=${11:-0}
cd "$top" || exit 1
export TAGGER_BPF_ROOT=/sys/fs/bpf/tagger TAGGER_PFC_DIR=/run/tagger-pfc
# The lab's MACs: 02:00 and the address's four octets (vmlab/lib.sh).
mac() { echo "$1" | awk -F. '{ printf "02:00:%02x:%02x:%02x:%02x\n", $1, $2, $3, $4 }'; }
echo 1 > /proc/sys/net/ipv6/conf/all/disable_ipv6
ip link set eth0 up && ip addr add "$addr/31" dev eth0 &&
	ip neigh replace "$gw" lladdr "$(mac "$gw")" dev eth0 nud permanent &&
	ip route add default via "$gw" dev eth0 || { echo "eth0 setup failed"; exit 1; }
ethtool -K eth0 tso off gso off 2>/dev/null
build/tagger host attach "$name" eth0 "$rules" --udp-dport 4791 ||
	{ echo "host attach failed"; exit 1; }
# shellcheck disable=SC2086 # the agent's options, word by word
build/tagger pfc agent "$name" eth0 $agent_opts --watchdog-action report \
	--busy-poll 0 > /tmp/pfc.log 2>&1 &
agent=$!
for _ in $(seq 100); do
	build/tagger pfc show "$name" > /dev/null 2>&1 && break
	kill -0 $agent 2>/dev/null || { echo "pfc agent died:"; cat /tmp/pfc.log; exit 1; }
	sleep 0.1
done
# The agent joined the PFC frames' multicast group (pfc_sock_join):
# virtio-net would filter them otherwise.
echo "maddr $(ip maddr show dev eth0 | grep -c 01:80:c2:00:00:01)"
rdma link add rxe0 type rxe netdev eth0 || { echo "rdma link add failed"; exit 1; }
# The RoCE v2 GID of the IPv4 address (IPv6 is off: the only one).
gid=
for g in /sys/class/infiniband/rxe0/ports/1/gids/*; do
	i=${g##*/}
	[ "$(cat "$g")" = "0000:0000:0000:0000:0000:ffff:$(echo "$addr" |
		awk -F. '{ printf "%02x%02x:%02x%02x", $1, $2, $3, $4 }')" ] || continue
	[ "$(cat "/sys/class/infiniband/rxe0/ports/1/gid_attrs/types/$i" 2>/dev/null)" = "RoCE v2" ] &&
		gid=$i && break
done
[ -n "$gid" ] || { echo "no RoCE v2 GID for $addr"; exit 1; }
echo "ready $name gid $gid"
counters() { rdma statistic show link rxe0/1 | sed 's/^link rxe0\/1 //'; }
echo "rdma-before $(counters)"

# perftest's client fails at once when the server does not listen yet:
# the client retries (the other VM may still be booting) for up to 120 s.
# perf PROGRAM OPTIONS: one perftest run of this side, at most 120 s
# (124 then): a lossy run may not end (retransmissions lost again, a QP
# that stalls), and the counters after it are what the test reads.
perf() {
	if [ "$role" = server ]; then
		# shellcheck disable=SC2086
		timeout 120 $1 -d rxe0 -x "$gid" $2
		return
	fi
	for _ in $(seq 120); do
		# shellcheck disable=SC2086
		timeout 120 $1 -d rxe0 -x "$gid" $2 "$peer" > /tmp/perf.out 2>&1 && break
		grep -q "Couldn't connect\|Unable to init the socket" /tmp/perf.out || break
		sleep 1
	done
	cat /tmp/perf.out
	grep -q '^ *[0-9]' /tmp/perf.out
}
if [ "$wait_rx" -gt 0 ]; then
	t0=$(date +%s)
	while [ "$(cat /sys/class/net/eth0/statistics/rx_packets)" -lt "$wait_rx" ] &&
		[ $(($(date +%s) - t0)) -lt 60 ]; do
		sleep 0.2
	done
	echo "rx $(cat /sys/class/net/eth0/statistics/rx_packets) packets after $(($(date +%s) - t0)) s"
fi
t0=$(date +%s.%N)
perf ib_write_bw "$bw_opts"
bw=$?
echo "bw-exit $bw $(echo "$(date +%s.%N) - $t0" | bc)"
echo "rdma-mid $(counters)"
# The latency test only after the bandwidth test on both sides: the
# server listens again once its bandwidth run is over. Not after a
# failed one: the other side may still wait in it.
if [ $bw -eq 0 ]; then
	perf ib_send_lat "$lat_opts"
	echo "lat-exit $?"
fi
echo "rdma-after $(counters)"
if [ "$wait_rx" -gt 0 ]; then
	t0=$(date +%s) last=0
	while [ $(($(date +%s) - t0)) -lt 60 ]; do
		n=$(cat /sys/class/net/eth0/statistics/rx_packets)
		[ "$n" = "$last" ] && break
		last=$n
		sleep 2
	done
	echo "rx quiet after $(($(date +%s) - t0)) s"
fi
echo "pfc $(build/tagger -j pfc show "$name" | tr -d '\n')"
kill $agent
wait $agent
build/tagger host detach "$name" eth0
exit 0
