#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tagger fabric and the Ansible rollout on a k = 4 fat-tree lab (20
# switches, 16 hosts; fabric_k4_lab.sh) reached the way a fabric is: an
# sshd in every switch namespace, listening only on the switch's address
# on the lab's management network, keys made for this run; the controller
# (tagger fabric, ansible-playbook) in the management namespace with an
# ssh inventory. Rules v1 (up-down paths) on every switch and host, a
# pause agent on every node, lossless flows under congestion (two into
# h16, one across the spines), then:
#   - status: one version; the playbook rolls out v2 (v1 plus the 1-bounce
#     paths, a second priority) in batches of four: 0 lossless drops (the
#     agents' counters), no packet demoted to lossy (the data plane's), no
#     flow stopped, every switch at v2, the live union checked after every
#     batch (the playbook's own check, and a poller of fabric status);
#   - v1 again, the rollout killed after two batches: status shows both
#     versions and their union's verdict; the old plan is stale; a new plan
#     moves only the rest, and running it completes the rollout;
#   - v3, which L5 refuses (a port it lacks): the playbook stops in L5's
#     batch and every switch it touched runs v2 again;
#   - v4 (v2's tags on each other's priorities): its union with v2 is
#     cyclic, plan refuses naming the cycle; staged through v4 without
#     lossless classes, every batch's live union is checked acyclic;
#   - errors: a stale plan (nothing changes), a switch whose sshd is down
#     (status and plan name it, exit 3; mid-rollout: reported, the touched
#     switches rolled back), a host at another switch's address.
# Cost on this machine (2 shared cores, load 2-3): the lab with data
# plane, 36 agents and 20 sshds is up in about 10 s; status by ssh takes
# 4-5 s with ssh's connection sharing (41 commands), a batch of the
# playbook 10-35 s (measurements.md). The traffic is light (2 x 6 Mbit/s
# into h16 on 10 Mbit/s links: at 60 on 100 the rollout alone took 330
# s) and ends before the error cases; the run takes 7-9 minutes at a load
# of 2-16 on this machine, too long for every make test: it is one of
# CI's slow tests (.ci/run runs tests/shell/slow_*.sh after make test),
# each part a case of issue 29 that no other test covers by ssh on 20
# switches. The 4-switch ring of test_fabric_ansible.sh covers the
# playbook in make test.
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd ansible-playbook
require_cmd jq
require_cmd python3
require_cmd sha256sum
require_cmd ssh
[ -x "${SSHD:-/usr/sbin/sshd}" ] || skip "needs sshd (Debian's openssh-server)"
source "$TOP/tests/shell/fabric_k4_lab.sh"
source "$TOP/vmlab/scenario.sh"
k4_lab_up
cd "$TGR_TMP" || exit 1
T=$TAGGER
START=$SECONDS

# Rule sets of the one topology (the links are the same).
"$T" compile ft4.topo up.elp -o v1.json 2>/dev/null || fail "compile v1"
"$T" paths bounce=1 ft4.topo -o b1.elp || fail "paths bounce=1"
"$T" compile ft4.topo b1.elp -o v2.json 2>/dev/null || fail "compile v2"
python3 - <<'PY' || fail "making v3, v4 and off4"
import json
v1 = json.load(open("v1.json"))
v2 = json.load(open("v2.json"))
# v3: v1, but L2's rules name a port eth9 that L2 lacks: L2 refuses it.
v1["switches"]["L2"]["ports"].append("eth9")
json.dump(v1, open("v3.json", "w"))
# v4: v2 with its two priorities swapped. Each alone is deadlock-free;
# a packet that meets both (one switch on each) mixes the up-down and the
# bounced paths in one priority.
swap = {1: 2, 2: 1}
for t in v2["tags"]:
    t["priority"] = swap.get(t["priority"], t["priority"])
for s in v2["switches"].values():
    for c in s["classify"]:
        c["priority"] = swap.get(c["priority"], c["priority"])
json.dump(v2, open("v4.json", "w"))
for s in v2["switches"].values():
    s["classify"] = []
json.dump(v2, open("off4.json", "w"))
PY
digest_of() { "$T" switch pack "$1" -o "$1.trb" && echo "sha256:$(sha256sum <"$1.trb" | cut -d' ' -f1)"; }
D1=$(digest_of v1.json) && D2=$(digest_of v2.json) &&
	D4=$(digest_of v4.json) && DOFF=$(digest_of off4.json) || fail "packing"

# The data plane (v1), agents for both priorities, sshds, inventories.
# The watchdog reports a queue paused for 2 s (its default, 200 ms,
# fired 13 times at a load of 16, the agents starved, while every flow
# moved): a deadlock holds for good, and flows_ok checks every flow moves.
SC_PFC_OPTS="--watchdog-ms 2000" SC_RATE=10mbit k4_dataplane "$TGR_TMP/v1.json" 1,2
k4_sshd_up $K4_SW
k4_inventory >inv.ini
echo "ok: lab, data plane, $(wc -w <<<"$K4_SW") sshds up in $((SECONDS - START)) s"
n_listen=0
for s in $K4_SW; do
	got=$(lab_exec "$s" ss -Hltn | awk '{ print $4 }' | tr '\n' ' ')
	[ "$got" = "$(k4_addr "$s"):22 " ] || fail "$s listens on: $got"
	n_listen=$((n_listen + 1))
done
echo "ok: each of the $n_listen sshds listens on its management address only"
ss -Hltnp | grep -q "\"sshd\"" && fail "an sshd listens in this machine's namespace"
echo "ok: none in this machine's network namespace"

# Ansible: its state in the test's directory, the collection from the tree.
export ANSIBLE_HOME=$TGR_TMP/ansible-home ANSIBLE_LOCAL_TEMP=$TGR_TMP/ansible-tmp
export ANSIBLE_REMOTE_TEMP=$TGR_TMP/ansible-remote
export ANSIBLE_COLLECTIONS_PATH=$TGR_TMP/coll ANSIBLE_NOCOLOR=1 ANSIBLE_PIPELINING=1
export ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_DEPRECATION_WARNINGS=0
export ANSIBLE_LOCALHOST_WARNING=0 ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3
export ANSIBLE_HOST_KEY_CHECKING=1
mkdir -p coll/ansible_collections && ln -s "$TOP/ansible/tagger" coll/ansible_collections/tagger

jqt() { jq -e "$@" >/dev/null; }
# st [INVENTORY]: fabric status -j (as the controller) into st.json, $rc.
st() { ctl "$T" -j fabric status "${1:-inv.ini}" >st.json 2>st.err; rc=$?; }
# digests: "SW=DIGEST ..." in inventory order.
digests() { ctl "$T" -j fabric status inv.ini | jq -r '[.switches[] | "\(.name)=\(.rules_digest)"] | join(" ")'; }
all_at() { [ "$(digests)" = "$(for s in $K4_SW; do printf '%s=%s ' "$s" "$1"; done | sed 's/ $//')" ]; }
# play PLAN [ARGS...]: the rollout playbook as the controller; play.out, $rc.
play() {
	local p=$1
	shift
	ctl ansible-playbook -i inv.ini tagger.fabric.rollout -e "tagger_plan=$p" \
		-e "tagger_controller=$T" -e "tagger_rollout_dir=$TGR_TMP/rollout" "$@" >play.out 2>&1
	rc=$?
}
batches_run() { grep -c '^TASK \[the live versions are the batch' play.out; }

# The traffic: h1 and h5 into h16 at 6 Mbit/s each on links of 10
# (h16's link is the bottleneck: pauses climb T8, the leaves, the
# spines), h9 -> h2 across at 3. At 60 on links of 100 the forwarding
# and the agents took both cores and the rollout of v2 330 s.
SC_FLOWS="1 h1 h16 6
2 h5 h16 6
3 h9 h2 3"
SC_SIZE=1000
: >"$SC_DIR/events.tsv"
sc_start_flows
# flows_ok WHAT: every flow received in its last second; no lossless drop
# (the agents), no packet demoted to lossy (the data plane), no watchdog.
flows_ok() {
	local n w lossy
	sleep 1
	for h in h16 h2; do
		tail -n 30 "$SC_DIR/rx-$h.json" | jq -s --argjson t "$(date +%s.%N)" \
			'[group_by(.flow)[] | map(select(.final | not)) | .[-10:] | map(.pkts) | add] | all(. > 0)' |
			grep -qx true || fail "$1: a flow into $h stopped: $(tail -n 3 "$SC_DIR/rx-$h.json")"
	done
	sc_pause_collect
	n=$(jq '.lossless_drops' "$SC_DIR/pfc.json") w=$(jq '.watchdog_events' "$SC_DIR/pfc.json")
	[ "$n" = 0 ] || fail "$1: $n lossless drops: $(cat "$SC_DIR/pfc.json")"
	[ "$w" = 0 ] || fail "$1: $w pause watchdog events"
	lossy=0
	for s in $K4_SW; do
		lossy=$((lossy + $(lab_exec "$s" "$T" -j switch show "$s" |
			jq '[.ports[].lossy | del(.multicast) | .[]] | add')))
	done
	[ "$lossy" = 0 ] || fail "$1: $lossy packets demoted to lossy by the data plane"
	echo "ok: $1: every flow moving, 0 lossless drops, 0 demoted to lossy, $(jq .pauses_sent "$SC_DIR/pfc.json") pauses sent so far"
}
flows_ok "v1, traffic started"

# One version.
st
[ $rc = 0 ] || { cat st.err; fail "status: exit $rc"; }
check "status: one version (v1's digest) on all 20, by ssh, agents healthy" \
	jqt --arg d "$D1" '(.versions | length) == 1 and .versions[0].digest == $d and
		(.versions[0].switches | length) == 20 and .union.acyclic and
		all(.switches[]; .status == "ok" and (.transport | startswith("ssh:")) and .agent.healthy)' st.json

"$T" -j fabric status "$LAB_STATE/inventory" >stn.json || fail "status, vmlab's inventory"
check "vmlab's inventory (a namespace a switch): the same switches and digests" \
	test "$(jq -c '[.switches[] | [.name, .rules_digest]]' stn.json)" = \
	"$(jq -c '[.switches[] | [.name, .rules_digest]]' st.json)"

# v2 under traffic, batches of five, with a poller of fabric status; the
# playbook killed (the whole process group) as its third batch starts.
poll() {
	while :; do
		ctl "$T" -j fabric status inv.ini 2>/dev/null |
			jq -c '{n: (.versions | length), acyclic: .union.acyclic}' >>"$1"
	done
}
ctl "$T" fabric plan inv.ini v2.json --batch-size 5 -o plan2.json >/dev/null || fail "plan v2"
poll poll.jsonl &
poller=$!
bg_track $poller
t0=$SECONDS
setsid bash -c "$(declare -f ctl); $(declare -p K4_MGMT K4_HOME K4_ROOT_HOME); "'
	ctl ansible-playbook -i inv.ini tagger.fabric.rollout -e tagger_plan=plan2.json \
		-e tagger_controller="$0" -e tagger_rollout_dir="$1/rollout"' "$T" "$TGR_TMP" \
	>play.out 2>&1 &
pb=$!
bg_track $pb
for _ in $(seq 1200); do
	[ "$(grep -c '^PLAY \[tagger rollout - stage 0\]' play.out)" -ge 3 ] && break
	kill -0 $pb 2>/dev/null || { cat play.out; fail "the playbook ended before its third batch"; }
	sleep 0.25
done
kill -KILL -- -$pb
wait $pb 2>/dev/null
echo "ok: the playbook killed as its third batch started, after $((SECONDS - t0)) s"
sleep 2 # what a killed module ran on a switch ends
st
[ $rc = 0 ] || { cat st.err; fail "status after the kill: exit $rc"; }
check "halfway: two versions, v2 on S1-S4 L1-L6 (at least), v1 on the rest, union deadlock-free" \
	jqt --arg d1 "$D1" --arg d2 "$D2" '(.versions | length) == 2 and .union.acyclic and
		([.versions[].digest] | sort) == ([$d1, $d2] | sort) and
		([.switches[0:10][] | .rules_digest] | all(. == $d2)) and
		([.switches[15:][] | .rules_digest] | all(. == $d1))' st.json
ctl "$T" fabric status inv.ini >st.txt
check "plain status: the verdict of the union of both" grep -q "union of 2 version(s): deadlock-free" st.txt
ctl "$T" fabric plan --check plan2.json inv.ini >chk.txt
rc=$?
[ $rc = 1 ] && grep -q "plan2.json is stale: switch S1" chk.txt || fail "the killed run's plan: exit $rc: $(cat chk.txt)"
echo "ok: the killed run's plan is stale"
ctl "$T" fabric plan inv.ini v2.json --batch-size 5 -o plan2b.json >/dev/null || fail "plan v2 again"
rest=$(jq -r '[.stages[].batches[].switches[]] | join(" ")' plan2b.json)
check "the new plan moves only the switches still at v1 ($rest)" \
	jqt --arg d1 "$D1" --slurpfile s st.json '[.stages[].batches[].switches[]] ==
		[$s[0].switches[] | select(.rules_digest == $d1) | .name]' plan2b.json
play plan2b.json
kill $poller
wait $poller 2>/dev/null
[ $rc = 0 ] || { cat play.out; fail "rollout v2, again: exit $rc"; }
echo "ok: rollout v2 completed: $((SECONDS - t0)) s in all, $(batches_run) batches checked by the playbook"
check "every switch at v2" all_at "$D2"
check "the poller saw $(wc -l <poll.jsonl) states, each with an acyclic union" \
	jqt -s 'length > 0 and all(.[]; .acyclic and .n <= 2)' poll.jsonl
flows_ok "after the rollout of v2"

# v3: L2 refuses it (batch 2 of 5 switches): the playbook stops there and
# every switch it touched, in batches 1 and 2, runs v2 again.
gens() { ctl "$T" -j fabric status inv.ini | jq -r '[.switches[] | "\(.name)=\(.generation)"] | join(" ")'; }
g0=$(gens)
ctl "$T" fabric plan inv.ini v3.json --batch-size 5 -o plan3.json >/dev/null || fail "plan v3"
t0=$SECONDS
play plan3.json
[ $rc != 0 ] || { cat play.out; fail "the rollout of v3 succeeded"; }
cp play.out play3.out
echo "ok: the rollout of v3 stopped after $((SECONDS - t0)) s"
check "stopped at L2 with tagger's message" \
	grep -q "tagger rollout stopped at stage 0 on L2: .*other ports than the attached rules" play.out
rolled=$(grep -o 'item=[A-Z][0-9] (stage 0) -> sha256:[0-9a-f]*' play.out | sed 's/^item=//; s/ (stage 0) -> /=/' | paste -sd' ')
check "rolled back in reverse, each to v2: L6 L5 L4 L3 L2 (unchanged) L1 S4 S3 S2 S1" \
	test "$(echo "$rolled" | sed "s/=$D2//g")" = "L6 L5 L4 L3 L2 L1 S4 S3 S2 S1"
check "every switch at v2 again" all_at "$D2"
g1=$(gens)
check "the switches after L6 never changed (their generations)" \
	test "$(echo "$g0" | cut -d' ' -f11-)" = "$(echo "$g1" | cut -d' ' -f11-)"
flows_ok "after the refused rollout of v3"

# v4: its union with v2 is cyclic. plan refuses it, naming the cycle.
ctl "$T" fabric plan inv.ini v4.json >refused.txt 2>&1
rc=$?
[ $rc = 1 ] || { cat refused.txt; fail "plan v4: exit $rc, not 1"; }
check "the refusal shows the cycle" grep -q "CYCLIC buffer dependency" refused.txt
ctl "$T" -j fabric plan inv.ini v4.json >refused.json
check "-j: a cycle of $(jq '.union.cycle | length' refused.json) edges through both versions' rules" \
	jqt --arg d2 "$D2" --arg d4 "$D4" '.refused and (.union.cycle | length) > 1 and
		([.union.cycle[].rules] | unique | sort) == ([$d2, $d4] | sort)' refused.json
# Staged through off4 (v4 without lossless classes), batches of ten,
# applied by an engine of ssh commands (a batch's switches at once), the
# live union checked after every batch. While a switch runs off4 its
# traffic is lossy: drops then are lossy ones, never lossless.
ctl "$T" fabric plan inv.ini v4.json --via off4.json --batch-size 10 -o plan4.json >/dev/null ||
	fail "plan v4 via off4"
check "plan v4 via off4: off4 then v4, two batches each" \
	jqt --arg d4 "$D4" --arg off "$DOFF" '[.stages[].digest] == [$off, $d4] and
		all(.stages[]; (.batches | length) == 2)' plan4.json
n=0
while read -r rules live sws; do
	ups=()
	for s in $sws; do
		ctl ssh "$(k4_addr "$s")" "$T" switch update "$s" "$rules" </dev/null >"upd-$s.out" 2>&1 &
		ups+=($!)
	done
	wait "${ups[@]}" || fail "an update of batch $((n + 1)) failed: $(cat upd-*.out)"
	n=$((n + 1))
	st
	[ $rc = 0 ] || { cat st.err; fail "status after batch $n: exit $rc"; }
	jqt --arg live "$live" '.union.acyclic and
		([.versions[].digest] - ($live | split(",")) | length) == 0' st.json ||
		fail "batch $n: the live union is not the planned, acyclic one: $(jq -c .union st.json)"
	echo "ok: after batch $n (${rules##*/} on $(wc -w <<<"$sws") switches): $(jq -r '.versions | length' st.json) version(s) live, the planned ones, union deadlock-free"
done < <(jq -r '.stages[] | .rules as $r | .batches[] | "\($r) \(.live | join(",")) \(.switches | join(" "))"' plan4.json)
[ $n = 4 ] || fail "$n batches applied, not 4"
check "every switch at v4" all_at "$D4"
sc_pause_collect
check "0 lossless drops through the staged rollout ($(jq .lossy_drops "$SC_DIR/pfc.json") lossy drops while off4 ran)" \
	jqt '.lossless_drops == 0' "$SC_DIR/pfc.json"

flows_end() {
	local h
	sc_stop_senders
	sleep 1
	sc_stop_receivers
	for h in h16 h2; do
		jq -c 'select(.final)' "$SC_DIR/rx-$h.json"
	done
}
# The traffic ends here: the errors below need none, and it costs the
# playbook half its speed.
echo "ok: the flows' totals: $(flows_end | jq -sc 'map({flow, rx, lost})')"

# Errors. A stale plan: nothing changes.
ctl "$T" fabric plan inv.ini off4.json --batch-size 10 -o plan5.json >/dev/null || fail "plan off4"
ctl ssh "$(k4_addr T8)" "$T" switch update T8 "$TGR_TMP/off4.json" >/dev/null 2>&1 || fail "T8 to off4 by hand"
g0=$(gens)
play plan5.json
[ $rc != 0 ] && grep -q "plan5.json is stale: switch T8" play.out ||
	{ cat play.out; fail "a stale plan was not refused (exit $rc)"; }
check "a stale plan refused before any switch changed" test "$(gens)" = "$g0"
ctl ssh "$(k4_addr T8)" "$T" switch update T8 "$TGR_TMP/v4.json" >/dev/null 2>&1 || fail "T8 back to v4"

# A switch whose sshd is down: status and plan name it, exit 3.
k4_sshd_down T8
st
[ $rc = 3 ] || fail "a switch unreachable: exit $rc, not 3"
check "T8 unreachable, named, the 19 others reported" \
	jqt '(.switches[19] | .name == "T8" and .status == "unreachable" and (.error | length > 0)) and
		([.switches[0:19][] | .status] | all(. == "ok"))' st.json
ctl "$T" fabric status inv.ini >/dev/null 2>st.err
grep -q "Error: T8 (switch T8): " st.err || fail "plain: no error line for T8: $(cat st.err)"
echo "ok: plain status: $(grep T8 st.err | head -1)"
ctl "$T" fabric plan inv.ini off4.json >/dev/null 2>st.err
rc=$?
[ $rc = 3 ] && grep -q "not complete: no plan is made" st.err ||
	fail "plan from an incomplete state: exit $rc: $(cat st.err)"
echo "ok: no plan from an incomplete state (exit 3)"
k4_sshd_up T8

# Unreachable as the rollout runs: S3's sshd as Ansible sees it is gone
# (the playbook's inventory gives another port; the fresh-plan check
# reads the good one). Before, the batches after S3's ran on and the
# rollout ended half-applied; now it stops there and no switch changes.
ctl "$T" fabric plan inv.ini off4.json --batch-size 5 -o plan6.json >/dev/null || fail "plan off4 (6)"
sed 's/^S3 ansible_host=[^ ]*/& ansible_port=2/' inv.ini >inv_s3.ini
g0=$(gens)
ctl ansible-playbook -i inv_s3.ini tagger.fabric.rollout -e tagger_plan=plan6.json \
	-e "tagger_inventory=$TGR_TMP/inv.ini" -e "tagger_controller=$T" \
	-e "tagger_rollout_dir=$TGR_TMP/rollout" >play.out 2>&1
rc=$?
[ $rc != 0 ] || { cat play.out; fail "a rollout with S3 unreachable succeeded"; }
check "the rollout stopped (exit $rc) naming S3 unreachable" grep -q "^fatal: \[S3\]: UNREACHABLE" play.out
check "no switch changed (their generations)" test "$(gens)" = "$g0"

# A host at another switch's address: tagger there refuses (exit 2).
sed "s/^L3 ansible_host=[^ ]*/L3 ansible_host=$(k4_addr L4)/" inv.ini >inv_l3.ini
st inv_l3.ini
[ $rc = 2 ] || fail "a switch reached at another's address: exit $rc, not 2"
check "refused, saying why: $(jq -r '.switches[] | select(.name == "L3") | .error' st.json)" \
	jqt '[.switches[] | select(.status != "ok") | .name] == ["L3"] and
		(.switches[] | select(.name == "L3") | .status == "refused")' st.json
# An inventory with a switch the rules lack: refused before any command.
{ cat inv.ini; echo "[extra]"; echo "X9 ansible_host=192.0.2.1"; } >inv_x9.ini
ctl "$T" fabric plan inv_x9.ini v4.json >/dev/null 2>st.err
rc=$?
[ $rc = 2 ] && grep -q 'v4.json: no switch "X9" (inv_x9.ini:' st.err ||
	fail "rules without an inventory switch: exit $rc: $(cat st.err)"
echo "ok: rules that lack an inventory switch: exit 2, both named"

echo "ok: the whole run took $((SECONDS - START)) s"
