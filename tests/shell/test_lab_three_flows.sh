#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Scenario 3 (Tagger draft 7.2, scenario 2): three flows whose paths close
# the cycle A->B->C->A deadlock without Tagger while their senders send,
# and all keep flowing with it, without lossless drops. Without Tagger a
# run whose ring never congested gives no verdict (the test skips, after
# the other checks).
source "$(dirname "$0")/../lab_lib.sh"
run_scenario three-flows both SC_AFTER=2.5
summary_lines three-flows
check "without Tagger: zero lossless drops" [ "$(q three-flows .modes.plain.pfc.lossless_drops)" = 0 ]
if have_verdict three-flows plain; then
	check "without Tagger: deadlock" [ "$(verdict three-flows plain)" = true ]
	check "without Tagger: the cycle is A B C" \
		[ "$(q three-flows '.modes.plain.verdict.cycle | sort | join(" ")')" = "A B C" ]
	for id in 1 2 3; do
		check "without Tagger: flow $id stopped for good while its sender sent" \
			stalled_under_load three-flows plain $id
	done
fi
have_verdict three-flows tagger
check "with Tagger: no deadlock" [ "$(verdict three-flows tagger)" = false ]
check "with Tagger: zero lossless drops" [ "$(q three-flows .modes.tagger.pfc.lossless_drops)" = 0 ]
for id in 1 2 3; do
	check "with Tagger: flow $id flows" \
		ge "$(q three-flows ".modes.tagger.flows[] | select(.id == $id) | .after_mbps // 0")" 10
done
lab_end
