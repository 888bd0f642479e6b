#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The DCB data path end to end, on this host: the ports of the Clos ToR T1
# are veths, made DCB ports by build/helpers/dcb_fake.so with its state
# in a file (DCB_FAKE_STATE: the device, read and changed by every DCB
# request). What the ports must hold is computed from the rules document
# by tests/shell/dcb_expect.py, not by tagger. Checked: attach of up-down
# rules leaves each port exactly their app, rewr and PFC, and show reads
# that back; an update to other rules leaves what a fresh attach of them
# does; detach puts every port back bit for bit; the headroom model's
# delay and buffers (--cable-length, --speed, --mtu) are written and
# kept by update; bounce rules are refused (exit 1) and a port without DCB
# fails (exit 3), changing nothing; attach, update and detach killed at
# each of their netlink requests, after which the next command repairs.
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd jq
require_cmd python3
require_cmd strace
source "$TOP/tests/shell/dp_lab.sh"
FAKE=$TOP/build/helpers/dcb_fake.so
[ -e "$FAKE" ] || skip "build/helpers/dcb_fake.so not built (make helpers)"
EXP="$TOP/tests/shell/dcb_expect.py"
T=$TGR_TMP
export DCB_FAKE_STATE=$T/dcb.json

"$TAGGER" topo clos -o "$T/clos.topo" >/dev/null || fail "topo clos"
"$TAGGER" paths updown "$T/clos.topo" -o "$T/updown.elp" >/dev/null || fail "paths"
"$TAGGER" paths bounce=1 "$T/clos.topo" -o "$T/bounce.elp" >/dev/null || fail "paths"
"$TAGGER" compile "$T/clos.topo" "$T/updown.elp" -o "$T/A.json" >/dev/null 2>&1 || fail "compile"
"$TAGGER" compile "$T/clos.topo" "$T/bounce.elp" -o "$T/bounce.json" >/dev/null 2>&1 ||
	fail "compile"
# B: A's class as tag 26 in priority 3, and a second one as tag 34 in 4.
jq 'def re(t; p): walk(if type == "object" then
		(if .tag == 1 then .tag = t else . end) |
		(if .new_tag == 1 then .new_tag = t else . end) |
		(if .priority == 1 then .priority = p else . end)
	else . end);
    (. | re(26; 3)) as $b | (. | re(34; 4)) as $c |
    $b | .tags += $c.tags | .classes += [{"class": 1, "tag": 34}] |
    .hosts |= map_values(.classes = [26, 34]) |
    .switches |= with_entries(.key as $k | .value.classify += $c.switches[$k].classify |
	.value.rewrite += $c.switches[$k].rewrite)' "$T/A.json" >"$T/B.json" || fail "B"
for r in A B; do python3 "$EXP" expect "$T/$r.json" T1 >"$T/exp$r.json" || fail "expect $r"; done

dp_bpffs_up
dp_dummies T1 eth1 eth2 eth3
tg() { nsx T1 env LD_PRELOAD="$FAKE" "$TAGGER" "$@"; }
# The ports as found: app entries of three selectors and a DSCP in two
# priorities, rewr entries, PFC on 3 and 5 with a delay, ETS, buffers.
seed() {
	local p
	jq -n '[("eth1", "eth2", "eth3") | {key: ., value: {
		app: [[1, 35078, 3], [5, 10, 3], [5, 10, 4], [5, 26, 3], [5, 46, 5]],
		rewr: [[5, 26, 3], [5, 46, 5]],
		pfc: {cap: 8, en: 40, mbc: 0, delay: 1234},
		ets: ("000800" + "0d0a141e28000000" + "00" * 8 + "02" * 8 +
		      "0001020304050607" + "00" * 24),
		buffer: {prio2buffer: [0, 0, 0, 1, 0, 2, 0, 0],
			 size: [100000, 30000, 30000, 0, 0, 0, 0, 0], total: 1048576}}}] |
	    from_entries' >"$DCB_FAKE_STATE" || fail "seed"
	# through the fake once: its own canonical form
	for p in eth1 eth2 eth3; do
		nsx T1 env LD_PRELOAD="$FAKE" "$TOP/build/helpers/dcb_tool" show "$p" >/dev/null ||
			fail "the fake does not answer for $p"
	done
	cp "$DCB_FAKE_STATE" "$T/before.json"
}
seed
holds() {	# holds RULES [MODEL]: the device holds RULES' maps
	local extra=()
	[ -n "${2:-}" ] && extra=(eth1="$2" eth2="$2" eth3="$2")
	python3 "$EXP" device "$DCB_FAKE_STATE" "$T/before.json" "$T/exp$1.json" "${extra[@]}"
}
as_before() { cmp -s "$DCB_FAKE_STATE" "$T/before.json"; }
no_pins() { [ ! -e "$TAGGER_BPF_ROOT/T1" ]; }

# 1. Attach, show, update, detach
check "check: the up-down rules fit DCB" tg switch check T1 "$T/A.json" --datapath dcb
check "check: so do B's" tg switch check T1 "$T/B.json" --datapath dcb
check "attach A --datapath dcb" tg switch attach T1 "$T/A.json" --datapath dcb
check "  every port holds A's app, rewr and PFC, the rest as found" holds A
tg -j switch show T1 >"$T/show.json" || fail "show"
check "  show -j reads them back" python3 "$EXP" show "$T/show.json" "$T/expA.json"
check "  show -j names the data path" test "$(jq -r .datapath "$T/show.json")" = dcb
digA=$(jq -r .rules_digest "$T/show.json")
check "update to B" tg switch update T1 "$T/B.json"
check "  every port holds B's maps" holds B
cp "$DCB_FAKE_STATE" "$T/updB.json"
tg -j switch show T1 >"$T/show.json" || fail "show"
check "  show -j reads them back, generation 1" \
	python3 "$EXP" show "$T/show.json" "$T/expB.json"
check "  generation 1" test "$(jq .generation "$T/show.json")" = 1
digB=$(jq -r .rules_digest "$T/show.json")
check "detach" tg switch detach T1
check "  every port as before attach, bit for bit" as_before
check "  no pins left" no_pins
check "attach B afresh" tg switch attach T1 "$T/B.json" --datapath dcb
check "  the ports hold what the update left" cmp -s "$DCB_FAKE_STATE" "$T/updB.json"
check "  detach: as before" eval 'tg switch detach T1 >/dev/null && as_before'

# 2. The headroom model: delay 2 r t_wire, buffers xon + headroom, where
# headroom = 2 (MTU + 18 + 64 + r t_wire) + r t_pro, t_pro 60 quanta.
speed=25 cable=30 mtu=4200	# Gbit/s, m, bytes
wire=$((speed * cable * 5 / 8))	# r t_wire in bytes (5 ns/m)
buf=$(( 2 * (mtu + 18 + 64 + wire) + 2 * 60 * 64 ))
jq -n --argjson d $((2 * speed * cable * 5)) --argjson s "$buf" \
	--slurpfile b "$T/before.json" '{delay_bits: $d, buffer: ($b[0].eth1.buffer |
	.prio2buffer = [0,0,0,3,4,2,0,0] | .size[3] = $s | .size[4] = $s)}' >"$T/modelB.json"
check "attach B with --speed ${speed}gbit --cable-length $cable --mtu $mtu" \
	tg switch attach T1 "$T/B.json" --datapath dcb --speed "${speed}gbit" \
	--cable-length "$cable" --mtu "$mtu"
check "  PFC delay $((2 * speed * cable * 5)) bits, buffers of 3 and 4: $buf bytes" \
	holds B "$T/modelB.json"
check "  update to A keeps the model" tg switch update T1 "$T/A.json"
jq '.buffer.prio2buffer = [0,1,0,0,0,2,0,0] | .buffer.size[1] = .buffer.size[3] |
	.buffer.size[3] = 0 | .buffer.size[4] = 0' "$T/modelB.json" >"$T/modelA.json"
check "  priority 1's buffer sized, the others' as found" holds A "$T/modelA.json"
check "  detach: as before" eval 'tg switch detach T1 >/dev/null && as_before'
out=$(tg switch attach T1 "$T/A.json" --datapath dcb --cable-length 100 2>&1)
check "a delay beyond 16 bits: exit 2" test $? = 2
check "  said" grep -q "exceeds its 16 bits" <<<"$out"
out=$(tg switch attach T1 "$T/A.json" --cable-length 5 2>&1)
check "the model without --datapath dcb: exit 2" test $? = 2
check "  nothing changed" eval 'as_before && no_pins'

# 3. Refusals: nothing changes
out=$(tg switch attach T1 "$T/bounce.json" --datapath dcb 2>&1)
rc=$?
check "bounce rules: exit 1" test "$rc" = 1
check "  naming the switch and a rule" grep -q "switch T1: rewrite tag [0-9]* in eth" <<<"$out"
check "  nothing changed" eval 'as_before && no_pins'
out=$(nsx T1 "$TAGGER" switch attach T1 "$T/A.json" --datapath dcb 2>&1)
rc=$?
check "ports without DCB: exit 3" test "$rc" = 3
check "  said" grep -q "eth1 does not support DCB" <<<"$out"
check "  nothing left" no_pins
jq '.eth3 = false' "$T/before.json" >"$DCB_FAKE_STATE"
out=$(tg switch attach T1 "$T/A.json" --datapath dcb 2>&1)
rc=$?
check "one port without DCB: exit 3" test "$rc" = 3
check "  naming it" grep -q "eth3 does not support DCB" <<<"$out"
check "  the others unchanged" test "$(jq -S 'del(.eth3)' "$DCB_FAKE_STATE")" = \
	"$(jq -S 'del(.eth3)' "$T/before.json")"
check "  nothing left" no_pins
cp "$T/before.json" "$DCB_FAKE_STATE"

# 4. Kills at every sendto (each DCB request, and the holders' tc ones).
kill_at() {	# kill_at K CMD...: tagger CMD killed at its K-th sendto
	local k=$1
	shift
	nsx T1 strace -f -o /dev/null -E LD_PRELOAD="$FAKE" -e trace=sendto \
		-e inject="sendto:signal=KILL:when=$k" "$TAGGER" "$@" >/dev/null 2>&1
}
calls() {
	nsx T1 strace -f -c -o "$T/count" -E LD_PRELOAD="$FAKE" -e trace=sendto \
		"$TAGGER" "$@" >/dev/null 2>&1
	awk '$NF == "sendto" {print $4}' "$T/count"
}
# After a kill: the next command settles (here an attach, which then
# finds the switch attached, or attaches it anew); then the ports hold
# the maps of the rules show names.
settled() {
	local what=$1 dig
	tg switch attach T1 "$T/A.json" --datapath dcb >/dev/null 2>"$T/err"
	dig=$(tg -j switch show T1 2>/dev/null | jq -r .rules_digest) ||
		fail "$what: not attached after the next command: $(cat "$T/err")"
	case $dig in
	"$digA") holds A >"$T/diff" || fail "$what: A named, not held: $(cat "$T/diff")" ;;
	"$digB") holds B >"$T/diff" || fail "$what: B named, not held: $(cat "$T/diff")" ;;
	*) fail "$what: show names neither A nor B ($dig)" ;;
	esac
}
kills=0
n=$(calls switch attach T1 "$T/A.json" --datapath dcb)
tg switch detach T1 >/dev/null || fail "detach after counting"
[ "${n:-0}" -gt 10 ] || fail "attach made ${n:-0} sendto calls"
for k in $(seq "$n"); do
	kill_at "$k" switch attach T1 "$T/A.json" --datapath dcb &&
		fail "attach killed at sendto #$k ran to its end"
	tg switch detach T1 >/dev/null 2>&1
	as_before || fail "attach killed at sendto #$k: detach leaves $(python3 "$EXP" device \
		"$DCB_FAKE_STATE" "$T/before.json" "$T/expA.json" | head -3)"
	no_pins || fail "attach killed at sendto #$k: pins left"
	kills=$((kills + 1))
done
echo "ok: attach killed at each of its $n sendto calls: the next command puts every port back"
tg switch attach T1 "$T/A.json" --datapath dcb >/dev/null || fail "attach A"
n=$(calls switch update T1 "$T/B.json")
tg switch update T1 "$T/A.json" >/dev/null || fail "back to A"
for k in $(seq "$n"); do
	from=A to=B
	[ $((k % 2)) = 0 ] && from=B to=A
	tg switch update T1 "$T/$from.json" >/dev/null || fail "update to $from"
	kill_at "$k" switch update T1 "$T/$to.json"
	settled "update $from -> $to killed at sendto #$k"
	kills=$((kills + 1))
done
echo "ok: update killed at each of its $n sendto calls: the ports hold the rules show names"
n=$(calls switch detach T1)
as_before || fail "detach after counting"
for k in $(seq "$n"); do
	tg switch attach T1 "$T/B.json" --datapath dcb >/dev/null || fail "attach B ($k)"
	kill_at "$k" switch detach T1
	tg switch detach T1 >/dev/null 2>&1
	as_before || fail "detach killed at sendto #$k: ports not as before"
	no_pins || fail "detach killed at sendto #$k: pins left"
	kills=$((kills + 1))
done
echo "ok: detach killed at each of its $n sendto calls: the next detach completes it"
echo "$kills kills"
echo PASS
