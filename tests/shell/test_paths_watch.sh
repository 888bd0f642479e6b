#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The routing watched (tagger metrics serve --check-fib) and the flows
# demoted off the ELP named (the switch data plane's samples), on vmlab's
# Clos of namespaces routed by the up-down paths, every switch attached
# with the up-down rules. h2 sends a lossless UDP flow to h1; L2 loses its
# link to T1 and its fast reroute bounces the flow up through S1, which
# the rules do not keep lossless (T2's route to h1 is pinned to its ECMP
# next hop L2 first, a path of the ELP, so that the flow crosses L2):
#  - tagger_paths_not_lossless rises from 0 within 2 s of the failure's routes (the
#    delay printed), naming the rerouted path; the route events counted
#  - S1 demotes the flow at its port L1 (no_rewrite: the bounce down, up
#    and down again has no rewrite rule) and switch show -j names it:
#    h2's address and port to h1's, UDP, in L2, out L1; the metrics too
#    (tagger_switch_demoted_sample_age_seconds)
#  - a flood of the flow gives at most one sample per 100 ms on the port
#    (plus one per CPU for the races the rate limit allows)
# The metrics pass promtool's lint.
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd jq
require_cmd curl
require_cmd python3
source "$TOP/tests/shell/fib_lab.sh"
F=${TGR_PREFIX}w
tgr_on_exit '$VMLAB -n $F down'
cd "$TGR_TMP" || exit 1
T=$TAGGER
jqe() { jq -e "$@" >/dev/null; }
in_ns() { local n=$1; shift; nsenter --net="/run/netns/$F-$n" "$@"; }

"$T" paths updown "$S/clos.topo" -o updown.elp || fail "paths updown"
"$T" compile "$S/clos.topo" updown.elp -o updown.json >/dev/null || fail "compile updown"
check "lab up (routed by the up-down paths)" $VMLAB -n "$F" up "$S/clos.topo" --paths updown.elp
inventory "$F" >inv
for s in $(awk '$1 == "switch" { print $2 }' "$S/clos.topo"); do
	in_ns "$s" "$T" switch attach "$s" updown.json >/dev/null ||
		fail "switch attach $s"
done

# T2 sends h1's traffic through L2 only (its other up-down next hop is L1).
h1=$(ip -n "$F-h1" -j addr show | jq -r '[.[].addr_info[] | select(.family == "inet" and .scope == "global") | .local][0]')
gw=$(ip -n "$F-T2" -j route show "$h1/32" | jq -r '.[0].nexthops[] | select(.dev == "L2") | .gateway')
check "T2: h1 through L2" ip -n "$F-T2" route replace "$h1/32" via "$gw" dev L2

# The metrics server of S1, in S1's namespace, watching every switch.
in_ns S1 "$T" metrics serve --listen 127.0.0.1:0 --switch S1 \
	--check-fib updown.json --topo "$S/clos.topo" --inventory inv \
	>serve.out 2>serve.err &
bg_track $!
for _ in $(seq 200); do
	[ -s serve.out ] && break
	sleep 0.05
done
url=$(awk '{ print $3 }' serve.out)
[ -n "$url" ] || fail "metrics serve did not start: $(cat serve.err)"
scrape() { in_ns S1 curl -sf "$url"; }
# metric NAME: its value (the first sample), or nothing.
metric() { scrape | awk -v n="$1" '$1 == n { print $2; exit }'; }

check "before: the routing's 72 paths but h2's to h1 through L1" \
	test "$(metric tagger_paths_routed)" = 71
check "... all kept lossless" test "$(metric tagger_paths_not_lossless)" = 0
scrape >before.prom
check "the metrics pass promtool" bash -c "promtool check metrics <before.prom"

# h2 -> h1, UDP 40000 -> 5000, with h2's tag, 200 packets a second.
tag=$(jq '.hosts.h2.tag' updown.json)
dst=$h1
src=$(ip -n "$F-h2" -j addr show | jq -r '[.[].addr_info[] | select(.family == "inet" and .scope == "global") | .local][0]')
# send SECONDS RATE (0: as fast as it can)
send() {
	in_ns h2 python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, int(sys.argv[1]) << 2)
s.bind(("0.0.0.0", 40000))
end, gap = time.time() + float(sys.argv[3]), float(sys.argv[4])
while time.time() < end:
    s.sendto(b"x" * 64, (sys.argv[2], 5000))
    if gap:
        time.sleep(gap)
' "$tag" "$dst" "$@"
}
send 8 0.005 &
sender=$!
bg_track $sender
sleep 1

# The delay is measured from the end of the failure command (its routes
# all changed: the time vmlab itself takes on a busy machine is not the
# watcher's), and printed from its start too.
t0=$EPOCHREALTIME
check "fail L2:T1" $VMLAB -n "$F" fail L2:T1
t1=$EPOCHREALTIME
delay=
while [ "$(echo "$EPOCHREALTIME - $t1 < 5" | bc)" = 1 ]; do
	v=$(metric tagger_paths_not_lossless)
	if [ -n "$v" ] && [ "$v" != 0 ]; then
		delay=$(echo "$EPOCHREALTIME - $t1" | bc)
		break
	fi
	sleep 0.05
done
echo "tagger_paths_not_lossless rose to $v ${delay:-more than 5} s after the failure's routes changed" \
	"($(echo "$t1 - $t0" | bc) s of vmlab fail before; check took $(metric tagger_paths_check_duration_seconds) s)"
check "... within 2 s" test -n "$delay" -a "$(echo "${delay:-9} < 2" | bc)" = 1
scrape >after.prom
check "the rerouted path named" grep -q '^tagger_paths_not_lossless_path{rank="[0-9]*",path="h2 T2 L2 S1 L1 T1 h1"} 1$' after.prom
check "route events counted" awk '$1 == "tagger_paths_route_events_total" && $2 > 0 { ok = 1 } END { exit !ok }' after.prom
check "the metrics pass promtool" bash -c "promtool check metrics <after.prom"

sleep 0.5
in_ns S1 "$T" -j switch show S1 >show.json || fail "switch show S1"
jq -c '.demoted_samples[-1]' show.json
check "switch show names the demoted flow" jqe --arg s "$src" --arg d "$dst" '
	[.demoted_samples[] | select(.src == $s and .dst == $d and .sport == 40000 and
		.dport == 5000 and .proto == 17 and .in_port == "L2" and .out_port == "L1" and
		.reason == "no_rewrite")] | length > 0' show.json
check "... and its port counted no_rewrite demotions" jqe '.ports[] | select(.port == "L1") | .lossy.no_rewrite > 0' show.json
in_ns S1 "$T" switch show S1 >show.txt
check "switch show prints it" grep -q "in L2 .* out L1 .* udp $src:40000 -> $dst:5000" show.txt
scrape >samples.prom
check "the metrics name it too" grep -q "^tagger_switch_demoted_sample_age_seconds{node=\"S1\",sample=\"0\",in_port=\"L2\",out_port=\"L1\",src=\"$src\",dst=\"$dst\",proto=\"17\",sport=\"40000\",dport=\"5000\"" samples.prom
wait "$sender"

# A flood: at most one sample per 100 ms on L1 (and one per CPU for races).
taken() { in_ns S1 "$T" -j switch show S1 | jq '[.ports[] | select(.port == "L1")][0] | .samples.taken, .lossy.no_rewrite'; }
read -r -d '' t1 d1 < <(taken)
start=$EPOCHREALTIME
send 2 0
secs=$(echo "$EPOCHREALTIME - $start" | bc)
read -r -d '' t2 d2 < <(taken)
bound=$(echo "($secs / 0.1 + 1 + $(nproc)) / 1" | bc)
echo "flood: $((d2 - d1)) packets demoted in $secs s, $((t2 - t1)) samples (at most $bound)"
check "the flood was demoted" test $((d2 - d1)) -gt 1000
check "... and sampled at most once per 100 ms" test $((t2 - t1)) -le "$bound"
check "... but sampled" test $((t2 - t1)) -ge 5
check "lab down" $VMLAB -n "$F" down
