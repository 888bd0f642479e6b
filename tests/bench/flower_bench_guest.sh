#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the VM of tests/bench/bench_flower.sh. $1: the repository,
# $2: the unpacked Debian kernel, $3: the rules, $4: the same rules with one
# rewrite of switch $5 changed, $6: rounds, $7: packets a burst.
#
# Three namespaces hold switch $5 as a bridge of its ports (p0.., their
# peers here named <ns>0..): "fl" runs the flower data path (`tagger switch
# attach --datapath flower`), "bp" the eBPF data plane (`tagger switch
# attach`), "no" nothing. Per round, alternating flower and BPF: a fresh
# install (wall time of the command, detached between rounds), then a
# one-rule update (`tagger switch update`, on each), back and forth
# between the two rule files. Then bursts
# of one frame sent through each namespace's in-port to its out-port, a
# lossless tag that one of the switch's rewrites changes (classify at
# ingress, rewrite at egress), no/bpf/flower in turn each round. Prints
# lines "install flower MS", "update bpf MS", "burst DP NS_PER_PKT
# BUSY_NS_PER_PKT" for the host to take medians of.
set -u
cd "$1" || exit 1
kdir=$2 rules=$3 rules1=$4 name=$5 rounds=$6 npkt=$7
for m in cls_flower act_pedit act_skbedit act_csum act_gact sch_ingress \
	bridge; do
	modprobe -d "$kdir" "$m" || { echo "modprobe $m failed"; exit 1; }
done
mkdir -p /tmp/bpffs && mount -t bpf bpf /tmp/bpffs || exit 1
T="$PWD/build/tagger"
now() { date +%s%N; }
ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b - a) / 1e6 }'; }

mapfile -t ports < <("$T" -j switch export "$name" "$rules" | jq -r '.ports[].port')
n=${#ports[@]}
maps=()
for ((i = 0; i < n; i++)); do maps+=("${ports[i]}=p$i"); done

make_switch() {
	local ns=$1 i mac
	ip netns add "$ns" &&
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
			net.ipv6.conf.default.disable_ipv6=1 &&
		ip -n "$ns" link add br0 type bridge mcast_snooping 0 || return 1
	for ((i = 0; i < n; i++)); do
		ip link add "$ns$i" type veth peer name "p$i" netns "$ns" || return 1
		sysctl -qw "net.ipv6.conf.$ns$i.disable_ipv6=1"
		ip link set "$ns$i" up
		ip -n "$ns" link set "p$i" master br0 up
		mac=$(cat "/sys/class/net/$ns$i/address")
		ip netns exec "$ns" bridge fdb add "$mac" dev "p$i" master static
	done
	ip -n "$ns" link set br0 up
}
for ns in no fl bp; do make_switch "$ns" || { echo "no switch $ns"; exit 1; }; done

fl() { TAGGER_BPF_ROOT=/tmp/bpffs/fl ip netns exec fl "$T" switch "$@" >/dev/null; }
bp() { TAGGER_BPF_ROOT=/tmp/bpffs/bp ip netns exec bp "$T" switch "$@" >/dev/null; }

echo "switch $name: $n ports, $("$T" -j switch export "$name" "$rules" |
	jq '[.ports[] | .ingress_filters + .egress_filters] | add') flower filters"
for ((r = 0; r < rounds; r++)); do
	t0=$(now); fl attach "$name" "$rules" "${maps[@]}" --datapath flower ||
		{ echo "attach --datapath flower failed"; exit 1; }; t1=$(now)
	echo "install flower $(ms "$t0" "$t1")"
	t0=$(now); bp attach "$name" "$rules" "${maps[@]}" || { echo "attach failed"; exit 1; }; t1=$(now)
	echo "install bpf $(ms "$t0" "$t1")"
	if ((r < rounds - 1)); then
		fl detach "$name"
		bp detach "$name"
	fi
done
# One rule back and forth: to rules1, back.
for ((r = 0; r < 2 * rounds; r++)); do
	f=$rules1
	((r % 2)) && f=$rules
	t0=$(now); fl update "$name" "$f" || { echo "flower update failed"; exit 1; }; t1=$(now)
	echo "update flower $(ms "$t0" "$t1")"
	t0=$(now); bp update "$name" "$f" || { echo "switch update failed"; exit 1; }; t1=$(now)
	echo "update bpf $(ms "$t0" "$t1")"
done

# A rewrite (in, tag, out) of the switch that the update did not touch
# (the update changed its last one) from one port to another: the frame's
# in-port, DSCP and out-port.
read -r pin tag pout < <(jq -r --arg s "$name" --arg lossy "$(jq .lossy.tag "$rules")" '
	.switches[$s] as $w | [$w.rewrite[] | select(.in != "*" and .out != "*" and .in != .out and
	(.new_tag | tostring) != $lossy)][0] |
	"\(.in as $p | $w.ports | index($p)) \(.tag) \(.out as $p | $w.ports | index($p))"' "$rules")
echo "burst: in p$pin, tag $tag, out p$pout, $npkt frames"
for ((r = 0; r < rounds; r++)); do
	for ns in no bp fl; do
		dp=$ns
		[ "$ns" = no ] && dp=none
		[ "$ns" = bp ] && dp=bpf
		[ "$ns" = fl ] && dp=flower
		echo "burst $dp $(python3 tests/bench/flower_burst.py "$ns$pin" \
			"$(cat "/sys/class/net/$ns$pout/address")" "$tag" "$npkt")"
	done
done
for ns in no bp fl; do
	echo "out $ns: $(ip -s -j link show "$ns$pout" | jq '.[0].stats64.rx.packets') frames received"
done
