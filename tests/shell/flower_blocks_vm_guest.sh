#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the VM of tests/shell/test_flower_blocks_vm.sh: `tagger
# switch attach --datapath flower --shared-blocks`. $1: the repository,
# $2: the unpacked Debian kernel, $3: the update's rules, then
# RULES:SWITCH pairs. Per switch: the cases of tests/shell/flower_pkts.py
# through the eBPF data plane and through shared blocks leave alike
# ("SAME name"), and the counters of ports and blocks add up to the eBPF
# data plane's; detach leaves no filter, no block and no state. On the
# first: an update under a steady flow, kills at the netlink calls of
# update, detach and attach, a block index of someone else's skipped, and
# a port bound to the operator's own block refused.
set -u
cd "$1" || exit 1
kdir=$2
upd=$3
shift 3
source tests/shell/flower_vm_lib.sh
flower_guest_init "$kdir" dummy || exit 1

# the qdiscs bound to a block of tagger's range (0x7467....)
our_blocks() {
	blocks | jq '[.[] | select(. >= 1952907264 and . < 1952972800)] |
		length'
}
# the blocks of a qdisc list, wherever tc -j puts them
blocks() {
	sw tc -j qdisc show "$@" | jq '[.. | objects |
		(.ingress_block?, .egress_block?) | numbers]'
}

# ports' and blocks' running parities, one "ingress/egress" a line
running() {
	sw "$T" -j switch show "$1" | jq -r '(.ports[] |
		"\(.running.ingress)/\(.running.egress)"),
		(.blocks[] | "\(.running)/\(.running)")' | sort -u
}

attach() {
	sw "$T" switch attach "$@" "${MAPS[@]}" --datapath flower --shared-blocks
}

one() {
	local rules=$1 name=$2 ports n maps spec
	switch_up "$rules" "$name" || return 1
	MAPS=("${maps[@]}")
	sw "$T" switch attach "$name" "$rules" "${maps[@]}" >/dev/null ||
		{ echo "DIFF $name: bpf attach failed"; drop_switch "$n"; return 1; }
	python3 tests/shell/flower_pkts.py run "$spec" "$W/x.json" --no-qinq
	sw "$T" -j switch show "$name" >"$W/$name.bpf.show"
	echo "$name bpf: $(python3 tests/shell/flower_pkts.py run "$spec" \
		"$W/$name.bpf.json")"
	sw "$T" switch detach "$name" >/dev/null
	attach "$name" "$rules" ||
		{ echo "DIFF $name: flower attach failed"; drop_switch "$n"; return 1; }
	sw "$T" -j switch show "$name" >"$W/$name.fl0.show"
	jq -cM '{blocks: [.blocks[] | {block, direction, ports, filters}],
		ports: [.ports[] | {port, ingress_block, egress_block,
		filters}]}' "$W/$name.fl0.show"
	echo "$name: $SECONDS s"
	jq -e '.shared_blocks and (.blocks | length) > 0 and
		([.ports[] | .running.ingress == 0 and .running.egress == 0] |
		 all) and ([.blocks[] | .running == 0] | all) and
		.ports[0].ingress_block == null' "$W/$name.fl0.show" \
		>/dev/null && echo "SHOW BLOCKS $name $(our_blocks)"
	python3 tests/shell/flower_pkts.py run "$spec" "$W/x.json" --no-qinq
	sw "$T" -j switch show "$name" >"$W/$name.flower.show"
	echo "$name flower: $(python3 tests/shell/flower_pkts.py run "$spec" \
		"$W/$name.flower.json")"
	python3 tests/shell/flower_pkts.py diff "$spec" "$W/$name.bpf.json" \
		"$W/$name.flower.json" && echo "SAME $name"
	# ports' and blocks' counters together are the eBPF data plane's
	python3 tests/shell/flower_pkts.py counters-switch "$W/$name.bpf.show" \
		"$W/$name.flower.show" && echo "COUNTERS ADD UP $name"
	sw "$T" switch show "$name" | grep -E "tc block" | head -4
	if [ "$name" = "$FIRST" ]; then
		update_under_flow "$name" "$spec"
		echo "updated: $SECONDS s"
		crashes "$name" "$rules" "$n"
		echo "crashes: $SECONDS s"
		foreign "$name" "$rules" "$n"
	fi
	sw "$T" switch detach "$name" >/dev/null &&
		[ "$(leftovers "$n")" = 0 ] && [ "$(our_blocks)" = 0 ] &&
		! [ -e "$TAGGER_BPF_ROOT/$name" ] && echo "DETACHED CLEAN $name"
	drop_switch "$n"
}

# A steady flow a -> b, tag 10 (rewritten to 30 by the attached rules, to
# 20 by $upd) while `switch update` swaps the blocks' tables.
update_under_flow() {
	local name=$1 spec=$2
	(sleep 1 && sw "$T" switch update "$name" "$upd" --force >/dev/null &&
		echo "update applied") &
	echo "flow $(python3 tests/shell/flower_pkts.py flow "$spec" a b 10 4)"
	wait
	echo "running after the update: $(running "$name" | tr '\n' ' ')"
}

# After a kill: show answers (or says an attach or detach is under way);
# the next update leaves every port and block on the generation's chains.
consistent() {
	local name=$1 what=$2 g
	if ! sw "$T" -j switch show "$name" >"$W/show" 2>"$W/show.err" &&
		! grep -q "being\|not attached" "$W/show.err"; then
		echo "INCONSISTENT $what: show failed: $(head -c 300 "$W/show.err")"
		return
	fi
	sw "$T" switch update "$name" "$upd" --force >/dev/null 2>"$W/upd.err" ||
		attach "$name" "$upd" >/dev/null 2>>"$W/upd.err" || {
		echo "INCONSISTENT $what: the next command failed: $(head -c 300 "$W/upd.err")"
		return
	}
	g=$(sw "$T" -j switch show "$name" | jq '.generation % 2')
	[ "$(running "$name")" = "$g/$g" ] ||
		echo "INCONSISTENT $what: ports and blocks run $(running "$name" | tr '\n' ' '), generation parity $g"
}

kill_at() {
	local k=$1
	shift
	sw strace -f -o /dev/null -e trace=sendto \
		-e inject="sendto:signal=KILL:when=$k" "$T" "$@" >/dev/null 2>&1
}

calls() {
	sw strace -f -c -o "$W/count" -e trace=sendto "$T" "$@" >/dev/null 2>&1
	awk '$NF == "sendto" {print $4}' "$W/count"
}

crashes() {
	local name=$1 rules=$2 n=$3 total k step kills=0
	if ! command -v strace >/dev/null; then
		echo "CRASH UNCHECKED: no strace"
		return
	fi
	total=$(calls switch update "$name" "$rules" --force)
	# every step-th call and the last ones: the entries' moves after the
	# generation moved, the old chains' deletion
	step=$(((${total:-0} + 2) / 3))
	for k in $(seq 1 "$step" "${total:-0}") \
		$(seq "$((total > 8 ? total - 7 : 1))" 4 "${total:-0}"); do
		kill_at "$k" switch update "$name" "$rules" --force
		consistent "$name" "update killed at sendto #$k of $total"
		kills=$((kills + 1))
	done
	total=$(calls switch detach "$name")
	attach "$name" "$rules" >/dev/null 2>&1
	step=$(((${total:-0} + 2) / 3))
	for ((k = 1; k <= ${total:-0}; k += step)); do
		kill_at "$k" switch detach "$name"
		consistent "$name" "detach killed at sendto #$k of $total"
		kills=$((kills + 1))
	done
	sw "$T" switch detach "$name" >/dev/null 2>&1
	total=$(calls switch attach "$name" "$rules" "${MAPS[@]}" \
		--datapath flower --shared-blocks)
	sw "$T" switch detach "$name" >/dev/null 2>&1
	step=$(((${total:-0} + 2) / 3))
	for ((k = 1; k <= ${total:-0}; k += step)); do
		kill_at "$k" switch attach "$name" "$rules" "${MAPS[@]}" \
			--datapath flower --shared-blocks
		consistent "$name" "attach killed at sendto #$k of $total"
		sw "$T" switch detach "$name" >/dev/null 2>&1
		[ "$(leftovers "$n")" = 0 ] && [ "$(our_blocks)" = 0 ] ||
			echo "INCONSISTENT attach killed at sendto #$k: filters or blocks left after detach"
		kills=$((kills + 1))
	done
	attach "$name" "$rules" >/dev/null 2>&1
	echo "CRASHES $kills"
}

# Someone else's block at tagger's first index is skipped; a port bound
# to the operator's own block is refused by name, leaving nothing.
foreign() {
	local name=$1 rules=$2 n=$3 err
	sw "$T" switch detach "$name" >/dev/null
	sw ip link add d0 type dummy
	sw tc qdisc add dev d0 ingress_block 1952907264 clsact
	attach "$name" "$rules" >/dev/null &&
		sw "$T" -j switch show "$name" |
		jq -e '[.blocks[].block] | all(. != 1952907264)' >/dev/null &&
		echo "FOREIGN INDEX SKIPPED"
	sw "$T" switch detach "$name" >/dev/null
	[ "$(blocks dev d0 | jq -c .)" = "[1952907264]" ] &&
		echo "FOREIGN BLOCK KEPT"
	sw ip link del d0
	sw tc qdisc add dev p1 ingress_block 7 clsact
	err=$(attach "$name" "$rules" 2>&1)
	[ $? = 3 ] && [ "$(leftovers "$n")" = 0 ] &&
		! [ -e "$TAGGER_BPF_ROOT/$name" ] &&
		[ "$(blocks dev p1 | jq -c .)" = "[7]" ] &&
		echo "OPERATOR BLOCK REFUSED: $err"
	sw tc qdisc del dev p1 clsact
	attach "$name" "$rules" >/dev/null
}

FIRST=${1##*:}
for arg in "$@"; do
	one "${arg%%:*}" "${arg##*:}"
done
rm -rf "$W"
