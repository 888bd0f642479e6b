#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The Ansible collection (ansible/tagger/fabric) on the ring of four switch
# namespaces of fabric_lab.sh, every host ansible_connection=local with its
# tagger_netns: the tagger_switch module (check mode, diff, idempotence,
# tagger's own error message) and the rollout playbook applying plans of
# tagger fabric plan: v1 -> v2 in batches of one, every switch at v2, a run
# again changes nothing; check mode changes nothing; a stale plan refused
# before any switch changes; a v3 that one switch refuses (its rules name a
# port that switch lacks): the playbook stops there and the switches it
# touched run v2 again, the others never changed. No traffic runs during
# the rollouts here (test_fabric.sh checks the live unions batch by batch).
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd ansible-playbook
require_cmd jq
require_cmd python3
require_cmd sha256sum
source "$TOP/tests/shell/dp_lab.sh"
source "$TOP/tests/shell/fabric_lab.sh"
fab_lab_up
cd "$TGR_TMP" || exit 1
T=$TAGGER

# Ansible's state in the test's directory; the collection from the tree.
export ANSIBLE_HOME=$TGR_TMP/ansible-home ANSIBLE_LOCAL_TEMP=$TGR_TMP/ansible-tmp
export ANSIBLE_COLLECTIONS_PATH=$TGR_TMP/coll ANSIBLE_NOCOLOR=1
export ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_DEPRECATION_WARNINGS=0
export ANSIBLE_LOCALHOST_WARNING=0 ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3
mkdir -p coll/ansible_collections && ln -s "$TOP/ansible/tagger" coll/ansible_collections/tagger

# The collection builds, and its module's documentation parses.
check "ansible-galaxy collection build" \
	ansible-galaxy collection build "$TOP/ansible/tagger/fabric" --output-path "$TGR_TMP" >/dev/null
check "ansible-doc tagger.fabric.tagger_switch" \
	bash -c 'ansible-doc tagger.fabric.tagger_switch | grep -q "backup_dir"'

digest_of() { "$T" switch pack "$1" -o "$1.trb" && echo "sha256:$(sha256sum <"$1.trb" | cut -d' ' -f1)"; }
D1=$(digest_of v1.json) && D2=$(digest_of v2.json) || fail "packing v1, v2"
# v4: other codepoints again (its union with v2 is deadlock-free), but
# sw3's rules name a port eth3 that sw3 does not have: sw3 refuses it.
"$T" compile ring.topo ring.elp --dscp 20,21,22 -o v4.json 2>/dev/null || fail "compile v4"
python3 - <<'PY' || fail "making v4"
import json
d = json.load(open("v4.json"))
s = d["switches"]["sw3"]
s["ports"].append("eth3")
json.dump(d, open("v4.json", "w"))
PY
D4=$(digest_of v4.json) || fail "packing v4"

{
	cat inv
	echo "[all:vars]"
	echo "ansible_connection=local"
	echo "tagger_path=$T"
} >inv.ini
fab_set v1.json $FAB_SW || fail "attach v1"

# play [ARGS...]: the rollout playbook; output in play.out, exit in $rc.
play() {
	ansible-playbook -i inv.ini tagger.fabric.rollout -e "tagger_controller=$T" \
		-e "tagger_rollout_dir=$TGR_TMP/rollout" "$@" \
		>play.out 2>&1
	rc=$?
}
# recap HOST: the host's PLAY RECAP line.
recap() { grep -E "^$1 +:" play.out; }
changed_total() { sed -n 's/.* changed=\([0-9]*\) .*/\1/p' play.out | paste -sd+ | bc; }
# digests: the fabric's digest per switch, "sw1=D sw2=D ...".
digests() {
	"$T" -j fabric status inv | jq -r '[.switches[] | "\(.name)=\(.rules_digest)"] | join(" ")'
}
all_at() { [ "$(digests)" = "sw1=$1 sw2=$1 sw3=$1 sw4=$1" ]; }
jqt() { jq -e "$@" >/dev/null; }

# The module alone: check mode and diff say what would change, change nothing.
mod() {
	ansible -i inv.ini "$1" -m tagger.fabric.tagger_switch -a "$2" "${@:3}" >mod.out 2>&1
	rc=$?
}
MARGS="switch=sw1 netns=$(ns_name sw1) bpf_root=$TAGGER_BPF_ROOT tagger_path=$T"
mod sw1 "$MARGS rules=$TGR_TMP/v2.json" --check --diff
[ $rc = 0 ] || { cat mod.out; fail "module check mode: exit $rc"; }
check "module, check mode: changed, the diff from v1's digest to v2's" \
	grep -q "^+rules_digest: $D2" mod.out
grep -q "^-rules_digest: $D1" mod.out || fail "no before digest in the diff: $(cat mod.out)"
check "module, check mode: sw1 still at v1" \
	test "$(digests)" = "sw1=$D1 sw2=$D1 sw3=$D1 sw4=$D1"
mod sw1 "$MARGS rules=$TGR_TMP/v1.json"
check "module: v1 on a switch at v1 changes nothing" grep -q '"changed": false' mod.out
mod sw3 "switch=sw3 netns=$(ns_name sw3) bpf_root=$TAGGER_BPF_ROOT tagger_path=$T rules=$TGR_TMP/v4.json"
[ $rc != 0 ] || fail "module: v4 on sw3 succeeded"
msg=$(tgr sw3 switch update sw3 "$TGR_TMP/v4.json" 2>&1 >/dev/null)
msg=${msg#Error: }
check "module: the failure is tagger's own message ($msg)" grep -qF "\"msg\": \"$msg\"" mod.out

mod sw1 "$MARGS state=absent" --check --diff
check "module, state=absent in check mode: would detach, did not" grep -q '^+attached: no' mod.out
check "module, state=absent in check mode: sw1 still at v1" \
	test "$(digests)" = "sw1=$D1 sw2=$D1 sw3=$D1 sw4=$D1"

# The plan for v2, batches of one; check mode first: nothing changes.
"$T" fabric plan inv v2.json --batch-size 1 -o plan2.json >/dev/null || fail "plan v2"
play -e tagger_plan=plan2.json --check --diff
[ $rc = 0 ] || { cat play.out; fail "playbook --check: exit $rc"; }
check "check mode: every switch would change, none did" all_at "$D1"
check "check mode: no backups taken" test ! -e rollout/backup
recap sw4 | grep -q 'changed=1' || fail "check mode: sw4 not reported changed: $(recap sw4)"
play -e tagger_plan=plan2.json
[ $rc = 0 ] || { cat play.out; fail "playbook v2: exit $rc"; }
check "rollout v2: every switch at v2" all_at "$D2"
"$T" -j fabric status inv >st.json
check "fabric status: one version, v2" \
	jqt --arg d "$D2" '(.versions | length) == 1 and .versions[0].digest == $d and .union.acyclic' st.json
check "the rollback file: v1's packed rules, named by their digest" \
	cmp "rollout/backup/${D1#sha256:}.trb" v1.json.trb
check "the batches ran one switch at a time, in the plan's order" \
	test "$(grep -o '^PLAY \[tagger rollout - stage 0\]' play.out | wc -l)" = 4
# Again: the plan is stale (every generation changed); a new one is empty.
play -e tagger_plan=plan2.json
[ $rc != 0 ] && grep -q "plan2.json is stale" play.out ||
	{ cat play.out; fail "a stale plan was not refused (exit $rc)"; }
echo "ok: a stale plan refused before any switch changes"
"$T" fabric plan inv v2.json -o plan2b.json >/dev/null || fail "plan v2 again"
play -e tagger_plan=plan2b.json
[ $rc = 0 ] || { cat play.out; fail "playbook, nothing to do: exit $rc"; }
check "nothing to do: changed=0 everywhere" test "$(changed_total)" = 0

# Idempotence of the module over a whole play: v2 again on every switch.
cat >again.yml <<YML
- hosts: ring
  gather_facts: false
  tasks:
    - tagger.fabric.tagger_switch:
        switch: "{{ inventory_hostname }}"
        netns: "{{ tagger_netns }}"
        bpf_root: "{{ tagger_bpf_root }}"
        tagger_path: "{{ tagger_path }}"
        rules: $TGR_TMP/v2.json
YML
ansible-playbook -i inv.ini again.yml >play.out 2>&1 || { cat play.out; fail "again.yml"; }
check "v2 again on every switch: changed=0" test "$(changed_total)" = 0

# v4: sw3 refuses it. Batches sw1, sw2, sw3, sw4: the playbook stops at
# sw3, sw1 and sw2 run v2 again, sw4 never changed.
"$T" fabric plan inv v4.json --batch-size 1 -o plan4.json >/dev/null || fail "plan v4"
check "plan v4: sw1 sw2 sw3 sw4, one a batch" \
	jqt '[.stages[].batches[].switches] == [["sw1"], ["sw2"], ["sw3"], ["sw4"]]' plan4.json
g4=$("$T" -j fabric status inv | jq -r '.switches[3].generation')
play -e tagger_plan=plan4.json
[ $rc != 0 ] || { cat play.out; fail "playbook v4 succeeded"; }
# tagger's message names the rules file the playbook staged on the switch
check "the playbook stopped at sw3 with tagger's message" \
	grep -qF "stopped at stage 0 on sw3: $TGR_TMP/rollout/${D4#sha256:}.rules: ${msg#*: }" play.out
check "sw1, sw2 rolled back (reverse order), sw3 unchanged" \
	test "$(grep -o 'item=sw[0-9] (stage 0) -> sha256:[0-9a-f]*' play.out | paste -sd' ')" = \
	"item=sw3 (stage 0) -> $D2 item=sw2 (stage 0) -> $D2 item=sw1 (stage 0) -> $D2"
check "every switch at v2 again" all_at "$D2"
check "sw4 never touched (its generation)" \
	test "$("$T" -j fabric status inv | jq -r '.switches[3].generation')" = "$g4"
check "sw4 not run at all" bash -c "! grep -q 'ok: \[sw4\]\|changed: \[sw4\]' play.out"

# Two stages, batches of two: v1 first, then v4. sw3 refuses v4 in the
# last batch, where sw4 takes it: everything goes back stage by stage,
# v4 -> v1 (sw4, then sw2 and sw1; sw3 never left v1), then v1 -> v2.
"$T" fabric plan inv v4.json --via v1.json --batch-size 2 -o plan41.json >/dev/null ||
	fail "plan v4 via v1"
check "plan v4 via v1: two stages of two batches" \
	jqt --arg d1 "$D1" --arg d4 "$D4" '[.stages[].digest] == [$d1, $d4] and
		all(.stages[]; [.batches[].switches] == [["sw1", "sw2"], ["sw3", "sw4"]])' plan41.json
play -e tagger_plan=plan41.json
[ $rc != 0 ] || { cat play.out; fail "playbook v4 via v1 succeeded"; }
check "stopped in stage 1 at sw3" grep -qF "stopped at stage 1 on sw3:" play.out
want="sw4 (stage 1) -> $D1 sw3 (stage 1) -> $D1 sw2 (stage 1) -> $D1 sw1 (stage 1) -> $D1"
want+=" sw4 (stage 0) -> $D2 sw3 (stage 0) -> $D2 sw2 (stage 0) -> $D2 sw1 (stage 0) -> $D2"
check "rolled back: stage 1's switches to v1, then stage 0's to v2, each in reverse" \
	test "$(grep -o 'item=sw[0-9] (stage [01]) -> sha256:[0-9a-f]*' play.out | sed 's/^item=//' |
		paste -sd' ')" = "$want"
check "every switch at v2 again" all_at "$D2"
check "the rollback left no switch changed afterwards: a fresh v2 plan is empty" \
	bash -c "'$T' -j fabric plan inv v2.json | jq -e '[.stages[].batches[]] | length == 0' >/dev/null"
