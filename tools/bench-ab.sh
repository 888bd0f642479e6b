#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Before/after in one run: build the tagger of REV (default: the merge base
# with origin/main, else HEAD~1) next to this tree's build/tagger and time the
# same userspace workloads with both, alternating A and B so that a busy
# machine slows both alike. Prints per workload the median wall and CPU time
# of each and the ratio B/A, the median peak memory (max RSS, MiB), and
# whether both wrote the same output. --only RE: the workloads it matches.
#   tools/bench-ab.sh [--runs N] [--size N] [--only RE] [REV]
#   tools/bench-ab.sh --binary [REV]   only build REV's tagger, print its path
# A = REV, B = this tree. The REV binary is cached in build/ab/<sha>/.
set -u
cd "$(dirname "$0")/.." || exit 2

runs=5
size=1000
only=
rev=
binary_only=
while [ $# -gt 0 ]; do
	case $1 in
	--binary) binary_only=1; shift ;;
	--runs) runs=$2; shift 2 ;;
	--size) size=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	-h|--help|help) sed -n '3,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) echo "bench-ab: unknown option $1" >&2; exit 2 ;;
	*) rev=$1; shift ;;
	esac
done
case $runs$size in *[!0-9]*) echo "bench-ab: --runs and --size take numbers" >&2; exit 2 ;; esac
[ -n "$rev" ] || rev=$(git merge-base HEAD origin/main 2>/dev/null || git rev-parse HEAD~1)
sha=$(git rev-parse --verify "$rev^{commit}" 2>/dev/null) ||
	{ echo "bench-ab: $rev is not a commit" >&2; exit 2; }

A=build/ab/$sha/tagger
B=build/tagger
if ! [ -x "$A" ]; then
	src=$(mktemp -d /tmp/tgr-ab.XXXXXX)
	git worktree add -q --detach "$src/tree" "$sha" || exit 3
	if ! make -s -C "$src/tree" -j2 all >"$src/build.log" 2>&1; then
		tail -20 "$src/build.log" >&2
		git worktree remove --force "$src/tree"; rm -rf "$src"
		echo "bench-ab: building $rev failed" >&2
		exit 3
	fi
	mkdir -p "build/ab/$sha"
	cp "$src/tree/build/tagger" "$A"
	git worktree remove --force "$src/tree"
	rm -rf "$src"
fi
[ -z "$binary_only" ] || { echo "$A"; exit 0; }
make -s -j2 all >/dev/null || exit 3

D=$(mktemp -d /tmp/tgr-ab.XXXXXX)
trap 'rm -rf "$D"' EXIT
$B topo jellyfish "$size" 10 --seed 1 -o "$D/jf.topo" || exit 3
$B topo jellyfish 250 10 --seed 1 -o "$D/jf250.topo" || exit 3
$B paths shortest "$D/jf.topo" -o "$D/jf.elp" || exit 3
$B paths shortest "$D/jf250.topo" -o "$D/jf250.elp" || exit 3
$B topo clos --pods 4 --tors 4 --leaves 4 --spines 4 -o "$D/clos.topo" || exit 3
$B paths bounce=1 "$D/clos.topo" --between tors -o "$D/clos.elp" || exit 3
$B compile "$D/jf.topo" "$D/jf.elp" --algorithm greedy --no-bound -o "$D/jf.json" >/dev/null 2>&1 || exit 3

# name|command with @T for the binary and @O for its output file
workloads=(
	"topo jellyfish $size|@T topo jellyfish $size 10 --seed 1 -o @O"
	"paths shortest $size|@T paths shortest $D/jf.topo -o @O"
	"paths bounce=1 clos|@T paths bounce=1 $D/clos.topo --between tors -o @O"
	"compile greedy $size|@T compile $D/jf.topo $D/jf.elp --algorithm greedy --no-bound -o @O"
	"compile best $size|@T compile $D/jf.topo $D/jf.elp --no-bound -o @O"
	"compile best 250|@T compile $D/jf250.topo $D/jf250.elp --no-bound -o @O"
	"compile clos bounce|@T compile $D/clos.topo $D/clos.elp --no-bound -o @O"
	"verify $size|@T -j verify $D/jf.topo $D/jf.elp $D/jf.json | jq -c 'del(.seconds)' >@O"
	"stats $size|@T -j stats $D/jf.json >@O"
)

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

run_one() { # binary output-file command-template -> "wall cpu MiB" on stdout
	local cmd=${3//@T/$1}
	cmd=${cmd//@O/$2}
	/usr/bin/time -f '%e %U %S %M' -o "$D/time" bash -c "$cmd" >/dev/null 2>"$D/err" ||
		{ echo "bench-ab: failed: $cmd" >&2; cat "$D/err" >&2; return 1; }
	awk '{ printf "%s %.2f %d\n", $1, $2 + $3, $4 / 1024 }' "$D/time"
}

printf '%-22s %9s %9s %7s %9s %9s %7s %6s %6s %s\n' workload A_wall_s B_wall_s B/A \
	A_cpu_s B_cpu_s B/A A_MiB B_MiB same_output
rc=0
load0=$(cut -d' ' -f1-3 /proc/loadavg)
for w in "${workloads[@]}"; do
	name=${w%%|*}; tmpl=${w#*|}
	[[ -z $only || $name =~ $only ]] || continue
	: >"$D/a"; : >"$D/b"
	for _ in $(seq "$runs"); do
		run_one "$A" "$D/outa" "$tmpl" >>"$D/a" || { rc=3; continue 2; }
		run_one "$B" "$D/outb" "$tmpl" >>"$D/b" || { rc=3; continue 2; }
	done
	same=no
	cmp -s "$D/outa" "$D/outb" && same=yes
	aw=$(cut -d' ' -f1 "$D/a" | median); bw=$(cut -d' ' -f1 "$D/b" | median)
	ac=$(cut -d' ' -f2 "$D/a" | median); bc=$(cut -d' ' -f2 "$D/b" | median)
	am=$(cut -d' ' -f3 "$D/a" | median); bm=$(cut -d' ' -f3 "$D/b" | median)
	awk -v n="$name" -v aw="$aw" -v bw="$bw" -v ac="$ac" -v bc="$bc" -v s="$same" \
		-v am="$am" -v bm="$bm" 'BEGIN {
		printf "%-22s %9.2f %9.2f %7.2f %9.2f %9.2f %7.2f %6d %6d %s\n", n, aw, bw,
		       (aw > 0 ? bw / aw : 1), ac, bc, (ac > 0 ? bc / ac : 1), am, bm, s }'
done
echo "A = $(git log -1 --format='%h %s' "$sha" | cut -c1-60)"
echo "B = this tree ($(git describe --always --dirty))"
echo "medians of $runs alternating runs; load average $load0 before, $(cut -d' ' -f1-3 /proc/loadavg) after"
exit $rc
