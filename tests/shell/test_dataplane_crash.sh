#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Crash consistency of the loader (dp_state.h): update, attach and detach
# killed at random times and at every state-changing syscall (strace fault
# injection). After each kill, "switch show" must name the rules that are
# live (checked with packets: rule sets A and B differ in the tag S2 gives
# on S2 -> S3, seen at S3), and the next command must succeed.
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd python3
require_cmd nsenter
require_cmd strace
source "$TOP/tests/shell/dp_lab.sh"

dp_lab_ab
for n in S1 S2 S3; do tgr "$n" switch attach "$n" "$A" >/dev/null || fail "attach $n"; done
start=$(date +%s)

# 1. Updates killed after a random 0-150 ms; the next update must work.
# B is read compiled (switch pack), A as JSON: both inputs get killed.
"$TAGGER" switch pack "$B" -o "$TGR_TMP/b.trb" || fail "pack B"
files=("$A" "$TGR_TMP/b.trb")
for i in $(seq 30); do
	f=${files[$((i % 2))]}
	# nsenter execs tagger: $! is the loader itself.
	nsenter --net="/run/netns/$(ns_name S2)" "$TAGGER" switch update S2 "$f" >/dev/null 2>&1 &
	pid=$!
	sleep "0.$(printf '%03d' $((RANDOM % 150)))"
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	dp_consistent "update killed ($i)"
	tgr S2 switch update S2 "$f" >/dev/null 2>&1 || fail "update after kill $i"
done
echo "ok: 30 updates killed at random: show names the live rules, the next update works ($(( $(date +%s) - start )) s)"

# 2. An update killed at each of its bpf, rename and unlink calls.
sweep() {	# sweep SYSCALL N: kill at the Nth call (strace counts per call)
	local f=${files[$(( $2 % 2))]}
	nsx S2 strace -f -o /dev/null -e trace="$1" -e inject="$1:signal=KILL:when=$2" \
		"$TAGGER" switch update S2 "$f" >/dev/null 2>&1
}
count() {
	nsx S2 strace -f -c -o "$TGR_TMP/count" -e trace=bpf,rename,unlink \
		"$TAGGER" switch update S2 "$1" >/dev/null 2>&1
	awk -v s="$2" '$NF == s {print $4}' "$TGR_TMP/count"
}
kills=0
for sc in bpf rename unlink; do
	n=$(count "$A" $sc)
	for k in $(seq "${n:-0}"); do
		sweep $sc "$k"
		dp_consistent "update killed at $sc #$k"
		kills=$((kills + 1))
	done
	echo "ok: update killed at each of its $n $sc calls: consistent ($(( $(date +%s) - start )) s)"
done
tgr S2 switch update S2 "$A" >/dev/null || fail "update after the sweep"

# 3. Detach and attach of S1 killed at their bpf calls (every other one
# for detach, which searches the interfaces first; every STEP-th:
# attach loads programs, hundreds of calls): the next detach finishes or
# undoes the job, leaves no pins and restores the sysctl.
STEP=${STEP:-7}
undone() {
	tgr S1 switch detach S1 >/dev/null 2>&1
	[ ! -e "$TAGGER_BPF_ROOT/S1" ] || fail "$1: detach leaves pins"
	[ "$(nsx S1 sysctl -n net.ipv4.ip_forward_update_priority)" = 1 ] ||
		fail "$1: ip_forward_update_priority not restored"
	kills=$((kills + 1))
}
killed_at() {	# killed_at N CMD...: run tagger CMD killed at bpf call N
	local n=$1
	shift
	nsx S1 strace -f -o /dev/null -e trace=bpf -e inject="bpf:signal=KILL:when=$n" \
		"$TAGGER" "$@" >/dev/null 2>&1
}
for k in $(seq 1 2 1000); do
	killed_at "$k" switch detach S1 && break
	undone "detach killed at bpf #$k"
	tgr S1 switch attach S1 "$A" >/dev/null || fail "attach after detach killed at bpf #$k"
done
echo "ok: detach killed at its bpf calls 1, 3, ... $((k - 2)): the next detach completes it"
[ ! -e "$TAGGER_BPF_ROOT/S1" ] || fail "detach left pins"
for k in $(seq 1 "$STEP" 1000); do
	killed_at "$k" switch attach S1 "$A" && break
	undone "attach killed at bpf #$k"
done
echo "ok: attach killed at its bpf calls 1, $((1 + STEP)), ... $((k - STEP)): detach undoes it"
tgr S1 switch show S1 >/dev/null || fail "S1 not attached after the sweep"
dp_consistent "after the attach sweep"
echo "$((kills + 30)) kills, $dp_checks packet checks in $(( $(date +%s) - start )) s"
echo "PASS"
