#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# An agent stuck in a netlink request keeps its PAUSEs refreshed (the
# keeper thread, userspace/pfc/pfc_keeper.h). sw2's agent is held 1.5 s in
# each request for its queue statistics (TAGGER_PFC_TEST_NETLINK_DELAY_MS,
# what another process holding the kernel's rtnl lock does to it) while a
# 60 Mbit/s lossless flow into its 20 Mbit/s port keeps it pausing sw1: a
# PAUSE lasts 335 ms at 100 Mbit/s, so the keeper must refresh it while
# the loop waits; the slow requests are counted and logged; nothing lost.
# (The bounded wait for an answer is the pfc_tc unit suite.)
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/pfc_lib.sh"
require_root
require_cmd python3

J() { python3 -c "import json; d=json.load(open('$TGR_TMP/$1.json')); print($2)"; }

pfc_line
pfc_agent h1 p=h1-sw1 --cpu-latency none
pfc_agent sw1 p1=sw1-h1 p2=sw1-sw2 --cpu-latency none
TAGGER_PFC_TEST_NETLINK_DELAY_MS=1500 \
	pfc_agent sw2 p1=sw2-sw1 p2=sw2-h2@20mbit --cpu-latency none
pfc_agent h2 p=h2-sw2 --cpu-latency none

ns_exec h2 python3 "$TRAFFIC" recv 5001 5 >"$TGR_TMP/recv.json" 2>"$TGR_TMP/recv.err" &
rpid=$!
bg_track $rpid
for _ in $(seq 50); do grep -q ready "$TGR_TMP/recv.err" && break; sleep 0.1; done
ns_exec h1 python3 "$TRAFFIC" send 10.61.3.2 5001 24 60 4 >"$TGR_TMP/send.json"
wait $rpid
pfc_show sw2 >"$TGR_TMP/sw2.json"
pfc_show sw1 >"$TGR_TMP/sw1.json"
sent=$(python3 -c "import json; print(json.load(open('$TGR_TMP/send.json'))['sent'])")
got=$(python3 -c "import json; print(json.load(open('$TGR_TMP/recv.json'))['5001']['received'])")
echo "lossless sent $sent got $got; sw2: $(J sw2 "d['netlink']")"
grep -h "netlink\|keeper" "$TGR_TMP/agent-sw2.log" | head -4

check "sw2 paused sw1" [ "$(J sw2 "d['ports'][0]['prios'][3]['xoff_crossings'] > 0")" = True ]
check "sw2's slow netlink requests were counted (over 1 s)" \
	[ "$(J sw2 "d['netlink']['slow'] > 0 and d['netlink']['max_ms'] >= 1000")" = True ]
check "... and logged" grep -q "netlink request (queue statistics) took" "$TGR_TMP/agent-sw2.log"
check "the keeper refreshed sw2's PAUSEs while its loop waited" \
	[ "$(J sw2 "d['netlink']['keeper_refreshes'] > 0")" = True ]
check "... and said so" grep -q "its keeper refreshes the PAUSEs" "$TGR_TMP/agent-sw2.log"
check "every lossless packet arrived" [ "$sent" -gt 100 -a "$got" = "$sent" ]
check "no lossless drop on sw1, sw2" \
	[ "$(J sw1 "d['totals']['lossless_drops']")$(J sw2 "d['totals']['lossless_drops']")" = 00 ]
check "sw1 and the others' netlink stayed fast" [ "$(J sw1 "d['netlink']['slow']")" -le 2 ]

for n in h1 sw1 sw2 h2; do ns_exec "$n" "$TAGGER" pfc stop "$n" || fail "stop $n"; done
