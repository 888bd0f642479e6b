#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Real RDMA through the lab: perftest (ib_write_bw, RC, a fixed size and
# count; then ib_send_lat) over soft RoCE (rdma_rxe) between two QEMU VMs
# that boot Debian's kernel (rxe lives in the initial namespace only, so
# one VM per RDMA host). Their NICs are taps on the switch ports of a
# namespace lab on this machine (fixtures/rdma_lab.topo: h1 and h3 under
# switch A, h2 under B), which runs the eBPF data plane and a pause agent
# on every switch and host, the VMs' own agents included (they obey their
# ToR's PAUSEs). h3 sends a plain UDP filler of the lossless class to h2,
# so A->B, which it shares with the RDMA flow h1->h2, congests.
#   lossless (the pause on): the transfer completes with 0 retransmissions
#     by rxe's counters (completer_retry_err, rcvd_seq_err,
#     duplicate_request, out_of_seq_request, retry_exceeded_err, read in
#     each VM before and after) and 0 lossless drops in the lab;
#   lossy (the pause off: --lossless none, same queues and rates): rxe
#     counts retransmissions.
# Rates are whatever the VMs sustain; the test prints them and the
# counters. A run in which the lab never congested (no PAUSE without
# loss, no drop with it) or the VMs never ran perftest in time says NO
# VERDICT and ends as skipped, as the lab's scenario tests do. TCG: each
# VM eats a core; a mode takes 1-3 minutes here.
# RDMA_MODES (default "lossless lossy") runs a part of it.
source "$(dirname "$0")/../lab_lib.sh"
source "$TOP/vmlab/scenario.sh"
require_cmd qemu-system-x86_64
require_cmd ib_write_bw
require_cmd rdma
[ -e /usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so ] ||
	ls /usr/lib/*/libibverbs/librxe-* >/dev/null 2>&1 || skip "no rxe verbs provider (ibverbs-providers)"
kdir=$(vm_kernel_dir) || skip "$kdir"
cd "$TOP" || exit 1

RATE=${RDMA_RATE:-20mbit}
# The filler's payload rate (Mbit/s): 80 % of the link, so that any RDMA
# rate the VMs sustain beside it congests A->B.
FILL=${RDMA_FILL:-16}
# QP timeout 4 us * 2^20 = 4.2 s: under TCG at load 5 and more an ack
# waiting behind a paused VM queue outlived 2^18 (1.05 s), and rxe resent
# a packet that had arrived (a duplicate at the responder, no gap).
BW_OPTS=${RDMA_BW_OPTS:-"-s 65536 -n 100 -u 20 --report_gbits"}
LAT_OPTS=${RDMA_LAT_OPTS:-"-s 64 -n 200 -u 20"}
VM_TIMEOUT=${RDMA_VM_TIMEOUT:-240}
TOPO=$TOP/tests/shell/fixtures/rdma_lab.topo
mkdir -p "$OUT"
lab_init "$LAB_NAME" || fail "lab name"
tgr_on_exit 'lab_down_mine'
# RDMA_OUT=DIR keeps the VMs' logs and the agents' counters.
[ -n "${RDMA_OUT:-}" ] && tgr_on_exit 'mkdir -p "$RDMA_OUT" && cp -a "$OUT/." "$RDMA_OUT/"'

mac() { awk -F. '{ printf "02:00:%02x:%02x:%02x:%02x\n", $1, $2, $3, $4 }' <<<"$1"; }

# delta KEY BEFORE AFTER: a counter's growth between two "key value ..." lines.
delta() {
	local a b
	a=$(awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }' <<<"$2")
	b=$(awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }' <<<"$3")
	echo $((${b:-0} - ${a:-0}))
}
RETX="completer_retry_err rcvd_seq_err duplicate_request out_of_seq_request retry_exceeded_err"

# run_mode lossless|lossy: one lab, two VMs, the filler; results in $D.
run_mode() {
	local mode=$1 lossless n sw port addr gw h deadline vm role peer
	local -A a g s
	D=$OUT/$mode
	mkdir -p "$D"
	SC_DIR=$D
	[ "$mode" = lossless ] && lossless=3 || lossless=none
	lab_up "$TOPO" --shortest || fail "$mode: lab up"
	for h in h1 h2; do
		read -r sw port addr gw < <(lab_host_tap "$h") || fail "$mode: tap for $h"
		s[$h]=$sw a[$h]=$addr g[$h]=$gw
		echo "$mode: $h is a VM on tap $sw:$port ($addr, $(mac "$addr"))"
	done
	sc_plain_rules 26 3 > "$D/rules.json"
	for n in A B; do
		lab_exec "$n" "$TAGGER" switch attach "$n" "$D/rules.json" >> "$D/attach.log" 2>&1 ||
			fail "$mode: switch attach $n"
	done
	lab_exec h3 "$TAGGER" host attach h3 eth0 "$D/rules.json" >> "$D/attach.log" 2>&1 ||
		fail "$mode: host attach h3"
	# The VMs: h2 serves, h1 is the client; each in its switch's
	# namespace, where its tap is. lab_spawn: lab_down kills them. From
	# $D, which vm.sh then shows the guest (the guest's /tmp is its own).
	cd "$D" || fail "cd $D"
	for h in h2 h1; do
		[ "$h" = h2 ] && role=server || role=client
		peer=${a[h1]}; [ "$h" = h1 ] && peer=${a[h2]}
		lab_spawn "vm-$h" "${s[$h]}" "$D/vm-$h.log" bash "$TOP/vmlab/vm.sh" run \
			--timeout "$VM_TIMEOUT" --nic "tap:$h,mac=$(mac "${a[$h]}")" -- \
			sh "$TOP/tests/shell/lab_rdma_vm_guest.sh" "$TOP" "$h" "$role" \
			"${a[$h]}" "${g[$h]}" "$peer" "$D/rules.json" \
			"--rate $RATE --lossless $lossless --dscp-map 26:3,0:0" \
			"$BW_OPTS" "$LAT_OPTS" "$([ "$h" = h2 ] && echo 500 || echo 0)"
	done
	cd "$TOP" || fail "cd $TOP"
	# QEMU opens its tap at once: the carrier comes up before the kernel
	# boots. The agents need it (a port without carrier drops).
	for h in h1 h2; do
		for _ in $(seq 100); do
			[ "$(lab_exec "${s[$h]}" cat "/sys/class/net/$h/carrier" 2>/dev/null)" = 1 ] && break
			sleep 0.1
		done
	done
	for n in A B h3; do
		# shellcheck disable=SC2046
		lab_spawn "pfc-$n" "$n" "$D/pfc-$n.log" "$TAGGER" pfc agent "$n" \
			$(sc_ports "$n") --rate "$RATE" --lossless "$lossless" \
			--dscp-map 26:3,0:0 --watchdog-action report --busy-poll 0
	done
	for n in A B h3; do
		for _ in $(seq 100); do
			lab_exec "$n" "$TAGGER" pfc show "$n" > /dev/null 2>&1 && break
			sleep 0.1
		done
	done
	# The filler; the server VM starts perftest once it has seen it
	# arrive (its 11th argument), so the transfer runs under congestion.
	lab_spawn fill h3 "$D/fill.json" "$TAGGER" flow send "${a[h2]}" --port 4792 \
		--id 9 --rate "$FILL" --size 1000 --dscp 26 --prio 3
	# The filler stops once the client is done, before the server's VM
	# powers off (it waits for the quiet).
	deadline=$((SECONDS + VM_TIMEOUT + 30))
	for vm in vm-h1 vm-h2; do
		while kill -0 "$(lab_pid "$vm")" 2>/dev/null && [ $SECONDS -lt $deadline ]; do
			sleep 1
		done
		[ $vm = vm-h1 ] && lab_stop fill
	done
	for n in A B h3; do
		lab_exec "$n" "$TAGGER" -j pfc show "$n" > "$D/pfc-$n.json" 2>/dev/null
	done
	for h in h1 h2; do
		sed -n 's/^pfc //p' "$D/vm-$h.log" > "$D/pfc-vm-$h.json"
	done
	cat "$D"/pfc-[ABh]*.json | jq -s -f "$TOP/vmlab/pfc-sum.jq" > "$D/lab.json"
	cat "$D"/pfc-vm-*.json | jq -s -f "$TOP/vmlab/pfc-sum.jq" > "$D/vms.json"
	lab_down
}

# report MODE: the numbers, and the sums the verdict reads into R_*.
report() {
	local mode=$1 h before after k
	D=$OUT/$mode
	R_RETX=0 R_DONE=1 R_COUNTED=1 R_GAPS=0 R_DUPS=0
	for h in h1 h2; do
		sed 's/^/    /' "$D/vm-$h.log" | grep -v '^    pfc ' | cut -c1-200
		before=$(sed -n 's/^rdma-before //p' "$D/vm-$h.log")
		after=$(sed -n 's/^rdma-after //p' "$D/vm-$h.log")
		[ -n "$before" ] && [ -n "$after" ] || R_COUNTED=0 R_DONE=0
		grep -q '^bw-exit 0 ' "$D/vm-$h.log" || R_DONE=0
		printf '%s: %s:' "$mode" "$h"
		for k in $RETX sent_pkts rcvd_pkts; do
			printf ' %s %s' "$k" "$(delta "$k" "$before" "$after")"
			case " $RETX " in *" $k "*) R_RETX=$((R_RETX + $(delta "$k" "$before" "$after"))) ;; esac
			# A gap in the sequence: a packet that never arrived.
			case $k in rcvd_seq_err | out_of_seq_request)
				R_GAPS=$((R_GAPS + $(delta "$k" "$before" "$after"))) ;; esac
			[ "$k" = duplicate_request ] && R_DUPS=$((R_DUPS + $(delta "$k" "$before" "$after")))
		done
		echo
	done
	R_BW=$(awk '/^ *65536 +[0-9]+ / { print $4; exit }' "$D/vm-h1.log")
	R_LAT=$(awk '/^ *64 +[0-9]+ / { print $5; exit }' "$D/vm-h1.log")
	R_SECS=$(awk '/^bw-exit / { print $3; exit }' "$D/vm-h1.log")
	R_LOSSLESS=$(jq '.lossless_drops' "$D/lab.json")
	R_LOSSY=$(jq '.lossy_drops' "$D/lab.json")
	R_PAUSES=$(jq '.pauses_sent' "$D/lab.json")
	R_VMPAUSED=$(jq '.pauses_received' "$D/vms.json")
	echo "$mode: ib_write_bw ${R_BW:-?} Gbit/s average (exit $(awk '/^bw-exit / { print $2; exit }' "$D/vm-h1.log"), ${R_SECS:-?} s for the run), ib_send_lat typical ${R_LAT:-?} us"
	echo "$mode: filler (h3 -> h2, UDP): $(tail -1 "$D/fill.json")"
	echo "$mode: lab: $R_PAUSES PAUSEs sent, lossless drops $R_LOSSLESS, lossy drops $R_LOSSY; VMs: $R_VMPAUSED PAUSEs received, lossless drops $(jq .lossless_drops "$D/vms.json")"
	echo "$mode: rxe retransmission counters, both VMs: $R_RETX"
}

NOVERDICT=()
for mode in ${RDMA_MODES:-lossless lossy}; do
	echo "== $mode"
	run_mode "$mode"
	report "$mode"
	if [ "$R_COUNTED" != 1 ]; then
		NOVERDICT+=("$mode: the VMs did not get to reading rxe's counters within ${VM_TIMEOUT}s")
		continue
	fi
	case $mode in
	lossless)
		check "lossless: ib_write_bw completed" [ "$R_DONE" = 1 ]
		check "lossless: zero lossless drops in the lab" [ "$R_LOSSLESS" = 0 ]
		if [ "$R_PAUSES" -eq 0 ]; then
			NOVERDICT+=("lossless: the lab never paused (A->B never congested)")
			continue
		fi
		check "lossless: the VM was paused by its ToR" [ "$R_VMPAUSED" -gt 0 ]
		check "lossless: no gap in any sequence (no packet lost)" [ "$R_GAPS" = 0 ]
		# A resend after the QP timeout whose original arrived (a
		# duplicate at the responder, no gap) is a packet held past the
		# timeout by a machine too busy to keep up, not a loss.
		if [ "$R_RETX" -gt 0 ] && [ "$R_DUPS" -gt 0 ] && [ "$R_LOSSLESS" = 0 ]; then
			NOVERDICT+=("lossless: rxe resent $R_RETX times after its QP timeout, the originals arrived ($R_DUPS duplicates, no gap): held past the timeout at this load")
			continue
		fi
		check "lossless: rxe counted 0 retransmissions" [ "$R_RETX" = 0 ]
		;;
	lossy)
		if [ "$R_LOSSY" -eq 0 ]; then
			NOVERDICT+=("lossy: the lab never dropped (A->B never congested)")
			continue
		fi
		check "lossy: rxe counted retransmissions" [ "$R_RETX" -gt 0 ]
		[ "$R_DONE" = 1 ] || echo "lossy: ib_write_bw did not complete (the losses stalled it)"
		;;
	esac
done
for v in "${NOVERDICT[@]}"; do echo "NO VERDICT: $v"; done
[ ${#NOVERDICT[@]} -eq 0 ] || skip "no verdict for: ${NOVERDICT[*]}"
echo PASS
