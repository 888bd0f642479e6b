#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Two switches in a line, the receiver's port slower than the sender:
#   h1 --100M-- sw1 --100M-- sw2 --20M-- h2
# A lossless flow (DSCP 24, priority 3) at 60 Mbit/s fills sw2, which
# pauses sw1, whose queue fills and pauses h1: zero lossless drops
# anywhere. A lossy flow (DSCP 8, priority 1) on the same links keeps
# flowing and drops when its queue is full. Afterwards every buffer
# counter returns to exactly zero. Also checks the watchdog stays quiet
# and that `pfc stop` removes everything.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/pfc_lib.sh"
require_root
require_cmd python3

pfc_line
# h1 opts out of the PM QoS CPU latency request the others hold.
pfc_agent h1 p=h1-sw1 --cpu-latency none
pfc_agent sw1 p1=sw1-h1 p2=sw1-sw2
pfc_agent sw2 p1=sw2-sw1 p2=sw2-h2@20mbit
pfc_agent h2 p=h2-sw2

ns_exec h2 python3 "$TRAFFIC" recv 5001,5002 3 >"$TGR_TMP/recv.json" \
	2>"$TGR_TMP/recv.err" &
rpid=$!
bg_track $rpid
for _ in $(seq 50); do grep -q ready "$TGR_TMP/recv.err" && break; sleep 0.1; done
ns_exec h1 python3 "$TRAFFIC" send 10.61.3.2 5001 24 60 4 >"$TGR_TMP/ll.json" &
spid=$!
ns_exec h1 python3 "$TRAFFIC" send 10.61.3.2 5002 8 30 4 >"$TGR_TMP/lossy.json"
wait $spid
# Mid-flow the downstream switch must have paused (checked after, by counters).
wait $rpid
cat "$TGR_TMP/ll.json" "$TGR_TMP/lossy.json" "$TGR_TMP/recv.json"
sent_ll=$(python3 -c "import json; print(json.load(open('$TGR_TMP/ll.json'))['sent'])")
sent_ly=$(python3 -c "import json; print(json.load(open('$TGR_TMP/lossy.json'))['sent'])")
got_ll=$(python3 -c "import json; print(json.load(open('$TGR_TMP/recv.json'))['5001']['received'])")
got_ly=$(python3 -c "import json; print(json.load(open('$TGR_TMP/recv.json'))['5002']['received'])")
echo "lossless sent $sent_ll got $got_ll; lossy sent $sent_ly got $got_ly"

for n in h1 sw1 sw2; do
	pfc_show "$n" > "$TGR_TMP/$n.json"
	ns_exec "$n" "$TAGGER" pfc show "$n"
done
grep -h watchdog "$TGR_TMP"/agent-*.log
J() { python3 -c "import json; d=json.load(open('$TGR_TMP/$1.json')); print($2)"; }

check "every lossless packet arrived" [ "$sent_ll" -gt 1000 -a "$got_ll" -eq "$sent_ll" ]
check "lossless drops are zero on h1, sw1, sw2" \
	[ "$(J h1 "d['totals']['lossless_drops']")$(J sw1 "d['totals']['lossless_drops']")$(J sw2 "d['totals']['lossless_drops']")" = 000 ]
check "sw2 paused sw1 (sw2 sent PAUSE on p1 prio 3)" \
	[ "$(J sw2 "d['ports'][0]['prios'][3]['pfc_tx']")" -gt 0 ]
check "sw2's XOFF PAUSEs left from BPF (the fast path)" \
	[ "$(J sw2 "d['ports'][0]['prios'][3]['pfc_tx_fast']")" -gt 0 ]
check "sw1 gated its p2 prio 3 (PAUSE received, gate closed)" \
	[ "$(J sw1 "d['ports'][1]['prios'][3]['pauses']")" -gt 0 ]
check "sw1 in turn paused h1 (PAUSE sent on p1 prio 3)" \
	[ "$(J sw1 "d['ports'][0]['prios'][3]['pfc_tx']")" -gt 0 ]
check "h1 gated its priority 3" [ "$(J h1 "d['ports'][0]['prios'][3]['pauses']")" -gt 0 ]
check "the lossy flow kept flowing" [ "$got_ly" -gt $((sent_ly / 10)) ]
check "the lossy flow dropped when its queue was full" \
	[ "$(J sw2 "d['totals']['lossy_drops']")" -gt 0 -a "$got_ly" -lt "$sent_ly" ]
check "lossy priority 1 was never paused" \
	[ "$(J sw1 "d['ports'][1]['prios'][1]['pauses'] + d['ports'][1]['prios'][1]['pfc_rx']")" -eq 0 ]
check "buffer accounting is back to exactly zero (sw1, sw2)" \
	[ "$(J sw1 "d['totals']['buffered_bytes']")$(J sw2 "d['totals']['buffered_bytes']")" = 00 ]
check "accounting saw the packets" [ "$(J sw2 "d['ports'][0]['prios'][3]['packets']")" -ge "$sent_ll" ]
check "sw2 saw sw1's flow resume after its XONs" \
	[ "$(J sw2 "d['ports'][0]['prios'][3]['resumes']")" -gt 0 ]
check "... at most once per XOFF, the wait measured" \
	[ "$(J sw2 "int(0 < (p := d['ports'][0]['prios'][3])['resumes'] <= p['xoff_crossings'] and 0 < p['resume_avg_us'] <= p['resume_max_us'])")" = 1 ]
if [ -w /dev/cpu_dma_latency ]; then
	check "sw1 holds its CPU latency request, h1 none" \
		[ "$(J sw1 "d['cpu_latency_us']") $(J h1 "d['cpu_latency_us']")" = "0 None" ]
else
	check "sw1 says it could not limit CPU latency" \
		[ "$(J sw1 "d['cpu_latency_us']")" = None ]
fi
check "no gate is left closed" \
	[ "$(J sw1 "sum(p['paused'] for x in d['ports'] for p in x['prios'])")" = 0 ]
check "the watchdog stayed quiet" [ "$(J sw1 "d['watchdog']['events']")" = 0 ]

# A failed link: while a flow runs, h2 pauses priority 3, so sw2's queue
# toward h2 fills; then that link goes down and flushes the queue. Those
# packets are lost with the link, counted apart: lossless drops stay 0.
# (The pause lasts 1.7 s at 20 Mbit/s: the link fails well within it.)
ns_exec h1 python3 "$TRAFFIC" send 10.61.3.2 5001 24 10 3 >/dev/null &
spid=$!
bg_track $spid
for _ in $(seq 50); do
	[ "$(pfc_json sw2 "d['ports'][0]['prios'][3]['packets']")" -gt "$sent_ll" ] && break
	sleep 0.1
done
ns_exec h2 "$TAGGER" pfc send h2-sw2 3 65535 >/dev/null || fail "pfc send"
sleep 0.3
pfc_show sw2 > "$TGR_TMP/sw2-held.json"
ns_exec sw2 ip link set sw2-h2 down
pfc_show sw2 > "$TGR_TMP/sw2-down.json"
ns_exec sw2 ip link set sw2-h2 up
wait $spid
check "the pause held packets in sw2's queue toward h2" \
	[ "$(J sw2-held "d['ports'][1]['prios'][3]['queue_packets']")" -gt 0 ]
check "packets queued for a failed link are counted as lost with it" \
	[ "$(J sw2-down "d['totals']['failure_drops']")" -gt 0 ]
check "... and not as lossless drops" \
	[ "$(J sw2-down "d['totals']['lossless_drops']")" = 0 ]

for n in h1 sw1 sw2 h2; do ns_exec "$n" "$TAGGER" pfc stop "$n" || fail "stop $n"; done
check "stop removed the qdiscs" [ -z "$(ns_exec sw1 tc qdisc show dev sw1-sw2 | grep htb)" ]
check "stop removed the filters" [ -z "$(ns_exec sw1 tc filter show dev sw1-sw2 ingress)" ]
