#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `tagger switch attach --datapath dcb` where it must refuse, on this host
# (veths have no DCB operations): rules the DCB form cannot hold are
# refused, exit 1, each rule named, before anything changes; rules that
# fit, on ports without DCB, fail with the device named, exit 3; either
# way no state, no filter, no holder is left and a later attach works.
# (The data path against a DCB port: tests/shell/test_dcb_path.sh.)
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd jq
source "$TOP/tests/shell/dp_lab.sh"

dp_bpffs_up
dp_dummies S1 hp r
rules=$TGR_TMP/rules.json
dp_rules "$rules" >/dev/null
nothing_left() {
	local d
	test ! -e "$TAGGER_BPF_ROOT/S1" || return 1
	for d in ingress egress; do
		test -z "$(ip -n "$(ns_name S1)" -j filter show dev hp "$d" 2>/dev/null | tr -d '[]')" ||
			return 1
	done
}

# S1 of the line lab: does the DCB form hold its rules?
tgr S1 switch check S1 "$rules" --datapath dcb >"$TGR_TMP/check" 2>&1
fits=$?
out=$(tgr S1 switch attach S1 "$rules" --datapath dcb 2>&1)
rc=$?
echo "$out" | sed 's/^/    /'
if [ "$fits" = 0 ]; then
	check "rules that fit, ports without DCB: exit 3" test "$rc" = 3
	check "  naming the device" grep -q "does not support DCB" <<<"$out"
else
	check "rules DCB cannot hold: exit 1" test "$rc" = 1
fi
check "  nothing left" nothing_left

# A rule DCB cannot hold: two tags of one priority leave one port with
# different new tags (rewr is keyed by priority and out-port alone).
jq '.switches.S1.classify += [{"in": "*", "tag": 40, "priority": 3},
	{"in": "*", "tag": 41, "priority": 3}] |
    .switches.S1.rewrite += [{"tag": 40, "in": "*", "out": "*", "new_tag": 40},
	{"tag": 41, "in": "*", "out": "*", "new_tag": 41}] |
    .tags += [{"tag": 40, "priority": 3}, {"tag": 41, "priority": 3}]' \
	"$rules" >"$TGR_TMP/bad.json"
out=$(tgr S1 switch attach S1 "$TGR_TMP/bad.json" --datapath dcb 2>&1)
rc=$?
echo "$out" | sed 's/^/    /' | head -5
if tgr S1 switch check S1 "$TGR_TMP/bad.json" --datapath dcb >/dev/null 2>&1; then
	echo "note: the hand-made rule fits after all: refusal not exercised"
else
	check "a rule DCB cannot hold: exit 1" test "$rc" = 1
	check "  the switch and the rule named" grep -q "S1.*tag" <<<"$out"
	check "  nothing left" nothing_left
fi
check "a later eBPF attach works" tgr S1 switch attach S1 "$rules"
check "  detach" tgr S1 switch detach S1
echo PASS
