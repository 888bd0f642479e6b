#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Flattened Clos, the paper's comparisons (section 4, figure 7, appendix A.3,
# figure 3, strategy (*) of section 3.2.3):
#   fig7   throughput of FC up-down vs EDST vs ECMP vs KSP-32 as N grows, and
#          against the Clos with at most as many 32-port switches and at
#          least as many hosts (fc_clos_match.py), under up-down routing;
#          all-to-all and uniform 10% (mean of BENCH_FCX_SEEDS seeds)
#   fig3   fraction of seeded Jellyfish and Xpander graphs (5 inter-ToR
#          ports, as the paper) whose ECMP (all shortest paths) or KSP-8
#          paths contain a CBD (tagger cbd), all-to-all and uniform 10%
#   kstar  strategy (*) at N = 50 and 500 (s = 18): k_min, and per seed the
#          minimum number of edge-disjoint up-down paths and the throughput
#          at k_min and k_min + 1
#
#   BENCH_FCX_FULL=1      N up to 500 (fig7), up to 120 ToRs (fig3), kstar
#                         at N = 500 (slow: about an hour on 2 busy cores)
#   BENCH_FCX_PARTS=...   which parts (default "fig7 fig3 kstar")
#   BENCH_FCX_SIZES=...   fig7's N values instead of the default/FULL ones
#   BENCH_FCX_ROUTES=...  fig7's routings (default "fc edst ecmp ksp"); the
#                         others print "-"
#   BENCH_FCX_TRIALS=T    fig3 graphs per point (default 10; FULL 30)
#   BENCH_FCX_SEEDS=S     uniform-traffic seeds (default 2)
#   BENCH_FCX_KSEEDS=S    kstar: FC topologies per (N, k) (default 3)
#
# Deterministic: every graph and traffic matrix comes from a seed; the
# throughputs are FPTAS lower bounds certified within 2% (--epsilon 0.02).
set -u
cd "$(dirname "$0")/../.." || exit 1
T=build/tagger
W=$(mktemp -d /tmp/bench_fcx.XXXX)
trap 'rm -rf "$W"' EXIT
FULL=${BENCH_FCX_FULL:-0}
PARTS=${BENCH_FCX_PARTS:-fig7 fig3 kstar}
SEEDS=${BENCH_FCX_SEEDS:-2}
KSEEDS=${BENCH_FCX_KSEEDS:-3}
if [ "$FULL" = 1 ]; then TRIALS=${BENCH_FCX_TRIALS:-30}; else TRIALS=${BENCH_FCX_TRIALS:-10}; fi
start=$(date +%s)

# cpu: CPU seconds (user + system) of this shell's finished children so far
# (cutime + cstime of /proc/$$/stat, which include the grandchildren)
cpu() {
	awk -v hz="$(getconf CLK_TCK)" '{ sub(/.*\) /, ""); printf "%.1f", ($14 + $15) / hz }' "/proc/$$/stat"
}

# tp TOPO ELP TRAFFIC [SEED]: FPTAS throughput (certified lower bound)
tp() {
	$T -j throughput "$1" "$2" --traffic "$3" --seed "${4:-1}" --method fptas \
		--epsilon 0.02 | jq -r '.throughput' || exit 1
}

# tpu TOPO ELP: uniform 10%, mean over SEEDS seeds, the seeds in parallel
# (the FPTAS is one thread, and some matrices take thousands of phases)
tpu() {
	local s p pids=() sum=0
	for s in $(seq "$SEEDS"); do
		tp "$1" "$2" uniform=0.1 "$s" > "$W/u.$s" &
		pids+=($!)
	done
	for p in "${pids[@]}"; do wait "$p" || exit 1; done
	for s in $(seq "$SEEDS"); do
		sum=$(echo "$sum + $(cat "$W/u.$s")" | bc -l)
	done
	printf '%.3f' "$(echo "$sum / $SEEDS" | bc -l)"
}

# The paper's table 2 splits: k = 4 up to N = 300, k = 5 at 500.
split_of() { if [ "$1" -ge 500 ]; then echo 2,4,4,5,3; else echo 3,6,6,3; fi; }

fig7() {
	local sizes="50 100" n r routes=${BENCH_FCX_ROUTES:-fc edst ecmp ksp}
	[ "$FULL" = 1 ] && sizes="50 100 200 300 500"
	sizes=${BENCH_FCX_SIZES:-$sizes}
	echo "Figure 7 and A.3: 32-port ToRs (s = 18, h = 14), seed 1; throughput ="
	echo "fraction of host line rate per server; uniform = mean of $SEEDS seeds;"
	echo "Clos: <= N switches, >= 14 N hosts, up-down paths (fc_clos_match.py)"
	printf '%-4s %-9s | %-33s | %-33s | %s\n' N split \
		"all-to-all: up-down EDST ECMP KSP32" "uniform: up-down EDST ECMP KSP32" \
		"Clos (switches hosts shape): a2a uni, FC/Clos a2a uni"
	for n in $sizes; do
		local a=() u=() c t=() c0 w0 ap
		c0=$(cpu)
		w0=$(date +%s)
		$T topo fc "$n" --hosts 14 --split "$(split_of "$n")" --seed 1 -o "$W/t.topo" || exit 1
		for r in fc edst ecmp ksp; do
			if ! [[ " $routes " == *" $r "* ]]; then
				a+=(-) u+=(-)
				continue
			fi
			case $r in
			fc) $T paths fc "$W/t.topo" --between tors --threads 2 -o "$W/$r.elp" ;;
			ksp) $T paths ksp=32 "$W/t.topo" --between tors --threads 2 -o "$W/$r.elp" ;;
			*) $T paths "$r" "$W/t.topo" --between tors -o "$W/$r.elp" ;;
			esac || exit 1
			# all-to-all beside the uniform seeds
			tp "$W/t.topo" "$W/$r.elp" all-to-all > "$W/a2a" &
			ap=$!
			u+=("$(tpu "$W/t.topo" "$W/$r.elp")")
			wait "$ap" || exit 1
			a+=("$(printf '%.3f' "$(cat "$W/a2a")")")
			rm -f "$W/$r.elp"
			t+=("$r $(echo "$(cpu) - $c0" | bc)")
			c0=$(cpu)
		done
		c=$(python3 tests/bench/fc_clos_match.py "$n" $((14 * n)) 32) || exit 1
		read -r csw ch _ cdesc cargs <<< "$c"
		# shellcheck disable=SC2086  # cargs is the topo command line
		$T topo $cargs -o "$W/c.topo" || exit 1
		$T paths updown "$W/c.topo" --between tors -o "$W/c.elp" || exit 1
		local ca cu
		ca=$(tp "$W/c.topo" "$W/c.elp" all-to-all)
		cu=$(tpu "$W/c.topo" "$W/c.elp")
		# FC/Clos ratios, "-" when up-down was left out
		local ra=- ru=-
		if [ "${a[0]}" != - ]; then
			ra=$(printf '%.2f' "$(echo "${a[0]} / $ca" | bc -l)")
			ru=$(printf '%.2f' "$(echo "${u[0]} / $cu" | bc -l)")
		fi
		printf '%-4s %-9s | %-7s %-7s %-7s %-7s | %-7s %-7s %-7s %-7s | %s %s %s: %.3f %.3f, %s %s\n' \
			"$n" "$(split_of "$n")" "${a[@]}" "${u[@]}" "$csw" "$ch" "$cdesc" "$ca" "$cu" "$ra" "$ru"
		# what the row cost: CPU seconds per routing (paths and the three
		# throughputs), the Clos, and the row's wall time
		echo "     CPU s: ${t[*]} clos $(echo "$(cpu) - $c0" | bc); wall $(( $(date +%s) - w0 )) s"
	done
}

# pairs_uniform ELP P SEED: the paths of a uniform-P traffic (every source
# picks round(P (n-1)), at least 1, destinations at random)
pairs_uniform() {
	python3 - "$@" <<'EOF'
import random, sys
elp, p, seed = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
lines = [l for l in open(elp) if l.strip() and not l.startswith("#")]
nodes = sorted({w for l in lines for w in (l.split()[0], l.split()[-1])})
rnd = random.Random(seed)
keep = set()
for s in nodes:
    others = [d for d in nodes if d != s]
    keep.update((s, d) for d in rnd.sample(others, max(1, round(p * len(others)))))
sys.stdout.writelines(l for l in lines if (l.split()[0], l.split()[-1]) in keep)
EOF
}

fig3() {
	local sizes="6 12 18 24 36 48" kind n route s
	[ "$FULL" = 1 ] && sizes="6 12 18 24 30 36 48 60 90 120"
	echo "Figure 3: graphs with a CBD / $TRIALS seeded graphs; 5 inter-ToR ports,"
	echo "no hosts; ECMP = every shortest path (up to 64 per pair), KSP-8"
	printf '%-9s %-4s | %-12s %-12s | %-12s %-12s\n' graph N "ECMP a2a" "ECMP uni10%" \
		"KSP8 a2a" "KSP8 uni10%"
	for kind in jellyfish xpander; do
		for n in $sizes; do
			local row=()
			for route in ecmp ksp=8; do
				local ca=0 cu=0
				for s in $(seq "$TRIALS"); do
					$T topo "$kind" "$n" 5 --seed "$s" -o "$W/g.topo" || exit 1
					$T paths "$route" "$W/g.topo" -o "$W/g.elp" || exit 1
					$T cbd "$W/g.topo" "$W/g.elp" > /dev/null
					case $? in 0) ;; 1) ca=$((ca + 1)) ;; *) exit 1 ;; esac
					pairs_uniform "$W/g.elp" 0.1 "$s" > "$W/u.elp"
					$T cbd "$W/g.topo" "$W/u.elp" > /dev/null
					case $? in 0) ;; 1) cu=$((cu + 1)) ;; *) exit 1 ;; esac
				done
				row+=("$(printf '%.2f' "$(echo "$ca / $TRIALS" | bc -l)")" \
					"$(printf '%.2f' "$(echo "$cu / $TRIALS" | bc -l)")")
			done
			printf '%-9s %-4s | %-12s %-12s | %-12s %-12s\n' "$kind" "$n" "${row[@]}"
		done
	done
}

# kmin N S: the smallest k with (1 + S/(2(k-1)))^(k-1) > sqrt(2 N ln N)
kmin() {
	python3 -c "
import math; n, s = $1, $2
b = math.sqrt(2 * n * math.log(n))
print(next(k for k in range(2, 40) if (1 + s / (2 * (k - 1))) ** (k - 1) > b))"
}

kstar() {
	local sizes="50" n k s km
	[ "$FULL" = 1 ] && sizes="50 500"
	echo "Strategy (*), s = 18, h = 14, even splits; per seed: min / avg"
	echo "edge-disjoint up-down paths, ToR pairs with < 2 and < 3 paths, avg"
	echo "path length (hops), throughput all-to-all / uniform 10% / permutation"
	printf '%-4s %-5s %-2s %-4s | %-5s %-6s %-5s %-5s %-5s | %s\n' N k_min k seed min avg "<2" "<3" len \
		"a2a uni perm"
	for n in $sizes; do
		km=$(kmin "$n" 18)
		for k in "$km" $((km + 1)); do
			for s in $(seq "$KSEEDS"); do
				$T topo fc "$n" --hosts 14 --layers "$k" --seed "$s" -o "$W/t.topo" || exit 1
				$T -j paths fc "$W/t.topo" --between tors --threads 2 -o "$W/fc.elp" > "$W/st.json" || exit 1
				# pairs with fewer than 2 and 3 paths, from the ELP
				read -r lt2 lt3 <<< "$(awk '{ c[$1 " " $NF]++ } END { for (p in c) { a += c[p] < 2; b += c[p] < 3 }; print a + 0, b + 0 }' "$W/fc.elp")"
				printf '%-4s %-5s %-2s %-4s | %-5s %-6.2f %-5s %-5s %-5.2f | %.3f %.3f %.3f\n' \
					"$n" "$km" "$k" "$s" "$(jq .stats.min_paths "$W/st.json")" \
					"$(jq .stats.avg_paths "$W/st.json")" "$lt2" "$lt3" \
					"$(jq .stats.avg_path_length "$W/st.json")" \
					"$(tp "$W/t.topo" "$W/fc.elp" all-to-all)" \
					"$(tp "$W/t.topo" "$W/fc.elp" uniform=0.1 "$s")" \
					"$(tp "$W/t.topo" "$W/fc.elp" permutation)"
			done
		done
	done
}

for part in $PARTS; do
	case $part in
	fig7 | fig3 | kstar) "$part"; echo ;;
	*) echo "bench_fc_compare: unknown part $part" >&2; exit 2 ;;
	esac
done
echo "bench fc_compare: $(( $(date +%s) - start )) s"
