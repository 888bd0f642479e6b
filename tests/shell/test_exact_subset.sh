#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The two-order search's diagnostics and tools/exact-subset.py: the orders
# written by TAGGER_TWO_ORDERS_ORDERS fit every path in the script's
# reading exactly when the search says so (Jellyfish-50, 3 shortest paths
# per pair: found), the paths it left unfit (TAGGER_TWO_ORDERS_UNFIT) are
# those the script finds, and the neighbourhoods contain their paths.
source "$(dirname "$0")/../lib.sh"
cd "$TGR_TMP" || exit 1
T=$TAGGER
X="python3 $TOP/tools/exact-subset.py"

$T topo jellyfish 50 6 --seed 1 -o j50.topo
$T paths ksp=3 j50.topo -o j50.elp
TAGGER_TWO_ORDERS_UNFIT=unfit.txt TAGGER_TWO_ORDERS_ORDERS=orders.txt \
	$T -j compile j50.topo j50.elp --exact -o /dev/null >sum.json
check "two orders found 2" \
	test "$(jq -c '.exact_search.steps[0] | [.search, .answer]' sum.json)" = \
	'["two-orders","sat"]'
check "the orders: one line per in-port" \
	test "$(wc -l <orders.txt)" = "$(grep -c '^link' j50.topo | awk '{ print 2 * $1 }')"
check "no path left unfit, and the script agrees" \
	sh -c "test ! -s unfit.txt && test -z \"\$($X unfit j50.elp orders.txt)\""
awk '{ $4 = -$4; print }' orders.txt >rev.txt
check "pi1 reversed: some paths do not fit" sh -c "test -n \"\$($X unfit j50.elp rev.txt)\""
# A search that stops short: a work budget of 0 events is not possible
# from the command line, so take Jellyfish-50 with 4 shortest paths and
# compare the two files whatever the search's outcome.
$T paths ksp=4 j50.topo -o k4.elp
TAGGER_TWO_ORDERS_UNFIT=u4.txt TAGGER_TWO_ORDERS_ORDERS=o4.txt \
	$T -j compile j50.topo k4.elp --exact --exact-seconds 20 -o /dev/null >/dev/null
check "the search's unfit paths are the script's" \
	sh -c "$X unfit k4.elp o4.txt | cmp - u4.txt"
printf '0\n5\n' >idx.txt
$X near j50.elp idx.txt none >none.elp
$X near j50.elp idx.txt triple >triple.elp
$X near j50.elp idx.txt link >link.elp
check "near none: the paths alone" \
	test "$(cat none.elp)" = "$(sed -n '1p;6p' j50.elp)"
check "triple within link, both holding the paths" \
	sh -c "! grep -Fxvf triple.elp none.elp && ! grep -Fxvf link.elp triple.elp"
printf '7\n' >i7.txt
sed -n '1p;6p;8p' j50.elp >want.elp
check "add: the union in ELP order" sh -c "$X add j50.elp none.elp i7.txt | cmp - want.elp"
check "bad usage: exit 2" sh -c "$X near j50.elp idx.txt ring 2>/dev/null; test \$? = 2"
exit 0
