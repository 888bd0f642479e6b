#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Data plane speed (root; skips otherwise), three parts, each measured
# within one run on a shared machine:
#  1. Added cost per packet of tagger_ingress + tagger_egress over an empty
#     tc program, BPF_PROG_TEST_RUN repeat, from 10 to 1,000,000 table
#     entries (build/bench/dp_bench; goal <= 30 ns, flat).
#  2. Forwarding throughput a -> sw -> b (namespaces, veth) with the
#     programs on sw's ports vs without, alternating runs: TCP (iperf3) and
#     small UDP packets (goal >= 95 %).
#  3. Time to update a switch to 100,000 rules (40 ports, 63 tags).
set -u
cd "$(dirname "$0")/../.." || exit 1
[ "$(id -u)" -eq 0 ] || { echo "bench_dataplane: needs root, skipped"; exit 0; }
TGR_PREFIX=tgrb$(printf "%04x" $((RANDOM)))
export TGR_PREFIX
source tests/lib.sh
T=$TOP/build/tagger
BPFFS=$TGR_TMP/bpffs
export TAGGER_BPF_ROOT=$BPFFS/tagger
mkdir -p "$BPFFS" && mount -t bpf bpf "$BPFFS" || { echo "no bpffs"; exit 1; }
bench_cleanup() {
	rm -rf "$TAGGER_BPF_ROOT"
	umount "$BPFFS" 2>/dev/null
}
tgr_on_exit bench_cleanup
nsx() { local n=$1; shift; nsenter --net="/run/netns/$(ns_name "$n")" "$@"; }

parts=${BENCH_PARTS:-1 2 3}
part() { [[ " $parts " == *" $1 "* ]]; }

part 1 && echo "-- 1. per-packet cost (BPF_PROG_TEST_RUN, ${REPEAT:=1000000} runs x 5 rounds, fastest round)"
part 1 && { build/bench/dp_bench "$REPEAT" ${BENCH_ENTRIES:-10 1000 100000 1000000} || exit 1; }
part 2 || exit 0

echo
echo "-- 2. forwarding a -> sw -> b through veth, with / without the programs on sw"
for n in a sw b; do ns_new "$n"; done
ip -n "$(ns_name a)" link add eth0 type veth peer name pa netns "$(ns_name sw)"
ip -n "$(ns_name b)" link add eth0 type veth peer name pb netns "$(ns_name sw)"
for x in "a eth0 10.1.1.1/24" "sw pa 10.1.1.254/24" "sw pb 10.1.2.254/24" "b eth0 10.1.2.1/24"; do
	set -- $x
	ip -n "$(ns_name "$1")" addr add "$3" dev "$2"
	ip -n "$(ns_name "$1")" link set dev "$2" up
done
ip -n "$(ns_name a)" route add default via 10.1.1.254
ip -n "$(ns_name b)" route add default via 10.1.2.254
nsx sw sysctl -qw net.ipv4.ip_forward=1
cat > "$TGR_TMP/fwd.json" <<'JSON'
{ "format": "tagger-rules/1", "lossy": { "tag": 0, "priority": 0 },
  "tags": [ { "tag": 10, "priority": 3 } ],
  "switches": { "sw": { "ports": [ "pa", "pb" ],
    "classify": [ { "in": "*", "tag": 10, "priority": 3 } ],
    "rewrite": [ { "tag": 10, "in": "pa", "out": "pb", "new_tag": 10 },
                 { "tag": 10, "in": "pb", "out": "pa", "new_tag": 10 } ] } } }
JSON
nsx b iperf3 -s -D >/dev/null 2>&1
sleep 0.5
# run MODE KIND: one iperf3 run; prints bits/s (tcp) or packets/s (udp).
run() {
	local j
	sleep 0.3	# the server takes one client at a time
	if [ "$2" = tcp ]; then
		j=$(nsx a iperf3 -c 10.1.2.1 -t "${SECS:-3}" -S 0x28 -J) || return 1
		echo "$j" | python3 -c 'import json,sys; print("%.1f" % json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"])'
	else
		j=$(nsx a iperf3 -c 10.1.2.1 -u -b 0 -l 64 -t "${SECS:-3}" -S 0x28 -J) || return 1
		echo "$j" | python3 -c 'import json,sys; e=json.load(sys.stdin)["end"]["sum"]; print("%.1f" % ((e["packets"] - e["lost_packets"]) / e["seconds"]))'
	fi
}
declare -A sum
for _ in $(seq "${ROUNDS:-3}"); do
	for mode in without with; do
		if [ "$mode" = with ]; then
			nsx sw "$T" switch attach sw "$TGR_TMP/fwd.json" >/dev/null || exit 1
		fi
		for kind in tcp udp; do
			v=$(run "$mode" "$kind") || { echo "iperf3 failed"; exit 1; }
			sum[$mode$kind]=$(awk -v a="${sum[$mode$kind]:-0}" -v b="$v" 'BEGIN { printf "%.1f", a + b }')
		done
		if [ "$mode" = with ]; then
			tagged=$(nsx sw "$T" -j switch show sw | python3 -c 'import json,sys; d=json.load(sys.stdin); print(sum(c["packets"] for p in d["ports"] if p["port"] == "pa" for c in p["in"] if c["lossless"]))')
			nsx sw "$T" switch detach sw >/dev/null || exit 1
		fi
	done
done
printf '%-10s %16s %16s %8s\n' traffic without with ratio
for kind in tcp udp; do
	unit=$([ $kind = tcp ] && echo "Gbit/s" || echo "kpps")
	div=$([ $kind = tcp ] && echo 1e9 || echo 1e3)
	awk -v k="$kind" -v u="$unit" -v d="$div" -v r="${ROUNDS:-3}" -v w="${sum[without$kind]}" \
		-v x="${sum[with$kind]}" 'BEGIN {
		printf "%-10s %9.2f %-6s %9.2f %-6s %7.1f%%\n", k, w / r / d, u, x / r / d, u, 100 * x / w }'
done
echo "(last run with the programs: $tagged packets classified lossless on sw:pa)"

part 3 || exit 0
echo
echo "-- 3. update to 100,000 rules (one switch, 40 ports, 63 tags)"
ns_new big
for i in $(seq 0 2 38); do
	ip -n "$(ns_name big)" link add "p$i" type veth peer name "p$((i + 1))"
done
python3 - "$TGR_TMP" <<'PY'
import json, sys
ports = ["p%d" % i for i in range(40)]
for name, bump in (("big-a", 0), ("big-b", 1)):
    r = {"format": "tagger-rules/1", "lossy": {"tag": 0, "priority": 0},
         "tags": [{"tag": t, "priority": 1 + t % 7} for t in range(1, 64)],
         "switches": {"big": {"ports": ports,
             "classify": [{"in": p, "tag": t, "priority": 1 + t % 7}
                          for p in ports for t in range(1, 64)],
             "rewrite": [{"tag": t, "in": i, "out": o, "new_tag": min(63, t + bump)}
                         for t in range(1, 64) for i in ports for o in ports if i != o]}}}
    json.dump(r, open("%s/%s.json" % (sys.argv[1], name), "w"))
PY
now() { date +%s.%N; }
t0=$(now)
nsx big "$T" switch attach big "$TGR_TMP/big-a.json" >/dev/null || exit 1
t1=$(now)
printf '%-28s %8s %10s %10s\n' step rules wall_s swap_s
printf '%-28s %8s %10.3f %10s\n' "attach (load + table)" 100800 "$(echo "$t1 - $t0" | bc)" -
for f in b a b; do
	t0=$(now)
	j=$(nsx big "$T" -j switch update big "$TGR_TMP/big-$f.json" --force) || exit 1
	t1=$(now)
	printf '%-28s %8s %10.3f %10.3f\n' "update to $f" \
		"$(echo "$j" | python3 -c 'import json,sys; print(json.load(sys.stdin)["entries"])')" \
		"$(echo "$t1 - $t0" | bc)" \
		"$(echo "$j" | python3 -c 'import json,sys; print(json.load(sys.stdin)["swap_seconds"])')"
done
echo "(wall: the whole command, parsing 100,800 rules of JSON included; swap: build"
echo " the table, write it into a fresh map, swap it in)"
