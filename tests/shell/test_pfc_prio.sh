#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Lossless transition, Tagger draft section 7.1: pausing priority 3 at a
# host pauses that priority hop by hop without a loss and does not slow
# priority 4 on the same ports.
#   h1 -- sw1 -- sw2 -- h2, all 100 Mbit/s; h1 sends 20 Mbit/s at DSCP 24
#   (priority 3) and 20 Mbit/s at DSCP 32 (priority 4); h2 pauses
#   priority 3 for 1.5 s with `tagger pfc send`, then resumes it.
# The PFC frames on the wire must decode as 802.1Qbb class-based flow
# control in tshark: captured where they arrive (frames sent with qdisc
# bypass do not pass the sender's capture taps), at h1 and at sw2's port
# to h2, with a filter that only copies MAC control frames.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/pfc_lib.sh"
require_root
require_cmd python3
require_cmd tcpdump
require_cmd tshark

# Bad option values are refused before anything is touched: exit 2, the
# option named.
for bad in "--cpu-latency soon" "--cpu-latency 2000000" "--rt-prio 100" "--quanta 0"; do
	"$TAGGER" pfc agent x p=lo $bad 2>"$TGR_TMP/bad.err"
	rc=$?
	check "pfc agent $bad: exit 2" [ $rc -eq 2 ]
	check "... says which option" grep -qE -- "^Error: ${bad%% *}(: bad value| wants )" "$TGR_TMP/bad.err"
done

pfc_line
pfc_agent h1 p=h1-sw1
pfc_agent sw1 p1=sw1-h1 p2=sw1-sw2
pfc_agent sw2 p1=sw2-sw1 p2=sw2-h2

dumps=()
capture() {
	# `ip netns exec` execs tcpdump: $! is tcpdump itself.
	ns_exec "$1" tcpdump -q -U -i "$2" -w "$TGR_TMP/$3.pcap" \
		ether proto 0x8808 2>/dev/null &
	bg_track $!
	dumps+=($!)
}
capture h1 h1-sw1 h1
capture sw2 sw2-h2 h2
ns_exec h2 python3 "$TRAFFIC" recv 5003,5004 3 >"$TGR_TMP/recv.json" \
	2>"$TGR_TMP/recv.err" &
rpid=$!
bg_track $rpid
for _ in $(seq 50); do grep -q ready "$TGR_TMP/recv.err" && break; sleep 0.1; done
sleep 0.5	# tcpdump is listening
ns_exec h1 python3 "$TRAFFIC" send 10.61.3.2 5003 24 20 3 >"$TGR_TMP/p3.json" &
s3=$!
ns_exec h1 python3 "$TRAFFIC" send 10.61.3.2 5004 32 20 3 >"$TGR_TMP/p4.json" &
s4=$!
sleep 0.5
# 65535 quanta are 335 ms at 100 Mbit/s: refresh every 150 ms for 1.5 s.
for _ in $(seq 10); do
	ns_exec h2 "$TAGGER" pfc send h2-sw2 3 65535 || fail "pfc send"
	sleep 0.15
done
ns_exec h2 "$TAGGER" pfc send h2-sw2 3 0
wait $s3 $s4
wait $rpid
cat "$TGR_TMP/p3.json" "$TGR_TMP/p4.json" "$TGR_TMP/recv.json"
for n in sw1 sw2; do pfc_show "$n" >"$TGR_TMP/$n.json"; done
ns_exec sw2 "$TAGGER" pfc show sw2
J() { python3 -c "import json; d=json.load(open('$TGR_TMP/$1.json')); print($2)"; }
R() { python3 -c "import json; print(json.load(open('$TGR_TMP/recv.json'))['$1']['$2'])"; }
S() { python3 -c "import json; print(json.load(open('$TGR_TMP/$1.json'))['$2'])"; }

check "priority 3: every packet arrived" [ "$(R 5003 received)" -eq "$(S p3 sent)" ]
check "priority 4: every packet arrived" [ "$(R 5004 received)" -eq "$(S p4 sent)" ]
check "priority 3 was paused at sw2 for over a second" \
	[ "$(J sw2 "int(d['ports'][1]['prios'][3]['paused_ms'])")" -ge 1000 ]
check "the pause went upstream: sw2 paused sw1, sw1 paused h1" \
	[ "$(J sw2 "d['ports'][0]['prios'][3]['pfc_tx']")" -gt 0 -a \
	  "$(J sw1 "d['ports'][0]['prios'][3]['pfc_tx']")" -gt 0 ]
check "priority 3 stopped at h2 for over a second" \
	python3 -c "import sys; sys.exit(not $(R 5003 max_gap_ms) >= 1000)"
check "priority 4 was never paused" \
	[ "$(J sw2 "d['ports'][1]['prios'][4]['pauses'] + d['ports'][1]['prios'][4]['pfc_rx']")" -eq 0 ]
check "priority 4 kept flowing (no silence over 100 ms) at its rate" \
	python3 -c "import sys; sys.exit(not ($(R 5004 max_gap_ms) < 100 and $(R 5004 mbit) >= 0.95 * $(S p4 mbit)))"
check "no lossless drops" \
	[ "$(J sw1 "d['totals']['lossless_drops']")$(J sw2 "d['totals']['lossless_drops']")" = 00 ]

sleep 0.5
kill -INT "${dumps[@]}" 2>/dev/null
sleep 0.5
fields="-T fields -e eth.dst -e macc.opcode -e macc.cbfc.enbv -e macc.cbfc.pause_time.c3"
tshark -r "$TGR_TMP/h2.pcap" $fields > "$TGR_TMP/h2.txt" 2>/dev/null
tshark -r "$TGR_TMP/h1.pcap" $fields > "$TGR_TMP/h1.txt" 2>/dev/null
head -3 "$TGR_TMP/h1.txt" "$TGR_TMP/h2.txt"
check "h2's frames decode as PFC pausing priority 3 for 65535 quanta" \
	grep -q "01:80:c2:00:00:01	0x0101	0x0008	65535" "$TGR_TMP/h2.txt"
check "h2's resume decodes as PFC with quanta 0" \
	grep -q "01:80:c2:00:00:01	0x0101	0x0008	0$" "$TGR_TMP/h2.txt"
check "sw1's PAUSE to h1 decodes as PFC on priority 3" \
	grep -q "01:80:c2:00:00:01	0x0101	0x0008	65535" "$TGR_TMP/h1.txt"
check "every captured frame is a well-formed PFC frame" \
	[ -z "$(tshark -r "$TGR_TMP/h1.pcap" -Y 'macc.opcode != 0x0101 || _ws.expert' 2>/dev/null)" ]
