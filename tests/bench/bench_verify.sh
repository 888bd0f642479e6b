#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Verifier speed: Jellyfish (degree 10) with one shortest path per ordered
# switch pair, compiled (BENCH_ALGORITHM, default greedy), then `tagger
# verify` at N = 250, 500, 1000 switches. Phases from -v: topology + ELP parse, rules parse (JSON),
# the check itself (BDG from every rule, walks, cycle search). Wall clock
# of one run on a shared machine: compare rows with each other (the last
# column is the check's cost per ELP hop, which should stay flat).
set -u
cd "$(dirname "$0")/../.." || exit 1
T=build/tagger
D=$(mktemp -d /tmp/tgr-bench-verify.XXXX)
trap 'rm -rf "$D"' EXIT

printf '%-5s %8s %6s %8s %9s %9s %9s %8s %8s %8s %6s %7s %15s\n' N paths prios rules \
	compile_s verify_s verify_cpu parse_s rules_s check_s MiB ns/hop verify/compile
for n in ${BENCH_SIZES:-250 500 1000}; do
	$T topo jellyfish "$n" 10 --seed 1 -o "$D/jf.topo" || exit 1
	$T -j paths shortest "$D/jf.topo" -o "$D/jf.elp" >"$D/paths.json" || exit 1
	$T -j compile "$D/jf.topo" "$D/jf.elp" --algorithm "${BENCH_ALGORITHM:-greedy}" \
		--no-verify -o "$D/jf.json" >"$D/comp.json" || exit 1
	/usr/bin/time -f '%e %U %S %M' -o "$D/time" \
		$T -v -j verify "$D/jf.topo" "$D/jf.elp" "$D/jf.json" >"$D/ver.json" 2>"$D/ver.err" ||
		{ cat "$D/ver.err"; exit 1; }
	jq -e .ok "$D/ver.json" >/dev/null || { echo "N=$n: not verified"; exit 1; }
	$T -j stats "$D/jf.json" >"$D/stats.json" || exit 1
	read -r wall usr sys kb <"$D/time"
	phases=$(sed -n 's/^verify: topology + ELP \([0-9.]*\) s, rules \([0-9.]*\) s, check \([0-9.]*\) s$/\1 \2 \3/p' "$D/ver.err")
	awk -v n="$n" -v p="$(jq .paths "$D/ver.json")" -v hops="$(jq '.avg_len * .paths' "$D/paths.json")" \
	    -v pr="$(jq .priorities "$D/stats.json")" -v ru="$(jq .rules "$D/stats.json")" \
	    -v cs="$(jq .seconds "$D/comp.json")" -v w="$wall" -v usr="$usr" -v sys="$sys" -v kb="$kb" -v ph="$phases" 'BEGIN {
		split(ph, x, " ")
		printf "%-5d %8d %6d %8d %9.3f %9.2f %9.2f %8.3f %8.3f %8.3f %6.0f %7.0f %15.2f\n",
		       n, p, pr, ru, cs, w, usr + sys, x[1], x[2], x[3], kb / 1024, x[3] * 1e9 / hops, w / cs }'
done
