#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# How a vmlab lab scales: k-ary fat-trees (k = 4 by default; the paper's
# k = 8 is 80 switches and 128 hosts) brought up with routes over every
# up-down path, the data plane attached on every node and a pause agent
# on every node, then taken down. Prints per size the time of each phase
# (namespaces, veths, addresses and routes, sysctls and offloads, data
# plane, pause agents, down), the memory the lab took (MemAvailable, slab,
# the processes' PSS), what the idle agents cost in CPU, and the machine's
# load. The machine is shared: every row says the load average it ran at.
#
#   BENCH_LAB_K="4 6 8"   sizes (default 4)
#   BENCH_LAB_RUNS=N      runs per size, medians reported (default 1)
#   BENCH_LAB_REV=COMMIT  also bring up with vmlab/ of COMMIT, alternating
#                         with this tree's in the same run: the before/after
#                         of a change to the bring-up (totals only; the old
#                         one has no phase marks)
#   BENCH_LAB_OLD_TAGGER=PATH  the tagger binary the old tree runs (default:
#                         this tree's), e.g. one built from COMMIT
#   BENCH_LAB_PFC=0       no data plane and no agents (the lab alone)
#   BENCH_LAB_IDLE=S      seconds the idle agents' CPU is sampled (default 5)
#   BENCH_LAB_TRAFFIC=S   then S seconds of traffic (default 0: none): 4
#                         flows of BENCH_LAB_MBIT (20) Mbit/s in the lossless
#                         class, host i to host N/2 + i (across the core);
#                         their received Mbit/s, lossless drops and the
#                         agents' CPU meanwhile
#   BENCH_LAB_OUT=DIR     keep the per-run JSON lines there
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd jq
"$TAGGER" pfc help >/dev/null 2>&1 || skip "this build has no tagger pfc"

sizes=${BENCH_LAB_K:-4}
runs=${BENCH_LAB_RUNS:-1}
idle=${BENCH_LAB_IDLE:-5}
pfc=${BENCH_LAB_PFC:-1}
traffic=${BENCH_LAB_TRAFFIC:-0}
out=${BENCH_LAB_OUT:-$TGR_TMP/out}
mkdir -p "$out"
LAB=${TGR_PREFIX}b
# Whatever happens, the lab goes (its state is recorded before anything
# is made, so down works after a kill at any instant too).
tgr_on_exit 'bash "$TOP/vmlab/vmlab" -n "$LAB" down'

trees=(new)
if [ -n "${BENCH_LAB_REV:-}" ]; then
	mkdir -p "$TGR_TMP/old"
	git -C "$TOP" archive "$BENCH_LAB_REV" vmlab | tar -x -C "$TGR_TMP/old" ||
		fail "cannot read vmlab/ of $BENCH_LAB_REV"
	trees=(old new)
	tgr_on_exit 'TOP="$TOP" bash "$TGR_TMP/old/vmlab/vmlab" -n "$LAB" down'
fi

meminfo() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }
load1() { cut -d' ' -f1 /proc/loadavg; }

# Pids of every process in the lab's namespaces.
lab_procs() {
	local ns
	while read -r ns; do ip netns pids "$ns" 2>/dev/null; done < "$LAB_STATE/netns"
}

# utime + stime of PIDS in clock ticks.
cpu_ticks() {
	local p t=0 f
	for p in "$@"; do
		f=$(cat "/proc/$p/stat" 2>/dev/null) || continue
		f=${f##*) }
		read -r -a f <<< "$f"
		t=$((t + f[11] + f[12]))
	done
	echo "$t"
}

pss_kb() {
	local p t=0 v
	for p in "$@"; do
		v=$(awk '$1 == "Pss:" { print $2 }' "/proc/$p/smaps_rollup" 2>/dev/null)
		t=$((t + ${v:-0}))
	done
	echo "$t"
}

# traffic_run PIDS: 4 flows across the core for $traffic s while the
# agents (PIDS, the lab's processes before the flows) run; one JSON object:
# per flow the median of its 1-s received Mbit/s (a busy machine starts
# the senders late: a mean over the window would count the wait), the
# lossless drops, the agents' CPU.
traffic_run() {
	local -a hosts
	local i n src dst c0 c1 w0 w1 drops
	mapfile -t hosts < <(lab_nodes host)
	n=${#hosts[@]}
	for i in 0 1 2 3; do
		dst=${hosts[n / 2 + i]}
		lab_spawn "rx-$dst" "$dst" "$SC_DIR/rx-$dst.json" "$TAGGER" flow recv \
			--interval 1000 --seconds $((traffic + 60))
	done
	for i in 0 1 2 3; do lab_wait_udp "${hosts[n / 2 + i]}" 4791 || return 1; done
	c0=$(cpu_ticks "$@") w0=$EPOCHREALTIME
	for i in 0 1 2 3; do
		src=${hosts[i]} dst=${hosts[n / 2 + i]}
		lab_spawn "tx-$i" "$src" "$SC_DIR/tx-$i.json" "$TAGGER" flow send \
			"$(lab_host_addr "$dst")" --id $((i + 1)) --rate "${BENCH_LAB_MBIT:-20}" \
			--dscp "$SC_DSCP" --prio "$SC_PRIO" --seconds "$traffic"
	done
	sleep "$traffic"
	c1=$(cpu_ticks "$@") w1=$EPOCHREALTIME
	sleep 4
	sc_pause_collect
	drops=$(jq '.lossless_drops // 0' "$SC_DIR/pfc.json" 2>/dev/null)
	for i in 0 1 2 3; do cat "$SC_DIR/rx-${hosts[n / 2 + i]}.json"; done |
		jq -s --argjson s "$traffic" --argjson drops "${drops:-null}" \
			--argjson cpu "$(echo "scale=3; ($c1 - $c0) / $(getconf CLK_TCK) / ($w1 - $w0)" | bc)" \
			'{seconds: $s, agents_cpu_cores: $cpu, lossless_drops: $drops,
			  mbps: [group_by(.flow)[] | [.[] | select(.mbps != null and .mbps > 0) | .mbps] |
				sort | .[length / 2 | floor] // 0 | . * 10 | round / 10]}' | jq -c .
}

netns_objs() { awk '$1 == "net_namespace" { print $2 }' /proc/slabinfo; }

# one_run TREE K: bring the fat-tree up with TREE's vmlab (old or new),
# the data plane and the agents, measure, take it down; one JSON line.
one_run() {
	local tree=$1 k=$2 dir=$TOP/vmlab TAGGER=$TAGGER
	if [ "$tree" = old ]; then
		dir=$TGR_TMP/old/vmlab
		TAGGER=${BENCH_LAB_OLD_TAGGER:-$TAGGER}
	fi
	local topo=$TGR_TMP/ft$k.topo
	(
		export TOP LAB_QUIET=1
		export LAB_PHASES=$TGR_TMP/phases
		: > "$LAB_PHASES"
		source "$dir/scenario.sh"
		# The old tree has no lab_mark: marks of our own around its steps.
		declare -F lab_mark >/dev/null || lab_mark() {
			local -a st
			read -r -a st < "/proc/$BASHPID/stat"
			echo "$1 $EPOCHREALTIME $((st[13] + st[14] + st[15] + st[16]))" >> "$LAB_PHASES"
		}
		mark() { lab_mark "$1"; }
		lab_init "$LAB"
		SC_DIR=$TGR_TMP/sc; rm -rf "$SC_DIR"; mkdir -p "$SC_DIR"
		local load0 avail0 slab0 sunr0 pcpu0 ns0 pids c_ready c0 c1 avail1 slab1 sunr1 pcpu1 pss freed i spawned w0 w1
		sync
		load0=$(load1) ns0=$(netns_objs)
		avail0=$(meminfo MemAvailable) slab0=$(meminfo Slab)
		sunr0=$(meminfo SUnreclaim) pcpu0=$(meminfo Percpu)
		mark begin
		lab_up "$topo" --paths "$TGR_TMP/ft$k.elp" || exit 3
		mark up
		if [ "$pfc" = 1 ] && declare -F sc_nodes_up >/dev/null; then
			# It marks "dataplane" itself: the agents start meanwhile.
			sc_nodes_up plain || exit 3
			mark agents
		elif [ "$pfc" = 1 ]; then
			sc_dataplane plain || exit 3
			mark dataplane
			sc_pause_start || exit 3
			mark agents
		fi
		mapfile -t pids < <(lab_procs)
		c_ready=$(cpu_ticks "${pids[@]}")
		sleep 1
		# Over the time really elapsed: reading hundreds of /proc files on
		# a busy machine takes seconds of its own.
		c0=$(cpu_ticks "${pids[@]}") w0=$EPOCHREALTIME
		sleep "$idle"
		c1=$(cpu_ticks "${pids[@]}") w1=$EPOCHREALTIME
		avail1=$(meminfo MemAvailable) slab1=$(meminfo Slab)
		sunr1=$(meminfo SUnreclaim) pcpu1=$(meminfo Percpu)
		pss=$(pss_kb "${pids[@]}")
		flows=null
		if [ "$traffic" != 0 ] && [ "$pfc" = 1 ]; then
			flows=$(traffic_run "${pids[@]}") || exit 3
		fi
		# The spawned agents are this shell's children: what they used
		# until now joins its CPU count when down reaps them, and is not
		# down's.
		# shellcheck disable=SC2046
		spawned=$(cpu_ticks $(awk '{ print $1 }' "$LAB_STATE/pids"))
		mark down
		lab_down || exit 3
		mark gone
		# No namespace of the lab may be left.
		if ip netns list 2>/dev/null | grep -q "^$LAB-"; then
			echo "namespaces of $LAB left behind" >&2; exit 3
		fi
		# The kernel frees deleted namespaces later, in a work queue; until
		# then the next lab's namespaces wait for it. Up to 120 s for the
		# count of namespaces to fall back to where it was (other users of
		# the machine make and delete namespaces too).
		freed=null
		for i in $(seq 1200); do
			[ "$(netns_objs)" -le $((ns0 + 2)) ] && { freed=$(echo "$i * 0.1" | bc); break; }
			sleep 0.1
		done
		jq -cn --arg tree "$tree" --argjson k "$k" --rawfile ph "$LAB_PHASES" \
			--argjson hz "$(getconf CLK_TCK)" \
			--argjson procs "${#pids[@]}" \
			--argjson agents_cpu "$(echo "scale=2; $c_ready / $(getconf CLK_TCK)" | bc)" \
			--argjson cpu "$(echo "scale=3; ($c1 - $c0) / $(getconf CLK_TCK) / ($w1 - $w0)" | bc)" \
			--argjson avail "$(( (avail0 - avail1) / 1024 ))" \
			--argjson slab "$(( (slab1 - slab0) / 1024 ))" \
			--argjson sunr "$(( (sunr1 - sunr0) / 1024 ))" \
			--argjson pcpu "$(( (pcpu1 - pcpu0) / 1024 ))" \
			--argjson pss "$((pss / 1024))" --argjson freed "$freed" \
			--argjson spawned "$spawned" \
			--argjson load0 "$load0" --argjson load1 "$(load1)" \
			--arg tagger "$TAGGER" --argjson flows "$flows" '
			[$ph | split("\n")[] | select(length > 0) | split(" ") |
				{key: .[0], t: (.[1] | tonumber), cpu: (.[2] | tonumber)}] as $m |
			($m | map({key, value: .}) | from_entries) as $at |
			def d(a; b; less): if $at[a] and $at[b] then
				{s: (($at[b].t - $at[a].t) * 100 | round / 100),
				 cpu: (($at[b].cpu - $at[a].cpu - less) / $hz * 100 | round / 100)} else null end;
			def d(a; b): d(a; b; 0);
			{tree: $tree, k: $k, tagger: $tagger,
			 total: {up: d("begin"; "up"), dataplane: d("up"; "dataplane"),
				 agents: d("dataplane"; "agents"), down: d("down"; "gone"; $spawned)},
			 phases: {plan: d("up-begin"; "plan"), netns: d("plan"; "netns"),
				  veths: d("netns"; "veths"), addr_routes: d("veths"; "addr"),
				  sysctl_offloads: d("addr"; "config"),
				  down_processes: d("down-begin"; "down-processes"; $spawned),
				  down_netns: d("down-processes"; "down-netns")},
			 netns_freed_s: $freed,
			 procs: $procs, agents_own_cpu_s: $agents_cpu, idle_cpu_cores: $cpu,
			 mem_mib: {available_drop: $avail, slab: $slab, slab_unreclaimable: $sunr,
				   percpu: $pcpu, pss_processes: $pss},
			 traffic: $flows,
			 load_before: $load0, load_after: $load1}'
	)
}

echo "vmlab fat-trees: up (phases), data plane, pause agents, memory, down"
echo "  2 cores shared with other work: each row gives the 1-min load average before/after;"
echo "  times are wall s / CPU s of the bring-up's own processes (agents' own CPU apart)"
show_run() {
	jq -r 'def t(x): if x == null then "-" else "\(x.s)/\(x.cpu)" end;
		"  k=\(.k) \(.tree): up \(t(.total.up)) (\(.phases | to_entries |
		map(select(.value != null) | "\(.key) \(t(.value))") | join(", "))), data plane \(t(.total.dataplane)),
		agents \(t(.total.agents)) (+\(.agents_own_cpu_s) s their own), down \(t(.total.down)),
		namespaces freed by the kernel \(.netns_freed_s // ">120") s later;
		\(.procs) processes, idle CPU \(.idle_cpu_cores) cores;
		\(if .traffic then "traffic \(.traffic.seconds) s: Mbit/s received \(.traffic.mbps | join(" ")), lossless drops \(.traffic.lossless_drops), agents \(.traffic.agents_cpu_cores) cores;" else "" end)
		MemAvailable -\(.mem_mib.available_drop) MiB (slab +\(.mem_mib.slab), PSS \(.mem_mib.pss_processes));
		load \(.load_before) -> \(.load_after)"' | tr -s '\t\n ' ' '
	echo
}
for k in $sizes; do
	"$TAGGER" topo fattree "$k" -o "$TGR_TMP/ft$k.topo" || fail "topo fattree $k"
	"$TAGGER" paths updown "$TGR_TMP/ft$k.topo" -o "$TGR_TMP/ft$k.elp" || fail "paths updown"
	for r in $(seq "$runs"); do
		for tree in "${trees[@]}"; do
			one_run "$tree" "$k" >> "$out/runs.json" || fail "k=$k $tree run $r failed"
			tail -1 "$out/runs.json" | show_run
		done
	done
done
echo "medians (wall s / CPU s, MiB):"
jq -s -r 'group_by([.k, .tree])[] | . as $g |
	def med(f): [$g[] | f] | sort | .[length / 2 | floor];
	def t(f): "\(med(f.s))/\(med(f.cpu))";
	"  k=\(.[0].k) \(.[0].tree) (\(length) runs): up \(t(.total.up)), data plane \(t(.total.dataplane)), agents \(t(.total.agents)), down \(t(.total.down)), MemAvailable -\(med(.mem_mib.available_drop)), PSS \(med(.mem_mib.pss_processes)), idle CPU \(med(.idle_cpu_cores)) cores"' \
	"$out/runs.json"
if [ ${#trees[@]} = 2 ]; then
	echo "new / old, medians of the same run (CPU is the steadier measure on a busy machine):"
	jq -s -r 'group_by(.k)[] | . as $g |
		def med(t; f): [$g[] | select(.tree == t) | f] | sort | .[length / 2 | floor];
		def r(f): if med("old"; f) > 0 then med("new"; f) / med("old"; f) * 100 | round / 100 else null end;
		"  k=\(.[0].k): up \(r(.total.up.s))x wall, \(r(.total.up.cpu))x CPU; data plane \(r(.total.dataplane.s))x wall, \(r(.total.dataplane.cpu))x CPU; agents \(r(.total.agents.s))x wall; down \(r(.total.down.s))x wall, \(r(.total.down.cpu))x CPU"' \
		"$out/runs.json"
fi

# Where people would rather look than read: per size, the median wall time
# of each phase (stacked) and the memory the lab took, as OUT/lab-scale.png.
command -v gnuplot >/dev/null || { echo "(gnuplot missing: no plot)"; exit 0; }
jq -s -r 'map(select(.tree == "new")) | group_by(.k)[] | . as $g |
	def med(f): [$g[] | f // 0] | sort | .[length / 2 | floor];
	[.[0].k, med(.phases.netns.s) + med(.phases.veths.s) + med(.phases.plan.s),
	 med(.phases.addr_routes.s), med(.phases.sysctl_offloads.s), med(.total.dataplane.s),
	 med(.total.agents.s), med(.total.down.s), med(.mem_mib.available_drop),
	 med(.mem_mib.pss_processes), med(.mem_mib.slab)] | @tsv' "$out/runs.json" > "$out/scale.tsv"
gnuplot <<GP 2>&1 | grep -v '^$' >&2
set terminal pngcairo size 1000,420 font ',10'
set output '$out/lab-scale.png'
set multiplot layout 1,2 title "vmlab fat-trees on 2 shared cores (load avg $(jq -s -r '[.[] | .load_before, .load_after] | min' "$out/runs.json")-$(jq -s -r '[.[] | .load_before, .load_after] | max' "$out/runs.json"))"
set style data histograms
set style histogram rowstacked
set style fill solid 0.8 border -1
set boxwidth 0.6
set ylabel 'seconds (wall, median)'
set xlabel 'fat-tree k'
set key top left
plot '$out/scale.tsv' using 2:xtic(1) title 'plan+netns+veths', '' using 3 title 'addresses, routes', \
	'' using 4 title 'sysctls, offloads', '' using 5 title 'data plane', '' using 6 title 'pause agents', \
	'' using 7 title 'down'
set ylabel 'MiB'
set style histogram clustered gap 1
plot '$out/scale.tsv' using 8:xtic(1) title 'MemAvailable drop', '' using 9 title 'PSS of processes', \
	'' using 10 title 'slab'
unset multiplot
GP
echo "plot: $out/lab-scale.png"
