#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The lock files /run/tagger/net-INODE.lock (dp_netlock.h) do not pile up:
# a data-plane command removes those of network namespaces that are gone,
# and keeps those of live ones: held by a /run/netns mount, by a process
# only, or its own. N namespaces each get a command, N-1 are deleted, one
# more command runs: their files are gone, the live ones stay. The
# concurrency of the sweep with lockers is the dp_netlock Check suite's.
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd nsenter
require_cmd unshare
source "$TOP/tests/shell/dp_lab.sh"
N=6
D=/run/tagger

dp_bpffs_up
ino() { stat -L -c %i "$1"; }
# A command that takes the namespace's lock (and finds nothing attached).
lock_cmd() { "$@" "$TAGGER" switch detach nosuch >/dev/null 2>&1; [ $? -eq 2 ]; }
# Is inode $1 some live namespace's (another run may have got a reused one)?
reused() { local f; for f in /run/netns/*; do [ "$(ino "$f")" = "$1" ] && return 0; done; return 1; }

ns_new last
for i in $(seq $N); do
	ns_new "a$i"
	check "a command in a$i" lock_cmd nsx "a$i"
	inos[i]=$(ino "/run/netns/$(ns_name "a$i")")
	check "a$i has its lock file" [ -f "$D/net-${inos[i]}.lock" ]
done
# A namespace that only a process holds (no /run/netns mount).
unshare --net sleep 600 &
holder=$!
bg_track "$holder"
for _ in $(seq 100); do
	[ "$(ino /proc/$holder/ns/net)" != "$(ino /proc/self/ns/net)" ] && break
	sleep 0.02
done
pino=$(ino "/proc/$holder/ns/net")
check "a command in the process's namespace" lock_cmd nsenter -t "$holder" -n
check "it has its lock file" [ -f "$D/net-$pino.lock" ]

for i in $(seq 2 $N); do ip netns del "$(ns_name "a$i")"; done
before=$(find $D -maxdepth 1 -name 'net-*.lock' | wc -l)
check "one more command" lock_cmd nsx last
after=$(find $D -maxdepth 1 -name 'net-*.lock' | wc -l)
echo "lock files in $D: $before before the command, $after after"
for i in $(seq 2 $N); do
	if [ -e "$D/net-${inos[i]}.lock" ] && ! reused "${inos[i]}"; then
		fail "a$i is gone but its lock file net-${inos[i]}.lock stays"
	fi
done
echo "ok: the lock files of the $((N - 1)) deleted namespaces are gone"
check "a1 (mounted at /run/netns) keeps its lock file" [ -f "$D/net-${inos[1]}.lock" ]
check "the process's namespace keeps its lock file" [ -f "$D/net-$pino.lock" ]
check "the command's own lock file stays" [ -f "$D/net-$(ino "/run/netns/$(ns_name last)").lock" ]

kill "$holder"
wait "$holder" 2>/dev/null
check "a command after the process exited" lock_cmd nsx last
if [ -e "$D/net-$pino.lock" ] && ! reused "$pino"; then
	fail "the process's namespace is gone but its lock file stays"
fi
echo "ok: the process's namespace is gone, and so is its lock file"
echo "PASS"
