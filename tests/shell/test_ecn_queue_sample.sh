#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The buffer reader of `make bench BENCH=ecn_queue`
# (tests/bench/ecn_queue_sample.py) reads what the pause agent counts: in
# the line h1 -- sw1 -- sw2 -- h2, h2 pauses priority 3 of sw2 (33 s at
# the port's 1 Mbit/s), a lossless flow from h1 fills sw2's in-port buffer
# and stays there; the reader, given the agent's pid, finds its "pp" map
# and reads the same bytes as `tagger -j pfc show`; after the resume both
# say 0. A process without such a map is refused.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/pfc_lib.sh"
require_root
require_cmd python3
SAMPLE=$TOP/tests/bench/ecn_queue_sample.py

pfc_line
pfc_agent sw2 up=sw2-sw1 dn=sw2-h2@1mbit
pid=$(cat "$PFC_DIR/sw2/pid")
touch "$TGR_TMP/go"

# read: the reader's bytes of sw2's in-port "up" (slot 0), priority 3.
read_map() {
	python3 "$SAMPLE" "pid=$pid" 3 10 0.02 "$TGR_TMP/go" 0 2>/dev/null |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["slots"]["0"]["max"])'
}
shown() { pfc_json sw2 "d['ports'][0]['prios'][3]['buffered_bytes']"; }

# same_as_show: the reader and show agree (the recount may still move the
# counter right after traffic: look again, a bounded number of times).
same_as_show() {
	local a b
	for _ in $(seq 20); do
		a=$(read_map)
		b=$(shown)
		[ -n "$a" ] && [ "$a" = "$b" ] && [ "$(read_map)" = "$a" ] && {
			echo "$a"
			return 0
		}
		sleep 0.2
	done
	echo "reader $a, show $b" >&2
	return 1
}

ns_exec h2 "$TAGGER" pfc send h2-sw2 3 65535
ns_exec h1 python3 "$TRAFFIC" send 10.61.3.2 5001 24 2 0.5 >/dev/null
held=$(same_as_show) || fail "the reader and show disagree while paused"
check "the reader reads what show counts, paused ($held B)" [ "$held" -gt 0 ]
ns_exec h2 "$TAGGER" pfc send h2-sw2 3 0
for _ in $(seq 100); do [ "$(shown)" = 0 ] && break; sleep 0.2; done
check "after the resume, the reader reads 0 as show does" [ "$(same_as_show)" = 0 ]

out=$(python3 "$SAMPLE" "pid=$$" --id 2>&1) && fail "a process without a pp map: $out"
check "a process without a pp map is refused" grep -q "no pp map" <<<"$out"
id=$(python3 "$SAMPLE" "pid=$pid" --id) || fail "no map id"
check "the map's id names the same map" [ "$(python3 "$SAMPLE" "$id" --id)" = "$id" ]
