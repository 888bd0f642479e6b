#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tagger compile's outputs: every -o (rules, --table, --dot) appears whole
# or not at all (a compile killed or failing mid-write leaves the previous
# file as it was), and the output of a threaded compile is byte-identical
# to a single-threaded one.
source "$(dirname "$0")/../lib.sh"
cd "$TGR_TMP" || exit 1
T=$TAGGER

$T topo jellyfish 60 6 --seed 3 -o big.topo
$T paths shortest big.topo -o big.elp
$T topo clos -o clos.topo
$T paths bounce=1 clos.topo -o b1.elp
for f in r.json t.txt g.dot; do echo "previous $f" >"$f"; cp "$f" "$f.old"; done

# RLIMIT_FSIZE below the output's size: the write fails part way through.
# With SIGXFSZ at its default the process is killed mid-write ...
(ulimit -f 4; exec $T compile big.topo big.elp -o r.json --table t.txt \
	--dot g.dot) 2>/dev/null
rc=$?
check "killed mid-write (SIGXFSZ)" test $rc -gt 128
check "... the previous rules file is whole" cmp -s r.json r.json.old
# (a killed process cannot remove its temporary file: it is left, named
# r.json.XXXXXX, and never mistaken for the output)
rm -f r.json.?????? t.txt.?????? g.dot.??????
# ... with it ignored, write() fails with EFBIG and compile must say so.
for o in "-o r.json" "--table t.txt" "--dot g.dot"; do
	(trap '' XFSZ; ulimit -f 4; exec $T compile big.topo big.elp $o) \
		>/dev/null 2>err
	rc=$?
	f=${o#* }
	check "$o: a failed write exits 3" test $rc = 3
	check "$o: ... names the file" grep -q "cannot write $f" err
	check "$o: ... leaves the previous file whole" cmp -s "$f" "$f.old"
done
leftover() { local f; for f in r.json.* t.txt.* g.dot.*; do
	[ -e "$f" ] && [ "${f##*.}" != old ] && echo "$f"; done; }
check "no temporary file is left behind" test -z "$(leftover)"
check "a good compile replaces the file" \
	sh -c "$T compile clos.topo b1.elp -o r.json 2>/dev/null && jq -e .switches r.json >/dev/null"
check "... with the usual mode (umask 022: 0644)" \
	sh -c "umask 022; $T compile clos.topo b1.elp -o m.json 2>/dev/null && test \$(stat -c %a m.json) = 644"

# Threads: the algorithms of best and the verifier's walks run in parallel;
# the output must not depend on it. Several topologies, lossy paths
# (--priorities 3,4 on two bounces), classes and wildcards.
$T paths bounce=2 clos.topo -o b2.elp
$T topo bcube 4 1 -o bc.topo && $T paths bcube bc.topo --order parallel -o bc.elp
$T topo ring 8 -o ring.topo && $T paths ecmp ring.topo -o ring.elp
for c in "big.topo big.elp" "clos.topo b2.elp" "clos.topo b2.elp --priorities 3,4" \
	"bc.topo bc.elp --classes 2 --compress" "ring.topo ring.elp"; do
	# shellcheck disable=SC2086 # $c is words
	$T -j compile $c --no-bound --threads 1 -o one.json --table one.txt 2>/dev/null |
		jq -c 'del(.seconds)' >one.sum
	for n in 2 3 8; do
		# shellcheck disable=SC2086
		$T -j compile $c --no-bound --threads $n -o n.json --table n.txt 2>/dev/null |
			jq -c 'del(.seconds)' >n.sum
		check "$c: --threads $n writes what one thread writes" \
			sh -c "cmp -s one.json n.json && cmp -s one.txt n.txt && cmp -s one.sum n.sum"
	done
done

# An ELP of 8 MiB or more parses in two threads (one per half): the same
# paths, and on bad input the one message a single pass prints (the first
# problem in file order, with its line), whichever half it is in.
$T topo jellyfish 700 8 --seed 4 -o jf.topo
$T paths shortest jf.topo -o jf.elp
n=$(wc -l <jf.elp)
check "the ELP is large enough to be split" test "$(stat -c %s jf.elp)" -ge $((8 << 20))
check "all $n paths are read" \
	test "$($T -j compile jf.topo jf.elp --no-verify --no-bound -o /dev/null | jq .paths)" = "$n"
late=$((n * 3 / 4))
bad() { awk -v a="$1" -v b="$2" 'NR == a || NR == b { print "sw1 nosuch"; next } { print }' jf.elp; }
bad "$late" 0 >late.elp
bad 10 "$late" >both.elp
{ head -n $((late - 1)) jf.elp; printf 'sw1 sw2\0\n'; tail -n +$((late + 1)) jf.elp; } >nul.elp
sed 's/^/# /' jf.elp >none.elp
for c in "late.elp|late.elp:$late: unknown node \"nosuch\"" \
	"both.elp|both.elp:10: unknown node \"nosuch\"" \
	"nul.elp|nul.elp:$late: NUL byte" "none.elp|none.elp: no paths"; do
	f=${c%%|*}
	$T compile jf.topo "$f" --no-verify --no-bound -o /dev/null 2>err
	rc=$?
	check "$f: exit 2 and exactly: ${c#*|}" \
		sh -c "test $rc = 2 && test \"\$(cat err)\" = '${c#*|}'"
done
