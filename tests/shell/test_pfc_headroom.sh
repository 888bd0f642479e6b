#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tagger pfc headroom from the command line: the draft's 40 Gbit/s example,
# every term in -j, the per-switch total against a buffer, both option
# forms, and bad values (exit 2, the option named) for headroom and agent.
source "$(dirname "$0")/../lib.sh"
cd "$TGR_TMP" || exit 1
T=$TAGGER

draft="--rate 40gbit --frame 1500 --cable 300 --t-pro 60q"
$T -j pfc headroom $draft >d.json
check "the draft's example: 21968 B" test "$(jq .headroom d.json)" = 21968
for k in rate_bps frame pfc_frame cable_m t_wire_ns t_pro_ns t_pro_quanta \
	 t_resp_ns wire_bytes pro_bytes resp_bytes headroom xon xoff; do
	check "-j has $k" grep -q "\"$k\":" d.json
done
check "the terms: 2 (1500 + 64 + 7500) + 3840 + 0" \
	test "$(jq -c '[.frame, .pfc_frame, .wire_bytes, .pro_bytes, .resp_bytes]' d.json)" = \
	'[1500,64,7500,3840,0]'
check "--opt=V is --opt V" test "$($T -j pfc headroom --rate=40gbit --frame=1500 \
	--cable=300 --t-pro=60q | jq .headroom)" = 21968
check "t_pro as a time: 768ns" test "$($T -j pfc headroom --rate 40gbit --frame 1500 \
	--cable 300 --t-pro 768ns | jq .headroom)" = 21968
check "t_resp adds r t_resp" test "$($T -j pfc headroom $draft --t-resp 2 | jq .headroom)" = 31968
check "defaults keep today's numbers" \
	test "$($T -j pfc headroom | jq -c '[.headroom, .xon, .t_wire_ns, .t_pro_ns]')" = \
	'[15664,12500,0,1000000]'
check "the old keyword form still works" \
	test "$($T -j pfc headroom rate 1gbit mtu 9000 | jq .frame)" = 9018

$T -j pfc headroom $draft --lossless 0-7 --ports 32 --buffer 12m >s.json
check "32 ports x 8 priorities x 21968 B fit in 12 MB" \
	test "$(jq -c '[.ports, .lossless_priorities, .switch_headroom, .fits]' s.json)" = \
	'[32,8,5623808,true]'
check "...but not in 4 MB" \
	test "$($T -j pfc headroom $draft --lossless 0-7 --ports 32 --buffer 4m | jq .fits)" = false
check "plain output says so" \
	sh -c "$T pfc headroom $draft --lossless 0-7 --ports 32 --buffer 4m | grep -q 'does not fit'"

bad() {
	local what=$1 opt=$2; shift 2
	"$@" >out.txt 2>err.txt
	local rc=$?
	check "$what: exit 2" test $rc = 2
	check "$what: names $opt" grep -q -- "$opt" err.txt
}
bad "headroom --cable abc" --cable $T pfc headroom --cable abc
bad "headroom --cable=-3" --cable $T pfc headroom --cable=-3
bad "headroom --t-pro 0" --t-pro $T pfc headroom --t-pro 0
bad "headroom --t-pro 70000q" --t-pro $T pfc headroom --t-pro 70000q
bad "headroom --t-resp 1.5x" --t-resp $T pfc headroom --t-resp 1.5x
bad "headroom --ports 0" --ports $T pfc headroom --ports 0
bad "headroom --buffer without --ports" --buffer $T pfc headroom --buffer 1m
bad "headroom --cable without a value" --cable $T pfc headroom --cable
bad "agent --cable=x" --cable $T pfc agent n --cable=x lo
bad "agent --t-resp -1" --t-resp $T pfc agent n --t-resp -1 lo
bad "agent --t-pro=" --t-pro $T pfc agent n --t-pro= lo
bad "agent --slow-pause=1" --slow-pause $T pfc agent n --slow-pause=1 lo
exit 0
