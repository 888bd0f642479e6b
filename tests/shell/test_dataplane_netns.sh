#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A switch's record names the network namespace it was attached in (its
# interfaces, tc filters and sysctl are that namespace's): show, update,
# detach and host detach run elsewhere are refused with exit 2 and a
# message, and touch nothing. Two namespaces with the same interface
# names, in tcx and in tc (cls_bpf) mode.
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd nsenter
source "$TOP/tests/shell/dp_lab.sh"

dp_bpffs_up
dp_dummies s1 l r hp
dp_dummies s2 l r hp
F=$FIX/dp_line.rules.json

refused() {
	local out rc
	out=$(tgr s2 "$@" 2>&1)
	rc=$?
	[ $rc -eq 2 ] || fail "$mode: in s2: tagger $*: exit $rc, not 2 ($out)"
	echo "$out" | grep -q "was attached in another network namespace (net:\[[0-9]*\]); run this command there" ||
		fail "$mode: tagger $*: no clear message: $out"
	echo "ok: $mode: in s2: tagger $*: $out"
}

filters() { nsx "$1" tc filter show dev hp ingress | grep -c "handle 0x7467"; }

for mode in tcx tc; do
	tgr s1 switch attach S1 "$F" --mode "$mode" >/dev/null || fail "$mode: attach S1 in s1"
	tgr s2 switch attach S3 "$F" --mode "$mode" >/dev/null || fail "$mode: attach S3 in s2"
	tgr s1 host attach h1 l "$F" --mode "$mode" >/dev/null || fail "$mode: host attach in s1"
	pins=$(find "$TAGGER_BPF_ROOT" | sort)
	refused switch detach S1
	refused switch show S1
	refused switch update S1 "$F"
	refused host detach h1 l
	[ "$(find "$TAGGER_BPF_ROOT" | sort)" = "$pins" ] || fail "$mode: pins changed"
	tgr s1 switch show S1 >/dev/null || fail "$mode: S1 gone in s1"
	tgr s2 switch show S3 >/dev/null || fail "$mode: S3 gone in s2"
	if [ "$mode" = tc ]; then
		[ "$(filters s1)" = 1 ] && [ "$(filters s2)" = 1 ] ||
			fail "tc: filters on hp: s1 $(filters s1), s2 $(filters s2), not 1 each"
	fi
	tgr s1 host detach h1 l >/dev/null || fail "$mode: host detach in s1"
	tgr s1 switch detach S1 >/dev/null || fail "$mode: detach S1 in s1"
	tgr s2 switch detach S3 >/dev/null || fail "$mode: detach S3 in s2"
	if [ "$mode" = tc ]; then
		[ "$(filters s1)" = 0 ] && [ "$(filters s2)" = 0 ] || fail "tc: filters left"
	fi
	[ -z "$(ls "$TAGGER_BPF_ROOT")" ] || fail "$mode: pins left: $(ls "$TAGGER_BPF_ROOT")"
	echo "ok: $mode: each namespace detached its own"
done
echo "PASS"
