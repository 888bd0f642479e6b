#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The data plane on a kernel without tcx: Debian's stock kernel (6.1) in
# the QEMU VM of vmlab/vm.sh. The BPF test-run suite passes there, and
# attach (auto mode) falls back to cls_bpf and says so; update, show and
# detach work the same. Skips when the VM is not set up (vmlab/vm.sh setup).
source "$(dirname "$0")/../lib.sh"
require_root
bash "$TOP/vmlab/vm.sh" info >/dev/null 2>&1 || skip "no VM kernel (vmlab/vm.sh setup)"
[ -x "$TOP/build/test_runner" ] || skip "build/test_runner not built"
out=$(bash "$TOP/vmlab/vm.sh" run --timeout 300 -- sh "$TOP/tests/shell/dp_vm_guest.sh" "$TOP" 2>&1)
rc=$?
echo "$out" | sed 's/^/    /' | cut -c1-200
[ $rc -eq 0 ] || fail "VM run failed (exit $rc)"
kernel=$(echo "$out" | awk '/^kernel/ { print $2 }')
case "$kernel" in
6.[0-5].*|5.*) ;;
*) skip "VM kernel $kernel has tcx: nothing to fall back from" ;;
esac
check "BPF test-run suite passes on $kernel" grep -q "^100%: Checks: [0-9]*, Failures: 0, Errors: 0" <<<"$out"
check "attach falls back to cls_bpf and says so" grep -q "ports attached with tc," <<<"$out"
check "the filter is on the port" grep -qx "1" <<<"$out"
check "update swaps (generation 1)" grep -q "generation 1 live" <<<"$out"
check "show reads the pins" grep -q '"mode":"tc","generation":1' <<<"$out"
check "the second update goes in place (generation 2)" grep -qx '"in_place":true' <<<"$out"
check "show after it" grep -qx '"generation":2' <<<"$out"
check "detach" grep -q "switch S2: detached from 3 ports" <<<"$out"
[ "$(grep -c '^exit 0$' <<<"$out")" -eq 6 ] || fail "a tagger command failed in the VM"
echo PASS
