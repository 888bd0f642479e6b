#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `tagger switch attach --datapath flower`: the rules as tc flower filters
# with the eBPF data plane's state record, in the QEMU VM of vmlab/vm.sh
# (Debian's kernel has cls_flower and the actions; this host's has none).
# Per switch (the wildcard rules, a Clos leaf with 1-bounce rules, a ring
# switch with two classes): every case of tests/shell/flower_pkts.py leaves
# the flower data path as it leaves the eBPF one, show's counters of both
# agree, show names the flower data path and what each port runs, detach
# leaves nothing. On the first: an update under a steady flow (each packet
# the old table's tag or the new one's), and updates and a detach killed
# at their netlink and bpf calls, each followed by a consistent show and a
# next command that leaves every port on its generation's chains only;
# attaches killed the same way; show from another namespace refused;
# --offload refused on ports that offload nothing. The kills sample the
# last sendtos of an update (a third, from a random offset) unless
# TGR_KILLS_FULL=1 (tests/shell/slow_flower_kills_vm.sh: all of them).
# Skips (249) when the VM is not set up.
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd jq
kdir=$(vm_kernel_dir) || skip "$kdir"
[ -x "$TOP/build/tagger" ] || skip "build/tagger not built"
F=tests/bpf/fixtures
out=$(bash "$TOP/vmlab/vm.sh" run --timeout 900 --keep-env TGR_KILLS_FULL -- \
	bash "$TOP/tests/shell/flower_attach_vm_guest.sh" "$TOP" "$kdir" \
	tests/shell/fixtures/flower_update.rules.json \
	"$F/wildcards.rules.json:S" "$F/clos_bounce.rules.json:L2" \
	"$F/ring_2classes.rules.json:sw2" 2>&1)
rc=$?
echo "$out" | sed 's/^/    /' | cut -c1-240
[ $rc -eq 0 ] || fail "VM run failed (exit $rc)"
for sw in S L2 sw2; do
	check "$sw: show names the flower data path, generation 0 everywhere" \
		grep -qx "SHOW FLOWER $sw" <<<"$out"
	for dp in bpf flower; do
		check "$sw: every case arrived on $dp" \
			grep -qx "$sw $dp: sent [0-9]* cases, 0 arrived nowhere" <<<"$out"
	done
	check "$sw: flower and BPF agree on every case" grep -qx "SAME $sw" <<<"$out"
	check "$sw: and count alike" grep -qx "COUNTERS SAME $sw" <<<"$out"
	check "$sw: detach leaves no filter and no state" \
		grep -qx "DETACHED CLEAN $sw" <<<"$out"
done
flow=$(sed -n 's/^flow //p' <<<"$out")
check "the update went in during the flow" grep -qx "update applied" <<<"$out"
check "every packet of the flow arrived" \
	test "$(jq '[.tos[]] | add' <<<"$flow")" = "$(jq .sent <<<"$flow")"
check "each with the old table's tag or the new one's, both seen" \
	test "$(jq -c '.tos | keys' <<<"$flow")" = '["121","81"]'
check "every port runs generation 1 after it" \
	grep -qx "running after the update: 1/1 " <<<"$out"
check "the old generation's chains are gone" grep -qx "chains old 0" <<<"$out"
check "  and the new one's are there" grep -qx "chains new [1-9][0-9]*" <<<"$out"
if grep -q "^CRASH UNCHECKED" <<<"$out"; then
	fail "no strace in the VM: the kills were not run"
fi
check "killed updates and detaches: all consistent" \
	bash -c '! grep -q "^INCONSISTENT" <<<"$1"' _ "$out"
check "  and there were kills" grep -qx "CRASHES [1-9][0-9]*" <<<"$out"
check "show in another namespace is refused, naming why" \
	grep -qx "OTHER NETNS REFUSED" <<<"$out"
check "--offload on a port that offloads nothing: refused, nothing left" \
	grep -q "^OFFLOAD REFUSED: .*Error: " <<<"$out"
echo PASS
