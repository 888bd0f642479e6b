#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Reproduction, not in `make test` (intermittent): the pause agents of sw1
# and sw2 stopped and started again, 6 times, while a 60 Mbit/s lossless
# flow runs through the line into the 20 Mbit/s hop. Once the flow has
# stopped and drained, and a few lossy datagrams have gone through every
# queue, no lossless packet may be left queued and every buffer counter
# must be 0. On main (9c25880) sw2 kept phantom bytes in 2 of 6 runs
# (5,210 B; 2,084 B), as after the soak's non-adopting restarts.
#   bash tests/soak/soak_start_busy.sh
source "$(dirname "$0")/../lib.sh"
source "$TOP/tests/shell/pfc_lib.sh"
require_root
require_cmd python3

pfc_line
pfc_agent h1 p=h1-sw1 --cpu-latency none --busy-poll 0
pfc_agent h2 p=h2-sw2 --cpu-latency none --busy-poll 0
ROUNDS=6
# The flow lasts until every round is done (SIGTERM ends it), however slow
# the starts are on a loaded machine.
ns_exec h1 "$TAGGER" flow send 10.61.3.2 --port 5001 --rate 60 --dscp 24 \
	--seconds 600 -o "$TGR_TMP/send.json" 2>/dev/null &
spid=$!
bg_track $spid
sleep 0.5
for r in $(seq "$ROUNDS"); do
	pfc_agent sw1 p1=sw1-h1 p2=sw1-sw2 --cpu-latency none --busy-poll 0
	pfc_agent sw2 p1=sw2-sw1 p2=sw2-h2@20mbit --cpu-latency none --busy-poll 0
	# Until the new agents have counted the flow (they started under it).
	for _ in $(seq 100); do
		[ "$(pfc_json sw2 "d['ports'][0]['prios'][3]['packets']")" -gt 100 ] && break
		sleep 0.1
	done
	[ "$r" -lt "$ROUNDS" ] || break
	for n in sw1 sw2; do ns_exec "$n" "$TAGGER" pfc stop "$n" >/dev/null || fail "stop $n"; done
done
# $spid is the subshell of ns_exec: end the sender itself, by its command
# line among h1's processes.
for p in $(ip netns pids "$(ns_name h1)"); do
	tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -q "flow send" && kill -TERM "$p"
done
wait $spid
# Drained: sw2's 20 Mbit/s port empties a full buffer in well under 2 s.
# A queue whose gate reopened while no packet came after keeps its last
# packets until the next one (a TBF change does not reschedule the qdisc):
# a few lossy datagrams kick every queue, so what is left is phantom.
sleep 2
for n in sw1 sw2; do pfc_show "$n" >"$TGR_TMP/$n-stuck.json"; done
ns_exec h1 python3 "$TRAFFIC" send 10.61.3.2 9 0 1 0.3 >/dev/null
sleep 1
for n in sw1 sw2; do pfc_show "$n" >"$TGR_TMP/$n.json"; done
J() { python3 -c "import json; d=json.load(open('$TGR_TMP/$1.json')); print($2)"; }
Q="sum(p['queue_packets'] for x in d['ports'] for p in x['prios'])"
for n in sw1 sw2; do
	echo "$n: $(J "$n-stuck" "$Q") packets queued before the kick, $(J "$n" "$Q") after;" \
		"buffered $(J "$n" "d['totals']['buffered_bytes']") B, $(J "$n" "d['totals']['resyncs']") resyncs"
done
for n in sw1 sw2; do
	check "$n's queues are empty after the kick" [ "$(J "$n" "$Q")" = 0 ]
	check "$n's buffers are back to 0 after starts under traffic" \
		[ "$(J "$n" "d['totals']['buffered_bytes']")" = 0 ]
done
check "the last agents counted the flow" [ "$(J sw2 "d['ports'][0]['prios'][3]['packets']")" -gt 100 ]
