#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A lab run whose links never congest must not pass for "no deadlock":
# three-flows without Tagger with its senders held to 20 Mbit/s (two flows
# per 100 Mbit/s ring link: 40 %, what a busy machine's starved senders
# look like) gives NO VERDICT, naming the links and their paused time, and
# the scenario tests accept that (have_verdict, lab_end: a skip). With
# Tagger the same run keeps its verdict: nothing is voided there. The same
# scenario at its own 60 Mbit/s still deadlocks, its links measured
# congested.
source "$(dirname "$0")/../lab_lib.sh"

run_scenario three-flows both SC_MBIT=20 SC_AFTER=2.5
summary_lines three-flows
mv "$OUT/three-flows" "$OUT/slow"
why=$(q slow .modes.plain.verdict.no_verdict_because)
echo "reason: $why"
q slow '.modes.plain.verdict.congestion | tostring'
check "20 Mbit/s: NO VERDICT" [ "$(verdict slow plain)" = null ]
check "20 Mbit/s: because the links never congested" uncongested_why "$why"
check "20 Mbit/s: the reason names the cycle" [ "${why##* around }" = "A->B->C->A" ]
check "20 Mbit/s: every link of the cycle measured" \
	[ "$(q slow '.modes.plain.verdict.congestion | [.links[] | select(.measured)] | length')" = 3 ]
check "20 Mbit/s: the flows kept flowing (15 Mbit/s or more each)" \
	[ "$(q slow '[.modes.plain.flows[] | select((.after_mbps // 0) < 15)] | length')" = 0 ]
check "20 Mbit/s: zero lossless drops" [ "$(q slow .modes.plain.pfc.lossless_drops)" = 0 ]
rc=$( (have_verdict slow plain >/dev/null; echo "$?") )
check "the tests accept this verdict (have_verdict returns 1)" [ "$rc" = 1 ]
rc=$( (have_verdict slow plain >/dev/null; lab_end >/dev/null) ; echo "$?")
check "and end in a skip (lab_end)" [ "$rc" = 249 ]
check "20 Mbit/s with Tagger: a verdict, no deadlock (not voided)" [ "$(verdict slow tagger)" = false ]
check "20 Mbit/s with Tagger: no congestion measured, none asked" \
	[ "$(q slow .modes.tagger.verdict.congestion)" = null ]
check "20 Mbit/s with Tagger: zero lossless drops" [ "$(q slow .modes.tagger.pfc.lossless_drops)" = 0 ]

run_scenario three-flows plain SC_AFTER=2.5
summary_lines three-flows
q three-flows '.modes.plain.verdict.congestion | tostring'
have_verdict three-flows plain || fail "60 Mbit/s: no verdict"
check "60 Mbit/s: deadlock" [ "$(verdict three-flows plain)" = true ]
check "60 Mbit/s: every link of the cycle measured congested" \
	[ "$(q three-flows '.modes.plain.verdict.congestion.congested')" = true ]
