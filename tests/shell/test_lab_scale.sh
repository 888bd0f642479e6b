#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The parallel bring-up and the one-pass teardown of vmlab (what makes a
# k = 8 fat-tree take seconds, tests/bench/bench_lab_scale.sh): the jobs
# runner passes a line's words, reports any job's failure and waits only
# for its own jobs; a k = 4 fat-tree comes up with every address, link,
# neighbour and route of its plan on every node, sysctls and offloads
# set; down kills the lab's stray processes and no other, and leaves no
# namespace behind.
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd jq
VMLAB=$TOP/vmlab/vmlab
L=${TGR_PREFIX}f
tgr_on_exit '$VMLAB -n $L down'

# The jobs runner, in a shell of its own (lib.sh sets -u).
runner() {
	# shellcheck disable=SC2016
	bash -c 'source "$1/vmlab/lib.sh"; shift; "$@"' sh "$TOP" "$@"
}
out=$(printf 'a b\nc d\n' | runner _lab_parallel 'echo "$2-$1"' | sort | tr '\n' ' ')
check "each line's words are the job's arguments ($out)" [ "$out" = "b-a d-c " ]
if printf '0\n1\n0\n' | runner _lab_parallel 'exit $1'; then
	fail "a failed job went unreported"
fi
echo "ok: a failed job fails the runner"
# A job of the caller (a spawned agent) is not the runner's to wait for.
# shellcheck disable=SC2016
check "the runner does not wait for the caller's other jobs" timeout 20 \
	bash -c 'source "$1/vmlab/lib.sh"; sleep 60 & s=$!; printf "1\n2\n" | _lab_parallel "true"; r=$?; kill $s; exit $r' sh "$TOP"
mkdir -p "$TGR_TMP/c"
# shellcheck disable=SC2016
n=$(seq 12 | LAB_JOBS=3 D=$TGR_TMP/c runner _lab_parallel \
	'touch "$D/$1"; ls "$D" | wc -l; sleep 0.2; rm "$D/$1"' | sort -n | tail -1)
check "LAB_JOBS=3 runs at most 3 at a time (saw $n)" [ "${n:-0}" -ge 1 ] && [ "${n:-9}" -le 3 ]

"$TAGGER" topo fattree 4 -o "$TGR_TMP/ft4.topo" || fail "topo fattree"
"$TAGGER" paths updown "$TGR_TMP/ft4.topo" -o "$TGR_TMP/ft4.elp" || fail "paths updown"
check "k = 4 fat-tree up" $VMLAB -n "$L" up "$TGR_TMP/ft4.topo" --paths "$TGR_TMP/ft4.elp"
check "36 namespaces" [ "$(ip netns list | awk '{ print $1 }' | grep -c "^$L-")" -eq 36 ]
plan=/run/tagger-lab/$L/plan
bad=0
for n in $(awk '$1 == "switch" || $1 == "host" { print $2 }' "$TGR_TMP/ft4.topo"); do
	ns=$L-$n
	want_r=$(awk -v n="$n" '$1 == "route" && $2 == n' "$plan" | wc -l)
	want_a=$(awk -v n="$n" '$1 == "addr" && $2 == n' "$plan" | wc -l)
	got_r=$(ip -n "$ns" -4 route show | grep -v 'proto kernel' | grep -c '^[0-9]')
	got_a=$(ip -n "$ns" -4 -o addr show scope global | wc -l)
	got_n=$(ip -n "$ns" neigh show nud permanent | wc -l)
	got_up=$(ip -n "$ns" -o link show up | grep -vc ': lo:')
	if [ "$got_r" -ne "$want_r" ] || [ "$got_a" -ne "$want_a" ] ||
	   [ "$got_n" -ne "$want_a" ] || [ "$got_up" -ne "$want_a" ]; then
		echo "$n: routes $got_r/$want_r, addresses $got_a/$want_a, neighbours $got_n, links up $got_up" >&2
		bad=1
	fi
done
check "every node has its plan's addresses, links, neighbours and routes" [ $bad = 0 ]
check "switches forward" [ "$(ip netns exec "$L-S1" sysctl -n net.ipv4.ip_forward)" = 1 ]
check "hosts do not" [ "$(ip netns exec "$L-h1" sysctl -n net.ipv4.ip_forward)" = 0 ]
check "no IPv6 on hosts" [ "$(ip netns exec "$L-h1" sysctl -n net.ipv6.conf.all.disable_ipv6)" = 1 ]
p=$(awk '$1 == "addr" && $2 == "S1" { print $3; exit }' "$plan")
check "TSO off on S1:$p" bash -c "ip netns exec $L-S1 ethtool -k $p | grep -q '^tcp-segmentation-offload: off'"
# The host's last route goes across the fabric: it needs every hop.
last=$(awk '$1 == "host" { a = $3 } END { print a }' "$plan")
check "h1 reaches the last host through the fabric" \
	bash -c "ip -n $L-h1 route get $last | grep -q via"

# The data plane on every node, LAB_JOBS at a time (scenario-nodes.sh),
# with one switch that cannot attach (a port renamed away): the others
# attach, and the failure names that one.
sc() {
	# shellcheck disable=SC2016
	bash -c 'source "$1/vmlab/scenario.sh"; lab_init "$2"; SC_DIR=$3; shift 3; "$@"' \
		sh "$TOP" "$L" "$TGR_TMP/sc" "$@"
}
mkdir -p "$TGR_TMP/sc"
p2=$(awk '$1 == "addr" && $2 == "S2" { print $3; exit }' "$plan")
ip -n "$L-S2" link set dev "$p2" down && ip -n "$L-S2" link set dev "$p2" name "x$p2" ||
	fail "rename S2:$p2"
out=$(sc sc_dataplane plain 2>&1) && fail "the data plane came up without S2's $p2"
echo "$out" | grep -q "failed on 1 node(s): S2 " || fail "the failure does not name S2: $out"
echo "ok: the failure names S2: $out"
n_ok=$(find "$TGR_TMP/sc/attach" -name '*.log' | wc -l)
check "36 nodes tried, 1 failed" [ "$n_ok" = 36 ] && [ "$(find "$TGR_TMP/sc/attach" -name '*.failed' | wc -l)" = 1 ]
bad=0
for n in $(awk '$1 == "switch" { print $2 }' "$TGR_TMP/ft4.topo"); do
	[ "$n" = S2 ] && continue
	$VMLAB -n "$L" exec "$n" "$TAGGER" switch show "$n" >/dev/null 2>&1 || { echo "$n: not attached" >&2; bad=1; }
done
check "every other switch attached side by side" [ $bad = 0 ]

# A stray process of the lab and one in a namespace of this test.
ns_new other
ns_exec other sleep 60 &
keep=$!
bg_track $keep
$VMLAB -n "$L" exec T1 sleep 60 &
stray=$!
sleep 0.5
check "down" $VMLAB -n "$L" down
sleep 0.2
if kill -0 "$stray" 2>/dev/null; then fail "the lab's stray process survived down"; fi
echo "ok: down killed the lab's stray process"
check "a process in another namespace lives on" kill -0 "$keep"
check "no namespace of the lab left" [ "$(ip netns list | awk '{ print $1 }' | grep -c "^$L-")" -eq 0 ]
check "no state left" [ ! -e "/run/tagger-lab/$L" ]
