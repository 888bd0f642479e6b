#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034  # the SC_* settings are read by vmlab/scenario.sh
# Scenario 1 (clos-bounce.sh) with RDMA flows: the two lossless flows are
# ib_write_bw (perftest, RC RDMA writes) over soft RoCE (rdma_rxe) between
# two QEMU VMs that boot Debian's kernel, rxe living in a kernel's initial
# namespace only. Each VM is two of the Clos's hosts, one per NIC: vmA is
# h3 and h2 (the clients: flow 1 h3->h1, flow 2 h2->h4), vmB is h1 and h4
# (the servers). Their NICs are taps on the ToRs' ports (lab_host_tap;
# QEMU opens them in one namespace, so the second of each VM is moved to
# its switch once opened: lab_tap_home). Each VM tags RoCEv2 into the
# lossless class and runs a pause agent (it obeys its ToRs' PAUSEs). A
# flow's receive rate is what its receiver's ToR port transmits
# (vmlab/portflow.py): the lab's verdict reads it as it reads `tagger flow
# recv`. rxe under TCG sends about 9-10 Mbit/s from one vCPU, shared here
# by two flows, and 1-2 Mbit/s a flow on a machine with a load of 12, so
# the links run at SC_RATE 3 Mbit/s: L2->S1 and L3->S2, which the
# bounces give both flows, get more than they carry either way (at 4
# Mbit/s a run at load 12 never congested them: no verdict).
# Lines of the VMs' logs (vm-A.log, vm-B.log): bw-exit HOST CODE SECONDS
# per flow, rxe's counters before and after, the agents' counters.
D=$(dirname "$0")
SC_NAME=${SC_NAME:-clos-bounce-rdma}
SC_TOPO=$D/clos.topo
SC_ROUTES=${SC_ROUTES:-$D/clos-rdma-flows.elp}
SC_ELP_KIND=bounce=1
SC_ALGO=clos
SC_RATE=${SC_RATE:-3mbit}
SC_FLOWS="1 h3 h1 ${SC_MBIT:-3}
2 h2 h4 ${SC_MBIT:-3}"
SC_CYCLE=${SC_CYCLE-L2 S1 L3 S2}
SC_VM_HOSTS="h1 h2 h3 h4"
# perftest connects over TCP first: "flowing" (both flows arrive), not
# their rate, which the VMs set; the failures once they ran a while.
SC_READY=${SC_READY:-flowing}
SC_READY_MAX=${SC_READY_MAX:-60}
SC_EVENTS=${SC_EVENTS-"${SC_FAIL_AT:-5} fail L2:T1
${SC_FAIL_AT:-5} fail L3:T4"}
# RC, 120 writes of 64 KiB (7.9 MB a flow: longer than the run's window at
# these rates); QP timeout 4.3 s (-u 20), so that a stalled flow's
# client still retries through the window after the failures. -F: under
# TCG perftest's clock calibration is noisy (r^2 < 0.9), and without it
# a transfer that completed exits 1 ("Can't produce a report"); the rates
# are the lab's anyway.
RDMA_BW_OPTS=${RDMA_BW_OPTS:-"-s 65536 -n 120 -u 20 -F --report_gbits"}
# A transfer stuck behind a deadlock's pauses neither completes nor
# fails (rxe's retries wait behind the same paused queue): killed after
# RDMA_BW_SECS, without Tagger once the run has its verdict, with Tagger
# long after the transfers' 45-70 s here (then they failed).
RDMA_BW_SECS_PLAIN=${RDMA_BW_SECS_PLAIN:-40}
RDMA_BW_SECS=${RDMA_BW_SECS:-100}
# The window after the failures: the RDMA flows fill the cycle's links in
# 2-4 s (their rate before is what rxe sends, below the link's), and the
# verdict wants the stop in the window's first half.
SC_WINDOW=${SC_WINDOW:-8}
RDMA_VM_TIMEOUT=${RDMA_VM_TIMEOUT:-300}
RDMA_BOOT_MAX=${RDMA_BOOT_MAX:-180}
source "$D/../scenario.sh"

rdma_mac() { awk -F. '{ printf "02:00:%02x:%02x:%02x:%02x\n", $1, $2, $3, $4 }' <<< "$1"; }

# rdma_vm MODE VM NODE ROLE HOST:PEER:PORT...: the VM, started in NODE's
# namespace, with a NIC per HOST (its tap made there; moved home by
# sc_up_extra), ROLE server or client of one flow per NIC.
rdma_vm() {
	local mode=$1 vm=$2 node=$3 role=$4 h peer port sw tport addr gw secs=$RDMA_BW_SECS
	local -a nics=() specs=()
	shift 4
	[ "$mode" = plain ] && secs=$RDMA_BW_SECS_PLAIN
	for h in "$@"; do
		IFS=: read -r h peer port <<< "$h"
		read -r sw tport addr gw < <(lab_host_tap "$h" "$node") || return 1
		ip -n "$(lab_ns "$node")" link set "$tport" up
		nics+=(--nic "tap:$tport,mac=$(rdma_mac "$addr")")
		specs+=("$h:$addr:$gw:$(lab_host_addr "$peer"):$port")
	done
	# From SC_DIR, which vm.sh then shows the guest (its /tmp is its own).
	(cd "$SC_DIR" && lab_spawn "vm-$vm" "$node" "$SC_DIR/vm-$vm.log" \
		bash "$VMLAB_DIR/vm.sh" run --timeout "$RDMA_VM_TIMEOUT" "${nics[@]}" -- \
		sh "$TOP/tests/shell/lab_clos_rdma_vm_guest.sh" "$TOP" "vm$vm" "$role" \
		"$SC_DIR/rules.json" "--rate $SC_RATE --lossless $SC_LOSSLESS --dscp-map $SC_DSCP_MAP" \
		"$RDMA_BW_OPTS" "$secs" "${specs[@]}")
}

# The taps, the VMs; once QEMU holds every tap, each moves to its switch.
sc_up_extra() {
	local t node port
	rdma_vm "$1" A T3 client h3:h1:18515 h2:h4:18516 || return 1
	rdma_vm "$1" B T1 server h1:h3:18515 h4:h2:18516 || return 1
	for t in T3:h3 T3:h2 T1:h1 T1:h4; do
		node=${t%:*} port=${t#*:}
		for _ in $(seq 300); do
			ip -n "$(lab_ns "$node")" link show dev "$port" 2>/dev/null | grep -q LOWER_UP && break
			sleep 0.1
		done
		ip -n "$(lab_ns "$node")" link show dev "$port" | grep -q LOWER_UP ||
			{ lab_die "QEMU did not open tap $port in $node"; return 1; }
	done
	lab_tap_home h2 T3 && lab_tap_home h4 T1
}

# The receivers' samples from the ToR ports toward h1 and h4; once both
# VMs are up, a datagram to each (to h3, h1; UDP port 9, where nothing
# listens) tells it the lab is ready: the perftest runs start.
sc_traffic_start() {
	local vm deadline h
	lab_spawn rx-h1 T1 "$SC_DIR/rx-h1.json" python3 "$VMLAB_DIR/portflow.py" h1 1
	lab_spawn rx-h4 T4 "$SC_DIR/rx-h4.json" python3 "$VMLAB_DIR/portflow.py" h4 2
	deadline=$((SECONDS + RDMA_BOOT_MAX))
	for vm in A B; do
		until grep -q '^ready ' "$SC_DIR/vm-$vm.log" 2>/dev/null; do
			if [ $SECONDS -ge $deadline ] || ! kill -0 "$(lab_pid "vm-$vm")" 2>/dev/null; then
				sc_broken "VM $vm not ready in ${RDMA_BOOT_MAX}s: $(tail -2 "$SC_DIR/vm-$vm.log" | tr '\n' ' ')"
				return
			fi
			sleep 0.5
		done
	done
	for h in T3:h3 T1:h1; do
		for _ in 1 2 3; do
			lab_exec "${h%:*}" bash -c "echo go > /dev/udp/$(lab_host_addr "${h#*:}")/9" ||
				sc_broken "cannot send ${h#*:} the go"
		done
	done
}

# Whether each client still ran when the window closed (its bw-exit line
# not yet written): a stall while the sender still sends.
sc_stop_extra() {
	grep -c '^bw-exit ' "$SC_DIR/vm-A.log" > "$SC_DIR/clients-done-at-stop" 2>/dev/null
}

# The VMs end once their flows end or are killed (RDMA_BW_SECS); their
# agents' counters join the lab's. Then what the lab's kernels dropped
# that no agent counts (a retransmission with no lossless drop must have
# lost its packet somewhere): every node's interface drops and IP
# no-route counts, "NODE WHAT N" where N > 0, in kernel-drops.txt.
sc_end_extra() {
	local vm n deadline=$((SECONDS + RDMA_VM_TIMEOUT))
	for vm in A B; do
		while kill -0 "$(lab_pid "vm-$vm")" 2>/dev/null && [ $SECONDS -lt $deadline ]; do
			sleep 1
		done
		sed -n 's/^pfc //p' "$SC_DIR/vm-$vm.log" > "$SC_DIR/pfc-vm$vm.json"
	done
	for n in $(lab_nodes switch); do
		ip -n "$(lab_ns "$n")" -s -j link show | jq -r --arg n "$n" '.[] | .ifname as $i |
			(.stats64.rx.dropped // 0) as $r | (.stats64.tx.dropped // 0) as $t |
			(select($r > 0) | "\($n) \($i)-rx-dropped \($r)"),
			(select($t > 0) | "\($n) \($i)-tx-dropped \($t)")'
		lab_exec "$n" awk -v n="$n" '/^Ip: [0-9]/ { if ($9) print n, "ip-in-discards", $9
			if ($12) print n, "ip-out-discards", $12
			if ($13) print n, "ip-out-no-routes", $13 }' /proc/net/snmp
	done > "$SC_DIR/kernel-drops.txt"
}

sc_main "$@"
