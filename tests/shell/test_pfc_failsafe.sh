#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The pause agent's state cannot be fooled: a reused pid, a command run in
# the wrong namespace, a second agent, a crash and a restart, hostile
# state directories and a user without rights. Line h1 - sw1 - sw2 - h2.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/pfc_lib.sh"
require_root
require_cmd python3
require_cmd setpriv

J() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }
htb_on() { ns_exec "$1" tc qdisc show dev "$2" | grep -q '^qdisc htb'; }
no_htb() { ! htb_on "$@"; }
agent_pid() { cat "$PFC_DIR/$1/pid" 2>/dev/null; }
# kill -9 NODE's agent and its standby (the whole process group).
crash_all() {
	local pid pg
	pid=$(agent_pid "$1")
	pg=$(ps -o pgid= -p "$pid" | tr -d ' ')
	kill -9 -- "-$pg"
	while pgrep -g "$pg" >/dev/null; do sleep 0.05; done
}
# kill -9 NODE's agent alone; prints the CLOCK_MONOTONIC ns of the kill.
crash_agent() {
	python3 -c "import os, time; t = time.monotonic_ns(); os.kill($(agent_pid "$1"), 9); print(t)"
}

pfc_line
pfc_agent h1 p=h1-sw1 --cpu-latency none
pfc_agent sw1 p1=sw1-h1 p2=sw1-sw2 --cpu-latency none
pfc_agent sw2 p1=sw2-sw1 p2=sw2-h2@20mbit --cpu-latency none
pfc_agent h2 p=h2-sw2 --cpu-latency none

check "state files are root's alone (dir 0700, files 0600)" \
	[ "$(stat -c %a "$PFC_DIR/sw1" "$PFC_DIR/sw1/state" "$PFC_DIR/sw1/lock" "$PFC_DIR/sw1/pid" | tr '\n' ' ')" = "700 600 600 600 " ]

# A second agent for a running node is refused without touching the first.
rc=0
ns_exec sw1 "$TAGGER" pfc agent sw1 p1=sw1-h1 p2=sw1-sw2 >"$TGR_TMP/dup.log" 2>&1 || rc=$?
check "a second agent for sw1 is refused (exit 2)" [ "$rc" = 2 ]
check "... saying one runs" grep -q "already running" "$TGR_TMP/dup.log"
check "... and the first agent's state is intact" \
	[ "$(pfc_show sw1 | J "d['status'], len(d['ports'])")" = "running 2" ]

# Another node name on the same ports: refused, saying why, sw1 untouched.
rc=0
ns_exec sw1 "$TAGGER" pfc agent other p1=sw1-h1 >"$TGR_TMP/other.log" 2>&1 || rc=$?
check "an agent of another name on sw1's ports is refused" [ "$rc" != 0 ]
check "... saying the port has another agent's queues" grep -q "pause queues of another agent" "$TGR_TMP/other.log"
check "... and sw1's queues are still there" htb_on sw1 sw1-h1

# Names that are path components are not node names.
for bad in .. .; do
	rc=0; ns_exec sw1 "$TAGGER" pfc agent "$bad" p=sw1-h1 2>/dev/null || rc=$?
	check "pfc agent \"$bad\" is refused (exit 2)" [ "$rc" = 2 ]
	rc=0; ns_exec sw1 "$TAGGER" pfc stop "$bad" 2>/dev/null || rc=$?
	check "pfc stop \"$bad\" is refused (exit 2)" [ "$rc" = 2 ]
done
check "nothing was written above the state dir" [ ! -e "$PFC_DIR/state" -a ! -e "$TGR_TMP/state" ]

# A user without rights is told so; nothing reports "stopped" or exits 0.
rc=0
out=$(ns_exec sw1 setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$TAGGER" pfc show sw1 2>&1) || rc=$?
check "non-root pfc show fails (exit $rc)" [ "$rc" != 0 ]
check "... saying why" grep -q "permission denied" <<<"$out"
rc=0
out=$(ns_exec sw1 setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$TAGGER" pfc stop sw1 2>&1) || rc=$?
check "non-root pfc stop fails (exit $rc)" [ "$rc" != 0 ]
check "... and sw1's agent still runs" [ "$(pfc_show sw1 | J "d['status']")" = running ]

# The wrong namespace: h2's agent dies; `pfc stop h2` typed in sw1 (whose
# sw1-sw2 has the ifindex that h2's port had) must not touch sw1.
h2if=$(ns_exec h2 cat /sys/class/net/h2-sw2/ifindex)
crash_all h2
rc=0
out=$(ns_exec sw1 "$TAGGER" pfc stop h2 2>&1) || rc=$?
check "pfc stop h2 in sw1's namespace is refused (exit 2)" [ "$rc" = 2 ]
check "... naming the other namespace" grep -q "another network namespace" <<<"$out"
check "... and sw1's queues are untouched" htb_on sw1 sw1-sw2
check "... (h2's port had ifindex $h2if; sw1's ports are still there)" htb_on sw1 sw1-h1
rc=0
out=$(ns_exec sw1 "$TAGGER" pfc show h2 2>&1) || rc=$?
check "pfc show h2 in sw1's namespace is refused too" [ "$rc" = 2 ]
out=$(ns_exec h2 "$TAGGER" pfc show h2 2>&1)
check "pfc show h2 in h2's namespace says the agent died" grep -q "DIED" <<<"$out"
check "... h2's queues are still there before stop" htb_on h2 h2-sw2

# A reused pid: the record names a pid that now belongs to someone else.
# (The record is rewritten to name an innocent process: what pid reuse does.)
ns_exec h2 sleep 300 &
innocent=$!
bg_track $innocent
python3 - "$PFC_DIR/h2/state" "$innocent" <<'EOF'
import struct, sys
with open(sys.argv[1], "r+b") as f:
    f.seek(12); f.write(struct.pack("<I", int(sys.argv[2])))
EOF
echo "$innocent" > "$PFC_DIR/h2/pid"
ns_exec h2 "$TAGGER" pfc show h2 >/dev/null 2>&1
check "pfc show does not signal the process that reused the pid" kill -0 "$innocent"
ns_exec h2 ethtool -K h2-sw2 gro on 2>/dev/null   # what the agent turned off stays off
ns_exec h2 "$TAGGER" pfc stop h2 >"$TGR_TMP/stop.log" 2>&1 || fail "stop h2: $(cat "$TGR_TMP/stop.log")"
check "pfc stop does not signal it either" kill -0 "$innocent"
check "pfc stop removed the dead agent's queues" no_htb h2 h2-sw2
check "... and its filters" [ -z "$(ns_exec h2 tc filter show dev h2-sw2 ingress)" ]
check "... and its pid file" [ ! -e "$PFC_DIR/h2/pid" ]
gso_on() { ns_exec h2 ethtool -k h2-sw2 | grep -q "generic-segmentation-offload: on"; }
check "... and restored GSO" gso_on
check "show then says stopped" [ "$(pfc_show h2 | J "d['status']")" = stopped ]
kill "$innocent"

# Both the agent and its standby killed while sw2's queue toward h2 holds
# packets behind a gate h2 closed; the same command started again, as a
# supervisor would, adopts the queues with their packets and the counters.
ns_exec h2 python3 "$TRAFFIC" recv 5001 6 >"$TGR_TMP/recv0.json" 2>"$TGR_TMP/recv0.err" &
rpid=$!
bg_track $rpid
for _ in $(seq 50); do grep -q ready "$TGR_TMP/recv0.err" && break; sleep 0.1; done
ns_exec h2 "$TAGGER" pfc send h2-sw2 3 65535 >/dev/null || fail "pfc send"
for _ in $(seq 100); do
	[ "$(pfc_json sw2 "d['ports'][1]['prios'][3]['paused']")" = True ] && break
	sleep 0.01
done
sent0=$(ns_exec h1 python3 "$TRAFFIC" send 10.61.3.2 5001 24 1 0.1 1000 | J "d['sent']")
sleep 0.1
held=$(pfc_json sw2 "d['ports'][1]['prios'][3]['queue_packets']")
before=$(pfc_json sw2 "d['ports'][0]['prios'][3]['packets']")
crash_all sw2
# While no agent runs, a lossless flood overflows sw2's closed queue: what
# is lost then is counted, by show and by the agent that adopts the node.
# sw2's BPF side keeps refreshing its PAUSE to sw1 without an agent
# (pfc_standby.h): the flood overflows it only if sw1 does not pause.
ns_exec sw1 "$TAGGER" pfc stop sw1 >/dev/null || fail "stop sw1"
ns_exec h1 python3 "$TRAFFIC" send 10.61.3.2 5002 24 60 1 >/dev/null
ns_exec sw2 "$TAGGER" -j pfc show sw2 >"$TGR_TMP/sw2-dead.json" 2>"$TGR_TMP/sw2-dead.err"
dead_drops=$(J "d['totals']['lossless_drops']" <"$TGR_TMP/sw2-dead.json")
check "show of the dead sw2 says so" [ "$(J "d['status']" <"$TGR_TMP/sw2-dead.json")" = died ]
check "... and counts the lossless packets lost meanwhile ($dead_drops)" [ "$dead_drops" -gt 0 ]
pfc_agent sw2 p1=sw2-sw1 p2=sw2-h2@20mbit --cpu-latency none
pfc_agent sw1 p1=sw1-h1 p2=sw1-sw2 --cpu-latency none
wait $rpid
got0=$(J "d['5001']['received']" <"$TGR_TMP/recv0.json")
echo "sw2 killed whole with $held of $sent0 packets held; restarted: $got0 arrived"
check "the pause held packets in sw2 when it was killed" [ "$held" -gt 0 ]
check "the restarted agent adopted sw2's queues" grep -q "adopting its queues" "$TGR_TMP/agent-sw2.log"
check "every packet held across the kill and restart arrived" [ "$got0" = "$sent0" ]
pfc_show sw2 >"$TGR_TMP/sw2-adopted.json"
check "the restarted agent of sw2 runs, one adoption" \
	[ "$(J "d['status'], d['adoptions']" <"$TGR_TMP/sw2-adopted.json")" = "running 1" ]
check "... which counts the losses of the time without an agent" \
	[ "$(J "d['totals']['lossless_drops']" <"$TGR_TMP/sw2-adopted.json")" -ge "$dead_drops" ]
check "... with the counters carried on ($before packets before)" \
	[ "$(J "d['ports'][0]['prios'][3]['packets']" <"$TGR_TMP/sw2-adopted.json")" -ge "$before" ]
check "... and the PAUSEs it had sent" \
	[ "$(J "d['ports'][0]['prios'][3]['pfc_tx'] + 1" <"$TGR_TMP/sw2-adopted.json")" -ge 1 ]
pfc_agent h2 p=h2-sw2 --cpu-latency none
ns_exec h2 python3 "$TRAFFIC" recv 5001 2 >"$TGR_TMP/recv.json" 2>"$TGR_TMP/recv.err" &
rpid=$!
bg_track $rpid
for _ in $(seq 50); do grep -q ready "$TGR_TMP/recv.err" && break; sleep 0.1; done
sent=$(ns_exec h1 python3 "$TRAFFIC" send 10.61.3.2 5001 24 60 2 | J "d['sent']")
wait $rpid
got=$(J "d['5001']['received']" <"$TGR_TMP/recv.json")
echo "after the restart: lossless sent $sent got $got"
check "after the restart the line is lossless again" [ "$sent" -gt 500 -a "$got" = "$sent" ]
check "sw2 paused sw1 again" [ "$(pfc_show sw2 | J "d['ports'][0]['prios'][3]['pfc_tx']")" -gt 0 ]

# The standby: kill -9 of an agent mid-flow (sw2, then sw1, whose gates
# close and open all the time under this load) loses no lossless packet.
drops_before=$(( $(pfc_json sw1 "d['totals']['lossless_drops']") + $(pfc_json sw2 "d['totals']['lossless_drops']") ))
ns_exec h2 python3 "$TRAFFIC" recv 5001 3 >"$TGR_TMP/recv2.json" 2>"$TGR_TMP/recv2.err" &
rpid=$!
bg_track $rpid
for _ in $(seq 50); do grep -q ready "$TGR_TMP/recv2.err" && break; sleep 0.1; done
ns_exec h1 python3 "$TRAFFIC" send 10.61.3.2 5001 24 60 4 >"$TGR_TMP/send2.json" &
spid=$!
bg_track $spid
sleep 1
k2=$(crash_agent sw2)
sleep 1
k1=$(crash_agent sw1)
wait $spid
wait $rpid
sent=$(J "d['sent']" <"$TGR_TMP/send2.json")
got=$(J "d['5001']['received']" <"$TGR_TMP/recv2.json")
echo "agents of sw2 and sw1 killed mid-flow: lossless sent $sent got $got"
for n in h1 sw1 sw2 h2; do
	ns_exec "$n" "$TAGGER" pfc show "$n" | grep -E "^node|totals"
done
for n in sw1 sw2; do
	pfc_show "$n" >"$TGR_TMP/$n-after.json"
	k=$([ "$n" = sw1 ] && echo "$k1" || echo "$k2")
	J "'$n: takeover noticed %.0f us after the kill, running %.0f us after' % ((d['takeover_noticed_ns'] - $k) / 1e3, (d['takeover_done_ns'] - $k) / 1e3)" <"$TGR_TMP/$n-after.json"
done
check "every lossless packet arrived across both kills" [ "$sent" -gt 1000 -a "$got" = "$sent" ]
check "sw1 and sw2 each had one takeover and run" \
	[ "$(cat "$TGR_TMP"/sw1-after.json "$TGR_TMP"/sw2-after.json | python3 -c "
import json, sys
print(' '.join('%s/%d' % (d['status'], d['takeovers']) for d in map(json.loads, sys.stdin)))")" = "running/1 running/1" ]
check "no lossless drop was added" \
	[ $(( $(J "d['totals']['lossless_drops']" <"$TGR_TMP/sw1-after.json") + $(J "d['totals']['lossless_drops']" <"$TGR_TMP/sw2-after.json") )) = "$drops_before" ]
check "sw2 kept pausing sw1 after its takeover" \
	[ "$(J "d['ports'][0]['prios'][3]['pfc_tx']" <"$TGR_TMP/sw2-after.json")" -gt 0 ]
check "the agents that took over have standbys again" \
	[ "$(J "d['standby_pid'] > 0" <"$TGR_TMP/sw1-after.json")" = True ]

# A kill while a gate is closed: h2 pauses sw2's queue toward it for a full
# quanta (65535 x 512 bit at 20 Mbit/s = 1.68 s); sw2's agent dies at once.
# The gate must open when that PAUSE expires (plus at most 1 s), not never.
ns_exec h2 "$TAGGER" pfc send h2-sw2 3 65535 >/dev/null || fail "pfc send"
for _ in $(seq 100); do
	[ "$(pfc_json sw2 "d['ports'][1]['prios'][3]['paused']")" = True ] && break
	sleep 0.01
done
check "h2's PAUSE closed sw2's gate" [ "$(pfc_json sw2 "d['ports'][1]['prios'][3]['paused']")" = True ]
kt=$(crash_agent sw2)
opened=""
for _ in $(seq 300); do
	if ! ns_exec sw2 tc qdisc show dev sw2-h2 | grep -q 'rate 8bit'; then
		opened=$(python3 -c "import time; print(time.monotonic_ns())")
		break
	fi
	sleep 0.01
done
check "the gate reopened after the agent was killed" [ -n "$opened" ]
ms=$(( (opened - kt) / 1000000 ))
echo "gate closed by a 1.68 s PAUSE, agent killed at once: open again ${ms} ms after the kill"
check "... within the PAUSE (1.68 s) plus 1 s" [ "$ms" -le 2680 ]

# A killed standby is replaced.
old=$(pfc_json sw1 "d['standby_pid']")
kill -9 "$old"
for _ in $(seq 100); do
	new=$(pfc_json sw1 "d['standby_pid']")
	[ "$new" != "$old" ] && [ "$new" != 0 ] && break
	sleep 0.02
done
check "a killed standby is replaced (was $old, now $new)" [ "$new" != "$old" -a "$new" != 0 ]

# Hostile state directories.
export TAGGER_PFC_DIR=$TGR_TMP/shared
mkdir -m 1777 "$TAGGER_PFC_DIR"
echo secret > "$TGR_TMP/victim"
chmod 600 "$TGR_TMP/victim"
mkdir "$TAGGER_PFC_DIR/x1" && chown 65534 "$TAGGER_PFC_DIR/x1"
rc=0; ns_exec sw1 timeout 5 "$TAGGER" pfc agent x1 p=sw1-h1 >"$TGR_TMP/x1.log" 2>&1 || rc=$?
check "a node dir owned by another user is refused" [ "$rc" != 0 ] && grep -q "owned by another user" "$TGR_TMP/x1.log"
mkdir -m 0777 "$TAGGER_PFC_DIR/x2"
rc=0; ns_exec sw1 timeout 5 "$TAGGER" pfc agent x2 p=sw1-h1 >"$TGR_TMP/x2.log" 2>&1 || rc=$?
check "a node dir writable by others is refused" [ "$rc" != 0 ] && grep -q "writable by other users" "$TGR_TMP/x2.log"
ln -s "$TGR_TMP" "$TAGGER_PFC_DIR/x3"
rc=0; ns_exec sw1 timeout 5 "$TAGGER" pfc agent x3 p=sw1-h1 >/dev/null 2>&1 || rc=$?
check "a node dir that is a symlink is refused" [ "$rc" != 0 ]
mkdir -m 0700 "$TAGGER_PFC_DIR/x4"
ln -s "$TGR_TMP/victim" "$TAGGER_PFC_DIR/x4/state"
rc=0; ns_exec sw1 timeout 5 "$TAGGER" pfc agent x4 p=sw1-h1 >/dev/null 2>&1 || rc=$?
check "a state file that is a symlink is refused" [ "$rc" != 0 ]
check "... and its target is untouched" [ "$(cat "$TGR_TMP/victim")" = secret ]
chmod 0777 "$TAGGER_PFC_DIR" && chmod -t "$TAGGER_PFC_DIR"
rc=0; ns_exec sw1 timeout 5 "$TAGGER" pfc agent x5 p=sw1-h1 >"$TGR_TMP/x5.log" 2>&1 || rc=$?
check "a base dir anyone may write to (not sticky) is refused" [ "$rc" != 0 ]
export TAGGER_PFC_DIR=$PFC_DIR

pg=$(ps -o pgid= -p "$(agent_pid sw1)" | tr -d ' ')
for n in h1 sw1 sw2 h2; do ns_exec "$n" "$TAGGER" pfc stop "$n" || fail "stop $n"; done
check "stop removed every qdisc" no_htb sw2 sw2-h2
ps -o pid,ppid,stat,comm -g "$pg" | tail -n +2
check "stop ended the agent and its standby" [ -z "$(ps -o stat= -g "$pg" | grep -v Z)" ]
