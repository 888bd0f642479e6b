#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# vmlab up/down of one lab name exclude each other: two ups started at the
# same instant, several times: one brings the lab up, the other is refused
# and leaves the winner's lab intact; down then removes everything. Lab
# names "." and ".." are refused (they would make the state dir /run).
source "$(dirname "$0")/../lib.sh"
require_root
VMLAB=$TOP/vmlab/vmlab
S=$TOP/vmlab/scenarios
L=${TGR_PREFIX}k
tgr_on_exit '$VMLAB -n $L down'

own_ns() { ip netns list | awk '{ print $1 }' | grep -c "^$1-"; }

for name in . .. a/b; do
	if $VMLAB -n "$name" up "$S/ring.topo" --shortest 2>"$TGR_TMP/err"; then
		fail "lab name \"$name\" accepted"
	fi
	grep -q 'bad lab name' "$TGR_TMP/err" || fail "lab name \"$name\": $(cat "$TGR_TMP/err")"
	echo "ok: lab name \"$name\" refused"
done
check "/run is untouched" [ -d /run ] && [ ! -e /run/netns/..-A ]

for round in 1 2 3 4 5; do
	fifo=$TGR_TMP/go.$round
	mkfifo "$fifo"
	# Both block opening the fifo until it is opened for writing: they
	# are released at the same instant.
	for i in 1 2; do
		( : < "$fifo"; exec "$VMLAB" -n "$L" up "$S/ring.topo" --shortest ) \
			> "$TGR_TMP/up$i.log" 2>&1 &
		pids[i]=$!
	done
	sleep 0.2
	: > "$fifo"
	wait "${pids[1]}"; rc1=$?
	wait "${pids[2]}"; rc2=$?
	echo "round $round: exit $rc1 and $rc2; $(cat "$TGR_TMP/up1.log" "$TGR_TMP/up2.log" | tr '\n' ' ')"
	[ $((rc1 == 0)) -ne $((rc2 == 0)) ] || fail "round $round: not exactly one up succeeded"
	loser=1; [ $rc1 -eq 0 ] && loser=2
	grep -Eq 'being brought up or down by another vmlab|is up' "$TGR_TMP/up$loser.log" ||
		fail "round $round: the refused up did not say why"
	check "round $round: the winner's lab is whole (6 namespaces)" [ "$(own_ns "$L")" -eq 6 ]
	check "round $round: its links are there" $VMLAB -n "$L" exec A ip link show B
	check "round $round: down" $VMLAB -n "$L" down
	check "round $round: nothing left" [ "$(own_ns "$L")" -eq 0 ] && [ ! -e "/run/tagger-lab/$L" ]
	check "round $round: the lock file went with the lab" [ ! -e "/run/tagger-lab/$L.lock" ]
done

# Downs remove the lock file while others wait on it: an up and two downs
# at once, several times, never leave half a lab (the lab is whole or
# gone), and a last down leaves nothing, lock file included.
for round in 1 2 3; do
	$VMLAB -n "$L" up "$S/ring.topo" --shortest > "$TGR_TMP/up.log" 2>&1 ||
		fail "round $round: up: $(cat "$TGR_TMP/up.log")"
	fifo=$TGR_TMP/race.$round
	mkfifo "$fifo"
	for cmd in down "up $S/ring.topo --shortest" down; do
		# shellcheck disable=SC2086 # cmd's words are the arguments
		( : < "$fifo"; exec "$VMLAB" -n "$L" $cmd ) >> "$TGR_TMP/race.log" 2>&1 &
		race+=($!)
	done
	sleep 0.2
	: > "$fifo"
	wait "${race[@]}"
	race=()
	n=$(own_ns "$L")
	check "round $round: whole or gone ($n namespaces)" [ "$n" -eq 6 -o "$n" -eq 0 ]
	check "round $round: a lab up has its state" [ "$n" -eq 0 -o -s "/run/tagger-lab/$L/netns" ]
	check "round $round: down" $VMLAB -n "$L" down
	check "round $round: no lock file left" [ ! -e "/run/tagger-lab/$L.lock" ]
done

# A down waits for the up that holds the lock, then takes the lab down.
$VMLAB -n "$L" up "$S/ring.topo" --shortest > "$TGR_TMP/up.log" 2>&1 &
up=$!
for i in $(seq 100); do [ -d "/run/tagger-lab/$L" ] && break; sleep 0.02; done
check "down during an up" $VMLAB -n "$L" down
wait $up
check "nothing left after up + concurrent down" [ "$(own_ns "$L")" -eq 0 ]
