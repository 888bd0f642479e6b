#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The pause agent's DCB backend on this host: the ports of the Clos spine
# S2 are veths made DCB ports by build/helpers/dcb_fake.so (its state in a
# file, DCB_FAKE_STATE), which also simulates PFC's counters: a port's
# "storm" makes its indications (PAUSE frames received) rise, and every
# change of the enabled priorities is logged with its time. Checked:
#   --rules: each port holds the maps of S2's 1-bounce rules (computed by
#     tests/shell/dcb_expect.py, not by tagger), the rest as found; T1's
#     are refused naming the switch and a rule (exit 2), as are a switch
#     attached with --datapath dcb and bad options, changing nothing;
#   every port as found after stop, after a kill (by stop, and by the
#     next start, which must not save the maps as "found");
#   the watchdog: a storm on eth2 priority 1 (drop) turns PFC off for 1
#     there, no earlier than the detection time; PFC stays off while the
#     PAUSEs go on; back on once none came for the restoration time; an
#     alert storm changes no PFC; the big red switch; the storms in show
#     -j and the metrics (promtool).
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd jq
require_cmd python3
source "$TOP/tests/shell/dp_lab.sh"
FAKE=$TOP/build/helpers/dcb_fake.so
[ -e "$FAKE" ] || skip "build/helpers/dcb_fake.so not built (make helpers)"
EXP="$TOP/tests/shell/dcb_expect.py"
T=$TGR_TMP
export DCB_FAKE_STATE=$T/dcb.json
export TAGGER_PFC_DIR=$T/pfc
DETECT=300 RESTORE=600	# ms

"$TAGGER" topo clos -o "$T/clos.topo" >/dev/null || fail "topo clos"
"$TAGGER" paths bounce=1 "$T/clos.topo" -o "$T/bounce.elp" >/dev/null || fail "paths"
"$TAGGER" compile "$T/clos.topo" "$T/bounce.elp" -o "$T/bounce.json" >/dev/null 2>&1 ||
	fail "compile"
python3 "$EXP" expect "$T/bounce.json" S2 >"$T/expS2.json" || fail "expect S2"
pfc1=$(jq .eth2.pfc "$T/expS2.json")	# eth2's lossless priorities (mask)
[ $((pfc1 & 2)) = 2 ] || fail "S2's eth2 runs no PFC on priority 1 ($pfc1)"

dp_bpffs_up
dp_dummies S2 eth1 eth2 eth3 eth4
dp_dummies T1 eth1 eth2 eth3
fake() { local n=$1; shift; nsx "$n" env LD_PRELOAD="$FAKE" "$@"; }
tg() { fake S2 "$TAGGER" "$@"; }
# The ports as found: app entries of two selectors, rewr entries, PFC on
# 3 and 5 with a delay, ETS, buffers; and a log of PFC changes.
jq -n '[("eth1", "eth2", "eth3", "eth4") | {key: ., value: {
	app: [[1, 35078, 3], [5, 10, 3], [5, 26, 3], [5, 46, 5]],
	rewr: [[5, 26, 3], [5, 46, 5]],
	pfc: {cap: 8, en: 40, mbc: 0, delay: 1234}, pfc_log: [],
	ets: ("000800" + "0d0a141e28000000" + "00" * 8 + "02" * 8 +
	      "0001020304050607" + "00" * 24),
	buffer: {prio2buffer: [0, 0, 0, 1, 0, 2, 0, 0],
		 size: [100000, 30000, 30000, 0, 0, 0, 0, 0], total: 1048576}}}] |
    from_entries' >"$DCB_FAKE_STATE" || fail "seed"
for p in eth1 eth2 eth3 eth4; do	# through the fake once: its own form
	fake S2 "$TOP/build/helpers/dcb_tool" show "$p" >/dev/null || fail "the fake: $p"
done
cp "$DCB_FAKE_STATE" "$T/before.json"
# The ports' settings, without the simulation's counters, storms and log.
settings() {
	jq -S 'map_values(if type == "object" then del(.storm, .pfc_log, .last_pause_ms) |
		.pfc |= del(.requests, .indications) else . end)' "$1"
}
as_before() { [ "$(settings "$DCB_FAKE_STATE")" = "$(settings "$T/before.json")" ]; }
holds() {
	settings "$DCB_FAKE_STATE" >"$T/now.json"
	settings "$T/before.json" >"$T/was.json"
	python3 "$EXP" device "$T/now.json" "$T/was.json" "$T/expS2.json"
}
en_of() { jq ".$1.pfc.en" "$DCB_FAKE_STATE"; }

agent() {	# agent ARGS...: S2's agent in the background, running
	rm -f "$TAGGER_PFC_DIR/S2/pid"
	fake S2 setsid "$TAGGER" -v pfc agent S2 eth1 eth2 eth3 eth4 --backend dcb \
		--cpu-latency none "$@" >>"$T/agent.log" 2>&1 &
	bg_track $!
	for _ in $(seq 200); do
		[ -s "$TAGGER_PFC_DIR/S2/pid" ] && return 0
		sleep 0.05
	done
	cat "$T/agent.log" >&2
	fail "the agent did not start"
}
stop() { tg pfc stop S2 >/dev/null 2>&1; }
tgr_on_exit stop
# storm PORT PRIO SECONDS: PAUSEs received on PORT for PRIO from now on
# for SECONDS (0: they stop now); prints now in ms.
storm() {
	python3 - "$DCB_FAKE_STATE" "$@" <<'EOF'
import fcntl, json, os, sys, time
f, port, prio, secs = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
with open(f + ".lock", "a") as lock:
    fcntl.flock(lock, fcntl.LOCK_EX)
    d = json.load(open(f))
    now = int(time.time() * 1000)
    d[port].setdefault("storm", {})[prio] = now + int(secs * 1000)
    with open(f + ".tmp", "w") as out:
        json.dump(d, out, sort_keys=True, indent=1)
    os.rename(f + ".tmp", f)
    print(now)
EOF
}
# until_en PORT TEST: wait (at most 20 s) for the port's last PFC change
# to satisfy jq TEST on its enabled mask (.); prints its time in ms.
until_en() {
	local t
	for _ in $(seq 400); do
		t=$(jq -r ".$1.pfc_log // [] | last // empty | select(.[1] | $2) | .[0]" \
			"$DCB_FAKE_STATE")
		[ -n "$t" ] && { echo "$t"; return 0; }
		sleep 0.05
	done
	return 1
}
show() { tg -j pfc show S2 >"$T/show.json" || fail "pfc show"; }
Q() { jq -r "$2" <<<"$(jq ".ports[] | select(.ifname == \"$1\")" "$T/show.json")"; }

# 1. Refusals: exit 2, naming what, nothing changed.
refused() {	# refused WHAT PATTERN NODE CMD...: exit 2, saying PATTERN
	local what=$1 pat=$2 n=$3 out rc
	shift 3
	out=$(fake "$n" "$TAGGER" "$@" 2>&1)
	rc=$?
	check "$what: exit 2" test "$rc" = 2
	grep -q -- "$pat" <<<"$out" || fail "$what: does not say \"$pat\": $out"
	check "  nothing changed" as_before
}
refused "T1's bounce rules" "switch T1: rewrite tag [0-9]* in eth" T1 \
	pfc agent T1 eth1 eth2 eth3 --backend dcb --rules "$T/bounce.json"
refused "--rules without --backend dcb" "needs --backend dcb" S2 \
	pfc agent S2 eth1 --rules "$T/bounce.json"
refused "a switch the rules lack" "no switch \"X9\"" S2 \
	pfc agent S2 eth1 --backend dcb --rules "$T/bounce.json" --switch X9
refused "a port the switch lacks" "has no port \"p7\"" S2 \
	pfc agent S2 p7=eth1 --backend dcb --rules "$T/bounce.json"
for bad in eth2:3:100:300:drop eth9:1:100:300:drop eth2:1:0:300:drop \
	eth2:1:100:300:panic; do
	refused "--watchdog $bad" "--watchdog $bad" S2 pfc agent S2 eth1 eth2 \
		--backend dcb --rules "$T/bounce.json" --watchdog "$bad"
done
check "attach S2 --datapath dcb" tg switch attach S2 "$T/bounce.json" --datapath dcb
cp "$DCB_FAKE_STATE" "$T/attached.json"
out=$(tg pfc agent S2 eth1 eth2 --backend dcb --rules "$T/bounce.json" 2>&1)
check "the agent on a switch attached with --datapath dcb: exit 2" test $? = 2
grep -q "switch S2 is attached with --datapath dcb" <<<"$out" || fail "not said: $out"
check "  the data path's maps untouched" cmp -s "$DCB_FAKE_STATE" "$T/attached.json"
check "detach" tg switch detach S2
check "  as before" as_before

# 2. The maps, and the ports as found after stop and kills.
agent --rules "$T/bounce.json"
check "every port holds S2's app, rewr and PFC, the rest as found" holds
check "  the state as found saved" test -s "$TAGGER_PFC_DIR/S2/dcb_saved.json"
show
check "  show: backend dcb" test "$(jq -r .backend "$T/show.json")" = dcb
check "stop" stop
check "  every port as found" as_before
check "  nothing saved left" test ! -e "$TAGGER_PFC_DIR/S2/dcb_saved.json"
agent --rules "$T/bounce.json"
kill -9 "$(cat "$TAGGER_PFC_DIR/S2/pid")"
sleep 0.2
check "killed: the ports keep the maps" holds
check "  stop puts every port back" eval 'stop && as_before'
agent --rules "$T/bounce.json"
kill -9 "$(cat "$TAGGER_PFC_DIR/S2/pid")"
sleep 0.2
agent --rules "$T/bounce.json"
check "killed, started again: the maps" holds
check "  stop: as found before the first start" eval 'stop && as_before'

# 3. The watchdog.
agent --rules "$T/bounce.json" --watchdog "eth2:1:$DETECT:$RESTORE:drop" \
	--watchdog "eth3:2:$DETECT:$RESTORE:alert"
on=$(en_of eth2)
t0=$(storm eth2 1 3600)
t1=$(until_en eth2 '. == '"$((on & ~2))") ||
	fail "no PFC change on eth2 within 20 s: $(jq -c .eth2.pfc_log "$DCB_FAKE_STATE")"
echo "storm detected and PFC off after $((t1 - t0)) ms (detection time $DETECT ms)"
check "storm on eth2 prio 1: PFC off for 1 only, no earlier than the detection time" \
	test $((t1 - t0)) -ge "$DETECT"
sleep $((3 * RESTORE / 1000 + 1))
check "  PFC still off while the PAUSEs go on" test "$(en_of eth2)" = $((on & ~2))
show
check "  show: in a storm" test "$(Q eth2 '.prios[1].storm')" = true
storm eth2 1 0 >/dev/null
t3=$(until_en eth2 '. == '"$on") || fail "PFC not back on within 20 s"
t2=$(jq .eth2.last_pause_ms "$DCB_FAKE_STATE")
echo "restored $((t3 - t2)) ms after the last PAUSE (restoration time $RESTORE ms)"
check "  PFC back on, no earlier than the restoration time" test $((t3 - t2)) -ge "$RESTORE"
show
got=$(Q eth2 '.prios[1] | [.storms, .storm, (.storm_start_ms > 0),
	(.storm_end_ms >= .storm_start_ms)] | @csv')
check "  show -j: 1 storm, over, with its start and end ($got)" \
	test "$got" = '1,false,true,true'
check "  show -j: the PAUSEs received counted" test "$(Q eth2 '.prios[1].pfc_rx')" -gt 0
en3=$(en_of eth3)
storm eth3 2 1 >/dev/null
for _ in $(seq 200); do
	show
	[ "$(Q eth3 '.prios[2].storm_end_ms // 0')" -gt 0 ] && break
	sleep 0.1
done
check "alert storm on eth3 prio 2: counted and over" \
	test "$(Q eth3 '.prios[2] | [.storms, .storm] | @csv')" = '1,false'
check "  PFC untouched" test "$(en_of eth3)" = "$en3"
tg metrics show --pfc S2 >"$T/m.prom" || fail "metrics show"
check "metrics: storms of eth2 prio 1 and eth3 prio 2" test "$(grep -c \
	'^tagger_pfc_storms_total{.*\(port="eth2".*priority="1"\|port="eth3".*priority="2"\).*} 1$' \
	"$T/m.prom")" = 2
check "metrics: the last storm's start and end" grep -q \
	'^tagger_pfc_storm_last_end_timestamp_seconds{.*port="eth2".*priority="1".*} [1-9]' "$T/m.prom"
if command -v promtool >/dev/null; then
	check "metrics: promtool check metrics" sh -c "promtool check metrics <'$T/m.prom'"
fi
check "big red switch on: PFC off on every port" eval \
	'tg pfc watchdog S2 big-red-switch on >/dev/null &&
	 [ "$(jq -c "[.[] | .pfc.en]" "$DCB_FAKE_STATE")" = "[0,0,0,0]" ]'
check "  off: the rules' PFC back" eval 'tg pfc watchdog S2 big-red-switch off >/dev/null && holds'
check "stop: every port as found" eval 'stop && as_before'
echo PASS
