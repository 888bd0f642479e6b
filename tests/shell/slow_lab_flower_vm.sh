#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Scenario 1 (the paper's Clos, make demo's clos-bounce) inside the VM
# with every switch on the flower data path (`switch attach --datapath
# flower`: Debian's kernel has cls_flower and the actions, this host's has
# none), both modes. Without Tagger the cycle L2->S1->L3->S2 deadlocks
# under load and both flows stop for good; with Tagger neither stops, no
# queue stays paused, every hop shows the flows' tags (the bounce moves
# each flow up one tag, at L2 and L3); no lossless drop in either. And the
# pause agents saw the flower path's packets: they accounted them at
# ingress and consumed the PFC frames they got (bpf/tagger_skb.h,
# TAGGER_TC_CHAIN_PFC), which agents the filters bypass never do.
#
# TCG runs the 14 namespaces on one emulated CPU, beside whatever the
# host runs: the failure steps took 57-74 s each and the flows reached
# 0.2-0.3 of 1.2 Mbit/s before them (Documentation/measurements.md,
# "clos-bounce on the flower data path in the VM"). So the flows take
# the routes L2 and L3 take after the failures from the start
# (fixtures/clos_bounced.paths: the same cycle, no failure step), links
# run at 2 Mbit/s with flows at 1.2 (60 %, as make demo's 60 of 100), and
# the agents tick every 100 ms. A run that still cannot keep its
# schedule, or whose cycle never congested, gives the lab's NO VERDICT:
# the other claims are checked, then a skip, as on this host.
source "$(dirname "$0")/../lab_lib.sh"
require_cmd qemu-system-x86_64
kdir=$(vm_kernel_dir) || skip "$kdir"
cd "$TOP" || exit 1
"$TOP/vmlab/vm.sh" run --timeout 900 --out "$OUT" -- \
	env SC_DATAPATH=flower SC_ROUTES="$TOP/tests/shell/fixtures/clos_bounced.paths" \
	SC_EVENTS= SC_READY=started SC_RATE=2mbit SC_MBIT=1.2 SC_SIZE=1000 \
	SC_WINDOW=7 SC_AFTER=4 SC_SETTLE=2 \
	SC_PFC_OPTS="--backend mqprio --watchdog-ms 400" \
	bash tests/shell/lab_flower_vm_guest.sh "$TOP" "$kdir" clos-bounce both \
	2>&1 | tee "$TGR_TMP/vm.log"
rc=${PIPESTATUS[0]}
[ $rc -eq 0 ] || fail "the scenario in the VM exited $rc"
[ -f "$OUT/clos-bounce/summary.json" ] || fail "no summary from the VM"
summary_lines clos-bounce
D=$OUT/clos-bounce

for m in plain tagger; do
	check "$m: the switches ran the flower data path" \
		[ "$(q clos-bounce ".modes.$m.datapath")" = flower ]
	check "$m: show names flower on every switch" \
		[ "$(cat "$D/$m"/show-*.json | jq -s '[.[] | .datapath == "flower"] | length == 10 and all')" = true ]
	# The switches' agents counted the packets into their buffers:
	# 0 when the flower filters end classification before them.
	acc=$(cat "$D/$m"/pfc-[LST]*.json |
		jq -s '[.[].ports[].prios[] | select(.lossless) | .packets] | add')
	echo "$m: the switches' pause agents accounted $acc lossless packets"
	check "$m: the pause agents saw the flower path's packets" [ "${acc:-0}" -gt 0 ]
	check "$m: zero lossless drops" [ "$(q clos-bounce ".modes.$m.pfc.lossless_drops")" = 0 ]
done
check "without Tagger: PAUSEs sent, and received by the agents" \
	[ "$(q clos-bounce '.modes.plain.pfc.pauses_received')" -gt 0 ]

# tags FLOW NODE...: the tag each switch of the path classified the
# flow's packets in with (its in-port toward the node before), from the
# flower filters' counters, as "T3:1 L3:1 ...".
tags() {
	local prev=$1 n
	shift
	for n in "$@"; do
		printf '%s:%s ' "$n" "$(jq -r --arg p "$prev" '[.ports[] |
			select(.port == $p) | .in[] | select(.lossless and .packets > 0) |
			.tag] | map(tostring) | join("+")' "$D/tagger/show-$n.json")"
		prev=$n
	done
}
# Both flows share L2->S1 and L3->S2 under different tags: per port the
# tag the other flow does not use there is this one's.
t1=$(tags h3 T3 L3 S2 L2 S1 L1 T1)
t2=$(tags h2 T2 L2 S1 L3 S2 L4 T4)
echo "with Tagger, flow 1's tags: $t1"
echo "with Tagger, flow 2's tags: $t2"
check "with Tagger: flow 1 keeps tag 1 up to L2, which bounces it up to 2" \
	[ "$t1" = "T3:1 L3:1 S2:1+2 L2:1 S1:1+2 L1:2 T1:2 " ]
check "with Tagger: flow 2 keeps tag 1 up to L3, which bounces it up to 2" \
	[ "$t2" = "T2:1 L2:1 S1:1+2 L3:1 S2:1+2 L4:2 T4:2 " ]
check "with Tagger: no switch counted a packet lossy" \
	[ "$(cat "$D"/tagger/show-*.json | jq -s '[.[].ports[].lossy[]] | add')" = 0 ]

if have_verdict clos-bounce plain; then
	check "without Tagger: deadlock" [ "$(verdict clos-bounce plain)" = true ]
	check "without Tagger: the cycle is L2 S1 L3 S2, formed under load" \
		[ "$(q clos-bounce '.modes.plain.verdict | [.cycle, .cycle_under_load] | map(sort | join(" ")) | unique | join(",")')" = "L2 L3 S1 S2" ]
	for id in 1 2; do
		check "without Tagger: flow $id stopped for good while its sender still sent" \
			stalled_under_load clos-bounce plain "$id"
	done
fi
have_verdict clos-bounce tagger
check "with Tagger: no deadlock" [ "$(verdict clos-bounce tagger)" = false ]
check "with Tagger: no queue left paused" \
	[ "$(q clos-bounce '.modes.tagger.verdict.paused_queues | length')" = 0 ]
for id in 1 2; do
	check "with Tagger: flow $id never stopped, at half its rate or more" \
		[ "$(q clos-bounce ".modes.tagger.flows[] | select(.id == $id) |
			.stalled_at == null and .after_mbps >= .rate_mbps / 2 and .lost == 0")" = true ]
done
lab_end
