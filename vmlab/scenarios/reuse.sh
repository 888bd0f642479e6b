#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034  # the SC_* settings are read by vmlab/scenario.sh
# Priority reuse between users (Tagger draft 7.4, figure 6(a)). The
# paper's Clos (with three hosts under T4, clos-reuse.topo, so that no
# host link is the bottleneck) serves two users of different application
# classes: user 1 (hosts h1, h2) tags shortest paths into priority 1 and
# 1-bounce paths into priority 2; user 2 (host h3) the reverse. Flow 2
# (h1->h4, user 1) and flow 3 (h3->h5, user 2) share the bottleneck
# L3->T4 from the start, in different queues; flow 1 (h2->h6, user 1)
# comes down through L4.
# Then L4-T4 fails: L4 bounces flow 1 up to S2, it enters user 1's second
# lossless space (priority 2) and shares the egress queue of L3->T4 with
# user 2's flow 3. The queues of a port share the link by WRR (equal
# weights). Compared scheme: no reuse, user 2 on priorities 3 and 4 (four
# lossless priorities). Every flow offers 60 Mbit/s on 100 Mbit/s links.
# Both schemes run the same data plane and rules compiled by tagger
# compile from the up-down + 1-bounce ELP; user 2's rules are user 1's with
# its own tags (vmlab/two-users.jq).
#
#   vmlab scenario reuse [--trials N] [--out DIR] [--lab NAME] [--report]
#
# --report: no runs, the table and JSON again from the trials in DIR.
#
# Per scheme the medians over N trials (default 3): every flow's
# throughput before the failure and in the second half of the window
# after it, per user, the bottleneck's utilisation (the goodput of the
# flows crossing L3->T4 with UDP/IP/Ethernet headers, over the link rate),
# Jain's fairness index of the three flows, lossless drops, deadlocks; and
# the same over the runs in which the link, not the machine, limited the
# flows (utilisation >= 0.9: on busy shared cores the namespaces may not
# forward 100 Mbit/s, and then WRR is not what divides the bandwidth).
D=$(cd "$(dirname "$0")" && pwd)
SC_NAME=${SC_NAME:-reuse}
SC_TOPO=$D/clos-reuse.topo
SC_ROUTES=$D/reuse-flows.elp
SC_MBIT=${SC_MBIT:-60}
SC_FLOWS="1 h2 h6 $SC_MBIT
2 h1 h4 $SC_MBIT
3 h3 h5 $SC_MBIT"
SC_EVENTS="${SC_FAIL_AT:-2} fail L4:T4"
# Flows 2 and 3 share the bottleneck from the start.
SC_READY=${SC_READY:-flowing}
SC_WINDOW=${SC_WINDOW:-6}
SC_AFTER=${SC_AFTER:-2}
source "$D/../scenario.sh"
source "$D/../experiment.sh"
ex_args "$@"
report_only=0
[ "${EX_REST[*]}" = --report ] && report_only=1 EX_REPORT=1 EX_REST=()
[ ${#EX_REST[@]} -eq 0 ] || { echo "What is \"${EX_REST[0]}\"?" >&2; exit 2; }
ex_setup
schemes="reuse noreuse"
if [ "$report_only" = 1 ]; then
	EX_TRIALS=$(find "$SC_OUT" -maxdepth 1 -name 'trial-*' | wc -l)
	[ "$EX_TRIALS" -gt 0 ] || { echo "no trials in $SC_OUT" >&2; exit 1; }
else

# The rules of both schemes, verified against the ELP they come from.
"$TAGGER" paths bounce=1 "$SC_TOPO" -o "$SC_OUT/bounce1.elp" || exit 1
"$TAGGER" -j compile "$SC_TOPO" "$SC_OUT/bounce1.elp" --algorithm clos \
	-o "$SC_OUT/user1.json" > /dev/null || exit 1
users2='["h3"]'
jq --argjson off 2 --argjson prio '{"1": 2, "2": 1}' --argjson users2 "$users2" \
	-f "$VMLAB_DIR/two-users.jq" "$SC_OUT/user1.json" > "$SC_OUT/reuse.json" || exit 1
jq --argjson off 2 --argjson prio '{"1": 3, "2": 4}' --argjson users2 "$users2" \
	-f "$VMLAB_DIR/two-users.jq" "$SC_OUT/user1.json" > "$SC_OUT/noreuse.json" || exit 1
for s in reuse noreuse; do
	"$TAGGER" -j verify "$SC_TOPO" "$SC_OUT/bounce1.elp" "$SC_OUT/$s.json" > "$SC_OUT/$s.verify.json"
done

for t in $(seq "$EX_TRIALS"); do
	for s in $schemes; do
		SC_RULES=$SC_OUT/$s.json
		ex_run "$SC_OUT/trial-$t/$s" || echo "trial $t $s: run failed" >&2
		v=$SC_OUT/trial-$t/$s/tagger/verdict.json
		printf 'trial %d %-8s %s\n' "$t" "$s" "$( [ -f "$v" ] && jq -r '
			"flows after: " + ([.flows[] | "\(.id)=\(.after_mbps // 0 | . * 10 | round / 10)"] | join(" ")) +
			", deadlock " + (.deadlock | tostring) +
			(if .schedule.kept then "" else ", schedule NOT kept: " + (.schedule.problems | join("; ")) end)' "$v")"
	done
done
fi

# One record per run, then per scheme the medians. "after" is the
# window's second half (as in every scenario); "first" its first half,
# where the failure's effect is freshest.
for t in $(seq "$EX_TRIALS"); do
	for s in $schemes; do
		d=$SC_OUT/trial-$t/$s/tagger
		[ -f "$d/verdict.json" ] || continue
		last=$(awk '$1 == "last" { print $2 }' "$d/meta.tsv")
		stop=$(awk '$1 == "stop" { print $2 }' "$d/meta.tsv")
		jq -c --arg s "$s" --argjson t "$t" --slurpfile p "$d/pfc.json" \
			--slurpfile rx <(cat "$d"/rx-*.json) --argjson last "$last" --argjson stop "$stop" \
			--argjson wire "$(echo "($SC_SIZE + 42) / $SC_SIZE" | bc -l)" \
			--argjson link "${SC_RATE%mbit}" '
			(.flows | map({key: (.id | tostring), value: .}) | from_entries) as $f |
			{scheme: $s, trial: $t, kept: .schedule.kept, deadlock,
			 before: ($f | map_values(.before_mbps)),
			 after: ($f | map_values(.after_mbps)),
			 first: ([$rx[] | select((.final | not) and .t >= $last and .t < ($last + $stop) / 2)] |
				group_by(.flow) | map({key: (.[0].flow | tostring),
					value: (map(.mbps) | add / length)}) | from_entries),
			 user1: ($f["1"].after_mbps + $f["2"].after_mbps),
			 user2: $f["3"].after_mbps,
			 total: ([.flows[].after_mbps // 0] | add),
			 utilisation: (([.flows[].after_mbps // 0] | add) * $wire / $link),
			 jain: ([.flows[].after_mbps // 0] | (map(. * .) | add) as $q |
				if $q > 0 then (add * add) / (length * $q) else null end),
			 lossless_drops: $p[0].lossless_drops, pauses_sent: $p[0].pauses_sent}' "$d/verdict.json"
	done
done > "$SC_OUT/runs.jsonl"
jq -s "$EX_JQ"'
	def per_flow(f): ["1", "2", "3"] | map(. as $i | {key: $i, value: (f | map(.[$i]) | median | r1)}) | from_entries;
	def stats($k): {runs: ($k | length),
		after_mbps: per_flow($k | map(.after)), first_mbps: per_flow($k | map(.first)),
		user1_mbps: ($k | map(.user1) | median | r1), user2_mbps: ($k | map(.user2) | median | r1),
		total_mbps: ($k | map(.total) | median | r1),
		jain_index: ($k | map(.jain) | median | r2)};
	{scenario: "reuse", trials: $trials, flow_mbit: $mbit, link: $link,
	 rules_verify_deadlock_free: {reuse: $v1[0].deadlock_free, noreuse: $v2[0].deadlock_free},
	 by_scheme: (group_by(.scheme) | map(map(select(.kept)) as $k | {key: .[0].scheme, value: {
		runs: length, schedule_kept: ($k | length),
		deadlocks: (map(select(.deadlock == true)) | length),
		before_mbps: per_flow($k | map(.before)), after_mbps: per_flow($k | map(.after)),
		first_mbps: per_flow($k | map(.first)),
		user1_mbps: ($k | map(.user1) | median | r1), user2_mbps: ($k | map(.user2) | median | r1),
		total_mbps: ($k | map(.total) | median | r1),
		bottleneck_utilisation: ($k | map(.utilisation) | median | r2),
		jain_index: ($k | map(.jain) | median | r2),
		lossless_drops: (map(.lossless_drops // 0) | add),
		link_bound: stats($k | map(select(.utilisation >= 0.9)))}}) | from_entries),
	 runs: .}' --argjson trials "$EX_TRIALS" --argjson mbit "$SC_MBIT" --arg link "$SC_RATE" \
	--slurpfile v1 "$SC_OUT/reuse.verify.json" --slurpfile v2 "$SC_OUT/noreuse.verify.json" \
	"$SC_OUT/runs.jsonl" > "$SC_OUT/summary.json" || exit 1

jq -r '
	def f: if . == null then "-" else tostring end;
	.by_scheme as $b | ["reuse", "noreuse"] as $s |
	def row(l; g): [l] + [$s[] as $x | ($b[$x] // {} | g | f)] | @tsv;
	(["", "reuse (2 priorities)", "no reuse (4 priorities)"] | @tsv),
	row("runs (schedule kept)"; "\(.runs) (\(.schedule_kept))"),
	(["1", "2", "3"][] as $i |
	  row("flow \($i) before failure (Mbit/s)"; .before_mbps[$i]),
	  row("flow \($i) after, 1st half of window"; .first_mbps[$i]),
	  row("flow \($i) after, 2nd half of window"; .after_mbps[$i])),
	row("user 1 (flows 1+2) after"; .user1_mbps),
	row("user 2 (flow 3) after"; .user2_mbps),
	row("total after"; .total_mbps),
	row("bottleneck L3->T4 utilisation"; .bottleneck_utilisation),
	row("Jain index of the 3 flows"; .jain_index),
	row("deadlocks"; .deadlocks),
	row("lossless drops (sum)"; .lossless_drops),
	(["rules verify deadlock-free (1-bounce ELP)", (.rules_verify_deadlock_free | .reuse, .noreuse | tostring)] | @tsv),
	row("runs the link limited (utilisation >= 0.9)"; .link_bound.runs),
	(["1", "2", "3"][] as $i | row("  their flow \($i) after, 1st / 2nd half"; "\(.link_bound.first_mbps[$i] // "-") / \(.link_bound.after_mbps[$i] // "-")")),
	row("  their user 1 / user 2"; "\(.link_bound.user1_mbps // "-") / \(.link_bound.user2_mbps // "-")"),
	row("  their total / Jain index"; "\(.link_bound.total_mbps // "-") / \(.link_bound.jain_index // "-")")
' "$SC_OUT/summary.json" | column -t -s $'\t' | tee "$SC_OUT/table.txt"
echo "medians over $EX_TRIALS trials of runs that kept their schedule; every flow offers $SC_MBIT Mbit/s, links $SC_RATE" | tee -a "$SC_OUT/table.txt"
ex_load | tee -a "$SC_OUT/table.txt"
bash "$VMLAB_DIR/plot-runs.sh" "$SC_OUT/throughput.png" \
	"reuse (trial 1): per-flow throughput, L4-T4 fails" \
	"priority reuse (2 priorities)=$SC_OUT/trial-1/reuse/tagger" \
	"no reuse (4 priorities)=$SC_OUT/trial-1/noreuse/tagger"
echo "summary: $SC_OUT/summary.json"
echo "table:   $SC_OUT/table.txt"
echo "plot:    $SC_OUT/throughput.png"
