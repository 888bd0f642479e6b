#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The flower data path (tagger switch attach --datapath flower) against the
# eBPF one, issue 26:
#  1. Entries per switch (tc flower filters, tagger stats --datapath
#     flower): fat-tree k=8 with 1-bounce paths between ToRs (compiled
#     --algorithm clos), fat-tree k=16 up-down between ToRs, Jellyfish-1000
#     degree 10 --seed 1 shortest paths; min, median, max per switch and
#     the largest port, beside a few budgets to compare against. No host
#     kernel support needed.
#  2. In the QEMU VM of vmlab/vm.sh (skipped when `vmlab/vm.sh info`
#     fails, or not root): the largest switch of the fat-tree k=8 table,
#     its install by `switch attach --datapath flower` against `switch
#     attach`, a one-rule `switch update` on each, alternating, medians;
#     then the per-packet cost of
#     software flower against BPF: bursts of one frame from a Python
#     AF_PACKET sender through the switch namespace (wall and busy CPU per
#     frame), with no data path as the floor (tests/bench/
#     flower_bench_guest.sh). The VM is TCG with one vCPU: only ratios
#     within this run mean anything.
# ROUNDS (default 5) and PKTS (default 20000) size part 2.
set -u
cd "$(dirname "$0")/../.." || exit 1
TOP=$PWD
T=$TOP/build/tagger
[ -x "$T" ] || { echo "bench_flower: build/tagger not built"; exit 1; }
# In the repository: the VM sees the host's / but not its /tmp.
D=$TOP/build/bench-flower
rm -rf "$D" && mkdir -p "$D" || exit 1
ROUNDS=${ROUNDS:-5}
PKTS=${PKTS:-20000}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"

# build NAME "topo ARGS" "paths ARGS" "compile ARGS"
build() {
	"$T" topo $2 -o "$D/$1.topo" &&
		"$T" paths $3 "$D/$1.topo" -o "$D/$1.elp" &&
		"$T" compile "$D/$1.topo" "$D/$1.elp" $4 --no-verify -o "$D/$1.json" >/dev/null 2>&1 ||
		{ echo "bench_flower: $1 failed"; exit 1; }
}

echo "-- 1. tc flower filters per switch (tagger stats --datapath flower)"
echo "   each IP filter is 4 tc filters (IPv4, IPv6 x untagged, 802.1Q); counted"
echo "   as switch export --offload does: one generation, without the chain-0 entry filter"
echo "   of each port and direction (2 a port); an --update holds two generations"
printf '%-34s %6s %7s %7s %7s %7s %8s %5s %6s %6s %6s\n' topology switches \
	rules/sw min median max max-port priors ">1k" ">2k" ">4k"
for spec in "fattree8-bounce1|fattree 8|bounce=1 --between tors|--algorithm clos" \
	"fattree16-updown|fattree 16|updown --between tors|" \
	"jellyfish1000-d10-shortest|jellyfish 1000 10 --seed 1|shortest|"; do
	IFS='|' read -r name topo paths comp <<<"$spec"
	build "$name" "$topo" "$paths" "$comp"
	"$T" -j stats "$D/$name.json" --datapath flower >"$D/$name.stats.json" || exit 1
	jq -r --arg n "$name" '[.per_switch[].flower_filters] | sort as $s | ($s | length) as $k |
		[$n, $k, $s[0], $s[($k / 2 | floor)], $s[-1]] | @tsv' \
		"$D/$name.stats.json" >"$D/row"
	read -r n k min med max <"$D/row"
	jq -r '[.max_switch_rules, .flower.max_port.filters, .priorities,
		([.per_switch[].flower_filters | select(. > 1024)] | length),
		([.per_switch[].flower_filters | select(. > 2048)] | length),
		([.per_switch[].flower_filters | select(. > 4096)] | length)] | @tsv' \
		"$D/$name.stats.json" >"$D/row2"
	read -r rmax pmax prio o1 o2 o4 <"$D/row2"
	printf '%-34s %6d %7d %7d %7d %7d %8d %5d %6d %6d %6d\n' "$n" "$k" "$rmax" \
		"$min" "$med" "$max" "$pmax" "$prio" "$o1" "$o2" "$o4"
done
echo "   rules/sw: the most rules (classify + rewrite) of one switch; >1k, >2k, >4k:"
echo "   switches needing more filters than 1024, 2048, 4096 entries. These are"
echo "   round numbers to compare with, not any ASIC's capacity: how many tc"
echo "   flower filters a switch's ACL/TCAM holds depends on the key width (the"
echo "   fields matched: DSCP, in-port, VLAN, group address, per family) and on how"
echo "   the driver maps chains and filters onto its regions; read it from the"
echo "   switch's own documentation or its driver's resource reports."

echo
echo "-- 2. install, one-rule update and per-packet cost in the VM (TCG, 1 vCPU)"
[ "$(id -u)" -eq 0 ] || { echo "bench_flower: part 2 needs root, skipped"; exit 0; }
info=$(bash vmlab/vm.sh info 2>&1) || { echo "bench_flower: no VM ($info), part 2 skipped"; exit 0; }
kdir=$(awk '/^cache/ { print $2 }' <<<"$info")/root
[ -d "$kdir/lib/modules" ] || { echo "bench_flower: no VM kernel modules in $kdir, skipped"; exit 0; }
R=$D/fattree8-bounce1.json
sw=$(jq -r .flower.bottleneck.switch "$D/fattree8-bounce1.stats.json")
# One rewrite of $sw (its last) now to the lossy tag: a one-rule change
# that no union check refuses.
jq --arg s "$sw" '.lossy.tag as $l | .switches[$s].rewrite[-1].new_tag |= (if . == $l then 1 else $l end)' \
	"$R" >"$D/one.json" || exit 1
[ "$(jq -c --arg s "$sw" '.switches[$s].rewrite[-1]' "$R")" != \
	"$(jq -c --arg s "$sw" '.switches[$s].rewrite[-1]' "$D/one.json")" ] ||
	{ echo "bench_flower: the rule did not change"; exit 1; }
t0=$(date +%s)
out=$(bash vmlab/vm.sh run --timeout 600 -- bash "$TOP/tests/bench/flower_bench_guest.sh" \
	"$TOP" "$kdir" "$R" "$D/one.json" "$sw" "$ROUNDS" "$PKTS" 2>&1)
rc=$?
echo "$out" >"$D/vm.out"
echo "$out" | grep -v -E '^(install|update|burst) [a-z]+ [0-9]' | sed 's/^/   /'
[ $rc -eq 0 ] || { echo "bench_flower: VM run failed (exit $rc)"; exit 1; }
echo "   VM run: $(($(date +%s) - t0)) s; load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

# median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
col() { awk -v k="$1" -v d="$2" -v c="$3" '$1 == k && $2 == d { print $c }' <<<"$out" | median; }
printf '   %-26s %10s %10s %8s\n' "median of $ROUNDS (ms)" flower bpf flower/bpf
for what in install update; do
	f=$(col "$what" flower 3) b=$(col "$what" bpf 3)
	printf '   %-26s %10s %10s %8.2f\n' "$what" "$f" "$b" "$(awk -v f="$f" -v b="$b" 'BEGIN { print f / b }')"
done
nf=$(col burst none 3) bf=$(col burst bpf 3) ff=$(col burst flower 3)
nb=$(col burst none 4) bb=$(col burst bpf 4) fb=$(col burst flower 4)
printf '   %-26s %10s %10s %10s\n' "ns a frame, median" none bpf flower
printf '   %-26s %10s %10s %10s\n' "wall" "$nf" "$bf" "$ff"
printf '   %-26s %10s %10s %10s\n' "busy CPU" "$nb" "$bb" "$fb"
range() { awk -v d="$1" '$1 == "burst" && $2 == d { v = $3; if (n++ == 0 || v < lo) lo = v; if (v > hi) hi = v }
	END { printf "%s %s-%s", d, lo, hi }' <<<"$out"; }
echo "   wall per frame, range over the rounds: $(range none), $(range bpf), $(range flower)"
for m in wall busy; do
	if [ $m = wall ]; then set -- "$nf" "$bf" "$ff"; else set -- "$nb" "$bb" "$fb"; fi
	awk -v m=$m -v n="$1" -v b="$2" -v f="$3" 'BEGIN {
		r = "n/a (bpf not above none)"
		if (b - n > 0)
			r = sprintf("%.2f", (f - n) / (b - n))
		printf "   cost over none (%s): bpf %.0f ns, flower %.0f ns, flower/bpf %s\n",
			m, b - n, f - n, r }'
done
