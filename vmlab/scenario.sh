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
#   SC_DATAPATH   where the switches run the rules (`tagger switch attach
#                 --datapath`): bpf (default) or flower (tc flower
#                 filters, software; needs cls_flower and its actions).
#                 Both modes use it; hosts keep `tagger host attach`
#   SC_ATTACH_MODE  `--mode` of the attaches (default tc: cls_bpf, whose
#                 attach does not wait for a grace period under the RTNL
#                 lock as tcx's does; tcx or auto for tcx where the
#                 kernel has it)
#   SC_ATTACH_JOBS  nodes attached at a time (default LAB_JOBS, 4)
#   SC_OVERLAP    1 (default): the pause agents start while the data
#                 plane attaches; 0: after it
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
#   SC_VM_HOSTS   hosts that are VMs (sc_up_extra makes them): no
#                 namespace data plane or pause agent of the lab's there
#   sc_start_extra, sc_stop_extra, sc_event_ACTION: functions a scenario
#                 may define: more traffic started with the flows and
#                 stopped with the senders; an event of its own
#   sc_up_extra MODE, sc_traffic_start, sc_end_extra: what a scenario
#                 whose hosts are VMs defines: run after the lab is up and
#                 the rules made (the VMs started), in place of the UDP
#                 flows (traffic of its own and, per flow, receiver
#                 samples rx-HOST.json as `tagger flow recv` writes them),
#                 and before the agents' counters are collected (the VMs
#                 ended, their agents' counters in pfc-*.json)
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
# The nodes of a run (rules, data plane, pause agents) and its verdict
# (waits, cycles, congestion, flow numbers), one file each.
source "$(dirname "${BASH_SOURCE[0]}")/scenario-nodes.sh"
source "$(dirname "${BASH_SOURCE[0]}")/scenario-verdict.sh"

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
SC_DATAPATH=${SC_DATAPATH:-bpf}
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
	if declare -F sc_traffic_start >/dev/null; then
		sc_traffic_start
		sc_event start
		return
	fi
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

# sc_check_settings: SC_DATAPATH bpf or flower, SC_CONGESTED a percentage,
# SC_CYCLE two or more nodes
# each linked to the next in SC_TOPO (a cycle the topology does not have
# would measure nothing). Bad settings: a message and 2.
sc_check_settings() {
	local -a c
	local i
	case $SC_DATAPATH in
	bpf|flower) ;;
	*) echo "vmlab: SC_DATAPATH: bpf or flower, not \"$SC_DATAPATH\"" >&2; return 2 ;;
	esac
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

sc_run_mode() {
	local mode=$1 t0 ready last qload w0='' w1
	SC_DIR=$SC_OUT/$mode
	rm -rf "$SC_DIR"; mkdir -p "$SC_DIR"
	: > "$SC_DIR/events.tsv"
	lab_up "$SC_TOPO" --paths "$SC_ROUTES" || return 1
	sc_nodes_up "$mode" || { lab_down; return 1; }
	sleep 0.5
	t0=$(sc_now)
	printf 't0\t%s\nmode\t%s\ndatapath\t%s\n' "$t0" "$mode" "$SC_DATAPATH" > "$SC_DIR/meta.tsv"
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
	if declare -F sc_end_extra >/dev/null; then sc_end_extra; fi
	sc_pause_collect
	printf 'end\t%s\n' "$(sc_now)" >> "$SC_DIR/meta.tsv"
	lab_down
}

# usage: sc_main [plain|tagger|both] [--out DIR] [--lab NAME] [--datapath bpf|flower]
sc_main() {
	local modes=both m
	while [ $# -gt 0 ]; do
		case $1 in
		plain|tagger|both) modes=$1 ;;
		--out) SC_OUT=$2; shift ;;
		--lab) LAB_NAME=$2; shift ;;
		--datapath) SC_DATAPATH=$2; shift ;;
		help|-h|--help)
			echo "Usage: vmlab scenario $SC_NAME [plain|tagger|both] [--out DIR] [--lab NAME] [--datapath bpf|flower]" >&2
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
