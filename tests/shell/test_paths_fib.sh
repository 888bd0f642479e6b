#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tagger paths from-fib, diff and check-fib on vmlab's Clos of namespaces
# (the Tagger paper's, routed by the up-down paths the lab planned): the
# paths the switches' FIBs give equal the planned ones, and the rules
# compiled for them keep every one lossless. After L2 loses its link to
# T1, the lab's fast reroute bounces h1's traffic at L2 through S1: the
# new paths are in from-fib's output and in diff's, and check-fib names
# them (exit 1) under the up-down rules but not under rules compiled for
# one bounce. With a second failure and two routes by hand the routing
# has the paper's cyclic buffer dependency: check-fib with one lossless
# priority names the paths that would need a second. A routing loop and a black hole put in by hand are named and
# written as no path. With FRR (the lab's BGP mode), --source frr and
# --source netlink both give all the shortest paths. Errors: an inventory
# switch the topology lacks, a namespace that is gone, a bad --hosts.
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd jq
source "$TOP/tests/shell/fib_lab.sh"
F=${TGR_PREFIX}f G=${TGR_PREFIX}g
tgr_on_exit '$VMLAB -n $F down; $VMLAB -n $G down'
cd "$TGR_TMP" || exit 1
T=$TAGGER
jqe() { jq -e "$@" >/dev/null; }

"$T" paths updown "$S/clos.topo" -o updown.elp || fail "paths updown"
"$T" paths bounce=1 "$S/clos.topo" -o bounce.elp || fail "paths bounce"
"$T" paths ecmp "$S/clos.topo" -o ecmp.elp || fail "paths ecmp"
"$T" compile "$S/clos.topo" updown.elp -o updown.json >/dev/null || fail "compile updown"
"$T" compile "$S/clos.topo" bounce.elp -o bounce.json >/dev/null || fail "compile bounce"

check "lab up (routed by the up-down paths)" $VMLAB -n "$F" up "$S/clos.topo" --paths updown.elp
inventory "$F" >inv

start=$EPOCHREALTIME
"$T" paths from-fib "$S/clos.topo" inv -o fib.elp 2>fib.err
check "from-fib: exit 0" test $? -eq 0
echo "from-fib on the Clos: $(echo "($EPOCHREALTIME - $start) * 1000" | bc | cut -d. -f1) ms, $(wc -l <fib.elp) paths"
check "... and nothing to warn of" test ! -s fib.err
"$T" paths diff updown.elp fib.elp >diff.out
check "from-fib equals the planned paths (diff exit 0)" test $? -eq 0
check "diff counts them" grep -qx "0 paths only in updown.elp, 0 only in fib.elp, 72 in both" diff.out
check "... which are all the shortest paths" \
	bash -c "'$T' paths diff ecmp.elp fib.elp --topo '$S/clos.topo' >/dev/null"
"$T" -j paths from-fib "$S/clos.topo" inv >sum.json
check "-j: a summary" jqe '.paths == 72 and .pairs == 12 and .unreachable == 0 and
	.loops == 0 and .black_holes == 0 and .problems == [] and .source == "netlink"' sum.json
check "--hosts h1,h3: the two pairs" \
	test "$("$T" paths from-fib "$S/clos.topo" inv --hosts h1,h3 | awk '{ print $1, $NF }' | sort -u | tr '\n' ' ')" = "h1 h3 h3 h1 "
"$T" paths check-fib updown.json "$S/clos.topo" inv >check.out
check "check-fib under the up-down rules: exit 0" test $? -eq 0
check "... every path lossless" grep -qx "0 of 72 paths the routing uses are not kept lossless by updown.json" check.out

# L2 loses T1: L2 bounces h1's traffic up through S1 (the lab's fast reroute).
check "fail L2:T1" $VMLAB -n "$F" fail L2:T1
"$T" paths from-fib "$S/clos.topo" inv -o failed.elp 2>failed.err
check "from-fib after the failure: exit 0" test $? -eq 0
check "the rerouted path is there" grep -qx "h2 T2 L2 S1 L1 T1 h1" failed.elp
check "... and the rerouted paths from the other pod" \
	test "$(grep -c ' L2 S1 L1 T1 h1$' failed.elp)" -eq 5
check "no path crosses the failed link" bash -c "! grep -q 'L2 T1\|T1 L2' failed.elp"
"$T" paths diff fib.elp failed.elp >diff2.out
check "diff: exit 1" test $? -eq 1
check "diff: the rerouted path, only in the new set" grep -qx "+ h2 T2 L2 S1 L1 T1 h1" diff2.out
check "diff: the path over the failed link, only in the old" grep -qx -- "- h2 T2 L2 T1 h1" diff2.out
"$T" -j paths diff fib.elp failed.elp >diff2.json
check "diff -j: counts and paths" jqe '.equal == false and .a_paths == 72 and
	.b_paths == 59 and .common == 54 and (.only_b | length) == 5 and
	(.only_a | index("h2 T2 L2 T1 h1")) != null' diff2.json
"$T" paths check-fib updown.json "$S/clos.topo" inv >check2.out
check "check-fib under the up-down rules: exit 1" test $? -eq 1
cat check2.out
check "... naming the rerouted path" grep -q "^lossy path h2 T2 L2 S1 L1 T1 h1: at S1: no rewrite rule" check2.out
check "... all five" grep -qx "5 of 59 paths the routing uses are not kept lossless by updown.json" check2.out
"$T" -j paths check-fib updown.json "$S/clos.topo" inv >check2.json
check "check-fib -j: exit 1" test $? -eq 1
check "check-fib -j: the paths" jqe '.ok == false and .not_lossless == 5 and
	([.not_lossless_paths[].path] | index("h2 T2 L2 S1 L1 T1 h1")) != null and
	.priorities.available == 7' check2.json
"$T" paths check-fib bounce.json "$S/clos.topo" inv >check3.out
check "check-fib under rules for one bounce: exit 0" test $? -eq 0
"$T" paths check-fib bounce.json "$S/clos.topo" inv --priorities 3 >/dev/null
check "... and with one lossless priority too" test $? -eq 0

# L3 loses T4 too, and S1 sends h4 through L3, which bounces it up to S2:
# h2 T2 L2 S1 L3 S2 L4 T4 h4 and h3 T3 L3 S2 L2 S1 L1 T1 h1 close the
# paper's cycle L2 S1 L3 S2 L2, which one priority cannot break.
check "fail L3:T4" $VMLAB -n "$F" fail L3:T4
ip -n "$F-S1" route replace 10.0.0.6/32 dev L3 &&
	ip -n "$F-L3" route replace 10.0.0.6/32 dev S2 || fail "routing h4 through L3"
"$T" paths check-fib updown.json "$S/clos.topo" inv --priorities 1 >check4.out
check "check-fib with one priority for a cycle: exit 1" test $? -eq 1
cat check4.out
check "... names a path that needs more" grep -qx "needs more priorities: h3 T3 L3 S2 L2 S1 L1 T1 h1" check4.out
check "... and the count" grep -qx "the routing's paths need 2 lossless priorities, 1 available: some paths stay lossy" check4.out
"$T" -j paths check-fib updown.json "$S/clos.topo" inv --priorities 1 >check4.json
check "check-fib -j: the priorities" jqe '.priorities.needed == 2 and
	.priorities.available == 1 and .priorities.lossy_paths > 0' check4.json

# A loop (S1 sends h1 to L3, which sends it back to S1) and a black hole
# (S2 without a route to h1).
ip -n "$F-S1" route replace 10.0.0.0/32 dev L3 &&
	ip -n "$F-L3" route replace 10.0.0.0/32 dev S1 &&
	ip -n "$F-S2" route del 10.0.0.0/32 || fail "breaking the routes"
"$T" paths from-fib "$S/clos.topo" inv -o broken.elp 2>broken.err
check "from-fib with a loop and a black hole: exit 0" test $? -eq 0
cat broken.err
check "the loop is named" grep -q "^loop toward h1 (10.0.0.0): L3 S1 L3 ([0-9]* walks)" broken.err
check "the black hole is named" grep -q "S2 has no route to 10.0.0.0 (h1)" broken.err
check "no path toward h1 crosses a spine" bash -c "! grep -q ' S[12] .* h1$' broken.elp"
"$T" -j paths from-fib "$S/clos.topo" inv -o /dev/null >broken.json
check "-j: one loop, one black hole" jqe '.loops == 1 and .black_holes == 1 and
	([.problems[] | select(.kind == "loop") | .cycle] == [["L3", "S1", "L3"]])' broken.json

# Errors.
{ cat inv; echo "[extra]"; echo "X9 tagger_netns=$F-X9"; } >bad.inv
"$T" paths from-fib "$S/clos.topo" bad.inv >/dev/null 2>err.out
check "an inventory switch not in the topology: exit 2" test $? -eq 2
check "... named with its line" grep -q "bad.inv:[0-9]*: switch X9 is not a switch of" err.out
sed 's/^X9 /S9 /' bad.inv >gone.inv
sed 's/^switch S2 /switch S9 layer=2\nswitch S2 /' "$S/clos.topo" >nine.topo
"$T" paths from-fib nine.topo gone.inv >/dev/null 2>err.out
check "a namespace that is gone: exit 3" test $? -eq 3
check "... naming the switch" grep -q "S9: ip -j route: cannot enter the network namespace" err.out
"$T" paths from-fib "$S/clos.topo" inv --hosts h1,T1 >/dev/null 2>err.out
check "--hosts with a switch: exit 2" test $? -eq 2
"$T" paths diff fib.elp nosuch.elp >/dev/null 2>&1
check "diff of a missing file: exit 2" test $? -eq 2
check "lab down" $VMLAB -n "$F" down

if [ -x /usr/lib/frr/bgpd ]; then
	check "BGP lab up" $VMLAB -n "$G" up "$S/clos.topo" --bgp
	inventory "$G" "tagger_vty_socket=/run/tagger-lab/$G/frr/@SW@" >frr.inv
	"$T" paths from-fib "$S/clos.topo" frr.inv --source frr -o frr.elp
	check "--source frr: exit 0" test $? -eq 0
	check "FRR's FIBs give all the shortest paths" \
		bash -c "'$T' paths diff ecmp.elp frr.elp >/dev/null"
	"$T" paths from-fib "$S/clos.topo" frr.inv -o frr-nl.elp
	check "... and so do the kernel's" \
		bash -c "'$T' paths diff ecmp.elp frr-nl.elp >/dev/null"
	"$T" -j paths from-fib "$S/clos.topo" frr.inv --source frr >frr.json
	check "-j: source frr" jqe '.source == "frr" and .paths == 72' frr.json
	check "BGP lab down" $VMLAB -n "$G" down
else
	echo "no FRR: --source frr not tested"
fi
