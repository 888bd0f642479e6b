#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tagger switch and host entered through "ip netns exec" (a private mount
# namespace, /sys remounted) and through nsenter, mixed, on a machine
# without a bpffs at /sys/fs/bpf and without TAGGER_BPF_ROOT: the kernel
# holds the programs and their state (dp_anchor.h), so packets are tagged
# after tagger exits and every later command finds the node, whichever
# way it was entered. A line h1 - S1 - h2 (S1's port r leads to h2).
# Nothing is left: no program on the interfaces, the programs and their
# maps freed, no pins, /sys/fs/bpf still unmounted. A root that truly
# cannot work (TAGGER_BPF_ROOT off any bpffs) gets an actionable message.
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd python3
require_cmd nsenter
require_cmd bpftool
# A bpffs at /sys/fs/bpf: run in a mount namespace of our own without it.
if mountpoint -q /sys/fs/bpf; then
	[ -z "${TGR_UNSHARED:-}" ] || fail "cannot unmount /sys/fs/bpf privately"
	rmdir "$TGR_TMP"
	# shellcheck disable=SC2016 # $0 of the inner sh: this script
	exec env TGR_UNSHARED=1 unshare -m --propagation slave \
		sh -c 'umount /sys/fs/bpf && exec bash "$0"' "$0"
fi
source "$TOP/tests/shell/dp_lab.sh"
unset TAGGER_BPF_ROOT	# no private bpffs of dp_lab.sh here
DP_TCX="$TOP/tests/shell/dp_tcx.py"

# Whatever a failed run left: detached, then the lock files of our
# namespaces (dp_lab.sh's cleanup and lib.sh's namespaces run after it).
netns_cleanup() {
	local n ino
	[ -e "/run/netns/$(ns_name S1)" ] && nsx S1 "$TAGGER" switch detach S1 >/dev/null 2>&1
	[ -e "/run/netns/$(ns_name h1)" ] && nsx h1 "$TAGGER" host detach h1 eth0 >/dev/null 2>&1
	for n in h1 S1 h2; do
		[ -e "/run/netns/$(ns_name "$n")" ] || continue
		ino=$(stat -L -c %i "/run/netns/$(ns_name "$n")")
		rm -f "/run/tagger/net-$ino.lock"
	done
}
tgr_on_exit netns_cleanup

nse() { local n=$1; shift; ip netns exec "$(ns_name "$n")" "$TAGGER" "$@"; }
nsn() { local n=$1; shift; nsx "$n" "$TAGGER" "$@"; }

# prog_ids NODE IFNAME...: the tcx programs on those interfaces, one a line.
prog_ids() {
	local n=$1
	shift
	nsx "$n" python3 "$DP_TCX" "$@" | awk '{for (i = 3; i <= NF; i++) print $i}' | sort -u
}

# gone NODE IDS IFNAME...: no program of ours on the interfaces, no filter
# of ours, and the programs (with their maps: the state) freed.
gone() {
	local n=$1 ids=$2 i id _
	shift 2
	[ -z "$(prog_ids "$n" "$@")" ] || fail "$n: tcx programs left: $(prog_ids "$n" "$@")"
	for i in "$@"; do
		nsx "$n" tc filter show dev "$i" ingress | grep -q 0x7467 && fail "$n:$i: ingress filter left"
		nsx "$n" tc filter show dev "$i" egress | grep -q 0x7467 && fail "$n:$i: egress filter left"
	done
	for id in $ids; do
		for _ in $(seq 50); do
			bpftool prog show id "$id" >/dev/null 2>&1 || continue 2
			sleep 0.1
		done
		fail "$n: program $id still loaded"
	done
	mountpoint -q /sys/fs/bpf && fail "/sys/fs/bpf is mounted"
	[ ! -e /sys/fs/bpf/tagger ] || fail "pins left in /sys/fs/bpf/tagger"
	echo "ok: $n: nothing left ($(echo "$ids" | wc -w) programs freed)"
}

mountpoint -q /sys/fs/bpf && fail "/sys/fs/bpf is a bpffs here"
for n in h1 S1 h2; do ns_new "$n"; done
nsx S1 sysctl -qw net.ipv4.ip_forward=1
dp_link h1 eth0 S1 hp
dp_link S1 r h2 eth0
dp_addr h1 eth0 10.0.1.1/24; dp_addr S1 hp 10.0.1.254/24
dp_addr S1 r 10.0.2.254/24; dp_addr h2 eth0 10.0.2.1/24
ip -n "$(ns_name h1)" route add default via 10.0.1.254
ip -n "$(ns_name h2)" route add default via 10.0.2.254
dp_reach h1 10.0.2.1 h2
F=$FIX/dp_line.rules.json
ECN=1
T=$(dp_json 'd["hosts"]["h1"]["tag"]' < "$F")
A=$(python3 "$DP_UDP" predict "$F" "$T" S1:hp:r)

# tagged WHAT: h1 -> h2 leaves h1 with T and S1 with A.
tagged() {
	dp_sniff S1 hp 5000 "$1-in"
	dp_sniff h2 eth0 5000 "$1-out"
	nsx h1 python3 "$DP_UDP" send 10.0.2.1 5000 $ECN 20 2000
	sleep 0.3
	dp_sniff_stop
	dp_expect "$1-in" 20 $((T << 2 | ECN))
	dp_expect "$1-out" 20 $((A << 2 | ECN))
}

# 1. The switch and the host, attached through ip netns exec.
out=$(nse S1 switch attach S1 "$F" 2>&1) || fail "ip netns exec: switch attach: $out"
echo "$out"
out=$(nse h1 host attach h1 eth0 "$F" --udp-dport 5000 2>&1) || fail "ip netns exec: host attach: $out"
echo "$out"
ids=$(prog_ids S1 hp r)
hids=$(prog_ids h1 eth0)
[ "$(echo "$ids" | wc -l)" = 2 ] || fail "S1: programs $ids, not ingress and egress"
[ -n "$hids" ] || fail "h1: no program on eth0"
tagged exec
echo "ok: tagger exited, the switch and the host tag"

# 2. Shown through nsenter, updated through ip netns exec, shown there.
show=$(nsn S1 -j switch show S1) || fail "nsenter: show"
[ "$(echo "$show" | dp_json 'd["generation"], d["ports"][0]["port"], d["pins"]')" = "0 hp None" ] ||
	fail "nsenter: show: $show"
[ "$(echo "$show" | dp_json 'sum(c["packets"] for c in d["ports"][0]["in"])')" -ge 20 ] ||
	fail "nsenter: show counts no packets: $show"
echo "ok: nsenter: show finds S1 and its counters"
nse S1 switch update S1 "$F" >/dev/null || fail "ip netns exec: update"
show=$(nse S1 -j switch show S1) || fail "ip netns exec: show"
[ "$(echo "$show" | dp_json 'd["generation"]')" = 1 ] || fail "ip netns exec: show after update: $show"
nsn S1 switch show S1 | grep -q "generation 1" || fail "nsenter: show after update"
echo "ok: update through ip netns exec: generation 1 seen both ways"
tagged update
[ "$(prog_ids S1 hp r)" = "$ids" ] || fail "update replaced the programs"

# 3. Detached through nsenter: nothing left.
nsn S1 switch detach S1 | grep -q "detached from 2 ports" || fail "nsenter: detach"
nsn h1 host detach h1 eth0 | grep -q "detached from eth0" || fail "nsenter: host detach"
[ "$(nsx S1 sysctl -n net.ipv4.ip_forward_update_priority)" = 1 ] || fail "sysctl not restored"
gone S1 "$ids" hp r
gone h1 "$hids" eth0
nse S1 switch show S1 2>/dev/null && fail "show after detach"

# 4. The other way round, and on cls_bpf: attached through nsenter,
# detached through ip netns exec.
nsn S1 switch attach S1 "$F" --mode tc >/dev/null || fail "nsenter: attach --mode tc"
nsn h1 host attach h1 eth0 "$F" --udp-dport 5000 --mode tc >/dev/null || fail "nsenter: host attach --mode tc"
tagged tc
nse S1 switch show S1 | grep -q "generation 0  tc " || fail "ip netns exec: show of a tc switch"
ids=$(nsx S1 tc filter show dev hp ingress | grep -o ' id [0-9]*' | awk '{print $2}')
nse S1 switch detach S1 >/dev/null || fail "ip netns exec: detach (tc)"
nse h1 host detach h1 eth0 >/dev/null || fail "ip netns exec: host detach (tc)"
gone S1 "$ids" hp r
gone h1 "" eth0
echo "ok: tc: attached through nsenter, detached through ip netns exec"

# 5. What cannot work says what to do.
mkdir "$TGR_TMP/notbpf"
chmod 700 "$TGR_TMP/notbpf"
out=$(TAGGER_BPF_ROOT=$TGR_TMP/notbpf/tagger nse S1 switch attach S1 "$F" 2>&1)
rc=$?
[ $rc -eq 2 ] || fail "a root off any bpffs: exit $rc ($out)"
echo "$out" | grep -q "is not on a bpffs: set TAGGER_BPF_ROOT to a directory on one.*or unset it" ||
	fail "a root off any bpffs: no actionable message: $out"
echo "ok: $out"
out=$(TAGGER_BPF_ROOT=/sys/fs/bpf/tagger nse S1 switch attach S1 "$F" 2>&1)
[ $? -eq 2 ] || fail "an explicit root in the remounted /sys: attached ($out)"
echo "$out" | grep -q "cannot create /sys/fs/bpf/tagger.*unset it" ||
	fail "an explicit root in the remounted /sys: $out"
echo "ok: $out"
[ -z "$(prog_ids S1 hp r)" ] || fail "a refused attach left programs"
echo "PASS"
