#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Reproduction of messages lost with every lab counter at 0 (the hierarchy
# runs' losses): a flowlat.py message sender started before its receiver
# has bound the port, on the loopback of a scratch namespace. Datagrams
# sent before the bind die as UDP NoPorts at the receiving host; the ICMP
# port-unreachable makes the sender's next send() fail (send_errors), and
# the message still counts as sent. Prints the counts; exit 1 if nothing
# was lost that way (RX_DELAY_MS, default 300, is the receiver's delay).
#   bash tests/soak/soak_late_rx.sh
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd python3
RX_DELAY_MS=${RX_DELAY_MS:-300}
case $RX_DELAY_MS in '' | *[!0-9]*) echo "RX_DELAY_MS: a whole number" >&2; exit 2 ;; esac
FL=$TOP/vmlab/flowlat.py
ns_new a
udp() { ns_exec a awk '/^Udp:/ { if (h) print $3; h = 1 }' /proc/net/snmp; }
ns_exec a python3 "$FL" send 127.0.0.1 --port 4792 --id 1 --msg-bytes 16000 \
	--size 1000 --interval 10 --seconds 3 >"$TGR_TMP/tx" &
tx=$!
bg_track $tx
sleep "$(awk -v m="$RX_DELAY_MS" 'BEGIN { print m / 1000 }')"
ns_exec a python3 "$FL" recv --port 4792 --msg 16 --seconds 4 >"$TGR_TMP/rx"
wait $tx
read -r sent errs completed < <(python3 - "$TGR_TMP" <<'P'
import json, sys
d = sys.argv[1]
tx = json.loads(open(d + "/tx").read().splitlines()[-1])
rx = [json.loads(x) for x in open(d + "/rx") if x.strip()]
m = [r for r in rx if r.get("flow") == 1][-1]["messages"]
print(tx["messages"], tx["send_errors"], m["completed"])
P
)
echo "messages sent $sent, completed $completed, lost $((sent - completed));" \
	"send errors $errs; Udp NoPorts $(udp)"
check "messages were lost to the late receiver" [ $((sent - completed)) -gt 0 ]
