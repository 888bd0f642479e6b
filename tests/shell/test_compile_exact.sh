#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tagger compile --exact: a proof of optimality (Clos, 2 bounces: 2 is
# UNSAT on a core of its paths, which --exact-core writes and which alone
# is UNSAT again; 3 optimal), fewer priorities than the heuristics (BCube(2,3)
# with parallel paths: 2, verified by tagger verify), the time limit
# (not proved, the heuristics' rules kept), usage errors, and the rules on
# standard output untouched by the solver.
source "$(dirname "$0")/../lib.sh"
cd "$TGR_TMP" || exit 1
T=$TAGGER

$T topo clos -o clos.topo
$T paths bounce=2 clos.topo -o b2.elp
$T -j compile clos.topo b2.elp --exact --exact-core core.elp -o b2.json >b2-sum.json
check "Clos 2 bounces: 3 priorities, optimal by SAT on a core" \
	test "$(jq -c '[.priorities, .lower_bound, .exact, .optimal, .method]' b2-sum.json)" = \
	'[3,3,3,true,"sat-core"]'
n=$(jq '.exact_search.core.paths' b2-sum.json)
check "the core: fewer paths than the ELP, at 2 priorities, the file named" \
	test "$(jq -c '.exact_search.core | [.paths < .of, .of, .priorities, .file]' b2-sum.json)" = \
	'[true,7904,2,"core.elp"]'
check "the core file holds that many paths" test "$(wc -l <core.elp)" = "$n"
check "every core path is a line of the ELP" \
	sh -c "! grep -Fxvf b2.elp core.elp"
# (the relaxed model does not settle on the core: 5 s, not the default 60)
$T -j compile clos.topo core.elp --exact --exact-seconds 5 -o /dev/null >core-sum.json
check "the core alone: 2 priorities UNSAT again, 3 optimal" \
	test "$(jq -c '[.exact_search.steps[0] | .priorities, .model, .answer, .paths] + [.exact]' core-sum.json)" = \
	"[2,\"tagging\",\"unsat\",$n,3]"
check "the proof: 2 priorities UNSAT in the tagging model" \
	test "$(jq -c '.exact_search.steps[0] | [.priorities, .model, .answer]' b2-sum.json)" = \
	'[2,"tagging","unsat"]'
check "the solver's time is reported" jq -e '.exact_search.seconds >= 0' b2-sum.json
check "the heuristics' rules are kept and verify" $T verify clos.topo b2.elp b2.json

$T paths updown clos.topo -o up.elp
check "up-down: 1 priority, optimal by the lower bound, none fewer" \
	test "$($T -j compile clos.topo up.elp --exact -o /dev/null |
		jq -c '[.priorities, .optimal, .method, .exact_search.no_fewer_with_any_rules]')" = \
	'[1,true,"lower-bound",true]'

$T topo bcube 2 3 -o bc.topo
$T paths bcube bc.topo --order parallel -o bc.elp
check "without --exact BCube(2,3) takes 3" \
	test "$($T -j compile bc.topo bc.elp --no-bound -o /dev/null | jq .priorities)" = 3
$T compile bc.topo bc.elp --exact -o bc.json 2>bc.err
check "with --exact 2, said in plain words" \
	grep -q 'exact: 2 priorities optimal (lower-bound), found by the solver' bc.err
check "tagger verify accepts the solver's rules" $T verify bc.topo bc.elp bc.json
check "and they use 2 lossless priorities" \
	sh -c "$T stats bc.json | grep -q 'lossless priorities: 2 '"
check "rules on stdout stay JSON (the solver prints nothing)" \
	sh -c "$T compile bc.topo bc.elp --exact 2>/dev/null | jq -e .switches >/dev/null"

# Two orders: Jellyfish-50 with 3 shortest paths per pair takes 3
# priorities by the heuristics; the two-order search finds 2 before the
# solver runs, the solver alone (--no-two-orders) agrees, both verify.
$T topo jellyfish 50 6 --seed 1 -o j50.topo
$T paths ksp=3 j50.topo -o j50.elp
check "Jellyfish-50 k=3: the heuristics take 3" \
	test "$($T -j compile j50.topo j50.elp --no-bound -o /dev/null | jq .priorities)" = 3
$T -j compile j50.topo j50.elp --exact -o two.json >two-sum.json
check "two orders: 2 priorities, optimal by the lower bound" \
	test "$(jq -c '[.priorities, .optimal, .method, .verified, .deadlock_free]' two-sum.json)" = \
	'[2,true,"lower-bound",true,true]'
check "two orders: found before any solver call" \
	test "$(jq -c '.exact_search.steps[0] | [.priorities, .search, .answer]' two-sum.json)" = \
	'[2,"two-orders","sat"]'
check "two orders: tagger verify accepts the rules" $T verify j50.topo j50.elp two.json
check "two orders: 2 lossless priorities in the rules" \
	sh -c "$T stats two.json | grep -q 'lossless priorities: 2 '"
$T -j compile j50.topo j50.elp --exact -o two-again.json >/dev/null
$T -j compile j50.topo j50.elp --exact --threads 1 -o two-t1.json >/dev/null
$T -j compile j50.topo j50.elp --exact --threads 2 -o two-t2.json >/dev/null
check "two orders: the same rules twice" cmp two.json two-again.json
check "two orders: the same rules with 1 and 2 threads" cmp two-t1.json two-t2.json
$T -j compile j50.topo j50.elp --exact --no-two-orders -o sat.json >sat-sum.json
check "the solver alone agrees: 2, by SAT, verified" \
	test "$(jq -c '[.priorities, .exact_search.steps[0].search, .exact_search.steps[0].answer]' sat-sum.json)" = \
	'[2,"sat","sat"]'
check "the solver's rules verify too" $T verify j50.topo j50.elp sat.json
$T compile j50.topo j50.elp --exact -o /dev/null 2>two.err
check "two orders: said in plain words" \
	grep -q 'exact: 2 priorities (tagging model, two orders): possible' two.err
$T compile j50.topo j50.elp --no-two-orders -o /dev/null 2>err
check "--no-two-orders without --exact: exit 2" test $? = 2

# A case the solver cannot settle in one second: not proved, rules kept.
# (The two-order search solves it at once: the solver alone is timed.)
$T topo jellyfish 100 8 --seed 1 -o jf.topo
$T paths ksp=4 jf.topo -o jf.elp
$T -j compile jf.topo jf.elp --exact --no-two-orders --exact-seconds 1 -o jf.json >jf-sum.json
rc=$?
check "time limit: exit 0" test $rc = 0
check "time limit: not optimal, no method, timed out, 3 kept" \
	test "$(jq -c '[.optimal, .method, .exact_search.timed_out, .priorities]' jf-sum.json)" = \
	'[false,null,true,3]'
check "time limit: the kept rules verify" $T verify jf.topo jf.elp jf.json
$T compile jf.topo jf.elp --exact --no-two-orders --exact-seconds 1 -o /dev/null 2>jf.err
check "time limit: plain output says not proved" grep -q 'not proved within 1 s' jf.err

$T paths updown clos.topo -o up.elp
echo "stale" >old-core.elp
$T compile clos.topo up.elp --exact --exact-core old-core.elp -o /dev/null 2>err
check "no core (optimal by the lower bound): exit 0, file left alone, said" \
	sh -c "test \"\$(cat old-core.elp)\" = stale && grep -q 'no core' err"
$T compile clos.topo b2.elp --exact-core c.elp -o /dev/null 2>err
check "--exact-core without --exact: exit 2" test $? = 2
$T compile clos.topo b2.elp --exact --exact-core= -o /dev/null 2>err
check "--exact-core with no name: exit 2" test $? = 2
$T compile clos.topo b2.elp --exact --exact-core nodir/c.elp -o /dev/null 2>err
check "--exact-core into a missing directory: exit 3" test $? = 3
$T compile clos.topo b2.elp --exact --classes 2 -o /dev/null 2>err
check "--exact with two classes: exit 2" test $? = 2
$T compile clos.topo b2.elp --exact --no-bound -o /dev/null 2>err
check "--exact without the bound: exit 2" test $? = 2
exit 0
