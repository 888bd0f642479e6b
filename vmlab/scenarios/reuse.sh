#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034  # the SC_* settings are read by vmlab/scenario.sh
# Priority reuse between users (Tagger draft 7.4, figure 6(a)). The
# paper's Clos (with three hosts under T4, clos-reuse.topo, so that no
# host link is the bottleneck) serves two users of different application
# classes: user 1 (hosts h1, h2) and user 2 (host h3). Flow 2 (h1->h4,
# user 1) and flow 3 (h3->h5, user 2) share the bottleneck L3->T4 from the
# start, in different queues; flow 1 (h2->h6, user 1) comes down through
# L4. Then L4-T4 fails: L4 bounces flow 1 up to S2, it enters user 1's
# second lossless space and comes down through L3->T4 in the egress queue
# of user 2's flow 3. The queues of a port share the link by WRR (equal
# weights). Every flow offers 60 Mbit/s on 100 Mbit/s links.
# Schemes (rules: vmlab/two-users.sh, over the up-down + 1-bounce ELP):
#   reuse    M+N reuse (the draft's section on several application
#            classes): class n starts at tag n, +1 per bounce; user 1 on
#            priorities 1 -> 2, user 2 on 2 -> 3: three priorities, user
#            2's shortest paths share priority 2 with user 1's bounces
#   noreuse  user 2 on priorities 3 -> 4 of its own: four priorities
#   draft    the draft's 7.4 taken literally, user 1 on 1 -> 2 and user 2
#            on 2 -> 1 (two priorities): not deadlock-free, tagger verify
#            finds a cycle through both users' priorities; run only when
#            asked for (--schemes)
# Every scheme's rules are verified and the verdicts are in the table.
#
#   vmlab scenario reuse [--trials N] [--schemes LIST] [--out DIR]
#                        [--lab NAME] [--report]
#
# --schemes: comma-separated, in the table's order (default reuse,noreuse;
# all three: reuse,noreuse,draft). --report: no runs, the table and JSON
# again from the trials in DIR.
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
report_only=0 schemes=reuse,noreuse
set -- "${EX_REST[@]}"
EX_REST=()
while [ $# -gt 0 ]; do
	case $1 in
	--report) report_only=1 EX_REPORT=1 ;;
	--schemes) schemes=${2:-}; shift ;;
	*) EX_REST+=("$1") ;;
	esac
	shift
done
[ ${#EX_REST[@]} -eq 0 ] || { echo "What is \"${EX_REST[0]}\"?" >&2; exit 2; }
[[ ,$schemes, =~ ^(,(reuse|noreuse|draft))+,$ ]] ||
	{ echo "--schemes: reuse, noreuse, draft, comma-separated, not \"$schemes\"" >&2; exit 2; }
schemes=${schemes//,/ }
ex_setup
if [ "$report_only" = 1 ]; then
	EX_TRIALS=$(find "$SC_OUT" -maxdepth 1 -name 'trial-*' | wc -l)
	[ "$EX_TRIALS" -gt 0 ] || { echo "no trials in $SC_OUT" >&2; exit 1; }
	schemes=$(cat "$SC_OUT/schemes") || exit 1
else
echo "$schemes" > "$SC_OUT/schemes"

# The rules of all three schemes and their verdicts.
bash "$VMLAB_DIR/two-users.sh" "$SC_TOPO" "$SC_OUT" h3 || exit 1

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

# Per scheme of two-users.sh: lossless priorities, verify's verdict and
# the priorities its cycle goes through (if any).
rules_summary() {
	local s
	for s in reuse noreuse draft; do
		jq -n --arg s "$s" --slurpfile r "$SC_OUT/$s.json" --slurpfile v "$SC_OUT/$s.verify.json" \
			'{($s): {priorities: ([$r[0].tags[].priority] | unique | length),
			 deadlock_free: $v[0].deadlock_free,
			 cycle_priorities: ([$v[0].cycle // [] | .[].from.priority] | unique)}}'
	done | jq -s add
}

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
	 schemes: ($schemes | split(" ")), rules: $rules[0],
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
	--arg schemes "$schemes" --slurpfile rules <(rules_summary) \
	"$SC_OUT/runs.jsonl" > "$SC_OUT/summary.json" || exit 1

jq -r '
	def f: if . == null then "-" else tostring end;
	def yes: if . then "yes" else "NO" end;
	.by_scheme as $b | .rules as $r | .schemes as $s |
	def row(l; g): [l] + [$s[] as $x | ($b[$x] // {} | g | f)] | @tsv;
	def name: {reuse: "M+N reuse", noreuse: "no reuse", draft: "draft 7.4 literal"}[.];
	([""] + [$s[] | "\(name) (\($r[.].priorities) priorities)"] | @tsv),
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
	(["rules verify deadlock-free (1-bounce ELP)"] + [$s[] | $r[.].deadlock_free | yes] | @tsv),
	row("runs the link limited (utilisation >= 0.9)"; .link_bound.runs),
	(["1", "2", "3"][] as $i | row("  their flow \($i) after, 1st / 2nd half"; "\(.link_bound.first_mbps[$i] // "-") / \(.link_bound.after_mbps[$i] // "-")")),
	row("  their user 1 / user 2"; "\(.link_bound.user1_mbps // "-") / \(.link_bound.user2_mbps // "-")"),
	row("  their total / Jain index"; "\(.link_bound.total_mbps // "-") / \(.link_bound.jain_index // "-")")
' "$SC_OUT/summary.json" | column -t -s $'\t' | tee "$SC_OUT/table.txt"
{
	echo "medians over $EX_TRIALS trials of runs that kept their schedule; every flow offers $SC_MBIT Mbit/s, links $SC_RATE;"
	echo "runs below 0.9 utilisation were limited by the machine (CPU), not the link"
	jq -r '.rules | "tagger verify over the 1-bounce ELP: " + ([to_entries[] |
		"\(.key) (\(.value.priorities) priorities) " +
		if .value.deadlock_free then "deadlock-free" else
		"NOT deadlock-free, cycle through priorities \(.value.cycle_priorities | join(", "))" end] | join("; "))' \
		"$SC_OUT/summary.json"
	ex_load
} | tee -a "$SC_OUT/table.txt"
names=$(jq -r '.rules | to_entries[] | "\(.key)\t\(.value.priorities)"' "$SC_OUT/summary.json")
curves=()
for s in $schemes; do
	curves+=("$s ($(awk -v s="$s" '$1 == s { print $2 }' <<< "$names") priorities)=$SC_OUT/trial-1/$s/tagger")
done
bash "$VMLAB_DIR/plot-runs.sh" "$SC_OUT/throughput.png" \
	"reuse (trial 1): per-flow throughput, L4-T4 fails" "${curves[@]}"
echo "summary: $SC_OUT/summary.json"
echo "table:   $SC_OUT/table.txt"
echo "plot:    $SC_OUT/throughput.png"
