#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages tagger builds, tests and demonstrates with.
# Quick when everything is present: only missing packages trigger apt-get.
set -eu

pkgs=(
	# build
	make gcc clang llvm pkg-config libbpf-dev bpftool libelf-dev zlib1g-dev
	libmnl-dev libjansson-dev libglpk-dev glpk-utils libcadical-dev libssl-dev
	# tests and fuzzing (shellcheck: make lint)
	shellcheck clang-format check libsubunit-dev libclang-rt-14-dev jq time prometheus
	# the Ansible collection's tests (test_fabric_ansible.sh); sshd for
	# the switches of the fat-tree lab (slow_fabric_k4.sh starts its own)
	ansible-core openssh-server
	# lab
	iproute2 ethtool iperf3 tcpdump strace tshark graphviz gnuplot-nox frr jq bc
	# topo discover and check (lldpd and lldpcli in the namespaces)
	lldpd
	# VM mode of the lab
	qemu-system-x86 busybox-static kmod cpio
	# RDMA through the lab: soft RoCE's user space (the VMs see the host's
	# / over 9p, so these run inside them): verbs, rxe's provider, perftest
	rdma-core ibverbs-providers ibverbs-utils perftest
	# man pages, completion and the Debian package (make man, make deb)
	python3-docutils man-db groff-base debhelper dpkg-dev lintian
)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages: ${missing[*]} (run as root)" >&2
	exit 1
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
# The tests run sshds of their own in lab namespaces; the system's ssh
# service, which installing openssh-server enables, was not asked for.
if [[ " ${missing[*]} " == *" openssh-server "* ]] && [ -d /run/systemd/system ]; then
	echo "install-deps: openssh-server installed for the tests: ssh.service disabled"
	systemctl disable --now ssh.service ssh.socket >/dev/null 2>&1 || true
fi
