#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# What the state keeps of a rules document: only what the loader and the
# union check read (a 12 MB unknown key is not pinned as locked kernel
# memory; over 16 MiB it is refused, as by every reader), and an update
# with rules of another topology (other "links", same port names) is
# refused unless --force. A switch attached by a
# tagger of state format /1 is still shown and detached (OLD_TAGGER).
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
# The one rules reader caps what it skips, for every command alike.
out=$(tgr S2 switch update S2 "$TGR_TMP/big.json.huge" 2>&1)
rc=$?
[ $rc -eq 2 ] || fail "a 30 MB unknown key: exit $rc ($out)"
echo "$out" | grep -q 'top-level key "junk" holds' || fail "30 MB unknown key: no clear message: $out"
echo "ok: a 30 MB unknown key is refused as by every reader: $out"

out=$(tgr S2 switch update S2 "$TGR_TMP/other.json" 2>&1)
rc=$?
[ $rc -eq 2 ] || fail "rules of another topology: exit $rc ($out)"
echo "$out" | grep -q "rules of another topology" || fail "no clear message: $out"
echo "ok: other topology refused: $out"
tgr S2 switch update S2 "$TGR_TMP/other.json" --force >/dev/null 2>&1 || fail "--force"
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
	done
fi
echo "PASS"
