#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# vmlab/plot-runs.sh PNG TITLE LABEL=DIR...: per-flow throughput over time
# of several scenario runs (each DIR written by scenario.sh's sc_run_mode),
# one panel per run, side by side: the flows' 100 ms samples, each event
# as a dashed line where it took effect, the observation window shaded
# (its second half darker). The experiments (reuse, hierarchy) plot their
# schemes with it.
set -u
png=${1:?usage: plot-runs.sh PNG TITLE LABEL=DIR...} title=${2:?}; shift 2
command -v gnuplot >/dev/null || { echo "(gnuplot missing: no PNG)" >&2; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{
	echo "set terminal pngcairo size $((560 * $#)),420 font ',10'"
	echo "set output '$png'"
	echo "set multiplot layout 1,$# title '$title'"
	echo "set xlabel 'time (s)'; set ylabel 'Mbit/s'; set grid; set key below horizontal"
	echo "set yrange [0:*]"
	i=0
	for arg in "$@"; do
		label=${arg%%=*} d=${arg#*=} i=$((i + 1))
		t0=$(awk '$1 == "t0" { print $2 }' "$d/meta.tsv" 2>/dev/null)
		[ -n "$t0" ] || { echo "set title '$label: no run'"; echo "plot 0 notitle"; continue; }
		echo "unset arrow; unset label; unset object"
		read -r from to < <(awk '$1 == "last" { l = $2 } $1 == "stop" { s = $2 } END { print l, s }' "$d/meta.tsv")
		if [ -n "${to:-}" ]; then
			half=$(echo "($from + $to) / 2 - $t0" | bc -l)
			echo "set object rect from $(echo "$from - $t0" | bc -l), graph 0 to $half, graph 1 fc rgb '#eeeeee' fs solid noborder behind"
			echo "set object rect from $half, graph 0 to $(echo "$to - $t0" | bc -l), graph 1 fc rgb '#dcdcdc' fs solid noborder behind"
		fi
		awk -F'\t' -v t0="$t0" '$2 != "start" && $2 != "ready" {
			printf "set arrow from %f, graph 0 to %f, graph 1 nohead dt 2 lc rgb \"gray40\"\n", $1 - t0, $1 - t0
			printf "set label \"%s\" at %f, graph 0.97 rotate by 90 right font \",8\" tc rgb \"gray30\"\n", $2, $1 - t0 }' \
			"$d/events.tsv"
		echo "set title '$label'"
		printf 'plot '
		sep=
		while read -r id name; do
			cat "$d"/rx-*.json 2>/dev/null | jq -r --argjson id "$id" --argjson t0 "$t0" \
				'select(.flow == $id and (.final | not)) | "\(.t - $t0)\t\(.mbps)"' |
				sort -n > "$tmp/$i.$id.tsv"
			printf "%s'%s' using 1:2 with lines lw 2 title 'flow %s %s'" "$sep" "$tmp/$i.$id.tsv" "$id" "$name"
			sep=', '
		done < <(jq -r '.[] | "\(.id) \(.src)->\(.dst)"' "$d/flows.json")
		echo
	done
	echo "unset multiplot"
} > "$tmp/plot.gp"
gnuplot "$tmp/plot.gp" 2>&1 | grep -v '^$' >&2
true
