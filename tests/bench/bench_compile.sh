#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Compiler speed (issues 2 and 17): Jellyfish with N switches, degree 10,
# one shortest path per ordered switch pair; tagger compile (which runs the
# verifier on its output) per algorithm, with its default threads (one per
# CPU) and with --threads 1. Wall and CPU seconds (user + sys, all threads)
# and peak memory from /usr/bin/time; priorities as compiled; whether both
# runs wrote the same bytes. The goal at N = 1000 with best: 2 s wall on
# 2 cores and 300 MiB.
#   SIZES="250 500 1000" ALGOS="greedy order best" bash tests/bench/bench_compile.sh
set -eu
cd "$(dirname "$0")/../.."
T=${TAGGER:-build/tagger}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sizes=${SIZES:-250 500 1000}
algos=${ALGOS:-greedy order best}

printf '%-6s %9s %-7s %4s %9s %9s %7s %8s %8s %8s %7s %5s\n' N paths algo prio rules max/sw \
	wall_s cpu_s wall_1t cpu_1t MiB same
for n in $sizes; do
	"$T" topo jellyfish "$n" 10 --seed 1 -o "$tmp/t"
	"$T" paths shortest "$tmp/t" -o "$tmp/e"
	paths=$(wc -l <"$tmp/e")
	for a in $algos; do
		/usr/bin/time -f '%e %U %S %M' -o "$tmp/time" \
			"$T" -j compile "$tmp/t" "$tmp/e" --algorithm "$a" --no-bound \
			-o "$tmp/r.json" >"$tmp/out"
		read -r w u s m <"$tmp/time"
		/usr/bin/time -f '%e %U %S' -o "$tmp/time1" \
			"$T" -j compile "$tmp/t" "$tmp/e" --algorithm "$a" --no-bound \
			--threads 1 -o "$tmp/r1.json" >/dev/null
		read -r w1 u1 s1 <"$tmp/time1"
		same=no
		cmp -s "$tmp/r.json" "$tmp/r1.json" && same=yes
		jq -r --arg n "$n" --arg p "$paths" --arg a "$a" --arg w "$w" --arg w1 "$w1" \
			--arg cpu "$(echo "$u + $s" | bc)" --arg cpu1 "$(echo "$u1 + $s1" | bc)" \
			--arg mib "$((m / 1024))" --arg same "$same" \
			'[$n, $p, $a, .priorities, .rules, .max_switch_rules, $w, $cpu,
			  $w1, $cpu1, $mib, $same] | @tsv' "$tmp/out" |
			awk -F'\t' '{ printf "%-6s %9s %-7s %4s %9s %9s %7.2f %8.2f %8.2f %8.2f %7s %5s\n",
				$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 }'
	done
done
echo "tagger compile including its built-in verification: wall_s, cpu_s with the default threads;"
echo "wall_1t, cpu_1t with --threads 1; same: both wrote the same bytes"
echo "load average during the run: $(cut -d' ' -f1-3 /proc/loadavg)"
