#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# vmlab/report.sh OUT: the results of a scenario run (OUT/plain, OUT/tagger,
# written by scenario.sh) as a side-by-side table on stdout, OUT/summary.json
# with every sample, and OUT/throughput.png (gnuplot): per-flow throughput
# over time, without Tagger on the left, with Tagger on the right.
set -u
OUT=${1:?usage: report.sh OUT}
modes=()
for m in plain tagger; do [ -f "$OUT/$m/meta.tsv" ] && modes+=("$m"); done
[ ${#modes[@]} -gt 0 ] || { echo "report.sh: no runs in $OUT" >&2; exit 2; }

# One mode as JSON: flows with their samples and before/after means, the
# events, the verdict and the pause counters.
mode_json() {
	local d=$OUT/$1 t0 dp
	t0=$(awk '$1 == "t0" { print $2 }' "$d/meta.tsv")
	dp=$(awk '$1 == "datapath" { print $2 }' "$d/meta.tsv")
	jq -n --arg mode "$1" --argjson t0 "$t0" --arg dp "${dp:-bpf}" \
		--slurpfile rx <(cat "$d"/rx-*.json 2>/dev/null) \
		--slurpfile tx <(cat "$d"/tx-*.json 2>/dev/null) \
		--slurpfile verdict "$d/verdict.json" \
		--slurpfile pfc <(cat "$d"/pfc.json 2>/dev/null || echo '{}') \
		--slurpfile flows <(cat "$d/flows.json") \
		--rawfile events "$d/events.tsv" '
	($events | split("\n") | map(select(length > 0) | split("\t") |
		{t: ((.[0] | tonumber) - $t0), event: .[1],
		 began: ((.[2] // .[0] | tonumber) - $t0)})) as $ev |
	$verdict[0] as $v |
	{
	  mode: $mode, datapath: $dp, t0: $t0, events: $ev,
	  window: (if $v.schedule then {from: ($v.schedule.last_event - $t0),
		to: ($v.schedule.stop - $t0), seconds: $v.schedule.window} else null end),
	  verdict: $v, pfc: $pfc[0],
	  flows: [ $flows[0][] as $f |
	    ([$rx[] | select(.flow == $f.id and (.final | not)) |
	      {t: (.t - $t0), mbps, rx, lost}]) as $s |
	    ([$rx[] | select(.flow == $f.id and .final)] | last) as $fin |
	    ([$tx[] | select(.flow == $f.id)] | last) as $snd |
	    ([$v.flows[]? | select(.id == $f.id)] | first) as $w |
	    $f + {
	      before_mbps: $w.before_mbps,
	      after_mbps: $w.after_mbps,
	      stalled_at: (if $w.stalled_at then $w.stalled_at - $t0 else null end),
	      sent: ($snd.sent_pkts // null),
	      received: ($fin.rx // ($s | last | .rx) // 0),
	      lost: ($fin.lost // ($s | last | .lost) // 0),
	      samples: [$s[] | [(.t * 1000 | round / 1000), .mbps]]
	    } | .in_flight_or_stuck = (if .sent then .sent - .received - .lost else null end)
	  ]
	}'
}

{
	echo '{"scenario":'"$(jq -Rn --arg s "$(basename "$OUT")" '$s')"',"modes":{'
	sep=
	for m in "${modes[@]}"; do printf '%s"%s":' "$sep" "$m"; mode_json "$m"; sep=,; done
	echo '}}'
} | jq . > "$OUT/summary.json" || exit 1

# The table.
jq -r '
	def f1: if . == null then "-" else (. * 10 | round / 10 | tostring) end;
	def col(m): .modes[m];
	. as $r | ($r.modes | keys_unsorted) as $ms |
	def row(lbl; g): [lbl] + [$ms[] as $m | ($r.modes[$m] | g)] | @tsv;
	(["", ($ms[] | if . == "plain" then "without Tagger" else "with Tagger" end)] | @tsv),
	row("events took effect at (s)"; [.events[] | select(.event | test("^(fail|restore|pause|route)")) | .t | f1] |
		if length == 0 then "-" else join(", ") end),
	row("window, senders on (s)"; if .window then "\(.window.from | f1)-\(.window.to | f1)" else "-" end),
	($r.modes[$ms[0]].flows | to_entries[] | .key as $i | .value as $f |
	  row("flow \($f.id) \($f.src)->\($f.dst) before (Mbit/s)"; .flows[$i].before_mbps | f1),
	  row("flow \($f.id) after, 2nd half of window"; .flows[$i].after_mbps | f1),
	  row("flow \($f.id) stopped for good at (s)"; .flows[$i].stalled_at | f1),
	  row("flow \($f.id) lost / stuck (pkts)"; "\(.flows[$i].lost) / \(.flows[$i].in_flight_or_stuck // "-")")),
	row("deadlock"; if .verdict.deadlock == null then
		"NO VERDICT: \(.verdict.no_verdict_because // "pause accounting leaked")" +
		(if (.verdict.schedule.problems // []) | length > 0 then " (\(.verdict.schedule.problems | join("; ")))"
		 elif (.verdict.accounting_leaks | length) > 0 then
			" at \([.verdict.accounting_leaks[] | "\(.node) (\(.bytes) B)"] | join(", "))"
		 else "" end)
	    elif .verdict.deadlock then
		"YES: \(.verdict.cycle + [.verdict.cycle[0]] | join("->")), \(.verdict.queued) pkts stuck"
	    elif (.verdict.paused_queues | length) > 0 then "no (\(.verdict.queued) pkts held, no cycle)"
	    else "no" end),
	row("lossless drops"; .pfc.lossless_drops // "-" | tostring),
	row("lost with failed links"; .pfc.failed_link_losses // "-" | tostring),
	row("pauses sent"; .pfc.pauses_sent // "-" | tostring),
	row("watchdog events"; .pfc.watchdog_events // "-" | tostring),
	row("cycle links held paused (% of window)"; if .verdict.congestion then
		[.verdict.congestion.links[] | "\(.link) \(.paused_pct)"] | join(", ") else "-" end)
' "$OUT/summary.json" | column -t -s $'\t'

# The plot: one panel per mode, one line per flow, events as dashed lines
# where they took effect, the observation window shaded.
command -v gnuplot >/dev/null || { echo "(gnuplot missing: no PNG)"; exit 0; }
plotdir=$(mktemp -d)
for m in "${modes[@]}"; do
	jq -r --arg m "$m" '.modes[$m].flows[] | "\(.id)\t\(.src)->\(.dst)"' "$OUT/summary.json" > "$plotdir/$m.flows"
	while read -r id _; do
		jq -r --arg m "$m" --argjson id "$id" '.modes[$m].flows[] | select(.id == $id) |
			.samples[] | @tsv' "$OUT/summary.json" > "$plotdir/$m.$id.tsv"
	done < "$plotdir/$m.flows"
	jq -r --arg m "$m" '.modes[$m].events[] | select(.event != "start") | "\(.t)\t\(.event)"' \
		"$OUT/summary.json" > "$plotdir/$m.events"
	jq -r --arg m "$m" '.modes[$m].window // empty | "\(.from)\t\(.from + .seconds / 2)\t\(.to)"' \
		"$OUT/summary.json" > "$plotdir/$m.window"
done
{
	echo "set terminal pngcairo size $((640 * ${#modes[@]})),420 font ',10'"
	echo "set output '$OUT/throughput.png'"
	echo "set multiplot layout 1,${#modes[@]} title '$(basename "$OUT"): per-flow throughput (100 ms samples)'"
	echo "set xlabel 'time (s)'; set ylabel 'Mbit/s'; set grid; set key below horizontal"
	echo "set yrange [0:*]"
	for m in "${modes[@]}"; do
		echo "unset arrow; unset label; unset object"
		# The observation window; its second half (darker) gives "after".
		while IFS=$'\t' read -r from half to; do
			echo "set object rect from $from, graph 0 to $half, graph 1 fc rgb '#eeeeee' fs solid noborder behind"
			echo "set object rect from $half, graph 0 to $to, graph 1 fc rgb '#dcdcdc' fs solid noborder behind"
		done < "$plotdir/$m.window"
		while IFS=$'\t' read -r t ev; do
			echo "set arrow from $t, graph 0 to $t, graph 1 nohead dt 2 lc rgb 'gray40'"
			echo "set label \"$ev\" at $t, graph 0.97 rotate by 90 right font ',8' tc rgb 'gray30'"
		done < "$plotdir/$m.events"
		[ "$m" = plain ] && echo "set title 'without Tagger'" || echo "set title 'with Tagger'"
		printf 'plot '
		sep=
		while IFS=$'\t' read -r id name; do
			printf "%s'%s' using 1:2 with lines lw 2 title 'flow %s %s'" "$sep" "$plotdir/$m.$id.tsv" "$id" "$name"
			sep=', '
		done < "$plotdir/$m.flows"
		echo
	done
	echo "unset multiplot"
} > "$plotdir/plot.gp"
gnuplot "$plotdir/plot.gp" 2>&1 | grep -v "^$" >&2
rm -rf "$plotdir"
echo "samples: $OUT/summary.json"
echo "plot:    $OUT/throughput.png"
