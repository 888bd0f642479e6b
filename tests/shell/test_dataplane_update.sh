#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Live update and restart on the line lab (dp_lab.sh).
#
# Rule sets A and B differ at S2 only: A keeps the tag T that h1 starts
# with on S2 -> S3, B rewrites it to a new tag U; S3 knows both. While h1
# streams to h2, S2 is swapped between them 100 times. Every packet must
# reach h2 (none dropped by a swap) with T or U (one rule set each, never a
# mix: a mix or an empty table would show as the lossy tag), and both must
# occur; every other update reads B compiled (switch pack). Then the
# loader is killed in the middle of an update: traffic is
# still tagged, a new process updates and reads the same counters.
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd python3
require_cmd nsenter
source "$TOP/tests/shell/dp_lab.sh"

dp_lab_ab
echo "rule sets: A keeps tag $T on S2 -> S3, B rewrites it to $U"
for n in S1 S2 S3; do tgr "$n" switch attach "$n" "$A" >/dev/null || fail "attach $n"; done
"$TAGGER" switch pack "$B" -o "$TGR_TMP/b.trb" || fail "pack B"

# 100 swaps while h1 streams 1000 packets/s to h2.
dp_sniff S3 l 5000 S2-S3
dp_sniff h2 eth0 5000 S3-h2
nsenter --net="/run/netns/$(ns_name h1)" \
	python3 "$DP_UDP" send 10.0.2.1 5000 $((T << 2)) 1000000 1000 "$TGR_TMP/sent" &
sender=$!
sleep 0.5
start=$(date +%s.%N)
for i in $(seq 50); do
	tgr S2 switch update S2 "$TGR_TMP/b.trb" >/dev/null || fail "update $((2 * i - 1)) to B (compiled)"
	tgr S2 switch update S2 "$A" >/dev/null || fail "update $((2 * i)) to A"
done
secs=$(echo "$(date +%s.%N) - $start" | bc)
sleep 0.3
kill "$sender"
wait "$sender"
sleep 0.3
dp_sniff_stop
sent=$(cat "$TGR_TMP/sent")
echo "100 updates in $secs s while $sent packets were sent"
gen=$(tgr S2 -j switch show S2 | dp_json 'd["generation"]')
[ "$gen" -eq 100 ] || fail "generation $gen after 100 updates"
for f in S2-S3 S3-h2; do
	got=$(awk '{print $1}' "$TGR_TMP/$f" | sort -un | wc -l)
	[ "$got" -eq "$sent" ] || fail "$f: $got of $sent packets arrived"
	tags=$(awk '{print int($2 / 4)}' "$TGR_TMP/$f" | sort -n | uniq -c | tr '\n' ' ')
	bad=$(awk -v t="$T" -v u="$U" 'int($2 / 4) != t && int($2 / 4) != u' "$TGR_TMP/$f" | wc -l)
	[ "$bad" -eq 0 ] || fail "$f: $bad packets with neither rule set's tag: $tags"
	nt=$(awk -v t="$T" 'int($2 / 4) == t' "$TGR_TMP/$f" | wc -l)
	nu=$(awk -v u="$U" 'int($2 / 4) == u' "$TGR_TMP/$f" | wc -l)
	[ "$nt" -gt 0 ] && [ "$nu" -gt 0 ] || fail "$f: not both rule sets seen: $tags"
	echo "ok: $f: all $sent packets, tags (count tag): $tags"
done

# The union check refuses an update that could deadlock while switches
# change over: C sends tag T from S3 back up to S2 as the tag S2 forwards to S3.
python3 - "$A" "$TGR_TMP/c.json" <<'PY' || fail "making rule set C"
import json, sys
r = json.load(open(sys.argv[1]))
t = r["hosts"]["h1"]["tag"]
p = {x["tag"]: x["priority"] for x in r["tags"]}[t]
s2, s3 = r["switches"]["S2"], r["switches"]["S3"]
s2["classify"] = [{"in": "*", "tag": t, "priority": p}]
s2["rewrite"] = [{"tag": t, "in": "*", "out": "*", "new_tag": t}]
s3["classify"] = [{"in": "*", "tag": t, "priority": p}]
s3["rewrite"] = [{"tag": t, "in": "*", "out": "*", "new_tag": t}]
json.dump(r, open(sys.argv[2], "w"))
PY
tgr S2 switch update S2 "$TGR_TMP/c.json" 2>"$TGR_TMP/refused"
rc=$?
[ $rc -eq 1 ] || { cat "$TGR_TMP/refused"; fail "cyclic union: exit $rc, not 1"; }
grep -q "cyclic buffer dependency" "$TGR_TMP/refused" || fail "no cycle shown"
sed 's/^/    /' "$TGR_TMP/refused"
[ "$(tgr S2 -j switch show S2 | dp_json 'd["generation"]')" -eq 100 ] ||
	fail "a refused update changed the generation"
echo "ok: the union check refuses a cyclic update (exit 1) and keeps the rules"

# Restart: kill a loader in the middle of an update, then use a new one.
lossless_in() {
	tgr S3 -j switch show S3 | dp_json 'sum(c["packets"] for p in d["ports"] if p["port"] == "l" for c in p["in"] if c["lossless"])'
}
tgr S2 switch update S2 "$B" >/dev/null &
pid=$!
sleep 0.005
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
c0=$(lossless_in)
[ "$c0" = "$(lossless_in)" ] || fail "two show processes read different counters"
dp_sniff h2 eth0 5000 restart
nsx h1 python3 "$DP_UDP" send 10.0.2.1 5000 $((T << 2)) 200 2000
sleep 0.3
dp_sniff_stop
bad=$(awk -v t="$T" -v u="$U" 'int($2 / 4) != t && int($2 / 4) != u' "$TGR_TMP/restart" | wc -l)
got=$(wc -l < "$TGR_TMP/restart")
[ "$got" -eq 200 ] && [ "$bad" -eq 0 ] || fail "after the kill: $got of 200 packets, $bad untagged"
c1=$(lossless_in)
[ $((c1 - c0)) -eq 200 ] || fail "S3 counted $((c1 - c0)) lossless packets, not 200"
echo "ok: after killing a loader: 200 packets tagged, a new show counts them ($c0 -> $c1)"
tgr S2 switch update S2 "$A" >/dev/null || fail "update after the kill (lock left behind?)"
echo "ok: a new loader updates after the kill"

# Concurrent loaders queue on the lock: four updates at once, four
# generations, every one reported live.
g0=$(tgr S2 -j switch show S2 | dp_json 'd["generation"]')
pids=()
for f in "$B" "$A" "$B" "$A"; do
	tgr S2 -j switch update S2 "$f" > "$TGR_TMP/par-${#pids[@]}" &
	pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || fail "a concurrent update failed"; done
g1=$(tgr S2 -j switch show S2 | dp_json 'd["generation"]')
gens=$(cat "$TGR_TMP"/par-* | dp_json_lines 'd["generation"]' | sort -n | tr '\n' ' ')
[ $((g1 - g0)) -eq 4 ] || fail "4 concurrent updates moved the generation from $g0 to $g1"
[ "$gens" = "$((g0 + 1)) $((g0 + 2)) $((g0 + 3)) $((g0 + 4)) " ] ||
	fail "concurrent updates reported generations $gens"
echo "ok: 4 concurrent updates serialised: generations $gens"

# -v names where an update's time goes; the state keeps the rules, not the
# JSON document: show prints them back as the file gives them.
tgr S2 -v switch update S2 "$B" 2>"$TGR_TMP/phases" >/dev/null || fail "update -v"
# Replacing the table, or (the previous flip quiescent) in place.
stage="stage the table, save the new state"
grep -q "^phase write the idle table in place " "$TGR_TMP/phases" &&
	stage="write the idle record in place"
for p in "read and check the rules" "union: links, the attached rules" "union: the check" \
	"$stage" "swap (generation)" "commit the state"; do
	grep -q "^phase $p  *[0-9.]* ms wall  *[0-9.]* ms CPU" "$TGR_TMP/phases" ||
		fail "-v: no phase \"$p\": $(cat "$TGR_TMP/phases")"
done
if command -v bpftool >/dev/null; then
	json_rules=$(bpftool -j map dump pinned "$TAGGER_BPF_ROOT/S2/state" | python3 -c '
import json, sys
d = json.load(sys.stdin)
t = b"".join(bytes(int(x, 16) for x in e["value"]) for e in d)
print(b"\"new_tag\"" in t)')
	[ "$json_rules" = False ] || fail "the state holds the rules as JSON ($json_rules)"
fi
[ "$(tgr S2 -j switch show S2 | dp_json 'json.dumps(d["rules"], sort_keys=True)')" = \
	"$(dp_json 'json.dumps(d["switches"]["S2"], sort_keys=True)' < "$B")" ] ||
	fail "show: the rules read back from the state differ from $B's"
echo "ok: -v phases; the state keeps the rules in compact form, show reads them back"

# Compiled rules that are damaged, truncated, of another version or not
# compiled rules at all are refused (exit 2, saying what is wrong) and
# change nothing; the same file whole updates.
g0=$(tgr S2 -j switch show S2 | dp_json 'd["generation"]')
"$TAGGER" switch pack "$A" -o "$TGR_TMP/a.trb" || fail "pack A"
size=$(stat -c %s "$TGR_TMP/a.trb")
head -c $((size - 1)) "$TGR_TMP/a.trb" > "$TGR_TMP/short.trb"
cp "$TGR_TMP/a.trb" "$TGR_TMP/flip.trb"
printf '\xff' | dd of="$TGR_TMP/flip.trb" bs=1 seek=$((size - 3)) conv=notrunc 2>/dev/null
cp "$TGR_TMP/a.trb" "$TGR_TMP/v9.trb"
printf '\x09' | dd of="$TGR_TMP/v9.trb" bs=1 seek=8 conv=notrunc 2>/dev/null
printf 'tagger-b' > "$TGR_TMP/magic.trb"
for c in "short:truncated" "flip:checksum" "v9:version 9" "magic:no header"; do
	f=$TGR_TMP/${c%%:*}.trb
	tgr S2 switch update S2 "$f" 2>"$TGR_TMP/err" >/dev/null
	rc=$?
	[ $rc -eq 2 ] || fail "${c%%:*}: exit $rc, not 2: $(cat "$TGR_TMP/err")"
	grep -q "${c#*:}" "$TGR_TMP/err" || fail "${c%%:*}: says $(cat "$TGR_TMP/err")"
done
[ "$(tgr S2 -j switch show S2 | dp_json 'd["generation"]')" -eq "$g0" ] ||
	fail "a refused compiled file changed the generation"
tgr S2 switch update S2 "$TGR_TMP/a.trb" >/dev/null || fail "update from a.trb"
[ "$(tgr S2 -j switch show S2 | dp_json 'json.dumps(d["rules"], sort_keys=True)')" = \
	"$(dp_json 'json.dumps(d["switches"]["S2"], sort_keys=True)' < "$A")" ] ||
	fail "rules updated from a.trb differ from $A's"
echo "ok: damaged, truncated, foreign-version compiled rules refused (exit 2); whole ones update"
dp_json 'd["links"].append(["nocolon", "S2:l"]) or json.dumps(d)' < "$A" > "$TGR_TMP/badlinks.json"
"$TAGGER" switch pack "$TGR_TMP/badlinks.json" -o "$TGR_TMP/bad.trb" 2>"$TGR_TMP/err"
rc=$?
[ $rc -eq 2 ] && grep -q 'links\[[0-9]*\]: expected' "$TGR_TMP/err" && [ ! -e "$TGR_TMP/bad.trb" ] ||
	fail "pack of bad links: exit $rc, $(cat "$TGR_TMP/err")"
echo "ok: pack refuses links that are not node:port (exit 2), writes nothing"
echo "PASS"
