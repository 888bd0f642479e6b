#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `tagger switch attach --datapath flower --shared-blocks`, in the QEMU VM
# of vmlab/vm.sh (Debian's kernel has cls_flower and the actions; this
# host's has none). Per switch (the wildcard rules' S, a Clos leaf with
# 1-bounce rules): ports with alike tables run one tc block, every case of
# tests/shell/flower_pkts.py leaves as it leaves the eBPF data plane, the
# counters of ports and blocks add up to the eBPF data plane's, detach
# leaves no filter, no block, no state. On S: an update under a steady
# flow (the old table's tag or the new one's), kills at the netlink calls
# of update, detach and attach followed by a next command that repairs,
# another's block index skipped, the operator's own block refused.
# Skips (249) when the VM is not set up.
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd jq
kdir=$(vm_kernel_dir) || skip "$kdir"
[ -x "$TOP/build/tagger" ] || skip "build/tagger not built"
F=tests/bpf/fixtures
out=$(bash "$TOP/vmlab/vm.sh" run --timeout 600 -- \
	bash "$TOP/tests/shell/flower_blocks_vm_guest.sh" "$TOP" "$kdir" \
	tests/shell/fixtures/flower_update.rules.json \
	"$F/wildcards.rules.json:S" "$F/clos_bounce.rules.json:L2" 2>&1)
rc=$?
echo "$out" | sed 's/^/    /' | cut -c1-240
[ $rc -eq 0 ] || fail "VM run failed (exit $rc)"
for sw in S L2; do
	check "$sw: show names its blocks, ports on them, generation 0" \
		grep -qx "SHOW BLOCKS $sw [1-9][0-9]*" <<<"$out"
	for dp in bpf flower; do
		check "$sw: every case arrived on $dp" \
			grep -qx "$sw $dp: sent [0-9]* cases, 0 arrived nowhere" <<<"$out"
	done
	check "$sw: shared blocks and BPF agree on every case" \
		grep -qx "SAME $sw" <<<"$out"
	check "$sw: ports' and blocks' counters add up to BPF's" \
		grep -qx "COUNTERS ADD UP $sw" <<<"$out"
	check "$sw: detach leaves no filter, no block, no state" \
		grep -qx "DETACHED CLEAN $sw" <<<"$out"
done
flow=$(sed -n 's/^flow //p' <<<"$out")
check "the update went in during the flow" grep -qx "update applied" <<<"$out"
check "every packet of the flow arrived" \
	test "$(jq '[.tos[]] | add' <<<"$flow")" = "$(jq .sent <<<"$flow")"
check "each with the old table's tag or the new one's, both seen" \
	test "$(jq -c '.tos | keys' <<<"$flow")" = '["121","81"]'
check "every port and block runs generation 1 after it" \
	grep -qx "running after the update: 1/1 " <<<"$out"
if grep -q "^CRASH UNCHECKED" <<<"$out"; then
	fail "no strace in the VM: the kills were not run"
fi
check "killed updates, detaches, attaches: all consistent" \
	bash -c '! grep -q "^INCONSISTENT" <<<"$1"' _ "$out"
check "  and there were kills" grep -qx "CRASHES [1-9][0-9]*" <<<"$out"
check "another's block at tagger's first index is skipped" \
	grep -qx "FOREIGN INDEX SKIPPED" <<<"$out"
check "  and kept through detach" grep -qx "FOREIGN BLOCK KEPT" <<<"$out"
check "a port on the operator's own block is refused by name, nothing left" \
	grep -q "^OPERATOR BLOCK REFUSED: .*bound to tc block 7" <<<"$out"
echo PASS
