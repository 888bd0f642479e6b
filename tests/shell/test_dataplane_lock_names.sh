#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The lock is per node name (dp_namelock.h): under one bpffs root, as in a
# lab where every node pins under the same TAGGER_BPF_ROOT, a command on
# S1 does not wait for one on S2, while two commands on the same name
# still exclude each other from any namespace. A holder killed lets go,
# a waiter whose lock directory is removed under it (its holder detached
# the node) takes the new one, and a name's lock goes with its node.
# The holders are this shell, on the lock directories tagger uses.
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd nsenter
require_cmd flock
source "$TOP/tests/shell/dp_lab.sh"

dp_bpffs_up
dp_dummies S1 hp r
dp_dummies S2 l r hp
F=$FIX/dp_line.rules.json
R=$TAGGER_BPF_ROOT
mkdir -m 0700 "$R"
L1=$R/lock@S1
# Before dp_cleanup unmounts the bpffs: a failure may leave them open.
tgr_on_exit "exec 6<&- 7<&- 8<&- 9<&-"

# What a tagger working on S1 holds, held by this shell: the root shared
# and S1's lock. S2 goes ahead, S1 (from its namespace or S2's) waits.
mkdir "$L1"
exec 9<"$L1"
flock 9 || fail "flock $L1"
exec 6<"$R"
flock -s 6 || fail "flock -s $R"
out=$(TAGGER_LOCK_TIMEOUT=2 tgr S2 switch attach S2 "$F" 2>&1) ||
	fail "S2 waited for the lock of S1: $out"
echo "ok: S2 attached while S1's lock is held"
for ns in S1 S2; do
	out=$(TAGGER_LOCK_TIMEOUT=0.5 tgr $ns switch detach S1 2>&1)
	rc=$?
	[ $rc -eq 3 ] || fail "detach S1 from $ns under S1's held lock: exit $rc, not 3 ($out)"
	echo "$out" | grep -q "another tagger holds the lock on $L1" || fail "message: $out"
	echo "ok: S1 from $ns's namespace waits: $out"
done

# The old lock, the root exclusively (an older tagger's), holds up every name.
exec 9<&- 6<&-
exec 8<"$R"
flock 8 || fail "flock $R"
out=$(TAGGER_LOCK_TIMEOUT=0.5 tgr S2 switch update S2 "$F" --force 2>&1)
rc=$?
[ $rc -eq 3 ] || fail "update S2 under a held root: exit $rc, not 3 ($out)"
echo "ok: a root held exclusively still excludes: $out"
exec 8<&-

# A holder killed: the kernel lets go.
# shellcheck disable=SC2016 # the inner shell expands it
bash -c 'exec 6<"$1"; flock 6; exec sleep 600' _ "$L1" >/dev/null 2>&1 &
holder=$!
for _ in $(seq 100); do grep -q " FLOCK .* $(stat -c %i "$L1") " /proc/locks 2>/dev/null && break; sleep 0.05; done
kill -9 $holder; wait $holder 2>/dev/null
out=$(TAGGER_LOCK_TIMEOUT=2 tgr S1 switch attach S1 "$F" 2>&1) || fail "attach S1 after its holder was killed: $out"
echo "ok: a killed holder's lock is free again"
[ -d "$L1" ] || fail "S1 is attached but its lock directory is gone"

# Removed under a waiter: the waiter must take the new directory, which
# this shell holds before letting go of the old one.
exec 9<"$L1"
flock 9 || fail "flock $L1"
# Not inheriting fd 9: the waiter would hold the old lock itself.
TAGGER_LOCK_TIMEOUT=60 tgr S1 switch detach S1 > "$TGR_TMP/detach.out" 2>&1 9<&- &
waiter=$!
# Until the waiter has the old directory open (it waits on it).
waiting() {
	local p f
	for p in $(pgrep -f "$TAGGER switch detach S1"); do
		for f in /proc/"$p"/fd/*; do
			[ "$(readlink "$f" 2>/dev/null)" = "$L1" ] && return 0
		done
	done
	return 1
}
for _ in $(seq 200); do waiting && break; sleep 0.05; done
rmdir "$L1" || fail "rmdir $L1"
mkdir "$L1"
exec 7<"$L1"
flock 7 || fail "flock the new $L1"
exec 9<&-
sleep 1
kill -0 $waiter 2>/dev/null || fail "the waiter went ahead on a lock directory removed under it: $(cat "$TGR_TMP/detach.out")"
[ -e "$R/S1" ] || fail "S1 was detached while the new lock is held"
exec 7<&-
wait $waiter || fail "detach S1: $(cat "$TGR_TMP/detach.out")"
echo "ok: a waiter whose lock was removed took the new one"

# The lock of a name goes with its node; one never attached leaves none.
[ ! -e "$L1" ] || fail "S1 detached, $L1 left"
out=$(tgr S1 switch detach S9 2>&1) && fail "detach of S9 that is not attached: $out"
[ ! -e "$R/lock@S9" ] || fail "a refused detach of S9 left its lock"
tgr S2 switch detach S2 >/dev/null || fail "detach S2"
[ -z "$(ls -A "$R")" ] || fail "left in the root: $(ls -A "$R")"
echo "ok: no lock left once nothing is attached"

# Both names at once, many times: every command succeeds.
for i in 1 2 3; do
	tgr S1 switch attach S1 "$F" > "$TGR_TMP/a1" 2>&1 & p1=$!
	tgr S2 switch attach S2 "$F" > "$TGR_TMP/a2" 2>&1 & p2=$!
	wait $p1 || fail "round $i: attach S1: $(cat "$TGR_TMP/a1")"
	wait $p2 || fail "round $i: attach S2: $(cat "$TGR_TMP/a2")"
	tgr S1 switch detach S1 > "$TGR_TMP/a1" 2>&1 & p1=$!
	tgr S2 switch detach S2 > "$TGR_TMP/a2" 2>&1 & p2=$!
	wait $p1 || fail "round $i: detach S1: $(cat "$TGR_TMP/a1")"
	wait $p2 || fail "round $i: detach S2: $(cat "$TGR_TMP/a2")"
done
[ -z "$(ls -A "$R")" ] || fail "left in the root: $(ls -A "$R")"
echo "ok: S1 and S2 attached and detached side by side, 3 rounds"
echo PASS
