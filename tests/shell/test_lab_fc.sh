#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The Flattened Clos testbed under section 6.2's imbalanced allocation
# (8 flows at 60 Mbit/s). fc-ecmp: ECMP hashes the flows onto the v1p1
# links, closing S1->S2->S3->S4->S1: a deadlock without Tagger, none with
# it. fc-updown: the Flattened Clos up-down paths are CBD-free: no
# deadlock even without Tagger, and no lossless drop in either mode. A
# busy machine whose senders fall short may leave the cycle's links
# uncongested: no verdict without Tagger, the other claims still checked,
# and the test ends in a skip (lab_end).
source "$(dirname "$0")/../lab_lib.sh"
run_scenario fc-ecmp both
summary_lines fc-ecmp
check "fc-ecmp without Tagger: zero lossless drops" [ "$(q fc-ecmp .modes.plain.pfc.lossless_drops)" = 0 ]
if have_verdict fc-ecmp plain; then
	check "fc-ecmp without Tagger: deadlock" [ "$(verdict fc-ecmp plain)" = true ]
	check "fc-ecmp without Tagger: the cycle is S1 S2 S3 S4" \
		[ "$(q fc-ecmp '.modes.plain.verdict.cycle | sort | join(" ")')" = "S1 S2 S3 S4" ]
	check "fc-ecmp without Tagger: flows stopped for good while their senders sent" \
		[ "$(q fc-ecmp '.modes.plain | .window.to as $e | [.flows[] | select(.stalled_at != null and .stalled_at < $e)] | length')" -ge 4 ]
fi
have_verdict fc-ecmp tagger
check "fc-ecmp with Tagger: no deadlock" [ "$(verdict fc-ecmp tagger)" = false ]
check "fc-ecmp with Tagger: zero lossless drops" [ "$(q fc-ecmp .modes.tagger.pfc.lossless_drops)" = 0 ]
check "fc-ecmp with Tagger: every flow keeps flowing" \
	[ "$(q fc-ecmp '[.modes.tagger.flows[] | select((.after_mbps // 0) < 10 or .stalled_at != null)] | length')" = 0 ]

run_scenario fc-updown both
summary_lines fc-updown
have_verdict fc-updown plain
have_verdict fc-updown tagger
for m in plain tagger; do
	check "fc-updown $m: no deadlock" [ "$(verdict fc-updown $m)" = false ]
	check "fc-updown $m: zero lossless drops" [ "$(q fc-updown ".modes.$m.pfc.lossless_drops")" = 0 ]
	check "fc-updown $m: every flow keeps flowing" \
		[ "$(q fc-updown "[.modes.$m.flows[] | select((.after_mbps // 0) < 10 or .stalled_at != null)] | length")" = 0 ]
done
lab_end
