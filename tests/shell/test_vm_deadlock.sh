#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Scenario 3 (three flows on a ring) inside the VM on Debian's stock kernel,
# where the pause agents run the mqprio + plug backend: the deadlock
# without Tagger and none with it, on the second kernel. Rates are low:
# the VM is emulated (TCG), and its senders reach only 2-3 Mbit/s when the
# host is busy, so the links run at 5 Mbit/s: two flows of a few Mbit/s on
# one link still congest it.
source "$(dirname "$0")/../lab_lib.sh"
require_cmd qemu-system-x86_64
"$TOP/vmlab/vm.sh" setup || skip "no stock kernel (vmlab/vm.sh setup failed)"
cd "$TOP" || exit 1
"$TOP/vmlab/vm.sh" run --timeout 480 --out "$TGR_TMP/vm" -- \
	env SC_RATE=5mbit SC_MBIT=4 SC_SIZE=1000 SC_WINDOW=7 SC_AFTER=3 SC_SETTLE=2 \
	SC_PFC_OPTS="--backend mqprio" \
	sh -c 'bash vmlab/scenarios/three-flows.sh both --out "$VM_OUT/three" --lab vm' \
	2>&1 | tee "$TGR_TMP/vm.log"
rc=${PIPESTATUS[0]}
# The pause agent not starting on the stock kernel is the pause agent's
# problem, reported as such (the VM and the lab did their part).
if [ $rc -ne 0 ] && grep -q 'pfc agent of .* died' "$TGR_TMP/vm.log"; then
	skip "the pause agent does not start on $("$TOP/vmlab/vm.sh" info | awk '$1 == "kernel" { print $2 }'): $(grep -o 'died: .*' "$TGR_TMP/vm.log" | head -1)"
fi
[ $rc -eq 0 ] || fail "the scenario in the VM exited $rc"
S=$TGR_TMP/vm/three/summary.json
[ -f "$S" ] || fail "no summary from the VM"
check "the agents ran the mqprio-plug backend" \
	[ "$(jq -r '.modes.plain.pfc.backend | join(",")' "$S")" = mqprio-plug ]
for m in plain tagger; do
	[ "$(jq ".modes.$m.verdict.deadlock" "$S")" = null ] &&
		skip "$m: no verdict ($(jq -r ".modes.$m.verdict.no_verdict_because" "$S"); accounting leaks: $(jq -c ".modes.$m.verdict.accounting_leaks" "$S"))"
done
# No congestion, no pauses: such a run shows nothing about deadlocks.
pauses=$(jq '.modes.plain.pfc.pauses_sent' "$S")
[ "$(jq .modes.plain.verdict.deadlock "$S")" = false ] && [ "$pauses" -lt 100 ] &&
	skip "the emulated VM did not congest the ring without Tagger ($pauses pauses sent)"
check "without Tagger: deadlock on the stock kernel" [ "$(jq .modes.plain.verdict.deadlock "$S")" = true ]
check "with Tagger: no deadlock" [ "$(jq .modes.tagger.verdict.deadlock "$S")" = false ]
check "with Tagger: zero lossless drops" [ "$(jq .modes.tagger.pfc.lossless_drops "$S")" = 0 ]
# Emulated senders reach 1-2 Mbit/s (1.0-1.8 measured in the window's
# second half): flowing means never stopped and clearly above zero.
check "with Tagger: all three flows flow" \
	[ "$(jq '[.modes.tagger.flows[] | select(.stalled_at == null and .after_mbps > 0.3)] | length' "$S")" = 3 ]
