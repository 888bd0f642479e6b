#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Compiler speed (issue 2): Jellyfish with N switches, degree 10, one
# shortest path per ordered switch pair; tagger compile (which runs the
# verifier on its output) per algorithm. CPU seconds (user + sys, one core)
# and peak memory from /usr/bin/time; priorities as compiled. The budget is
# compile + verify within 10 s and 2 GiB at N = 1000.
#   SIZES="250 500 1000" ALGOS="greedy order best" bash tests/bench/bench_compile.sh
set -eu
cd "$(dirname "$0")/../.."
T=${TAGGER:-build/tagger}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sizes=${SIZES:-250 500 1000}
algos=${ALGOS:-greedy order best}

printf '%-6s %9s %-7s %4s %9s %9s %8s %8s %7s\n' N paths algo prio rules max/sw \
	cpu_s verify_s MiB
for n in $sizes; do
	"$T" topo jellyfish "$n" 10 --seed 1 -o "$tmp/t"
	"$T" paths shortest "$tmp/t" -o "$tmp/e"
	paths=$(wc -l <"$tmp/e")
	for a in $algos; do
		/usr/bin/time -f '%U %S %M' -o "$tmp/time" \
			"$T" -j compile "$tmp/t" "$tmp/e" --algorithm "$a" --no-bound \
			-o "$tmp/r.json" >"$tmp/out"
		read -r u s m <"$tmp/time"
		/usr/bin/time -f '%U %S' -o "$tmp/vtime" \
			"$T" -j verify "$tmp/t" "$tmp/e" "$tmp/r.json" >/dev/null
		read -r vu vs <"$tmp/vtime"
		jq -r --arg n "$n" --arg p "$paths" --arg a "$a" \
			--arg cpu "$(echo "$u + $s" | bc)" --arg v "$(echo "$vu + $vs" | bc)" \
			--arg mib "$((m / 1024))" \
			'[$n, $p, $a, .priorities, .rules, .max_switch_rules, $cpu, $v, $mib] |
			 @tsv' "$tmp/out" |
			awk -F'\t' '{ printf "%-6s %9s %-7s %4s %9s %9s %8.2f %8.2f %7s\n",
				$1, $2, $3, $4, $5, $6, $7, $8, $9 }'
	done
done
echo "cpu_s: tagger compile, including its built-in verification; verify_s: tagger verify alone"
echo "load average during the run: $(cut -d' ' -f1-3 /proc/loadavg)"
