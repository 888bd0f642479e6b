#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tagger topo / tagger paths end to end: files, -j summaries, help, and
# exit 2 with a message for every kind of bad option. No namespaces.
source "$(dirname "$0")/../lib.sh"
require_cmd jq
D=$TGR_TMP

# expect_rc RC WHAT CMD...: run, check the exit code, keep stderr in $D/err.
expect_rc() {
	local want=$1 what=$2 rc; shift 2
	"$@" >"$D/out" 2>"$D/err"; rc=$?
	[ "$rc" -eq "$want" ] || fail "$what: exit $rc, want $want ($(head -2 "$D/err"))"
	echo "ok: $what"
}
# bad WHAT PATTERN CMD...: exit 2 and stderr matching PATTERN.
bad() {
	local what=$1 pat=$2; shift 2
	expect_rc 2 "$what" "$@"
	grep -q -- "$pat" "$D/err" || fail "$what: stderr lacks '$pat': $(cat "$D/err")"
}
jget() { jq -r "$1" "$D/out"; }

# --- topologies
expect_rc 0 "topo clos" "$TAGGER" topo clos -o "$D/clos.topo"
for n in T1 T4 L1 L4 S1 S2 h1 h4; do
	grep -q "^switch $n \|^host $n\$" "$D/clos.topo" || fail "clos lacks $n"
done
grep -q "^switch S2 layer=2$" "$D/clos.topo" || fail "S2 layer"
expect_rc 0 "topo clos -j" "$TAGGER" -j topo clos
[ "$(jget '[.nodes,.switches,.hosts,.links] | join(" ")')" = "14 10 4 20" ] || fail "clos summary $(cat "$D/out")"
expect_rc 0 "topo fattree 4 -j" "$TAGGER" -j topo fattree 4 -o "$D/ft4.topo"
[ "$(jget '[.switches,.hosts,.links] | join(" ")')" = "20 16 48" ] || fail "fattree summary"
[ "$(grep -c '^link' "$D/ft4.topo")" = 48 ] || fail "fattree file"
expect_rc 0 "topo leafspine" "$TAGGER" -j topo leafspine --leaves=3 --spines 2 --hosts 2
[ "$(jget '[.switches,.hosts,.links] | join(" ")')" = "5 6 12" ] || fail "leafspine summary"
expect_rc 0 "topo bcube 4 1" "$TAGGER" -j topo bcube 4 1 -o "$D/bc.topo"
[ "$(jget '[.switches,.hosts,.links] | join(" ")')" = "8 16 32" ] || fail "bcube summary"
expect_rc 0 "topo ring 4" "$TAGGER" topo ring 4 -o "$D/ring.topo"
expect_rc 0 "topo line 3 --hosts 1" "$TAGGER" -j topo line 3 --hosts 1
[ "$(jget '.links')" = 5 ] || fail "line links"
expect_rc 0 "topo jellyfish" "$TAGGER" topo jellyfish 20 4 --seed 9 -o "$D/jf1.topo"
expect_rc 0 "topo jellyfish again" "$TAGGER" topo jellyfish 20 4 --seed 9 -o "$D/jf2.topo"
expect_rc 0 "topo jellyfish other seed" "$TAGGER" topo jellyfish 20 4 --seed 10 -o "$D/jf3.topo"
cmp -s "$D/jf1.topo" "$D/jf2.topo" || fail "equal seeds, different files"
cmp -s "$D/jf1.topo" "$D/jf3.topo" && fail "different seeds, equal files"
echo "ok: jellyfish seeds"
expect_rc 0 "topo xpander" "$TAGGER" topo xpander 24 5 --seed 9 -o "$D/xp1.topo"
expect_rc 0 "topo xpander again" "$TAGGER" topo xpander 24 5 --seed=9 -o "$D/xp2.topo"
expect_rc 0 "topo xpander other seed" "$TAGGER" topo xpander 24 5 --seed 10 -o "$D/xp3.topo"
cmp -s "$D/xp1.topo" "$D/xp2.topo" || fail "xpander: equal seeds, different files"
cmp -s "$D/xp1.topo" "$D/xp3.topo" && fail "xpander: different seeds, equal files"
expect_rc 0 "topo xpander -j" "$TAGGER" -j topo xpander 24 5 --hosts 2
[ "$(jget '[.switches,.hosts,.links] | join(" ")')" = "24 48 108" ] || fail "xpander summary"
echo "ok: xpander seeds"
# Generated topologies parse back (cbd reads them) with their own paths.
expect_rc 0 "topo to stdout parses" bash -c "'$TAGGER' topo clos > '$D/c2.topo' && cmp '$D/c2.topo' '$D/clos.topo'"

# --- paths
expect_rc 0 "paths updown" "$TAGGER" paths updown "$D/clos.topo" -o "$D/ud.elp"
[ "$(wc -l < "$D/ud.elp")" = 72 ] || fail "updown count"
expect_rc 0 "updown has no CBD" "$TAGGER" cbd "$D/clos.topo" "$D/ud.elp"
expect_rc 0 "paths bounce=1" "$TAGGER" paths bounce=1 "$D/clos.topo" -o "$D/b1.elp"
grep -qx "h1 T1 L2 S1 L3 S2 L4 T4 h4" "$D/b1.elp" || fail "paper's bounced flow missing"
expect_rc 1 "bounce=1 has CBD" "$TAGGER" cbd "$D/clos.topo" "$D/b1.elp"
expect_rc 0 "paths bounce 1 (two words)" "$TAGGER" paths bounce 1 "$D/clos.topo" -o "$D/b1b.elp"
cmp -s "$D/b1.elp" "$D/b1b.elp" || fail "bounce=1 and bounce 1 differ"
expect_rc 0 "paths -j summary" "$TAGGER" -j paths bounce=1 "$D/clos.topo"
[ "$(jget '.paths')" = "$(wc -l < "$D/b1.elp")" ] || fail "summary count"
[ "$(jget '.max_len')" = 8 ] || fail "bounce max_len"
expect_rc 0 "paths -j with -o" "$TAGGER" -j paths updown "$D/clos.topo" --between tors -o "$D/tors.elp"
[ "$(jget '.paths')" = 72 ] && [ "$(wc -l < "$D/tors.elp")" = 72 ] || fail "tors"
grep -q h1 "$D/tors.elp" && fail "--between tors used hosts"
expect_rc 0 "paths shortest" "$TAGGER" paths shortest "$D/ft4.topo" -o "$D/sp.elp"
[ "$(wc -l < "$D/sp.elp")" = 240 ] || fail "shortest count"
expect_rc 0 "shortest paths parse back" "$TAGGER" cbd "$D/ft4.topo" "$D/sp.elp"
expect_rc 0 "paths shortest --seed" "$TAGGER" paths shortest "$D/jf1.topo" --seed 3 -o "$D/s3.elp"
expect_rc 0 "paths ecmp" "$TAGGER" -j paths ecmp "$D/ft4.topo" --max-per-pair 2
[ "$(jget '.paths')" = $((16 + 32 * 2 + 192 * 2)) ] || fail "ecmp cap"
expect_rc 1 "ring of 4, all shortest paths: CBD" bash -c \
	"'$TAGGER' paths ecmp '$D/ring.topo' -o '$D/r.elp' && '$TAGGER' cbd '$D/ring.topo' '$D/r.elp'"
expect_rc 0 "paths ksp=3" "$TAGGER" -j paths ksp=3 "$D/jf1.topo"
[ "$(jget '.paths')" = $((20 * 19 * 3)) ] || fail "ksp count"
expect_rc 0 "paths bcube" "$TAGGER" paths bcube "$D/bc.topo" -o "$D/bc.elp"
[ "$(wc -l < "$D/bc.elp")" = 240 ] || fail "bcube count"
grep -qx "s33 w1-3 s03 w0-0 s00" "$D/bc.elp" || fail "bcube dimension order"
expect_rc 0 "paths bcube low-first" "$TAGGER" paths bcube "$D/bc.topo" --order low-first
grep -qx "s33 w0-3 s30 w1-0 s00" "$D/out" || fail "bcube low-first order"
# Parallel: 96 pairs differ in one digit (1 path), 144 in two (2 paths).
expect_rc 0 "paths bcube parallel" "$TAGGER" -j paths bcube "$D/bc.topo" --order parallel
[ "$(jget '.paths')" = 384 ] || fail "bcube parallel count"

# --- help
expect_rc 0 "topo help" "$TAGGER" topo help
grep -q "^Usage: .*topo KIND" "$D/err" || fail "topo help text"
expect_rc 0 "topo clos help" "$TAGGER" topo clos help
grep -q "planes" "$D/err" || fail "clos help text"
expect_rc 0 "paths help" "$TAGGER" paths help
grep -q "bounce=K" "$D/err" || fail "paths help text"
expect_rc 0 "paths bounce help" "$TAGGER" paths bounce help
grep -q "2K" "$D/err" || fail "bounce help text"

# --- bad input: exit 2 and a message
bad "unknown topo kind" 'What is "torus"' "$TAGGER" topo torus
bad "unknown option" 'What is "--pod"' "$TAGGER" topo clos --pod 3
bad "non-number" 'wants a number' "$TAGGER" topo clos --pods x
bad "zero pods" 'wants a number' "$TAGGER" topo clos --pods 0
bad "planes do not divide spines" 'planes' "$TAGGER" topo clos --spines 3 --planes 2
bad "odd fattree" 'even' "$TAGGER" topo fattree 5
bad "fattree without K" 'wants 1 number' "$TAGGER" topo fattree
bad "extra word" 'What is "7"' "$TAGGER" topo ring 4 7
bad "ring of 2" 'ring' "$TAGGER" topo ring 2
bad "jellyfish odd n*d" 'even' "$TAGGER" topo jellyfish 5 3
bad "jellyfish degree too high" 'degree' "$TAGGER" topo jellyfish 4 4
bad "jellyfish bad seed" 'wants a number' "$TAGGER" topo jellyfish 10 3 --seed -1
bad "xpander N not a multiple of D+1" 'multiple' "$TAGGER" topo xpander 10 3
bad "xpander degree 1" 'cannot be connected' "$TAGGER" topo xpander 10 1
bad "xpander without D" 'wants 2 numbers' "$TAGGER" topo xpander 12
bad "xpander bad seed" 'wants a number' "$TAGGER" topo xpander 12 3 --seed x
bad "-o without file" 'wants' "$TAGGER" topo clos -o
bad "unknown paths kind" 'What is "widest"' "$TAGGER" paths widest "$D/clos.topo"
bad "bounce without K" 'wants K' "$TAGGER" paths bounce
bad "bounce=x" 'wants a number' "$TAGGER" paths bounce=x "$D/clos.topo"
bad "ksp=0" 'wants a number' "$TAGGER" paths ksp=0 "$D/clos.topo"
bad "updown=2" 'What is "updown=2"' "$TAGGER" paths updown=2 "$D/clos.topo"
bad "no TOPO" 'wants TOPO' "$TAGGER" paths updown
bad "options before TOPO" 'wants TOPO before' "$TAGGER" paths bounce=1 --simple "$D/clos.topo"
bad "missing TOPO file" 'nosuch' "$TAGGER" paths updown "$D/nosuch.topo"
bad "updown without layers" 'layers' "$TAGGER" paths updown "$D/ring.topo"
bad "bad --between" '--between wants' "$TAGGER" paths shortest "$D/clos.topo" --between racks
bad "unknown paths option" 'What is "--sed"' "$TAGGER" paths shortest "$D/clos.topo" --sed 1
bad "bcube on a Clos" 'not a BCube' "$TAGGER" paths bcube "$D/clos.topo"
bad "bad bcube order" '--order wants' "$TAGGER" paths bcube "$D/bc.topo" --order up
bad "no hosts to connect" 'fewer than two hosts' "$TAGGER" paths shortest "$D/ring.topo" --between hosts
printf 'switch a\nswitch b\nlink a:1 b:1\nlink a:x c:1\n' > "$D/broken.topo"
bad "broken topology" 'broken.topo:4:' "$TAGGER" paths shortest "$D/broken.topo"
# A failed run leaves no half-written output behind.
expect_rc 2 "no file on failure" "$TAGGER" paths updown "$D/ring.topo" -o "$D/none.elp"
[ -e "$D/none.elp" ] && fail "failed run left its -o file"
echo "ok: no file on failure"
echo keep > "$D/keep.elp"
expect_rc 2 "failed run keeps an existing file" "$TAGGER" paths updown "$D/ring.topo" -o "$D/keep.elp"
[ "$(cat "$D/keep.elp")" = keep ] || fail "failed run overwrote its -o file"
ls "$D"/keep.elp.* 2>/dev/null && fail "temporary file left behind"
echo "ok: existing file kept"
if [ -c /dev/full ]; then
	bad "topo write error" 'cannot write /dev/full' "$TAGGER" topo clos -o /dev/full
	bad "paths write error" 'cannot write /dev/full' "$TAGGER" paths updown "$D/clos.topo" -o /dev/full
	bad "stdout write error" 'cannot write stdout' bash -c "'$TAGGER' topo clos > /dev/full"
	[ -c /dev/full ] || fail "a device was replaced by a file"
	echo "ok: devices are written in place"
fi
echo "all generator checks passed"
