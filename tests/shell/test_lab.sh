#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# vmlab basics: two labs at once, traffic over the Clos, a failure rerouted
# without loss and restored, down after a crash, idempotent down, errors.
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd jq
VMLAB=$TOP/vmlab/vmlab
S=$TOP/vmlab/scenarios
A=${TGR_PREFIX}a B=${TGR_PREFIX}b C=${TGR_PREFIX}c G=${TGR_PREFIX}g
tgr_on_exit '$VMLAB -n $A down; $VMLAB -n $B down; $VMLAB -n $C down; $VMLAB -n $G down'

own_ns() { ip netns list | awk '{ print $1 }' | grep -c "^$1-" ; }

check "lab A up" $VMLAB -n "$A" up "$S/clos.topo" --paths "$S/clos-flows.elp"
check "lab B up beside it" $VMLAB -n "$B" up "$S/ring.topo" --shortest
check "A has 14 namespaces" [ "$(own_ns "$A")" -eq 14 ]
check "B has 6 namespaces" [ "$(own_ns "$B")" -eq 6 ]
if $VMLAB -n "$A" up "$S/clos.topo" 2>/dev/null; then fail "second up of A succeeded"; fi
echo "ok: a second up of the same lab is refused"

# Flow 1 of scenario 1 (h3 -> h1) across the pods, then L2-T1 fails.
$VMLAB -n "$A" exec h1 "$TAGGER" flow recv --seconds 4 -o "$TGR_TMP/rx.json" &
rx=$!
sleep 0.3
$VMLAB -n "$A" exec h3 "$TAGGER" flow send 10.0.0.0 --rate 20 --seconds 3 -o "$TGR_TMP/tx.json" &
tx=$!
sleep 1.5
check "fail L2:T1" $VMLAB -n "$A" fail L2:T1
check "L2 reroutes h1 up to S1" bash -c "$VMLAB -n $A exec L2 ip route get 10.0.0.0 | grep -q 'dev S1'"
check "S1 routes h1 down to L1" bash -c "$VMLAB -n $A exec S1 ip route get 10.0.0.0 | grep -q 'dev L1'"
wait $tx $rx
sent=$(jq .sent_pkts "$TGR_TMP/tx.json")
got=$(jq -s 'map(select(.final)) | .[0].rx' "$TGR_TMP/rx.json")
lost=$(jq -s 'map(select(.final)) | .[0].lost' "$TGR_TMP/rx.json")
echo "sent $sent, received $got, lost $lost"
check "every datagram arrived across the reroute" [ "$sent" -gt 1000 ] && [ "$got" -eq "$sent" ] && [ "$lost" -eq 0 ]
check "samples every 100 ms" [ "$(jq -s 'map(select(.final | not)) | length' "$TGR_TMP/rx.json")" -ge 35 ]
check "restore L2:T1" $VMLAB -n "$A" restore L2:T1
check "L2 routes h1 down to T1 again" bash -c "$VMLAB -n $A exec L2 ip route get 10.0.0.0 | grep -q 'dev T1'"
check "S1 has no route to h1 any more" bash -c "! $VMLAB -n $A exec S1 ip route show 10.0.0.0 | grep -q ."
if $VMLAB -n "$A" fail nosuch:port 2>/dev/null; then fail "fail of an unknown port succeeded"; fi
echo "ok: an unknown port is an error"

check "A down" $VMLAB -n "$A" down
check "A left no namespace" [ "$(own_ns "$A")" -eq 0 ]
check "B still up" [ "$(own_ns "$B")" -eq 6 ]
check "a second down is fine" $VMLAB -n "$A" down
check "B down" $VMLAB -n "$B" down

# A crash in the middle of up: down still finds everything it made.
setsid $VMLAB -n "$C" up "$S/clos.topo" --shortest >/dev/null 2>&1 &
up=$!
for _ in $(seq 100); do [ "$(own_ns "$C")" -ge 5 ] && break; sleep 0.05; done
kill -KILL -- -"$up" 2>/dev/null
wait $up 2>/dev/null
echo "killed up with $(own_ns "$C") namespaces made"
check "down after the crash" $VMLAB -n "$C" down
check "the crash left no namespace" [ "$(own_ns "$C")" -eq 0 ]

# FRR/BGP mode: the protocol converges, and when L2 loses T1 it routes h1's
# subnet up through the spines (a bounce the protocol itself makes).
if [ -x /usr/lib/frr/bgpd ]; then
	check "BGP lab up" $VMLAB -n "$G" up "$S/clos.topo" --bgp
	check "L2 routes h1 down to T1" bash -c "$VMLAB -n $G exec L2 ip route show 10.0.0.0/31 | grep -q 'dev T1'"
	check "fail L2:T1" $VMLAB -n "$G" fail L2:T1
	for _ in $(seq 50); do
		$VMLAB -n "$G" exec L2 ip route show 10.0.0.0/31 | grep -q 'dev S1' && break
		sleep 0.2
	done
	check "BGP gives L2 a route up through S1" bash -c "$VMLAB -n $G exec L2 ip route show 10.0.0.0/31 | grep -q 'dev S1'"
	check "BGP lab down" $VMLAB -n "$G" down
	check "no bgpd of the lab left" bash -c "! pgrep -f '[/]run/tagger-lab/$G/' >/dev/null"
else
	echo "no FRR: BGP mode not tested"
fi
