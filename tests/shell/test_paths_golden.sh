#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The path generators' ELP output, byte for byte, against checksums
# recorded in fixtures/paths_golden.sha256: a refactoring of a generator
# (the shared up-down pair loop of updown and bounce, say) must not change
# a path, its order or the order of the pairs. After a deliberate change
# of the output, regenerate the file with GOLDEN_WRITE=1 and say why in
# the commit.
source "$(dirname "$0")/../lib.sh"
cd "$TGR_TMP" || exit 1
T=$TAGGER
GOLDEN=$TOP/tests/shell/fixtures/paths_golden.sha256

$T topo clos -o clos.topo &&
	$T topo clos --pods 3 --tors 3 --leaves 2 --spines 2 --hosts 2 -o clos3.topo &&
	$T topo fattree 4 -o ft4.topo &&
	$T topo leafspine --leaves 4 --spines 2 --hosts 2 -o ls.topo &&
	$T topo bcube 3 1 -o bc.topo &&
	$T topo jellyfish 12 3 --hosts 1 --seed 5 -o jf.topo || fail "topologies"

gen() {	# NAME KIND TOPO [OPTIONS]
	local name=$1 kind=$2 topo=$3
	shift 3
	$T paths "$kind" "$topo" "$@" -o "$name.elp" || fail "paths $kind $topo $*"
}
for t in clos clos3 ft4 ls; do
	gen $t.updown updown $t.topo
	gen $t.updown-tors updown $t.topo --between tors
	gen $t.b0 bounce=0 $t.topo
	gen $t.b1 bounce=1 $t.topo
	gen $t.b2s bounce=2 $t.topo --simple
	gen $t.shortest shortest $t.topo
	gen $t.ecmp ecmp $t.topo
	gen $t.ksp ksp=2 $t.topo
done
gen bc.bcube bcube bc.topo
gen bc.shortest shortest bc.topo --relay-hosts
gen jf.shortest shortest jf.topo
gen jf.ksp ksp=3 jf.topo

if [ "${GOLDEN_WRITE:-0}" = 1 ]; then
	sha256sum -- *.elp >"$GOLDEN"
	echo "wrote $GOLDEN"
	exit 0
fi
[ -s "$GOLDEN" ] || fail "no $GOLDEN"
check "every recorded ELP file is made" \
	test "$(awk '{print $2}' "$GOLDEN" | sort)" = "$(ls -- *.elp | sort)"
while read -r sum name; do
	check "$name unchanged" test "$(sha256sum <"$name" | cut -d' ' -f1)" = "$sum"
done <"$GOLDEN"
echo "all path outputs unchanged"
