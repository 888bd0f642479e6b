#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The in-place update (userspace/dataplane/dp_inplace.h): an update whose
# previous flip is known quiescent writes the idle table and the idle
# state record in place, with no write into an array of maps. Checked:
#  - the second update goes in place, and one right after it too (it
#    waits for the first one's grace period, the lock);
#  - the mark absent or of an older generation, or the live record's map
#    in both anchor slots: the update replaces the table instead, and
#    packets carry the new rules either way;
#  - a damaged compiled file is refused and changes nothing;
#  - another namespace is refused;
#  - killed at each of its rename, unlink and clone calls and at the bpf
#    calls of its in-place part that write, its child before it marks:
#    show names the rules packets get, the next update works;
#  - after random in-place updates the live table equals the one attach
#    builds from scratch from the same rules (map dumps).
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd python3
require_cmd nsenter
require_cmd strace
require_cmd bpftool
source "$TOP/tests/shell/dp_lab.sh"

dp_lab_ab
"$TAGGER" switch pack "$A" -o "$TGR_TMP/a.trb" || fail "pack A"
"$TAGGER" switch pack "$B" -o "$TGR_TMP/b.trb" || fail "pack B"
tgr S2 switch attach S2 "$A" >/dev/null || fail "attach S2"
start=$(date +%s)
ST=$TAGGER_BPF_ROOT/S2/state

# upd FILE: update S2, print whether it went in place.
upd() {
	local out
	out=$(tgr S2 -j switch update S2 "$@") || fail "update to $1"
	echo "$out" | dp_json 'str(d["in_place"]).lower()'
}
# want_place WANT WHAT FILE...: the update went in place (true) or not.
want_place() {
	local want=$1 what=$2 got
	shift 2
	got=$(upd "$@")
	[ "$got" = "$want" ] || fail "$what: in place $got, expected $want"
	dp_consistent "$what"
}

# 1. The first update replaces the table (the idle slot is empty after
# attach); from the second on they go in place, back to back.
want_place false "first update" "$TGR_TMP/b.trb"
want_place true "second update" "$TGR_TMP/a.trb"
want_place true "third update (JSON)" "$B"
want_place true "fourth update" "$TGR_TMP/a.trb"
echo "ok: updates after the first go in place, back to back: packets follow"

# The record's chunk 0: magic, length, then the mark (generation + 1).
# head_set QUIET: wait for the mark of the running generation (the last
# update's child), then write QUIET (generation + 1, 0: none) over it.
head_set() {
	python3 - "$ST" "$1" "$(dp_gen)" <<'PY' || fail "writing the record's head"
import json, subprocess, sys, time
st, quiet, gen = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def head():
    d = json.loads(subprocess.check_output(
        ["bpftool", "-j", "map", "lookup", "pinned", st, "key", "0", "0", "0", "0"]))
    return bytes(int(x, 16) for x in d["value"])
for _ in range(100):
    h = head()
    if int.from_bytes(h[8:16], "little") == gen + 1:
        break
    time.sleep(0.05)
else:
    sys.exit("no mark for generation %d" % gen)
h = h[:8] + quiet.to_bytes(8, "little") + h[16:]
subprocess.check_call(["bpftool", "map", "update", "pinned", st, "key", "0", "0", "0", "0",
                       "value"] + [str(b) for b in h])
PY
}
dp_gen() { tgr S2 -j switch show S2 | dp_json 'd["generation"]'; }

# 2. No mark (a child killed before it marked), or a stale one (of the
# generation before): the update replaces the table, and is correct.
head_set 0
want_place false "mark absent" "$TGR_TMP/b.trb"
want_place true "after the mark-absent update" "$TGR_TMP/a.trb"
head_set "$(dp_gen)" # generation - 1, + 1
want_place false "stale mark" "$TGR_TMP/b.trb"
want_place true "after the stale-mark update" "$TGR_TMP/a.trb"
# The live record's map in both anchor slots (an older tagger killed in
# its commit leaves that): rewriting "the other slot" would rewrite the
# live record; the update must replace it instead.
head_set $(($(dp_gen) + 1)) # the mark as it is, once it is there
for k in 0 1; do
	bpftool map update pinned "$TAGGER_BPF_ROOT/S2/anchor" key $k 0 0 0 value pinned "$ST" ||
		fail "anchor slot $k"
done
want_place false "one map in both anchor slots" "$TGR_TMP/b.trb"
want_place true "after the doubled anchor slot" "$TGR_TMP/a.trb"
echo "ok: mark absent or stale, or the live record in both slots: the table is replaced; the next update goes in place"

# 3. A damaged compiled file (one byte of its rules flipped) is refused
# before anything changes; another namespace is refused too.
python3 - "$TGR_TMP/b.trb" "$TGR_TMP/bad.trb" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[len(b) // 2] ^= 0x40
open(sys.argv[2], "wb").write(b)
PY
g=$(dp_gen)
out=$(tgr S2 switch update S2 "$TGR_TMP/bad.trb" 2>&1)
rc=$?
if [ $rc -ne 2 ] || ! echo "$out" | grep -q damaged; then
	fail "damaged file: exit $rc: $out"
fi
[ "$(dp_gen)" = "$g" ] || fail "damaged file: generation moved"
dp_consistent "after the damaged file"
out=$(tgr S1 switch update S2 "$TGR_TMP/b.trb" 2>&1)
rc=$?
[ $rc -eq 2 ] || fail "update from another namespace: exit $rc: $out"
[ "$(dp_gen)" = "$g" ] || fail "another namespace: generation moved"
want_place true "after the refusals" "$TGR_TMP/b.trb"
echo "ok: a damaged compiled file and another namespace are refused; nothing moved"

# 4. An in-place update killed at each of its rename, unlink and clone
# calls, at the first bpf call of its in-place part and at each bpf call
# there that writes (map updates, the batch, the pin: a kill between two
# reads leaves what a kill at the next write does; test_dataplane_crash.sh
# kills updates at every bpf call), and its child at its first dup2
# (before the grace period: no mark). strace counts calls per process.
# Before each, an update that goes in place (a second one if the first
# did not), so the mark is there and the killed one goes in place.
files=("$TGR_TMP/a.trb" "$TGR_TMP/b.trb")
ready() {
	[ "$(upd "${files[$(($1 % 2))]}")" = true ] ||
		[ "$(upd "${files[$((($1 + 1) % 2))]}")" = true ] || fail "kill $1: not in place before"
}
count() {
	ready 0
	nsx S2 strace -c -o "$TGR_TMP/count" -e trace=bpf,rename,unlink,clone \
		"$TAGGER" switch update S2 "${files[1]}" >/dev/null 2>&1
	awk -v s="$1" '$NF == s {print $4}' "$TGR_TMP/count"
}
# The bpf calls of the in-place part (after -v's "build the table"): the
# first one and those that write.
inplace_writes() {
	ready 0
	nsx S2 strace -o "$TGR_TMP/calls" -e trace=bpf,write \
		"$TAGGER" -v switch update S2 "${files[1]}" >/dev/null 2>&1
	awk '/^bpf/ { n++ } /phase build the table/ { on = 1; print n + 1; next }
		on && /^bpf\(BPF_(MAP_UPDATE|OBJ_PIN)/ { print n }' "$TGR_TMP/calls" | sort -un
}
kills=0
killed() {	# killed SYSCALL K: an in-place update killed at its Kth SYSCALL
	ready "$2"
	nsx S2 strace -f -o /dev/null -e trace="$1" -e inject="$1:signal=KILL:when=$2" \
		"$TAGGER" switch update S2 "${files[$(($2 % 2))]}" >/dev/null 2>&1
	dp_consistent "in-place update killed at $1 #$2"
	kills=$((kills + 1))
}
for sc in rename unlink clone bpf; do
	n=$(count $sc)
	[ "${n:-0}" -gt 0 ] || fail "no $sc calls counted"
	at=$(seq "$n")
	[ $sc = bpf ] && at=$(inplace_writes)
	[ -n "$at" ] || fail "no $sc calls to kill at"
	for k in $at; do killed $sc "$k"; done
	echo "ok: killed at its $sc calls $(echo "$at" | tr '\n' ' ')of $n: consistent ($(($(date +%s) - start)) s)"
done
killed dup2 1
echo "ok: its child killed before it marks: consistent"
# The child starts a thread for the grace period and keeps the rules'
# digest in the record meanwhile: killed at that thread's clone3 (no
# digest kept, no mark), show packs and hashes the rules itself.
killed clone3 1
sleep 0.5 # a child that was not killed has kept it by now
kept=$(bpftool -j map lookup pinned "$ST" key 0 0 0 0 | dp_json 'int(d["value"][16], 16)')
[ "$kept" = 0 ] || fail "child killed at its clone3 kept a digest: not killed there?"
got=$(tgr S2 -j switch show S2 | dp_json 'd["rules_digest"]')
[ "$got" = "sha256:$(sha256sum "${files[1]}" | cut -d' ' -f1)" ] ||
	fail "child killed before it kept the digest: show says $got"
echo "ok: its child killed before it keeps the digest: show hashes the rules itself"
upd "${files[0]}" >/dev/null
want_place true "after the kills" "${files[1]}"
echo "ok: $kills kills, $dp_checks packet checks; the next updates go in place"

# 5. Random in-place updates of a switch with 8 ports, then the live table
# against the one attach builds from the same rules: equal, entry by entry.
P="p0 p1 p2 p3 p4 p5 p6 p7"
# shellcheck disable=SC2086 # one word per port
dp_dummies R $P
python3 - "$TGR_TMP" <<'PY' || fail "random rules"
import json, random, sys
random.seed(17)
ports = ["p%d" % i for i in range(8)]
tags = list(range(1, 20))
for n in range(12):
    cls = [{"in": p, "tag": t, "priority": 1 + t % 7}
           for p in ports for t in tags if random.random() < 0.9]
    rw = [{"tag": t, "in": i, "out": o, "new_tag": random.choice([0] + tags)}
          for t in tags for i in ports for o in ports if i != o and random.random() < 0.8]
    r = {"format": "tagger-rules/1", "lossy": {"tag": 0, "priority": 0},
         "tags": [{"tag": t, "priority": 1 + t % 7} for t in tags],
         "switches": {"R": {"ports": ports, "classify": cls, "rewrite": rw}}}
    json.dump(r, open("%s/r%d.json" % (sys.argv[1], n), "w"))
PY
live_table() {
	local id
	id=$(bpftool -j map lookup pinned "$TAGGER_BPF_ROOT/R/tagger_rules" \
		key "$(($(tgr R -j switch show R | dp_json 'd["generation"]') % 2))" 0 0 0 |
		dp_json 'int.from_bytes(bytes(int(x, 16) for x in d["value"]), "little")')
	bpftool -j map dump id "$id" | python3 -c '
import json, sys
print("\n".join("%s %s" % (e["key"], e["value"]) for e in json.load(sys.stdin)
                if any(int(x, 16) for x in e["value"])))' | sort >"$1"
}
tgr R switch attach R "$TGR_TMP/r0.json" >/dev/null || fail "attach R"
places=0
for n in $(seq 1 11); do
	"$TAGGER" switch pack "$TGR_TMP/r$n.json" -o "$TGR_TMP/r$n.trb" || fail "pack r$n"
	out=$(tgr R -j switch update R "$TGR_TMP/r$n.trb" --force 2>/dev/null) || fail "update R to r$n"
	[ "$(echo "$out" | dp_json 'd["in_place"]')" = True ] && places=$((places + 1))
done
[ $places -eq 10 ] || fail "$places of 11 random updates in place, expected 10"
live_table "$TGR_TMP/inplace.table"
tgr R switch detach R >/dev/null || fail "detach R"
tgr R switch attach R "$TGR_TMP/r11.json" >/dev/null || fail "attach R to r11"
live_table "$TGR_TMP/scratch.table"
[ -s "$TGR_TMP/scratch.table" ] || fail "empty table from scratch"
cmp -s "$TGR_TMP/inplace.table" "$TGR_TMP/scratch.table" ||
	fail "after 10 in-place updates the table differs from one built from scratch: $(diff "$TGR_TMP/inplace.table" "$TGR_TMP/scratch.table" | head -5)"
echo "ok: after 10 random in-place updates the table equals attach's ($(wc -l <"$TGR_TMP/scratch.table") entries)"
tgr R switch detach R >/dev/null || fail "detach R"
echo "PASS ($(($(date +%s) - start)) s)"
