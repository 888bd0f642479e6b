#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# switch update reads the attached rules as a patch of the new ones where
# only a few rules differ (model/rules_patch.h); TAGGER_UPDATE_FULL=1
# reads them whole. Two namespaces run the same switch D (8 ports, 7
# tags, with 8 neighbours in the rules for the union check), one updated
# the patch's way, the other the whole way, through the same random
# sequence of rule sets: a few rules changed (some of them refused by the
# union check), a tag or a neighbour's port added and removed, a port of
# D removed (refused), a change that closes a cycle (refused), the same
# rules again. After each step both must agree: exit code, update -j,
# show -j (rules, table, generation, digest) and the live table, entry by
# entry. The patch side must have taken the patch wherever only rules
# changed.
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd python3
require_cmd nsenter
require_cmd bpftool
source "$TOP/tests/shell/dp_lab.sh"

dp_bpffs_up
P="p0 p1 p2 p3 p4 p5 p6 p7"
# shellcheck disable=SC2086 # one word per port
dp_dummies SA $P
# shellcheck disable=SC2086
dp_dummies SB $P
ROOT_A=$DP_BPFFS/a
ROOT_B=$DP_BPFFS/b
tgr_on_exit "rm -rf $ROOT_A $ROOT_B"
# side A|B CMD...: tagger in side's namespace with its own pins; B whole.
side() {
	local s=$1
	shift
	if [ "$s" = A ]; then
		TAGGER_BPF_ROOT=$ROOT_A nsx SA "$TAGGER" "$@"
	else
		TAGGER_BPF_ROOT=$ROOT_B TAGGER_UPDATE_FULL=1 nsx SB "$TAGGER" "$@"
	fi
}

# The steps: step N's rules in s<N>.json, its kind in s<N>.kind (carry: a
# change later steps build on; probe: one they do not; what: a word).
python3 - "$TGR_TMP" <<'PY' || fail "making the steps"
import copy, json, random, sys
out = sys.argv[1]
rnd = random.Random(31)
ports = ["p%d" % i for i in range(8)]
tags = list(range(1, 8))
prio = lambda t: t  # tags only grow: the base is acyclic
up = lambda t: t + 1 if t < 7 else 0
def switch(ps, bounce):
    return {"ports": ps,
            "classify": [{"in": p, "tag": t, "priority": prio(t)} for p in ps for t in tags],
            "rewrite": [{"tag": t, "in": i, "out": o, "new_tag": up(t)}
                        for t in tags for i in ps for o in ps if i != o or (bounce and i == "x")]}
doc = {"format": "tagger-rules/1", "lossy": {"tag": 0, "priority": 0},
       "tags": [{"tag": t, "priority": prio(t)} for t in tags],
       "switches": {"D": switch(ports, False)},
       "links": [["D:p%d" % i, "N%d:x" % i] for i in range(8)]}
for i in range(8):
    doc["switches"]["N%d" % i] = switch(["x", "y"], True)
steps = []
def step(kind, what, d):
    steps.append((kind, what, copy.deepcopy(d)))
def rules(d, sw, table):
    return d["switches"][sw][table]
def value_change(d, safe):
    for _ in range(rnd.randint(1, 3)):
        sw = rnd.choice(["D"] * 3 + ["N%d" % i for i in range(8)])
        if safe or rnd.random() < 0.6:
            w = rnd.choice(rules(d, sw, "rewrite"))
            # unsafe: down, which may close a cycle
            w["new_tag"] = (rnd.choice([0] + [t for t in tags if t > w["tag"]])
                            if safe else rnd.randint(1, w["tag"]))
        else:
            c = rnd.choice(rules(d, sw, "classify"))
            c["priority"] = rnd.randint(1, 7)
step("carry", "base", doc)
for n in range(14):
    if n % 2:
        d = copy.deepcopy(doc)
        value_change(d, False)
        step("probe", "rules", d)
    else:
        value_change(doc, True)
        step("carry", "rules", doc)
doc["tags"].append({"tag": 8, "priority": 7})
for sw in doc["switches"].values():
    sw["classify"] += [{"in": p, "tag": 8, "priority": 7} for p in sw["ports"]]
step("carry", "tag-added", doc)
value_change(doc, True)
step("carry", "rules", doc)
doc["tags"].pop()
for sw in doc["switches"].values():
    sw["classify"] = [c for c in sw["classify"] if c["tag"] != 8]
step("carry", "tag-removed", doc)
n3 = doc["switches"]["N3"]
n3["ports"].append("z")
n3["classify"] += [{"in": "z", "tag": t, "priority": prio(t)} for t in tags]
step("carry", "port-added", doc)
n3["ports"].pop()
n3["classify"] = [c for c in n3["classify"] if c["in"] != "z"]
step("carry", "port-removed", doc)
d = copy.deepcopy(doc)
d["switches"]["D"]["ports"].pop()
d["switches"]["D"]["classify"] = [c for c in d["switches"]["D"]["classify"] if c["in"] != "p7"]
d["switches"]["D"]["rewrite"] = [w for w in d["switches"]["D"]["rewrite"]
                                 if "p7" not in (w["in"], w["out"])]
step("probe", "D-port-removed", d)
# D:p0's tag 5 sent back down to 2 toward N1: N1 bounces it as 3 to
# D:p1, which sends it as 4 to N0, which bounces it as 5 to D:p0.
d = copy.deepcopy(doc)
for w in rules(d, "D", "rewrite"):
    if (w["tag"], w["in"], w["out"]) == (5, "p0", "p1"):
        w["new_tag"] = 2
step("probe", "cycle", d)
step("probe", "same", doc)
value_change(doc, True)
step("carry", "rules", doc)
for k, (kind, what, d) in enumerate(steps):
    json.dump(d, open("%s/s%d.json" % (out, k), "w"))
    open("%s/s%d.kind" % (out, k), "w").write("%s %s\n" % (kind, what))
print(len(steps))
PY
nsteps=$(find "$TGR_TMP" -maxdepth 1 -name 's*.kind' | wc -l)

# live S FILE: side S's live table, its nonzero entries sorted.
live() {
	local root id
	root=$([ "$1" = A ] && echo "$ROOT_A" || echo "$ROOT_B")
	id=$(bpftool -j map lookup pinned "$root/D/tagger_rules" \
		key "$(($(side "$1" -j switch show D | dp_json 'd["generation"]') % 2))" 0 0 0 |
		dp_json 'int.from_bytes(bytes(int(x, 16) for x in d["value"]), "little")')
	bpftool -j map dump id "$id" | python3 -c '
import json, sys
print("\n".join("%s %s" % (e["key"], e["value"]) for e in json.load(sys.stdin)
                if any(int(x, 16) for x in e["value"])))' | sort >"$2"
}
# shown S: what side S's show -j says of the rules, not of its namespace.
shown() {
	side "$1" -j switch show D | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(json.dumps({k: d[k] for k in ("generation", "table", "rules", "rules_digest")}, sort_keys=True))'
}
# upd S FILE: update side S; prints "EXIT JSON" (timings dropped).
upd() {
	local o rc
	o=$(side "$1" -v -v -j switch update D "$2" 2>"$TGR_TMP/err$1")
	rc=$?
	echo "$rc $(echo "${o:-{\}}" | python3 -c '
import json, sys
d = json.load(sys.stdin)
for k in ("seconds", "swap_seconds"):
    d.pop(k, None)
print(json.dumps(d, sort_keys=True))')"
}

side A switch attach D "$TGR_TMP/s0.json" >/dev/null || fail "attach A"
side B switch attach D "$TGR_TMP/s0.json" >/dev/null || fail "attach B"
patched=0 refused=0 whole=0
for k in $(seq 1 $((nsteps - 1))); do
	read -r kind what <"$TGR_TMP/s$k.kind"
	"$TAGGER" switch pack "$TGR_TMP/s$k.json" -o "$TGR_TMP/s$k.trb" || fail "pack s$k"
	f=$TGR_TMP/s$k.trb
	[ $((k % 3)) -eq 0 ] && f=$TGR_TMP/s$k.json # JSON now and then
	a=$(upd A "$f")
	b=$(upd B "$f")
	[ "$a" = "$b" ] || fail "step $k ($kind $what): the patch's update says
  $a
the whole one's
  $b
$(cat "$TGR_TMP/errA")"
	if grep -q "the attached rules: the new ones with" "$TGR_TMP/errB"; then
		fail "step $k: TAGGER_UPDATE_FULL set, yet the rules were patched"
	fi
	if grep -q "the attached rules: the new ones with" "$TGR_TMP/errA"; then
		patched=$((patched + 1))
	else
		whole=$((whole + 1))
		# only rules changed: the patch must have been taken
		case $what in rules | cycle | same)
			fail "step $k ($what): only rules changed, yet the attached rules were read whole" ;;
		esac
	fi
	rc=${a%% *}
	case $what in
	D-port-removed) [ "$rc" = 2 ] || fail "step $k: a port of D removed: exit $rc, expected 2" ;;
	cycle) [ "$rc" = 1 ] || fail "step $k: a cycle: exit $rc, expected 1" ;;
	*) [ "$kind" = probe ] || [ "$rc" = 0 ] || fail "step $k ($what): exit $rc: $a $(grep -v "^phase" "$TGR_TMP/errA")" ;;
	esac
	[ "$rc" = 1 ] && refused=$((refused + 1))
	[ "$(shown A)" = "$(shown B)" ] || fail "step $k ($kind $what): show differs:
$(diff <(shown A | python3 -m json.tool) <(shown B | python3 -m json.tool) | head -20)"
	live A "$TGR_TMP/liveA"
	live B "$TGR_TMP/liveB"
	[ -s "$TGR_TMP/liveA" ] || fail "step $k: empty live table"
	cmp -s "$TGR_TMP/liveA" "$TGR_TMP/liveB" ||
		fail "step $k ($kind $what): the live tables differ: $(diff "$TGR_TMP/liveA" "$TGR_TMP/liveB" | head -5)"
done
[ "$refused" -ge 2 ] || fail "only $refused updates refused by the union check: the steps test too little"
[ "$patched" -ge 10 ] || fail "only $patched updates patched"
echo "ok: $((nsteps - 1)) steps, $patched read as a patch, $whole whole, $refused refused by the union check: exit codes, output, show and live tables equal"

# The rules' digest: the marking child keeps it in the live record's chunk
# 0 (magic, length, mark, the digest string, its CRC-32 with the length),
# and show reads it there: a digest written there (with its CRC) is what
# show says; one whose CRC is wrong is packed and hashed again.
last=$((nsteps - 1))
"$TAGGER" switch pack "$TGR_TMP/s$last.json" -o "$TGR_TMP/last.trb" || fail "pack the last step"
want=sha256:$(sha256sum "$TGR_TMP/last.trb" | cut -d' ' -f1)
digest() { side A -j switch show D | dp_json 'd["rules_digest"]'; }
head_digest() {	# head_digest [SET [SUM]]: print the kept digest; SET: write one
	python3 - "$ROOT_A/D/state" "$@" <<'PY2'
import json, subprocess, sys, time, zlib
st = sys.argv[1]
def head():
    d = json.loads(subprocess.check_output(
        ["bpftool", "-j", "map", "lookup", "pinned", st, "key", "0", "0", "0", "0"]))
    return bytearray(int(x, 16) for x in d["value"])
for _ in range(100):  # the child marks after a grace period
    h = head()
    if h[16]:
        break
    time.sleep(0.05)
if len(sys.argv) > 2:
    dg = sys.argv[2].encode().ljust(72, b"\0")
    h[16:88] = dg
    s = zlib.crc32(bytes(h[4:8]) + dg) ^ (len(sys.argv) > 3)
    h[88:92] = s.to_bytes(4, "little")
    subprocess.check_call(["bpftool", "map", "update", "pinned", st, "key", "0", "0", "0", "0",
                           "value"] + [str(b) for b in h])
print(h[16:88].rstrip(b"\0").decode())
PY2
}
kept=$(head_digest) || fail "reading the record's chunk 0"
[ "$kept" = "$want" ] || fail "the record keeps digest '$kept', the packed rules' is $want"
[ "$(digest)" = "$want" ] || fail "show: $(digest), expected $want"
fake=sha256:$(printf '%064d' 7)
head_digest "$fake" >/dev/null || fail "writing a digest"
[ "$(digest)" = "$fake" ] || fail "show does not read the digest from the record: $(digest)"
head_digest "$fake" badsum >/dev/null || fail "writing a digest"
[ "$(digest)" = "$want" ] || fail "a digest with a wrong CRC taken: $(digest)"
[ "$(side B -j switch show D | dp_json 'd["rules_digest"]')" = "$want" ] || fail "side B's digest"
echo "ok: the record keeps the rules' digest; show reads it, and hashes again if its CRC is wrong"
side A switch detach D >/dev/null || fail "detach A"
side B switch detach D >/dev/null || fail "detach B"
echo "PASS"
