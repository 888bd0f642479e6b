#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the VM of tests/shell/test_flower_attach_vm.sh: `tagger
# switch attach --datapath flower` and every later command on it. $1: the
# repository, $2: the unpacked Debian kernel, $3: the update's rules, then
# RULES:SWITCH pairs. Per switch: the cases of tests/shell/flower_pkts.py
# through the eBPF data plane and through the flower data path, both
# attached by tagger, must leave alike ("SAME name"), and show's counters
# of the two must agree ("COUNTERS SAME name"); show names the flower
# data path, generation 0 on every port; detach leaves no filter and no
# state. Then, on the first switch: an update under a steady flow, and
# updates and a detach killed at their netlink and bpf calls.
set -u
cd "$1" || exit 1
kdir=$2
upd=$3
shift 3
source tests/shell/flower_vm_lib.sh
flower_guest_init "$kdir" || exit 1

# What show says each port runs: "ingress/egress" parities, one a line.
running() {
	sw "$T" -j switch show "$1" | jq -r '.ports[] |
		"\(.running.ingress)/\(.running.egress)"' | sort -u
}

one() {
	local rules=$1 name=$2 ports n maps spec
	switch_up "$rules" "$name" || return 1
	sw "$T" switch attach "$name" "$rules" "${maps[@]}" >/dev/null ||
		{ echo "DIFF $name: bpf attach failed"; drop_switch "$n"; return 1; }
	python3 tests/shell/flower_pkts.py run "$spec" "$W/x.json" --no-qinq
	sw "$T" -j switch show "$name" >"$W/$name.bpf.show"
	echo "$name bpf: $(python3 tests/shell/flower_pkts.py run "$spec" \
		"$W/$name.bpf.json")"
	sw "$T" switch detach "$name" >/dev/null
	sw "$T" switch attach "$name" "$rules" "${maps[@]}" --datapath flower ||
		{ echo "DIFF $name: flower attach failed"; drop_switch "$n"; return 1; }
	sw "$T" -j switch show "$name" >"$W/$name.fl0.show" &&
		jq -e '.datapath == "flower" and .generation == 0 and
		([.ports[] | .filters > 0 and .running.ingress == 0 and
		  .running.egress == 0] | all)' "$W/$name.fl0.show" >/dev/null &&
		echo "SHOW FLOWER $name"
	python3 tests/shell/flower_pkts.py run "$spec" "$W/x.json" --no-qinq
	sw "$T" -j switch show "$name" >"$W/$name.flower.show"
	echo "$name flower: $(python3 tests/shell/flower_pkts.py run "$spec" \
		"$W/$name.flower.json")"
	python3 tests/shell/flower_pkts.py diff "$spec" "$W/$name.bpf.json" \
		"$W/$name.flower.json" && echo "SAME $name"
	python3 tests/shell/flower_pkts.py counters "$W/$name.bpf.show" \
		"$W/$name.flower.show" && echo "COUNTERS SAME $name"
	sw "$T" switch show "$name" | head -3
	if [ "$name" = "$FIRST" ]; then
		update_under_flow "$name" "$spec"
		crashes "$name" "$rules" "$n"
		elsewhere "$name" "$rules" "$n"
	fi
	sw "$T" switch detach "$name" >/dev/null &&
		[ "$(leftovers "$n")" = 0 ] &&
		! [ -e "$TAGGER_BPF_ROOT/$name" ] && echo "DETACHED CLEAN $name"
	drop_switch "$n"
}

# A steady flow a -> b, tag 10 (rewritten to 30 by the attached rules, to
# 20 by $upd) while `switch update` swaps the tables: every packet leaves
# with one of the two tags.
update_under_flow() {
	local name=$1 spec=$2
	(sleep 1 && sw "$T" switch update "$name" "$upd" --force >/dev/null &&
		echo "update applied") &
	echo "flow $(python3 tests/shell/flower_pkts.py flow "$spec" a b 10 5)"
	wait
	echo "running after the update: $(running "$name" | tr '\n' ' ')"
	echo "generation $(sw "$T" -j switch show "$name" | jq .generation)"
	sw tc filter show dev p1 egress >"$W/after"
	echo "chains old $(grep -cE 'chain [123] ' "$W/after")"
	echo "chains new $(grep -cE 'chain [456] ' "$W/after")"
}

# After a kill: show answers (or says an attach or detach is under way),
# and the next update leaves every port on its generation's chains only.
consistent() {
	local name=$1 what=$2 g
	if ! sw "$T" -j switch show "$name" >"$W/show" 2>"$W/show.err" &&
		! grep -q "being\|not attached" "$W/show.err"; then
		echo "INCONSISTENT $what: show failed: $(head -c 300 "$W/show.err")"
		return
	fi
	# A command that settles and repairs, then stops (other ports than
	# the attached rules'): the repair alone must leave every port on
	# the recorded generation.
	sw "$T" switch update "$name" "$W/otherports.json" --force >/dev/null 2>&1
	if sw "$T" -j switch show "$name" >"$W/show" 2>/dev/null; then
		g=$(jq '.generation % 2' "$W/show")
		[ "$(running "$name")" = "$g/$g" ] ||
			echo "INCONSISTENT $what: after the repair ports run $(running "$name" | tr '\n' ' '), generation parity $g"
	fi
	sw "$T" switch update "$name" "$upd" --force >/dev/null 2>"$W/upd.err" ||
		sw "$T" switch attach "$name" "$upd" "${MAPS[@]}" \
			--datapath flower >/dev/null 2>>"$W/upd.err" || {
		echo "INCONSISTENT $what: the next command failed: $(head -c 300 "$W/upd.err")"
		return
	}
	g=$(sw "$T" -j switch show "$name" | jq '.generation % 2')
	if [ "$(running "$name")" != "$g/$g" ]; then
		echo "INCONSISTENT $what: ports run $(running "$name" | tr '\n' ' '), generation parity $g"
	fi
	# the other generation's chains are gone from every port
	if sw tc filter show dev p0 egress | grep -qE "chain $((g ? 1 : 4)) "; then
		echo "INCONSISTENT $what: generation $((1 - g))'s chains are left"
	fi
}

# Kill at the K-th call of syscall $2 of command "$@" (after $1 $2).
kill_at() {
	local k=$1 sc=$2
	shift 2
	sw strace -f -o /dev/null -e trace="$sc" -e inject="$sc:signal=KILL:when=$k" \
		"$T" "$@" >/dev/null 2>&1
}

calls() {
	local sc=$1
	shift
	sw strace -f -c -o "$W/count" -e trace="$sc" "$T" "$@" >/dev/null 2>&1
	awk -v s="$sc" '$NF == s {print $4}' "$W/count"
}

crashes() {
	local name=$1 rules=$2 n=$3 sc total k step kills=0
	jq --arg s "$name" '.switches[$s].ports += ["zz"]' "$rules" >"$W/otherports.json"
	MAPS=()
	for ((k = 0; k < n; k++)); do MAPS+=("${ports[k]}=p$k"); done
	if ! command -v strace >/dev/null; then
		echo "CRASH UNCHECKED: no strace"
		return
	fi
	# Of the last 30 sendtos, every one with TGR_KILLS_FULL=1 (CI's slow
	# test), else every third from a random offset (make test: each run
	# covers another third; the offset is printed to rerun one).
	local lstep=1 off=0
	if [ "${TGR_KILLS_FULL:-0}" != 1 ]; then
		lstep=3 off=$((RANDOM % 3))
	fi
	echo "kills among the last 30 sendtos: every $lstep from offset $off"
	for sc in sendto bpf; do
		total=$(calls "$sc" switch update "$name" "$rules" --force)
		step=$(( (${total:-0} + 5) / 6 ))
		# every step-th call, and the last 30 sendtos (above): the
		# entry filters' moves (2 a port, after the generation moved:
		# the repair's hardest case), the old chains' deletion (a dump
		# and 2 deletes a port and direction), the count (a dump a port
		# and direction) come last
		for k in $(seq 1 "$step" "${total:-0}") \
			$([ "$sc" = sendto ] && seq "$(( (total > 30 ? total - 29 : 1) + off))" "$lstep" "$total"); do
			kill_at "$k" "$sc" switch update "$name" "$rules" --force
			consistent "$name" "update killed at $sc #$k of $total"
			kills=$((kills + 1))
		done
	done
	total=$(calls sendto switch detach "$name")
	sw "$T" switch attach "$name" "$rules" "${MAPS[@]}" --datapath flower \
		>/dev/null 2>&1
	step=$(( (${total:-0} + 7) / 8 ))
	for ((k = 1; k <= ${total:-0}; k += step)); do
		kill_at "$k" sendto switch detach "$name"
		consistent "$name" "detach killed at sendto #$k of $total"
		kills=$((kills + 1))
	done
	# attach killed: the next attach rolls it back and succeeds
	sw "$T" switch detach "$name" >/dev/null 2>&1
	total=$(calls sendto switch attach "$name" "$rules" "${MAPS[@]}" \
		--datapath flower)
	sw "$T" switch detach "$name" >/dev/null 2>&1
	step=$(( (${total:-0} + 7) / 8 ))
	for ((k = 1; k <= ${total:-0}; k += step)); do
		kill_at "$k" sendto switch attach "$name" "$rules" "${MAPS[@]}" \
			--datapath flower
		consistent "$name" "attach killed at sendto #$k of $total"
		sw "$T" switch detach "$name" >/dev/null 2>&1
		[ "$(leftovers "$n")" = 0 ] ||
			echo "INCONSISTENT attach killed at sendto #$k: filters left after detach"
		kills=$((kills + 1))
	done
	sw "$T" switch attach "$name" "$rules" "${MAPS[@]}" --datapath flower \
		>/dev/null 2>&1
	echo "CRASHES $kills"
}

# The record's namespace: another one is refused, naming it; veths offload
# nothing: --offload is refused with the kernel's words, leaving nothing.
elsewhere() {
	local name=$1 rules=$2 n=$3 err
	ip netns add other
	err=$(ip netns exec other "$T" switch show "$name" 2>&1)
	[ $? = 2 ] && grep -q "another network namespace" <<<"$err" &&
		echo "OTHER NETNS REFUSED"
	ip netns del other
	sw "$T" switch detach "$name" >/dev/null
	err=$(sw "$T" switch attach "$name" "$rules" "${MAPS[@]}" --datapath flower \
		--offload 2>&1)
	[ $? = 3 ] && [ "$(leftovers "$n")" = 0 ] &&
		! [ -e "$TAGGER_BPF_ROOT/$name" ] && echo "OFFLOAD REFUSED: $err"
	sw "$T" switch attach "$name" "$rules" "${MAPS[@]}" --datapath flower \
		>/dev/null
}

FIRST=${1##*:}
for arg in "$@"; do
	one "${arg%%:*}" "${arg##*:}"
done
rm -rf "$W"
