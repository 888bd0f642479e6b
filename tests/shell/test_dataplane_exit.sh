#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Exit codes of the data plane's commands: bad input is exit 2 and touches
# nothing (a host's selector is checked before anything is pinned); what
# fails after the input was checked (here: a state pin that is no record)
# is a runtime failure, exit 3, and the switch recovers from the kernel's
# copy of its record.
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd nsenter
source "$TOP/tests/shell/dp_lab.sh"

dp_bpffs_up
dp_dummies S2 l r hp
F=$FIX/dp_line.rules.json
D=$TAGGER_BPF_ROOT/S2
tgr S2 switch attach S2 "$F" >/dev/null || fail "attach S2"

exits() {	# exits CODE WHAT ARGS...: tagger ARGS exits CODE with a message
	local want=$1 what=$2 out rc
	shift 2
	out=$(tgr S2 "$@" 2>&1)
	rc=$?
	[ $rc -eq "$want" ] || fail "$what: exit $rc, not $want ($out)"
	[ -n "$out" ] || fail "$what: exit $rc without a message"
	echo "ok: $what: exit $rc: $(echo "$out" | head -1)"
}

before=$(find "$TAGGER_BPF_ROOT" | sort)
exits 2 "host attach --class-dscp 64" host attach h1 l "$F" --class-dscp 64
exits 2 "host attach --udp-dport 1,2" host attach h1 l "$F" --udp-dport 1,2
exits 2 "host attach --udp-dport 0" host attach h1 l "$F" --udp-dport 0
[ "$(find "$TAGGER_BPF_ROOT" | sort)" = "$before" ] ||
	fail "a refused host attach left pins: $(find "$TAGGER_BPF_ROOT" | sort)"
echo "ok: refused host attaches left no pins"
exits 2 "show of a switch not attached" switch show S9
exits 2 "detach of a switch not attached" switch detach S9
exits 2 "update of a switch not attached" switch update S9 "$F"

# The record's pin replaced by a directory: show cannot read what runs.
rm -f "$D/state" || fail "rm $D/state"
mkdir "$D/state" || fail "mkdir $D/state"
exits 3 "show with an unreadable state" switch show S2
rmdir "$D/state"
tgr S2 switch detach S2 >/dev/null || fail "detach after the state pin was restored"
[ ! -e "$D" ] || fail "detach left $D: $(ls "$D")"
echo "ok: detach rebuilt the state from the kernel's copy and removed it all"
