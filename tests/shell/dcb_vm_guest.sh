#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the VM of tests/shell/test_dcb_vm.sh (Debian's 6.1 kernel,
# which has nlmon and dummy as modules): iproute2's dcb and tagger's DCB
# library (build/helpers/dcb_tool) each send the same settings to a dummy
# device while nlmon captures every netlink message; tests/shell/
# dcb_nlmon.py then compares the requests. A dummy has no DCB operations,
# so the kernel refuses each request after nlmon has seen it; where dcb
# reads the port before it writes (pfc, buffer), build/helpers/
# dcb_fake.so answers that read as a DCB port would, for dcb and for the
# library alike. $1: the repository, $2: the unpacked Debian kernel.
set -u
cd "$1" || exit 1
kdir=$2
echo "kernel $(uname -r)"
for m in nlmon dummy; do
	modprobe -d "$kdir" "$m" || { echo "modprobe $m failed"; exit 1; }
done
W=$(mktemp -d)
T="$PWD/build/helpers/dcb_tool"
FAKE="$PWD/build/helpers/dcb_fake.so"
ip link add nlmon0 type nlmon && ip link set nlmon0 up || exit 1
ip link add dum0 type dummy && ip link set dum0 up || exit 1
ip link add vd0 type veth peer name vd1 || exit 1

# Our clear refusals first, without the fake: no DCB operations at all.
for dev in dum0 vd0 lo; do
	out=$("$T" show "$dev" 2>&1)
	echo "refused $dev rc=$? $out"
done

tcpdump -i nlmon0 -U -w "$W/nl.pcap" 2>"$W/tcpdump.log" &
tcpdump=$!
for _ in $(seq 100); do
	grep -q listening "$W/tcpdump.log" && break
	sleep 0.1
done
fake() { LD_PRELOAD=$FAKE "$@"; }
labels=()
# Each step's requests follow a marker: a GET of device "mk.LABEL".
step() {
	labels+=("$1")
	"$T" show "mk.$1" >/dev/null 2>&1
	shift
	echo "step ${labels[-1]}: $("$@" 2>&1 | tr '\n' ' ')"
}
cat >"$W/saved.json" <<'JSON'
{"ifname": "dum0", "dscp_prio": [[26, 3]],
 "pfc": {"cap": 8, "enabled": [3], "mbc": 0, "delay": 4096}}
JSON
step dcb-get dcb app show dev dum0
step dcb-app dcb app add dev dum0 dscp-prio 26:3
step dcb-appdel dcb app del dev dum0 dscp-prio 26:3 46:5
step dcb-pfc fake dcb pfc set dev dum0 prio-pfc 3:on delay 4096
step dcb-buffer fake dcb buffer set dev dum0 prio-buffer all:0 3:1 \
	buffer-size all:0 1:65536
step our-get "$T" show dum0
step our-app "$T" app-add dum0 26:3
step our-appdel "$T" app-del dum0 26:3 46:5
step our-pfc fake "$T" pfc dum0 0x08 4096
step our-buffer fake "$T" buffer dum0 0,0,0,1,0,0,0,0 0,65536,0,0,0,0,0,0
# dcb of Debian 12 has no rewr: the uapi's layout instead (dcb_nlmon.py).
step our-rewr env DCB_FAKE=rewr LD_PRELOAD="$FAKE" "$T" rewr-add dum0 3:26
step our-rewr-old fake "$T" rewr-add dum0 3:26
step our-restore env DCB_FAKE=ok LD_PRELOAD="$FAKE" "$T" restore dum0 \
	"$W/saved.json"
# The VM is slow: stop the capture only once it holds an end marker.
"$T" show mk.end >/dev/null 2>&1
for _ in $(seq 100); do
	grep -aq mk.end "$W/nl.pcap" && break
	sleep 0.1
done
kill -INT "$tcpdump"
wait "$tcpdump"
echo "capture: $(grep -o '[0-9]* packets captured' "$W/tcpdump.log")"
python3 tests/shell/dcb_nlmon.py compare "$W/nl.pcap" "${labels[@]}"
echo "compare rc=$?"
