#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The pieces the draft's experiments (vmlab scenarios reuse, hierarchy,
# hops) measure with, each against a case whose answer is known:
#  - vmlab/flowlat.py: datagrams with a known send time and a gap in the
#    sequence: the gap is a lost datagram and an incomplete message, the
#    latency is the time the receiver's stamp says, a message completes
#    only with all its datagrams, and send sends whole messages;
#  - vmlab/two-users.sh: the M+N reuse rules (tagger compile --classes 2:
#    user 1 on tags 1 -> 2, user 2 on 2 -> 3) and the no-reuse set verify
#    deadlock-free over the 1-bounce ELP; the draft's literal reuse (user 2
#    on priorities 2 -> 1) does not.
# The scenarios themselves take minutes: tests/bench/bench_lab_experiments.sh.
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd jq
require_cmd python3
FL=$TOP/vmlab/flowlat.py
ns_new a
# Until PORT is bound in the namespace (python starts slowly on a busy
# machine; datagrams before that would be refused).
bound() {
	for _ in $(seq 100); do
		ns_exec a ss -Huln "sport = :$1" | grep -q . && return 0
		sleep 0.1
	done
	fail "nothing listens on port $1"
}
# Ends recv (pid $1) as the scenarios do, with SIGTERM, and waits for it.
stop() { kill -TERM "$1"; wait "$1"; }

# recv in the namespace; a crafted sender: flow 7, sequence 0..31 without
# 5 (message 0 of 16 never completes, message 1 does), each datagram
# stamped 2 ms in the past.
ip netns exec "$(ns_name a)" python3 "$FL" recv --port 4791 --seconds 60 --msg 16 -o "$TGR_TMP/rx.json" &
rx=$!
bg_track $rx
bound 4791
ns_exec a python3 - <<'PY' || fail "crafted sender"
import socket, struct, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for seq in range(32):
    if seq == 5:
        continue
    s.sendto(struct.pack("!IIQQ", 0x54474657, 7, seq, time.monotonic_ns() - 2000000) + bytes(100),
             ("127.0.0.1", 4791))
    time.sleep(0.001)
# not a flow datagram: ignored
s.sendto(b"junk", ("127.0.0.1", 4791))
PY
sleep 0.5
stop $rx
r=$TGR_TMP/rx.json
jq -c '.messages.each = (.messages.each | length)' "$r"
check "one flow, id 7" [ "$(jq -s 'map(.flow)' "$r" | jq -c .)" = "[7]" ]
check "31 datagrams received, junk ignored" [ "$(jq .pkts "$r")" = 31 ]
check "the gap is one lost datagram" [ "$(jq .lost "$r")" = 1 ]
check "message 1 completed, message 0 did not" \
	[ "$(jq -c '.messages | [.completed, .incomplete]' "$r")" = "[1,1]" ]
check "latency: the 2 ms the stamps say, plus a little (under 50 ms)" \
	jq -e '.latency_us.p50 >= 2000 and .latency_us.p50 < 50000' "$r"
# (16 datagrams 1 ms apart, the first stamped 2 ms early: at least 17 ms)
check "completion time: first send to last arrival, at least 17 ms" \
	jq -e '.messages.fct_us.p50 >= 17000 and .messages.fct_us.p50 < 3000000' "$r"

# send: whole messages, numbered on; recv counts them complete.
ip netns exec "$(ns_name a)" python3 "$FL" recv --port 4792 --seconds 60 --msg 4 -o "$TGR_TMP/rx2.json" &
rx=$!
bg_track $rx
bound 4792
ns_exec a python3 "$FL" send 127.0.0.1 --port 4792 --id 3 --msg-bytes 3500 --size 1000 \
	--interval 50 --seconds 1 > "$TGR_TMP/tx2.json" || fail "flowlat send"
sleep 0.5
stop $rx
check "send: 4 datagrams per 3500 B message" [ "$(jq .pkts_per_message "$TGR_TMP/tx2.json")" = 4 ]
check "every message sent completed" \
	[ "$(jq .messages "$TGR_TMP/tx2.json")" = "$(jq .messages.completed "$TGR_TMP/rx2.json")" ]
check "about 20 messages in 1 s at 50 ms" jq -e '.messages >= 10 and .messages <= 21' "$TGR_TMP/tx2.json"

# two-users.sh over the reuse scenario's Clos: the three schemes' rules.
topo=$TOP/vmlab/scenarios/clos-reuse.topo
r=$TGR_TMP/rules
bash "$TOP/vmlab/two-users.sh" "$topo" "$r" h3 || fail "two-users.sh"
prios() { jq -c '[.tags[] | [.tag, .priority]]' "$r/$1.json"; }
check "M+N reuse: tags 1, 2, 3 on priorities 1, 2, 3 (3 priorities)" [ "$(prios reuse)" = "[[1,1],[2,2],[3,3]]" ]
check "M+N reuse: h3 (user 2) sends tag 2, h1 and h2 (user 1) tag 1" \
	[ "$(jq -c '[.hosts.h3.tag, .hosts.h1.tag, .hosts.h2.tag]' "$r/reuse.json")" = "[2,1,1]" ]
check "M+N reuse: the bounce at L4 takes user 1 from 1 to 2 and user 2 from 2 to 3" \
	jq -e '.switches.L4.rewrite | any(.tag == 1 and .in == "S1" and .out == "S2" and .new_tag == 2) and
		any(.tag == 2 and .in == "S1" and .out == "S2" and .new_tag == 3)' "$r/reuse.json"
check "M+N reuse: at L3 user 1's bounced flow (from S2) and user 2's (from T3) share priority 2" \
	jq -e '.switches.L3.classify | any(.in == "S2" and .tag == 2 and .priority == 2) and
		any(.in == "T3" and .tag == 2 and .priority == 2) and
		any(.in == "S1" and .tag == 1 and .priority == 1)' "$r/reuse.json"
check "draft literal: tags 1, 2 of user 1 and 3, 4 of user 2 on priorities 1, 2, 2, 1" \
	[ "$(prios draft)" = "[[1,1],[2,2],[3,2],[4,1]]" ]
check "no reuse: user 2 on priorities 3, 4" [ "$(prios noreuse)" = "[[1,1],[2,2],[3,3],[4,4]]" ]
check "draft literal: h3 sends user 2's first tag, h1 user 1's" \
	[ "$(jq -c '[.hosts.h3.tag, .hosts.h1.tag]' "$r/draft.json")" = "[3,1]" ]
check "draft literal: every switch has user 2's copy of each rule" \
	jq -e --slurpfile u "$r/user1.json" 'all(.switches | to_entries[];
		(.value.rewrite | length) == 2 * ($u[0].switches[.key].rewrite | length) and
		(.value.classify | length) == 2 * ($u[0].switches[.key].classify | length))' "$r/draft.json"
# The verdicts, from tagger verify itself (exit 0 deadlock-free, 1 not).
for f in reuse noreuse user1; do
	"$TAGGER" verify "$topo" "$r/bounce1.elp" "$r/$f.json" >/dev/null
	check "$f verifies deadlock-free" [ $? = 0 ]
done
"$TAGGER" verify "$topo" "$r/bounce1.elp" "$r/draft.json" >/dev/null
check "draft literal: verify finds the cycle through both users' priorities (exit 1)" [ $? = 1 ]
check "M+N reuse: verified for both classes from every host" \
	jq -e '.deadlock_free and .classes == 2 and .lossy_paths == 0' "$r/reuse.verify.json"
check "the draft's verdict file names a cycle" jq -e '.deadlock_free == false and (.cycle | length) > 0' "$r/draft.verify.json"

# Bad arguments are refused before any lab comes up (exit 2).
for args in "reuse --trials 0" "reuse --trials x" "reuse --bogus" "reuse --schemes reuse,x" \
	"reuse --schemes ," "hops --max 9" \
	"hops --trials 1 --max 0" "hierarchy --links x" "hierarchy --seed -1" "hierarchy --nope"; do
	# shellcheck disable=SC2086
	"$TOP/vmlab/vmlab" -n "${TGR_PREFIX}x" scenario $args >/dev/null 2>&1
	check "vmlab scenario $args: exit 2" [ $? = 2 ]
done
check "no lab was brought up" [ ! -e "/run/tagger-lab/${TGR_PREFIX}x" ]
