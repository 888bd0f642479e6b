#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Shared by the pause tests and bench: a line of namespaces
#   h1 -- sw1 -- sw2 -- h2
# routed over /24s, pause agents on every node, and helpers.
# Source after tests/lib.sh.

PFC_DIR=$TGR_TMP/pfc
export TAGGER_PFC_DIR=$PFC_DIR
TRAFFIC=$TOP/tests/shell/pfc_traffic.py

# link A B NET: veth between namespaces A and B, A gets NET.1, B NET.2.
# Interfaces are named <node>-<peer> inside each namespace.
pfc_link() {
	local a=$1 b=$2 net=$3
	ip link add "$a-$b" netns "$(ns_name "$a")" type veth peer \
		name "$b-$a" netns "$(ns_name "$b")" || fail "veth $a-$b"
	ns_exec "$a" ip addr add "$net.1/24" dev "$a-$b"
	ns_exec "$b" ip addr add "$net.2/24" dev "$b-$a"
	ns_exec "$a" ip link set "$a-$b" up
	ns_exec "$b" ip link set "$b-$a" up
}

pfc_line() {
	local n
	for n in h1 sw1 sw2 h2; do ns_new "$n"; done
	pfc_link h1 sw1 10.61.1
	pfc_link sw1 sw2 10.61.2
	pfc_link sw2 h2 10.61.3
	for n in sw1 sw2; do ns_exec "$n" sysctl -qw net.ipv4.ip_forward=1; done
	ns_exec h1 ip route add default via 10.61.1.2
	ns_exec sw1 ip route add 10.61.3.0/24 via 10.61.2.2
	ns_exec sw2 ip route add 10.61.1.0/24 via 10.61.2.1
	ns_exec h2 ip route add default via 10.61.3.1
	# Resolve every neighbour before the measured traffic (packets waiting
	# for ARP are not what the tests are about).
	ns_exec h1 python3 "$TRAFFIC" send 10.61.3.2 9 0 1 0.3 >/dev/null &&
		ns_exec h2 python3 "$TRAFFIC" send 10.61.1.2 9 0 1 0.3 >/dev/null ||
		fail "line does not route"
}

# pfc_agent NODE ARGS...: start the agent in the background, wait until it
# publishes its state.
pfc_agent() {
	local n=$1; shift
	rm -f "$PFC_DIR/$n/pid"	# a crashed agent's, in the restart tests
	ns_exec "$n" setsid "$TAGGER" -v pfc agent "$n" "$@" \
		>"$TGR_TMP/agent-$n.log" 2>&1 &
	bg_track $!
	for _ in $(seq 100); do
		[ -s "$PFC_DIR/$n/pid" ] && return 0
		sleep 0.1
	done
	cat "$TGR_TMP/agent-$n.log" >&2
	fail "agent $n did not start"
}

pfc_show() { ns_exec "$1" "$TAGGER" -j pfc show "$1"; }

# jq-free JSON access: pfc_json NODE EXPR (python expression over `d`).
pfc_json() {
	pfc_show "$1" | python3 -c "import json,sys; d=json.load(sys.stdin); print($2)"
}

# pfc_chain N: h1 -- s1 -- ... -- sN -- h2 (links 10.62.K.0/24, K = 1..N+1),
# every switch routed to both hosts. Ports: on sK, "up" faces h1, "dn" h2.
pfc_chain() {
	local n=$1 k prev=h1 cur
	ns_new h1
	ns_new h2
	for k in $(seq "$n"); do ns_new "s$k"; done
	for k in $(seq $((n + 1))); do
		cur=$([ "$k" -le "$n" ] && echo "s$k" || echo h2)
		pfc_link "$prev" "$cur" "10.62.$k"
		prev=$cur
	done
	for k in $(seq "$n"); do
		ns_exec "s$k" sysctl -qw net.ipv4.ip_forward=1
		[ "$k" -gt 1 ] && ns_exec "s$k" ip route add 10.62.1.0/24 via "10.62.$k.1"
		[ "$k" -lt "$n" ] && ns_exec "s$k" ip route add "10.62.$((n + 1)).0/24" \
			via "10.62.$((k + 1)).2"
	done
	ns_exec h1 ip route add default via 10.62.1.2
	ns_exec h2 ip route add default via "10.62.$((n + 1)).1"
	ns_exec h1 python3 "$TRAFFIC" send "10.62.$((n + 1)).2" 9 0 1 0.3 >/dev/null &&
		ns_exec h2 python3 "$TRAFFIC" send 10.62.1.2 9 0 1 0.3 >/dev/null ||
		fail "chain does not route"
}

# The interface of node A toward node B in a chain.
pfc_if() { echo "$1-$2"; }

# pfc_flow SECONDS MBIT: the lossless flow h1 -> h2 (priority 3) of the line,
# received; pfc_sent and pfc_got read what was sent and received.
pfc_flow() {
	ns_exec h2 python3 "$TRAFFIC" recv 5001 $(($1 + 1)) >"$TGR_TMP/recv.json" \
		2>"$TGR_TMP/recv.err" &
	local rpid=$!
	for _ in $(seq 50); do grep -q ready "$TGR_TMP/recv.err" && break; sleep 0.1; done
	ns_exec h1 python3 "$TRAFFIC" send 10.61.3.2 5001 24 "$2" "$1" >"$TGR_TMP/send.json"
	wait $rpid
}
pfc_sent() { python3 -c "import json; print(json.load(open('$TGR_TMP/send.json'))['sent'])"; }
pfc_got() { python3 -c "import json; print(json.load(open('$TGR_TMP/recv.json'))['5001']['received'])"; }
