#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Priorities (issue 7): the paper's greedy vs the order-based algorithm vs
# the 'best' default, next to the proven lower bound and, where the 0-1
# program is small enough for GLPK, the exact minimum; compile time of
# 'best' (CPU s, including verification and the bound). The topologies are
# the families of the test suite.
# Then the exact search (issue 17): 'compile --exact' on every case, with
# EXACT_SECONDS (default 600) as its time limit: the count before, the
# solver's optimum (or '?' when not proved), how it is proved, whether no
# rule set of any kind does with fewer, the proof's core (paths UNSAT on
# their own at one priority fewer, of all; checked again here by running
# 'compile --exact' on the core file alone), and the solver's time (wall s
# and CPU s of the search; the CPU time is what a busy machine distorts
# least).
# BENCH_EXACT=0 skips it.
# Then the two-order search against the solver alone (--no-two-orders) at
# 2 priorities on the Jellyfish cases the heuristics give 3, run one after
# the other on the same files (A then B per case): priorities, the step's
# wall and CPU s, the rules written checked by 'tagger verify'.
# BENCH_TWO_AB=0 skips it.
set -eu
cd "$(dirname "$0")/../.."
T=${TAGGER:-build/tagger}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cases=(
	"clos-updown|topo clos|paths updown"
	"clos-1bounce|topo clos|paths bounce=1"
	"clos-2bounce|topo clos|paths bounce=2"
	"fattree4-1bounce|topo fattree 4|paths bounce=1"
	"fattree4-2bounce|topo fattree 4|paths bounce=2"
	"bcube(4,1)-parallel|topo bcube 4 1|paths bcube --order parallel"
	"bcube(3,2)-parallel|topo bcube 3 2|paths bcube --order parallel"
	"bcube(2,3)-parallel|topo bcube 2 3|paths bcube --order parallel"
	"bcube(3,2)-dimorder|topo bcube 3 2|paths bcube"
	"ring8-ecmp|topo ring 8|paths ecmp"
	"jellyfish50-shortest|topo jellyfish 50 6 --seed 1|paths shortest"
	"jellyfish100-shortest|topo jellyfish 100 8 --seed 1|paths shortest"
	"jellyfish50-ksp3|topo jellyfish 50 6 --seed 1|paths ksp=3"
	"jellyfish100-ksp4|topo jellyfish 100 8 --seed 1|paths ksp=4"
	"jellyfish500-shortest|topo jellyfish 500 10 --seed 1|paths shortest"
)
# Exact search only (its heuristics' row is in the scaling table).
exact_only=("jellyfish250-shortest|topo jellyfish 250 10 --seed 1|paths shortest"
	"jellyfish1000-shortest|topo jellyfish 1000 10 --seed 1|paths shortest")
if "$T" topo help 2>&1 | grep -q ' fc'; then
	cases+=("fc-testbed|topo fc testbed --hosts 1|paths fc"
		"fc-50|topo fc 50 --hosts 1 --seed 1|paths fc")
fi

# make_case NAME TOPO PATHS: the case's topology in $tmp/t, its paths in
# $tmp/e (both command lines without the tagger and the files).
make_case() {
	# shellcheck disable=SC2086
	"$T" $2 -o "$tmp/t" 2>/dev/null || { echo "$1: topology failed"; return 1; }
	# shellcheck disable=SC2086
	set -- "$1" $3
	"$T" "$2" "$3" "$tmp/t" "${@:4}" -o "$tmp/e" 2>/dev/null ||
		{ echo "$1: paths failed"; return 1; }
}

prio() {
	"$T" -j compile "$1" "$2" --algorithm "$3" --no-bound --no-verify -o /dev/null |
		jq -r .priorities
}

printf '%-24s %8s %6s %6s %5s %6s %6s %8s %8s\n' case paths greedy order best lower exact \
	optimal best_s
for c in "${cases[@]}"; do
	IFS='|' read -r name topo paths <<<"$c"
	make_case "$name" "$topo" "$paths" || continue
	n=$(wc -l <"$tmp/e")
	g=$(prio "$tmp/t" "$tmp/e" greedy)
	o=$(prio "$tmp/t" "$tmp/e" order)
	/usr/bin/time -f '%U %S' -o "$tmp/time" \
		"$T" -j compile "$tmp/t" "$tmp/e" -o /dev/null >"$tmp/out"
	read -r u s <"$tmp/time"
	jq -r --arg c "$name" --arg n "$n" --arg g "$g" --arg o "$o" \
		--arg cpu "$(echo "$u + $s" | bc)" \
		'[$c, $n, $g, $o, .priorities, .lower_bound, (.exact // "-"),
		  (.optimal // "?"), $cpu] | @tsv' "$tmp/out" |
		awk -F'\t' '{ printf "%-24s %8s %6s %6s %5s %6s %6s %8s %8.2f\n",
			$1, $2, $3, $4, $5, $6, $7, $8, $9 }'
done
echo "lower: proven lower bound; exact: GLPK 0-1 program (3 s per K), '-' if too large or timed out"

[ "${BENCH_EXACT:-1}" = 0 ] && exit 0
limit=${EXACT_SECONDS:-600}
echo
echo "exact search: tagger compile --exact --exact-seconds $limit"
printf '%-24s %6s %6s %-12s %-22s %8s %-14s %9s %9s\n' case before sat method steps any_rules core \
	search_s search_cpu
for c in "${cases[@]}" "${exact_only[@]}"; do
	IFS='|' read -r name topo paths <<<"$c"
	make_case "$name" "$topo" "$paths" || continue
	rm -f "$tmp/core"
	"$T" -j compile "$tmp/t" "$tmp/e" --exact --exact-seconds "$limit" \
		--exact-core "$tmp/core" -o "$tmp/r" >"$tmp/out" 2>/dev/null ||
		{ echo "$name: compile failed"; continue; }
	# the rules written are checked again by the stand-alone verifier
	"$T" verify "$tmp/t" "$tmp/e" "$tmp/r" >/dev/null || echo "$name: verify FAILED"
	# and the core, alone, must be UNSAT again at the same count
	if [ -s "$tmp/core" ]; then
		"$T" -j compile "$tmp/t" "$tmp/core" --exact -o /dev/null |
			jq -e --argjson k "$(jq .exact_search.core.priorities "$tmp/out")" \
				'[.exact_search.steps[] | select(.priorities == $k and
				  .model == "tagging")][0].answer == "unsat"' >/dev/null ||
			echo "$name: the core alone is NOT UNSAT"
	fi
	jq -r --arg c "$name" \
		'[$c, .exact_search.found_before, (.exact_search.optimum // "?"),
		  (.method // "not-proved"),
		  ([.exact_search.steps[] | "\(.priorities)\(if .search == "two-orders"
		     then "o" else .model[0:1] end):\(.answer)"] | join(",")),
		  (.exact_search.no_fewer_with_any_rules | if . == null then "?" else tostring end),
		  (.exact_search.core | if . == null then "-" else "\(.paths)/\(.of)@\(.priorities)" end),
		  .exact_search.seconds, ([.exact_search.steps[].cpu_seconds] | add // 0)] | @tsv' "$tmp/out" |
		awk -F'\t' '{ printf "%-24s %6s %6s %-12s %-22s %8s %-14s %9.2f %9.2f\n",
			$1, $2, $3, $4, $5, $6, $7, $8, $9 }'
done
echo "steps: priorities + model (t: tagging, p: any priorities, o: two orders) : answer; any_rules: no rule set of any kind does with fewer"
echo "core: N/M@K: N of the M paths alone are UNSAT at K (checked again on the core file alone)"

[ "${BENCH_TWO_AB:-1}" = 0 ] && exit 0
ab=("jellyfish50-ksp3|topo jellyfish 50 6 --seed 1|paths ksp=3"
	"jellyfish100-ksp4|topo jellyfish 100 8 --seed 1|paths ksp=4"
	"${exact_only[0]}"
	"jellyfish500-shortest|topo jellyfish 500 10 --seed 1|paths shortest"
	"${exact_only[1]}")
echo
echo "two orders vs the solver alone at 2 priorities (--exact-seconds $limit)"
printf '%-24s %-12s %5s %-8s %9s %9s %7s %8s\n' case search prios answer step_s step_cpu rules \
	verify
for c in "${ab[@]}"; do
	IFS='|' read -r name topo paths <<<"$c"
	make_case "$name" "$topo" "$paths" || continue
	for mode in two-orders sat; do
		extra=()
		[ "$mode" = sat ] && extra=(--no-two-orders)
		"$T" -j compile "$tmp/t" "$tmp/e" --exact --exact-seconds "$limit" "${extra[@]}" \
			-o "$tmp/r" >"$tmp/out" 2>/dev/null || { echo "$name: compile failed"; continue; }
		v=ok
		"$T" verify "$tmp/t" "$tmp/e" "$tmp/r" >/dev/null || v=FAILED
		jq -r --arg c "$name" --arg m "$mode" --arg v "$v" \
			'([.exact_search.steps[] | select(.priorities == 2 and .model == "tagging")]) as $s |
			 [$c, $m, .priorities, ($s | last | .answer // "-"),
			  ($s | map(.seconds) | add // 0), ($s | map(.cpu_seconds) | add // 0),
			  .rules, $v] | @tsv' "$tmp/out" |
			awk -F'\t' '{ printf "%-24s %-12s %5s %-8s %9.2f %9.2f %7s %8s\n",
				$1, $2, $3, $4, $5, $6, $7, $8 }'
	done
done
echo "step_s, step_cpu: the steps at 2 priorities (two orders, then the solver if it ran)"
