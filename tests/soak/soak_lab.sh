#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The soak's lab: the line of tests/shell/pfc_lib.sh
#   h1 --100M-- sw1 --100M-- sw2 --20M-- h2
# with the Tagger data plane attached (rules of `tagger topo line 2`),
# host programs tagging the lossless class at h1 and h2, and a pause agent
# on every node. Two valid rule sets, A and B, differ in sw1's rewrite: under
# A a flow keeps tag 1 (priority 1) to h2, under B sw1 rewrites it to tag 2
# (priority 2), so every update moves the flows between two lossless
# priorities while their packets are queued. Source after tests/lib.sh and
# tests/shell/pfc_lib.sh.

SOAK_BPFFS=$TGR_TMP/bpffs
export TAGGER_BPF_ROOT=$SOAK_BPFFS/tagger
SOAK_PORT=4791
# Both sets' tags map DSCP = tag to priority = tag; both priorities lossless.
SOAK_PFC_OPTS=(--lossless "1,2" --dscp-map "0:0,1:1,2:2" --busy-poll 0
	--cpu-latency none)

soak_bpffs_up() {
	mkdir -p "$SOAK_BPFFS"
	mount -t bpf bpf "$SOAK_BPFFS" || skip "cannot mount a bpffs"
	tgr_on_exit "umount '$SOAK_BPFFS' 2>/dev/null"
}

# soak_rules DIR: DIR/A.json, DIR/B.json and their packed forms DIR/A.trb,
# DIR/B.trb; both pass `tagger verify`.
soak_rules() {
	local d=$1
	"$TAGGER" topo line 2 --hosts 1 -o "$d/line.topo" &&
		"$TAGGER" paths shortest "$d/line.topo" -o "$d/line.elp" &&
		"$TAGGER" -q compile "$d/line.topo" "$d/line.elp" -o "$d/base.json" ||
		fail "cannot compile the line's rules"
	python3 "$TOP/tests/soak/soak_rules.py" "$d" ||
		fail "cannot derive rule sets A and B"
	for s in A B; do
		"$TAGGER" -q verify "$d/line.topo" "$d/line.elp" "$d/$s.json" >/dev/null ||
			fail "rule set $s does not verify"
		"$TAGGER" -q switch pack "$d/$s.json" -o "$d/$s.trb" || fail "pack $s"
	done
}

# The interfaces behind the rules' port names (pfc_lib's <node>-<peer>).
soak_map() {
	case $1 in
	sw1) echo "eth1=sw1-h1 eth2=sw1-sw2" ;;
	sw2) echo "eth1=sw2-h2 eth2=sw2-sw1" ;;
	esac
}

soak_dataplane_up() {
	local n
	for n in sw1 sw2; do
		# shellcheck disable=SC2046
		ns_exec "$n" "$TAGGER" switch attach "$n" "$SOAK_DIR/A.json" \
			$(soak_map "$n") >>"$SOAK_DIR/attach.log" 2>&1 ||
			fail "switch attach $n (see $SOAK_DIR/attach.log)"
	done
	ns_exec h1 "$TAGGER" host attach h1 h1-sw1 "$SOAK_DIR/A.json" \
		--udp-dport "$SOAK_PORT" >>"$SOAK_DIR/attach.log" 2>&1 &&
		ns_exec h2 "$TAGGER" host attach h2 h2-sw2 "$SOAK_DIR/A.json" \
			--udp-dport "$SOAK_PORT" >>"$SOAK_DIR/attach.log" 2>&1 ||
		fail "host attach (see $SOAK_DIR/attach.log)"
}

# The agents' ports; "other" arguments give a restart that cannot adopt
# (another queue setting), as an operator's changed configuration would.
soak_ports() {
	case $1 in
	h1) echo "p=h1-sw1" ;;
	h2) echo "p=h2-sw2" ;;
	sw1) echo "p1=sw1-h1 p2=sw1-sw2" ;;
	sw2) echo "p1=sw2-sw1 p2=sw2-h2@20mbit" ;;
	esac
}
soak_other_opts() { echo "--sched strict"; }

# soak_agent NODE [same|other]: start NODE's agent, wait for its pid file.
soak_agent() {
	local n=$1 how=${2:-same} extra=""
	[ "$how" = other ] && extra=$(soak_other_opts)
	rm -f "$PFC_DIR/$n/pid"
	# shellcheck disable=SC2046,SC2086
	ns_exec "$n" setsid "$TAGGER" -v pfc agent "$n" $(soak_ports "$n") \
		"${SOAK_PFC_OPTS[@]}" $extra >>"$SOAK_DIR/agent-$n.log" 2>&1 &
	for _ in $(seq 100); do
		[ -s "$PFC_DIR/$n/pid" ] && return 0
		sleep 0.1
	done
	return 1
}

# soak_pid NODE agent|standby: the live process of that role in NODE's
# namespace. The agent is the pid its state names while it runs (a standby
# that took over keeps the standby's process name); every other
# tagger-standby process of the namespace is a standby.
soak_pid() {
	local n=$1 role=$2 a p
	a=$(ns_exec "$n" timeout 5 "$TAGGER" -j pfc show "$n" 2>/dev/null |
		python3 -c 'import json, sys
d = json.load(sys.stdin)
print(d["pid"] if d.get("status") == "running" and d.get("pid") else "")' 2>/dev/null)
	if [ "$role" = agent ]; then
		[ -n "$a" ] && echo "$a"
		return 0
	fi
	for p in $(ip netns pids "$(ns_name "$n")" 2>/dev/null); do
		[ "$p" != "$a" ] && [ "$(cat "/proc/$p/comm" 2>/dev/null)" = tagger-standby ] &&
			echo "$p"
	done
}
