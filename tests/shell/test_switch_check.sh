#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tagger switch check on a Clos leaf whose ports are veths in a namespace:
# bpf and flower run every rule (exit 0), in software on veths, with the
# entries their own writers count (the rules file's rules of the switch,
# switch export's filters); dcb refuses the leaf of 1-bounce rules (exit
# 1), naming the rule that changes priority and whether compiling
# differently helps, and runs the leaf of up-down rules (exit 0) with its
# off-ELP pairs counted (exit 1 with --strict); a missing interface is
# reported, none at all is exit 2, and so is every bad option; -j is one
# valid document. Nothing in the namespace changes.
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd jq
T=$TGR_TMP

"$TAGGER" topo clos -o "$T/clos.topo" >/dev/null || fail "topo clos"
"$TAGGER" paths bounce=1 "$T/clos.topo" -o "$T/bounce.elp" >/dev/null || fail "paths"
"$TAGGER" paths updown "$T/clos.topo" -o "$T/updown.elp" >/dev/null || fail "paths"
"$TAGGER" compile "$T/clos.topo" "$T/bounce.elp" -o "$T/bounce.json" >/dev/null 2>&1 || fail "compile"
"$TAGGER" compile "$T/clos.topo" "$T/updown.elp" -o "$T/updown.json" >/dev/null 2>&1 || fail "compile"

ns_new L1
for p in eth1 eth2 eth3 eth4; do
	ns_exec L1 ip link add "$p" type veth peer name "x$p" || fail "veth $p"
done
snapshot() {
	ns_exec L1 sh -c 'ip -d link show; tc qdisc show; for d in eth1 eth2 eth3 eth4; do
		tc filter show dev $d ingress; tc filter show dev $d egress; done' 2>&1
}
before=$(snapshot)

# run [ARGS]: tagger in L1's namespace; stdout in $T/out, stderr in $T/err
run() {
	ns_exec L1 "$TAGGER" "$@" >"$T/out" 2>"$T/err"
	echo $?
}
valid() { python3 -m json.tool "$T/out" >/dev/null && jq -e . "$T/out" >/dev/null; }
jqe() { jq -e "$@" >/dev/null; }

# bpf: the rules' entries of L1, plus the lossy entry
check "bpf on the bounce leaf: exit 0" \
	test "$(run -j switch check L1 "$T/bounce.json" --datapath bpf)" = 0
check "  -j is valid JSON" valid
rules=$(jq '.switches.L1 | (.classify | length) + (.rewrite | length)' "$T/bounce.json")
check "  table entries are L1's $rules rules and the lossy entry" \
	test "$(jq .entries "$T/out")" -eq $((rules + 1))
check "  the ports' shares add up to the rules" \
	test "$(jq '[.ports[].entries] | add' "$T/out")" -eq "$rules"
check "  every port found, in software, not switchdev" \
	jqe '[.ports[] | .found and .runs == "software" and .offloaded == false
		and .switchdev == false] | all' "$T/out"

# flower: switch export's filters, per port
check "flower on the bounce leaf: exit 0" \
	test "$(run -j switch check L1 "$T/bounce.json" --datapath flower)" = 0
check "  -j is valid JSON" valid
cp "$T/out" "$T/flower.json"
"$TAGGER" -j switch export L1 "$T/bounce.json" >"$T/export.json" || fail "export"
check "  each port's filters are switch export's (plus two entry filters)" \
	test "$(jq -c '[.ports[].entries]' "$T/flower.json")" = \
	"$(jq -c '[.ports[] | .ingress_filters + .egress_filters + 2]' "$T/export.json")"
check "  veths have no hw-tc-offload: software" \
	jqe '[.ports[] | .hw_tc_offload == false and .runs == "software"] | all' "$T/flower.json"

# dcb: the bounce leaf changes priority; the up-down leaf does not
check "dcb on the bounce leaf: exit 1" \
	test "$(run switch check L1 "$T/bounce.json" --datapath dcb)" = 1
check "  names the switch and the rule" \
	grep -q 'queue: switch L1: rewrite tag 1 in eth3 out eth4 -> tag 2: priority 1 here, but the next hop S2 (port eth1) classifies tag 2 into priority 2' "$T/out"
check "  says compiling as maps does not help, an up-down ELP does" \
	grep -q 'queue: compiling as maps does not help: .*tagger paths updown' "$T/out"
check "  with the maps form as evidence" \
	grep -q 'as maps (tagger maps) switch L1 needs [0-9]* traffic classes' "$T/out"
check "  and the verdict" grep -qx 'switch L1: NOT expressible on dcb' "$T/out"
check "  veths have no DCB: nothing would run" \
	grep -q 'the driver has no DCB operations' "$T/out"
run -j switch check L1 "$T/bounce.json" --datapath dcb >/dev/null
check "  -j is valid JSON" valid
check "  -j: 4 queue problems, with in, tag, out" \
	jqe '(.problems | length) == 4 and ([.problems[] | .kind == "queue"
		and .tag == 1 and (.in | test("eth[34]")) and (.out | test("eth[34]"))] | all)
		and .expressible == false and .remedies[0].kind == "queue"
		and .maps.refused == false' "$T/out"
check "dcb on a leaf of up-down rules: exit 0" \
	test "$(run switch check L1 "$T/updown.json" --datapath dcb)" = 0
check "  says every rule runs" grep -q '^switch L1: every rule runs on dcb' "$T/out"
check "  and the off-ELP limit, with an example turn between spines" \
	grep -q '^off the ELP: 6 (in-port, tag, out-port) combinations .* (e.g. in eth4 tag 1 out eth3)' "$T/out"
run -j switch check L1 "$T/updown.json" --datapath dcb >/dev/null
check "  -j: 64 app and 2 rewr entries (lossy, lossless) a port, PFC on 1" \
	jqe '([.ports[] | .app == 64 and .rewr == 2 and .pfc == [1]] | all)
		and .next_hops == "links" and .off_elp.pairs == 6' "$T/out"
check "  --strict refuses the off-ELP pairs: exit 1" \
	test "$(run switch check L1 "$T/updown.json" --datapath dcb --strict)" = 1
check "    as a problem" grep -q '^  off-elp: switch L1: 6 (in-port, tag, out-port)' "$T/out"

# interfaces
check "a missing interface is reported: exit 0" \
	test "$(run -j switch check L1 "$T/bounce.json" --datapath bpf eth4=nosuch)" = 0
check "  as not found" \
	jqe '.ports[3] | .found == false and .ifindex == null and .runs == "none"
		and (.note | test("no interface nosuch"))' "$T/out"
check "  and counted" jqe '.ports_found == 3 and .ports_missing == 1' "$T/out"
rc=$("$TAGGER" switch check L1 "$T/bounce.json" --datapath bpf eth1=n1 eth2=n2 \
	eth3=n3 eth4=n4 2>"$T/err" >/dev/null; echo $?)
check "no interface at all: exit 2" test "$rc" = 2
check "  says so" grep -q 'none of its 4 ports has an interface' "$T/err"

# usage
for bad in "--datapath foo" "" "--datapath" "--nosuch --datapath bpf" \
	"--datapath bpf eth9=x" "--datapath bpf eth1" "--datapath bpf eth1=a/b" \
	"--datapath bpf eth1=x eth2=x"; do
	# shellcheck disable=SC2086 # the words of $bad are the arguments
	check "bad usage '$bad': exit 2" \
		test "$(run switch check L1 "$T/bounce.json" $bad)" = 2
	check "  with a message" test -s "$T/err"
done
check "no such switch: exit 2" \
	test "$(run switch check X9 "$T/bounce.json" --datapath bpf)" = 2
check "rules that are not rules: exit 2" \
	test "$(run switch check L1 /dev/null --datapath bpf)" = 2

"$TAGGER" switch pack "$T/bounce.json" -o "$T/bounce.trb" || fail "pack"
run -j switch check L1 "$T/bounce.trb" --datapath dcb >/dev/null
check "a packed rules file gives the same dcb problems (its links too)" \
	test "$(jq -c .problems "$T/out")" = \
	"$(ns_exec L1 "$TAGGER" -j switch check L1 "$T/bounce.json" --datapath dcb | jq -c .problems)"

check "nothing in the namespace changed" test "$(snapshot)" = "$before"
echo "PASS"
