#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Scenario runner shared by vmlab/scenarios/*.sh: one run of a scenario in
# one mode ("plain": PFC with one lossless priority for the class, the way
# networks run without Tagger; "tagger": the rules compiled from the ELP),
# with flows, timed events, deadlock detection and the files report.sh
# reads. A scenario script sets the variables below and calls sc_main.
#
#   SC_NAME       name (out dir, titles)
#   SC_TOPO       topology file; SC_ROUTES: paths file the routes follow
#   SC_ELP        ELP Tagger's rules are compiled from (tagger mode)
#   SC_ALGO       compile --algorithm (default clos when layered, else greedy)
#   SC_FLOWS      lines "ID SRC DST MBIT" (payload rate)
#   SC_EVENTS     lines "OFFSET ACTION ARG...": fail/restore NODE:PORT,
#                 pause HOST PRIO SECONDS (a host pauses a priority),
#                 route NODE HOST PORT (a static route, e.g. a misconfiguration)
#   SC_RULES      fixed rules for tagger mode instead of compiling SC_ELP
#   SC_ELP_KIND   or generate the ELP: tagger paths KIND TOPO
#   SC_READY      when the clock starts: "rate" (default: every flow is
#                 received at 90% of its rate), "flowing" (every flow
#                 arrives; for flows that share a bottleneck from the
#                 start) or "started" (every sender runs; where starting
#                 the traffic is the event, and a deadlock may form before
#                 the last flow's first packet arrives)
#   SC_WINDOW     observation window (s, default 4): the senders keep
#                 running this long after the last event took effect
#   SC_AFTER      after the senders stop, the quiet window (s) in which
#                 nothing may move for a deadlock verdict
#   SC_RATE       link rate (default 100mbit); SC_SIZE datagram payload
#   SC_DSCP       the lossless class's DSCP without Tagger (default 26)
#   SC_PRIO       its priority without Tagger (default 3)
#   SC_UDP_DPORTS the lossless class's UDP ports at the hosts (default 4791)
#   SC_CYCLE      the cycle the scenario closes without Tagger, its nodes
#                 in order ("L2 S1 L3 S2"): a run without Tagger and
#                 without a deadlock in which a link of it did not
#                 congest gives no verdict (sc_congestion); unset where
#                 no deadlock is expected
#   SC_CONGESTED  how long a link's upstream must be held paused, in % of
#                 the window, for the link to count as congested (default 10)
#   sc_start_extra, sc_stop_extra, sc_event_ACTION: functions a scenario
#                 may define: more traffic started with the flows and
#                 stopped with the senders; an event of its own
#
# The clock is driven by events, not by the wall: a busy machine makes
# every step slower (a fail takes 1-3 s), and a wall-clock schedule then
# squeezes the part that matters to nothing. So: the flows start; the
# clock starts ("ready") when they are actually received (SC_READY); each
# event runs at ready + OFFSET or, if the previous one is still running,
# as soon as it completes; after the last one took effect the senders keep
# running for SC_WINDOW seconds; then they stop and the network gets
# SC_SETTLE + SC_AFTER seconds to drain. A run that could not keep this
# schedule (not ready in SC_READY_MAX s, an event that failed or took over
# SC_EVENT_MAX s, a receiver that stopped sampling) gives no verdict.
#
# Output, per mode, in $SC_OUT/<mode>/: rx-<host>.json (samples), tx-<id>.json
# (sender summaries), events.tsv ("EFFECT<tab>EVENT<tab>BEGIN" epoch
# seconds), meta.tsv, pfc-<node>.json, backlog.tsv, verdict.json (the
# verdict and every number the table shows). report.sh turns both modes
# into a table, JSON and a PNG.
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

SC_RATE=${SC_RATE:-100mbit}
SC_SIZE=${SC_SIZE:-1400}
SC_DSCP=${SC_DSCP:-26}
SC_PRIO=${SC_PRIO:-3}
SC_AFTER=${SC_AFTER:-3}
SC_SETTLE=${SC_SETTLE:-1.5}
SC_WINDOW=${SC_WINDOW:-4}
SC_READY=${SC_READY:-rate}
SC_READY_MAX=${SC_READY_MAX:-10}
SC_EVENT_MAX=${SC_EVENT_MAX:-15}
SC_CONGESTED=${SC_CONGESTED:-10}
SC_BG=()

sc_now() { date +%s.%N | cut -c1-14; }
# sc_event TEXT [BEGIN]: TEXT took effect now; it began at BEGIN.
sc_event() {
	local now
	now=$(sc_now)
	printf '%s\t%s\t%s\n' "$now" "$1" "${2:-$now}" >> "$SC_DIR/events.tsv"
}
# Why the run did not keep its schedule (no verdict then).
sc_broken() {
	lab_log "schedule not kept: $*"
	echo "$*" >> "$SC_DIR/schedule.problems"
}
sc_lt() { [ "$(echo "$1 < $2" | bc)" = 1 ]; }

sc_flows() { grep -v '^[[:space:]]*\(#\|$\)' <<< "$SC_FLOWS"; }
sc_dst_hosts() { sc_flows | awk '{ print $3 }' | sort -u; }

# Packets received so far by every flow (from the last samples).
sc_rx_total() {
	cat "$SC_DIR"/rx-*.json 2>/dev/null | jq -s '[group_by(.flow)[] |
		map(select(.final | not)) | last | .rx // 0] | add // 0'
}

sc_start_flows() {
	local id src dst mbit h
	for h in $(sc_dst_hosts); do
		lab_spawn "rx-$h" "$h" "$SC_DIR/rx-$h.json" "$TAGGER" flow recv --interval 100
	done
	# tagger flow's default port (RoCEv2's): every receiver bound first.
	for h in $(sc_dst_hosts); do
		lab_wait_udp "$h" 4791 || sc_broken "no receiver bound on $h"
	done
	while read -r id src dst mbit; do
		lab_spawn "tx-$id" "$src" "$SC_DIR/tx-$id.json" "$TAGGER" flow send \
			"$(lab_host_addr "$dst")" --id "$id" --rate "$mbit" --size "$SC_SIZE" \
			--dscp "$SC_DSCP" --prio "$SC_PRIO"
	done < <(sc_flows)
	# A scenario's other traffic (the hierarchy's messages).
	if declare -F sc_start_extra >/dev/null; then sc_start_extra; fi
	sc_event start
}

# Waits until the flows are received as SC_READY asks, at most
# SC_READY_MAX s: "rate", the last three samples (300 ms) of every flow
# average 90% of its rate; "flowing", every flow has arrived; "started",
# at once (sc_start_flows has started every sender).
sc_wait_ready() {
	local deadline ok
	[ "$SC_READY" = started ] && return 0
	deadline=$(echo "$(sc_now) + $SC_READY_MAX" | bc)
	while :; do
		ok=$(tail -q -n 60 "$SC_DIR"/rx-*.json 2>/dev/null |
			jq -s --slurpfile f "$SC_DIR/flows.json" --arg how "$SC_READY" '
			. as $s | [$f[0][] as $fl | [$s[] | select(.flow == $fl.id and (.final | not))] |
			 if $how == "rate" then
				(.[-3:] | length == 3 and (map(.mbps) | add / 3) >= 0.9 * $fl.rate_mbps)
			 else (length > 0 and last.rx > 0) end] | all' 2>/dev/null)
		[ "$ok" = true ] && return 0
		sc_lt "$deadline" "$(sc_now)" && return 1
		sleep 0.1
	done
}

sc_stop_senders() {
	local id
	sc_event stop
	for id in $(sc_flows | awk '{ print $1 }'); do lab_stop "tx-$id"; done
	if declare -F sc_stop_extra >/dev/null; then sc_stop_extra; fi
}

sc_stop_receivers() {
	local h
	for h in $(sc_dst_hosts); do lab_stop "rx-$h"; done
}

sc_do_event() {
	local action=$1; shift
	case $action in
	fail) lab_fail "$1" ;;
	restore) lab_restore "$1" ;;
	pause) sc_host_pause "$@" & SC_BG+=($!) ;;
	route) lab_route "$@" ;;
	# A scenario's own event ACTION: its function sc_event_ACTION.
	*) if declare -F "sc_event_$action" >/dev/null; then "sc_event_$action" "$@"
	   else lab_die "unknown event \"$action\""; fi ;;
	esac
}

# Runs the event list against the clock started at $1 (ready): each event
# at its offset, or when the previous one completed if that is later.
# Records when each began and took effect.
sc_timeline() {
	local t0=$1 at action rest wait begin took
	while read -r at action rest; do
		wait=$(echo "$t0 + $at - $(sc_now)" | bc)
		[ "${wait:0:1}" = - ] || sleep "$wait"
		begin=$(sc_now)
		# shellcheck disable=SC2086
		sc_do_event "$action" $rest || sc_broken "$action $rest failed"
		sc_event "$action $rest" "$begin"
		took=$(echo "$(sc_now) - $begin" | bc)
		sc_lt "$SC_EVENT_MAX" "$took" &&
			sc_broken "$action $rest took $took s (more than $SC_EVENT_MAX)"
	done < <(grep -v '^[[:space:]]*\(#\|$\)' <<< "${SC_EVENTS:-}")
}

# Who waits on whom, from every pause agent, as "WHAT WAITER TARGET N"
# lines: "NODE:PORT/PRIO NODE PEER PACKETS" for a lossless egress queue
# paused while holding packets (NODE waits on PEER), and "NODE:PORT/PRIO
# PEER NODE xoff" for a lossless ingress buffer above XOFF (NODE pauses
# PEER: PEER waits on NODE). Both views of one wait, so a pause refreshed
# a moment late does not hide it. And "NODE - - leak=BYTES" when a node's
# ingress buffers count more bytes than its queues hold (beyond two
# frames): the pause machinery lost track of them (its accounting leaked),
# and the pauses they cause say nothing about the network.
sc_paused_queues() { sc_pfc_shows | sc_waits; }

# sc_waits: the waits above from `tagger -j pfc show` documents (stdin).
sc_waits() {
	jq -r '.node as $n |
				(([.ports[]?.prios[] | .buffered_bytes] | add // 0) -
				 ([.ports[]?.prios[] | .queue_bytes] | add // 0)) as $lost |
				(select($lost > 3000) | "l \($n) - - \($lost)"),
				(.ports[]? | .name as $p | .prios[] | select(.lossless) |
				 (select(.paused and .queue_packets > 0) | "q \($n) \($p) \(.prio) \(.queue_packets)"),
				 (select(.xoff) | "x \($n) \($p) \(.prio) xoff"))' | awk -v plan="$LAB_STATE/plan" '
		BEGIN { while ((getline l < plan) > 0) { split(l, f, " "); if (f[1] == "addr") peer[f[2] ":" f[3]] = f[6] } }
		$1 == "q" { print $2 ":" $3 "/" $4, $2, peer[$2 ":" $3], $5 }
		$1 == "x" { print $2 ":" $3 "/" $4, peer[$2 ":" $3], $2, $5 }
		$1 == "l" { print $2, "-", "-", "leak=" $5 }'
}

# Every agent's `tagger -j pfc show`, one JSON per line, read in parallel:
# one after the other they take seconds on a busy machine, and the pauses
# must be seen at one moment.
sc_pfc_shows() {
	local n d pids=()
	d=$(mktemp -d)
	for n in $(lab_nodes); do
		lab_exec "$n" "$TAGGER" -j pfc show "$n" > "$d/$n.json" 2>/dev/null &
		pids+=($!)
	done
	wait "${pids[@]}"
	cat "$d"/*.json 2>/dev/null | jq -c . 2>/dev/null
	rm -rf "$d"
}

# sc_pfc_snapshot FILE: every agent's `tagger -j pfc show` into FILE; prints
# when it was taken (the middle of the reads, which run in parallel).
sc_pfc_snapshot() {
	local a b
	a=$(sc_now)
	sc_pfc_shows > "$1"
	b=$(sc_now)
	echo "scale=3; ($a + $b) / 2" | bc
}

# sc_pauses_hold "N1 N2 ... Nk": along the cycle N1->N2->...->N1, every
# Ni+1 pauses Ni with ingress bytes that stay at or above XON after taking
# off everything Ni+1's accounting leaked (buffered minus queued bytes).
sc_pauses_hold() {
	local -a c
	local i b a pa
	read -r -a c <<< "$1"
	for i in "${!c[@]}"; do
		b=${c[i]} a=${c[(i + 1) % ${#c[@]}]}
		pa=$(awk -v n="$a" -v p="$b" '$1 == "addr" && $2 == n && $6 == p { print $3; exit }' "$LAB_STATE/plan")
		lab_exec "$a" "$TAGGER" -j pfc show "$a" 2>/dev/null | jq -e --arg p "$pa" '
			(([.ports[].prios[] | .buffered_bytes] | add) -
			 ([.ports[].prios[] | .queue_bytes] | add)) as $leak |
			.xon as $xon | .ports[] | select(.name == $p) |
			[.prios[] | select(.lossless and .xoff and
				.buffered_bytes - ([$leak, 0] | max) >= $xon[.prio])] | length > 0' \
			>/dev/null || return 1
	done
}

# One cycle of the waits above (stdin), as its nodes in order ("L2 S1 L3
# S2"), or nothing: peel nodes that wait on nobody or that nobody waits on
# until none is left to peel, then walk from the smallest node.
sc_pause_cycle() {
	awk '$2 == "-" { next } { f = $2; t = $3
		if (!((f, t) in e)) { e[f, t] = 1; out[f]++; in_[t]++ }
		node[f]; node[t] }
	END {
		do {
			changed = 0
			for (n in node) if (!out[n] || !in_[n]) {
				delete node[n]; changed = 1
				for (k in e) {
					split(k, x, SUBSEP)
					if (x[1] == n || x[2] == n) {
						out[x[1]]--; in_[x[2]]--; delete e[k]
					}
				}
			}
		} while (changed)
		start = ""
		for (n in node) if (start == "" || n < start) start = n
		if (start == "") exit
		# Follow the smallest next node until one repeats; print the loop.
		for (n = start; !(n in seen); n = nx) {
			seen[n] = ++i; order[i] = n; nx = ""
			for (k in e) { split(k, x, SUBSEP); if (x[1] == n && (nx == "" || x[2] < nx)) nx = x[2] }
		}
		for (j = seen[n]; j <= i; j++) printf "%s ", order[j]
	}'
}

# sc_congestion FROM TO SECONDS: did the links of SC_CYCLE congest between
# two snapshots of every agent's `tagger -j pfc show` (JSON lines) taken
# SECONDS apart? A deadlock is every link of a cycle paused for good, so a
# link whose downstream never held its upstream paused could not have
# closed one. Link U->D: the time U's gates toward D (every port whose
# peer is D, the longest) were closed on a lossless priority, the longest
# of the priorities; congested when at least SC_CONGESTED % of SECONDS.
# Measured, not inferred from the offered load: a busy machine's senders
# fall short of their rate (a link at 60 % is not congested), and its
# stalled forwarding can congest a link the flows do not fill.
# Prints {cycle, threshold_pct, seconds, links: [{link, paused_ms,
# measured, paused_pct, congested}], congested}.
sc_congestion() {
	jq -n --slurpfile a "$1" --slurpfile b "$2" --argjson s "$3" \
		--argjson pct "$SC_CONGESTED" --arg cycle "${SC_CYCLE:-}" \
		--rawfile plan "$LAB_STATE/plan" '
	def paused($docs; $n; $p): [$docs[] | select(.node == $n) | .ports[]? |
		select(.name == $p) | .prios[] | select(.lossless) | .paused_ms] | max // 0;
	($plan | split("\n") | map(split(" ") | select(.[0] == "addr"))) as $addr |
	($cycle | split(" ") | map(select(length > 0))) as $c |
	[range(0; $c | length) as $i | $c[$i] as $u | $c[($i + 1) % ($c | length)] as $d |
	 [$addr[] | select(.[1] == $u and .[5] == $d) | .[2]] as $ports |
	 ([$ports[] | paused($b; $u; .) - paused($a; $u; .)] | max // 0) as $ms |
	 # No link from U to D (SC_CYCLE names a pair the topology does not
	 # link), an agent missing from a snapshot (its show failed), or no
	 # time between them: unknown, so congested; what was not measured
	 # never voids a verdict.
	 ($ports != [] and any($a[]; .node == $u) and any($b[]; .node == $u)) as $seen |
	 {link: "\($u)->\($d)", paused_ms: ($ms | round), measured: $seen,
	  paused_pct: (if $s > 0 then [$ms / 10 / $s, 100] | min * 10 | floor / 10 else 0 end),
	  congested: (($seen | not) or $s <= 0 or $ms / 10 / $s >= $pct)}] as $l |
	{cycle: $c, threshold_pct: $pct, seconds: $s, links: $l,
	 congested: ($l | length > 0 and all(.[]; .congested))}'
}

# sc_check_settings: SC_CONGESTED a percentage, SC_CYCLE two or more nodes
# each linked to the next in SC_TOPO (a cycle the topology does not have
# would measure nothing). Bad settings: a message and 2.
sc_check_settings() {
	local -a c
	local i
	[[ $SC_CONGESTED =~ ^[0-9]{1,2}([.][0-9]{1,3})?$|^100$ ]] ||
		{ echo "vmlab: SC_CONGESTED: a percentage from 0 to 100, not \"$SC_CONGESTED\"" >&2; return 2; }
	read -r -a c <<< "${SC_CYCLE:-}"
	[ ${#c[@]} -eq 0 ] && return 0
	[ ${#c[@]} -ge 2 ] || { echo "vmlab: SC_CYCLE: two nodes or more, not \"$SC_CYCLE\"" >&2; return 2; }
	for i in "${!c[@]}"; do
		awk -v a="${c[i]}" -v b="${c[(i + 1) % ${#c[@]}]}" '$1 == "link" {
			split($2, x, ":"); split($3, y, ":")
			if ((x[1] == a && y[1] == b) || (x[1] == b && y[1] == a)) f = 1 }
			END { exit !f }' "$SC_TOPO" ||
			{ echo "vmlab: SC_CYCLE: no link between ${c[i]} and ${c[(i + 1) % ${#c[@]}]} in $SC_TOPO" >&2; return 2; }
	done
}

# The reason a run without a deadlock gives no verdict when the links of
# its cycle did not all congest (stdin: sc_congestion's JSON). The words
# before the colon do not change: the tests accept this reason, and only
# this one, in place of a verdict.
sc_uncongested_why() {
	jq -r '"links never congested: " +
		([.links[] | select(.congested | not) | "\(.link) held paused \(.paused_pct) %"] | join(", ")) +
		" of the \(.seconds * 10 | round / 10) s window (congested: \(.threshold_pct) %), " +
		"so no deadlock could form around \(.cycle + [.cycle[0]] | join("->"))"'
}

# Per flow, from the receivers' samples, the numbers the table shows and
# the verdict uses, all from the one observation window: "before" the
# 2 s before the first event began, "after" the second half of the window
# (the first half is the deadlock's time to form), "stalled_at" the first
# sample of the run of empty samples a flow ended with, when that began
# while the senders still ran (a flow that stopped for good; one that never
# arrived stopped at the first event, or when the clock started); "gap" the
# longest time between two samples of the run (a receiver that stopped
# sampling cannot tell a stall from a stutter).
sc_flow_stats() {
	cat "$SC_DIR"/rx-*.json 2>/dev/null | jq -s --slurpfile f "$SC_DIR/flows.json" \
		--argjson first "$1" --argjson last "$2" --argjson stop "$3" --argjson w "$SC_WINDOW" '
	def mean: if length == 0 then null else add / length end;
	. as $all | [$f[0][] as $fl |
	  ([$all[] | select(.flow == $fl.id and (.final | not))] | sort_by(.t)) as $s |
	  ([$s | to_entries[] | select(.value.pkts > 0) | .key] | last) as $lastrx |
	  (if $lastrx == null then ($s[0].t // $first) else $s[$lastrx + 1].t end) as $zero |
	  { id: $fl.id, rate_mbps: $fl.rate_mbps,
	    before_mbps: ([$s[] | select(.t >= $first - 2 and .t < $first) | .mbps] | mean),
	    after_mbps: ([$s[] | select(.t >= $last + $w / 2 and .t < $stop) | .mbps] | mean),
	    stalled_at: (if $zero != null and $zero < $stop then $zero else null end),
	    gap: ([$s | range(1; length) as $i | $s[$i].t - $s[$i - 1].t] | max // 0) }]'
}

# The verdict: a deadlock formed under load and stayed. All of:
#  - the run kept its schedule;
#  - under load, at the end of the window, the waits close a cycle (as
#    below), and a flow stopped for good in the first half of the window,
#    so the second half shows it at 0 while its sender still sends;
#  - after the senders stopped, over a whole window (SC_AFTER s) no flow
#    received anything, the pause watchdog reported, and the waits close
#    a cycle: queues that hold packets behind closed gates, each waiting
#    on the next (at the start or the end of the window: a pause
#    refreshed late can open a gate for a moment), or else, at both ends
#    of the window, waits that include ingress buffers above XOFF.
# If a node of the cycle counts more buffered bytes than its queues hold
# (the pause agent's accounting leaked), its pauses prove nothing and the
# verdict is null (unknown). A cycle seen only after the senders stopped
# did not form under load: no verdict either (the pause machinery, not the
# network, would be holding it). A congested network drains; a pause
# stuck on one port without a cycle is reported as held packets.
sc_verdict() {
	local qload=$1 rx0 rx1 q0 q1 cyc0 cyc1 cycl strict stalled=false dead=false wd
	local first last stop why=
	cycl=$(sc_pause_cycle <<< "$qload")
	sleep "$SC_SETTLE"
	rx0=$(sc_rx_total); q0=$(sc_paused_queues); cyc0=$(sc_pause_cycle <<< "$q0")
	printf '%s\t%s\n' "$(sc_now)" "$(echo $q0)" >> "$SC_DIR/backlog.tsv"
	sleep "$SC_AFTER"
	rx1=$(sc_rx_total); q1=$(sc_paused_queues); cyc1=$(sc_pause_cycle <<< "$q1")
	printf '%s\t%s\n' "$(sc_now)" "$(echo $q1)" >> "$SC_DIR/backlog.tsv"
	wd=$(sc_pfc_shows | jq -s '[.[].watchdog.events // 0] | add // 0')
	[ "$rx0" = "$rx1" ] && stalled=true
	# Strict: a cycle of queues that hold packets behind closed gates.
	strict=$( { grep -E ' [0-9]+$' <<< "$q0" | sc_pause_cycle; echo;
		    grep -E ' [0-9]+$' <<< "$q1" | sc_pause_cycle; } | awk 'NF { print; exit }')
	if $stalled && [ "$wd" -gt 0 ]; then
		if [ -n "$strict" ]; then
			dead=true cyc1=$strict
		elif [ -n "$cyc0" ] && [ -n "$cyc1" ]; then
			dead=true
		fi
		# Pauses caused by bytes the pause machinery lost track of say
		# nothing about the network: where a node of the cycle leaked,
		# its pause must hold with all the leaked bytes taken off its
		# ingress buffer (still at or above XON), or there is no verdict.
		if [ "$dead" = true ] && grep -q ' leak=' <<< "$q1" && ! sc_pauses_hold "$cyc1"; then
			dead=null why="pause accounting leaked"
		fi
	fi
	first=$(awk '$1 == "first" { print $2 }' "$SC_DIR/meta.tsv")
	last=$(awk '$1 == "last" { print $2 }' "$SC_DIR/meta.tsv")
	stop=$(awk '$1 == "stop" { print $2 }' "$SC_DIR/meta.tsv")
	sc_flow_stats "$first" "$last" "$stop" > "$SC_DIR/window.json"
	# A receiver that did not sample for over a second (or no samples).
	jq -e 'all(.[]; .gap < 1)' "$SC_DIR/window.json" >/dev/null ||
		sc_broken "a receiver stopped sampling for $(jq '[.[].gap] | max' "$SC_DIR/window.json") s"
	if [ "$dead" = true ]; then
		if [ -z "$cycl" ]; then
			dead=null why="the cycle formed only after the senders stopped, not under load"
		elif ! jq -e --argjson l "$last" --argjson w "$SC_WINDOW" \
			'any(.[]; .stalled_at != null and .stalled_at <= $l + $w / 2)' \
			"$SC_DIR/window.json" >/dev/null; then
			dead=null why="no flow stopped in the first half of the window (too short?)"
		fi
	fi
	# No deadlock where the cycle's links did not all congest proves
	# nothing either way: no verdict (sc_congestion).
	if [ "$dead" = false ] && [ -s "$SC_DIR/congestion.json" ] &&
		jq -e '(.cycle | length) > 0 and (.congested | not)' "$SC_DIR/congestion.json" >/dev/null; then
		dead=null why=$(sc_uncongested_why < "$SC_DIR/congestion.json")
	fi
	if [ -s "$SC_DIR/schedule.problems" ]; then
		dead=null why="schedule not kept"
	fi
	jq -n --argjson stalled "$stalled" --argjson deadlock "$dead" --arg why "$why" \
		--slurpfile congestion <(cat "$SC_DIR/congestion.json" 2>/dev/null || echo null) \
		--arg q "$q1" --arg cycle "$cyc1" --arg cycl "$cycl" --argjson rx "$rx1" \
		--argjson wd "$wd" --slurpfile flows "$SC_DIR/window.json" \
		--rawfile problems <(cat "$SC_DIR/schedule.problems" 2>/dev/null) \
		--argjson first "$first" --argjson last "$last" --argjson stop "$stop" \
		--argjson w "$SC_WINDOW" '
		def lines: split("\n") | map(select(length > 0));
		{deadlock: $deadlock, no_verdict_because: (if $why == "" then null else $why end),
		  schedule: {kept: ($problems | lines | length == 0), problems: ($problems | lines),
			     first_event: $first, last_event: $last, stop: $stop, window: $w},
		  flows: $flows[0],
		  congestion: $congestion[0],
		  no_progress: $stalled, rx_total: $rx,
		  watchdog_events: $wd,
		  cycle: ($cycle | split(" ") | map(select(length > 0))),
		  cycle_under_load: ($cycl | split(" ") | map(select(length > 0))),
		  paused_queues: ($q | lines | map(split(" ") |
			select(.[1] != "-" and .[3] != "xoff") | {queue: .[0], toward: .[2], packets: (.[3] | tonumber)})),
		  xoff: ($q | lines | map(split(" ") |
			select(.[3] == "xoff") | {ingress: .[0], pausing: .[1]})),
		  accounting_leaks: ($q | lines | map(split(" ") |
			select(.[3] | startswith("leak=")) | {node: .[0], bytes: (.[3][5:] | tonumber)})),
		  queued: ($q | lines | map(split(" ") |
			select(.[1] != "-" and .[3] != "xoff") | .[3] | tonumber) | add // 0)}' \
		> "$SC_DIR/verdict.json"
}

sc_run_mode() {
	local mode=$1 t0 ready last qload w0='' w1
	SC_DIR=$SC_OUT/$mode
	rm -rf "$SC_DIR"; mkdir -p "$SC_DIR"
	: > "$SC_DIR/events.tsv"
	lab_up "$SC_TOPO" --paths "$SC_ROUTES" || return 1
	sc_dataplane "$mode" || { lab_down; return 1; }
	sc_pause_start || { lab_down; return 1; }
	sleep 0.5
	t0=$(sc_now)
	printf 't0\t%s\nmode\t%s\n' "$t0" "$mode" > "$SC_DIR/meta.tsv"
	sc_flows | jq -Rn '[inputs | split(" ") | map(select(length > 0)) |
		{id: (.[0] | tonumber), src: .[1], dst: .[2], rate_mbps: (.[3] | tonumber)}]' \
		> "$SC_DIR/flows.json"
	sc_start_flows
	sc_wait_ready ||
		sc_broken "the flows were not $( [ "$SC_READY" = rate ] && echo "at 90% of their rate" || echo received) within $SC_READY_MAX s"
	ready=$(sc_now)
	sc_event ready
	sc_timeline "$ready"
	# The window runs from the last event's effect (or ready).
	last=$(awk -F'\t' '$2 != "start" { t = $1 } END { print t }' "$SC_DIR/events.tsv")
	printf 'ready\t%s\nfirst\t%s\nlast\t%s\n' "$ready" \
		"$(awk -F'\t' '$2 != "start" && $2 != "ready" { print $3; exit }' "$SC_DIR/events.tsv" | grep . || echo "$ready")" \
		"$last" >> "$SC_DIR/meta.tsv"
	# The pause counters as the window opens (without Tagger, where a
	# cycle is expected: sc_congestion), and under load as it ends.
	[ "$mode" = plain ] && [ -n "${SC_CYCLE:-}" ] &&
		w0=$(sc_pfc_snapshot "$SC_DIR/pfc-window.jsonl")
	sleep "$(echo "$last + $SC_WINDOW - $(sc_now)" | bc | sed 's/^-.*/0/')"
	w1=$(sc_pfc_snapshot "$SC_DIR/pfc-load.jsonl")
	qload=$(sc_waits < "$SC_DIR/pfc-load.jsonl")
	printf '%s\t%s\n' "$(sc_now)" "$(echo $qload)" >> "$SC_DIR/backlog.tsv"
	printf 'stop\t%s\n' "$(sc_now)" >> "$SC_DIR/meta.tsv"
	sc_stop_senders
	[ ${#SC_BG[@]} -gt 0 ] && wait "${SC_BG[@]}"
	SC_BG=()
	[ -n "$w0" ] && sc_congestion "$SC_DIR/pfc-window.jsonl" "$SC_DIR/pfc-load.jsonl" \
		"$(awk -v a="$w0" -v b="$w1" 'BEGIN { printf "%.3f", b - a }')" > "$SC_DIR/congestion.json"
	sc_verdict "$qload"
	sc_stop_receivers
	sc_pause_collect
	printf 'end\t%s\n' "$(sc_now)" >> "$SC_DIR/meta.tsv"
	lab_down
}

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

# The data plane of the mode on every switch and host of the rules.
sc_dataplane() {
	local n
	sc_rules "$1" || return 1
	SC_LOSSLESS=$(jq -r '[.tags[].priority] | unique | join(",")' "$SC_DIR/rules.json")
	# Hosts' packets have no ingress classification: their queue comes
	# from the tag on the wire, the way the rules map tags to priorities.
	SC_DSCP_MAP=$(jq -r '[.tags[] | "\(.tag):\(.priority)"] + ["\(.lossy.tag):\(.lossy.priority)"] |
		join(",")' "$SC_DIR/rules.json")
	for n in $(jq -r '.switches | keys[]' "$SC_DIR/rules.json"); do
		lab_exec "$n" "$TAGGER" switch attach "$n" "$SC_DIR/rules.json" \
			>> "$SC_DIR/attach.log" 2>&1 ||
			{ lab_die "switch attach $n failed (see $SC_DIR/attach.log)"; return 1; }
	done
	for n in $(jq -r '.hosts | keys[]' "$SC_DIR/rules.json"); do
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
	local n i
	for n in $(lab_nodes); do
		# shellcheck disable=SC2046
		lab_spawn "pfc-$n" "$n" "$SC_DIR/pfc-$n.log" "$TAGGER" pfc agent "$n" \
			$(sc_ports "$n") --rate "$SC_RATE" --lossless "$SC_LOSSLESS" \
			--dscp-map "$SC_DSCP_MAP" \
			--watchdog-action report --busy-poll 0 ${SC_PFC_OPTS:-}
	done
	for n in $(lab_nodes); do
		for i in $(seq 100); do
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
	for n in $(lab_nodes); do
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

# usage: sc_main [plain|tagger|both] [--out DIR]
sc_main() {
	local modes=both m
	while [ $# -gt 0 ]; do
		case $1 in
		plain|tagger|both) modes=$1 ;;
		--out) SC_OUT=$2; shift ;;
		--lab) LAB_NAME=$2; shift ;;
		help|-h|--help)
			echo "Usage: vmlab scenario $SC_NAME [plain|tagger|both] [--out DIR] [--lab NAME]" >&2
			return 0 ;;
		*) echo "What is \"$1\"?" >&2; return 2 ;;
		esac
		shift
	done
	[ "$(id -u)" -eq 0 ] || { echo "vmlab: scenarios need root" >&2; return 2; }
	sc_check_settings || return 2
	SC_OUT=${SC_OUT:-$TOP/vmlab/out/$SC_NAME}
	lab_init "${LAB_NAME:-$SC_NAME}" || return 2
	trap 'lab_down_mine' EXIT
	trap 'exit 130' INT TERM
	mkdir -p "$SC_OUT"
	[ "$modes" = both ] && modes="plain tagger"
	for m in $modes; do
		lab_log "== $SC_NAME: $m"
		sc_run_mode "$m" || return 1
	done
	bash "$VMLAB_DIR/report.sh" "$SC_OUT"
}
