#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# RoCEv2 CNPs apart (tagger-host(8), "CNPs"): h1 sends RoCE data and CNPs
# (UDP 4791, BTH opcode 0x81, crafted by dp_udp.py) to h2 through three
# switches. h1's host program picks UDP 4791 as the lossless class, which
# takes the CNPs' port too. With a "cnp" in the rules CNPs leave h1 with its
# DSCP and keep it at every hop (never the data's tags), counted by the
# switches as the CNP class; the data carries its tags as predicted.
# Without one, the CNPs leave with the lossy tag, never the initial tag.
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd python3
require_cmd nsenter
source "$TOP/tests/shell/dp_lab.sh"
declare -A nc0

dp_lab_up
RULES=$TGR_TMP/rules.json
dp_rules "$RULES"
N=30
ECN=2
CNP=46
# The CNP priority: the highest no lossless tag has, and not the lossy one.
PRIO=$(dp_json 'max(set(range(8)) - {t["priority"] for t in d["tags"]} - {d["lossy"]["priority"]})' <"$RULES")
python3 - "$RULES" "$CNP" "$PRIO" <<'PY' || fail "add cnp"
import json, sys
d = json.load(open(sys.argv[1]))
d["cnp"] = {"tag": int(sys.argv[2]), "priority": int(sys.argv[3])}
json.dump(d, open(sys.argv[1] + ".cnp", "w"))
PY
T=$(dp_json 'd["hosts"]["h1"]["tag"]' <"$RULES")
LOSSY=$(dp_json 'd["lossy"]["tag"]' <"$RULES")
read -r a b c <<<"$(python3 "$DP_UDP" predict "$RULES" "$T" S1:hp:r S2:l:r S3:l:hp)"

for n in S1 S2 S3; do
	tgr $n switch attach $n "$RULES.cnp" >/dev/null || fail "attach $n"
done
out=$(tgr h1 host attach h1 eth0 "$RULES.cnp" --udp-dport 4791) || fail "host attach h1"
echo "$out"
echo "$out" | grep -q "RoCEv2 CNPs leave with tag $CNP, priority $PRIO" ||
	fail "host attach does not say where CNPs go"

# run NAME BTH DST: N packets h1 -> h2 to 4791 with that opcode, seen on
# the wire out of h1 and into h2.
# The port the traffic from h1 comes in by, on each switch.
declare -A inp=([S1]=hp [S2]=l [S3]=l)
nc_of() {
	tgr "$1" -j switch show "$1" |
		dp_json '[p["lossy"]["no_classify"] for p in d["ports"] if p["port"] == "'"${inp[$1]}"'"][0]'
}
for n in S1 S2 S3; do nc0[$n]=$(nc_of $n); done
run() {
	dp_sniff S1 hp 4791 "$1-h1"
	dp_sniff S2 l 4791 "$1-S1"
	dp_sniff h2 eth0 4791 "$1-h2"
	DP_UDP_BTH=$2 nsx h1 python3 "$DP_UDP" send "$3" 4791 $ECN $N 2000
	sleep 0.3
	dp_sniff_stop
}
run cnp 0x81 10.0.2.1
dp_expect cnp-h1 $N $((CNP << 2 | ECN))
dp_expect cnp-S1 $N $((CNP << 2 | ECN))
dp_expect cnp-h2 $N $((CNP << 2 | ECN))
run cnp6 0x81 fd00:2::1
dp_expect cnp6-h1 $N $((CNP << 2 | ECN))
dp_expect cnp6-h2 $N $((CNP << 2 | ECN))
run data 0x0a 10.0.2.1
dp_expect data-h1 $N $((T << 2 | ECN))
dp_expect data-S1 $N $((a << 2 | ECN))
dp_expect data-h2 $N $((c << 2 | ECN))

# Every switch counted the CNPs as their class at the port they came in
# by, none lossless, none as a demotion.
for n in S1 S2 S3; do
	show=$(tgr $n -j switch show $n) || fail "show $n"
	cnp=$(echo "$show" | dp_json 'sum(p["cnp"] for p in d["ports"])')
	ll=$(echo "$show" | dp_json 'sum(c["packets"] for p in d["ports"] for c in p["in"] + p["out"] if c["tag"] == '$CNP' and c["lossless"])')
	nc=$(($(nc_of $n) - nc0[$n]))
	[ "$cnp" -eq $((2 * N)) ] || fail "$n counted $cnp CNPs, not $((2 * N))"
	[ "$ll" -eq 0 ] || fail "$n counted $ll lossless packets with the CNP tag"
	[ "$nc" -eq 0 ] || fail "$n demoted $nc packets (no classify) at ${inp[$n]}"
done
echo "ok: S1 S2 S3 each counted $((2 * N)) CNPs in their class, no demotion"

# Without a "cnp": the CNPs the selector picks leave lossy, never as data.
tgr h1 host detach h1 eth0 >/dev/null || fail "host detach"
for n in S1 S2 S3; do
	tgr $n switch update $n "$RULES" >/dev/null || fail "update $n"
done
tgr h1 host attach h1 eth0 "$RULES" --udp-dport 4791 >/dev/null || fail "host attach h1 (no cnp)"
run lossy 0x81 10.0.2.1
dp_expect lossy-h1 $N $((LOSSY << 2 | ECN))
dp_expect lossy-h2 $N $((LOSSY << 2 | ECN))
run data2 0x0a 10.0.2.1
dp_expect data2-h1 $N $((T << 2 | ECN))
echo "ok: b=$b; CNPs apart with and without a cnp class"
