#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the VM of tests/shell/test_flower_vm.sh: one switch at a
# time, as a bridge in namespace sw whose ports' peers are in the VM's own
# namespace, sends every case of tests/shell/flower_pkts.py through it
# twice, once with the eBPF data plane attached (tagger switch attach)
# and once with the flower filters of `tagger switch export` applied by
# `tc -batch` (switch $APPLY_SWITCH a third time, the filters installed by
# `tagger switch export --apply`), and compares what left: DSCP, ECN, IPv4 checksum, and the
# prio band (= skb priority) each copy was queued in. $1: the repository,
# $2: the unpacked Debian kernel (modules loaded from there), then
# RULES:SWITCH pairs. Prints "SAME name" or "DIFF name" per switch.
set -u
cd "$1" || exit 1
kdir=$2
shift 2
echo "kernel $(uname -r)"
source tests/shell/flower_vm_lib.sh
flower_guest_init "$kdir" || exit 1

# tc -b of switch $1's batch; the requests it sends recorded (strace) for
# by_netlink to compare.
tc_batch() {
	if [ "$1" = "${APPLY_SWITCH:-}" ] && command -v strace >/dev/null; then
		sw strace -o "$W/$1.tc.trace" -s 0 -xx -e trace=sendmsg,sendto \
			-e write=all tc -b "$W/$1.tc"
	else
		sw tc -b "$W/$1.tc"
	fi
}

one() {
	local rules=$1 name=$2 ports n maps spec
	switch_up "$rules" "$name" || return 1
	sw "$T" switch attach "$name" "$rules" "${maps[@]}" >/dev/null ||
		{ echo "DIFF $name: attach failed"; drop_switch "$n"; return 1; }
	echo "$name bpf: $(python3 tests/shell/flower_pkts.py run "$spec" \
		"$W/$name.bpf.json")"
	sw "$T" switch detach "$name" >/dev/null
	"$T" switch export "$name" "$rules" "${maps[@]}" -o "$W/$name.tc" &&
		tc_batch "$name" ||
		{ echo "DIFF $name: the batch failed"; drop_switch "$n"; return 1; }
	echo "$name: $(grep -c '^filter' "$W/$name.tc") flower filters"
	echo "$name flower: $(python3 tests/shell/flower_pkts.py run "$spec" \
		"$W/$name.flower.json")"
	if python3 tests/shell/flower_pkts.py diff "$spec" "$W/$name.bpf.json" \
		"$W/$name.flower.json"; then
		echo "SAME $name"
	else
		echo "DIFF $name"
	fi
	[ "$name" = "${APPLY_SWITCH:-}" ] &&
		by_netlink "$rules" "$name" "$n" "$spec" "${maps[@]}"
	[ "$name" = S ] && [ -n "${UPDATE_RULES:-}" ] &&
		update_under_flow "$rules" "$spec" "${maps[@]}"
	drop_switch "$n"
}

# Every filter of the switch's ports as tc shows it, without what differs
# between two installs of the same filters (action indexes, references,
# times, counters).
filters_json() {
	local i dir
	for ((i = 0; i < $1; i++)); do
		for dir in ingress egress; do
			sw tc -j filter show dev "p$i" "$dir" |
				jq -c --arg at "p$i $dir" '.[] | select(.options) |
				del(.options.actions[]? | (.index, .ref, .bind,
				.installed, .last_used, .first_used, .expires,
				.stats)) | {at: $at} + .'
		done
	done
}

# The same switch installed by `tagger switch export --apply` instead of
# tc: the filters tc shows are the same, so are the netlink requests sent
# (with strace, where there is one), and so is every packet's answer.
by_netlink() {
	local rules=$1 name=$2 n=$3 spec=$4 i
	shift 4
	filters_json "$n" >"$W/by_tc.json"
	for ((i = 0; i < n; i++)); do sw tc qdisc del dev "p$i" clsact; done
	if command -v strace >/dev/null; then
		sw strace -o "$W/nl.trace" -s 0 -xx -e trace=sendmsg,sendto -e write=all \
			"$T" switch export "$name" "$rules" "$@" --apply
	else
		sw "$T" switch export "$name" "$rules" "$@" --apply
	fi || { echo "DIFF $name: --apply failed"; return 1; }
	filters_json "$n" >"$W/by_nl.json"
	echo "$name --apply: $(wc -l <"$W/by_nl.json") filters shown"
	cmp -s "$W/by_tc.json" "$W/by_nl.json" && echo "FILTERS SAME $name"
	if [ -f "$W/$name.tc.trace" ] && [ -f "$W/nl.trace" ]; then
		python3 tests/shell/strace_nl.py "$W/$name.tc.trace" >"$W/tc.hex"
		python3 tests/shell/strace_nl.py "$W/nl.trace" >"$W/nl.hex"
		if cmp -s "$W/tc.hex" "$W/nl.hex"; then
			echo "REQUESTS SAME $name $(wc -l <"$W/nl.hex")"
		else
			echo "REQUESTS DIFF $name: $(wc -l <"$W/tc.hex") by tc," \
				"$(wc -l <"$W/nl.hex") by --apply"
			diff "$W/tc.hex" "$W/nl.hex" | head -4 | cut -c1-200
		fi
	else
		echo "REQUESTS UNCHECKED $name: no strace"
	fi
	echo "$name netlink: $(python3 tests/shell/flower_pkts.py run "$spec" \
		"$W/$name.nl.json")"
	python3 tests/shell/flower_pkts.py diff "$spec" "$W/$name.bpf.json" \
		"$W/$name.nl.json" && echo "SAME NETLINK $name"
}

# A steady flow a -> b with tag 10 while the table is swapped for one that
# rewrites it differently (--generation 1 --update): every packet leaves
# with the old table's tag or the new one's.
update_under_flow() {
	local rules=$1 spec=$2
	shift 2
	"$T" switch export S "$UPDATE_RULES" "$@" --generation 1 --update \
		-o "$W/update.tc" || return 1
	(sleep 1 && sw tc -b "$W/update.tc" && echo "update applied") &
	echo "flow $(python3 tests/shell/flower_pkts.py flow "$spec" a b 10 5)"
	wait
	sw tc filter show dev p1 egress >"$W/after"
	echo "chains left $(grep -c 'chain [123] ' "$W/after")"
	echo "chains new $(grep -c 'chain [456] ' "$W/after")"
}

for arg in "$@"; do
	one "${arg%%:*}" "${arg##*:}"
done
rm -rf "$W"
