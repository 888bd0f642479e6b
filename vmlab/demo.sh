#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make demo: the Tagger paper's Clos deadlock (scenario 1), without and with
# Tagger, in network namespaces on this machine. Prints the side-by-side
# table and the path of the throughput plot; cleans up after itself.
set -u
cd "$(dirname "$0")/.." || exit 2
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
  Each flow sends 60 Mbit/s on 100 Mbit/s links. 2 s after both arrive at
  that rate, link L2-T1 fails (L2 bounces flow 1 up to S1), then, once that
  failure took effect, L3-T4 (L3 bounces flow 2 up to S2): together they
  close the buffer cycle L2->S1->L3->S2->L2, and its links congest. The
  senders keep sending for 4 s after the second failure: a deadlock is
  called only if it formed in that window (the flows stop while their
  senders still send, the paused queues close the cycle) and stays after
  the senders stop. A run that could not keep its schedule, or whose
  cycle's links never congested (a busy machine), gives NO VERDICT (see
  vmlab/README.md, "## Scenarios", and tagger-lab(8), VERDICTS).

TXT
start=$(date +%s)
bash vmlab/scenarios/clos-bounce.sh both --out "$OUT" --lab demo || exit 1
echo
jq -r '.modes | to_entries[] | .value as $v | $v.verdict as $d |
	"\(if .key == "plain" then "without Tagger" else "with Tagger   " end): " +
	(if $d.deadlock == true then "DEADLOCK around \($d.cycle | join("->")), formed under load: " +
		"flows stopped for good at \([$v.flows[] | .stalled_at // 0 | . * 10 | round / 10 | tostring] | join(", ")) s, " +
		"failures took effect at \([$v.events[] | select(.event | startswith("fail")) | .t * 10 | round / 10 | tostring] | join(", ")) s"
	 elif $d.deadlock == null then "NO VERDICT: \($d.no_verdict_because)" +
		(if ($d.schedule.problems | length) > 0 then " (\($d.schedule.problems | join("; ")))" else "" end)
	 else "no deadlock, flows in the 2nd half of the window: \([$v.flows[] | "\(.after_mbps // 0 | . * 10 | round / 10) Mbit/s"] | join(", "))" end) +
	", lossless drops \($v.pfc.lossless_drops // "?")"' "$OUT/summary.json"
echo "demo took $(( $(date +%s) - start )) s; the lab is down."
