#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The VM mode of the lab boots Debian's stock kernel, and inside it the
# mqprio + plug gate holds one class's packets without loss and releases
# them (vmlab/guest/qdisc_gate.sh), which this host's kernel cannot do.
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd qemu-system-x86_64
"$TOP/vmlab/vm.sh" setup || skip "no stock kernel (vmlab/vm.sh setup failed)"
cd "$TOP" || exit 1
out=$("$TOP/vmlab/vm.sh" run --timeout 120 -- bash vmlab/guest/qdisc_gate.sh)
rc=$?
echo "$out"
[ $rc -eq 0 ] || fail "guest test exited $rc"
echo "$out" | grep -q '^PASS$' || fail "guest test did not finish"
