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

# sc_vm HOST: HOST is a VM (SC_VM_HOSTS), which runs its own agent.
sc_vm() { [[ " ${SC_VM_HOSTS:-} " == *" $1 "* ]]; }

# Nodes with a lab pause agent: all but the hosts that are VMs.
sc_nodes() {
	local n
	for n in $(lab_nodes); do sc_vm "$n" || echo "$n"; done
}

# The data plane of the mode on every switch and host of the rules (the
# rules made first unless made already). The switches run SC_DATAPATH;
# hosts are no switches: `tagger host attach` tags their traffic whatever
# the switches run; a VM host tags its own (SC_VM_HOSTS).
sc_dataplane() {
	local n
	[ -s "$SC_DIR/rules.json" ] || sc_rules "$1" || return 1
	sc_classes
	for n in $(jq -r '.switches | keys[]' "$SC_DIR/rules.json"); do
		lab_exec "$n" "$TAGGER" switch attach "$n" "$SC_DIR/rules.json" \
			--datapath "$SC_DATAPATH" >> "$SC_DIR/attach.log" 2>&1 ||
			{ lab_die "switch attach $n failed (see $SC_DIR/attach.log)"; return 1; }
	done
	for n in $(jq -r '.hosts | keys[]' "$SC_DIR/rules.json"); do
		sc_vm "$n" && continue
		lab_exec "$n" "$TAGGER" host attach "$n" "$(sc_ports "$n" | head -1)" \
			"$SC_DIR/rules.json" --udp-dport "${SC_UDP_DPORTS:-4791}" >> "$SC_DIR/attach.log" 2>&1 ||
			{ lab_die "host attach $n failed (see $SC_DIR/attach.log)"; return 1; }
	done
}

# A pause agent on every node (hosts too: a host obeys its ToR's pauses).
# The watchdog only reports: it must not break the deadlock it detects.
# No busy-polling: a lab runs one agent per node on a few shared CPUs, where
# polling agents take the CPU the forwarding needs (tagger-pfc(8)).
sc_pause_start() {
	local n
	for n in $(sc_nodes); do
		# shellcheck disable=SC2046
		lab_spawn "pfc-$n" "$n" "$SC_DIR/pfc-$n.log" "$TAGGER" pfc agent "$n" \
			$(sc_ports "$n") --rate "$SC_RATE" --lossless "$SC_LOSSLESS" \
			--dscp-map "$SC_DSCP_MAP" \
			--watchdog-action report --busy-poll 0 ${SC_PFC_OPTS:-}
	done
	for n in $(sc_nodes); do
		for _ in $(seq 100); do
			lab_exec "$n" "$TAGGER" pfc show "$n" >/dev/null 2>&1 && break
			kill -0 "$(lab_pid "pfc-$n")" 2>/dev/null ||
				{ lab_die "pfc agent of $n died: $(tail -3 "$SC_DIR/pfc-$n.log")"; return 1; }
			sleep 0.1
		done
	done
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
