#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Pause latency of the software PFC: from an (in-port, priority) crossing
# XOFF on a switch to its upstream neighbour's gate being closed, and from
# the crossing of XON to the upstream queue running again. Chains
#   h1 -- s1 -- ... -- sN -- h2   (100 Mbit/s, the last hop 20 Mbit/s)
# carry a 60 Mbit/s lossless flow for a few seconds, so every hop pauses
# and resumes its upstream many times; the agents' traces are paired by
# tests/bench/pfc_latency.py. Goal: median <= 100 us, p99 <= 1 ms.
# Each chain runs three times: with the defaults (the BPF side sends the
# XOFF PAUSE; idle CPUs poll instead of halting, so that waking an agent
# takes no hypervisor round trip), with --slow-pause (the agent sends
# every PAUSE) and with --cpu-latency none (idle CPUs may sleep); the
# medians are compared as ratios from the same run. "XON -> upstream sends again" ends when the
# first packet leaves the reopened queue; "XON -> flow resumed" when it
# arrives back at the switch that crossed XON (on veth, only after the
# burst the upstream sends with it).
# BENCH_SECONDS (default 5), BENCH_CHAINS (default "2 4").
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../shell/pfc_lib.sh"
require_root
require_cmd python3
secs=${BENCH_SECONDS:-5}

run_chain() {
	local n=$1 mode=$2 k pairs=() prev next opt=()
	[ "$mode" = slow ] && opt=(--slow-pause)
	[ "$mode" = sleep ] && opt=(--cpu-latency none)
	pfc_chain "$n"
	pfc_agent h1 up=h1-s1 --trace "$TGR_TMP/h1.trace" "${opt[@]}"
	for k in $(seq "$n"); do
		prev=$([ "$k" -eq 1 ] && echo h1 || echo "s$((k - 1))")
		next=$([ "$k" -eq "$n" ] && echo h2 || echo "s$((k + 1))")
		local rate=""
		[ "$k" -eq "$n" ] && rate=@20mbit
		pfc_agent "s$k" "up=s$k-$prev" "dn=s$k-$next$rate" \
			--trace "$TGR_TMP/s$k.trace" "${opt[@]}"
		# sK's "up" port pauses prev's port toward sK.
		local pport=dn
		[ "$prev" = h1 ] && pport=up
		pairs+=("$TGR_TMP/s$k.trace" up "$TGR_TMP/$prev.trace" "$pport")
	done
	ns_exec h2 python3 "$TRAFFIC" recv 5001 2 >"$TGR_TMP/recv.json" 2>/dev/null &
	local r=$!
	bg_track $r
	sleep 0.3
	ns_exec h1 python3 "$TRAFFIC" send "10.62.$((n + 1)).2" 5001 24 60 "$secs" \
		>"$TGR_TMP/send.json"
	wait $r
	for k in h1 $(seq -f "s%g" "$n"); do ns_exec "$k" "$TAGGER" pfc stop "$k"; done
	local res
	[ -n "${V:-}" ] && head -3 "$TGR_TMP"/*.trace && echo "${pairs[*]}"
	res=$(python3 "$TOP/tests/bench/pfc_latency.py" "${pairs[@]}")
	echo "$res" > "$TGR_TMP/res-$n-$mode.json"
	echo "  [$mode: ${opt[*]:-defaults}]"
	python3 - "$n" "$res" "$(cat "$TGR_TMP/send.json")" "$(cat "$TGR_TMP/recv.json")" <<'PY'
import json, sys
n, r, s, v = int(sys.argv[1]), json.loads(sys.argv[2]), json.loads(sys.argv[3]), json.loads(sys.argv[4])
lost = s["sent"] - v["5001"]["received"]
for k, what in (("xoff", "XOFF -> upstream gate closed"), ("xon", "XON -> upstream gate open"),
                ("xon_out", "XON -> upstream sends again"),
                ("xon_flow", "XON -> flow resumed")):
    x = r[k]
    if not x["n"]:
        print(f"  {n} switches, {2 * n + 2} ports: {what}: no samples")
        continue
    goal = "goal met" if x["median_us"] <= 100 and x["p99_us"] <= 1000 else "goal NOT met"
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
print(f"  lossless packets lost: {lost} of {s['sent']}")
PY
	for k in h1 h2 $(seq -f "s%g" "$n"); do ip netns del "$(ns_name "$k")"; done
	_tgr_ns=()
}

echo "pause latency (sampled over ${secs}s of congestion per chain)"
for n in ${BENCH_CHAINS:-2 4}; do
	run_chain "$n" fast
	run_chain "$n" slow
	run_chain "$n" sleep
	python3 - "$TGR_TMP/res-$n-"{fast,slow,sleep}.json "$n" <<'PY'
import json, sys
f, s, p = (json.load(open(a)) for a in sys.argv[1:4])
n = sys.argv[4]


def ratio(what, k, a, b, an, bn):
    if a[k]["n"] and b[k]["n"]:
        print(f"  {n} switches: {what} median, {an} / {bn}: "
              f"{a[k]['median_us'] / b[k]['median_us']:.2f}x "
              f"({a[k]['median_us']} / {b[k]['median_us']} us)")


ratio("XOFF -> gate closed", "xoff", s, f, "agent-sent", "BPF-sent PAUSE")
for k, what in (("xoff", "XOFF -> gate closed"), ("xon", "XON -> gate open"),
                ("xon_out", "XON -> upstream sends again"),
                ("xon_flow", "XON -> flow resumed")):
    ratio(what, k, p, f, "cpu-latency none", "0")
PY
done
