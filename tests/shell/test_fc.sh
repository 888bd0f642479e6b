#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Flattened Clos end to end through the CLI: the testbed's 2 paths per pair,
# CBD-free FC routing vs ECMP with CBD on the same topology, Tagger compiling
# the FC ELP to 1 priority, and a failed link with local reroute compiling to
# what the bounce analysis predicts. No root, no network.
source "$(dirname "$0")/../lib.sh"
cd "$TGR_TMP" || exit 1
T=$TAGGER
jget() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval('d' + sys.argv[1]))" "$1"; }

# Figure 4(a): 2 up-down paths for every pair, adjacent or not (section 6.2).
$T topo fc testbed -o tb.topo
$T -j paths fc tb.topo --between tors -o tb.elp > tb.json
check "testbed: 12 ToR pairs, 2 paths each" \
	[ "$(jget '["stats"]["min_paths"]' < tb.json)/$(jget '["stats"]["max_paths"]' < tb.json)/$(jget '["stats"]["pairs"]' < tb.json)" = 2/2/12 ]
check "testbed: S1->S3 once clockwise (via S2)" \
	[ "$(grep -cE '^S1:[a-z0-9]+ S2:[a-z0-9]+ S3$' tb.elp)" = 1 ]
check "testbed: S1->S3 once counter-clockwise (via S4)" \
	[ "$(grep -cE '^S1:[a-z0-9]+ S4:[a-z0-9]+ S3$' tb.elp)" = 1 ]
check "testbed FC routing is CBD-free" $T cbd tb.topo tb.elp
$T paths ecmp tb.topo --between tors -o tbe.elp
$T cbd tb.topo tbe.elp > /dev/null; rc=$?
check "testbed ECMP has CBD (exit 1)" [ $rc = 1 ]
check "FC ELP compiles to 1 priority" [ "$($T -j compile tb.topo tb.elp | jget '["priorities"]')" = 1 ]
$T paths fc tb.topo -o tbh.elp
check "host-level FC ELP compiles to 1 priority" \
	[ "$($T -j compile tb.topo tbh.elp | jget '["priorities"]')" = 1 ]

# Table 2's first row (N = 50, s = 18, k = 4, split 3,6,6,3).
$T topo fc 50 --hosts 1 --layers 4 --seed 3 -o fc50.topo
$T -j paths fc fc50.topo --between tors -o fc50.elp > fc50.json
check "N=50: every pair has a path" [ "$(jget '["stats"]["min_paths"]' < fc50.json)" -ge 1 ]
check "N=50: FC routing is CBD-free" $T cbd fc50.topo fc50.elp
$T paths ecmp fc50.topo --between tors -o fc50e.elp
$T cbd fc50.topo fc50e.elp > /dev/null; rc=$?
check "N=50: ECMP on the same topology has CBD" [ $rc = 1 ]
check "N=50: FC ELP compiles to 1 priority" \
	[ "$($T -j compile fc50.topo fc50.elp | jget '["priorities"]')" = 1 ]

# One failed link, local reroute (section 7.1). Prediction: reroutes that
# stay virtual up-down add no CBD (lemma 4 with the same layers), so if no
# path bounced the union is CBD-free and compiles to 1 priority; each bounce
# costs Tagger at most one more tag on its path, so at most max_bounces + 1
# priorities, and exactly 1 iff the union is CBD-free (a CBD-free ELP needs
# no second tag; one with CBD cannot live in one).
seen_cbd=0 seen_free=0
for link in T1:v1p1 T2:v2p1 T3:v2p2 T5:v3p1 T7:v4p1 T11:v2p3 T13:v3p4; do
	$T -j paths fc fc50.topo --between tors --fail $link -o f.elp > f.json ||
		fail "reroute around $link"
	b=$(jget '["reroute"]["bounced"]' < f.json)
	mb=$(jget '["reroute"]["max_bounces"]' < f.json)
	[ "$(jget '["reroute"]["unreachable"]' < f.json)" = 0 ] || fail "$link: unreachable"
	if $T cbd fc50.topo f.elp > /dev/null; then cbd=0; else cbd=1; fi
	p=$($T -j compile fc50.topo f.elp | jget '["priorities"]')
	echo "  fail $link: $(jget '["reroute"]' < f.json) cbd=$cbd priorities=$p"
	[ "$b" = 0 ] && [ $cbd = 1 ] && fail "$link: up-down reroutes made CBD"
	[ $cbd = 0 ] && [ "$p" != 1 ] && fail "$link: CBD-free union took $p priorities"
	[ $cbd = 1 ] && [ "$p" -lt 2 ] && fail "$link: CBD in 1 priority"
	[ "$p" -le $((mb + 1)) ] || fail "$link: $p priorities for $mb bounces"
	[ $cbd = 1 ] && seen_cbd=1 || seen_free=1
done
echo "ok: reroutes compile as predicted (seen: CBD $seen_cbd, CBD-free $seen_free)"

# Strategy (*): k_min first, k_min + 1 when a pair has too few paths.
$T -v topo fc 30 --fabric 12 --hosts 0 -o s.topo 2> s.txt
check "strategy (*) keeps k_min when every pair has 2 paths" grep -q 'k=3 .*(k_min)$' s.txt
$T -v topo fc 30 --fabric 12 --hosts 0 --min-paths 4 -o s.topo 2> s.txt
check "strategy (*) takes k_min+1 when some pair has fewer than 4" \
	grep -q 'k=4 split 2,4,4,2 (k_min+1)$' s.txt
check "... and then every pair has at least one path" \
	[ "$($T -j paths fc s.topo | jget '["stats"]["min_paths"]')" -ge 1 ]

# The lab's testbed scenarios route what they claim: ECMP choices with a
# CBD, FC up-down paths without.
S=$TOP/vmlab/scenarios
$T paths ecmp "$S/fc-testbed.topo" --max-per-pair 100 -o all-ecmp.elp
$T paths fc "$S/fc-testbed.topo" -o all-fc.elp
for p in ecmp:all-ecmp.elp updown:all-fc.elp; do
	while read -r line; do
		grep -qxF "$line" "${p#*:}" || fail "fc-${p%%:*}: not a ${p%%:*} path: $line"
	done < <(grep -v '^#' "$S/fc-${p%%:*}-flows.elp")
done
echo "ok: the lab's ECMP and up-down routes are paths ecmp / paths fc choices"
$T cbd "$S/fc-testbed.topo" "$S/fc-ecmp-flows.elp" > /dev/null; rc=$?
check "lab fc-ecmp routes have CBD" [ $rc = 1 ]
check "lab fc-updown routes are CBD-free" $T cbd "$S/fc-testbed.topo" "$S/fc-updown-flows.elp"
# fc-edst: EDST paths, CBD-free, and (the lab routes by destination) the
# paths toward one destination leave every switch by the same port.
$T paths edst "$S/fc-testbed.topo" -o all-edst.elp
while read -r line; do
	grep -qxF "$line" all-edst.elp || fail "fc-edst: not an edst path: $line"
done < <(grep -v '^#' "$S/fc-edst-flows.elp")
check "lab fc-edst routes are CBD-free" $T cbd "$S/fc-testbed.topo" "$S/fc-edst-flows.elp"
check "lab fc-edst routes agree per destination" [ -z "$(grep -v '^#' "$S/fc-edst-flows.elp" |
	awk '{ for (i = 2; i < NF; i++) if ($i ~ /:/) { split($i, a, ":"); k = a[1] " " $NF
		if (k in out && out[k] != a[2]) print k; out[k] = a[2] } }')" ]

# fc-a2a-*: section 6.1's traffic (every host to every host under another
# switch) on the testbed with 4 hosts per switch. The committed routes are
# what fc-a2a-paths.py makes of tagger's paths; each flow has its paths;
# up-down and EDST agree per destination host (the lab routes by
# destination, so other combinations would appear) and are CBD-free; ECMP
# (every shortest path) has a CBD.
$T topo fc testbed --hosts 4 -o tb4.topo
check "fc-testbed4.topo is tagger topo fc testbed --hosts 4" \
	diff <(grep -v '^#' "$S/fc-testbed4.topo") tb4.topo
for k in ecmp:ecmp updown:fc edst:edst; do
	r=${k%%:*} g=${k#*:}
	$T paths "$g" tb4.topo --between tors -o "tor-$r.elp"
	python3 "$S/fc-a2a-paths.py" "$r" "tor-$r.elp" > "a2a-$r.elp"
	check "fc-a2a-$r.elp is fc-a2a-paths.py's output" diff "a2a-$r.elp" "$S/fc-a2a-$r.elp"
	check "fc-a2a-$r: 192 flows, every host to every host under another switch" \
		[ "$(grep -v '^#' "$S/fc-a2a-$r.elp" | awk '{ print $1, $NF }' | sort -u |
			awk '{ split($1, a, "-"); split($2, b, "-"); if (a[1] != b[1]) n++ } END { print n }')" = 192 ]
	$T paths "$g" tb4.topo -o "host-$r.elp"
	check "fc-a2a-$r: every path is a tagger paths $g path" \
		[ -z "$(grep -v '^#' "$S/fc-a2a-$r.elp" | grep -vxF -f "host-$r.elp")" ]
done
check "fc-a2a-ecmp: every shortest path of every flow" \
	[ "$(grep -vc '^#' "$S/fc-a2a-ecmp.elp")" = "$(awk '{ split($1, a, "-"); split($NF, b, "-"); if (a[1] != b[1]) n++ } END { print n }' host-ecmp.elp)" ]
$T cbd tb4.topo "$S/fc-a2a-ecmp.elp" > /dev/null; rc=$?
check "fc-a2a-ecmp routes have a CBD" [ $rc = 1 ]
for r in updown edst; do
	check "fc-a2a-$r: one path per flow" \
		[ "$(grep -vc '^#' "$S/fc-a2a-$r.elp")" = 192 ]
	check "fc-a2a-$r routes are CBD-free" $T cbd tb4.topo "$S/fc-a2a-$r.elp"
	check "fc-a2a-$r routes agree per destination host" [ -z "$(grep -v '^#' "$S/fc-a2a-$r.elp" |
		awk '{ for (i = 2; i < NF; i++) if ($i ~ /:/) { split($i, a, ":"); k = a[1] " " $NF
			if (k in out && out[k] != a[2]) print k; out[k] = a[2] } }')" ]
done
check "fc-a2a-updown: the 4 hosts of a switch spread over both paths" \
	[ "$(grep -v '^#' "$S/fc-a2a-updown.elp" | awk '$1 == "h1-1" && $NF ~ /^h3-/ { print $2 }' | sort -u | wc -l)" = 2 ]

# tagger paths ksp --threads: the same paths in the same order whatever
# the number of threads (more threads than destinations too), unreachable
# pairs counted; 0 threads is a usage error.
$T topo fc 30 --hosts 2 --seed 3 -o k30.topo
$T paths ksp=8 k30.topo --between tors -o k1.elp
for n in 2 3 64; do
	$T paths ksp=8 k30.topo --between tors --threads $n -o "k$n.elp"
	check "ksp --threads $n: the paths of 1 thread, in order" cmp k1.elp "k$n.elp"
done
printf 'switch A\nswitch B\nswitch C\nswitch D\nlink A:1 B:1\nlink B:2 C:1\nlink A:2 C:2\n' > dis.topo
check "ksp --threads 3: 6 unreachable pairs on a split topology" \
	[ "$($T -j paths ksp=2 dis.topo --threads 3 -o /dev/null 2> /dev/null | jget '["unreachable"]')" = 6 ]
$T paths ksp=2 dis.topo --threads 0 2> /dev/null; rc=$?
check "ksp --threads 0 is a usage error" [ $rc = 2 ]

# The bench's Clos for N = 50 FC ToRs (700 hosts, 32-port switches) is
# appendix A.3's equation (5): 32 ToRs of 22 hosts, 32 - 22 = 10 spines.
check "fc_clos_match: N = 50 is A.3's 2-layer Clos" [ "$(python3 "$TOP/tests/bench/fc_clos_match.py" 50 700 32 | cut -f5)" = "leafspine --leaves 32 --spines 10 --hosts 22" ]

# Usage errors are exit 2 with a message.
$T topo fc 50 --layers 4 --split 3,6,6,3 2>/dev/null; rc=$?
check "--layers with --split is a usage error" [ $rc = 2 ]
$T paths fc tb.topo --fail S1:eth1 2>/dev/null; rc=$?
check "--fail on a host link is a usage error" [ $rc = 2 ]
printf 'switch A\nswitch B\nlink A:1 B:1\n' > bad.topo
$T paths fc bad.topo 2> err.txt; rc=$?
check "no virtual layers: exit 2 with file:line" \
	[ $rc = 2 ] && grep -q '^bad.topo:3: port A:1 has no virtual layer' err.txt
