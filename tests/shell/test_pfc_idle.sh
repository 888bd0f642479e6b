#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# An idle pause agent sleeps without a tick (userspace/pfc/pfc_idle.h) and
# loses no guarantee by it. Line h1 - sw1 - sw2 -20M- h2:
#   - once nothing is buffered and nothing paused, the agents stop ticking:
#     a few wake-ups (context switches) in 2 s, not one per 50 ms tick;
#   - traffic that starts while they sleep crosses XOFF: PAUSEs go out,
#     are refreshed, and end with XON; no lossless drop; back to sleep;
#   - a PAUSE that arrives while sw2 sleeps closes its gate, the watchdog
#     sees the queue held behind it, and the gate reopens when it expires;
#   - an agent killed while asleep: its standby takes over, goes to sleep,
#     and the node still pauses.
# An agent keeps little memory resident: it locks its memory (mlockall), so a
# thread's default 8 MiB stack would be resident in full.
# Also: `pfc show` prints the agent's --busy-poll, and reads the state of
# an agent of the release before (version 5, without it).
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/pfc_lib.sh"
require_root
require_cmd python3

J() { python3 -c "import json; d=json.load(open('$TGR_TMP/$1.json')); print($2)"; }
agent_pid() { cat "$PFC_DIR/$1/pid"; }
# Voluntary context switches of a process: one per wake-up from epoll.
wakeups() { awk '/^voluntary_ctxt_switches/ { print $2 }' "/proc/$1/status"; }
# Wait (at most 10 s) until NODE's agent sleeps.
wait_asleep() {
	for _ in $(seq 100); do
		[ "$(pfc_json "$1" "d['idle'] and d['idle']['asleep']")" = True ] && return 0
		sleep 0.1
	done
	return 1
}

pfc_line
pfc_agent h1 p=h1-sw1 --cpu-latency none
pfc_agent sw1 p1=sw1-h1 p2=sw1-sw2 --cpu-latency none --busy-poll 500
pfc_agent sw2 p1=sw2-sw1 p2=sw2-h2@20mbit --cpu-latency none
pfc_agent h2 p=h2-sw2 --cpu-latency none

for n in h1 sw1 sw2 h2; do
	check "$n's agent goes to sleep once idle" wait_asleep "$n"
done
pid=$(agent_pid sw1)
w0=$(wakeups "$pid")
sleep 2
w1=$(wakeups "$pid")
echo "sw1's agent woke $((w1 - w0)) times in 2 s asleep"
check "... and stays asleep: at most 5 wake-ups in 2 s (a tick every 50 ms is 40)" \
	[ $((w1 - w0)) -le 5 ]
rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
echo "sw1's agent keeps $rss KiB resident"
check "... in at most 16 MiB: locked memory (mlockall) must not lock 8 MiB thread stacks" \
	[ "$rss" -le 16384 ]
pfc_show sw1 >"$TGR_TMP/sw1-idle.json"
check "show says so (idle.asleep) and counts the ticks" \
	[ "$(J sw1-idle "d['idle']['asleep'] and d['idle']['ticks'] > 0")" = True ]

check "show -j gives the busy-poll setting (500 on sw1, 2000 by default)" \
	[ "$(J sw1-idle "d['busy_poll_us']") $(pfc_json sw2 "d['busy_poll_us']")" = "500 2000" ]
check "plain show prints it" grep -q "busy-poll 500 us" <<<"$(ns_exec sw1 "$TAGGER" pfc show sw1)"

# Traffic while every agent sleeps: the first packet wakes them.
pfc_flow 3 60
for n in sw1 sw2; do pfc_show "$n" >"$TGR_TMP/$n.json"; done
echo "lossless sent $(pfc_sent) got $(pfc_got)"
check "every lossless packet arrived" [ "$(pfc_sent)" -gt 1000 -a "$(pfc_got)" = "$(pfc_sent)" ]
check "sw2 crossed XOFF and paused sw1" \
	[ "$(J sw2 "d['ports'][0]['prios'][3]['xoff_crossings'] > 0 and d['ports'][0]['prios'][3]['pfc_tx'] > 0")" = True ]
check "... and resumed it (quanta 0 sent)" \
	[ "$(J sw2 "d['ports'][0]['prios'][3]['pfc_tx_resume'] > 0")" = True ]
check "sw1 closed its gate on sw2's PAUSE" \
	[ "$(J sw1 "d['ports'][1]['prios'][3]['pauses'] > 0")" = True ]
check "the agents woke up for it (sleeps ended)" \
	[ "$(J sw2 "d['idle']['sleeps'] > 0")" = True ]
check "no lossless drop on sw1, sw2" \
	[ "$(J sw1 "d['totals']['lossless_drops']")$(J sw2 "d['totals']['lossless_drops']")" = 00 ]
for n in sw1 sw2; do
	check "$n goes back to sleep after the traffic" wait_asleep "$n"
done
pfc_show sw2 >"$TGR_TMP/sw2-after.json"
check "... with nothing buffered and no PAUSE in force" \
	[ "$(J sw2-after "d['totals']['buffered_bytes'] == 0 and not any(p['xoff'] for x in d['ports'] for p in x['prios'])")" = True ]

# A PAUSE into sleeping sw2 (1.7 s at 20 Mbit/s), a flow held behind it:
# the gate closes, the watchdog (200 ms) fires, the gate reopens.
check "sw2 sleeps before the PAUSE" wait_asleep sw2
ns_exec h2 "$TAGGER" pfc send h2-sw2 3 65535 >/dev/null || fail "pfc send"
ns_exec h1 python3 "$TRAFFIC" send 10.61.3.2 5001 24 10 1 >/dev/null &
spid=$!
bg_track $spid
for _ in $(seq 30); do
	pfc_show sw2 >"$TGR_TMP/sw2-wd.json"
	[ "$(J sw2-wd "d['watchdog']['events']")" != 0 ] && break
	sleep 0.1
done
wait $spid
J sw2-wd "d['watchdog'], d['ports'][1]['prios'][3]"
check "sw2's gate toward h2 closed on the PAUSE" \
	[ "$(J sw2-wd "d['ports'][1]['prios'][3]['pauses'] > 0")" = True ]
check "the watchdog saw the held queue" [ "$(J sw2-wd "d['watchdog']['events'] > 0")" = True ]
check "sw2 goes back to sleep once the gate reopened" wait_asleep sw2
check "... with no gate closed" \
	[ "$(pfc_json sw2 "sum(p['paused'] for x in d['ports'] for p in x['prios'])")" = 0 ]

# Killed while asleep: the standby takes over and sleeps in turn.
check "sw1 sleeps before the kill" wait_asleep sw1
kill -9 "$(agent_pid sw1)"
for _ in $(seq 100); do
	[ "$(pfc_json sw1 "d['takeovers']")" = 1 ] && break
	sleep 0.1
done
check "sw1's standby took over" [ "$(pfc_json sw1 "d['takeovers']")" = 1 ]
check "... and goes to sleep" wait_asleep sw1
pfc_flow 2 60
pfc_show sw1 >"$TGR_TMP/sw1-after.json"
check "after the takeover sw1 still pauses h1 and loses nothing" \
	[ "$(J sw1-after "d['ports'][0]['prios'][3]['pfc_tx'] > 0 and d['totals']['lossless_drops'] == 0")" = True ]
check "every lossless packet arrived" [ "$(pfc_got)" = "$(pfc_sent)" ]

for n in h1 sw1 sw2 h2; do ns_exec "$n" "$TAGGER" pfc stop "$n" || fail "stop $n"; done

# The state of an agent of a release before: version 5 ended before
# busy_poll_us, asleep, ticks, sleeps and the netlink counters (48 bytes),
# and the heartbeats of version 7 (64 bytes, pfc_standby.h), the ECN
# settings and counters of version 8 (4264 bytes) and the storm watchdog
# of version 9 (24584 bytes, pfc_storm.h) follow them.
python3 - "$PFC_DIR/sw1/state" <<'PY'
import os, struct, sys
with open(sys.argv[1], "r+b") as f:
    f.seek(4); f.write(struct.pack("<I", 5))
    f.truncate(os.path.getsize(sys.argv[1]) - 48 - 64 - 4264 - 24584)
PY
pfc_show sw1 >"$TGR_TMP/sw1-v5.json" || fail "show of a version 5 state"
check "a version 5 state shows: busy_poll_us and idle null" \
	[ "$(J sw1-v5 "d['status'], d['busy_poll_us'], d['idle'], d['netlink'], len(d['ports'])")" = "stopped None None None 2" ]
check "... plain: busy-poll unknown" \
	grep -q "busy-poll unknown" <<<"$(ns_exec sw1 "$TAGGER" pfc show sw1)"
