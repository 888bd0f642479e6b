#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Sourced by vmlab/scenario.sh: what a run's pause agents say and the
# verdict drawn from it. Who waits on whom, the cycle the waits close,
# whether the links of SC_CYCLE congested, the flows' numbers over the
# observation window, and the verdict (verdict.json). Reads the SC_*
# settings and SC_DIR of scenario.sh.

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
	for n in $(sc_nodes); do
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
