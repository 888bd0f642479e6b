#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A command that runs without the capabilities to see the programs
# (CAP_SYS_ADMIN for the ids of programs and maps) must fail as a runtime
# failure (exit 3) and say so, never read the refusal as "not attached":
# that once made update and detach remove a running switch's pins
# ("detached from another mount namespace") and exit 2.
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd nsenter
require_cmd setpriv
source "$TOP/tests/shell/dp_lab.sh"

dp_bpffs_up
dp_dummies S2 l r hp
F=$FIX/dp_line.rules.json
D=$TAGGER_BPF_ROOT/S2
tgr S2 switch attach S2 "$F" >/dev/null || fail "attach"
no_admin() {
	nsx S2 setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin \
		"$TAGGER" "$@"
}

for cmd in "update S2 $F --force" "detach S2"; do
	# shellcheck disable=SC2086 # the words of the command
	out=$(no_admin switch $cmd 2>&1)
	rc=$?
	[ $rc -eq 3 ] || fail "switch $cmd without CAP_SYS_ADMIN: exit $rc, not 3 ($out)"
	echo "$out" | grep -q "refused.*CAP_SYS_ADMIN" ||
		fail "switch $cmd without CAP_SYS_ADMIN: no clear message: $out"
	[ -e "$D/state" ] && [ -e "$D/anchor" ] ||
		fail "switch $cmd without CAP_SYS_ADMIN removed the pins: $(ls "$D" 2>&1)"
	echo "ok: switch $cmd without CAP_SYS_ADMIN: exit 3, pins kept: $out"
done

gen=$(tgr S2 -j switch show S2 | dp_json 'd["generation"]')
tgr S2 switch update S2 "$F" --force >/dev/null || fail "update with every capability"
gen2=$(tgr S2 -j switch show S2 | dp_json 'd["generation"]')
[ "$gen2" -gt "$gen" ] || fail "generation $gen -> $gen2 after an update"
echo "ok: the switch is intact: generation $gen -> $gen2 after an update"
tgr S2 switch detach S2 >/dev/null || fail "detach"
echo "ok: detached"
