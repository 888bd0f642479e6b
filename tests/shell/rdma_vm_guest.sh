#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs inside the VM of tests/shell/test_rdma_vm.sh: soft RoCE (rdma_rxe)
# on a veth, `tagger host attach` on it, the RDMA CM's default RoCE ToS
# read back from configfs, detach. $1: the repository, $2: the unpacked
# Debian kernel (vmlab/vm.sh's cache), whose modules are loaded from there
# rather than from the initramfs, so other VM runs boot as before. The
# kernel's own request_module would look in this root's /lib/modules, which
# has no 6.1 tree: so crc32_generic (rxe's ICRC, else "rdma link add" fails
# with ENOENT from crypto_alloc_shash) is loaded by hand too.
cd "$1" || exit 1
echo "kernel $(uname -r)"
for m in configfs crc32_generic rdma_rxe rdma_cm; do
	modprobe -d "$2" "$m" || { echo "modprobe $m failed"; exit 1; }
done
grep -q ' /sys/kernel/config ' /proc/mounts ||
	mount -t configfs configfs /sys/kernel/config || exit 1
mkdir -p /tmp/bpffs && mount -t bpf bpf /tmp/bpffs || exit 1
export TAGGER_BPF_ROOT=/tmp/bpffs/tagger
ip link add v0 type veth peer name v1 && ip link set v1 up && ip link set v0 up &&
	ip addr add 10.9.0.1/24 dev v0 || exit 1
rdma link add rxe0 type rxe netdev v0 || { echo "rdma link add failed"; exit 1; }
echo "ibdevs $(ls /sys/class/infiniband)"
echo "ndev $(cat /sys/class/infiniband/rxe0/ports/1/gid_attrs/ndevs/0)"
build/tagger -j host attach h1 v0 tests/shell/fixtures/dp_line.rules.json
echo "exit $?"
echo "tos $(cat /sys/kernel/config/rdma_cm/rxe0/ports/1/default_roce_tos)"
build/tagger host detach h1 v0
echo "exit $?"
# The device's group was made by attach: detach removes it (ToS default).
echo "after [$(ls /sys/kernel/config/rdma_cm)]"
mkdir /sys/kernel/config/rdma_cm/rxe0 &&
	echo "reset $(cat /sys/kernel/config/rdma_cm/rxe0/ports/1/default_roce_tos)"
rmdir /sys/kernel/config/rdma_cm/rxe0
