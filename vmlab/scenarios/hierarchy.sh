#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034  # the SC_* settings are read by vmlab/scenario.sh
# The hierarchical lossless space (Tagger draft 7.5). The paper's Clos
# routes every host pair over all its up-down paths (ECMP) and runs
# throughput-intensive flows (--flows F, constant rate SC_MBIT, default 40
# Mbit/s) and latency-sensitive ones (--msgs L: a 16 KB message every 10
# ms, vmlab/flowlat.py) between random hosts; when every flow arrives, K
# random switch-to-switch links fail one after the other (--links K).
# Three schemes, the same flows and failures:
#   a  shortest and 1-bounce paths lossless (Tagger's two priorities:
#      rules compiled from the up-down + 1-bounce ELP); the switch in
#      front of a failure bounces the packets (local reroute);
#   b  shortest paths lossless, 1-bounce lossy (rules compiled from the
#      up-down paths only: a bounced packet matches no rule and goes on
#      in the lossy class, dropped where its queue overflows); same
#      local reroute;
#   c  only shortest paths: no bounce; on a failure the routes move to
#      the up-down paths that survive it (every path over the failed link
#      is withdrawn: a converged routing, at once), rules as in b.
# Per scheme, over the trials: goodput of the throughput flows in the
# second half of the window after the failures, completion times of the
# messages sent in the window that completed (percentiles over every
# message), messages that never completed over the whole run (sent by
# the senders minus completed at the receivers: a message with a datagram
# lost never completes; there is no retransmission), deadlocks, lossless and lossy drops, packets lost with
# the failed links.
#
#   vmlab scenario hierarchy [--trials N] [--links K] [--flows F] [--msgs L]
#                            [--seed S] [--out DIR] [--lab NAME]
D=$(cd "$(dirname "$0")" && pwd)
SC_NAME=${SC_NAME:-hierarchy}
SC_TOPO=$D/clos.topo
SC_ALGO=clos
SC_READY=${SC_READY:-flowing}
SC_WINDOW=${SC_WINDOW:-5}
SC_AFTER=${SC_AFTER:-2}
SC_MBIT=${SC_MBIT:-40}
# Messages go to port 4792, in the lossless class like the flows.
SC_UDP_DPORTS=4791-4792
MSG_BYTES=${MSG_BYTES:-16000}
MSG_SIZE=1000
MSG_INTERVAL=${MSG_INTERVAL:-10}
source "$D/../scenario.sh"
source "$D/../experiment.sh"
ex_args "$@"
links=2 nflows=4 nmsgs=4 seed=1
set -- "${EX_REST[@]}"
while [ $# -gt 0 ]; do
	case $1 in
	--links) links=$2; shift ;;
	--flows) nflows=$2; shift ;;
	--msgs) nmsgs=$2; shift ;;
	--seed) seed=$2; shift ;;
	*) echo "What is \"$1\"?" >&2; exit 2 ;;
	esac
	shift
done
for v in links nflows nmsgs seed; do
	[[ ${!v} =~ ^[0-9]{1,4}$ ]] || { echo "--${v#n}: a number, not \"${!v}\"" >&2; exit 2; }
done
ex_setup

# Latency-sensitive messages: "ID SRC DST" lines in MSG_FLOWS.
sc_start_extra() {
	local id src dst h
	for h in $(awk 'NF { print $3 }' <<< "$MSG_FLOWS" | sort -u); do
		lab_spawn "lrx-$h" "$h" "$SC_DIR/lat-$h.json" python3 "$VMLAB_DIR/flowlat.py" recv \
			--port 4792 --msg $(((MSG_BYTES + MSG_SIZE - 1) / MSG_SIZE))
	done
	for h in $(awk 'NF { print $3 }' <<< "$MSG_FLOWS" | sort -u); do
		lab_wait_udp "$h" 4792 || sc_broken "no message receiver bound on $h"
	done
	while read -r id src dst; do
		[ -n "$id" ] || continue
		lab_spawn "ltx-$id" "$src" "$SC_DIR/ltx-$id.json" python3 "$VMLAB_DIR/flowlat.py" send \
			"$(lab_host_addr "$dst")" --port 4792 --id "$id" --msg-bytes "$MSG_BYTES" \
			--size "$MSG_SIZE" --interval "$MSG_INTERVAL" --dscp "$SC_DSCP"
	done <<< "$MSG_FLOWS"
}
sc_stop_extra() {
	local id h
	for id in $(awk 'NF { print $1 }' <<< "$MSG_FLOWS"); do lab_stop "ltx-$id"; done
	sleep 0.5
	for h in $(awk 'NF { print $3 }' <<< "$MSG_FLOWS" | sort -u); do lab_stop "lrx-$h"; done
}
# Scheme c's failure: the paths over the link are withdrawn from the
# lab's routes first, so nobody is left in front of the failure to bounce.
sc_event_gfail() {
	local peer
	peer=$(awk -v n="${1%%:*}" -v p="${1#*:}" '$1 == "addr" && $2 == n && $3 == p { print $6 }' "$LAB_STATE/plan")
	awk -v a="${1%%:*}" -v b="$peer" '{
		for (i = 1; i < NF; i++) {
			x = $i; y = $(i + 1); sub(/:.*/, "", x); sub(/:.*/, "", y)
			if ((x == a && y == b) || (x == b && y == a)) next
		}
		print }' "$LAB_STATE/paths.elp" > "$LAB_STATE/paths.elp.new" &&
		mv "$LAB_STATE/paths.elp.new" "$LAB_STATE/paths.elp"
	lab_fail "$1"
}

"$TAGGER" paths updown "$SC_TOPO" -o "$SC_OUT/updown.elp" || exit 1
"$TAGGER" paths bounce=1 "$SC_TOPO" -o "$SC_OUT/bounce1.elp" || exit 1
# Each scheme's rules with verify's verdict over the ELP they come from.
"$TAGGER" -j compile "$SC_TOPO" "$SC_OUT/bounce1.elp" --algorithm clos -o "$SC_OUT/a.json" \
	> "$SC_OUT/a.compile.json" || exit 1
"$TAGGER" -j compile "$SC_TOPO" "$SC_OUT/updown.elp" --algorithm clos -o "$SC_OUT/b.json" \
	> "$SC_OUT/b.compile.json" || exit 1
cp "$SC_OUT/b.json" "$SC_OUT/c.json"
cp "$SC_OUT/b.compile.json" "$SC_OUT/c.compile.json"
# Paths the failures leave without a loop-free way on: for a and b the
# lab's local reroute has no detour for them (tagger lab plan counts them;
# the nodes before the failure still route into it, so their packets are
# dropped there), for c no up-down path of the pair survives.
unroutable() {
	local s=$1 l args=()
	# shellcheck disable=SC2016 # awk's $i
	shift
	if [ "$s" = c ]; then
		awk -v links="$*" -v topo="$SC_TOPO" 'BEGIN {
			n = split(links, L, " ")
			while ((getline line < topo) > 0) {
				split(line, f, " "); if (f[1] != "link") continue
				split(f[2], a, ":"); split(f[3], b, ":")
				for (i = 1; i <= n; i++) if (L[i] == f[2] || L[i] == f[3]) { cut[a[1] " " b[1]]; cut[b[1] " " a[1]] }
			}
		}
		{ pair = $1 " " $NF; all[pair]++; for (i = 1; i < NF; i++) if (($i " " $(i + 1)) in cut) next; ok[pair] }
		END { c = 0; for (p in all) if (!(p in ok)) c += all[p]; print c }' "$SC_OUT/updown.elp"
		return
	fi
	for l in "$@"; do args+=(--down "$l"); done
	l=$("$TAGGER" -j lab plan "$SC_TOPO" --paths "$SC_OUT/updown.elp" "${args[@]}" | jq .unroutable)
	echo "${l:-null}"
}
SC_ROUTES=$SC_OUT/updown.elp
mapfile -t hosts < <(awk '$1 == "host" { print $2 }' "$SC_TOPO")
mapfile -t fabric < <(awk '$1 == "switch" { sw[$2] } $1 == "link" {
	split($2, a, ":"); split($3, b, ":"); if ((a[1] in sw) && (b[1] in sw)) print $2 }' "$SC_TOPO")
pair() {
	local s d
	s=${hosts[RANDOM % ${#hosts[@]}]}
	while d=${hosts[RANDOM % ${#hosts[@]}]}; [ "$d" = "$s" ]; do :; done
	echo "$s $d"
}

RANDOM=$seed
: > "$SC_OUT/runs.jsonl"
for t in $(seq "$EX_TRIALS"); do
	flows='' MSG_FLOWS='' picked=()
	for i in $(seq "$nflows"); do flows+="$i $(pair) $SC_MBIT"$'\n'; done
	for i in $(seq "$nmsgs"); do MSG_FLOWS+="$((100 + i)) $(pair)"$'\n'; done
	while [ ${#picked[@]} -lt "$links" ]; do
		l=${fabric[RANDOM % ${#fabric[@]}]}
		[[ " ${picked[*]} " == *" $l "* ]] || picked+=("$l")
	done
	SC_FLOWS=$flows
	for s in a b c; do
		SC_RULES=$SC_OUT/$s.json SC_EVENTS=
		for l in "${picked[@]}"; do
			SC_EVENTS+="1.5 $([ $s = c ] && echo gfail || echo fail) $l"$'\n'
		done
		d=$SC_OUT/trial-$t/$s
		ex_run "$d" || echo "trial $t $s: run failed" >&2
		d=$d/tagger
		[ -f "$d/verdict.json" ] || continue
		jq -n -c --arg s "$s" --argjson t "$t" --arg fail "${picked[*]}" \
			--argjson unroutable "$(unroutable "$s" "${picked[@]}")" \
			--slurpfile v "$d/verdict.json" --slurpfile p "$d/pfc.json" \
			--slurpfile lat <(cat "$d"/lat-*.json 2>/dev/null) \
			--slurpfile ltx <(cat "$d"/ltx-*.json 2>/dev/null) "$EX_JQ"'
			$v[0] as $v | $v.schedule as $w |
			[$lat[].messages.each[] | select(.[0] >= $w.last_event and .[0] < $w.stop) | .[1]] as $fct |
			{scheme: $s, trial: $t, failed: $fail, kept: $w.kept, deadlock: $v.deadlock,
			 goodput_mbps: ([$v.flows[].after_mbps // 0] | add | r1),
			 fct_us: $fct,
			 messages_sent: ([$ltx[].messages] | add // 0),
			 messages_lost: (([$ltx[].messages] | add // 0) - ([$lat[].messages.completed] | add // 0)),
			 lossless_drops: $p[0].lossless_drops, lossy_drops: $p[0].lossy_drops,
			 failed_link_losses: $p[0].failed_link_losses, unroutable: $unroutable}' >> "$SC_OUT/runs.jsonl"
		jq -r 'select(.trial == '"$t"' and .scheme == "'"$s"'") | "trial \(.trial) \(.scheme) fail \(.failed): goodput \(.goodput_mbps) Mbit/s, \(.fct_us | length) messages, \(.messages_lost) of \(.messages_sent) lost, deadlock \(.deadlock), lossy drops \(.lossy_drops)\(if .kept then "" else ", SCHEDULE NOT KEPT" end)"' "$SC_OUT/runs.jsonl"
	done
done

jq -s "$EX_JQ"'
	def pct(p): sort | if length == 0 then null else .[([(p / 100 * length | ceil) - 1, 0] | max)] | r1 end;
	. as $runs | {scenario: "hierarchy", trials: $trials, links: $links, flows: $nflows, msgs: $nmsgs,
	 seed: $seed, flow_mbit: $mbit, message_bytes: $mb, message_interval_ms: $mi,
	 by_scheme: (group_by(.scheme) | map(map(select(.kept)) as $k | {key: .[0].scheme, value: {
		runs: length, schedule_kept: ($k | length),
		deadlocks: (map(select(.deadlock == true)) | length),
		no_verdict: (map(select(.deadlock == null)) | length),
		goodput_mbps_median: ($k | map(.goodput_mbps) | median | r1),
		messages: ($k | map(.fct_us | length) | add),
		messages_sent: ($k | map(.messages_sent) | add),
		messages_lost: ($k | map(.messages_lost) | add),
		fct_us: ([$k[].fct_us[]] | {p50: pct(50), p90: pct(90), p99: pct(99), max: pct(100)}),
		lossless_drops: (map(.lossless_drops // 0) | add),
		lossy_drops: (map(.lossy_drops // 0) | add),
		failed_link_losses: (map(.failed_link_losses // 0) | add),
		unroutable_paths: (map(.unroutable // 0) | add),
		runs_with_unroutable: (map(select((.unroutable // 0) > 0)) | length),
		rules_deadlock_free: $c[.[0].scheme][0].deadlock_free,
		rules_priorities: $c[.[0].scheme][0].priorities}}) | from_entries),
	 runs: ($runs | map(.fct_us |= length))}' \
	--argjson trials "$EX_TRIALS" --argjson links "$links" --argjson nflows "$nflows" \
	--argjson nmsgs "$nmsgs" --argjson seed "$seed" --argjson mbit "$SC_MBIT" \
	--argjson mb "$MSG_BYTES" --argjson mi "$MSG_INTERVAL" \
	--argjson c "$(jq -n --slurpfile a "$SC_OUT/a.compile.json" --slurpfile b "$SC_OUT/b.compile.json" \
		--slurpfile c "$SC_OUT/c.compile.json" '{a: $a, b: $b, c: $c}')" \
	"$SC_OUT/runs.jsonl" > "$SC_OUT/summary.json" || exit 1

jq -r '
	def f: if . == null then "-" else tostring end;
	.by_scheme as $b | ["a", "b", "c"] as $s |
	def row(l; g): [l] + [$s[] as $x | ($b[$x] // {} | g | f)] | @tsv;
	(["", "a: 1-bounce lossless", "b: 1-bounce lossy", "c: shortest only"] | @tsv),
	row("runs (schedule kept)"; "\(.runs) (\(.schedule_kept))"),
	row("goodput, throughput flows (Mbit/s, median)"; .goodput_mbps_median),
	row("messages completed in the windows"; .messages),
	row("message FCT p50 (us)"; .fct_us.p50),
	row("message FCT p90 (us)"; .fct_us.p90),
	row("message FCT p99 (us)"; .fct_us.p99),
	row("messages lost (never complete) / sent"; "\(.messages_lost) / \(.messages_sent)"),
	row("deadlocks (no verdict)"; "\(.deadlocks) (\(.no_verdict))"),
	row("lossless drops"; .lossless_drops),
	row("lossy drops"; .lossy_drops),
	row("lost with failed links"; .failed_link_losses),
	row("paths without a loop-free way (runs)"; "\(.unroutable_paths) (\(.runs_with_unroutable))"),
	row("rules verify deadlock-free (priorities)"; "\(if .rules_deadlock_free then "yes" else "NO" end) (\(.rules_priorities))")
' "$SC_OUT/summary.json" | column -t -s $'\t' | tee "$SC_OUT/table.txt"
echo "$EX_TRIALS trials, seed $seed, $links failed links each; $nflows flows at $SC_MBIT Mbit/s, $nmsgs message flows ($MSG_BYTES B every $MSG_INTERVAL ms); goodput: median over the kept runs of the flows' sum in the 2nd half of the window; FCT: every message sent in the window, pooled;" | tee -a "$SC_OUT/table.txt"
echo "no single bottleneck: the flows cross different links, so the table cannot tell link- from CPU-limited runs; goodput and FCT move with the load below; rules of a verified over the up-down + 1-bounce ELP, of b and c over the up-down ELP" | tee -a "$SC_OUT/table.txt"
ex_load | tee -a "$SC_OUT/table.txt"

if command -v gnuplot >/dev/null; then
	for s in a b c; do
		for t in $(seq "$EX_TRIALS"); do
			d=$SC_OUT/trial-$t/$s/tagger
			[ -f "$d/verdict.json" ] || continue
			jq -s --slurpfile v "$d/verdict.json" '$v[0].schedule as $w |
				.[].messages.each[] | select(.[0] >= $w.last_event and .[0] < $w.stop) | .[1]' \
				"$d"/lat-*.json 2>/dev/null
		done | sort -n | awk '{ v[NR] = $1 } END { for (i = 1; i <= NR; i++) print v[i] / 1000, i / NR }' \
			> "$SC_OUT/cdf-$s.tsv"
		jq -r --arg s "$s" 'select(.scheme == $s) | "\(.trial)\t\(.goodput_mbps)"' "$SC_OUT/runs.jsonl" \
			> "$SC_OUT/goodput-$s.tsv"
	done
	{
		echo "set terminal pngcairo size 1100,420 font ',10'"
		echo "set output '$SC_OUT/hierarchy.png'"
		echo "set multiplot layout 1,2 title 'hierarchy: $EX_TRIALS trials, $links random link failures each'"
		echo "set grid; set key bottom right"
		echo "set title 'completion time of the messages sent after the failures'"
		echo "set logscale x; set xlabel 'FCT (ms, log)'; set ylabel 'fraction of messages'; set yrange [0:1]"
		echo "plot '$SC_OUT/cdf-a.tsv' using 1:2 with lines lw 2 title 'a: 1-bounce lossless', '$SC_OUT/cdf-b.tsv' using 1:2 with lines lw 2 title 'b: 1-bounce lossy', '$SC_OUT/cdf-c.tsv' using 1:2 with lines lw 2 title 'c: shortest only'"
		echo "unset logscale x; set title 'goodput of the throughput flows after the failures'; set key outside right"
		echo "set xlabel 'trial'; set ylabel 'Mbit/s (sum)'; set yrange [0:*]; set xtics 1; set xrange [0.5:$EX_TRIALS.5]"
		echo "plot '$SC_OUT/goodput-a.tsv' using (\$1-0.15):2 with points pt 7 ps 1.5 title 'a', '$SC_OUT/goodput-b.tsv' using 1:2 with points pt 5 ps 1.5 title 'b', '$SC_OUT/goodput-c.tsv' using (\$1+0.15):2 with points pt 9 ps 1.5 title 'c'"
		echo "unset multiplot"
	} | gnuplot 2>&1 | grep -v '^$' >&2
	rm -f "$SC_OUT"/cdf-*.tsv "$SC_OUT"/goodput-*.tsv
fi
echo "summary: $SC_OUT/summary.json"
echo "table:   $SC_OUT/table.txt"
echo "plot:    $SC_OUT/hierarchy.png"
