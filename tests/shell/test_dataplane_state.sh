#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# What the state keeps of a rules document: only what the loader and the
# union check read (a 12 MB unknown key is not pinned as locked kernel
# memory; over 16 MiB it is refused, as by every reader), and an update
# with rules of another topology (other "links", same port names) is
# refused unless --force. A switch attached by a
# tagger of state format /1 is still shown and detached, and that tagger
# still shows, updates and detaches a switch this one updated (OLD_TAGGER).
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd nsenter
require_cmd python3
require_cmd bpftool
source "$TOP/tests/shell/dp_lab.sh"

dp_bpffs_up
dp_dummies S2 l r hp
F=$FIX/dp_line.rules.json
tgr S2 switch attach S2 "$F" >/dev/null || fail "attach S2"

python3 - "$F" "$TGR_TMP/big.json" "$TGR_TMP/other.json" <<'PY' || fail "making rules"
import json, sys
r = json.load(open(sys.argv[1]))
r["junk"] = "x" * (12 << 20)
json.dump(r, open(sys.argv[2], "w"))
r["junk"] = "x" * (30 << 20)
json.dump(r, open(sys.argv[2] + ".huge", "w"))
del r["junk"]
r["links"] = [l for l in r["links"] if "S1:r" not in l] + [["S1:r", "S3:l"]]
json.dump(r, open(sys.argv[3], "w"))
PY
tgr S2 switch update S2 "$TGR_TMP/big.json" >/dev/null || fail "update with a big document"
bytes=$(bpftool -j map show pinned "$TAGGER_BPF_ROOT/S2/state" | dp_json 'd["max_entries"] * d["bytes_value"]')
[ "$bytes" -lt $((1 << 20)) ] || fail "state pins $bytes bytes for a 12 MB document"
echo "ok: a 12 MB document (unknown key) keeps $bytes bytes of state"
# refused RC PATTERN WHAT FILE: the update to FILE exits RC, saying PATTERN.
refused() {
	local want=$1 pat=$2 what=$3 out rc
	out=$(tgr S2 switch update S2 "$4" 2>&1)
	rc=$?
	[ $rc -eq "$want" ] || fail "$what: exit $rc, not $want ($out)"
	echo "$out" | grep -q "$pat" || fail "$what: no clear message: $out"
	echo "ok: $what: refused: $out"
}

# The one rules reader caps what it skips, for every command alike.
refused 2 'top-level key "junk" holds' "a 30 MB unknown key" "$TGR_TMP/big.json.huge"
refused 2 "rules of another topology" "other topology" "$TGR_TMP/other.json"
tgr S2 switch update S2 "$TGR_TMP/other.json" --force >/dev/null 2>&1 || fail "--force"

# The state keeps the rules in compact form after its record: damaged, an
# update says so and exits 3 (the union check cannot run), --force updates
# without the check and writes them anew; show then prints the rules.
st=$TAGGER_BPF_ROOT/S2/state
at=$(bpftool -j map dump pinned "$st" | python3 -c '
import json, sys
d = {int.from_bytes(bytes(int(x, 16) for x in e["key"]), "little"):
     bytes(int(x, 16) for x in e["value"]) for e in json.load(sys.stdin)}
n = int.from_bytes(d[0][4:8], "little")
rec = b"".join(d[k] for k in sorted(d) if k >= 1)[:n]
print(json.loads(rec)["rules_at"][0])') || fail "reading the state map"
# shellcheck disable=SC2046 # one word per byte
bpftool map update pinned "$st" key $(printf '0x%02x 0x%02x 0x%02x 0x%02x' \
	$((at & 255)) $((at >> 8 & 255)) 0 0) value $(printf '0xff %.0s' $(seq 4096)) ||
	fail "damaging the state"
refused 3 "the attached rules cannot be read" "damaged attached rules" "$TGR_TMP/other.json"
tgr S2 switch update S2 "$TGR_TMP/other.json" --force >/dev/null 2>&1 || fail "--force over damaged rules"
tgr S2 switch update S2 "$TGR_TMP/other.json" >/dev/null || fail "update after --force rewrote the rules"
[ "$(tgr S2 -j switch show S2 | dp_json 'len(d["rules"]["rewrite"])')" -gt 0 ] || fail "show: no rules"
echo "ok: --force updates over damaged rules and writes them anew"
tgr S2 switch detach S2 >/dev/null || fail "detach"

if [ -n "${OLD_TAGGER:-}" ]; then
	for mode in tcx tc; do
		nsx S2 "$OLD_TAGGER" switch attach S2 "$F" --mode $mode >/dev/null || fail "old attach"
		tgr S2 switch show S2 >/dev/null || fail "$mode: show of an old state"
		tgr S2 switch update S2 "$F" >/dev/null || fail "$mode: update of an old state"
		tgr S2 switch detach S2 >/dev/null || fail "$mode: detach of an old state"
		[ ! -e "$TAGGER_BPF_ROOT/S2" ] || fail "$mode: old state: pins left"
		[ -z "$(nsx S2 tc filter show dev l ingress)" ] || fail "$mode: filter left"
		echo "ok: $mode: a switch attached by $OLD_TAGGER is updated and detached"
		# And the other way: after one, two and three updates by this
		# tagger (the live record in either anchor slot; from the second
		# on written in place, dp_inplace.h), the older one still shows,
		# updates and detaches the switch; after the older one's update
		# this one replaces the table (no mark), then goes in place again.
		for n in 1 2 3; do
			tgr S2 switch attach S2 "$F" --mode $mode >/dev/null || fail "attach"
			for _ in $(seq $n); do
				tgr S2 switch update S2 "$F" >/dev/null || fail "update"
			done
			nsx S2 "$OLD_TAGGER" switch show S2 >/dev/null || fail "$mode: old show after $n"
			nsx S2 "$OLD_TAGGER" switch update S2 "$F" >/dev/null ||
				fail "$mode: old update after $n"
			tgr S2 switch show S2 >/dev/null || fail "$mode: show after the old update"
			for want in False True; do
				[ "$(tgr S2 -j switch update S2 "$F" | dp_json 'd["in_place"]')" = $want ] ||
					fail "$mode: update after the old update: in place is not $want"
			done
			nsx S2 "$OLD_TAGGER" switch show S2 >/dev/null || fail "$mode: old show after in place"
			nsx S2 "$OLD_TAGGER" switch detach S2 >/dev/null || fail "$mode: old detach after $n"
			[ ! -e "$TAGGER_BPF_ROOT/S2" ] || fail "$mode: pins left by the old detach"
		done
		echo "ok: $mode: $OLD_TAGGER shows, updates and detaches a switch this tagger updated"
	done
fi
echo "PASS"
