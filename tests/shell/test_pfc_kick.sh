#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A reopened gate's queue runs at once, with no new traffic to start it
# (the agent's kick, userspace/pfc/pfc_backend.c). Line h1 - sw1 - sw2 -
# h2, one agent, on sw1; sw2 has none, so what reaches sw2-sw1 is seen raw:
#   - a PAUSE from sw2 closes sw1's gate (priority 3) toward sw2, and a
#     short lossless burst from h1 waits behind it;
#   - the resume from sw2 opens it, the queue runs at once (the agent's
#     kick), and the whole burst reaches h2 though nothing else arrives;
#   - what the kick puts on the wire: one no-op PFC frame (no class
#     enabled), which the peer ignores; nothing else of sw1's.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/pfc_lib.sh"
require_root
require_cmd python3

J() { python3 -c "import json; d=json.load(open('$TGR_TMP/$1.json')); print($2)"; }
# PFC frames (ethertype 0x8808) received by DEV in NODE for SECONDS.
sniff() {
	ns_exec "$1" python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x8808))
s.bind((sys.argv[1], 0x8808))
s.settimeout(0.1)
print("ready", file=sys.stderr, flush=True)
n, end = 0, time.monotonic() + float(sys.argv[2])
while time.monotonic() < end:
    try:
        _, a = s.recvfrom(2048)
    except socket.timeout:
        continue
    n += a[2] != socket.PACKET_OUTGOING
print(n)' "$2" "$3"
}

pfc_line
# At 10 Mbit/s a PAUSE of 65535 quanta lasts 3.4 s: it holds throughout.
pfc_agent sw1 p1=sw1-h1 p2=sw1-sw2@10mbit --busy-poll 0

sniff sw2 sw2-sw1 6 >"$TGR_TMP/pfc-seen" 2>"$TGR_TMP/sniff.err" &
spid=$!
bg_track $spid
for _ in $(seq 50); do grep -q ready "$TGR_TMP/sniff.err" && break; sleep 0.1; done
ns_exec h2 python3 "$TRAFFIC" recv 5001 1.5 >"$TGR_TMP/recv.json" 2>"$TGR_TMP/recv.err" &
rpid=$!
bg_track $rpid
for _ in $(seq 50); do grep -q ready "$TGR_TMP/recv.err" && break; sleep 0.1; done

ns_exec sw2 "$TAGGER" pfc send sw2-sw1 3 65535 >/dev/null || fail "pfc send"
sleep 0.2
ns_exec h1 python3 "$TRAFFIC" send 10.61.3.2 5001 24 1 0.3 >"$TGR_TMP/send.json"
sleep 0.2
pfc_show sw1 >"$TGR_TMP/held.json"
ns_exec sw2 "$TAGGER" pfc send sw2-sw1 3 0 >/dev/null || fail "pfc send"
pfc_show sw1 >"$TGR_TMP/resumed.json"
wait $rpid
wait $spid
pfc_show sw1 >"$TGR_TMP/after.json"
sent=$(python3 -c "import json; print(json.load(open('$TGR_TMP/send.json'))['sent'])")
got=$(python3 -c "import json; print(json.load(open('$TGR_TMP/recv.json'))['5001']['received'])")
echo "burst of $sent, held $(J held "d['ports'][1]['prios'][3]['queue_packets']")," \
	"queued after the resume $(J resumed "d['ports'][1]['prios'][3]['queue_packets']"), arrived $got;" \
	"PFC frames from sw1 seen on sw2: $(cat "$TGR_TMP/pfc-seen")"
check "the PAUSE closed sw1's gate and held the burst" \
	[ "$(J held "d['ports'][1]['prios'][3]['paused'] and d['ports'][1]['prios'][3]['queue_packets'] > 5")" = True ]
check "the resume reopened it" [ "$(J after "d['ports'][1]['prios'][3]['paused']")" = False ]
# The agent handles the resume before the tick that `show` asks for, and
# its kick sends the first packets itself: fewer are queued by then.
# (Without a kick none leave: nothing else arrives to run the queue.)
check "the queue ran at once: fewer packets queued right after the resume" \
	[ "$(J resumed "d['ports'][1]['prios'][3]['queue_packets']")" -lt \
	"$(J held "d['ports'][1]['prios'][3]['queue_packets']")" ]
check "the whole burst arrived with nothing else to restart the queue" \
	[ "$sent" -gt 5 -a "$got" = "$sent" ]
check "the kick put one no-op PFC frame on the wire, no more" \
	[ "$(cat "$TGR_TMP/pfc-seen")" = 1 ]
