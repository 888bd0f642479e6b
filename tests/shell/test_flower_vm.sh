#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The flower filters of `tagger switch export` against the eBPF data plane,
# packet for packet, on a kernel that has cls_flower, act_pedit,
# act_skbedit and act_csum: Debian's stock kernel in the QEMU VM of
# vmlab/vm.sh (this host's kernel has none of them). Per switch (the
# hand-written wildcard rules, a Clos leaf with 1-bounce rules, a ring
# switch with two classes), every in-port, out-port and tag (the rules'
# tags, the lossy tag and an unknown one), IPv4, IPv6, 802.1Q, QinQ and a
# first fragment, broadcast and IP multicast: the same DSCP and ECN leave,
# with a valid IPv4 checksum, from the same queue (tests/shell/
# flower_vm_guest.sh); behind QinQ, flower leaves packets lossy with their
# DSCP. The wildcard switch a second time with the filters installed by
# `tagger switch export --apply` (netlink, no tc): tc shows the same
# filters, the requests are tc's byte for byte, every case agrees again.
# Then a table swap (--update) under a steady flow: every packet
# carries the old or the new table's tag. Skips (249) when the VM is not
# set up.
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd jq
kdir=$(vm_kernel_dir) || skip "$kdir"
[ -x "$TOP/build/tagger" ] || skip "build/tagger not built"
F=tests/bpf/fixtures
export UPDATE_RULES=tests/shell/fixtures/flower_update.rules.json
export APPLY_SWITCH=S
out=$(bash "$TOP/vmlab/vm.sh" run --timeout 900 \
	--keep-env UPDATE_RULES --keep-env APPLY_SWITCH -- \
	bash "$TOP/tests/shell/flower_vm_guest.sh" "$TOP" "$kdir" \
	"$F/wildcards.rules.json:S" "$F/clos_bounce.rules.json:L2" \
	"$F/ring_2classes.rules.json:sw2" 2>&1)
rc=$?
echo "$out" | sed 's/^/    /' | cut -c1-240
[ $rc -eq 0 ] || fail "VM run failed (exit $rc)"
for sw in S L2 sw2; do
	for dp in bpf flower; do
		check "$sw: every case arrived on $dp" \
			grep -qx "$sw $dp: sent [0-9]* cases, 0 arrived nowhere" <<<"$out"
	done
	check "$sw: flower and BPF agree on every case" grep -qx "SAME $sw" <<<"$out"
done
# S again, installed over netlink by --apply instead of tc -b.
check "S: --apply installs what tc -b does (tc -j filter show)" \
	grep -qx "FILTERS SAME S" <<<"$out"
if grep -q "^REQUESTS UNCHECKED" <<<"$out"; then
	echo "note: no strace in the VM: the netlink requests were not compared"
else
	check "S: --apply sends tc's netlink requests byte for byte" \
		grep -qx "REQUESTS SAME S [1-9][0-9]*" <<<"$out"
fi
check "S: every case arrived with --apply's filters" \
	grep -qx "S netlink: sent [0-9]* cases, 0 arrived nowhere" <<<"$out"
check "S: --apply's filters and BPF agree on every case" \
	grep -qx "SAME NETLINK S" <<<"$out"
# The update under a flow: tag 10 from a to b left as 30 (tos 121 with
# ECN 01) before and 20 (tos 81) after; nothing else, nothing lost.
flow=$(sed -n 's/^flow //p' <<<"$out")
check "the update was applied during the flow" grep -qx "update applied" <<<"$out"
check "every packet of the flow arrived" \
	test "$(jq '[.tos[]] | add' <<<"$flow")" = "$(jq .sent <<<"$flow")"
check "each with the old table's tag or the new one's, both seen" \
	test "$(jq -c '.tos | keys' <<<"$flow")" = '["121","81"]'
check "the old generation's chains are gone" grep -qx "chains left 0" <<<"$out"
check "  and the new one's are there" grep -qx "chains new [1-9][0-9]*" <<<"$out"
echo PASS
