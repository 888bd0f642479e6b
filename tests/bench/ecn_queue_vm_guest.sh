#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs inside the VM of vmlab/vm.sh (Debian's kernel, which has DCTCP as
# a module): tests/bench/bench_ecn_queue.sh with DCTCP senders.
#   ecn_queue_vm_guest.sh TOP KDIR
# KDIR: the unpacked kernel's root (vm_kernel_dir in tests/lib.sh). The
# BENCH_* settings come from the host (vm.sh --keep-env).
cd "$1" || exit 1
for m in tcp_dctcp veth sch_htb sch_tbf sch_ingress cls_bpf act_bpf; do
	modprobe -d "$2" "$m" || { echo "modprobe $m failed"; exit 1; }
done
mount -t bpf bpf /sys/fs/bpf 2>/dev/null
BENCH_CC=dctcp exec bash tests/bench/bench_ecn_queue.sh
