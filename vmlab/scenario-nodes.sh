#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Sourced by vmlab/scenario.sh: the nodes of a scenario's run. The rules
# of a mode (compiled for "tagger", one lossless priority for "plain"),
# the data plane attached on every switch and host, a pause agent on every
# node and its counters collected, a host's own pauses (the "pause"
# event). Reads the SC_* settings and SC_DIR of scenario.sh.

# Rules "without Tagger": what a PFC network runs today. Every switch
# classifies the class's DSCP into one lossless priority on every port and
# keeps the DSCP; hosts send it. Same programs as with Tagger, other rules.
sc_plain_rules() {
	local dscp=$1 prio=$2
	jq -n --argjson d "$dscp" --argjson p "$prio" \
		--rawfile topo "$LAB_STATE/topo" --rawfile plan "$LAB_STATE/plan" '
	($topo | split("\n") | map(split(" ") | map(select(length > 0)))) as $t |
	($plan | split("\n") | map(split(" ")) | map(select(.[0] == "addr"))) as $a |
	{ format: "tagger-rules/1",
	  lossy: { tag: 0, priority: 0 },
	  tags: [ { tag: $d, priority: $p } ],
	  hosts: ([ $t[] | select(.[0] == "host") | { (.[1]): { tag: $d } } ] | add),
	  switches: ([ $t[] | select(.[0] == "switch") | .[1] as $s |
	    { ($s): { ports: [ $a[] | select(.[1] == $s) | .[2] ],
		      classify: [ { in: "*", tag: $d, priority: $p } ],
		      rewrite: [ { tag: $d, in: "*", out: "*", new_tag: $d } ] } } ] | add) }'
}

# The rules of a mode, in $SC_DIR/rules.json.
sc_rules() {
	local elp
	case $1 in
	plain) sc_plain_rules "$SC_DSCP" "$SC_PRIO" > "$SC_DIR/rules.json" ;;
	tagger)
		if [ -n "${SC_RULES:-}" ]; then
			cp "$SC_RULES" "$SC_DIR/rules.json"
			return
		fi
		elp=${SC_ELP:-$SC_DIR/elp}
		if [ -n "${SC_ELP_KIND:-}" ]; then
			"$TAGGER" paths "$SC_ELP_KIND" "$SC_TOPO" -o "$elp" || return 1
		fi
		"$TAGGER" -j compile "$SC_TOPO" "$elp" --algorithm "${SC_ALGO:-greedy}" \
			-o "$SC_DIR/rules.json" > "$SC_DIR/compile.json" || return 1
		"$TAGGER" -j verify "$SC_TOPO" "$elp" "$SC_DIR/rules.json" \
			> "$SC_DIR/verify.json" || { lab_die "compiled rules do not verify"; return 1; }
		;;
	esac
}

# Ports of a node in the lab.
sc_ports() { awk -v n="$1" '$1 == "addr" && $2 == n { print $3 }' "$LAB_STATE/plan"; }

# The lossless priorities of the rules (SC_LOSSLESS) and the agents'
# DSCP map (SC_DSCP_MAP). Hosts' packets have no ingress classification:
# their queue comes from the tag on the wire, the way the rules map tags
# to priorities.
sc_classes() {
	SC_LOSSLESS=$(jq -r '[.tags[].priority] | unique | join(",")' "$SC_DIR/rules.json")
	SC_DSCP_MAP=$(jq -r '[.tags[] | "\(.tag):\(.priority)"] + ["\(.lossy.tag):\(.lossy.priority)"] |
		join(",")' "$SC_DIR/rules.json")
}

# The rules of the mode (made first unless made already) and what the
# agents need of them.
sc_prepare() {
	[ -s "$SC_DIR/rules.json" ] || sc_rules "$1" || return 1
	sc_classes
}

# sc_vm HOST: HOST is a VM (SC_VM_HOSTS), which runs its own data plane
# and agent.
sc_vm() { [[ " ${SC_VM_HOSTS:-} " == *" $1 "* ]]; }

# Nodes with a lab pause agent: all but the hosts that are VMs.
sc_nodes() {
	local n
	for n in $(lab_nodes); do sc_vm "$n" || echo "$n"; done
}

# _sc_attach switch NAME | host NAME PORT: one node's data plane, its
# output in $SC_DIR/attach/NAME.log; a failure leaves NAME.failed there.
# The programs go on as cls_bpf filters (SC_ATTACH_MODE, default tc), not
# tcx: the kernel attaches a tcx program under the RTNL lock and waits
# there for an RCU grace period, so every tcx attach of every node waits
# for the one before (2 per port: 1,408 at k = 8, 20-25 ms each on a busy
# machine, the whole data plane's time); a cls_bpf filter waits for none.
# The programs and what they do are the same.
_sc_attach() {
	local n=$2 mode=${SC_ATTACH_MODE:-tc}
	case $1 in
	switch)
		[ "$SC_DATAPATH" = bpf ] || mode=${SC_ATTACH_MODE:-}
		lab_exec "$n" "$TAGGER" switch attach "$n" "$SC_DIR/rules.json" \
			--datapath "$SC_DATAPATH" ${mode:+--mode "$mode"} ;;
	host)
		lab_exec "$n" "$TAGGER" host attach "$n" "$3" "$SC_DIR/rules.json" \
			--udp-dport "${SC_UDP_DPORTS:-4791}" --mode "$mode" ;;
	esac > "$SC_DIR/attach/$n.log" 2>&1 && return 0
	: > "$SC_DIR/attach/$n.failed"
	return 1
}

# The data plane on every switch and host of the rules (sc_prepare's),
# SC_ATTACH_JOBS nodes at a time (default LAB_JOBS, 4). Each attach spends
# much of its time waiting for RCU grace periods (map-in-map writes), and
# commands on different nodes do not wait for each other's lock
# (dp_namelock.h): the waits overlap. The switches run SC_DATAPATH;
# hosts are no switches: `tagger host attach` tags their traffic whatever
# the switches run; a VM host tags its own (SC_VM_HOSTS). attach.log
# gathers every node's output, by name.
sc_attach_all() {
	local rc f bad=()
	rm -rf "$SC_DIR/attach" && mkdir -p "$SC_DIR/attach" || return 1
	{
		jq -r '.switches | keys[] | "switch \(.)"' "$SC_DIR/rules.json"
		# A host's first port, for all hosts in one pass over the plan.
		jq -r '.hosts | keys[]' "$SC_DIR/rules.json" | awk '
			NR == FNR { h[$1] = 1; next }
			$1 == "addr" && ($2 in h) && !($2 in done) { done[$2] = 1; print "host", $2, $3 }' \
			- "$LAB_STATE/plan" | while read -r kind n port; do
			sc_vm "$n" || echo "$kind $n $port"
		done
	} | LAB_JOBS=${SC_ATTACH_JOBS:-${LAB_JOBS:-4}} _lab_parallel '_sc_attach "$@"'
	rc=$?
	for f in "$SC_DIR"/attach/*.log; do
		[ -e "$f" ] && { echo "== ${f##*/}"; cat "$f"; }
	done >> "$SC_DIR/attach.log"
	[ $rc = 0 ] && return 0
	for f in "$SC_DIR"/attach/*.failed; do [ -e "$f" ] && bad+=("$(basename "$f" .failed)"); done
	lab_die "the data plane failed on ${#bad[@]} node(s): ${bad[*]:0:8} (see $SC_DIR/attach/${bad[0]:-NODE}.log)"
	return 1
}

# The data plane of the mode on every node.
sc_dataplane() { sc_prepare "$1" && sc_attach_all; }

# A pause agent on every node (hosts too: a host obeys its ToR's pauses).
# The watchdog only reports: it must not break the deadlock it detects.
# No busy-polling: a lab runs one agent per node on a few shared CPUs, where
# polling agents take the CPU the forwarding needs (tagger-pfc(8)).
# sc_pause_spawn starts them (they come up on their own, all at once);
# sc_pause_wait waits until every one answers. Hosts that are VMs run
# their own.
sc_pause_spawn() {
	local n ports
	while read -r n ports; do
		sc_vm "$n" && continue
		# shellcheck disable=SC2086 # the ports are words
		lab_spawn "pfc-$n" "$n" "$SC_DIR/pfc-$n.log" "$TAGGER" pfc agent "$n" \
			$ports --rate "$SC_RATE" --lossless "$SC_LOSSLESS" \
			--dscp-map "$SC_DSCP_MAP" \
			--watchdog-action report --busy-poll 0 ${SC_PFC_OPTS:-}
	done < <(_sc_node_ports)
}

sc_pause_wait() {
	local n
	for n in $(sc_nodes); do
		for _ in $(seq 100); do
			lab_exec "$n" "$TAGGER" pfc show "$n" >/dev/null 2>&1 && break
			kill -0 "$(lab_pid "pfc-$n")" 2>/dev/null ||
				{ lab_die "pfc agent of $n died: $(tail -3 "$SC_DIR/pfc-$n.log")"; return 1; }
			sleep 0.1
		done
	done
}

sc_pause_start() { sc_pause_spawn && sc_pause_wait; }

# Every node and its ports, one line each, in one pass over the plan.
_sc_node_ports() {
	awk 'NR == FNR { if ($1 == "switch" || $1 == "host") { o[++n] = $2; p[$2] = "" } next }
		$1 == "addr" && ($2 in p) { p[$2] = p[$2] " " $3 }
		END { for (i = 1; i <= n; i++) print o[i] p[o[i]] }' "$LAB_STATE/topo" "$LAB_STATE/plan"
}

# The data plane and the agents of the mode on every node. The agents
# start while the data plane attaches: their BPF loads take the CPU the
# attaches leave while they wait for grace periods. Neither depends on
# the order: the data plane's programs run first on a port whichever came
# first (tcx before tc filters; cls_bpf at a lower preference), and each
# sets net.ipv4.ip_forward_update_priority=0 (only the data plane's detach
# puts back what it found, which a lab never does: its namespaces go).
# SC_OVERLAP=0: one after the other. A scenario's sc_up_extra (VM hosts)
# runs first, once the rules are made.
sc_nodes_up() {
	sc_prepare "$1" || return 1
	if declare -F sc_up_extra >/dev/null; then
		sc_up_extra "$1" || return 1
	fi
	if [ "${SC_OVERLAP:-1}" = 0 ]; then
		sc_attach_all && lab_mark dataplane && sc_pause_start
		return
	fi
	sc_pause_spawn || return 1
	sc_attach_all || return 1
	lab_mark dataplane
	sc_pause_wait
}

# Counters of every agent, and their sums in pfc.json.
sc_pause_collect() {
	local n
	for n in $(sc_nodes); do
		lab_exec "$n" "$TAGGER" -j pfc show "$n" > "$SC_DIR/pfc-$n.json" 2>/dev/null
	done
	cat "$SC_DIR"/pfc-*.json 2>/dev/null | jq -s -f "$VMLAB_DIR/pfc-sum.jq" > "$SC_DIR/pfc.json"
}

# pause HOST PRIO SECONDS: HOST pauses PRIO on its link for SECONDS (PFC
# frames refreshed at half the quanta time), then sends a resume.
sc_host_pause() {
	local h=$1 prio=$2 secs=$3 port end
	port=$(sc_ports "$h" | head -1)
	end=$(echo "$(sc_now) + $secs" | bc)
	while [ "$(echo "$(sc_now) < $end" | bc)" = 1 ]; do
		lab_exec "$h" "$TAGGER" pfc send "$port" "$prio" 65535 >/dev/null
		sleep 0.1
	done
	lab_exec "$h" "$TAGGER" pfc send "$port" "$prio" 0 >/dev/null
}
