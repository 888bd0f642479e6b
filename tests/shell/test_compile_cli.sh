#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tagger compile end to end: outputs, -j fields, exit codes 0/1/2, the
# verifier agreeing with the compiler, bad input with file:line.
source "$(dirname "$0")/../lib.sh"
cd "$TGR_TMP" || exit 1
T=$TAGGER

$T topo clos -o clos.topo
$T paths bounce=1 clos.topo -o b1.elp
$T paths bounce=2 clos.topo -o b2.elp

check "compile writes rules, table and dot" \
	$T compile clos.topo b1.elp -o r.json --table t.txt --dot g.dot
check "the rules are the contract's format" \
	test "$(jq -r .format r.json)" = tagger-rules/1
check "every switch lists all its ports" \
	test "$(jq '.switches.S1.ports | length' r.json)" = 4
check "the table has the paper's columns" grep -q 'Tag Ingress    Egress      Newtag' t.txt
check "dot is valid graphviz" dot -Tsvg g.dot -o g.svg
check "tagger verify accepts the output" $T verify clos.topo b1.elp r.json

$T -j compile clos.topo b1.elp -o r.json >sum.json
for k in priorities rules max_switch_rules lossy_paths seconds lower_bound optimal verified; do
	check "-j has $k" jq -e "has(\"$k\")" sum.json
done
check "1-bounce Clos: 2 priorities, proven optimal" \
	test "$(jq -c '[.priorities, .lower_bound, .optimal]' sum.json)" = '[2,2,true]'
check "the paper's greedy needs 3" \
	test "$($T -j compile clos.topo b1.elp --algorithm greedy --no-bound -o /dev/null | jq .priorities)" = 3

check "without -o the rules go to stdout" \
	sh -c "$T compile clos.topo b1.elp 2>/dev/null | jq -e .switches >/dev/null"
$T -j compile clos.topo b2.elp --priorities 3,4 -o lossy.json >lossy-sum.json 2>lossy.err
check "too few priorities: exit 0, lossy paths counted and named" \
	sh -c "test \$(jq .lossy_paths lossy-sum.json) -gt 0 && grep -q 'b2.elp:[0-9]* class 0: lossy from' lossy.err"
check "verify --allow-lossy accepts them, plain verify rejects" \
	sh -c "$T verify --allow-lossy clos.topo b2.elp lossy.json >/dev/null; test \$? = 0 &&
	       { $T verify clos.topo b2.elp lossy.json >/dev/null; test \$? = 1; }"
$T compile clos.topo b2.elp --priorities 3,4 --strict -o /dev/null 2>/dev/null
check "--strict: exit 1" test $? = 1

$T compile clos.topo b1.elp --algorithm nope 2>err; rc=$?
check "unknown algorithm: exit 2" sh -c "test $rc = 2 && grep -q 'What is algorithm' err"
printf 'switch A\nswitch A\n' >bad.topo
$T compile bad.topo b1.elp 2>err; rc=$?
check "bad topology: exit 2 with file:line" sh -c "test $rc = 2 && grep -q 'bad.topo:2:' err"
printf 'h1 T1 S1\n' >bad.elp
$T compile clos.topo bad.elp 2>err; rc=$?
check "non-link hop: exit 2 with file:line" sh -c "test $rc = 2 && grep -q 'bad.elp:1: no link' err"
$T compile clos.topo b1.elp --priorities 0,1 2>err; rc=$?
check "lossy priority among lossless ones: exit 2" test $rc = 2
$T compile clos.topo b1.elp --algorithm clos --dscp 26,27 --priorities 3,4 -o c.json 2>/dev/null
check "DSCP and priority options reach the rules" \
	test "$(jq -c '[.tags[].tag, .tags[].priority]' c.json)" = '[26,27,3,4]'
$T compile clos.topo b1.elp --dscp 26,27 --priorities 3,4 --cnp-dscp 48 \
	--cnp-priority 6 -o cnp.json 2>/dev/null
check "--cnp-dscp/--cnp-priority: the rules' \"cnp\"" \
	test "$(jq -c .cnp cnp.json)" = '{"tag":48,"priority":6}'
check "  which the rules reader takes (tagger verify)" \
	$T verify clos.topo b1.elp cnp.json
$T compile clos.topo b1.elp --dscp 26,27 --priorities 3,4 --cnp-dscp 27 \
	--cnp-priority 6 -o /dev/null 2>err; rc=$?
check "  a CNP DSCP the compile uses as a tag: exit 2 naming it" \
	sh -c "test $rc = 2 && grep -q 'cnp: tag 27 is a lossless tag' err"
$T compile clos.topo b1.elp --dscp 26,27 --priorities 3,4 --cnp-dscp 48 \
	--cnp-priority 4 -o /dev/null 2>err; rc=$?
check "  a CNP priority of a lossless tag: exit 2 naming it" \
	sh -c "test $rc = 2 && grep -q 'priority 4 is the priority of lossless tag 27' err"
$T compile clos.topo b1.elp --cnp-dscp 48 -o /dev/null 2>err; rc=$?
check "  --cnp-dscp alone: exit 2" test $rc = 2
$T topo ring 4 -o ring.topo && $T paths ecmp ring.topo -o ring.elp
check "clos algorithm without layers: exit 2" \
	sh -c "$T compile ring.topo ring.elp --algorithm clos 2>/dev/null; test \$? = 2"
# 65521 ports on one switch: over the rules' 16-bit port index, refused on input
awk 'BEGIN { print "switch sw"; for (i = 0; i < 65521; i++)
	printf "host h%d\nlink sw:p%d h%d:eth0\n", i, i, i }' >star.topo
echo 'h0 sw h1' >star.elp
$T compile star.topo star.elp -o /dev/null 2>err; rc=$?
check "switch over 65520 ports: exit 2 naming it" \
	sh -c "test $rc = 2 && grep -q 'star.topo:1: switch \"sw\" has 65521 ports' err"
exit 0
