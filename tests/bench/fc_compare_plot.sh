#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Plots of bench_fc_compare.sh's output (read from LOG, or stdin):
#   DIR/fc-fig7.png  throughput vs N, all-to-all and uniform 10%: FC
#                    up-down, EDST, ECMP, KSP-32 and the matched Clos
#   DIR/fc-fig3.png  fraction of graphs with a CBD vs N, Jellyfish and
#                    Xpander, ECMP and KSP-8, all-to-all and uniform 10%
# Usage: fc_compare_plot.sh DIR [LOG]   (gnuplot, png terminal)
set -eu
dir=$1
log=${2:-/dev/stdin}
tmp=$(mktemp -d /tmp/fcx_plot.XXXX)
trap 'rm -rf "$tmp"' EXIT
cat "$log" > "$tmp/log"

# fig7 rows: "N split | 4 a2a | 4 uniform | Clos ...: a2a uni, ratios"
awk -F'|' '$1 ~ /^[0-9]+ / && NF == 4 {
	split($1, n, " "); split($2, a, " "); split($3, u, " ")
	sub(/.*: /, "", $4); split($4, c, "[ ,]+")
	print n[1], a[1], a[2], a[3], a[4], c[1], u[1], u[2], u[3], u[4], c[2]
}' "$tmp/log" > "$tmp/fig7.dat"
# fig3 rows: "kind N | ecmp a2a uni | ksp a2a uni"
awk -F'|' '$1 ~ /^(jellyfish|xpander) / {
	split($1, k, " "); split($2, e, " "); split($3, s, " ")
	print k[1], k[2], e[1], e[2], s[1], s[2]
}' "$tmp/log" > "$tmp/fig3.dat"

if [ -s "$tmp/fig7.dat" ]; then
	gnuplot <<EOF
set terminal png size 1100,450
set datafile missing "-"
set output "$dir/fc-fig7.png"
set multiplot layout 1,2
set xlabel "ToRs N (32-port, 14 hosts each)"
set ylabel "throughput (fraction of line rate)"
set key top right
set yrange [0:1]
set title "all-to-all"
plot "$tmp/fig7.dat" u 1:2 w lp t "FC up-down", "" u 1:3 w lp t "EDST", \
	"" u 1:4 w lp t "ECMP", "" u 1:5 w lp t "KSP-32", "" u 1:6 w lp t "Clos up-down"
set title "uniform 10%"
plot "$tmp/fig7.dat" u 1:7 w lp t "FC up-down", "" u 1:8 w lp t "EDST", \
	"" u 1:9 w lp t "ECMP", "" u 1:10 w lp t "KSP-32", "" u 1:11 w lp t "Clos up-down"
unset multiplot
EOF
fi
if [ -s "$tmp/fig3.dat" ]; then
	grep '^jellyfish' "$tmp/fig3.dat" > "$tmp/jf.dat" || true
	grep '^xpander' "$tmp/fig3.dat" > "$tmp/xp.dat" || true
	gnuplot <<EOF
set terminal png size 1100,450
set datafile missing "-"
set output "$dir/fc-fig3.png"
set multiplot layout 1,2
set xlabel "ToRs N (5 inter-ToR ports)"
set ylabel "fraction of graphs with a CBD"
set yrange [-0.05:1.05]
set key bottom right
set title "Jellyfish"
plot "$tmp/jf.dat" u 2:3 w lp t "ECMP all-to-all", "" u 2:4 w lp t "ECMP uniform 10%", \
	"" u 2:5 w lp t "KSP-8 all-to-all", "" u 2:6 w lp t "KSP-8 uniform 10%"
set title "Xpander"
plot "$tmp/xp.dat" u 2:3 w lp t "ECMP all-to-all", "" u 2:4 w lp t "ECMP uniform 10%", \
	"" u 2:5 w lp t "KSP-8 all-to-all", "" u 2:6 w lp t "KSP-8 uniform 10%"
unset multiplot
EOF
fi
