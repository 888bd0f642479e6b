#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Scenario 5, a few trials (seed 1): 8 random flows over every up-down path
# of the Clos, 3 random fabric links fail per trial. With Tagger no trial
# deadlocks and no lossless packet is dropped; a trial that deadlocks
# without Tagger names its cycle, formed while the senders still sent.
# Every trial keeps its schedule and gives a verdict. Without Tagger these
# trials used to deadlock because the lab's reroute made routing loops;
# with loop-free reroute their flows' routes have no cyclic dependency
# at all (Documentation/measurements.md, "Reuse done soundly (M+N),
# loop-free reroute"), so deadlocks are not expected of them any more:
# the scenarios built around a cycle (clos-bounce, three-flows,
# routing-loop) show Tagger preventing one.
source "$(dirname "$0")/../lab_lib.sh"
TRIALS=3
env LAB_NAME="$LAB_NAME" bash "$TOP/vmlab/scenarios/random-failures.sh" both --trials $TRIALS \
	--out "$OUT/rf" --lab "$LAB_NAME" || fail "random-failures failed to run"
S=$OUT/rf/summary.json
jq -c '.runs[] | {mode, trial, deadlock, no_verdict_because, cycle, lossless_drops}' "$S"
leak=$(jq -r '[.runs[] | select(.no_verdict_because == "pause accounting leaked")] | length' "$S")
[ "$leak" -gt 0 ] && skip "$leak runs without a verdict: the pause accounting leaked"
check "every trial of both modes ran and gave a verdict" \
	[ "$(jq '[.runs[] | select(.deadlock != null)] | length' "$S")" = $((2 * TRIALS)) ]
check "with Tagger: no trial deadlocked" [ "$(jq .by_mode.tagger.deadlocks "$S")" = 0 ]
check "with Tagger: zero lossless drops" [ "$(jq .by_mode.tagger.lossless_drops "$S")" = 0 ]
check "without Tagger: every deadlock names a cycle" \
	[ "$(jq '[.runs[] | select(.deadlock == true and (.cycle | length) < 2)] | length' "$S")" = 0 ]
for t in $(seq $TRIALS); do
	[ "$(jq -r .deadlock "$OUT/rf/trial-$t/plain/verdict.json")" = true ] || continue
	check "trial $t without Tagger: a flow stopped for good while the senders sent" \
		[ "$(jq '.schedule.stop as $e | [.flows[] | select(.stalled_at != null and .stalled_at < $e)] | length' \
			"$OUT/rf/trial-$t/plain/verdict.json")" -ge 1 ]
done
