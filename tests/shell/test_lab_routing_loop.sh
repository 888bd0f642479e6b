#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Scenario 2 (Tagger draft 7.2, scenario 1): S1's route to h3 turns back to
# L1. Without Tagger the looping flow 1 fills L1->S1 and S1->L1 losslessly:
# a deadlock L1<->S1 that stops flow 2 too, which only shares L1->S1.
# With Tagger the looping packets leave the ELP, turn lossy and die in the
# loop: no deadlock, no lossless drop, flow 2 keeps flowing. Without
# Tagger a run whose loop never congested gives no verdict (the test
# skips, after the other checks).
source "$(dirname "$0")/../lab_lib.sh"
run_scenario routing-loop both
summary_lines routing-loop
check "without Tagger: zero lossless drops" [ "$(q routing-loop .modes.plain.pfc.lossless_drops)" = 0 ]
if have_verdict routing-loop plain; then
	check "without Tagger: deadlock" [ "$(verdict routing-loop plain)" = true ]
	check "without Tagger: the cycle is L1 S1" \
		[ "$(q routing-loop '.modes.plain.verdict.cycle | sort | join(" ")')" = "L1 S1" ]
	check "without Tagger: flow 2 flowed before the loop" \
		ge "$(q routing-loop '.modes.plain.flows[] | select(.id == 2) | .before_mbps')" 36
	check "without Tagger: flow 2 stopped for good while its sender sent" \
		stalled_under_load routing-loop plain 2
fi
have_verdict routing-loop tagger
check "with Tagger: no deadlock" [ "$(verdict routing-loop tagger)" = false ]
check "with Tagger: zero lossless drops" [ "$(q routing-loop .modes.tagger.pfc.lossless_drops)" = 0 ]
# The looping packets take a share of L1->S1 until their TTL runs out:
# flow 2 (40 Mbit/s) keeps about half its rate (vmlab/README.md).
check "with Tagger: flow 2 keeps flowing" \
	ge "$(q routing-loop '.modes.tagger.flows[] | select(.id == 2) | .after_mbps // 0')" 10
check "with Tagger: flow 2 never stopped" \
	[ "$(q routing-loop '.modes.tagger.flows[] | select(.id == 2) | .stalled_at')" = null ]
lab_end
