#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A pause agent frozen (SIGSTOP: as a debugger, a cgroup freeze, a paused
# VM or a starved CPU would), not dead, loses no lossless packet. Line
# h1 - sw1 - sw2 -20M- h2, 60 Mbit/s lossless from h1 to h2, so that sw2
# pauses sw1 and sw1 pauses h1. With sw1's gate toward sw2 closed:
#   - sw1's agent frozen: its standby sees no heartbeat while work is
#     pending, kills it (SIGKILL by pidfd) and takes over; `pfc show` says
#     `stalled` meanwhile when it can be seen;
#   - sw1's standby frozen: the agent kills and replaces it;
#   - both frozen: nothing in user space runs; the BPF side refreshes the
#     XOFF to h1 as long as the buffer stays above XON, so h1 never resumes
#     into a full buffer; `pfc show` and the metrics say `stalled`.
# Every case: 0 lossless lost; the longest time a gate of sw1 stayed closed
# beyond its PAUSE is printed.
#
# TAGGER_FREEZE_MATRIX="0.5 1 3 10" runs every length for agent, standby
# and both and prints a table (tests/bench/bench_pfc_freeze.sh); by default
# one length (3 s) of each.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/pfc_lib.sh"
require_root
require_cmd python3

LENGTHS=${TAGGER_FREEZE_MATRIX:-3}
# Report only (the bench on an unfixed build): measure, do not fail.
REPORT_ONLY=${TAGGER_FREEZE_REPORT_ONLY:-0}
WHOS=${TAGGER_FREEZE_WHO:-agent standby both}

agent_pid() { cat "$PFC_DIR/$1/pid" 2>/dev/null; }
gate_closed() { ns_exec sw1 tc qdisc show dev sw1-sw2 | grep -q 'rate 8bit'; }
# The state's view without asking the agent (a frozen one cannot answer).
status_of() { ns_exec sw1 "$TAGGER" -j pfc show sw1 2>/dev/null |
	python3 -c "import json,sys; d=json.load(sys.stdin); print(d['status'], d.get('standby_pid', 0))"; }
# gone OLD NEW: process OLD is dead and NEW, another, took its place.
alive() { [ -e "/proc/$1" ] && [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" != Z ]; }
gone() { [ "$1" != "$2" ] && ! alive "$1"; }
late_max() { pfc_json sw1 "round(d.get('heartbeat', {}).get('gate_late_max_ms', -1), 1)"; }
# start_closed SECS: a flow of SECS + 5 s in the background (fpid), and
# sw1's gate toward sw2 closed; one more flow if it never closed.
start_closed() {
	local try
	for try in 1 2; do
		pfc_flow "$(python3 -c "print(int($1 + 5))")" 60 &
		fpid=$!
		for _ in $(seq 1000); do gate_closed && return 0; sleep 0.01; done
		for n in h1 sw1 sw2; do ns_exec "$n" "$TAGGER" pfc show "$n" >&2; done
		echo "try $try: sw1's gate never closed in 10 s" >&2
		wait $fpid
	done
	return 1
}
# long_enough SECS MIN: a freeze of SECS is at least MIN seconds.
long_enough() { python3 -c "import sys; sys.exit(0 if $1 >= $2 else 1)"; }
verdict() {
	if [ "$REPORT_ONLY" = 1 ]; then echo "measured: $1"; else check "$@"; fi
}

pfc_line
pfc_agent h1 p=h1-sw1 --cpu-latency none --busy-poll 0
# shellcheck disable=SC2086 # TAGGER_FREEZE_SW1: more options (--trace F)
pfc_agent sw1 p1=sw1-h1 p2=sw1-sw2 --cpu-latency none --busy-poll 0 ${TAGGER_FREEZE_SW1:-}
pfc_agent sw2 p1=sw2-sw1 p2=sw2-h2@20mbit --cpu-latency none --busy-poll 0
pfc_agent h2 p=h2-sw2 --cpu-latency none --busy-poll 0
[ -n "${TAGGER_FREEZE_LOGS:-}" ] &&
	tgr_on_exit 'mkdir -p "$TAGGER_FREEZE_LOGS"; cp "$TGR_TMP"/agent-*.log "$TAGGER_FREEZE_LOGS"'
tgr_on_exit 'for p in $(cat $TGR_TMP/stopped 2>/dev/null); do kill -9 $p 2>/dev/null; done'

verdicts=0
printf '%-8s %6s %8s %8s %6s %14s %s\n' who freeze sent got lost late_max_ms status \
	>"$TGR_TMP/table"
# Where a packet was lost: each node's lossless drop count.
drops() {
	local n
	for n in h1 sw1 sw2 h2; do
		printf '%s:%s ' "$n" "$(pfc_json "$n" "d['totals']['lossless_drops']")"
	done
}
for secs in $LENGTHS; do
	for who in $WHOS; do
		d0=$(drops)
		l0=$(late_max)
		# sw1's gate toward sw2 closed, or no verdict: a line that does
		# not congest (a busy machine) cannot test a freeze with it.
		if ! start_closed "$secs"; then
			echo "NO VERDICT: $who $secs s: sw1's gate never closed (twice)"
			printf '%-8s %6s %s\n' "$who" "$secs" "NO VERDICT (no congestion)" >>"$TGR_TMP/table"
			continue
		fi
		verdicts=$((verdicts + 1))
		a=$(agent_pid sw1)
		s=$(pfc_json sw1 "d['standby_pid']")
		case $who in
		agent) pids=$a ;;
		standby) pids=$s ;;
		both) pids="$a $s" ;;
		esac
		echo "$pids" >"$TGR_TMP/stopped"
		# shellcheck disable=SC2086
		kill -STOP $pids
		t0=$EPOCHREALTIME
		# What show says while frozen, in the background: it must not
		# lengthen the freeze, which ends at SECS after the stop.
		sleep "$(python3 -c "print($secs / 3)")"
		status_of >"$TGR_TMP/seen" 2>/dev/null &
		spid=$!
		sleep "$(python3 -c "import time; print(max(0, $secs - (time.time() - $t0)))")"
		# shellcheck disable=SC2086
		kill -CONT $pids 2>/dev/null
		: >"$TGR_TMP/stopped"
		wait $spid
		seen=$(cat "$TGR_TMP/seen")
		wait $fpid
		sent=$(pfc_sent)
		got=$(pfc_got)
		late=$(late_max)
		# The state keeps the longest since the agent started: this
		# case's own if it grew, else at most the one before.
		python3 -c "import sys; sys.exit(0 if $late > $l0 else 1)" || late="<=$l0"
		printf '%-8s %6s %8s %8s %6s %14s %s\n' "$who" "$secs" "$sent" "$got" \
			$((sent - got)) "$late" "$seen" >>"$TGR_TMP/table"
		echo "$who frozen $secs s: sent $sent, got $got, late gate max $late ms, show said: $seen"
		echo "... lossless drops before: $d0; after: $(drops)"
		verdict "$who frozen $secs s with sw1's gate closed: 0 lossless lost ($sent sent)" \
			[ "$sent" -gt 0 -a "$sent" = "$got" ]
		case $who in
		agent)
			verdict "... the frozen agent was killed and replaced (pid $a)" \
				gone "$a" "$(agent_pid sw1)"
			;;
		standby)
			# Its deadline is the agent's plus 1 s (pfc_standby.h).
			if long_enough "$secs" 2; then
				verdict "... the agent replaced its frozen standby ($s)" \
					gone "$s" "$(pfc_json sw1 "d['standby_pid']")"
			fi
			;;
		both)
			# show does not wait for a stalled agent's numbers.
			if long_enough "$secs" 1; then
				verdict "... show said stalled while both were frozen" \
					[ "${seen%% *}" = stalled ]
			fi
			;;
		esac
		verdict "... sw1's agent runs afterwards" \
			[ "$(pfc_json sw1 "d['status']")" = running ]
	done
done
cat "$TGR_TMP/table"
[ "$verdicts" -gt 0 ] || skip "the line never congested: no verdict"
[ -n "${TAGGER_FREEZE_TABLE:-}" ] && cp "$TGR_TMP/table" "$TAGGER_FREEZE_TABLE"
totals=$(pfc_json sw1 "d['heartbeat']['stalls'], d['heartbeat']['standby_stalls']" 2>/dev/null)
echo "sw1: stalls, standby stalls: $totals"
exit 0
