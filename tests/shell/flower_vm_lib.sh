# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# What the VM guests of the flower tests share (sourced, in the guest, from
# the repository's top): the guest's set-up, a switch as a bridge in
# namespace sw, the cases file of tests/shell/flower_pkts.py for it, and
# what tagger leaves on its ports.

# flower_guest_init KDIR [MODULE...]: tc flower and its actions, a prio
# qdisc, the bridge (and MODULEs) from the unpacked kernel KDIR; a bpffs
# for the pins; W (a directory: the guest's /tmp is its own tmpfs) and T.
flower_guest_init() {
	local kdir=$1 m
	shift
	for m in cls_flower act_pedit act_skbedit act_csum act_gact sch_prio \
		sch_ingress bridge "$@"; do
		modprobe -d "$kdir" "$m" || { echo "modprobe $m failed"; return 1; }
	done
	mkdir -p /tmp/bpffs && mount -t bpf bpf /tmp/bpffs || return 1
	export TAGGER_BPF_ROOT=/tmp/bpffs/tagger
	W=$(mktemp -d)
	T="$PWD/build/tagger"
}

sw() { ip netns exec sw "$@"; }

# The switch's ports p0.. in netns sw, bridged; their peers h0.. here.
make_switch() {
	local n=$1 i mac
	# No IPv6 of the switch's own (router solicitations, MLD) in the
	# queues whose packet counts are the measure.
	ip netns add sw &&
		sw sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
			net.ipv6.conf.default.disable_ipv6=1 &&
		sw ip link add br0 type bridge mcast_snooping 0 || return 1
	for ((i = 0; i < n; i++)); do
		ip link add "h$i" type veth peer name "p$i" netns sw || return 1
		sysctl -qw "net.ipv6.conf.h$i.disable_ipv6=1"
		ip link set "h$i" up
		sw ip link set "p$i" master br0 up
		mac=$(cat "/sys/class/net/h$i/address")
		sw bridge fdb add "$mac" dev "p$i" master static
		sw tc qdisc add dev "p$i" root handle 1: prio bands 8 \
			priomap 0 1 2 3 4 5 6 7 0 0 0 0 0 0 0 0 || return 1
	done
	sw ip link set br0 up
}

drop_switch() {
	local i
	for ((i = 0; i < $1; i++)); do ip link del "h$i" 2>/dev/null; done
	ip netns del sw
}

# The cases file of rules $1 for the switch ports $2..., on p0.. / h0..
make_spec() {
	local rules=$1 i=0 p
	shift
	echo '{"ports": {'
	for p in "$@"; do
		printf '%s"%s": ["h%d", "%s", "sw", "p%d"]\n' \
			"$([ "$i" -gt 0 ] && echo ,)" "$p" "$i" \
			"$(cat "/sys/class/net/h$i/address")" "$i"
		i=$((i + 1))
	done
	echo '}, "tags":'
	jq -c '[.tags[].tag]' "$rules"
	echo ', "lossy_tag":'
	jq '.lossy.tag' "$rules"
	echo ', "lossy_prio":'
	jq '.lossy.priority' "$rules"
	echo '}'
}

# Switch $2 of rules $1 up as make_switch's bridge, in the caller's
# (local) ports (the rules' names), n, maps (PORT=p0 ...) and spec (its
# cases file in $W); 1 after "DIFF $2: ..." if it cannot be.
switch_up() {
	local rules=$1 name=$2 i
	ports=$("$T" -j switch export "$name" "$rules" | jq -r '.ports[].port') ||
		return 1
	mapfile -t ports <<<"$ports"
	n=${#ports[@]}
	make_switch "$n" || { echo "DIFF $name: no switch"; return 1; }
	spec=$W/$name.spec.json
	make_spec "$rules" "${ports[@]}" >"$spec"
	maps=()
	for ((i = 0; i < n; i++)); do maps+=("${ports[i]}=p$i"); done
}

# Filters of tagger's on ports p0..p$1-1: its chains (1..6), its entry
# filters, cls_bpf (holders); their count.
leftovers() {
	local i d
	for ((i = 0; i < $1; i++)); do
		for d in ingress egress; do
			sw tc filter show dev "p$i" "$d" 2>/dev/null
		done
	done | grep -cE 'chain [1-6] |bpf|pref 1 flower'
}
