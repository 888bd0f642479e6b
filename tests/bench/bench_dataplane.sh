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
#  3. Live update of a switch between two 100,800-rule tables (40 ports,
#     63 tags) and of one rule in it: the tagger of BENCH_DP_REV (JSON),
#     this tree from JSON and from compiled rules (switch pack),
#     alternating, median wall and CPU, the load average; then this
#     tree's -v phases for both inputs and the floor, what one write into
#     an array of maps costs (build/bench/dp_gp).
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
part 1 && { [ -x build/bench/dp_bench ] || make -s build/bench/dp_bench >/dev/null; } && { build/bench/dp_bench "$REPEAT" ${BENCH_ENTRIES:-10 1000 100000 1000000} || exit 1; }
part2() {
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
}
! part 2 || part2 || exit 1

part 3 || exit 0
# Before: the tagger before the live-update work (its state kept the whole
# rules document, read and written in full); BENCH_DP_REV=<commit> for another.
rev=${BENCH_DP_REV:-df6948f}
A=$(bash tools/bench-ab.sh --binary "$rev" 2>/dev/null) || A=
echo
echo "-- 3. live update of one switch, 100,800 rules (40 ports, 63 tags), union check"
echo "   done; before ($rev) and after alternating, ${UROUNDS:=5} rounds, median wall"
[ -n "$A" ] || echo "   (no tagger of $rev to compare with: after only)"
python3 - "$TGR_TMP" <<'PY'
import json, sys
ports = ["p%d" % i for i in range(40)]
# One neighbour switch per port: the union check has links to follow.
links = [["big:%s" % p, "n%d:x" % i] for i, p in enumerate(ports)]
for name, bump in (("big-a", 0), ("big-b", 1)):
    r = {"format": "tagger-rules/1", "lossy": {"tag": 0, "priority": 0},
         "tags": [{"tag": t, "priority": 1 + t % 7} for t in range(1, 64)],
         "switches": {"big": {"ports": ports,
             "classify": [{"in": p, "tag": t, "priority": 1 + t % 7}
                          for p in ports for t in range(1, 64)],
             "rewrite": [{"tag": t, "in": i, "out": o, "new_tag": min(63, t + bump)}
                         for t in range(1, 64) for i in ports for o in ports if i != o]}},
         "links": links}
    json.dump(r, open("%s/%s.json" % (sys.argv[1], name), "w"))
    if bump == 0:  # big-a1: big-a with one rule changed
        r["switches"]["big"]["rewrite"][5]["new_tag"] = 7
        json.dump(r, open("%s/big-a1.json" % sys.argv[1], "w"))
PY
sides="B"
[ -z "$A" ] || sides="A B"
for side in $sides; do
	ns_new "big$side"
	tgr_on_exit "rm -f /run/tagger/net-$(stat -L -c %i "/run/netns/$(ns_name "big$side")").lock"
	for i in $(seq 0 2 38); do
		ip -n "$(ns_name "big$side")" link add "p$i" type veth peer name "p$((i + 1))"
	done
done
bin() { if [ "$1" = A ]; then echo "$A"; else echo "$T"; fi; }
now() { date +%s.%N; }
# This tree also reads the same rules compiled (tagger switch pack).
for f in a b a1; do
	"$T" switch pack "$TGR_TMP/big-$f.json" -o "$TGR_TMP/big-$f.trb" || exit 1
done
# upd SIDE KIND FILE: one update; its wall and CPU seconds (user + system,
# what a quiet machine would see) go to w[SIDE-KIND] and c[SIDE-KIND].
declare -A w c
upd() {
	TAGGER_BPF_ROOT=$BPFFS/$1/tagger /usr/bin/time -f '%e %U %S' -o "$TGR_TMP/time" \
		nsenter --net="/run/netns/$(ns_name "big$1")" "$(bin "$1")" switch update big "$TGR_TMP/big-$3" >/dev/null ||
		{ echo "update of side $1 to $3 failed" >&2; exit 1; }
	read -r e u y < "$TGR_TMP/time"
	w[$1-$2]+="$e "
	c[$1-$2]+="$(echo "$u + $y" | bc) "
}
for side in $sides; do
	mkdir -p "$BPFFS/$side"
	t0=$(now)
	TAGGER_BPF_ROOT=$BPFFS/$side/tagger nsx "big$side" "$(bin "$side")" switch attach big "$TGR_TMP/big-a.json" >/dev/null || exit 1
	echo "   attach ($side): $(echo "$(now) - $t0" | bc) s"
done
load0=$(cut -d' ' -f1-3 /proc/loadavg)
# Rounds alternate the sides and, on this tree, JSON and compiled input
# (B: JSON, C: compiled; both run on side B's switch).
for _ in $(seq "$UROUNDS"); do
	for side in $sides C; do
		s=$side x=json
		[ "$side" = C ] && s=B x=trb
		upd "$s" "$side-all" "b.$x"; upd "$s" "$side-all" "a.$x"
		upd "$s" "$side-one" "a1.$x"; upd "$s" "$side-one" "a.$x"
	done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "   load average before the rounds: $load0, after: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-28s %-22s %9s %9s\n' "update (median of $((2 * UROUNDS)))" input wall_s cpu_s
for kind in all one; do
	label=$([ $kind = all ] && echo "whole table (100,800 rules)" || echo "one rule changed")
	for side in $sides C; do
		case $side in
		A) what="JSON, tagger $rev" ;;
		B) what="JSON, this tree" ;;
		C) what="compiled, this tree" ;;
		esac
		key=$([ "$side" = A ] && echo A || echo B)-$side-$kind
		printf '%-28s %-22s %9.3f %9.3f\n' "$label" "$what" \
			"$(echo "${w[$key]}" | median)" "$(echo "${c[$key]}" | median)"
	done
done
for x in json trb; do
	echo "   where the time goes now (-v, one rule changed, $x; wall and CPU ms):"
	TAGGER_BPF_ROOT=$BPFFS/B/tagger nsx bigB "$T" -v switch update big "$TGR_TMP/big-a1.$x" 2>&1 >/dev/null |
		grep '^phase' | sed 's/^/   /'
	TAGGER_BPF_ROOT=$BPFFS/B/tagger nsx bigB "$T" switch update big "$TGR_TMP/big-a.$x" >/dev/null
done

# In place (dp_inplace.h) against replacing the table, one rule changed,
# compiled input, all on side B's switch in one sequence per round:
#   main a1   the tagger of BENCH_DP_MAIN (the main branch before the
#             in-place update), which leaves no quiescence mark
#   fallback  this tree right after it: no mark, so it replaces the table
#   in place  this tree again: the mark is there
# and "back to back": this tree at once after its own update (it waits
# for the lock its predecessor's child holds for one grace period). Timed
# inside the namespace (no nsenter), ms resolution (time.perf_counter,
# CPU from getrusage), spaced 50 ms apart but for the back-to-back one.
mrev=${BENCH_DP_MAIN:-51341a5}
M=$(bash tools/bench-ab.sh --binary "$mrev" 2>/dev/null) || M=
if [ -n "$M" ]; then
	"$M" switch pack "$TGR_TMP/big-a.json" -o "$TGR_TMP/big-a.mtrb" >/dev/null &&
		"$M" switch pack "$TGR_TMP/big-a1.json" -o "$TGR_TMP/big-a1.mtrb" >/dev/null || M=
fi
echo
echo "-- 3b. one rule of 100,800 changed, compiled rules: in place vs replacing the table"
echo "   (main = $mrev), ${IROUNDS:=15} rounds; median and fastest wall, median CPU, in ms"
[ -n "$M" ] || echo "   (no tagger of $mrev: this tree only)"
TAGGER_BPF_ROOT=$BPFFS/B/tagger nsx bigB python3 - "$T" "${M:-}" "$TGR_TMP" "$IROUNDS" <<'PY' || exit 1
import json, resource, statistics, subprocess, sys, time
T, M, tmp, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
res = {}
def run(label, binary, f, gap=0.05):
    time.sleep(gap)
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run([binary, "-j", "switch", "update", "big", f],
                         stdout=subprocess.PIPE, check=True).stdout
    w = (time.perf_counter() - t0) * 1e3
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    c = (r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime) * 1e3
    place = json.loads(out).get("in_place")
    res.setdefault(label, []).append((w, c, place))
for k in range(rounds):
    a, b = ("a1", "a") if k % 2 else ("a", "a1")
    if M:
        run("main (%s)" % M.split("/")[-2][:7], M, "%s/big-%s.mtrb" % (tmp, a))
        run("this tree, fallback", T, "%s/big-%s.trb" % (tmp, b))
    else:
        run("this tree", T, "%s/big-%s.trb" % (tmp, b))
    run("this tree, in place", T, "%s/big-%s.trb" % (tmp, a))
    run("this tree, back to back", T, "%s/big-%s.trb" % (tmp, b), gap=0)
print("   %-28s %8s %8s %8s  %s" % ("update", "wall", "fastest", "CPU", "in place"))
for label, v in res.items():
    places = sorted({str(p) for _, _, p in v})
    print("   %-28s %8.1f %8.1f %8.1f  %s" % (label, statistics.median(x[0] for x in v),
          min(x[0] for x in v), statistics.median(x[1] for x in v), "/".join(places)))
# Starting the process alone (libbpf, jansson, glpk, libstdc++ ...).
w = []
for _ in range(30):
    t0 = time.perf_counter()
    subprocess.run([T, "--version"], stdout=subprocess.DEVNULL, check=True)
    w.append((time.perf_counter() - t0) * 1e3)
print("   %-28s %8.1f %8.1f" % ("tagger --version", statistics.median(w), min(w)))
PY
echo "   where the time goes in place (-v, one rule changed, compiled; wall and CPU ms):"
TAGGER_BPF_ROOT=$BPFFS/B/tagger nsx bigB "$T" switch update big "$TGR_TMP/big-a.trb" >/dev/null
sleep 0.05
TAGGER_BPF_ROOT=$BPFFS/B/tagger nsx bigB "$T" -v switch update big "$TGR_TMP/big-a1.trb" 2>&1 >/dev/null |
	grep '^phase' | sed 's/^/   /'
echo "   load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "   the floor: one write into an array of maps (build/bench/dp_gp, 20 runs)"
[ -x build/bench/dp_gp ] || make -s build/bench/dp_gp >/dev/null || exit 1
build/bench/dp_gp 20 | sed 's/^/   /'
