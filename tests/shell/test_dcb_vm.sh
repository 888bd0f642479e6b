#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tagger's DCB netlink library against iproute2's dcb, request for
# request, on the kernel of Debian 12 (6.1) in the QEMU VM of vmlab/vm.sh:
# nlmon captures what `dcb app add/del`, `dcb pfc set ... delay` and `dcb
# buffer set` send and what the library sends for the same settings, and
# tests/shell/dcb_nlmon.py compares them attribute by attribute (sequence
# numbers and port ids aside). Debian 12's dcb has no rewr: the library's
# rewr request is checked against the kernel's uapi layout, and on 6.1
# (no rewr table) it must send none. A restore's requests come in the
# planned order. Devices without DCB operations (dummy, veth, lo) give the
# clear error. Skips (249) when the VM is not set up.
source "$(dirname "$0")/../lib.sh"
require_root
kdir=$(vm_kernel_dir) || skip "$kdir"
for f in dcb_tool dcb_fake.so; do
	[ -e "$TOP/build/helpers/$f" ] || skip "build/helpers/$f not built (make helpers)"
done
require_cmd dcb
require_cmd tcpdump
out=$(bash "$TOP/vmlab/vm.sh" run --timeout 120 -- \
	bash "$TOP/tests/shell/dcb_vm_guest.sh" "$TOP" "$kdir" 2>&1)
rc=$?
echo "$out" | sed 's/^/    /' | cut -c1-240
[ $rc -eq 0 ] || fail "VM run failed (exit $rc)"
for dev in dum0 vd0 lo; do
	check "$dev: no DCB operations, said so" grep -qx \
		"refused $dev rc=3 Error: $dev does not support DCB (its driver has no DCB operations)" \
		<<<"$out"
done
check "the capture holds packets" grep -q "^capture: [1-9]" <<<"$out"
check "GET: the same request as dcb app show" grep -qx "SAME get 1" <<<"$out"
check "app add: dcb's request" grep -qx "SAME app 1" <<<"$out"
check "app del of two entries: dcb's request" grep -qx "SAME appdel 1" <<<"$out"
check "pfc with delay: dcb's GET and SET" grep -qx "SAME pfc 2" <<<"$out"
check "buffer: dcb's GET and SET" grep -qx "SAME buffer 2" <<<"$out"
check "the kernel refused the SET: our clear error" grep -q \
	"^step our-pfc: Error: dum0 does not support DCB" <<<"$out"
check "rewr: the uapi's DCB_ATTR_DCB_REWR_TABLE request" \
	grep -qx "UAPI our-rewr" <<<"$out"
check "rewr on a kernel without the table: not sent, said so" \
	grep -qx "UAPI our-rewr-old" <<<"$out"
check "  in words" grep -q \
	"^step our-rewr-old: Error: dum0: the rewr table is not supported by this kernel" \
	<<<"$out"
check "restore: add, delete, PFC, in that order" \
	grep -qx "UAPI our-restore" <<<"$out"
check "  three changes" grep -q "^step our-restore: 3 changes" <<<"$out"
check "the comparison passed" grep -qx "compare rc=0" <<<"$out"
echo PASS
