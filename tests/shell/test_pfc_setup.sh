#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A pause agent's start that fails leaves nothing behind (queues, programs,
# offloads, state), exits 2 (bad input) or 3 (runtime) with an Error: line,
# and the next start works; its state directories are trusted; a restart
# that does not adopt counts the packets it drops. Two namespaces a and b:
# a's va and vc, b's vb and vd, veth pairs va-vb and vc-vd.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/pfc_lib.sh"
require_root
require_cmd python3
require_cmd ethtool
require_cmd unshare

ns_new a
ns_new b
ip link add va netns "$(ns_name a)" type veth peer name vb netns "$(ns_name b)"
ip link add vc netns "$(ns_name a)" type veth peer name vd netns "$(ns_name b)"
for i in va vc; do ns_exec a ip link set "$i" up; done
for i in vb vd; do ns_exec b ip link set "$i" up; done
ns_exec a ip addr add 10.63.1.1/24 dev va
ns_exec b ip addr add 10.63.1.2/24 dev vb
mkdir -p "$PFC_DIR"
chmod 700 "$PFC_DIR"

not_grep() { ! grep -q "$@"; }
pfc_json_a() {
	ip netns exec "$(ns_name a)" "$TAGGER" -j pfc show x |
		python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"
}
offloads() { ns_exec a ethtool -k "$1" | grep -E '^(generic|tcp-seg)[a-z-]*offload:' | tr -d ' ' | tr '\n' ' '; }
va_off=$(offloads va)
vc_off=$(offloads vc)
root_kind() { ns_exec a tc qdisc show dev "$1" root | awk '{print $2; exit}'; }
our_filters() { ns_exec a tc filter show dev "$1" "$2" | grep -c 'pref 49152' || true; }
# Nothing of an agent is left on va and vc: no root qdisc of ours, no
# programs of ours, offloads as before.
nothing_left() {
	check "$1: no queues left on va" [ "$(root_kind va)" = noqueue ]
	check "$1: no pause programs left on va" [ "$(our_filters va ingress)$(our_filters va egress)" = 00 ]
	check "$1: va's offloads as before" [ "$(offloads va)" = "$va_off" ]
	check "$1: vc's offloads as before" [ "$(offloads vc)" = "$vc_off" ]
}
# run_agent LOG ARGS...: a start expected to fail; prints its exit code.
run_agent() {
	local log=$1 rc=0; shift
	timeout -s KILL 60 ip netns exec "$(ns_name a)" "$TAGGER" -v pfc agent x "$@" \
		--cpu-latency none --busy-poll 0 >"$TGR_TMP/$log" 2>&1 || rc=$?
	echo "$rc"
}
# A start that works: published, then stopped by `pfc stop` (exit 0).
start_stop() {
	pfc_agent_a x "$@"
	check "$1...: pfc stop after a good start exits 0" \
		ip netns exec "$(ns_name a)" "$TAGGER" pfc stop x
	wait "$agent_pid"
}
pfc_agent_a() {
	local n=$1; shift
	rm -f "$PFC_DIR/$n/pid"
	ip netns exec "$(ns_name a)" setsid "$TAGGER" -v pfc agent "$n" "$@" \
		--cpu-latency none --busy-poll 0 >"$TGR_TMP/agent-a.log" 2>&1 &
	agent_pid=$!
	bg_track $agent_pid
	for _ in $(seq 200); do
		[ -s "$PFC_DIR/$n/pid" ] && return 0
		sleep 0.1
	done
	cat "$TGR_TMP/agent-a.log" >&2
	fail "agent $n did not start"
}

# show and stop of a node that never ran: bad input, not "a problem found".
for cmd in show stop; do
	rc=0
	ns_exec a "$TAGGER" pfc "$cmd" never >/dev/null 2>&1 || rc=$?
	check "pfc $cmd of a node that never ran: exit 2 (got $rc)" [ "$rc" = 2 ]
done

# L5: the second port has a root qdisc already: the first is set up, then
# the second fails. Everything on the first is undone.
ns_exec a tc qdisc add dev vc root handle 1: htb default 0
rc=$(run_agent l5.log p1=va p2=vc)
check "a start failing at its second port exits 3 (got $rc)" [ "$rc" = 3 ]
check "... with an Error: line naming the port" grep -q '^Error: .*vc' "$TGR_TMP/l5.log"
nothing_left "failed at the second port"
check "... and vc's own qdisc is left alone" [ "$(root_kind vc)" = htb ]
rc=0
ns_exec a "$TAGGER" pfc stop x >"$TGR_TMP/l5-stop.log" 2>&1 || rc=$?
check "pfc stop after the failed start exits 0 (got $rc)" [ "$rc" = 0 ]
check "... without 'no pause agent state'" \
	not_grep "no pause agent state" "$TGR_TMP/l5-stop.log"
ns_exec a tc qdisc del dev vc root
start_stop p1=va p2=vc
nothing_left "stopped after the failed start"

# Rates the kernel's shaper cannot take: refused before anything is done.
for r in 8bit 1bit; do
	rc=$(run_agent rate.log p=va --rate "$r")
	check "--rate $r is refused as bad input (exit 2, got $rc)" [ "$rc" = 2 ]
	check "... saying why" grep -q "^Error: .*rate" "$TGR_TMP/rate.log"
	nothing_left "--rate $r"
	rc=$(run_agent rate.log p=va@"$r")
	check "p=va@$r is refused as bad input (exit 2, got $rc)" [ "$rc" = 2 ]
done

# L6: out of file descriptors, wherever that happens: exit 3 with an
# Error: line and nothing left, or a good run (stopped by the timeout).
for n in $(seq 8 27); do
	rc=0
	bash -c "ulimit -n $n; exec timeout -s TERM 5 ip netns exec $(ns_name a) \
		$TAGGER -v pfc agent x p=va --cpu-latency none --busy-poll 0" \
		>"$TGR_TMP/fd.log" 2>&1 || rc=$?
	if [ "$rc" != 124 ]; then
		check "ulimit -n $n: exit 3 (got $rc)" [ "$rc" = 3 ]
		check "ulimit -n $n: an Error: line" grep -q '^Error: ' "$TGR_TMP/fd.log"
	fi
	nothing_left "ulimit -n $n"
done
start_stop p=va

# L4: no space for the state file (a full tmpfs over a private state dir,
# in a private mount namespace): exit 3 with a message, nothing left.
full=$TGR_TMP/full
mkdir -m 700 "$full"
rc=0
unshare -m --propagation private bash -c "
	mount -t tmpfs -o size=64k,mode=0700 tmpfs '$full' || exit 99
	dd if=/dev/zero of='$full/fill' bs=4k count=100 2>/dev/null
	TAGGER_PFC_DIR='$full/pfc' exec ip netns exec $(ns_name a) \
		$TAGGER -v pfc agent x p=va --cpu-latency none --busy-poll 0" \
	>"$TGR_TMP/full.log" 2>&1 || rc=$?
[ "$rc" = 99 ] && skip "cannot mount a tmpfs"
check "a full state file system: exit 3 (got $rc)" [ "$rc" = 3 ]
check "... with an Error: line" grep -q '^Error: .*No space' "$TGR_TMP/full.log"
nothing_left "full state file system"
start_stop p=va

# L3: a state root another user could write to is refused, both a
# TAGGER_PFC_DIR under such a directory and /run/tagger itself.
open=$TGR_TMP/open
mkdir -m 777 "$open"
chown 65534:65534 "$open"
rc=0
TAGGER_PFC_DIR=$open/pfc timeout -s TERM 10 ip netns exec "$(ns_name a)" \
	"$TAGGER" pfc agent x p=va --cpu-latency none --busy-poll 0 \
	>"$TGR_TMP/l3.log" 2>&1 || rc=$?
check "TAGGER_PFC_DIR under a directory of another user: refused (exit 2, got $rc)" [ "$rc" = 2 ]
check "... saying why" grep -q '^Error: .*open' "$TGR_TMP/l3.log"
nothing_left "untrusted TAGGER_PFC_DIR"
rc=0
unshare -m --propagation private bash -c "
	mkdir -p /run/tagger
	mount -t tmpfs -o size=4m,mode=0777,uid=65534 tmpfs /run/tagger || exit 99
	unset TAGGER_PFC_DIR
	exec timeout -s TERM 5 ip netns exec $(ns_name a) \
		$TAGGER pfc agent x p=va --cpu-latency none --busy-poll 0" \
	>"$TGR_TMP/l3run.log" 2>&1 || rc=$?
[ "$rc" = 99 ] && skip "cannot mount a tmpfs"
check "/run/tagger of another user, 0777: refused (exit 2, got $rc)" [ "$rc" = 2 ]
check "... saying why" grep -q '^Error: .*/run/tagger' "$TGR_TMP/l3run.log"
nothing_left "untrusted /run/tagger"

# Killed (with its standby) at any moment of its start: `pfc stop` removes
# what it left, from the record written before the first port is touched.
start_stop p1=va p2=vc
for d in 0 0.001 0.002 0.003 0.004 0.005 0.007 0.01 0.015 0.02 0.03 0.05 0.08 0.12 0.2 0.3 0.5; do
	ip netns exec "$(ns_name a)" setsid "$TAGGER" pfc agent x p1=va p2=vc \
		--cpu-latency none --busy-poll 0 >"$TGR_TMP/killed.log" 2>&1 &
	kpid=$!
	sleep "$d"
	kill -9 -- "-$kpid" 2>/dev/null || kill -9 "$kpid"
	wait "$kpid" 2>/dev/null
	while pgrep -g "$kpid" >/dev/null; do sleep 0.05; done
	rc=0
	ns_exec a "$TAGGER" pfc stop x >"$TGR_TMP/killed-stop.log" 2>&1 || rc=$?
	check "killed after ${d}s: pfc stop exits 0 (got $rc: $(head -c 300 "$TGR_TMP/killed-stop.log"))" [ "$rc" = 0 ]
	check "... and says no error" not_grep -e Error -e libbpf "$TGR_TMP/killed-stop.log"
	nothing_left "killed after ${d}s"
	check "killed after ${d}s: no queues left on vc" [ "$(root_kind vc)" = noqueue ]
done
start_stop p1=va p2=vc

# P4: packets queued behind a closed gate when the agent and its standby
# die; the next agent has other arguments (it does not adopt). Every
# datagram sent is received or counted as dropped by the restart.
pfc_agent_a x p=va
ns_exec b python3 "$TRAFFIC" recv 5001 4 >"$TGR_TMP/p4-recv.json" 2>"$TGR_TMP/p4-recv.err" &
rpid=$!
for _ in $(seq 50); do grep -qs ready "$TGR_TMP/p4-recv.err" && break; sleep 0.1; done
# b pauses priority 3 on va, refreshed until the old agent is gone.
ns_exec b bash -c "while :; do $TAGGER pfc send vb 3 65535; sleep 0.05; done" &
ppid=$!
bg_track $ppid
for _ in $(seq 100); do
	[ "$(pfc_json_a "d['ports'][0]['prios'][3]['paused']")" = True ] && break
	sleep 0.05
done
check "va's priority 3 is paused" [ "$(pfc_json_a "d['ports'][0]['prios'][3]['paused']")" = True ]
ns_exec a python3 "$TRAFFIC" send 10.63.1.2 5001 24 0.5 1 1000 >"$TGR_TMP/p4-send.json"
queued=$(ns_exec a tc -s qdisc show dev va | awk '/^qdisc tbf 23:/{f=1} f && /backlog/{print $3; exit}' | tr -d p)
check "packets are queued behind the closed gate ($queued)" [ "${queued:-0}" -gt 0 ]
pg=$(ps -o pgid= -p "$(cat "$PFC_DIR/x/pid")" | tr -d ' ')
kill -9 -- "-$pg"
while pgrep -g "$pg" >/dev/null; do sleep 0.05; done
wait "$agent_pid" 2>/dev/null
kill "$ppid"
wait "$ppid" 2>/dev/null
pfc_agent_a x p=va --lossless 3
check "the restart did not adopt" grep -q "not adopting" "$TGR_TMP/agent-a.log"
wait "$rpid"
sent=$(python3 -c "import json; print(json.load(open('$TGR_TMP/p4-send.json'))['sent'])")
got=$(python3 -c "import json; print(json.load(open('$TGR_TMP/p4-recv.json')).get('5001', {}).get('received', 0))")
dropped=$(pfc_json_a "d['totals']['leftover_drops']")
echo "P4: sent $sent, received $got, queued at the kill $queued, counted as leftover drops $dropped"
check "every datagram is received or counted ($sent = $got + $dropped)" \
	[ "$sent" = $((got + dropped)) ]
check "... per queue: va priority 3 counts them" \
	[ "$(pfc_json_a "d['ports'][0]['prios'][3]['leftover_drops']")" = "$dropped" ]
check "... and the metrics say so" \
	bash -c "ip netns exec $(ns_name a) $TAGGER metrics show --pfc x 2>/dev/null | grep -q '^tagger_pfc_leftover_drops_total{.*priority=\"3\".*} $dropped'"

# The same, but `pfc stop` cleans up after the dead agent: it counts them
# (on top of the restart's, which the new agent carried on).
ns_exec b python3 "$TRAFFIC" recv 5001 3 >"$TGR_TMP/p4-recv.json" 2>"$TGR_TMP/p4-recv.err" &
rpid=$!
for _ in $(seq 50); do grep -qs ready "$TGR_TMP/p4-recv.err" && break; sleep 0.1; done
ns_exec b bash -c "while :; do $TAGGER pfc send vb 3 65535; sleep 0.05; done" &
ppid=$!
bg_track $ppid
for _ in $(seq 100); do
	[ "$(pfc_json_a "d['ports'][0]['prios'][3]['paused']")" = True ] && break
	sleep 0.05
done
had=$(pfc_json_a "d['ports'][0]['prios'][3]['leftover_drops']")
ns_exec a python3 "$TRAFFIC" send 10.63.1.2 5001 24 0.5 1 1000 >"$TGR_TMP/p4-send.json"
pg=$(ps -o pgid= -p "$(cat "$PFC_DIR/x/pid")" | tr -d ' ')
kill -9 -- "-$pg"
while pgrep -g "$pg" >/dev/null; do sleep 0.05; done
wait "$agent_pid" 2>/dev/null
kill "$ppid"
wait "$ppid" 2>/dev/null
queued=$(ns_exec a tc -s qdisc show dev va | awk '/^qdisc tbf 23:/{f=1} f && /backlog/{print $3; exit}' | tr -d p)
check "packets are queued in the dead agent's queue ($queued)" [ "${queued:-0}" -gt 0 ]
check "pfc stop cleans up after the dead agent" ns_exec a "$TAGGER" pfc stop x
wait "$rpid"
sent=$(python3 -c "import json; print(json.load(open('$TGR_TMP/p4-send.json'))['sent'])")
got=$(python3 -c "import json; print(json.load(open('$TGR_TMP/p4-recv.json')).get('5001', {}).get('received', 0))")
dropped=$(($(pfc_json_a "d['ports'][0]['prios'][3]['leftover_drops']") - had))
echo "stop: sent $sent, received $got, queued at the kill $queued, leftover drops $dropped"
check "every datagram is received or counted by stop ($sent = $got + $dropped)" \
	[ "$sent" = $((got + dropped)) ]
check "... and show of the stopped node says so in the lossless drops" \
	[ "$(pfc_json_a "d['status'], d['totals']['lossless_drops'] >= $dropped")" = "stopped True" ]
nothing_left "after the restart test"
