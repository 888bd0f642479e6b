#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every name that becomes a path under the bpffs root is checked: a switch
# or host NAME of "." or "..", an IFNAME of ".", "..", with a '/', empty
# or longer than 15 characters (the kernel's dev_valid_name) is refused
# with exit 2 and a message, and touches nothing: switch S2 stays attached.
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd nsenter
source "$TOP/tests/shell/dp_lab.sh"

dp_bpffs_up
dp_dummies S2 l r hp
F=$FIX/dp_line.rules.json
tgr S2 switch attach S2 "$F" >/dev/null || fail "attach S2"
before=$(find "$TAGGER_BPF_ROOT" | sort)

refused() {
	local out rc
	out=$(tgr S2 "$@" 2>&1)
	rc=$?
	[ $rc -eq 2 ] || fail "tagger $*: exit $rc, not 2 ($out)"
	[ -n "$out" ] || fail "tagger $*: refused without a message"
	[ "$(find "$TAGGER_BPF_ROOT" | sort)" = "$before" ] || fail "tagger $*: pins changed"
	tgr S2 switch show S2 >/dev/null || fail "tagger $*: S2 no longer attached"
	echo "ok: tagger $*: exit 2: $(echo "$out" | head -1)"
}

refused switch detach ..
refused switch detach .
refused switch show ..
refused switch update .. "$F"
refused host detach S2 .
refused host detach S2 ..
refused host detach S2 ../S2
refused host detach S2 "a/b"
refused host detach S2 ""
refused host detach S2 0123456789abcdef
refused host attach S2 . "$F"
refused host attach h1 ../S2 "$F"
refused switch attach S1 "$F" hp=.. r=l
tgr S2 switch detach S2 >/dev/null || fail "detach S2"
[ ! -e "$TAGGER_BPF_ROOT/S2" ] || fail "S2 pins left behind"
echo "PASS"
