#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tagger verify and tagger stats from the command line: exit codes 0/1/2,
# -j output that parses, messages with locations; then compiled rules for
# the seeds' Clos and a ring verify, and each corruption (a decreasing tag,
# a cycle, a missing classify rule, a missing rewrite rule) is caught.
source "$(dirname "$0")/../lib.sh"
require_cmd jq
cd "$TGR_TMP" || exit 1

# Run tagger, keep stdout/stderr, check the exit code.
expect() {
	local want=$1; shift
	"$TAGGER" "$@" >out 2>err
	local rc=$?
	[ "$rc" -eq "$want" ] || { cat out err >&2; fail "tagger $* exited $rc, want $want"; }
	echo "ok: tagger $* -> $rc"
}
jcheck() {	# jq -e passes on empty input, so insist on a document
	[ -s out ] && jq -e "$1" out >/dev/null || { cat out >&2; fail "jq '$1'"; }
	echo "ok: $1"
}
grep_err() { grep -qF -- "$1" err || { cat err >&2; fail "stderr lacks: $1"; }; }

# A hand-written ring of three switches with brute-force tags.
cat >ring3.topo <<'EOF'
switch A
switch B
switch C
link A:2 B:1
link B:2 C:1
link C:2 A:1
EOF
printf 'A B C\nB C A\nC A B\n' >ring3.elp
ring_rules() {	# $1: new tag of every switch's rewrite rule
	local sw out=""
	for sw in A B C; do
		out+="\"$sw\": {\"ports\": [\"1\", \"2\"],
		  \"classify\": [{\"in\": \"1\", \"tag\": 10, \"priority\": 3},
				 {\"in\": \"1\", \"tag\": 11, \"priority\": 4}],
		  \"rewrite\": [{\"tag\": 10, \"in\": \"1\", \"out\": \"2\", \"new_tag\": $1}]},"
	done
	echo "{\"format\": \"tagger-rules/1\", \"lossy\": {\"tag\": 0, \"priority\": 0},
	  \"tags\": [{\"tag\": 10, \"priority\": 3}, {\"tag\": 11, \"priority\": 4}],
	  \"switches\": {${out%,}}}"
}
ring_rules 11 >ring3.json
ring_rules 10 >ring3-cycle.json

expect 0 verify ring3.topo ring3.elp ring3.json
grep -q "^verified: deadlock-free yes" out || fail "summary line"
expect 0 -j verify ring3.topo ring3.elp ring3.json
jcheck '.ok and .deadlock_free and .monotonic and .cycle == null'
jcheck '.paths == 3 and .lossless_paths == 3 and .bdg_nodes == 6 and .bdg_edges == 3'
jcheck '.problems == [] and (.seconds | type) == "number"'

expect 1 verify ring3.topo ring3.elp ring3-cycle.json
grep -q "cycle of 3 buffer dependencies" out || fail "cycle witness"
grep -q "by path A B C (ring3.elp:1)" out || fail "path behind an edge"
expect 1 -j verify ring3.topo ring3.elp ring3-cycle.json
jcheck '.deadlock_free == false and (.cycle | length) == 3'
jcheck '.cycle[0] | has("from") and has("to") and .rule == "rewrite[0]" and .line > 0'

# Bad input and usage: exit 2, located messages.
printf '{"format": "tagger-rules/1",\n "lossy": {"tag": 0,, "priority": 0}}\n' >syntax.json
expect 2 verify ring3.topo ring3.elp syntax.json
grep_err "syntax.json:2:"
jq '.switches.A.rewrite[0].in = "9"' ring3.json >badport.json
expect 2 verify ring3.topo ring3.elp badport.json
grep_err 'badport.json: switches.A.rewrite[0].in: port "9" is not in switches.A.ports'
jq '.switches.Z = {"ports": []}' ring3.json >badsw.json
expect 2 verify ring3.topo ring3.elp badsw.json
grep_err 'badsw.json: switches.Z: no node "Z" in ring3.topo'
expect 2 verify ring3.topo ring3.elp
grep_err "Usage: tagger"
expect 2 verify ring3.topo ring3.elp ring3.json --frobnicate
grep_err 'What is "--frobnicate"?'
expect 2 -j verify ring3.topo ring3.elp missing.json
grep_err "missing.json: cannot open"
expect 0 verify help
grep_err "Usage: tagger [-j] verify TOPO ELP RULES.json"

# stats
expect 0 stats ring3.json
grep -q "^rules: 9 (classify 6, rewrite 3)" out || fail "stats summary"
expect 0 -j stats ring3.json
jcheck '.priorities == 2 and .priority_list == [3, 4] and .lossless_tags == 2'
jcheck '.rules == 9 and .classify_rules == 6 and .rewrite_rules == 3 and .switches == 3'
jcheck '.max_switch_rules == 3 and .min_switch_rules == 3 and .avg_switch_rules == 3'
jcheck '.per_switch.B == {"classify": 2, "rewrite": 1, "rules": 3} and .bottleneck.switch == "A"'
jcheck '.lossy_priority == 0'
expect 2 stats syntax.json
expect 2 stats
expect 0 stats help
expect 2 stats ring3.json --datapath p4

# --datapath flower: each switch's filters are the sum over its ports of
# what switch export --offload installs (ingress_filters +
# egress_filters: the ASIC's form, without the software form's hand-on
# filters to the pause agent), its max-port the largest such port;
# without the option no flower key.
jcheck_not_flower() { jq -e 'has("flower") | not' out >/dev/null || fail "flower keys without --datapath"; }
expect 0 -j stats ring3.json --datapath bpf
jcheck_not_flower
for f in "$TOP"/tests/bpf/fixtures/*.rules.json; do
	expect 0 -j stats "$f" --datapath flower
	cp out st.json
	tot=0 max=0 maxport=0
	for sw in $(jq -r '.switches | keys[]' "$f"); do
		"$TAGGER" -j switch export "$sw" "$f" --offload >ex.json || fail "switch export $sw"
		want=$(jq '[.ports[] | .ingress_filters + .egress_filters] | add // 0' ex.json)
		wport=$(jq '[.ports[] | .ingress_filters + .egress_filters] | max // 0' ex.json)
		got=$(jq --arg s "$sw" '.per_switch[$s] | [.flower_filters, .flower_max_port_filters] | join(" ")' -r st.json)
		[ "$got" = "$want $wport" ] || fail "$f $sw: stats says $got, switch export $want $wport"
		tot=$((tot + want))
		[ "$want" -gt "$max" ] && max=$want
		[ "$wport" -gt "$maxport" ] && maxport=$wport
	done
	got=$(jq -r '.flower | [.filters, .max_switch_filters, .max_port.filters, .filters_per_ip_rule] | join(" ")' st.json)
	[ "$got" = "$tot $max $maxport 4" ] || fail "$f: stats says $got, switch export $tot $max $maxport 4"
	echo "ok: $(basename "$f"): flower filters per switch as switch export's ($tot in all)"
	expect 0 stats "$f" --datapath flower --top 2
	grep -q "^flower per switch: min [0-9]* (.*), avg .*, max $max (" out || fail "flower text: $(cat out)"
	grep -q "^flower filters: $tot " out || fail "flower total text"
	expect 0 stats "$f"
	grep -q flower out && fail "flower text without --datapath"
done

# Compiled rules: the seeds' Clos with one-bounce paths, and a ring of 4.
"$TAGGER" topo clos -o clos.topo || fail "topo clos"
"$TAGGER" paths bounce=1 clos.topo -o clos.elp || fail "paths bounce=1"
"$TAGGER" topo ring 4 -o ring4.topo || fail "topo ring"
"$TAGGER" paths ecmp ring4.topo -o ring4.elp || fail "paths ecmp"
for alg in clos greedy brute; do
	expect 0 compile clos.topo clos.elp --algorithm "$alg" --no-verify -o clos-$alg.json
	expect 0 -j verify clos.topo clos.elp clos-$alg.json
	jcheck '.ok and .lossless_paths == .paths'
	expect 0 compile clos.topo clos.elp --algorithm "$alg" --compress --no-verify -o clos-$alg-c.json
	expect 0 verify clos.topo clos.elp clos-$alg-c.json
done
expect 0 -j stats clos-clos.json
jcheck '.priorities == 2'
expect 0 compile ring4.topo ring4.elp --no-verify -o ring4.json
expect 0 verify ring4.topo ring4.elp ring4.json
expect 0 -j stats ring4.json
jcheck '.priorities == 2'
expect 0 compile ring4.topo ring4.elp --classes 2 --no-verify -o ring4-2.json
expect 0 -j verify ring4.topo ring4.elp ring4-2.json
jcheck '.ok and .classes == 2 and .walks == 2 * .paths'

R=clos-clos.json
t0=$(jq '.tags[0].tag' $R); t1=$(jq '.tags[1].tag' $R)
# 1. a decreasing tag: one rule that takes the second tag back to the first
jq "(first(.switches[].rewrite[] | select(.tag == $t1)) | .new_tag) = $t0" $R >dec.json
expect 1 -j verify clos.topo clos.elp dec.json
jcheck '.monotonic == false and .decreasing_rules == 1'
jcheck '[.problems[] | select(.kind == "decreasing_tag")] | length == 1'
# 2. a cycle: bounces keep the tag instead of raising it (slide 8's CBD)
jq "(.switches[].rewrite[] | select(.tag == $t0 and .new_tag == $t1) | .new_tag) = $t0" $R >cyc.json
expect 1 -j verify clos.topo clos.elp cyc.json
jcheck '.deadlock_free == false and (.cycle | length) >= 2'
jcheck '.cycle as $c | [range($c | length)] | all(. as $i | $c[$i].to == $c[($i + 1) % ($c | length)].from)'
# 3. a missing classify rule: the paths through it become lossy
jq '.switches.S1.classify |= .[1:]' $R >nocl.json
expect 1 -j verify clos.topo clos.elp nocl.json
jcheck '.deadlock_free and .monotonic and .lossless_paths < .paths'
jcheck '[.problems[] | select(.kind == "lossy_path" and .missing == "classify" and .node == "S1")] | length > 0'
jcheck '.lossy_walks == .lossy_paths and .lossy_walks > 0'
lossy=$(jq .lossy_walks out)
expect 1 verify clos.topo clos.elp nocl.json --max-problems 1
grep -q "^\.\.\. $((lossy - 1)) more lossy walks not shown ($lossy paths lossy in all)" out ||
	fail "the plain count of lossy walks is that of -j"
expect 0 verify clos.topo clos.elp nocl.json --allow-lossy
# 4. a missing rewrite rule
jq '.switches.S1.rewrite |= .[1:]' $R >norw.json
expect 1 -j verify clos.topo clos.elp norw.json
jcheck '[.problems[] | select(.kind == "lossy_path" and .missing == "rewrite" and .node == "S1")] | length > 0'
echo "all verify/stats CLI checks passed"
