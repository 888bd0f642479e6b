#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ECN on the lossless priority against PFC alone, under the same
# congestion (issue 28, "Measure"). An incast in namespaces:
#
#   h1 --\
#   h2 --- sw1 --- rx      every link BENCH_RATE (default 100mbit, the
#   h3 --/                 agents' --rate), so sw1's port to rx is the
#                          bottleneck (3:1)
#
# pause agents on every node, three TCP flows (iperf3, DSCP 24: priority 3,
# lossless) from h1..h3 to rx, senders that react to ECN: BENCH_CC (default
# cubic: this kernel has no DCTCP; with net.ipv4.tcp_ecn=1 classic ECN
# cuts the window once per round trip with a CE mark). sw1's agent runs
# with ECN ("on": --ecn-kmin/--ecn-kmax/--ecn-pmax, Kmax below XOFF) or
# without ("off"), alternating, BENCH_ROUNDS (default 3) rounds of each,
# each BENCH_SECONDS (default 8) measured after a second of warm-up. Per
# mode: sw1's buffered bytes of priority 3, sampled from the agent's BPF
# map every BENCH_SAMPLE_MS (default 20; tests/bench/ecn_queue_sample.py),
# per in-port (what Kmin, Kmax and XOFF are compared with) and their sum
# (the switch's buffer of the priority): mean and p99; PAUSE frames sent
# by sw1 per second (pfc_tx), resumes, CE marks per second (ecn_marked),
# goodput (iperf3, received), the senders' window and RTT (iperf3), TCP
# retransmissions, and lossless drops of every node (must be 0 in both
# modes). Thresholds: BENCH_ECN="KMIN KMAX PMAX" (default "5k 20k 20";
# XOFF is the agent's default, 28164 B at 100 Mbit/s, or what
# BENCH_SW_OPTS, more options of sw1's agent, sets). Then the same with
# DCTCP in the VM of vmlab/vm.sh (see the end; BENCH_ECN_VM=0 skips it).
# BENCH_KEEP=DIR keeps the per-round JSON there. Root; 3 min here, 5-8
# in the VM.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../shell/pfc_lib.sh"
require_root
require_cmd python3
require_cmd iperf3
cc=${BENCH_CC:-cubic}
secs=${BENCH_SECONDS:-8}
rounds=${BENCH_ROUNDS:-3}
rate=${BENCH_RATE:-100mbit}
sample_ms=${BENCH_SAMPLE_MS:-20}
read -r kmin kmax pmax <<<"${BENCH_ECN:-5k 20k 20}"
SAMPLE=$TOP/tests/bench/ecn_queue_sample.py
SENDERS="h1 h2 h3"
PRIO=3
TOS=0x60	# DSCP 24: priority 3 at the hosts' and the switch's default map

lab() {
	local k n
	for n in $SENDERS sw1 rx; do ns_new "$n"; done
	k=1
	for n in $SENDERS; do
		pfc_link "$n" sw1 "10.63.$k"
		ns_exec "$n" ip route add default via "10.63.$k.2"
		k=$((k + 1))
	done
	pfc_link sw1 rx 10.63.9
	ns_exec rx ip route add default via 10.63.9.1
	ns_exec sw1 sysctl -qw net.ipv4.ip_forward=1
	# ECN asked for by the senders and accepted by the receiver (the
	# default, 2, only accepts). Cubic is set per socket (iperf3 -C): a
	# namespace other than the first cannot default to an algorithm
	# outside net.ipv4.tcp_allowed_congestion_control, which is global.
	for n in $SENDERS rx; do ns_exec "$n" sysctl -qw net.ipv4.tcp_ecn=1; done
	# Resolve every neighbour before the measured traffic.
	for n in $SENDERS; do
		ns_exec "$n" python3 "$TRAFFIC" send 10.63.9.2 9 0 1 0.3 >/dev/null &&
			ns_exec rx python3 "$TRAFFIC" send "10.63.${n#h}.1" 9 0 1 0.3 >/dev/null ||
			fail "$n and rx do not reach each other"
	done
}

# The agents of the hosts run throughout; sw1's is started per round.
host_agents() {
	local n
	for n in $SENDERS rx; do pfc_agent "$n" "p=$n-sw1" --rate "$rate"; done
}

sw_agent() {
	local ecn=()
	[ "$1" = on ] && ecn=(--ecn-kmin "$kmin" --ecn-kmax "$kmax" --ecn-pmax "$pmax")
	# shellcheck disable=SC2086 # BENCH_SW_OPTS: options, split
	pfc_agent sw1 in1=sw1-h1 in2=sw1-h2 in3=sw1-h3 out=sw1-rx --rate "$rate" \
		${BENCH_SW_OPTS:-} "${ecn[@]}"
}

# The id of the "pp" map (struct pfc_pp per (port, priority)) that sw1's
# running agent holds open.
pp_map_id() { python3 "$SAMPLE" "pid=$(cat "$PFC_DIR/sw1/pid")" --id; }

# round MODE TAG: one measured round into $TGR_TMP/TAG.*
round() {
	local mode=$1 d=$TGR_TMP/$2 n k pids=() map
	mkdir -p "$d"
	sw_agent "$mode"
	map=$(pp_map_id) || fail "sw1's map"
	echo "$map $(cat "$PFC_DIR/sw1/pid")" >"$d/map"
	date +%s.%N >"$d/t-a"
	for n in $SENDERS rx sw1; do pfc_show "$n" >"$d/a-$n.json"; done
	# The sampler is ready before the flows start and samples from "go"
	# on: a slow start (Python in the VM) cannot move its window.
	python3 "$SAMPLE" "$map" "$PRIO" "$sample_ms" "$secs" "$d/go" 0 1 2 \
		>"$d/sample.json" 2>"$d/sample.err" &
	local sampler=$!
	bg_track $sampler
	for _ in $(seq 300); do grep -q ready "$d/sample.err" && break; sleep 0.1; done
	grep -q ready "$d/sample.err" || fail "sampler: $(cat "$d/sample.err")"
	k=1
	for n in $SENDERS; do
		ns_exec "$n" iperf3 -c 10.63.9.2 -p $((5200 + k)) -t $((secs + 4)) -O 1 \
			-S "$TOS" -C "$cc" -J >"$d/iperf-$n.json" 2>"$d/iperf-$n.err" &
		pids+=($!)
		k=$((k + 1))
	done
	sleep 1
	date +%s.%N >"$d/t-b"
	pfc_show sw1 >"$d/b-sw1.json"
	touch "$d/go"
	wait "$sampler" || fail "sampling sw1: $(cat "$d/sample.err")"
	date +%s.%N >"$d/t-c"
	pfc_show sw1 >"$d/c-sw1.json"
	for k in "${pids[@]}"; do wait "$k" || fail "iperf3 ($mode): $(cat "$d"/iperf-*.err)"; done
	for n in $SENDERS rx sw1; do pfc_show "$n" >"$d/d-$n.json"; done
	date +%s.%N >"$d/t-d"
	cut -d' ' -f1 /proc/loadavg >"$d/load"
	ns_exec sw1 "$TAGGER" pfc stop sw1
	[ -z "${BENCH_KEEP:-}" ] || cp -r "$d" "$BENCH_KEEP/"
	python3 - "$d" "$secs" "$SENDERS" "$cc" <<'PY' | tee "$d/row"
import json, sys
d, secs, senders, want = sys.argv[1], float(sys.argv[2]), sys.argv[3].split(), sys.argv[4]
J = lambda f: json.load(open(f"{d}/{f}"))


def per_prio(j, k, prio=3):
    return sum(p.get(k, 0) for x in j["ports"] for p in x["prios"] if p["prio"] == prio)


b, c = J("b-sw1.json"), J("c-sw1.json")
# The window between the two snapshots (the sampled one, and the shows).
dt = float(open(f"{d}/t-c").read()) - float(open(f"{d}/t-b").read())
s = J("sample.json")
if not s["counted"] and per_prio(c, "packets") > per_prio(b, "packets"):
    sys.exit("the sampled map counted no packet while sw1 did: not sw1's map")


def delta(k):
    return sum(J(f"d-{n}.json")["totals"][k] - J(f"a-{n}.json")["totals"][k]
               for n in senders + ["rx", "sw1"])


# Over the whole round, warm-up and the flows' ends included.
drops, lossy = delta("lossless_drops"), delta("lossy_drops")
ms = 1000 * (float(open(f"{d}/t-d").read()) - float(open(f"{d}/t-a").read()))
paused = sum(per_prio(J(f"d-{n}.json"), "paused_ms") - per_prio(J(f"a-{n}.json"), "paused_ms")
             for n in senders) / len(senders) / ms
dd = J("d-sw1.json")
peak = max(p["peak_bytes"] for x in dd["ports"] for p in x["prios"]
           if p["prio"] == 3 and x["name"].startswith("in"))
gp = rt = 0
cw, rtt = [], []
for n in senders:
    i = J(f"iperf-{n}.json")
    e = i["end"]
    cc = e.get("sender_tcp_congestion")
    if cc != want:
        sys.exit(f"{n}: congestion control {cc}, not {want}")
    gp += e["sum_received"]["bits_per_second"]
    rt += e["sum_sent"].get("retransmits", 0)
    cw += [x["streams"][0]["snd_cwnd"] for x in i["intervals"] if not x["sum"]["omitted"]]
    rtt.append(e["streams"][0]["sender"]["mean_rtt"])
print(json.dumps({
    "mean": s["sum"]["mean"], "p99": s["sum"]["p99"], "max": s["sum"]["max"],
    "in_mean": sum(v["mean"] for v in s["slots"].values()) / len(s["slots"]),
    "in_p99": max(v["p99"] for v in s["slots"].values()),
    "samples": s["samples"], "interval_ms": s["interval_ms"],
    "pause_s": (per_prio(c, "pfc_tx") - per_prio(b, "pfc_tx")) / dt,
    "resume_s": (per_prio(c, "pfc_tx_resume") - per_prio(b, "pfc_tx_resume")) / dt,
    "xoff_s": (per_prio(c, "xoff_crossings") - per_prio(b, "xoff_crossings")) / dt,
    "ce_s": (c["totals"]["ecn_marked"] - b["totals"]["ecn_marked"]) / dt,
    "pkts_s": (per_prio(c, "packets") - per_prio(b, "packets")) / dt,
    "goodput": gp / 1e6, "retrans": rt, "drops": drops, "lossy": lossy,
    "peak": peak, "paused": 100 * paused,
    "cwnd": sum(cw) / len(cw) / 1024, "rtt": sum(rtt) / len(rtt) / 1000,
    "load": float(open(f"{d}/load").read())}))
PY
	[ -s "$d/row" ] || fail "round $2: no result"
}

lab
host_agents
for k in 1 2 3; do
	ns_exec rx iperf3 -s -p $((5200 + k)) >/dev/null 2>&1 &
	bg_track $!
done
sleep 0.5
echo "ECN against PFC alone: 3 TCP senders ($cc, tcp_ecn=1) -> sw1 -> rx, $rate links,"
echo "  priority $PRIO lossless; on: --ecn-kmin $kmin --ecn-kmax $kmax --ecn-pmax $pmax;"
echo "  $rounds round(s) per mode of ${secs}s, sw1's buffer sampled every ${sample_ms} ms"
echo "  load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
on=() off=()
for i in $(seq "$rounds"); do
	if [ $((i % 2)) -eq 1 ]; then order="on off"; else order="off on"; fi
	for m in $order; do
		echo "  round $i $m:"
		round "$m" "$m-$i" >/dev/null
		python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
print("    buffer mean %(mean)d B p99 %(p99)d B, PAUSE %(pause_s).1f/s, CE %(ce_s).0f/s, "
      "goodput %(goodput).1f Mbit/s, RTT %(rtt).1f ms, drops %(drops)d, load %(load)s" % r)' \
			"$TGR_TMP/$m-$i/row"
		[ "$m" = on ] && on+=("$TGR_TMP/$m-$i/row") || off+=("$TGR_TMP/$m-$i/row")
	done
done
xoff=$(python3 -c 'import json,sys; d = json.load(open(sys.argv[1]))
print("XOFF %d B, XON %d B, XOFF + headroom %d B" % (d["xoff"][3], d["xon"][3], d["xoff"][3] + d["headroom"][3]))' \
	"$TGR_TMP/on-1/c-sw1.json" 2>/dev/null || echo "XOFF ?")
python3 - "${#on[@]}" "${on[@]}" "${off[@]}" "$xoff" <<'PY'
import json, statistics as st, sys
n = int(sys.argv[1])
on = [json.load(open(f)) for f in sys.argv[2:2 + n]]
off = [json.load(open(f)) for f in sys.argv[2 + n:2 + 2 * n]]
xoff = sys.argv[-1]
rows = (("mean", "buffer of prio 3, sum of in-ports: mean", "B", 0),
        ("p99", "  p99", "B", 0),
        ("in_mean", "one in-port's buffer: mean", "B", 0),
        ("in_p99", "  p99 (largest in-port)", "B", 0),
        ("peak", "  peak (largest in-port, show's peak_bytes)", "B", 0),
        ("pause_s", "PAUSE frames sent by sw1", "/s", 1),
        ("resume_s", "resumes sent by sw1", "/s", 1),
        ("xoff_s", "XOFF crossings", "/s", 1),
        ("ce_s", "CE marks", "/s", 0),
        ("pkts_s", "packets of prio 3 into sw1", "/s", 0),
        ("goodput", "goodput (3 flows, received)", " Mbit/s", 1),
        ("cwnd", "sender's window (mean of flows)", " KiB", 1),
        ("rtt", "sender's smoothed RTT (mean of flows)", " ms", 1),
        ("paused", "senders' gates closed (their paused_ms)", " %", 1),
        ("retrans", "TCP retransmissions (per round)", "", 1),
        ("drops", "lossless drops (every node, per round)", "", 0),
        ("lossy", "lossy drops (every node, per round)", "", 0))
print(f"  per mode, the mean of {n} round(s) ({xoff} per in-port):")
print(f"  {'':42s} {'ECN on':>12s} {'ECN off':>12s}  on/off")
for k, what, unit, p in rows:
    a, b = st.mean(r[k] for r in on), st.mean(r[k] for r in off)
    ratio = f"{a / b:.2f}" if b else "-"
    print(f"  {what:42s} {a:12.{p}f} {b:12.{p}f}  {ratio:>6s} {unit}")
s = on[0]
print(f"  samples per round: {s['samples']} (every {s['interval_ms']} ms)")
bad = sum(r["drops"] for r in on + off)
print("  lossless drops: " + ("0 in both modes" if not bad else f"{bad} (NOT 0)"))
PY
echo "  load after: $(cut -d' ' -f1-3 /proc/loadavg)"

# The same with DCTCP, in the VM of vmlab/vm.sh (Debian's kernel has it as
# a module; this host's kernel has none): one emulated CPU, so at 5 Mbit/s,
# where the headroom model's XOFF (4414 B) leaves no room for a Kmin-Kmax
# range of a few frames: XOFF 30k, XON 12k, as at 100 Mbit/s here.
# BENCH_ECN_VM=0 skips it.
if [ -z "${TAGGER_IN_VM:-}" ] && [ "${BENCH_ECN_VM:-1}" != 0 ]; then
	if ! kdir=$(vm_kernel_dir); then
		echo "DCTCP in the VM: skipped ($kdir)"
		exit 0
	fi
	export BENCH_ROUNDS=$rounds BENCH_SECONDS=$secs BENCH_ECN="$kmin $kmax $pmax"
	export BENCH_RATE=${BENCH_VM_RATE:-5mbit} BENCH_SAMPLE_MS=${BENCH_VM_SAMPLE_MS:-50}
	export BENCH_SW_OPTS=${BENCH_VM_SW_OPTS:---xoff 30k --xon 12k}
	echo "DCTCP in the VM (vmlab/vm.sh, Debian's kernel, one emulated CPU):"
	k=()
	for v in BENCH_ROUNDS BENCH_SECONDS BENCH_ECN BENCH_RATE BENCH_SAMPLE_MS BENCH_SW_OPTS; do
		k+=(--keep-env "$v")
	done
	bash "$TOP/vmlab/vm.sh" run --timeout 1200 "${k[@]}" -- \
		sh "$TOP/tests/bench/ecn_queue_vm_guest.sh" "$TOP" "$kdir" 2>&1 | sed 's/^/  /'
	[ "${PIPESTATUS[0]}" = 0 ] || fail "the VM run failed"
fi
