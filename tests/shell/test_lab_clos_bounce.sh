#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Scenario 1 (Tagger paper's Clos, two bounced flows), short form: without
# Tagger the two link failures deadlock the cycle L2->S1->L3->S2 and both
# flows stop for good; with Tagger neither stops and no lossless packet is
# dropped.
source "$(dirname "$0")/../lab_lib.sh"
run_scenario clos-bounce both SC_FAIL_AT=2 SC_STOP=7 SC_AFTER=2.5

# The lab gives no verdict when the pause agents' buffer accounting leaked
# on the cycle (a tagger pfc problem, not the network's): say so, not pass.
leaks() { jq -c ".modes.$1.verdict.accounting_leaks" "$OUT/clos-bounce/summary.json"; }
[ "$(q clos-bounce .modes.plain.verdict.deadlock)" = null ] &&
	skip "without Tagger: no verdict, the pause accounting leaked: $(leaks plain)"
check "without Tagger: deadlock" [ "$(q clos-bounce .modes.plain.verdict.deadlock)" = true ]
check "without Tagger: the cycle is L2 S1 L3 S2" \
	[ "$(q clos-bounce '.modes.plain.verdict.cycle | sort | join(" ")')" = "L2 L3 S1 S2" ]
for id in 1 2; do
	check "without Tagger: flow $id flowed before the failures" ge "$(mean_mbps clos-bounce plain $id 1 2)" 15
	check "without Tagger: flow $id stopped after them, for good" \
		[ "$(q clos-bounce ".modes.plain.flows[] | select(.id == $id) | .stalled_at != null")" = true ]
done
if [ "$(q clos-bounce .modes.tagger.verdict.deadlock)" = null ]; then
	skip "with Tagger: no verdict, the pause accounting leaked: $(leaks tagger)"
fi
check "with Tagger: no deadlock" [ "$(q clos-bounce .modes.tagger.verdict.deadlock)" = false ]
check "with Tagger: no queue left paused" [ "$(q clos-bounce '.modes.tagger.verdict.paused_queues | length')" = 0 ]
check "with Tagger: zero lossless drops" [ "$(q clos-bounce .modes.tagger.pfc.lossless_drops)" = 0 ]
for id in 1 2; do
	check "with Tagger: flow $id keeps flowing after the failures" \
		ge "$(q clos-bounce ".modes.tagger.flows[] | select(.id == $id) | .after_mbps")" 10
	check "with Tagger: flow $id lost nothing" \
		[ "$(q clos-bounce ".modes.tagger.flows[] | select(.id == $id) | .lost")" = 0 ]
done
