#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Scenario 4 (Tagger draft 7.1): h3 pauses priority 2 from second 2 to 5.
# Flow 2, which A moves from priority 1 to 2, stops without losing a
# datagram and resumes; flow 1 (priority 1 throughout) keeps its rate.
source "$(dirname "$0")/../lab_lib.sh"
run_scenario transition tagger SC_AFTER=1.5

t=$(q transition '.modes.tagger.events[] | select(.event | startswith("pause")) | .t')
f1=$(mean_mbps transition tagger 1 "$(echo "$t + 0.7" | bc)" "$(echo "$t + 2.8" | bc)")
f2=$(mean_mbps transition tagger 2 "$(echo "$t + 0.7" | bc)" "$(echo "$t + 2.8" | bc)")
f2a=$(mean_mbps transition tagger 2 "$(echo "$t + 3.8" | bc)" "$(echo "$t + 4.8" | bc)")
echo "during the pause: flow 1 $f1 Mbit/s, flow 2 $f2 Mbit/s; after it flow 2 $f2a Mbit/s"
have_verdict transition tagger
check "no deadlock" [ "$(verdict transition tagger)" = false ]
check "flow 2 is paused" [ "$(echo "$f2 < 1" | bc)" = 1 ]
# Flows send 30 Mbit/s each (scenario default) on 100 Mbit/s links.
check "flow 1 is not" ge "$f1" 24
check "flow 2 resumes" ge "$f2a" 24
for id in 1 2; do
	check "flow $id lost nothing" [ "$(q transition ".modes.tagger.flows[] | select(.id == $id) | .lost")" = 0 ]
done
check "zero lossless drops" [ "$(q transition .modes.tagger.pfc.lossless_drops)" = 0 ]
check "the pause reached h2: A paused it" \
	[ "$(jq '[.ports[].prios[] | select(.prio == 1) | .pfc_rx] | add' "$OUT/transition/tagger/pfc-h2.json")" -gt 0 ]
