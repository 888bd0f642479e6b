#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Generator speed: Jellyfish (degree 10) + one shortest path per ordered
# switch pair, written to a file, at N = 250, 500, 1000 switches; and the
# bounce path counts of the seeds' Clos and fat-tree k=4. Times are those
# of one run on a shared machine: CPU seconds (user + sys) next to wall
# clock; compare rows with each other.
set -u
cd "$(dirname "$0")/../.." || exit 1
T=build/tagger
D=$(mktemp -d /tmp/tgr-bench-paths.XXXX)
trap 'rm -rf "$D"' EXIT
now() { date +%s.%N; }

# cpu CMD...: run CMD, print its CPU seconds (task-clock from perf stat,
# 1 ms resolution; /usr/bin/time's 10 ms user+sys without perf). CPU time is
# robust to other load on the shared cores, unlike wall clock.
cpu() {
	if perf stat -x, -e task-clock -o "$D/time" "$@" > /dev/null 2>&1; then
		awk -F, '/task-clock/ { print $1 / 1000 }' "$D/time"
	else
		/usr/bin/time -f '%U %S' -o "$D/time" "$@" > /dev/null || exit 1
		awk '{ print $1 + $2 }' "$D/time"
	fi
}

printf '%-6s %-6s %9s %9s %9s %9s %8s %10s\n' N degree paths topo_cpu paths_cpu paths_wall MB Mpaths/cpu
for n in ${BENCH_SIZES:-250 500 1000}; do
	tc=$(cpu $T topo jellyfish "$n" 10 --seed 1 -o "$D/jf.topo")
	t0=$(now)
	pc=$(cpu $T -j paths shortest "$D/jf.topo" -o "$D/jf.elp")
	t1=$(now)
	$T -j paths shortest "$D/jf.topo" > "$D/sum.json"
	paths=$(jq .paths "$D/sum.json")
	bytes=$(stat -c %s "$D/jf.elp")
	awk -v n="$n" -v p="$paths" -v tc="$tc" -v pc="$pc" -v a="$t0" -v b="$t1" -v by="$bytes" 'BEGIN {
		printf "%-6d %-6d %9d %9.3f %9.3f %9.3f %8.1f %10.2f\n", n, 10, p, tc, pc, b - a,
		       by / 1e6, p / 1e6 / (pc > 0 ? pc : 0.001) }'
done

echo
printf '%-22s %8s %8s %12s %8s\n' topology K paths simple seconds
$T topo clos -o "$D/clos.topo"
$T topo fattree 4 -o "$D/ft4.topo"
for spec in "seed-clos clos.topo 1" "seed-clos clos.topo 2" "fattree-k4 ft4.topo 1" \
	    "fattree-k4 ft4.topo 2"; do
	set -- $spec
	all=$($T -j paths bounce="$3" "$D/$2")
	simple=$($T -j paths bounce="$3" "$D/$2" --simple | jq .paths)
	printf '%-22s %8s %8s %12s %8.4f\n' "$1" "$3" "$(jq .paths <<<"$all")" "$simple" \
		"$(jq .seconds <<<"$all")"
done

echo
printf '%-28s %9s %8s %8s\n' "paths on jellyfish-250 d10" paths avg_len seconds
$T topo jellyfish 250 10 --seed 1 -o "$D/jf250.topo"
for kind in shortest ecmp ksp=2 ksp=4; do
	$T -j paths $kind "$D/jf250.topo" -o "$D/k.elp" > "$D/sum.json" || exit 1
	printf '%-28s %9s %8.3f %8.3f\n' "$kind" "$(jq .paths "$D/sum.json")" \
		"$(jq .avg_len "$D/sum.json")" "$(jq .seconds "$D/sum.json")"
done
