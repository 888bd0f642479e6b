#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The lab's "links never congested" rule, without a lab: sc_congestion on
# made-up pause counters of the ring A->B->C->A (how long each link's
# upstream was held paused between two snapshots), its reason, and how the
# scenario tests take it: accepted (a skip at the end, after every other
# check) only with that reason and a measurement that says so; any other
# missing verdict still fails, and a congested run keeps its verdict.
source "$(dirname "$0")/../lab_lib.sh"
source "$TOP/vmlab/scenario.sh"
# jqe FILTER FILE: FILTER holds on FILE (quietly).
jqe() { jq -e "$1" "$2" >/dev/null; }
# The threshold of these numbers (the scenarios' default is 10).
SC_CONGESTED=5
LAB_STATE=$TGR_TMP/state
mkdir -p "$LAB_STATE"
"$TAGGER" lab plan "$TOP/vmlab/scenarios/ring.topo" --shortest > "$LAB_STATE/plan" ||
	fail "tagger lab plan ring.topo"

# snap NODE:PORT:MS...: one snapshot, every port with one lossless priority
# (3) paused MS ms so far and a lossy one (0) paused 10 times as long (not
# counted: a lossy queue never pauses).
snap() {
	local x
	for x in "$@"; do echo "$x"; done | jq -Rn '[inputs | split(":")] | group_by(.[0])[] |
		{node: .[0][0], ports: [.[] | {name: .[1], prios: [
			{prio: 3, lossless: true, paused_ms: (.[2] | tonumber)},
			{prio: 0, lossless: false, paused_ms: (.[2] | tonumber * 10)}]}]}' -c
}
# A's port toward B is named B (lab plan), and so on around the ring.
snap A:B:100 B:C:100 C:A:100 > "$TGR_TMP/w0"

SC_CYCLE="A B C"
# 4 s window, threshold 5 % = 200 ms: A->B 800 ms, B->C 400, C->A 200.
snap A:B:900 B:C:500 C:A:300 > "$TGR_TMP/w1"
sc_congestion "$TGR_TMP/w0" "$TGR_TMP/w1" 4 > "$TGR_TMP/c1" || fail "sc_congestion failed"
jq -c . "$TGR_TMP/c1"
check "every link held paused 5 % or more: congested" jqe '.congested == true' "$TGR_TMP/c1"
check "the links in the cycle's order" \
	[ "$(jq -r '[.links[].link] | join(" ")' "$TGR_TMP/c1")" = "A->B B->C C->A" ]
check "paused time counted from the window's start (800 ms, 20 %)" \
	jqe '.links[0].paused_ms == 800 and .links[0].paused_pct == 20' "$TGR_TMP/c1"
check "exactly at the threshold counts (C->A 200 ms of 4 s)" jqe '.links[2].congested' "$TGR_TMP/c1"

# C->A held paused 199 ms: 4.975 %, under 5 %.
snap A:B:900 B:C:500 C:A:299 > "$TGR_TMP/w2"
sc_congestion "$TGR_TMP/w0" "$TGR_TMP/w2" 4 > "$TGR_TMP/c2"
check "one link under the threshold: not congested" jqe '.congested == false' "$TGR_TMP/c2"
check "the link under it is named" \
	[ "$(jq -r '[.links[] | select(.congested | not) | .link] | join(" ")' "$TGR_TMP/c2")" = "C->A" ]
why=$(sc_uncongested_why < "$TGR_TMP/c2")
echo "reason: $why"
check "the reason names the link, its share, the window, the rule and the cycle" \
	[ "$why" = "links never congested: C->A held paused 4.9 % of the 4 s window (congested: 5 %), so no deadlock could form around A->B->C->A" ]
check "the reason is the one the tests accept" uncongested_why "$why"

# A lossy priority's pauses (a lossy queue is never paused by PFC) and
# paused time before the window do not count: all lossless time before.
snap A:B:1000 B:C:1000 C:A:1000 > "$TGR_TMP/w3"
snap A:B:1000 B:C:1000 C:A:1000 > "$TGR_TMP/w4"
sc_congestion "$TGR_TMP/w3" "$TGR_TMP/w4" 4 > "$TGR_TMP/c3"
check "pauses before the window and lossy priorities do not count" \
	jqe '.congested == false and all(.links[]; .paused_ms == 0)' "$TGR_TMP/c3"

# An agent whose show failed in a snapshot: not measured, so congested (a
# link that was not measured never turns a verdict into none).
snap A:B:900 C:A:300 > "$TGR_TMP/w5"
sc_congestion "$TGR_TMP/w0" "$TGR_TMP/w5" 4 > "$TGR_TMP/c5"
check "an agent missing from a snapshot: its link counts as congested" \
	jqe '.links[1].measured == false and .links[1].congested and .congested' "$TGR_TMP/c5"
SC_CYCLE="A X" sc_congestion "$TGR_TMP/w0" "$TGR_TMP/w2" 4 > "$TGR_TMP/c8"
check "links the plan does not have: not measured, congested" \
	jqe '.links[0].measured == false and .links[1].measured == false and .congested' "$TGR_TMP/c8"
# ... and a scenario refuses such a cycle, or a threshold that is no
# percentage, before it runs (exit 2).
SC_TOPO=$TOP/vmlab/scenarios/ring.topo
settings() { (SC_CYCLE=$1 SC_CONGESTED=$2; sc_check_settings 2>/dev/null); echo $?; }
check "the ring's cycle and 5 %: accepted" [ "$(settings "A B C" 5)" = 0 ]
check "no cycle (a scenario without one): accepted" [ "$(settings "" 5)" = 0 ]
check "0.5 % and 100 %: accepted" [ "$(settings "C B" 0.5)$(settings "A B" 100)" = 00 ]
check "a pair the topology does not link: refused" [ "$(settings "A X C" 5)" = 2 ]
check "a host not linked to the next node: refused" [ "$(settings "ha B" 5)" = 2 ]
check "one node: refused" [ "$(settings "A" 5)" = 2 ]
for bad in abc 101 -1 5% '1e3' '$(id)' ''; do
	check "SC_CONGESTED=\"$bad\": refused" [ "$(settings "A B C" "$bad")" = 2 ]
done
sc_congestion "$TGR_TMP/w0" "$TGR_TMP/w0" 0 > "$TGR_TMP/c6"
check "no time between the snapshots: not measured, congested" jqe '.congested' "$TGR_TMP/c6"

# Two links between two nodes (the Flattened Clos testbed's pairs): the
# longer-paused one counts. Hostile and huge numbers stay numbers.
SC_CYCLE="A B"
snap A:B:100 B:A:0 > "$TGR_TMP/p0"
snap A:B:100 A:C:9e9 B:A:300 > "$TGR_TMP/p1"
sc_congestion "$TGR_TMP/p0" "$TGR_TMP/p1" 2 > "$TGR_TMP/c7"
check "a port toward another node does not count for A->B" jqe '.links[0].congested == false' "$TGR_TMP/c7"

# How the scenario tests take it: fake summaries of a run.
# summary NAME DEADLOCK WHY CONGESTED
summary() {
	mkdir -p "$OUT/$1"
	jq -n --argjson d "$2" --arg why "$3" --argjson c "$4" \
		--argjson drops "${5:-0}" \
		'{verdict: {deadlock: $d, no_verdict_because: (if $why == "" then null else $why end),
			congestion: (if $c == null then null else {congested: $c} end),
			accounting_leaks: [], schedule: {problems: []}},
		  pfc: {lossless_drops: $drops}} as $m | {modes: {plain: $m, tagger: $m}}' > "$OUT/$1/summary.json"
}
# verdict_rc NAME: have_verdict's exit status and, for 0 or 1, whether
# lab_end then skips (249) or not (0).
verdict_rc() {
	(
		have_verdict "$1" plain >/dev/null 2>&1
		rc=$?
		(lab_end >/dev/null 2>&1)
		echo "$rc/$?"
	)
	true
}
summary yes true "" true
check "a deadlock is a verdict; nothing skipped" [ "$(verdict_rc yes)" = 0/0 ]
summary no false "" true
check "no deadlock on congested links is a verdict (the test's check fails it)" [ "$(verdict_rc no)" = 0/0 ]
summary idle null "$why" false
check "links never congested: accepted, and the test ends in a skip" [ "$(verdict_rc idle)" = 1/249 ]
summary forged null "$why" true
check "that reason with congested links: a failure" [ "$(verdict_rc forged)" = "" ]
summary old null "$why" null
check "that reason without the measurement: a failure" [ "$(verdict_rc old)" = "" ]
summary busy null "schedule not kept" null
check "schedule not kept: accepted, and the test ends in a skip" [ "$(verdict_rc busy)" = 1/249 ]
rc=$( (have_verdict busy tagger >/dev/null 2>&1; echo "went on") ; echo "$?")
check "schedule not kept with Tagger: the test skips at once (its claims need a verdict)" [ "$rc" = 249 ]
summary busydrop null "schedule not kept" null 3
check "schedule not kept, but lossless drops: a failure" [ "$(verdict_rc busydrop)" = "" ]
summary late null "the cycle formed only after the senders stopped, not under load" false
check "any other missing verdict: a failure" [ "$(verdict_rc late)" = "" ]
summary near null "links never congested" false
check "a reason that only looks like it: a failure" [ "$(verdict_rc near)" = "" ]
