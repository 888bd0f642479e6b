#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The bpffs root is trusted only when no other user can change it: a
# fresh bpffs is mode 1777, so an unprivileged user could make the tagger
# directory first and then rename pins away or hold the lock forever.
# tagger refuses a root not owned by root, open to group or others, or a
# symlink; creates it 0700 itself; and gives up on a held lock after
# TAGGER_LOCK_TIMEOUT seconds (default 10) with a message.
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd nsenter
require_cmd setpriv
require_cmd flock
source "$TOP/tests/shell/dp_lab.sh"

dp_bpffs_up
chmod 755 "$TGR_TMP"	# nobody reaches the bpffs, as on /sys/fs/bpf
dp_dummies S2 l r hp
F=$FIX/dp_line.rules.json
R=$TAGGER_BPF_ROOT
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }

refused() {
	local what=$1 out rc
	out=$(tgr S2 switch attach S2 "$F" 2>&1)
	rc=$?
	[ $rc -eq 2 ] || fail "$what: attach exit $rc, not 2 ($out)"
	echo "$out" | grep -q "$R" || fail "$what: no clear message: $out"
	[ ! -e "$R/S2" ] || fail "$what: attach went ahead"
	echo "ok: $what: refused: $(echo "$out" | head -1)"
}

nobody mkdir "$R" || fail "nobody cannot mkdir in the bpffs (mode $(stat -c %a "$DP_BPFFS"))"
refused "a root made by another user"
rmdir "$R"
mkdir -m 0770 "$R"
refused "a group-writable root"
rmdir "$R"
mkdir "$TGR_TMP/elsewhere"
ln -s "$TGR_TMP/elsewhere" "$R"
refused "a symlinked root"
rm "$R"

tgr S2 switch attach S2 "$F" >/dev/null || fail "attach"
[ "$(stat -c '%u %a' "$R")" = "0 700" ] || fail "root made as $(stat -c '%u %a' "$R")"
nobody mkdir "$R/x" 2>/dev/null && fail "nobody can write in the root"
echo "ok: tagger makes its root root-owned 0700"

# A holder that never lets go: this shell, on fd 9.
exec 9<"$R"
flock 9 || fail "flock"
start=$(date +%s)
out=$(TAGGER_LOCK_TIMEOUT=1 tgr S2 switch update S2 "$F" --force 2>&1)
rc=$?
secs=$(( $(date +%s) - start ))
exec 9<&-
[ $rc -eq 3 ] || fail "update under a held lock: exit $rc, not 3 (a runtime failure) ($out)"
echo "$out" | grep -q "another tagger holds the lock on $R" || fail "lock message: $out"
[ $secs -le 4 ] || fail "gave up after $secs s, not ~1"
echo "ok: a held lock: $out (after ${secs}s)"
tgr S2 switch update S2 "$F" --force >/dev/null || fail "update after the lock is free"
tgr S2 switch detach S2 >/dev/null || fail "detach"
echo "PASS"
