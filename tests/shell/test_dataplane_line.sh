#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The data plane end to end: three switches in a line with hosts, each a
# namespace (dp_lab.sh), rules from "tagger compile" (or the fixture before
# it exists). h1's host program sets the initial tag on its UDP traffic; a
# packet socket on the receiving end of every link shows the tag the rules
# predict at every hop (dp_udp.py predict reads the rules independently of
# the C code). The path h1 -> h3 leaves the ELP at S2 and must turn lossy
# there. S2 runs on cls_bpf, S1 and S3 on tcx where the kernel has it.
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd python3
require_cmd nsenter
source "$TOP/tests/shell/dp_lab.sh"

dp_lab_up
RULES=$TGR_TMP/rules.json
dp_rules "$RULES"
N=40
ECN=1

out=$(tgr S1 switch attach S1 "$RULES") || fail "attach S1"
echo "$out"
echo "$out" | grep -q "ip_forward_update_priority = 0" ||
	fail "attach does not say it set ip_forward_update_priority"
[ "$(nsx S1 sysctl -n net.ipv4.ip_forward_update_priority)" = 0 ] ||
	fail "ip_forward_update_priority not 0 in S1"
tgr S2 switch attach S2 "$RULES" --mode tc | grep -q "attached with tc" ||
	fail "attach S2 with cls_bpf"
tgr S3 switch attach S3 "$RULES" >/dev/null || fail "attach S3"
tgr S1 switch attach S1 "$RULES" 2>/dev/null && fail "a second attach succeeded"
tgr h1 host attach h1 eth0 "$RULES" --udp-dport 5000 || fail "host attach h1"
for n in S1 S2 S3; do
	perm=$(stat -c %a "$TAGGER_BPF_ROOT/$n/tagger_counters")
	[ "$perm" = 600 ] || fail "$n pins have mode $perm"
done
echo "ok: pins are 0600"

T=$(dp_json 'd["hosts"]["h1"]["tag"]' < "$RULES")
read -r a b c <<<"$(python3 "$DP_UDP" predict "$RULES" "$T" S1:hp:r S2:l:r S3:l:hp)"
read -r x y <<<"$(python3 "$DP_UDP" predict "$RULES" "$T" S1:hp:r S2:l:hp)"
echo "h1 tag $T; predicted on h1->h2: $a $b $c; on h1->h3 (off the ELP): $x $y"
[ "$y" = "$(dp_json 'd["lossy"]["tag"]' < "$RULES")" ] || fail "fixture: h1->h3 not lossy"

# h1 -> h2 along the ELP; the application sends DSCP 0 with ECN 1.
dp_sniff S1 hp 5000 h1-S1
dp_sniff S2 l 5000 S1-S2
dp_sniff S3 l 5000 S2-S3
dp_sniff h2 eth0 5000 S3-h2
nsx h1 python3 "$DP_UDP" send 10.0.2.1 5000 $ECN $N 2000
sleep 0.3
dp_sniff_stop
dp_expect h1-S1 $N $((T << 2 | ECN))
dp_expect S1-S2 $N $((a << 2 | ECN))
dp_expect S2-S3 $N $((b << 2 | ECN))
dp_expect S3-h2 $N $((c << 2 | ECN))

# The same over IPv6 (traffic class instead of TOS, no header checksum).
dp_sniff S2 l 5000 S1-S2-v6
dp_sniff h2 eth0 5000 S3-h2-v6
nsx h1 python3 "$DP_UDP" send fd00:2::1 5000 $ECN $N 2000
sleep 0.3
dp_sniff_stop
dp_expect S1-S2-v6 $N $((a << 2 | ECN))
dp_expect S3-h2-v6 $N $((c << 2 | ECN))

# h1 -> h3: lossless up to S2, lossy from S2 on.
dp_sniff S2 l 5000 S1-S2-off
dp_sniff h3 eth0 5000 S2-h3
nsx h1 python3 "$DP_UDP" send 10.0.3.1 5000 $ECN $N 2000
sleep 0.3
dp_sniff_stop
dp_expect S1-S2-off $N $((x << 2 | ECN))
dp_expect S2-h3 $N $((y << 2 | ECN))

# The counters agree: S2 saw 3N lossless packets in on l (IPv4 and IPv6 to
# h2, IPv4 to h3), demoted N at hp.
show=$(tgr S2 -j switch show S2) || fail "show S2"
in_l=$(echo "$show" | dp_json 'sum(c["packets"] for p in d["ports"] if p["port"] == "l" for c in p["in"] if c["lossless"] and c["tag"] == '"$a"')')
dem=$(echo "$show" | dp_json '[p["lossy"]["no_rewrite"] for p in d["ports"] if p["port"] == "hp"][0]')
[ "$in_l" -eq $((3 * N)) ] || fail "S2 counted $in_l lossless packets in on l, not $((3 * N))"
[ "$dem" -eq "$N" ] || fail "S2 counted $dem demotions at hp, not $N"
echo "ok: S2 counters: $in_l lossless in on l, $dem demoted (no rewrite) at hp"
tgr S2 switch show S2 | sed 's/^/    /'

# Rules whose tags change along the path (the fixture: 10, 10, 11 on the
# links after S1, S2, S3), swapped in on every switch by update (its union
# check passes: disjoint tags), and h1's initial tag with them.
F=$FIX/dp_line.rules.json
for n in S1 S2 S3; do
	tgr "$n" switch update "$n" "$F" >/dev/null || fail "update $n to the fixture"
done
tgr h1 host detach h1 eth0 >/dev/null || fail "host detach"
tgr h1 host attach h1 eth0 "$F" --udp-dport 5000 >/dev/null || fail "host attach (fixture)"
T=$(dp_json 'd["hosts"]["h1"]["tag"]' < "$F")
read -r a b c <<<"$(python3 "$DP_UDP" predict "$F" "$T" S1:hp:r S2:l:r S3:l:hp)"
[ "$b" != "$T" ] || fail "fixture: no tag change on the path"
dp_sniff S2 l 5000 fx-S1-S2
dp_sniff S3 l 5000 fx-S2-S3
dp_sniff h2 eth0 5000 fx-S3-h2
nsx h1 python3 "$DP_UDP" send 10.0.2.1 5000 $ECN $N 2000
sleep 0.3
dp_sniff_stop
dp_expect fx-S1-S2 $N $((a << 2 | ECN))
dp_expect fx-S2-S3 $N $((b << 2 | ECN))
dp_expect fx-S3-h2 $N $((c << 2 | ECN))

# detach leaves nothing behind; show then fails with exit 2.
tgr h1 host detach h1 eth0 >/dev/null || fail "host detach"
for n in S1 S2 S3; do
	tgr "$n" switch detach "$n" >/dev/null || fail "detach $n"
	[ ! -e "$TAGGER_BPF_ROOT/$n" ] || fail "$n pins left behind"
done
[ "$(nsx S1 sysctl -n net.ipv4.ip_forward_update_priority)" = 1 ] ||
	fail "detach did not restore ip_forward_update_priority"
[ -z "$(nsx S2 tc filter show dev l ingress)" ] || fail "cls_bpf filter left on S2:l"
tgr S1 switch show S1 2>/dev/null; [ $? -eq 2 ] || fail "show after detach: not exit 2"
# Traffic still flows untagged: the programs are gone.
dp_sniff h2 eth0 5000 after
nsx h1 python3 "$DP_UDP" send 10.0.2.1 5000 $ECN 5 1000
sleep 0.3
dp_sniff_stop
dp_expect after 5 $ECN
echo "PASS"
