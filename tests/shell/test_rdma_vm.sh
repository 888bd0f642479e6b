#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# host attach with a RoCE device on the interface, on a real kernel: soft
# RoCE (rdma_rxe) in the QEMU VM of vmlab/vm.sh (Debian's 6.1 has it as a
# module; this host's kernel has no RDMA). Attach sets the RDMA CM's
# default RoCE ToS to the host's initial tag << 2 (h1: tag 10 -> 40),
# says there is no DCB on a veth without failing, and detach puts it back.
# Skips (249) when the VM is not set up (vmlab/vm.sh setup).
source "$(dirname "$0")/../lib.sh"
require_root
kdir=$(vm_kernel_dir) || skip "$kdir"
[ -x "$TOP/build/tagger" ] || skip "build/tagger not built"
out=$(bash "$TOP/vmlab/vm.sh" run --timeout 300 -- \
	sh "$TOP/tests/shell/rdma_vm_guest.sh" "$TOP" "$kdir" 2>&1)
rc=$?
echo "$out" | sed 's/^/    /' | cut -c1-240
[ $rc -eq 0 ] || fail "VM run failed (exit $rc)"
check "rxe0 exists on the veth" grep -q "^ndev v0$" <<<"$out"
check "attach and detach exit 0" test "$(grep -c '^exit 0$' <<<"$out")" = 2
attach=$(grep '^{' <<<"$out")
check "attach reports the RDMA device and the ToS in -j" \
	test "$(jq -c '.rdma | [.ibdev, .port, .tos, .prev_tos]' <<<"$attach")" = '["rxe0",1,40,0]'
check "no DCB on a veth, said and not fatal" \
	jq -e '.rdma.dcb | startswith("no DCB")' <<<"$attach"
check "configfs reads back the initial tag << 2 (10 -> 40)" grep -qx "tos 40" <<<"$out"
check "detach removes the device group it made" grep -qx "after \[\]" <<<"$out"
check "so the ToS is the default again" grep -qx "reset 0" <<<"$out"
echo PASS
