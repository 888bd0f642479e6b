#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make demo: the Tagger paper's Clos deadlock (scenario 1), without and with
# Tagger, in network namespaces on this machine. Prints the side-by-side
# table and the path of the throughput plot; cleans up after itself.
set -u
cd "$(dirname "$0")/.."
[ "$(id -u)" -eq 0 ] || { echo "make demo needs root (namespaces, BPF)" >&2; exit 2; }
export TAGGER=${TAGGER:-$PWD/build/tagger}
for c in "$TAGGER lab" "$TAGGER flow" "$TAGGER pfc" "$TAGGER switch"; do
	if ! $c help >/dev/null 2>&1; then
		echo "demo: \`$c\` is missing from this build; it needs the data plane" \
		     "(tagger switch/host) and the pause agent (tagger pfc)" >&2
		exit 1
	fi
done
OUT=${DEMO_OUT:-vmlab/out/demo}
cat <<'TXT'
== Tagger demo: PFC deadlock after two link failures in a Clos (paper, slides 5-8)

  S1, S2 spines; L1-L4 leaves; T1-T4 ToRs; hosts h1-h4, one per ToR.
  flow 1 h3->h1: T3 L3 S2 L2 T1      flow 2 h2->h4: T2 L2 S1 L3 T4
  At t=3 s links L2-T1 and L3-T4 fail: L2 bounces flow 1 up to S1, L3
  bounces flow 2 up to S2, closing the buffer cycle L2->S1->L3->S2->L2.
  Each flow sends 60 Mbit/s, 60% of the 100 Mbit/s links, so the cycle's links
  congest and PFC pauses travel around it. The senders stop at t=8 s; a
  deadlock is called only if afterwards the cycle's queues stay paused and
  full and nothing moves (see README, "### vmlab").

TXT
start=$(date +%s)
bash vmlab/scenarios/clos-bounce.sh both --out "$OUT" --lab demo || exit 1
echo
jq -r '.modes | to_entries[] | "\(if .key == "plain" then "without Tagger" else "with Tagger   " end): " +
	(if .value.verdict.deadlock == true then "DEADLOCK around \(.value.verdict.cycle | join("->")), flows stopped for good"
	 elif .value.verdict.deadlock == null then "flows stopped for good (at \([.value.flows[] | .stalled_at // 0 | . * 10 | round / 10 | tostring] | join(", ")) s), " +
		"but no deadlock verdict: the pause agents lost track of buffered bytes (see table)"
	 else "no deadlock, flows after the failures: \([.value.flows[] | "\(.after_mbps // 0 | . * 10 | round / 10) Mbit/s"] | join(", "))" end) +
	", lossless drops \(.value.pfc.lossless_drops // "?")"' "$OUT/summary.json"
echo "demo took $(( $(date +%s) - start )) s; the lab is down."
