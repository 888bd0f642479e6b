#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The line lab of the data-plane tests, sourced after tests/lib.sh:
#   h1 - S1 - S2 - S3 - h2, and h3 on S2 (tests/shell/fixtures/dp_line.topo)
# Every node is a namespace; interfaces carry the topology's port names.
# Tagger runs through nsenter, not "ip netns exec", which remounts /sys and
# would hide pins under /sys/fs/bpf. Pins go to a bpffs of this run's own,
# mounted under its temporary directory (the machine may have none at
# /sys/fs/bpf, and others' pins are none of our business).
DP_UDP="$TOP/tests/shell/dp_udp.py"
FIX="$TOP/tests/shell/fixtures"
DP_BPFFS="$TGR_TMP/bpffs"
export TAGGER_BPF_ROOT=$DP_BPFFS/tagger
_dp_sniffers=()

dp_cleanup() {
	local p n
	for p in "${_dp_sniffers[@]}"; do kill "$p" 2>/dev/null; done
	# The lock files tagger made for our namespaces (dp_pin.h).
	# shellcheck disable=SC2154 # _tgr_ns is lib.sh's
	for n in "${_tgr_ns[@]}"; do
		[ -e "/run/netns/$n" ] && rm -f "/run/tagger/net-$(stat -L -c %i "/run/netns/$n").lock"
	done
	# Unpinning the tcx links detaches them; the namespaces go with lib.sh.
	if mountpoint -q "$DP_BPFFS" 2>/dev/null; then
		rm -rf "$TAGGER_BPF_ROOT"
		umount "$DP_BPFFS"
	fi
}
tgr_on_exit dp_cleanup

nsx() { local n=$1; shift; nsenter --net="/run/netns/$(ns_name "$n")" "$@"; }
tgr() { local n=$1; shift; nsx "$n" "$TAGGER" "$@"; }

# veth between a:pa and b:pb, created inside a's namespace.
dp_link() {
	ip -n "$(ns_name "$1")" link add "$2" type veth peer name "$4" \
		netns "$(ns_name "$3")" || fail "veth $1:$2 $3:$4"
	ip -n "$(ns_name "$1")" link set dev "$2" up
	ip -n "$(ns_name "$3")" link set dev "$4" up
}

dp_addr() { ip -n "$(ns_name "$1")" addr add "$3" dev "$2"; }
dp_route() { ip -n "$(ns_name "$1")" route add "$2" via "$3"; }
dp_addr6() { ip -n "$(ns_name "$1")" addr add "$3" dev "$2" nodad; }

dp_bpffs_up() {
	mkdir -p "$DP_BPFFS"
	mount -t bpf bpf "$DP_BPFFS" || skip "cannot mount a bpffs"
}

# dp_dummies NODE IFNAME...: a namespace with interfaces to attach to, up
# (veth pairs: the kernel may have no dummy driver; the peers are IFNAME-p).
dp_dummies() {
	local n=$1 i
	shift
	ns_new "$n"
	for i in "$@"; do
		ip -n "$(ns_name "$n")" link add name "$i" type veth peer name "$i-p" || fail "dummy $n:$i"
		ip -n "$(ns_name "$n")" link set dev "$i" up
	done
}

dp_lab_up() {
	local n
	dp_bpffs_up
	for n in h1 h2 h3 S1 S2 S3; do ns_new "$n"; done
	for n in S1 S2 S3; do
		nsx "$n" sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1
	done
	dp_link h1 eth0 S1 hp
	dp_link S1 r S2 l
	dp_link S2 r S3 l
	dp_link S3 hp h2 eth0
	dp_link h3 eth0 S2 hp
	dp_addr h1 eth0 10.0.1.1/24; dp_addr S1 hp 10.0.1.254/24
	dp_addr S1 r 10.0.12.1/30; dp_addr S2 l 10.0.12.2/30
	dp_addr S2 r 10.0.23.1/30; dp_addr S3 l 10.0.23.2/30
	dp_addr S3 hp 10.0.2.254/24; dp_addr h2 eth0 10.0.2.1/24
	dp_addr S2 hp 10.0.3.254/24; dp_addr h3 eth0 10.0.3.1/24
	ip -n "$(ns_name h1)" route add default via 10.0.1.254
	ip -n "$(ns_name h2)" route add default via 10.0.2.254
	ip -n "$(ns_name h3)" route add default via 10.0.3.254
	dp_route S1 10.0.2.0/24 10.0.12.2; dp_route S1 10.0.3.0/24 10.0.12.2
	dp_route S2 10.0.1.0/24 10.0.12.1; dp_route S2 10.0.2.0/24 10.0.23.2
	ip -n "$(ns_name S3)" route add default via 10.0.23.1
	# IPv6 along h1 - S1 - S2 - S3 - h2 (nodad: usable at once).
	dp_addr6 h1 eth0 fd00:1::1/64; dp_addr6 S1 hp fd00:1::fe/64
	dp_addr6 S1 r fd00:12::1/64; dp_addr6 S2 l fd00:12::2/64
	dp_addr6 S2 r fd00:23::1/64; dp_addr6 S3 l fd00:23::2/64
	dp_addr6 S3 hp fd00:2::fe/64; dp_addr6 h2 eth0 fd00:2::1/64
	ip -n "$(ns_name h1)" -6 route add default via fd00:1::fe
	ip -n "$(ns_name h2)" -6 route add default via fd00:2::fe
	ip -n "$(ns_name S1)" -6 route add fd00:2::/64 via fd00:12::2
	ip -n "$(ns_name S2)" -6 route add fd00:2::/64 via fd00:23::2
	ip -n "$(ns_name S2)" -6 route add fd00:1::/64 via fd00:12::1
	ip -n "$(ns_name S3)" -6 route add default via fd00:23::1
	# Resolve neighbours now, so the first test packets are not queued.
	dp_reach h1 10.0.2.1 h2; dp_reach h1 10.0.3.1 h3; dp_reach h2 10.0.1.1 h1
	dp_reach h1 fd00:2::1 h2
}

# dp_reach FROM ADDR TO: a UDP packet from FROM arrives at TO (neighbour
# discovery may drop the first ones: a few tries on a busy machine).
dp_reach() {
	local _
	for _ in 1 2 3 4 5; do
		dp_sniff "$3" eth0 9 "reach-$3"
		nsx "$1" python3 "$DP_UDP" send "$2" 9 0 3 10
		sleep 0.2
		dp_sniff_stop
		[ -s "$TGR_TMP/reach-$3" ] && return 0
	done
	fail "$1 cannot reach $3 ($2)"
}

# dp_sniff NODE IFNAME PORT NAME: packet socket on NODE's IFNAME; the
# packets it saw land in $TGR_TMP/NAME when dp_sniff_stop runs.
dp_sniff() {
	local ready="$TGR_TMP/$4.ready" _
	# Not through nsx: $! must be the sniffer itself, not a subshell.
	nsenter --net="/run/netns/$(ns_name "$1")" \
		python3 "$DP_UDP" sniff "$2" "$3" "$ready" "$TGR_TMP/$4" &
	_dp_sniffers+=($!)
	for _ in $(seq 100); do [ -e "$ready" ] && return 0; sleep 0.05; done
	fail "sniffer on $1:$2 did not start"
}

dp_sniff_stop() {
	local p
	for p in "${_dp_sniffers[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${_dp_sniffers[@]}"; do wait "$p" 2>/dev/null; done
	_dp_sniffers=()
}

# The rules: compiled by "tagger compile" when it exists, else the fixture.
dp_rules() {
	local out=$1
	if "$TAGGER" compile help >/dev/null 2>&1; then
		"$TAGGER" compile "$FIX/dp_line.topo" "$FIX/dp_line.elp" -o "$out" \
			>"$TGR_TMP/compile.log" 2>&1 || { cat "$TGR_TMP/compile.log"; fail "tagger compile"; }
		echo "rules compiled by tagger compile"
	else
		cp "$FIX/dp_line.rules.json" "$out"
		echo "rules from the fixture (no tagger compile yet)"
	fi
}

# dp_expect NAME COUNT TOS: the sniffer NAME saw packets 0..COUNT-1, each
# once, all with traffic class TOS (decimal).
dp_expect() {
	local f="$TGR_TMP/$1" got bad
	[ -e "$f" ] || fail "$1: no capture"
	got=$(awk '{print $1}' "$f" | sort -un | awk -v n="$2" '$1 < n' | wc -l)
	bad=$(awk -v t="$3" '$2 != t' "$f" | wc -l)
	[ "$got" -eq "$2" ] || fail "$1: $got of $2 packets seen"
	[ "$bad" -eq 0 ] || fail "$1: $bad packets with another tag than tos $3: $(awk '{print $2}' "$f" | sort | uniq -c | tr '\n' ' ')"
	echo "ok: $1: $2 packets, tos $3 (dscp $(($3 >> 2)), ecn $(($3 & 3)))"
}

# dp_json EXPR: evaluate a python expression over the JSON on stdin (as d).
dp_json() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }
# dp_json_lines EXPR: the same for each JSON document, one a line.
dp_json_lines() {
	python3 -c "import json,sys
for l in sys.stdin:
    if l.strip():
        d = json.loads(l); print($1)"
}

# dp_rules_ab COMPILED A B: two rule sets of the lab for live updates. A is
# COMPILED plus a tag U (a priority of its own) that S3 classifies and keeps
# toward hp; B is A with S2 rewriting h1's tag T to U toward S3. Sets T, U
# (for the test that sources this file).
# shellcheck disable=SC2034
dp_rules_ab() {
	python3 - "$1" "$2" "$3" <<'PY' || fail "making rule sets A and B"
import json, sys
r = json.load(open(sys.argv[1]))
t = r["hosts"]["h1"]["tag"]
used = {x["tag"] for x in r["tags"]} | {r["lossy"]["tag"]}
u = next(x for x in range(1, 64) if x not in used)
prios = {x["tag"]: x["priority"] for x in r["tags"]}
p = next(x for x in range(8) if x != r["lossy"]["priority"] and x != prios[t])
r["tags"].append({"tag": u, "priority": p})
s3 = r["switches"]["S3"]
s3["classify"].append({"in": "l", "tag": u, "priority": p})
s3["rewrite"].append({"tag": u, "in": "l", "out": "hp", "new_tag": u})
json.dump(r, open(sys.argv[2], "w"))
s2 = r["switches"]["S2"]
s2["rewrite"] = [w for w in s2["rewrite"] if (w["tag"], w["in"], w["out"]) != (t, "l", "r")]
s2["rewrite"].append({"tag": t, "in": "l", "out": "r", "new_tag": u})
json.dump(r, open(sys.argv[3], "w"))
PY
	read -r T U <<<"$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["hosts"]["h1"]["tag"], r["tags"][-1]["tag"])' "$3")"
}

# dp_lab_ab: the line up, its compiled rules, and rule sets A and B made
# from them (dp_rules_ab) as $A and $B in TGR_TMP; sets T and U.
dp_lab_ab() {
	dp_lab_up
	dp_rules "$TGR_TMP/compiled.json"
	A=$TGR_TMP/a.json
	B=$TGR_TMP/b.json
	dp_rules_ab "$TGR_TMP/compiled.json" "$A" "$B"
}

# dp_consistent WHAT: show S2 parses, and the tag it predicts on S2 -> S3 for
# tag T (rewritten to U by rule set B, dp_rules_ab) is the one packets get.
# Counts the checks in dp_checks.
dp_checks=0
dp_consistent() {
	local want got show
	show=$(tgr S2 -j switch show S2) || fail "$1: show S2 fails"
	want=$(echo "$show" | dp_json "$U if any(w['tag'] == $T and w['in'] == 'l' and w['out'] == 'r' and w['new_tag'] == $U for w in d['rules']['rewrite']) else $T")
	dp_sniff S3 l 5000 "cap$dp_checks"
	nsx h1 python3 "$DP_UDP" send 10.0.2.1 5000 $((T << 2)) 3 1000
	sleep 0.1
	dp_sniff_stop
	got=$(awk '{print int($2 / 4)}' "$TGR_TMP/cap$dp_checks" | sort -u | tr '\n' ' ')
	[ "$got" = "$want " ] || { tgr S2 switch show S2; fail "$1: show says tag $want is live, packets carry: $got"; }
	dp_checks=$((dp_checks + 1))
}
