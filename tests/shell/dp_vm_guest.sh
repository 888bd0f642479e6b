#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs inside the VM of tests/shell/test_dataplane_vm.sh (Debian's stock
# kernel, before tcx): the BPF test-run suite, then attach / update / show /
# update in place / detach on a switch namespace. The host checks what this prints.
cd "$1" || exit 1
echo "kernel $(uname -r)"
build/test_runner -t dataplane -t dataplane_rewrite -t dataplane_host 2>&1 | tail -1
mkdir -p /tmp/bpffs && mount -t bpf bpf /tmp/bpffs || exit 1
export TAGGER_BPF_ROOT=/tmp/bpffs/tagger
ip netns add sw && ip -n sw link add hp type veth peer name l &&
	ip -n sw link add r type veth peer name x || exit 1
t() { nsenter --net=/run/netns/sw build/tagger "$@"; echo "exit $?"; }
t switch attach S2 tests/shell/fixtures/dp_line.rules.json
nsenter --net=/run/netns/sw tc filter show dev l ingress | grep -c tagger_ingress
t switch update S2 tests/shell/fixtures/dp_line.rules.json
t -j switch show S2
# The second update goes in place (mmap of the idle table, batch writes).
t -j switch update S2 tests/shell/fixtures/dp_line.rules.json |
	sed -n 's/.*\("in_place":[a-z]*\).*/\1/p; /^exit/p'
t -j switch show S2 | sed -n 's/.*\("generation":[0-9]*\).*/\1/p; /^exit/p'
t switch detach S2
