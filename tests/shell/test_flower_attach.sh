#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `tagger switch attach --datapath flower` where it cannot run, on this
# host: its kernel has no cls_flower (no modules). The attach fails with
# the kernel's refusal named, exit 3, and leaves nothing behind: no state,
# no filter, no holder program, and a later eBPF attach works. Usage
# errors exit 2. (The data path itself runs in the VM:
# tests/shell/test_flower_attach_vm.sh.)
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd jq
source "$TOP/tests/shell/dp_lab.sh"

dp_bpffs_up
dp_dummies S1 hp r
rules=$TGR_TMP/rules.json
dp_rules "$rules" >/dev/null

if [ -e /proc/config.gz ] && zgrep -q '^CONFIG_NET_CLS_FLOWER=[ym]' /proc/config.gz; then
	skip "this kernel has cls_flower: the VM test covers it"
fi
out=$(tgr S1 switch attach S1 "$rules" --datapath flower 2>&1)
rc=$?
echo "$out" | sed 's/^/    /'
check "attach --datapath flower without cls_flower: exit 3" test "$rc" = 3
check "  with the step and the kernel's words" \
	grep -q "Error: .* on hp: .*\(No such file\|not supported\|Unknown filter\|Operation not\|Invalid\)" <<<"$out"
check "  no state left" test ! -e "$TAGGER_BPF_ROOT/S1"
for dir in ingress egress; do
	check "  no filter left on hp $dir" \
		test -z "$(ip -n "$(ns_name S1)" -j filter show dev hp "$dir" 2>/dev/null | tr -d '[]')"
done
tgr S1 switch show S1 >/dev/null 2>&1
check "  show: not attached (exit 2)" test $? = 2
check "a later eBPF attach works" tgr S1 switch attach S1 "$rules"
check "  and its show names the bpf data path" \
	test "$(tgr S1 -j switch show S1 | jq -r .datapath)" = bpf
check "  detach" tgr S1 switch detach S1

out=$(tgr S1 switch attach S1 "$rules" --offload 2>&1)
check "--offload without --datapath flower: exit 2" test $? = 2
check "  says why" grep -q "offload.*datapath flower" <<<"$out"
out=$(tgr S1 switch attach S1 "$rules" --datapath dcbx 2>&1)
check "an unknown data path: exit 2" test $? = 2
echo PASS
