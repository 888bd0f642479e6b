#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tagger fabric status and plan on a ring of four switch namespaces
# (fabric_lab.sh): one version; a rollout stopped halfway (two versions,
# their union's verdict); a version whose union with the live one is
# cyclic, flagged with its cycle and refused by plan, then staged through
# an intermediate and applied batch by batch with the live union checked
# after every batch; stale plans; switches not attached, attached in
# another namespace, unreachable or hanging: clear errors and exit codes.
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd jq
require_cmd python3
require_cmd sha256sum
source "$TOP/tests/shell/dp_lab.sh"
source "$TOP/tests/shell/fabric_lab.sh"
fab_lab_up
cd "$TGR_TMP" || exit 1
T=$TAGGER
INV=$TGR_TMP/inv

jqt() { jq -e "$@" >/dev/null; }
# st [ARGS...]: fabric status -j into st.json; its exit code in $rc.
st() { "$T" -j fabric status "$@" >st.json 2>st.err; rc=$?; }
digest_of() { "$T" switch pack "$1" -o "$1.trb" && echo "sha256:$(sha256sum <"$1.trb" | cut -d' ' -f1)"; }
D1=$(digest_of v1.json) && D2=$(digest_of v2.json) && D3=$(digest_of v3.json) &&
	DOFF=$(digest_of off.json) || fail "packing the rule sets"

# One version everywhere.
fab_set v1.json $FAB_SW || fail "attach v1"
st "$INV"
[ $rc = 0 ] || { cat st.err; fail "status of one version: exit $rc"; }
check "one version, the digest of v1's packed file, on all four" \
	jqt --arg d "$D1" '(.versions | length) == 1 and .versions[0].digest == $d and
		(.versions[0].switches | length) == 4 and .union.checked and .union.acyclic and
		all(.switches[]; .status == "ok" and .generation == 0)' st.json
"$T" fabric status "$INV" >st.txt || fail "plain status"
check "plain status: the verdict and the versions" \
	grep -q "union of 1 version(s): deadlock-free" st.txt

# The plan for v2, in batches of one; v2 attached packed has v2's digest.
"$T" fabric plan "$INV" v2.json --batch-size 1 -o plan2.json >/dev/null || fail "plan v2"
check "plan v2: one stage, four batches of one switch, each live set {v2, v1}" \
	jqt --arg d1 "$D1" --arg d2 "$D2" '.format == "tagger-fabric-plan/1" and
		(.stages | length) == 1 and .stages[0].digest == $d2 and
		(.stages[0].batches | length) == 4 and
		all(.stages[0].batches[]; (.switches | length) == 1 and
		    (.live | sort) == ([$d1, $d2] | sort))' plan2.json
check "plan --check: fresh" "$T" fabric plan --check plan2.json "$INV"

# The rollout stops after two batches (the engine killed): both versions.
fab_set v2.json.trb sw1 sw2 || fail "update sw1 sw2 to v2 (packed)"
st "$INV"
[ $rc = 0 ] || { cat st.err; fail "status halfway: exit $rc"; }
check "halfway: two versions, sw1 sw2 on v2, sw3 sw4 on v1, union deadlock-free" \
	jqt --arg d1 "$D1" --arg d2 "$D2" '(.versions | length) == 2 and
		([.versions[] | select(.digest == $d2) | .switches[]] == ["sw1", "sw2"]) and
		([.versions[] | select(.digest == $d1) | .switches[]] == ["sw3", "sw4"]) and
		.union.acyclic and (.union.versions | length) == 2' st.json
"$T" fabric plan --check plan2.json "$INV" >chk.txt
rc=$?
[ $rc = 1 ] || fail "a stale plan: exit $rc, not 1"
check "the stale plan names the switch that changed" \
	grep -q "plan2.json is stale: switch sw1: generation 0" chk.txt
"$T" -j fabric plan --check plan2.json "$INV" >chk.json
check "-j: fresh false" jqt '.fresh == false and (.stale | startswith("switch sw1"))' chk.json

# A new plan from here moves only sw3 and sw4.
"$T" fabric plan "$INV" v2.json -o plan2b.json >/dev/null || fail "plan v2 from halfway"
check "the plan from halfway: sw3 and sw4" \
	jqt '[.stages[].batches[].switches[]] == ["sw3", "sw4"]' plan2b.json
fab_set v1.json sw1 sw2 || fail "back to v1"

# v3: its union with v1 is cyclic. plan refuses it with the cycle.
"$T" fabric plan "$INV" v3.json >refused.txt 2>&1
rc=$?
[ $rc = 1 ] || { cat refused.txt; fail "plan v3: exit $rc, not 1"; }
check "the refusal shows the cycle" grep -q "CYCLIC buffer dependency" refused.txt
"$T" -j fabric plan "$INV" v3.json >refused.json
check "-j refusal: a cycle through both versions' rules" \
	jqt --arg d1 "$D1" --arg d3 "$D3" '.refused and (.union.cycle | length) > 1 and
		([.union.cycle[].rules] | unique | sort) == ([$d1, $d3] | sort)' refused.json

# Staged through off.json (no lossless classification): two stages.
"$T" fabric plan "$INV" v3.json --via off.json --batch-size 2 -o plan3.json >/dev/null ||
	fail "plan v3 via off"
check "plan v3 via off: off then v3, two batches each" \
	jqt --arg d3 "$D3" --arg off "$DOFF" '[.stages[].digest] == [$off, $d3] and
		all(.stages[]; (.batches | length) == 2)' plan3.json
# Apply it as an engine would, batch by batch; after every batch the live
# versions' union (status) is deadlock-free and the plan's live set.
check "plan3 fresh" "$T" fabric plan --check plan3.json "$INV"
n=0
while read -r rules sws; do
	# shellcheck disable=SC2086 # the switch names are words
	fab_set "$rules" $sws || fail "applying a batch: $rules to $sws"
	n=$((n + 1))
	st "$INV"
	[ $rc = 0 ] || { cat st.err; fail "status after batch $n: exit $rc"; }
	jqt '.union.acyclic' st.json >/dev/null || fail "batch $n: the live union is cyclic"
	echo "ok: after batch $n ($sws -> ${rules##*/}): $(jq -r '.versions | length' st.json) version(s) live, union deadlock-free"
done < <(jq -r '.stages[] | .rules as $r | .batches[] | "\($r) \(.switches | join(" "))"' plan3.json)
[ $n = 4 ] || fail "$n batches applied, not 4"
check "the plan done: v3 everywhere" \
	jqt --arg d3 "$D3" '(.versions | length) == 1 and .versions[0].digest == $d3' st.json

# Forced past the check: status flags the cyclic union (exit 1).
tgr sw1 switch update sw1 v1.json --force >/dev/null 2>&1 || fail "forcing v1 on sw1"
st "$INV"
[ $rc = 1 ] || fail "a cyclic live union: exit $rc, not 1"
check "the cyclic union's cycle is reported" \
	jqt '.union.acyclic == false and (.union.cycle | length) > 1' st.json
"$T" fabric status "$INV" >st.txt
check "plain: CYCLIC and the cycle's edges" grep -q "prio .* -> .* prio" st.txt

# A rules file changed after planning: stale.
for s in $FAB_SW; do
	tgr "$s" switch update "$s" v1.json --force >/dev/null 2>&1 || fail "v1 on $s (forced)"
done
"$T" fabric plan "$INV" v2.json -o plan4.json >/dev/null || fail "plan4"
cp v3.json v2.json
"$T" fabric plan --check plan4.json "$INV" >chk.txt
rc=$?
[ $rc = 1 ] && grep -q "v2.json changed since planning" chk.txt ||
	fail "a changed rules file: exit $rc: $(cat chk.txt)"
echo "ok: a plan whose rules file changed is stale"

# Switches that are not there, or not where the inventory says.
ns_new sw5
sed "s/^sw4 .*/&\nsw5 tagger_netns=$(ns_name sw5) tagger_bpf_root=${TAGGER_BPF_ROOT//\//\\/}/" "$INV" >inv5
st inv5
[ $rc = 2 ] || fail "a switch not attached: exit $rc, not 2"
check "not attached: refused, the others still reported" \
	jqt '(.switches[4] | .status == "refused" and (.error | test("not attached"))) and
		(.versions | length) == 1' st.json
sed "s/^sw2 tagger_netns=[^ ]*/sw2 tagger_netns=$(ns_name sw1)/" "$INV" >inv_wrong
st inv_wrong
[ $rc = 2 ] || fail "a switch in another namespace: exit $rc, not 2"
check "another namespace: refused, saying so" \
	jqt '.switches[1] | .status == "refused" and (.error | test("namespace"))' st.json
sed "s/^sw3 tagger_netns=[^ ]*/sw3 tagger_netns=$TGR_PREFIX-gone/" "$INV" >inv_gone
st inv_gone
[ $rc = 3 ] || fail "an unreachable namespace: exit $rc, not 3"
check "no namespace: unreachable, named" \
	jqt '.switches[2] | .status == "unreachable" and (.error | test("/run/netns/"))' st.json
"$T" fabric status inv_gone >/dev/null 2>st.err
grep -q "Error: sw3 (switch sw3): cannot enter the network namespace" st.err ||
	fail "plain: no error line for sw3: $(cat st.err)"
"$T" fabric plan inv_gone v1.json >/dev/null 2>st.err
rc=$?
[ $rc = 3 ] && grep -q "not complete: no plan is made" st.err ||
	fail "plan from an incomplete state: exit $rc: $(cat st.err)"
echo "ok: no plan from an incomplete state (exit 3)"
# A tagger that hangs there: killed after tagger_timeout.
printf '#!/bin/sh\nsleep 30\n' >hang.sh
chmod +x hang.sh
sed "s|^sw4 .*|& tagger_path=$TGR_TMP/hang.sh tagger_timeout=1|" "$INV" >inv_hang
start=$(date +%s)
st inv_hang
[ $rc = 3 ] || fail "a hanging switch: exit $rc, not 3"
[ $(($(date +%s) - start)) -lt 10 ] || fail "the hanging switch was not killed in time"
check "hanging: killed after 1 s" \
	jqt '.switches[3] | .status == "unreachable" and (.error | test("no answer in 1 s"))' st.json
pgrep -f "$TGR_TMP/hang.sh" >/dev/null && fail "the hanging command is still running"
echo "ok: nothing of it left running"
