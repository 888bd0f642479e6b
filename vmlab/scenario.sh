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
#   SC_EVENTS     lines "SECONDS ACTION ARG...": fail/restore NODE:PORT,
#                 pause HOST PRIO SECONDS (a host's receiver pauses a priority)
#   SC_STOP       when the senders stop (s); SC_AFTER: observed after (s)
#   SC_CYCLE      flow ids whose stall means deadlock (default: all)
#   SC_RATE       link rate (default 100mbit); SC_SIZE datagram payload
#   SC_DSCP       the lossless class's DSCP without Tagger (default 26)
#   SC_PRIO       its priority without Tagger (default 3)
#
# Output, per mode, in $SC_OUT/<mode>/: rx-<host>.json (samples), tx-<id>.json
# (sender summaries), events.tsv, meta.tsv, pfc-<node>.json, backlog.tsv,
# verdict.json. report.sh turns both modes into a table, JSON and a PNG.
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

SC_RATE=${SC_RATE:-100mbit}
SC_SIZE=${SC_SIZE:-1400}
SC_DSCP=${SC_DSCP:-26}
SC_PRIO=${SC_PRIO:-3}
SC_AFTER=${SC_AFTER:-3}
SC_SETTLE=${SC_SETTLE:-1.5}

sc_now() { date +%s.%N | cut -c1-14; }
sc_event() { printf '%s\t%s\n' "$(sc_now)" "$*" >> "$SC_DIR/events.tsv"; }

sc_flows() { grep -v '^[[:space:]]*\(#\|$\)' <<< "$SC_FLOWS"; }
sc_dst_hosts() { sc_flows | awk '{ print $3 }' | sort -u; }

# Sum of the root qdisc backlog (packets) over every switch port, and the
# same per port as "node:port=N" for the ports that hold packets.
sc_backlog() {
	local n d total=0 q detail=
	for n in $(lab_nodes switch); do
		while read -r d q; do
			[ "$q" -gt 0 ] 2>/dev/null || continue
			total=$((total + q)); detail+=" $n:$d=$q"
		done < <(tc -n "$(lab_ns "$n")" -s -j qdisc show 2>/dev/null |
			 jq -r '.[] | select(.root) | "\(.dev) \(.qlen // 0)"')
	done
	echo "$total$detail"
}

# Packets received so far by every flow (from the last samples).
sc_rx_total() {
	cat "$SC_DIR"/rx-*.json 2>/dev/null | jq -s '[group_by(.flow)[] |
		map(select(.final | not)) | last | .rx // 0] | add // 0'
}

sc_start_flows() {
	local id src dst mbit h
	for h in $(sc_dst_hosts); do
		lab_spawn "rx-$h" "$h" "$SC_DIR/rx-$h.json" "$TAGGER" flow recv interval 100
	done
	sleep 0.3
	while read -r id src dst mbit; do
		lab_spawn "tx-$id" "$src" "$SC_DIR/tx-$id.json" "$TAGGER" flow send \
			"$(lab_host_addr "$dst")" id "$id" rate "$mbit" size "$SC_SIZE" \
			dscp "$SC_DSCP" prio "$SC_PRIO"
	done < <(sc_flows)
	sc_event start
}

sc_stop_senders() {
	local id
	for id in $(sc_flows | awk '{ print $1 }'); do lab_stop "tx-$id"; done
	sc_event stop
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
	pause) sc_host_pause "$@" ;;
	*) lab_die "unknown event \"$action\"" ;;
	esac
	sc_event "$action $*"
}

# Runs the event list against the clock started at $1.
sc_timeline() {
	local t0=$1 at action now wait
	while read -r at action rest; do
		now=$(sc_now)
		wait=$(echo "$t0 + $at - $now" | bc)
		[ "${wait:0:1}" = - ] || sleep "$wait"
		# shellcheck disable=SC2086
		sc_do_event "$action" $rest
	done < <(grep -v '^[[:space:]]*\(#\|$\)' <<< "${SC_EVENTS:-}")
}

# Deadlock: after the senders stopped, the flows of the cycle make no
# progress while lossless queues keep packets, over a whole observation
# window (SC_AFTER seconds, twice the default watchdog restoration). A
# network that is only congested drains within that window.
sc_verdict() {
	local rx0 rx1 b0 b1 stalled=false dead=false
	sleep "$SC_SETTLE"
	rx0=$(sc_rx_total); b0=$(sc_backlog)
	printf '%s\t%s\n' "$(sc_now)" "$b0" >> "$SC_DIR/backlog.tsv"
	sleep "$SC_AFTER"
	rx1=$(sc_rx_total); b1=$(sc_backlog)
	printf '%s\t%s\n' "$(sc_now)" "$b1" >> "$SC_DIR/backlog.tsv"
	[ "$rx0" = "$rx1" ] && stalled=true
	if $stalled && [ "${b1%% *}" -gt 0 ] && [ "${b0%% *}" = "${b1%% *}" ]; then
		dead=true
	fi
	jq -n --argjson stalled "$stalled" --argjson deadlock "$dead" \
		--arg backlog "$b1" --argjson rx "$rx1" \
		'{deadlock: $deadlock, no_progress: $stalled, rx_total: $rx,
		  queued: ($backlog | split(" ")[0] | tonumber),
		  queued_at: ($backlog | split(" ")[1:])}' > "$SC_DIR/verdict.json"
}

sc_run_mode() {
	local mode=$1 t0
	SC_MODE=$mode
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
	sc_timeline "$t0"
	sleep "$(echo "$t0 + $SC_STOP - $(sc_now)" | bc | sed 's/^-.*/0/')"
	sc_stop_senders
	sc_verdict
	sc_stop_receivers
	sc_pause_collect
	printf 'end\t%s\n' "$(sc_now)" >> "$SC_DIR/meta.tsv"
	lab_down
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
	SC_OUT=${SC_OUT:-$TOP/vmlab/out/$SC_NAME}
	lab_init "${LAB_NAME:-$SC_NAME}" || return 2
	trap 'lab_down' EXIT
	trap 'exit 130' INT TERM
	mkdir -p "$SC_OUT"
	[ "$modes" = both ] && modes="plain tagger"
	for m in $modes; do
		lab_log "== $SC_NAME: $m"
		sc_run_mode "$m" || return 1
	done
	bash "$VMLAB_DIR/report.sh" "$SC_OUT"
}
