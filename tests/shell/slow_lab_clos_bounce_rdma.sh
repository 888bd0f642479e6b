#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# clos-bounce with RDMA flows (vmlab/scenarios/clos-bounce-rdma.sh): the
# two lossless flows are ib_write_bw over soft RoCE between two QEMU VMs,
# each VM two of the Clos's hosts (a NIC on each one's ToR).
#   without Tagger: the failures bounce both flows and close the cycle
#     L2->S1->L3->S2: both flows stop for good (their receivers' ToR ports
#     send nothing) while the perftest clients still run, the cycle named
#     from the lab's pause agents under load and after; the clients never
#     complete; no lossless drop (lab and VMs);
#   with Tagger: no deadlock, both flows keep flowing, both transfers
#     complete, no lossless drop; rxe's retransmission counters printed
#     (and 0 unless the failures themselves lost packets).
# A run whose VMs did not get going, whose flows never arrived, or whose
# cycle never congested says NO VERDICT and ends as skipped, as the
# lab's scenario tests do. Two TCG VMs, a core each: 2-3 min a mode.
source "$(dirname "$0")/../lab_lib.sh"
require_cmd qemu-system-x86_64
require_cmd ib_write_bw
require_cmd rdma
require_cmd python3
ls /usr/lib/*/libibverbs/librxe-* >/dev/null 2>&1 || skip "no rxe verbs provider (ibverbs-providers)"
kdir=$(vm_kernel_dir) || skip "$kdir"
N=clos-bounce-rdma
# RDMA_OUT=DIR keeps the runs (the VMs' logs, every sample).
[ -n "${RDMA_OUT:-}" ] && tgr_on_exit 'mkdir -p "$RDMA_OUT" && cp -a "$OUT/." "$RDMA_OUT/"'
RETX="completer_retry_err rcvd_seq_err duplicate_request out_of_seq_request retry_exceeded_err"

# delta HOST KEY LOG: a counter's growth on HOST's rxe between the
# "rdma-before HOST" and "rdma-after HOST" lines of a VM's LOG.
delta() {
	awk -v h="$1" -v k="$2" '($1 == "rdma-before" || $1 == "rdma-after") && $2 == h {
		for (i = 3; i < NF; i++) if ($i == k) v[$1] = $(i + 1) }
		END { print v["rdma-after"] - v["rdma-before"] }' "$3"
}
# bw_exit HOST LOG: the exit status of HOST's ib_write_bw ("" if none).
bw_exit() { awk -v h="$1" '$1 == "bw-exit" && $2 == h { print $3; exit }' "$2"; }

# report MODE: each flow's perftest end and rxe counters; R_RETX the sum
# of the retransmission counters, R_DONE the clients that completed.
report() {
	local m=$1 d=$OUT/$N/$1 h log k n
	R_RETX=0 R_DONE=0
	for h in h3 h1 h2 h4; do
		case $h in h3|h2) log=$d/vm-A.log ;; *) log=$d/vm-B.log ;; esac
		printf '%s: %s: ib_write_bw exit %s, %s s;' "$m" "$h" "$(bw_exit "$h" "$log")" \
			"$(awk -v h="$h" '$1 == "bw-exit" && $2 == h { print $4; exit }' "$log")"
		for k in $RETX sent_pkts rcvd_pkts; do
			n=$(delta "$h" "$k" "$log")
			printf ' %s %s' "$k" "$n"
			case " $RETX " in *" $k "*) R_RETX=$((R_RETX + n)) ;; esac
		done
		echo
		case $h in h3|h2) [ "$(bw_exit "$h" "$log")" = 0 ] && R_DONE=$((R_DONE + 1)) ;; esac
	done
	grep -h "^h[1-4]: *65536 " "$d"/vm-[AB].log | sed "s/^/$m: /"
	echo "$m: lab and VMs: $(q "$N" ".modes.$m.pfc | {pauses_sent, lossless_drops, lossy_drops, failed_link_losses} | tostring")"
	echo "$m: the lab's kernels dropped: $(tr '\n' ',' < "$d/kernel-drops.txt")"
}

run_scenario "$N" both ${RDMA_RATE:+SC_RATE=$RDMA_RATE}
summary_lines "$N"
report plain
R_DONE_plain=$R_DONE
report tagger
R_DONE_tagger=$R_DONE R_RETX_tagger=$R_RETX
check "without Tagger: zero lossless drops" [ "$(q "$N" .modes.plain.pfc.lossless_drops)" = 0 ]
if have_verdict "$N" plain; then
	check "without Tagger: deadlock" [ "$(verdict "$N" plain)" = true ]
	check "without Tagger: the cycle is L2 S1 L3 S2" \
		[ "$(q "$N" '.modes.plain.verdict.cycle | sort | join(" ")')" = "L2 L3 S1 S2" ]
	check "without Tagger: formed under load" \
		[ "$(q "$N" '.modes.plain.verdict.cycle_under_load | sort | join(" ")')" = "L2 L3 S1 S2" ]
	for id in 1 2; do
		check "without Tagger: flow $id stopped for good in the window" stalled_under_load "$N" plain "$id"
		check "without Tagger: flow $id at 0 in the window's second half" \
			[ "$(q "$N" ".modes.plain.flows[] | select(.id == $id) | .after_mbps")" = 0 ]
	done
	check "without Tagger: both clients still ran when the window closed" \
		[ "$(cat "$OUT/$N/plain/clients-done-at-stop")" = 0 ]
	check "without Tagger: neither transfer completed" [ "$R_DONE_plain" = 0 ]
fi
have_verdict "$N" tagger
check "with Tagger: no deadlock" [ "$(verdict "$N" tagger)" = false ]
check "with Tagger: zero lossless drops" [ "$(q "$N" .modes.tagger.pfc.lossless_drops)" = 0 ]
for id in 1 2; do
	check "with Tagger: flow $id never stopped" \
		[ "$(q "$N" ".modes.tagger.flows[] | select(.id == $id) | .stalled_at")" = null ]
	check "with Tagger: flow $id still flowing after the failures" \
		ge "$(q "$N" ".modes.tagger.flows[] | select(.id == $id) | .after_mbps // 0")" 0.2
done
check "with Tagger: both transfers completed" [ "$R_DONE_tagger" = 2 ]
# Not a claim: the failures' reroutes can lose a packet outside any
# lossless queue (no agent counts it; kernel-drops.txt may), which rxe
# then resends.
echo "with Tagger: rxe counted $R_RETX_tagger retransmissions (lossless drops: 0)"
lab_end
echo PASS
