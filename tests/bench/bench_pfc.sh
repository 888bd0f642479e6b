#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Pause latency of the software PFC: from an (in-port, priority) crossing
# XOFF on a switch to its upstream neighbour's gate being closed, and from
# the crossing of XON to the upstream queue running again. Chains
#   h1 -- s1 -- ... -- sN -- h2   (100 Mbit/s, the last hop 20 Mbit/s)
# carry a 60 Mbit/s lossless flow for a few seconds, so every hop pauses
# and resumes its upstream many times; the agents' traces are paired by
# tests/bench/pfc_latency.py. Goal: median <= 100 us, p99 <= 1 ms; for
# "XON -> upstream sends again", median <= 40 us and p99 <= 250 us.
# Each chain runs with the defaults and with --busy-poll 0 (the agents
# sleep in epoll until an event comes, instead of polling around each
# expected resume), alternating for BENCH_ROUNDS rounds (default 2) so that
# both see the same machine, pooled per mode; then once with --slow-pause
# (the agent sends every PAUSE) and once with --cpu-latency none (idle
# CPUs may sleep). The ratios of the medians are of this one run. For
# "XON -> upstream sends again" it prints each stage's share: the
# downstream agent sending the resume, the upstream agent opening its
# gate, the reopened queue's first packet; and how much CPU polling took.
# BENCH_SECONDS (default 5), BENCH_CHAINS (default "2 4"; "" none), BENCH_KEEP=DIR
# keeps the traces there, BENCH_BUSY_POLL=US runs the polling side with
# that budget instead of the default.
# Before/after in one run: BENCH_PFC_BASE=BINARY (e.g. the path printed by
# tools/bench-ab.sh --binary REV) runs each chain with the defaults of this
# tree and of BINARY, alternating, and prints this / BINARY (no other mode).
# BENCH_PFC_IDLE=N first measures what idle agents cost: a chain of N
# switches (N + 2 agents) with no traffic, the agents' and standbys' CPU
# (utime + stime from /proc/PID/stat) over BENCH_IDLE_SECONDS (default 10)
# after they settled, alternating this tree and BENCH_PFC_BASE if set.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../shell/pfc_lib.sh"
require_root
require_cmd python3
secs=${BENCH_SECONDS:-5}
rounds=${BENCH_ROUNDS:-2}
LAT=$TOP/tests/bench/pfc_latency.py

# run_chain N MODE TAG: one run; its trace pairs go to $TGR_TMP/TAG.pairs,
# its losses to $TGR_TMP/TAG.lost.
run_chain() {
	local n=$1 mode=$2 tag=$3 k pairs=() prev next opt=() d
	local TAGGER=$TAGGER	# pfc_agent and the shows below use it
	[ "$mode" = base ] && TAGGER=$BENCH_PFC_BASE
	[ "$mode" = slow ] && opt=(--slow-pause)
	[ "$mode" = sleep ] && opt=(--cpu-latency none)
	[ "$mode" = nopoll ] && opt=(--busy-poll 0)
	[ "$mode" = fast ] && [ -n "${BENCH_BUSY_POLL:-}" ] && opt=(--busy-poll "$BENCH_BUSY_POLL")
	d=$TGR_TMP/$tag
	mkdir -p "$d"
	pfc_chain "$n"
	pfc_agent h1 up=h1-s1 --trace "$d/h1.trace" "${opt[@]}"
	for k in $(seq "$n"); do
		prev=$([ "$k" -eq 1 ] && echo h1 || echo "s$((k - 1))")
		next=$([ "$k" -eq "$n" ] && echo h2 || echo "s$((k + 1))")
		local rate=""
		[ "$k" -eq "$n" ] && rate=@20mbit
		pfc_agent "s$k" "up=s$k-$prev" "dn=s$k-$next$rate" \
			--trace "$d/s$k.trace" "${opt[@]}"
		# sK's "up" port pauses prev's port toward sK.
		local pport=dn
		[ "$prev" = h1 ] && pport=up
		pairs+=("$d/s$k.trace" up "$d/$prev.trace" "$pport")
	done
	ns_exec h2 python3 "$TRAFFIC" recv 5001 2 >"$d/recv.json" 2>/dev/null &
	local r=$!
	bg_track $r
	sleep 0.3
	ns_exec h1 python3 "$TRAFFIC" send "10.62.$((n + 1)).2" 5001 24 60 "$secs" \
		>"$d/send.json"
	wait $r
	# Where lost packets went: dropped by a switch (its lossless drops)
	# or by the receiving host (UDP RcvbufErrors and its ports' rx_dropped:
	# a CPU-starved receiver).
	local sw_drops=0 x
	for k in $(seq -f "s%g" "$n"); do
		x=$(ns_exec "$k" "$TAGGER" -j pfc show "$k" |
			python3 -c 'import json,sys; print(json.load(sys.stdin)["totals"]["lossless_drops"])')
		sw_drops=$((sw_drops + x))
	done
	ns_exec h2 sh -c "awk '/^Udp:/ { if (h) s = \$6; h = 1 } END { print s + 0 }' /proc/net/snmp;
		cat /sys/class/net/*/statistics/rx_dropped" |
		awk '{ s += $1 } END { print s + 0 }' >"$d/rcvbuf"
	echo "$sw_drops" >"$d/sw_drops"
	for k in h1 $(seq -f "s%g" "$n"); do ns_exec "$k" "$TAGGER" pfc stop "$k"; done
	[ -n "${V:-}" ] && head -3 "$d"/*.trace && echo "${pairs[*]}"
	echo "${pairs[*]}" >"$TGR_TMP/$tag.pairs"
	python3 -c '
import json, sys
s, v = (json.load(open(a)) for a in sys.argv[1:3])
print(s["sent"] - v["5001"]["received"], s["sent"],
      open(sys.argv[3]).read().strip(), open(sys.argv[4]).read().strip())' \
		"$d/send.json" "$d/recv.json" "$d/sw_drops" "$d/rcvbuf" >"$TGR_TMP/$tag.lost"
	for k in h1 h2 $(seq -f "s%g" "$n"); do ip netns del "$(ns_name "$k")"; done
	_tgr_ns=()
	[ -z "${BENCH_KEEP:-}" ] || cp -r "$d" "$BENCH_KEEP/"
}

# report N MODE TAG...: the pooled latencies of the runs TAG...
report() {
	local n=$1 mode=$2 t pairs=() lost=0 sent=0 swd=0 rcv=0 l s a b
	shift 2
	for t in "$@"; do
		read -r -a p <"$TGR_TMP/$t.pairs"
		pairs+=("${p[@]}")
		read -r l s a b <"$TGR_TMP/$t.lost"
		lost=$((lost + l))
		sent=$((sent + s))
		swd=$((swd + a))
		rcv=$((rcv + b))
	done
	python3 "$LAT" "${pairs[@]}" >"$TGR_TMP/res-$n-$mode.json"
	echo "  [$mode: $(mode_opts "$mode"), $# run(s) of ${secs}s]"
	python3 - "$n" "$TGR_TMP/res-$n-$mode.json" "$lost" "$sent" "$(($# * secs))" "$swd" "$rcv" <<'PY'
import json, sys
n, r = int(sys.argv[1]), json.load(open(sys.argv[2]))
lost, sent, secs = int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
swd, rcv = int(sys.argv[6]), int(sys.argv[7])
for k, what in (("xoff", "XOFF -> upstream gate closed"), ("xon", "XON -> upstream gate open"),
                ("xon_out", "XON -> upstream sends again"),
                ("xon_flow", "XON -> flow resumed")):
    x = r[k]
    if not x["n"]:
        print(f"  {n} switches, {2 * n + 2} ports: {what}: no samples")
        continue
    goal = "goal met" if x["median_us"] <= 100 and x["p99_us"] <= 1000 else "goal NOT met"
    if k == "xon_out":  # the resume's own goal: <= 40 us, p99 <= 250 us
        goal += ("; resume goal met" if x["median_us"] <= 40 and
                 x["p99_us"] <= 250 else "; resume goal NOT met")
    print(f"  {n} switches, {2 * n + 2} ports: {what}: n={x['n']} "
          f"median {x['median_us']} us, p99 {x['p99_us']} us, max {x['max_us']} us ({goal})")
for k, what in (("xoff_send", "crossing -> PAUSE sent"), ("xoff_apply", "PAUSE received -> gate closed"),
                ("xon_send", "XON crossing -> resume sent"), ("xon_apply", "resume received -> gate open"),
                ("xon_kick_returned", "(XON crossing -> the kick's send returned)")):
    x = r[k]
    if x["n"]:
        print(f"      of which {what}: median {x['median_us']} us, p99 {x['p99_us']} us")
names = {"x": "downstream, to send a PAUSE", "n": "downstream, to send a resume",
         "c": "upstream, to close its gate", "o": "upstream, to open its gate"}
w = ", ".join(f"{names[k]} {x['median_us']} us" for k, x in r["wake"].items() if x["n"])
print(f"      agent wake-up medians: {w}")
t = r["xon_out"]
if t["n"] and r["xon_send"]["n"] and r["xon_apply"]["n"] and r["reopen_out"]["n"]:
    parts = (("resume sent", r["xon_send"]["median_us"]),
             ("gate open", r["xon_apply"]["median_us"]),
             ("first packet out", r["reopen_out"]["median_us"]))
    tot = sum(v for _, v in parts)
    print("      stage shares of XON -> upstream sends again (medians): " +
          ", ".join(f"{w} {v} us ({100 * v / tot:.0f}%)" for w, v in parts))
st = r.get("xon_stages", {})
if st.get("detect", {}).get("n"):
    names = (("detect", "crossing seen"), ("send", "frame at the upstream"),
             ("wake", "upstream acts"), ("gate", "gate changed (netlink)"),
             ("first", "first packet out"))
    print(f"      step by step (n={st['detect']['n']}, medians): " +
          ", ".join(f"{w} {st[k]['median_us']} us" for k, w in names) +
          f"; the downstream's whole send {st['send_call']['median_us']} us")
cp = r.get("xon_cpu", {})
if cp.get("own", {}).get("n") or cp.get("other", {}).get("n"):
    o, t = cp["own"], cp["other"]
    print(f"      XON crossings seen on the agent's own CPU: {o['n']} "
          f"(read after {o.get('median_us', '-')} us), on another: {t['n']} "
          f"({t.get('median_us', '-')} us); moves off a draining CPU: {cp['moves']}")
c = r["poll"]["caught"]
cw = ", ".join(f"{'resume sent' if k == 'n' else 'gate opened'} {v[0]}/{v[1]}"
               for k, v in sorted(c.items()))
print(f"      polling: {r['poll']['ms']} ms of CPU in {secs:.0f} s "
      f"({r['poll']['ms'] / secs / 10:.1f}% of one CPU, all agents); "
      f"steps taken while polling: {cw}")
for k, what in (("n", "send a resume"), ("o", "open a gate")):
    a, b = r["poll"]["wake_polling"].get(k, {}), r["poll"]["wake_asleep"].get(k, {})
    if a.get("n") and b.get("n"):
        print(f"      wake-up to {what}: polling median {a['median_us']} us "
              f"(p99 {a['p99_us']}), asleep {b['median_us']} us (p99 {b['p99_us']})")
for k, x in r["poll"]["xon_out_by"].items():
    if x["n"]:
        print(f"      XON -> upstream sends again, {k}: n={x['n']} "
              f"median {x['median_us']} us, p99 {x['p99_us']} us")
print(f"  lossless packets lost: {lost} of {sent} (switches' lossless drops {swd}, "
      f"dropped by the receiving host {rcv})")
PY
}

# ab_chain N: the chain with this tree's defaults and BENCH_PFC_BASE's.
ab_chain() {
	local n=$1 i m this=() base=()
	for i in $(seq "$rounds"); do
		if [ $((i % 2)) -eq 1 ]; then order="fast base"; else order="base fast"; fi
		for m in $order; do
			run_chain "$n" "$m" "$n-$m-$i"
			[ "$m" = fast ] && this+=("$n-$m-$i") || base+=("$n-$m-$i")
			# Per run: one bad window (another user of rtnl) sets a
			# pooled p99 by itself; say which run it was.
			read -r -a p <"$TGR_TMP/$n-$m-$i.pairs"
			python3 "$LAT" "${p[@]}" | python3 -c '
import json, sys
r = json.load(sys.stdin)
print(f"  run {sys.argv[1]}: " + ", ".join(
    "%s median %s p99 %s us" % (k, r[k]["median_us"], r[k]["p99_us"])
    for k in ("xoff", "xon_out") if r[k]["n"]))' "$i $m"
		done
	done
	report "$n" fast "${this[@]}"
	report "$n" base "${base[@]}"
	python3 - "$TGR_TMP/res-$n-"{fast,base}.json "$n" <<'PY'
import json, sys
f, b = (json.load(open(a)) for a in sys.argv[1:3])
for k, what in (("xoff", "XOFF -> gate closed"), ("xon", "XON -> gate open"),
                ("xon_out", "XON -> upstream sends again"),
                ("xon_flow", "XON -> flow resumed")):
    for q in ("median_us", "p99_us"):
        if f[k]["n"] and b[k]["n"]:
            print(f"  {sys.argv[3]} switches: {what} {q[:-3]}, this / base: "
                  f"{f[k][q] / b[k][q]:.2f}x ({f[k][q]} / {b[k][q]} us)")
PY
}

mode_opts() {
	case $1 in
	fast) if [ -n "${BENCH_BUSY_POLL:-}" ]; then echo "--busy-poll $BENCH_BUSY_POLL"; else echo defaults; fi ;;
	nopoll) echo --busy-poll 0 ;;
	base) echo "defaults, $BENCH_PFC_BASE" ;;
	slow) echo --slow-pause ;;
	sleep) echo --cpu-latency none ;;
	esac
}

# idle_cpu N BINARY: CPU ms per second of N + 2 idle agents (and standbys).
idle_cpu() {
	local n=$1 TAGGER=$2 k pids=() t0 t1 secs_idle=${BENCH_IDLE_SECONDS:-10}
	pfc_chain "$n"
	pfc_agent h1 up=h1-s1 --cpu-latency none
	pfc_agent h2 "dn=h2-s$n" --cpu-latency none
	for k in $(seq "$n"); do
		local prev next
		prev=$([ "$k" -eq 1 ] && echo h1 || echo "s$((k - 1))")
		next=$([ "$k" -eq "$n" ] && echo h2 || echo "s$((k + 1))")
		pfc_agent "s$k" "up=s$k-$prev" "dn=s$k-$next" --cpu-latency none
	done
	sleep 3	# started, settled
	for k in h1 h2 $(seq -f "s%g" "$n"); do
		pids+=("$(cat "$PFC_DIR/$k/pid")")
		pids+=("$(pgrep -P "${pids[-1]}" | head -1)")
	done
	cpu_of() { local p; for p in "$@"; do cut -d' ' -f14,15 "/proc/$p/stat"; done |
		awk '{ s += $1 + $2 } END { print s }'; }
	t0=$(cpu_of "${pids[@]}")
	sleep "$secs_idle"
	t1=$(cpu_of "${pids[@]}")
	for k in h1 h2 $(seq -f "s%g" "$n"); do ns_exec "$k" "$TAGGER" pfc stop "$k"; done
	for k in h1 h2 $(seq -f "s%g" "$n"); do ip netns del "$(ns_name "$k")"; done
	_tgr_ns=()
	# clock ticks -> ms of CPU per second, all agents
	echo "$(( (t1 - t0) * 1000 / $(getconf CLK_TCK) )) $secs_idle" |
		awk '{ printf "%.1f\n", $1 / $2 }'
}

if [ -n "${BENCH_PFC_IDLE:-}" ]; then
	n=$BENCH_PFC_IDLE
	echo "idle agents: a chain of $n switches, $((n + 2)) agents, no traffic"
	echo "  load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
	this=() base=()
	for i in $(seq "$rounds"); do
		this+=("$(idle_cpu "$n" "$TAGGER")")
		[ -z "${BENCH_PFC_BASE:-}" ] || base+=("$(idle_cpu "$n" "$BENCH_PFC_BASE")")
	done
	python3 - "$n" "${this[*]}" "${base[*]:-}" <<'PY'
import statistics as st, sys
n, a = int(sys.argv[1]), [float(x) for x in sys.argv[2].split()]
b = [float(x) for x in sys.argv[3].split()]
m = st.median(a)
print(f"  this tree: {m:.1f} ms of CPU per second for {n + 2} agents "
      f"({m / (n + 2):.2f} ms/s each; runs {a})")
if b:
    mb = st.median(b)
    print(f"  base: {mb:.1f} ms/s ({mb / (n + 2):.2f} ms/s each; runs {b}); "
          f"this / base: {m / mb if mb else float('nan'):.3f}x")
PY
	echo "  load after: $(cut -d' ' -f1-3 /proc/loadavg)"
fi

echo "pause latency (sampled over ${secs}s of congestion per run)"
echo "  load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
for n in ${BENCH_CHAINS-2 4}; do
	[ -n "${BENCH_PFC_BASE:-}" ] && { ab_chain "$n"; continue; }
	fast=() nopoll=()
	for i in $(seq "$rounds"); do
		# Alternate the order too: neither mode always runs first.
		if [ $((i % 2)) -eq 1 ]; then order="fast nopoll"; else order="nopoll fast"; fi
		for m in $order; do
			run_chain "$n" "$m" "$n-$m-$i"
			[ "$m" = fast ] && fast+=("$n-$m-$i") || nopoll+=("$n-$m-$i")
		done
	done
	run_chain "$n" slow "$n-slow-1"
	run_chain "$n" sleep "$n-sleep-1"
	report "$n" fast "${fast[@]}"
	report "$n" nopoll "${nopoll[@]}"
	report "$n" slow "$n-slow-1"
	report "$n" sleep "$n-sleep-1"
	python3 - "$TGR_TMP/res-$n-"{fast,nopoll,slow,sleep}.json "$n" "${BENCH_BUSY_POLL:-2000}" <<'PY'
import json, sys
f, o, s, p = (json.load(open(a)) for a in sys.argv[1:5])
n, poll = sys.argv[5], sys.argv[6]


def ratio(what, k, a, b, an, bn, q="median_us"):
    if a[k]["n"] and b[k]["n"]:
        print(f"  {n} switches: {what} {q[:-3]}, {an} / {bn}: "
              f"{a[k][q] / b[k][q]:.2f}x "
              f"({a[k][q]} / {b[k][q]} us)")


for k, what in (("xoff", "XOFF -> gate closed"), ("xon", "XON -> gate open"),
                ("xon_out", "XON -> upstream sends again"),
                ("xon_flow", "XON -> flow resumed"),
                ("xon_send", "XON crossing -> resume sent"),
                ("xon_apply", "resume received -> gate open")):
    ratio(what, k, f, o, "busy-poll " + poll, "0")
for k in ("xon_out", "xoff"):
    ratio(dict(xon_out="XON -> upstream sends again", xoff="XOFF -> gate closed")[k],
          k, f, o, "busy-poll " + poll, "0", "p99_us")
ratio("XOFF -> gate closed", "xoff", s, f, "agent-sent", "BPF-sent PAUSE")
for k, what in (("xoff", "XOFF -> gate closed"), ("xon", "XON -> gate open"),
                ("xon_out", "XON -> upstream sends again"),
                ("xon_flow", "XON -> flow resumed")):
    ratio(what, k, p, f, "cpu-latency none", "0")
PY
done
echo "  load after: $(cut -d' ' -f1-3 /proc/loadavg)"
