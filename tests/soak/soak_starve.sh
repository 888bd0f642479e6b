#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A pause agent starved of CPU, not stopped: the soak lab's line, the
# flows into the 20 Mbit/s hop, and once sw1's gate toward sw2 is closed,
# sw1's agent (all its threads) pinned to one CPU where a SCHED_FIFO busy
# loop above the agent's real-time priority runs for STARVE_MS (default
# 1000). Prints sent/received and the counters that rose: the "stall of
# about 1 s" of the bench notes, reproduced without SIGSTOP.
#   STARVE_MS=1000 bash tests/soak/soak_starve.sh
source "$(dirname "$0")/../lib.sh"
source "$TOP/tests/shell/pfc_lib.sh"
source "$TOP/tests/soak/soak_lab.sh"
source "$TOP/tests/soak/soak_events.sh"
require_root
require_cmd chrt
require_cmd taskset
STARVE_MS=${STARVE_MS:-1000}
case $STARVE_MS in '' | *[!0-9]*) echo "STARVE_MS: a whole number" >&2; exit 2 ;; esac
[ "$STARVE_MS" -le 5000 ] || { echo "STARVE_MS: at most 5000" >&2; exit 2; }
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs (one starved)"
SOAK_DIR=${SOAK_OUT:-$TGR_TMP/out}
mkdir -p "$SOAK_DIR"
soak_bpffs_up
soak_rules "$SOAK_DIR" >/dev/null
pfc_line
soak_dataplane_up
for n in h1 sw1 sw2 h2; do soak_agent "$n" || fail "agent $n did not start"; done
T0=$EPOCHREALTIME
echo "$T0" >"$SOAK_DIR/t0"
soak_sample_all
soak_udp_counters >"$SOAK_DIR/udp-start.txt"
ns_exec h2 "$TAGGER" flow recv --port "$SOAK_PORT" --interval 1000 --seconds 16 \
	-o "$SOAK_DIR/recv.jsonl" 2>/dev/null &
rpid=$!
for _ in $(seq 100); do
	ns_exec h2 ss -Hlun "sport = :$SOAK_PORT" | grep -q . && break
	sleep 0.1
done
spids=()
for k in 1 2 3; do
	ns_exec h1 "$TAGGER" flow send 10.61.3.2 --port "$SOAK_PORT" --id "$k" \
		--rate 20 --size 1000 --seconds 10 -o "$SOAK_DIR/send-$k.json" 2>/dev/null &
	spids+=($!)
done
sleep 2
until ns_exec sw1 tc qdisc show dev sw1-sw2 | grep -q 'rate 8bit'; do sleep 0.005; done
a=$(soak_pid sw1 agent)
taskset -a -p 1 "$a" >/dev/null || fail "cannot pin the agent"
soak_log starve "sw1 agent $a on CPU 0, SCHED_FIFO 50 hog ${STARVE_MS} ms"
# The hog ends itself: nothing else on CPU 0 (not even a timer process at
# its priority) gets to run while it spins.
taskset -c 0 chrt -f 50 python3 -c 'import sys, time
end = time.monotonic() + int(sys.argv[1]) / 1000
while time.monotonic() < end:
    pass' "$STARVE_MS"
soak_log fed "sw1 agent"
taskset -a -p 3 "$a" >/dev/null
for p in "${spids[@]}"; do wait "$p"; done
wait "$rpid"
soak_sample_all
soak_udp_counters >"$SOAK_DIR/udp-end.txt"
ns_exec sw1 "$TAGGER" pfc show sw1 | grep -E 'prio [12] lossless|drops [1-9]|totals'
python3 "$TOP/tests/soak/soak_account.py" "$SOAK_DIR" 3
