#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034  # the SC_* settings are read by vmlab/scenario.sh
# Overhead against hops (Tagger draft 7.3.2, scenario 1): one flow h1 -> h2
# through a line of m switches, m = 1..8, each of which classifies the tag
# into a priority and rewrites it (tag i -> i + 1, priorities alternating
# 1, 2: tagging and priority manipulation at every hop), against the same
# line without Tagger's programs ("none": the hosts send DSCP 26 and the
# pause agents map it to priority 3) and, with --plain, with the programs
# and one rule per switch (what scenario.sh calls plain). A pause agent on
# every node in every variant (lossless 1,2,3). Per run two phases:
#   latency:    a 10 Mbit/s flow (1000 B datagrams), one-way latency per
#               datagram (vmlab/flowlat.py: kernel receive stamp minus the
#               send time in the datagram), percentiles;
#   throughput: a flow offering SC_OFFER Mbit/s (default 600) on links of
#               SC_RATE (default 1gbit): the bytes `tagger flow recv`
#               received over the sender's time, and the loss. Software
#               forwarding through m namespaces on shared cores cannot
#               carry that: the pauses hold the sender back (lossless),
#               so this is the rate the path's CPU sustains, the
#               per-packet cost of m hops, not a link's.
# The variants run one after the other for each m, the m in turn, trials
# repeat that; the table gives medians over the trials.
#
# With --tables (draft 7.3.2, scenario 2) the line is one switch and what
# grows is its rule table instead: 63 tags on 2, 5, 13 and 40 ports (idle
# veths beside the two real ones), every (in-port, tag) classified
# and every (tag, in, out) rewritten: 378, 1,890, 11,466 and 103,320
# rules; the flow's own rules among them. Same two phases, same variants.
#
#   vmlab scenario hops [--trials N] [--max M] [--plain] [--tables]
#                       [--out DIR] [--lab NAME]
D=$(cd "$(dirname "$0")" && pwd)
SC_NAME=${SC_NAME:-hops}
SC_RATE=${SC_RATE:-1gbit}
SC_OFFER=${SC_OFFER:-600}
HOPS_PHASE=${HOPS_PHASE:-3}
source "$D/../scenario.sh"
source "$D/../experiment.sh"
ex_args "$@"
max=8 variants="none tagger" tables=0
set -- "${EX_REST[@]}"
while [ $# -gt 0 ]; do
	case $1 in
	--max) max=$2; shift ;;
	--plain) variants="none plain tagger" ;;
	--tables) tables=1 ;;
	*) echo "What is \"$1\"?" >&2; exit 2 ;;
	esac
	shift
done
[[ $max =~ ^[1-8]$ ]] || { echo "--max: 1 to 8, not \"$max\"" >&2; exit 2; }
[ "$tables" = 1 ] && SC_NAME=hops-tables
ex_setup

# The line of m switches: topology, its one path, Tagger's rules for it.
line_files() {
	local m=$1 i prev next
	{
		for i in $(seq "$m"); do echo "switch S$i layer=0"; done
		echo "host h1"; echo "host h2"
		echo "link h1:eth0 S1:h1"
		for i in $(seq 2 "$m"); do echo "link S$((i - 1)):S$i S$i:S$((i - 1))"; done
		echo "link S$m:h2 h2:eth0"
	} > "$SC_OUT/line-$m.topo"
	echo "h1 $(seq -f 'S%g' "$m" | tr '\n' ' ')h2" > "$SC_OUT/line-$m.elp"
	for i in $(seq "$m"); do
		prev=S$((i - 1)) next=S$((i + 1))
		[ "$i" = 1 ] && prev=h1
		[ "$i" = "$m" ] && next=h2
		echo "S$i $prev $next $i"
	done | jq -Rn '[inputs | split(" ")] as $sw |
		def prio: if . % 2 == 1 then 1 else 2 end;
		{format: "tagger-rules/1", lossy: {tag: 0, priority: 0},
		 tags: [range(1; ($sw | length) + 2) | {tag: ., priority: prio}],
		 hosts: {h1: {tag: 1}, h2: {tag: 1}},
		 switches: ([$sw[] | (.[3] | tonumber) as $i | {(.[0]): {
			ports: [.[1], .[2]],
			classify: [{in: .[1], tag: $i, priority: ($i | prio)}],
			rewrite: [{tag: $i, in: .[1], out: .[2], new_tag: ($i + 1)}]}}] | add)}' \
		> "$SC_OUT/line-$m.rules.json"
}

# S1's rules on PORTS ports (h1, h2 and dummies d1..): every tag of 1..63
# on every port, the flow's rules (tag 1 in at h1, out at h2 as tag 2).
table_rules() {
	python3 - "$1" "$SC_OUT/table-$1.rules.json" <<'PY'
import json, sys
n = int(sys.argv[1])
ports = ["h1", "h2"] + ["d%d" % i for i in range(1, n - 1)]
prio = lambda t: 1 + (t + 1) % 2
r = {"format": "tagger-rules/1", "lossy": {"tag": 0, "priority": 0},
     "tags": [{"tag": t, "priority": prio(t)} for t in range(1, 64)],
     "hosts": {"h1": {"tag": 1}, "h2": {"tag": 1}},
     "switches": {"S1": {"ports": ports,
         "classify": [{"in": p, "tag": t, "priority": prio(t)} for p in ports for t in range(1, 64)],
         "rewrite": [{"tag": t, "in": i, "out": o, "new_tag": 2 if (t, i, o) == (1, "h1", "h2") else t}
                     for t in range(1, 64) for i in ports for o in ports]}}}
json.dump(r, open(sys.argv[2], "w"))
PY
}

# One run: the line of $1 switches in variant $2, results in $3; with
# --tables the one switch has $4 ports and their rules.
hops_run() {
	local m=$1 v=$2 dir=$3 ports=${4:-} dst i
	SC_DIR=$dir SC_TOPO=$SC_OUT/line-$m.topo
	rm -rf "$dir"; mkdir -p "$dir"
	lab_up "$SC_TOPO" --paths "$SC_OUT/line-$m.elp" || return 1
	for i in $(seq 1 $((${ports:-2} - 2))); do
		# (veth: this kernel has no dummy interfaces; the peer x$i idles)
		ip -n "$(lab_ns S1)" link add "d$i" type veth peer name "x$i" &&
			ip -n "$(lab_ns S1)" link set "d$i" up || return 1
	done
	if [ "$v" = none ]; then
		SC_DSCP_MAP="26:3,0:0"
	else
		SC_RULES=$SC_OUT/line-$m.rules.json
		[ -n "$ports" ] && SC_RULES=$SC_OUT/table-$ports.rules.json
		if [ "$v" = tagger ]; then sc_dataplane tagger; else sc_dataplane plain; fi || return 1
	fi
	SC_LOSSLESS=1,2,3
	sc_pause_start || return 1
	dst=$(lab_host_addr h2)
	lab_spawn lat h2 "$dir/latency.json" python3 "$VMLAB_DIR/flowlat.py" recv --seconds $((HOPS_PHASE + 2))
	sleep 1
	lab_exec h1 "$TAGGER" flow send "$dst" --rate 10 --size 1000 --dscp 26 --prio 3 \
		--seconds "$HOPS_PHASE" > "$dir/tx-latency.json" 2>&1
	while kill -0 "$(lab_pid lat)" 2>/dev/null; do sleep 0.2; done
	lab_spawn rx h2 "$dir/rx.json" "$TAGGER" flow recv --interval 100
	sleep 0.3
	lab_exec h1 "$TAGGER" flow send "$dst" --rate "$SC_OFFER" --size 1400 --dscp 26 --prio 3 \
		--seconds "$HOPS_PHASE" > "$dir/tx.json" 2>&1
	sleep 0.5
	lab_stop rx
	sc_pause_collect
	lab_down
}

xs=$(seq "$max")
if [ "$tables" = 1 ]; then
	line_files 1
	xs="2 5 13 40"
	for x in $xs; do table_rules "$x"; done
else
	for m in $xs; do line_files "$m"; done
fi
: > "$SC_OUT/runs.jsonl"
for t in $(seq "$EX_TRIALS"); do
	for m in $xs; do
		for v in $variants; do
			d=$SC_OUT/trial-$t/m$m-$v
			if [ "$tables" = 1 ]; then set -- 1 "$v" "$d" "$m"; else set -- "$m" "$v" "$d"; fi
			( trap 'lab_down_mine' EXIT; export LAB_QUIET=1; hops_run "$@" ) >/dev/null 2>&1 ||
				echo "trial $t m=$m $v: run failed" >&2
			lab_init "${LAB_NAME:-$SC_NAME}"
			# Goodput over the phase's second half; latency percentiles.
			rules=$m
			[ "$tables" = 1 ] && rules=$((63 * m + 63 * m * m))
			jq -n -c --arg v "$v" --argjson m "$m" --argjson t "$t" --argjson rules "$rules" \
				--slurpfile lat <(cat "$d/latency.json" 2>/dev/null) \
				--slurpfile rx <(cat "$d/rx.json" 2>/dev/null) \
				--slurpfile tx <(cat "$d/tx.json" 2>/dev/null) \
				--slurpfile p <(cat "$d/pfc.json" 2>/dev/null) "$EX_JQ"'
				([$rx[] | select(.final)] | first) as $fin |
				{variant: $v, m: $m, trial: $t, rules: $rules,
				 latency_us: ($lat[0].latency_us // null), latency_lost: ($lat[0].lost // null),
				 goodput_mbps: (if $fin and $tx[0].seconds then $fin.rx_bytes * 8 / $tx[0].seconds / 1e6 | r1 else null end),
				 sent: ($tx[0].sent_pkts // null),
				 received: ([$rx[] | select(.final)] | first | .rx // null),
				 lost: ([$rx[] | select(.final)] | first | .lost // null),
				 lossless_drops: ($p[0].lossless_drops // null)}' | tee -a "$SC_OUT/runs.jsonl" |
				jq -r '"trial \(.trial) m=\(.m) \(.variant): latency p50 \(.latency_us.p50) us p99 \(.latency_us.p99) us, goodput \(.goodput_mbps) Mbit/s, lost \(.lost)"'
		done
	done
done

jq -s "$EX_JQ"' . as $runs | {scenario: "hops", trials: $trials, link: $link, offered_mbps: $offer,
	by_m: (group_by(.m) | map({m: .[0].m, rules: .[0].rules, variants: (group_by(.variant) | map({key: .[0].variant, value: {
		runs: length,
		latency_p50_us: (map(.latency_us.p50) | median | r1),
		latency_p99_us: (map(.latency_us.p99) | median | r1),
		goodput_mbps: (map(.goodput_mbps) | median | r1),
		lost: (map(.lost) | median),
		lossless_drops: (map(.lossless_drops // 0) | add)}}) | from_entries)})),
	runs: $runs}' --argjson trials "$EX_TRIALS" --arg link "$SC_RATE" --argjson offer "$SC_OFFER" \
	"$SC_OUT/runs.jsonl" > "$SC_OUT/summary.json" || exit 1
{
	if [ "$tables" = 1 ]; then printf 'ports (rules)'; else printf 'm'; fi
	for v in $variants; do printf '\t%s p50 us\t%s p99 us\t%s Mbit/s\t%s lost' "$v" "$v" "$v" "$v"; done
	echo
	jq -r --arg vs "$variants" --arg t "$tables" '.by_m[] | .variants as $x | [if $t == "1" then "\(.m) (\(.rules))" else .m end] +
		[$vs | split(" ")[] as $v | $x[$v] // {} | .latency_p50_us, .latency_p99_us, .goodput_mbps, .lost |
		 if . == null then "-" else tostring end] | @tsv' "$SC_OUT/summary.json"
} | column -t -s $'\t' | tee "$SC_OUT/table.txt"
echo "medians over $EX_TRIALS trials; latency: 10 Mbit/s of 1000 B datagrams, one way; goodput: $SC_OFFER Mbit/s offered on $SC_RATE links, 1400 B" | tee -a "$SC_OUT/table.txt"
ex_load | tee -a "$SC_OUT/table.txt"

if command -v gnuplot >/dev/null; then
	for v in $variants; do
		jq -r --arg v "$v" '.by_m[] | [.rules // .m, (.variants[$v] | .latency_p50_us, .latency_p99_us, .goodput_mbps) // "NaN"] | @tsv' \
			"$SC_OUT/summary.json" > "$SC_OUT/plot-$v.tsv"
	done
	{
		echo "set terminal pngcairo size 1100,420 font ',10'"
		echo "set output '$SC_OUT/hops.png'"
		if [ "$tables" = 1 ]; then
			echo "set multiplot layout 1,2 title 'hops --tables: a flow through one switch with a growing rule table (medians of $EX_TRIALS trials)'"
			echo "set xlabel 'rules on the switch (log)'; set logscale x; set grid; set key top left"
		else
			echo "set multiplot layout 1,2 title 'hops: a flow through m tagging hops (medians of $EX_TRIALS trials)'"
			echo "set xlabel 'hops m'; set grid; set key top left; set xrange [0.5:$max.5]; set xtics 1"
		fi
		echo "set ylabel 'one-way latency (us)'; set yrange [0:*]; set title 'latency, 10 Mbit/s flow'"
		printf 'plot '
		sep=
		for v in $variants; do
			printf "%s'%s' using 1:2 with linespoints lw 2 title '%s p50', '%s' using 1:3 with linespoints dt 2 lw 2 title '%s p99'" \
				"$sep" "$SC_OUT/plot-$v.tsv" "$v" "$SC_OUT/plot-$v.tsv" "$v"
			sep=', '
		done
		echo
		echo "set ylabel 'goodput (Mbit/s)'; set title 'goodput, $SC_OFFER Mbit/s offered'"
		printf 'plot '
		sep=
		for v in $variants; do
			printf "%s'%s' using 1:4 with linespoints lw 2 title '%s'" "$sep" "$SC_OUT/plot-$v.tsv" "$v"
			sep=', '
		done
		echo
		echo "unset multiplot"
	} | gnuplot 2>&1 | grep -v '^$' >&2
	rm -f "$SC_OUT"/plot-*.tsv
fi
echo "summary: $SC_OUT/summary.json"
echo "table:   $SC_OUT/table.txt"
echo "plot:    $SC_OUT/hops.png"
