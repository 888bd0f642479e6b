#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The storm watchdog, SONiC pfcwd's semantics, on the line
#   h1 -- sw1 -- sw2 -- h2
# h2 is a broken peer: it sends PAUSE for priority 3 to sw2 every 20 ms
# (a storm) while h1 sends lossless traffic (DSCP 24, priority 3) to it.
# sw2's queue toward h2 (port p2, prio 3) fills and stays paused:
#   drop     storm detected once, the queue's packets dropped and counted
#            (watchdog_drops), h2's own priority 3 traffic dropped at
#            sw2's ingress (watchdog_rx_drops) and no PAUSE sent to h2;
#            not restored while h2 keeps pausing, restored once it has
#            stopped for the restoration time (not on a fixed timer);
#   forward  traffic ignores the PAUSEs and reaches h2, nothing dropped;
#   alert    only counted: the queue stays paused.
# Then the counters and the last storm's start and end in show, -j and
# the metrics (promtool), and the big red switch on a running agent.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/pfc_lib.sh"
require_root
require_cmd python3

J() { python3 -c "import json; d=json.load(open('$TGR_TMP/$1.json')); print($2)"; }
Q="d['ports'][1]['prios'][3]"	# sw2's port p2 (toward h2), priority 3

# storm SECONDS: h2 pauses priority 3 toward sw2 every 20 ms, from one
# process (a storm has no gaps); the time of its last PAUSE
# (CLOCK_REALTIME) in $TGR_TMP/last_pause.
storm() {
	ns_exec h2 python3 "$TRAFFIC" pause h2-sw2 3 20 "$1" >"$TGR_TMP/storm.json" ||
		fail "storm"
	python3 -c "import json; print(json.load(open('$TGR_TMP/storm.json'))['last'])" \
		>"$TGR_TMP/last_pause"
}

# flow SECONDS MBIT PORT: lossless traffic h1 -> h2 in the background.
flow() {
	ns_exec h1 python3 "$TRAFFIC" send 10.61.3.2 "$3" 24 "$2" "$1" \
		>"$TGR_TMP/flow-$3.json" &
	bg_track $!
}

# sw2 ARGS...: (re)start sw2's agent with the watchdog options ARGS.
sw2() {
	ns_exec sw2 "$TAGGER" pfc stop sw2 >/dev/null 2>&1
	pfc_agent sw2 p1=sw2-sw1 p2=sw2-h2 "$@"
}

pfc_line
pfc_agent h1 p=h1-sw1 --cpu-latency none
pfc_agent sw1 p1=sw1-h1 p2=sw1-sw2 --cpu-latency none

# Bad specs are refused, naming the option (exit 2).
for bad in p2:3:100 p9:3:100:300:drop p2:1:100:300:drop p2:3:0:300:drop \
	p2:3:100:300:panic; do
	ns_exec sw2 "$TAGGER" pfc agent sw2 p1=sw2-sw1 p2=sw2-h2 \
		--watchdog "$bad" 2>"$TGR_TMP/bad.err"
	rc=$?
	check "--watchdog $bad: exit 2, naming it" \
		grep -q -- "--watchdog $bad" "$TGR_TMP/bad.err"
	check "... exit 2" [ "$rc" = 2 ]
done

# --- drop ---
sw2 --cpu-latency none --watchdog p2:3:100:400:drop
ns_exec h2 python3 "$TRAFFIC" recv 5001,5003 2 >"$TGR_TMP/recv.json" 2>/dev/null &
bg_track $!
flow 4 20 5001
sleep 0.3
storm 2.5 &
spid=$!
# h2's own priority 3 traffic toward h1 meets sw2's ingress mid-storm.
sleep 0.8
ns_exec h2 python3 "$TRAFFIC" send 10.61.1.2 5002 24 5 1 >"$TGR_TMP/back.json"
pfc_show sw2 >"$TGR_TMP/drop-mid.json"
wait $spid
pfc_show sw2 >"$TGR_TMP/drop-storm-over.json"
sleep 1
pfc_show sw2 >"$TGR_TMP/drop.json"
ns_exec sw2 "$TAGGER" pfc show sw2
last=$(cat "$TGR_TMP/last_pause")
cat "$TGR_TMP/agent-sw2.log"
check "drop: one storm detected on sw2 p2 prio 3" [ "$(J drop "${Q}['storms']")" = 1 ]
check "drop: in storm mid-way, 1.3 s in, restoration 0.4 s: PAUSEs still come" \
	[ "$(J drop-mid "${Q}['storm']")" = True ]
check "drop: the queue's packets dropped, counted (watchdog_drops)" \
	[ "$(J drop "${Q}['watchdog_drops']")" -gt 0 ]
check "drop: h2's priority 3 packets dropped at sw2's ingress" \
	[ "$(J drop "${Q}['watchdog_rx_drops']")" -gt 0 ]
check "drop: sw2 sent no PAUSE to h2 for priority 3" \
	[ "$(J drop "${Q}['pfc_tx']")" = 0 ]
check "drop: not lossless drops (named apart)" \
	[ "$(J drop "d['totals']['watchdog_drops']")" -gt 0 ]
# What the watchdog dropped (at egress, flushed) is its, not a loss of
# the lossless class: no other drop happens on this line.
check "drop: the watchdog's drops not also counted as lossless drops" \
	[ "$(J drop "d['totals']['lossless_drops']")" = 0 ]
check "drop: restored once the PAUSEs stopped" [ "$(J drop "${Q}['storm']")" = False ]
check "drop: the storm lasted as long as the PAUSEs (not a fixed timer)" \
	python3 -c "
import json
q = json.load(open('$TGR_TMP/drop.json'))['ports'][1]['prios'][3]
s, e, last = q['storm_start_ms'] / 1e3, q['storm_end_ms'] / 1e3, $last
print('start', s, 'end', e, 'last PAUSE', last, 'end - last', e - last)
assert e - s > 1.5, 'restored before the storm ended'
assert e - last >= 0.4 - 0.05, 'restored within the restoration time'
assert e - last < 1.5, 'restored late'
"
check "drop: the settings are in show -j" \
	[ "$(J drop "${Q}['watchdog']['action']") $(J drop "${Q}['watchdog']['restore_ms']")" = "drop 400" ]
check "drop: show prints the storm" \
	sh -c "ip netns exec $(ns_name sw2) $TAGGER pfc show sw2 | grep -q 'storm: none now, 1 storm(s)'"

# The metrics: the storm counter and the last storm's start and end.
ns_exec sw2 "$TAGGER" metrics show --pfc sw2 >"$TGR_TMP/m.prom" || fail "metrics show"
grep -E 'tagger_pfc_(storm|watchdog)' "$TGR_TMP/m.prom" | grep 'priority="3"' | grep 'port="p2"'
check "metrics: tagger_pfc_storms_total is 1" \
	grep -Eq '^tagger_pfc_storms_total\{.*port="p2".*priority="3"\} 1$' "$TGR_TMP/m.prom"
check "metrics: the last storm's start and end, seconds since the epoch" \
	python3 -c "
import re
t = open('$TGR_TMP/m.prom').read()
def v(n):
    return float(re.search(n + r'\{[^}]*port=\"p2\"[^}]*priority=\"3\"\} (\S+)', t).group(1))
s = v('tagger_pfc_storm_last_start_timestamp_seconds')
e = v('tagger_pfc_storm_last_end_timestamp_seconds')
assert 1.7e9 < s < e, (s, e)
"
if command -v promtool >/dev/null; then
	check "metrics: promtool check metrics" sh -c "promtool check metrics <'$TGR_TMP/m.prom'"
fi

# --- forward ---
sw2 --cpu-latency none --watchdog p2:3:100:300:forward
ns_exec h2 python3 "$TRAFFIC" recv 5004 2 >"$TGR_TMP/recv-fwd.json" 2>/dev/null &
rpid=$!
bg_track $rpid
sleep 0.3
flow 3 10 5004
storm 2.5
wait $rpid
sleep 0.5
pfc_show sw2 >"$TGR_TMP/fwd.json"
got=$(python3 -c "import json; print(json.load(open('$TGR_TMP/recv-fwd.json'))['5004']['received'])")
sent=$(python3 -c "import json; print(json.load(open('$TGR_TMP/flow-5004.json'))['sent'])")
echo "forward: sent $sent got $got"
check "forward: one storm" [ "$(J fwd "${Q}['storms']")" = 1 ]
check "forward: traffic ignored the PAUSEs (every packet reached h2)" \
	[ "$sent" -gt 0 -a "$got" = "$sent" ]
check "forward: the PAUSEs were ignored" [ "$(J fwd "${Q}['pfc_rx_ignored']")" -gt 0 ]
check "forward: nothing dropped by the watchdog" [ "$(J fwd "${Q}['watchdog_drops']")" = 0 ]
check "forward: restored" [ "$(J fwd "${Q}['storm']")" = False ]

# --- alert ---
sw2 --cpu-latency none --watchdog p2:3:100:300:alert
flow 4 10 5005
sleep 0.3
storm 3 &
spid=$!
# A busy machine starts the flow late: wait for the storm (at most 2.5 s).
for _ in $(seq 25); do
	pfc_show sw2 >"$TGR_TMP/alert-mid.json"
	[ "$(J alert-mid "${Q}['storms']")" = 1 ] && break
	sleep 0.1
done
wait $spid
check "alert: one storm" [ "$(J alert-mid "${Q}['storms']")" = 1 ]
check "alert: the queue stays paused, PAUSEs honoured" \
	[ "$(J alert-mid "${Q}['paused']") $(J alert-mid "${Q}['pfc_rx_ignored']")" = "True 0" ]
check "alert: nothing dropped" [ "$(J alert-mid "${Q}['watchdog_drops']")" = 0 ]
sleep 1

# --- the big red switch on a running agent ---
ns_exec sw2 "$TAGGER" -j pfc watchdog sw2 big-red-switch on >"$TGR_TMP/brs.json" ||
	fail "big-red-switch on"
pfc_show sw2 >"$TGR_TMP/brs-on.json"
flow 1 5 5006
sleep 1.3
pfc_show sw2 >"$TGR_TMP/brs-flow.json"
check "big red switch: on in show -j" [ "$(J brs-on "d['watchdog']['big_red_switch']")" = True ]
check "big red switch: every lossless queue drops" \
	[ "$(J brs-on "sorted({p['watchdog']['action'] for x in d['ports'] for p in x['prios'] if p['lossless']})")" = "['drop']" ]
# sw2 drops it at its ingress from sw1: every lossless queue drops.
check "big red switch: the lossless traffic dropped at sw2 (named counter)" \
	[ "$(J brs-flow "d['ports'][0]['prios'][3]['watchdog_rx_drops']")" -gt \
	"$(J brs-on "d['ports'][0]['prios'][3]['watchdog_rx_drops']")" ]
check "big red switch: not counted as a storm (the alert's one only)" \
	[ "$(J brs-flow "d['watchdog']['events']")" = 1 ]
ns_exec sw2 "$TAGGER" pfc watchdog sw2 big-red-switch off || fail "big-red-switch off"
pfc_show sw2 >"$TGR_TMP/brs-off.json"
check "big red switch: off again, the queue's own action back" \
	[ "$(J brs-off "d['watchdog']['big_red_switch']") $(J brs-off "${Q}['watchdog']['action']")" = "False alert" ]
check "big red switch: a node with no agent state: exit 2" \
	sh -c "ip netns exec $(ns_name sw2) $TAGGER pfc watchdog nosuch big-red-switch on 2>/dev/null; [ \$? = 2 ]"
check "big red switch: a bad word exits 2" \
	sh -c "ip netns exec $(ns_name sw2) $TAGGER pfc watchdog sw2 big-red-switch maybe 2>/dev/null; [ \$? = 2 ]"

for n in h1 sw1 sw2; do ns_exec "$n" "$TAGGER" pfc stop "$n" >/dev/null || fail "stop $n"; done
echo "PASS"
