#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Shared by the lab scenario tests: skip unless every piece a scenario runs
# on is in the build, run a scenario in a per-run lab, read its summary.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
require_root
require_cmd jq
require_cmd bc
for sub in "pfc help" "switch help" "host help" "compile help" "flow help" "lab help"; do
	# shellcheck disable=SC2086
	"$TAGGER" $sub >/dev/null 2>&1 || skip "this build has no \`tagger ${sub% help}\`"
done
LAB_NAME=${TGR_PREFIX}s
OUT=$TGR_TMP/out
tgr_on_exit '"$TOP/vmlab/vmlab" -n "$LAB_NAME" down'

# run_scenario NAME [MODE] [VAR=VALUE...]: the scenario script with a lab
# of this run; its table goes to the log.
run_scenario() {
	local name=$1 mode=${2:-both}; shift 2
	env "$@" LAB_NAME="$LAB_NAME" bash "$TOP/vmlab/scenarios/$name.sh" "$mode" \
		--out "$OUT/$name" --lab "$LAB_NAME" || fail "scenario $name failed to run"
}

# q NAME FILTER: jq over the scenario's summary.json.
q() { jq -r "$2" "$OUT/$1/summary.json"; }

# Mean throughput of flow ID in MODE over [FROM, TO) seconds.
mean_mbps() {
	q "$1" ".modes.$2.flows[] | select(.id == $3) | [.samples[] | select(.[0] >= $4 and .[0] < $5) | .[1]] |
		if length == 0 then 0 else add / length end"
}
ge() { [ "$(echo "$1 >= $2" | bc)" = 1 ]; }

# have_verdict NAME MODE: 0 when MODE gave a verdict. 1 when it gave none
# because the links of the scenario's cycle never congested (a busy
# machine whose senders fell short: the run could show no deadlock): the
# caller skips the claims that need one, and lab_end turns the test into a
# skip if nothing failed; the same when the machine could not keep the
# flows' schedule (the lab's own NO VERDICT). Skip when the pause agents'
# accounting leaked (a tagger pfc problem, reported as such); fail when
# there is no verdict for any other reason (a cycle only after the senders
# stopped). Not in $(...): skip and fail must exit.
LAB_UNTESTED=()
have_verdict() {
	local why
	[ "$(q "$1" ".modes.$2.verdict.deadlock")" != null ] && return 0
	why=$(q "$1" ".modes.$2.verdict.no_verdict_because")
	if uncongested_why "$why" && [ "$(q "$1" ".modes.$2.verdict.congestion.congested")" = false ]; then
		echo "NO VERDICT (accepted): $1 $2: $why"
		LAB_UNTESTED+=("$1 $2: $why")
		return 1
	fi
	if schedule_why "$why"; then
		# The machine could not run the flows at their rate: the lab
		# says NO VERDICT rather than guess, and so does the test. A
		# lossless drop is a failure all the same. With Tagger every
		# claim after this needs the verdict: the test ends here.
		[ "$(q "$1" ".modes.$2.pfc.lossless_drops")" = 0 ] ||
			fail "$2: lossless drops in a run without a verdict ($why)"
		echo "NO VERDICT (accepted): $1 $2: $why $(q "$1" ".modes.$2.verdict.schedule.problems | tostring")"
		LAB_UNTESTED+=("$1 $2: $why")
		[ "$2" = plain ] && return 1
		lab_end
	fi
	[ "$why" = "pause accounting leaked" ] &&
		skip "$2: no verdict, the pause accounting leaked: $(q "$1" ".modes.$2.verdict.accounting_leaks | tostring")"
	fail "$2: no verdict: $why $(q "$1" ".modes.$2.verdict.schedule.problems | tostring")"
}
# The reasons for no verdict that are not a failure (vmlab/scenario-verdict.sh):
# the cycle's links never congested (sc_uncongested_why), or the machine
# could not keep the flows' schedule.
uncongested_why() { [[ $1 == "links never congested: "* ]]; }
schedule_why() { [[ $1 == "schedule not kept"* ]]; }

# lab_end: after every check ran, a skip if a mode could not be judged
# (have_verdict returned 1), naming it; nothing otherwise.
lab_end() {
	[ ${#LAB_UNTESTED[@]} -eq 0 ] && return 0
	skip "the other checks passed, but no verdict for: $(printf '%s; ' "${LAB_UNTESTED[@]}")"
}
verdict() { q "$1" ".modes.$2.verdict.deadlock"; }

# Flow ID of MODE stopped for good while its sender still sent.
stalled_under_load() {
	[ "$(q "$1" ".modes.$2 | .window.to as \$e | .flows[] | select(.id == $3) |
		.stalled_at != null and .stalled_at < \$e")" = true ]
}

# One line per mode for the log: events, window, stalls, rates, verdict.
summary_lines() {
	q "$1" '.modes | to_entries[] | .key as $m | .value |
		"\($m): events at \([.events[] | select(.event | test("^(fail|route|pause)")) | "\(.began * 100 | round / 100)->\(.t * 100 | round / 100)"] | join(" ")),
		 window \(.window.from * 100 | round / 100)-\(.window.to * 100 | round / 100),
		 stalled at \([.flows[] | .stalled_at // "-" | tostring | .[0:5]] | join(",")),
		 after \([.flows[] | .after_mbps // 0 | . * 10 | round / 10 | tostring] | join(",")) Mbit/s,
		 deadlock \(.verdict.deadlock) \(.verdict.cycle | join("->")),
		 lossless drops \(.pfc.lossless_drops)"' | tr -s ' \n' ' ' | sed 's/ \(plain\|tagger\):/\n\1:/g'
	echo
}

# clos-bounce's claims, on the run in $OUT/NAME: without Tagger both flows
# stop for good while the senders still send and the cycle L2->S1->L3->S2
# is named (unless its links never congested: no verdict, lab_end skips);
# no lossless drop in either mode; with Tagger no deadlock, no loss, both
# flows at least half their rate in the second half of the window.
check_clos_bounce() {
	local n=$1
	summary_lines "$n"
	check "without Tagger: zero lossless drops" [ "$(q "$n" .modes.plain.pfc.lossless_drops)" = 0 ]
	if have_verdict "$n" plain; then check_clos_bounce_plain "$n"; fi
	have_verdict "$n" tagger
	check_clos_bounce_tagger "$n"
}

check_clos_bounce_plain() {
	local n=$1 id
	check "without Tagger: deadlock" [ "$(verdict "$n" plain)" = true ]
	check "without Tagger: the cycle is L2 S1 L3 S2" \
		[ "$(q "$n" '.modes.plain.verdict.cycle | sort | join(" ")')" = "L2 L3 S1 S2" ]
	check "without Tagger: formed under load (the cycle at the end of the window)" \
		[ "$(q "$n" '.modes.plain.verdict.cycle_under_load | sort | join(" ")')" = "L2 L3 S1 S2" ]
	for id in 1 2; do
		before_rate_kept "$n" "$id"
		check "without Tagger: flow $id stopped for good while its sender still sent" \
			stalled_under_load "$n" plain "$id"
		check "without Tagger: flow $id at 0 in the window's second half" \
			[ "$(q "$n" ".modes.plain.flows[] | select(.id == $id) | .after_mbps")" = 0 ]
	done
}

# Flow ID ran at 90 % of its rate before the failures, or the machine
# could not keep the senders' schedule: then the run says so and counts as
# untested (lab_end skips), as a run whose links never congested does;
# the deadlock claims are still checked.
before_rate_kept() {
	local n=$1 id=$2 rate before
	rate=$(q "$n" ".modes.plain.flows[] | select(.id == $id) | .rate_mbps")
	before=$(q "$n" ".modes.plain.flows[] | select(.id == $id) | .before_mbps")
	if ge "$before" "$(echo "$rate * 0.9" | bc)"; then
		echo "ok: without Tagger: flow $id at 90% of its rate before the failures ($before of $rate Mbit/s)"
		return 0
	fi
	echo "NO VERDICT (accepted): $n plain: flow $id sent $before of its $rate Mbit/s before the failures: the machine could not keep the senders' schedule"
	LAB_UNTESTED+=("$n plain: flow $id at $before of $rate Mbit/s before the failures")
}

check_clos_bounce_tagger() {
	local n=$1 id rate
	check "with Tagger: no deadlock" [ "$(verdict "$n" tagger)" = false ]
	check "with Tagger: no queue left paused" [ "$(q "$n" '.modes.tagger.verdict.paused_queues | length')" = 0 ]
	check "with Tagger: zero lossless drops" [ "$(q "$n" .modes.tagger.pfc.lossless_drops)" = 0 ]
	for id in 1 2; do
		rate=$(q "$n" ".modes.tagger.flows[] | select(.id == $id) | .rate_mbps")
		check "with Tagger: flow $id at half its rate or more after the failures" \
			ge "$(q "$n" ".modes.tagger.flows[] | select(.id == $id) | .after_mbps // 0")" "$(echo "$rate / 2" | bc)"
		check "with Tagger: flow $id never stopped" \
			[ "$(q "$n" ".modes.tagger.flows[] | select(.id == $id) | .stalled_at")" = null ]
		check "with Tagger: flow $id lost nothing" \
			[ "$(q "$n" ".modes.tagger.flows[] | select(.id == $id) | .lost")" = 0 ]
	done
}
