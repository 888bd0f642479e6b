#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A pause agent whose port is deleted (its veth peer's namespace deleted,
# `ip link del`) stops with exit 3 and says which port went, removing what
# it had on the others; its standby does not take over. Before, the agent
# went on without the port: asleep and silent, or, with bytes still
# counted in a buffer that could never drain, spinning at its real-time
# priority for good (one such agent took a CPU for 30 minutes).
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/pfc_lib.sh"
require_root
require_cmd python3

pfc_line
agent_pid() { cat "$PFC_DIR/$1/pid"; }
# The agent process, started by pfc_agent: its exit status once it ends.
ends_within() {
	local pid=$1 secs=$2
	for _ in $(seq $((secs * 10))); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.1
	done
	return 1
}

# 1. sw1's port toward sw2 is deleted under it.
pfc_agent sw1 p1=sw1-h1 p2=sw1-sw2 --busy-poll 0
job=$!
pid=$(agent_pid sw1)
standby=$(pfc_json sw1 'd["standby_pid"]')
ns_exec sw1 ip link del sw1-sw2
ends_within "$job" 5 || fail "sw1's agent still runs 5 s after its port sw1-sw2 went"
wait "$job"
rc=$?
[ $rc -eq 3 ] || fail "sw1's agent exited $rc, not 3 (a runtime failure)"
grep -q "port p2 (sw1-sw2) is gone" "$TGR_TMP/agent-sw1.log" ||
	fail "no message naming the port: $(cat "$TGR_TMP/agent-sw1.log")"
echo "ok: the agent (pid $pid) stopped with exit 3: $(grep -m1 'is gone' "$TGR_TMP/agent-sw1.log")"
[ "$standby" -gt 0 ] 2>/dev/null && ! ends_within "$standby" 3 &&
	fail "the standby (pid $standby) still runs"
echo "ok: the standby did not take over"
ns_exec sw1 tc qdisc show dev sw1-h1 | grep -q htb &&
	fail "the pause queues are left on sw1-h1: $(ns_exec sw1 tc qdisc show dev sw1-h1)"
echo "ok: nothing left on the other port"
out=$(ns_exec sw1 "$TAGGER" pfc show sw1 2>&1)
echo "$out" | grep -q "stopped" || fail "show after the stop: $out"
echo "ok: show says it stopped"

# 2. The port comes back: the agent starts again on it.
pfc_link sw1 sw2 10.61.2
pfc_agent sw1 p1=sw1-h1 p2=sw1-sw2 --busy-poll 0
echo "ok: a new agent starts once the port is back"
ns_exec sw1 "$TAGGER" pfc stop sw1 >/dev/null || fail "stop"

# 3. A whole neighbour namespace goes (both ends of h2's link vanish with
#    it): sw2's agent stops; deleting another interface of sw2 that is no
#    port of the agent stops nothing.
pfc_agent sw2 p1=sw2-sw1 p2=sw2-h2 --busy-poll 0
job=$!
ns_exec sw2 ip link add zz0 type veth peer name zz1 || fail "veth zz0"
ns_exec sw2 ip link del zz0
sleep 1
kill -0 "$job" 2>/dev/null || fail "sw2's agent stopped for an interface that is none of its ports"
echo "ok: another interface's deletion changes nothing"
ip netns del "$(ns_name h2)"
ends_within "$job" 5 || fail "sw2's agent still runs 5 s after h2's namespace went"
wait "$job"
rc=$?
[ $rc -eq 3 ] || fail "sw2's agent exited $rc, not 3"
echo "ok: h2's namespace deleted: sw2's agent stopped with exit 3"
