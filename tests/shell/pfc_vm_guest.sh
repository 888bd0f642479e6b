#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs inside the VM of tests/shell/test_pfc_vm.sh (Debian's stock kernel,
# which has mqprio and plug): a pause agent on a veth with 8 tx queues must
# pick the mqprio-plug backend, hold priority 3 while a PFC frame pauses
# it, keep priority 4 flowing, and release priority 3 on quanta 0.
# Prints "key value" lines that the host checks.
cd "$1" || exit 1
T=$PWD/build/tagger
PY=/usr/bin/python3
TR=$PWD/tests/shell/pfc_traffic.py
export TAGGER_PFC_DIR=/run/pfc
echo "kernel $(uname -r)"
ip netns add a && ip netns add b || exit 1
ip link add va netns a numtxqueues 8 numrxqueues 8 type veth peer name vb \
	netns b numtxqueues 8 numrxqueues 8 || exit 1
ip -n a addr add 10.63.0.1/24 dev va && ip -n b addr add 10.63.0.2/24 dev vb
ip -n a link set va up && ip -n b link set vb up && ip -n a link set lo up
ip -n b link set lo up
A() { nsenter --net=/run/netns/a "$@"; }
B() { nsenter --net=/run/netns/b "$@"; }
A $PY $TR send 10.63.0.2 9 0 1 0.2 >/dev/null	# resolve the neighbour
A $T -v pfc agent A p=va --backend auto --rate 10mbit > /tmp/agent.log 2>&1 &
: "agent pid $!"	# it stops with `pfc stop` below
for _ in $(seq 100); do [ -s /run/pfc/A/pid ] && break; sleep 0.1; done
echo "backend $(A $T -j pfc show A | $PY -c 'import json,sys; print(json.load(sys.stdin)["backend"])')"
echo "qdiscs $(A tc qdisc show dev va | grep -c plug) plug"
# The receiver ends after 20 s without a packet: the resume comes only
# after the loop below saw the plug hold, which on a starved VM (a build
# beside it) took over 8 s after priority 4's last packet, and an 8 s
# receiver had gone (0 of 94 priority-3 packets "arrived").
B $PY $TR recv 5003,5004 20 > /tmp/recv.json 2>/dev/null &
rcv=$!
sleep 0.5
# 65535 quanta are 3.4 s at 10 Mbit/s; refreshed below until the resume.
B $T pfc send vb 3 65535
A $PY $TR send 10.63.0.2 5003 24 2 1 > /tmp/p3.json &
A $PY $TR send 10.63.0.2 5004 32 2 1 > /tmp/p4.json &
# Python starts slowly under emulation: look until the plug holds some,
# at most 50 times, while a loop of B's refreshes the pause (a slow VM
# can take longer than one frame's 3.4 s).
( while [ ! -e /tmp/resume ]; do B $T pfc send vb 3 65535 >/dev/null; sleep 0.2; done ) &
refresh=$!
for _ in $(seq 50); do
	sleep 0.2
	A $T -j pfc show A > /tmp/show.json
	$PY -c 'import json, sys; sys.exit(json.load(open("/tmp/show.json"))["ports"][0]["prios"][3]["queue_packets"] < 20)' && break
done
A tc -s qdisc show dev va | grep -A2 "plug 23\|tbf 33\|plug 24" | sed "s/^/tc /"
$PY - <<'PY'
import json
d = json.load(open("/tmp/show.json"))["ports"][0]["prios"]
print("paused3", d[3]["paused"], "held3", d[3]["queue_packets"])
print("paused4", d[4]["paused"], "pauses4", d[4]["pauses"])
PY
touch /tmp/resume
wait $refresh
B $T pfc send vb 3 0
wait $rcv
$PY - <<'PY'
import json
r = json.load(open("/tmp/recv.json"))
s3, s4 = json.load(open("/tmp/p3.json")), json.load(open("/tmp/p4.json"))
print("prio3", s3["sent"], r["5003"]["received"], r["5003"]["max_gap_ms"])
print("prio4", s4["sent"], r["5004"]["received"], r["5004"]["max_gap_ms"])
PY
A $T pfc stop A
echo "after-stop $(A tc qdisc show dev va | grep -c plug) plug"
grep -B12 "END PROG LOAD LOG" /tmp/agent.log | cut -c1-150
echo DONE
