#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# vmlab/vm.sh: run a command as root inside a QEMU VM that boots Debian's
# stock kernel (which has mqprio, plug, prio, fq, netem as modules; this
# host's kernel does not). The host's / is shared read-only over virtio-9p,
# so the repository and every host binary are at the same paths inside.
#
#   vmlab/vm.sh setup                      fetch + prepare the kernel (cached)
#   vmlab/vm.sh run [--timeout S] [--mem MB] [--keep-env NAME]...
#                   [--nic tap:NAME[,mac=MAC]]... -- CMD ...
#   vmlab/vm.sh info                       cache path, kernel version, modules
#   vmlab/vm.sh clean                      remove the cache
#
# `run` prints CMD's output (stdout and stderr, merged) and exits with CMD's
# exit status; 124 if the VM hit the timeout, 125 if the VM itself failed.
# Inside: /tmp, /run and /var/tmp are tmpfs (writable), bpffs is mounted,
# $VM_OUT is a directory shared with the host (read-write) whose content
# is copied to --out DIR on the host after the run.
# Without --nic the VM has no network. Each --nic gives it a virtio-net
# NIC (eth0, eth1, ... in order) on the tap device NAME, which the caller
# made (ip tuntap add NAME mode tap) in the network namespace vm.sh runs
# in, and removes: the VM is then a host of whatever that tap is part of
# (a lab switch's port: tests/shell/slow_lab_rdma_vm.sh).
#
# How it is built (see Documentation/kernel-notes.md for the measurements):
# the package linux-image-amd64 depends on is fetched with `apt-get download`
# into $TAGGER_VM_CACHE (default /var/cache/tagger-vm, never committed), unpacked
# with dpkg -x, depmod-ed, and its vmlinuz unwrapped to vmlinux (booted through
# its PVH note with qboot: seconds faster than SeaBIOS under TCG). A busybox
# initramfs inserts the modules listed below in dependency order, mounts the
# host root, and chroots into it. TCG with one vCPU: KVM does not work here.
set -u

CACHE=${TAGGER_VM_CACHE:-/var/cache/tagger-vm}
TOP=$(cd "$(dirname "$0")/.." && pwd)
# Modules the lab and the pause backends need; dependencies are added by
# modprobe --show-depends at set-up time.
# virtio_net for --nic; soft RoCE (rdma_rxe, ib_uverbs for perftest) and
# crc32_generic, its ICRC, which the kernel would request_module from a
# /lib/modules the chroot does not have (so "rdma link add" would fail).
VM_MODULES="virtio_pci 9pnet_virtio 9p veth sch_mqprio sch_plug sch_prio
	sch_htb sch_tbf sch_fq sch_netem sch_ingress cls_bpf act_bpf bridge
	virtio_net crc32_generic ib_uverbs rdma_rxe"

die() { echo "vm.sh: $*" >&2; exit 125; }
usage() {
	cat >&2 <<-EOF
	Usage: vmlab/vm.sh { setup | info | clean | help }
	       vmlab/vm.sh run [--timeout S] [--mem MB] [--out DIR] [--keep-env NAME]...
	                       [--nic tap:NAME[,mac=MAC]]... -- CMD ...
	EOF
	exit "${1:-2}"
}

kernel_pkg() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		awk '/Depends: linux-image-[0-9]/ { print $2; exit }'
}

# vmlinuz is a bzImage: find the start of its xz (Debian's choice; zstd and
# gzip are tried too) stream and decompress it; the rest is ignored.
extract_vmlinux() {
	local in=$1 out=$2 magic off
	for magic in '\3757zXZ\000:xz -dc' '\050\265\057\375:zstd -dc' '\037\213\010:gzip -dc'; do
		local pat=${magic%%:*} dec=${magic#*:}
		for off in $(LC_ALL=C grep -aboP "$(printf "$pat" | od -An -tx1 |
				sed 's/ \([0-9a-f][0-9a-f]\)/\\x\1/g')" "$in" | cut -d: -f1); do
			tail -c +"$((off + 1))" "$in" | $dec > "$out" 2>/dev/null
			if [ "$(head -c 4 "$out" | od -An -c | tr -d ' ')" = '177ELF' ]; then
				return 0
			fi
		done
	done
	return 1
}

build_initramfs() {
	local root=$1 ver=$2 out=$3 dir m
	dir=$(mktemp -d "$CACHE/initrd.XXXX")
	mkdir -p "$dir"/{bin,dev,proc,sys,newroot,lib/mod}
	cp /bin/busybox "$dir/bin/busybox"
	: > "$dir/lib/mod/order"
	for m in $VM_MODULES; do
		modprobe -d "$root" -S "$ver" --show-depends "$m" || return 1
	done | awk '$1 == "insmod" && !seen[$2]++ { print $2 }' |
	while read -r m; do
		cp "$m" "$dir/lib/mod/"
		basename "$m" >> "$dir/lib/mod/order"
	done
	cp "$(dirname "$0")/vm-init.sh" "$dir/init"
	cp "$(dirname "$0")/vm-init.sh" "$(dirname "$out")/init.sh"
	chmod 755 "$dir/init"
	(cd "$dir" && find . | cpio -o -H newc --quiet | gzip -1) > "$out" || return 1
	cp "$dir/lib/mod/order" "$out.modules"
	rm -rf "$dir"
}

do_setup() {
	local pkg ver deb stage
	for c in qemu-system-x86_64 busybox cpio depmod modprobe apt-get dpkg; do
		command -v "$c" >/dev/null || die "needs $c (make deps)"
	done
	[ -f /usr/share/qemu/qboot.rom ] || die "needs /usr/share/qemu/qboot.rom (qemu-system-x86)"
	mkdir -p "$CACHE" || die "cannot create $CACHE"
	exec 9>"$CACHE/.lock"
	flock 9
	[ -f "$CACHE/ready" ] && return 0
	pkg=$(kernel_pkg)
	# A fresh machine (a CI container) may have no package lists yet.
	if [ -z "$pkg" ] && [ "$(id -u)" -eq 0 ]; then
		apt-get update -q >/dev/null 2>&1
		pkg=$(kernel_pkg)
	fi
	[ -n "$pkg" ] || die "apt-cache knows no linux-image-amd64 (apt-get update?)"
	ver=${pkg#linux-image-}
	echo "vm.sh: preparing $pkg in $CACHE (once)" >&2
	stage=$(mktemp -d "$CACHE/stage.XXXX")
	(cd "$stage" && apt-get download -q "$pkg" >/dev/null 2>&1) ||
		{ rm -rf "$stage"; die "apt-get download $pkg failed"; }
	deb=$(ls "$stage"/*.deb)
	dpkg -x "$deb" "$stage/root" && rm -f "$deb" || die "dpkg -x failed"
	depmod -b "$stage/root" "$ver" || die "depmod failed"
	extract_vmlinux "$stage/root/boot/vmlinuz-$ver" "$stage/vmlinux" ||
		die "cannot find the kernel image inside vmlinuz-$ver"
	build_initramfs "$stage/root" "$ver" "$stage/initrd.gz" &&
		mv "$stage/initrd.gz.modules" "$stage/modules" || die "initramfs failed"
	echo "$ver" > "$stage/version"
	rm -rf "$CACHE/kernel" && mv "$stage" "$CACHE/kernel" && touch "$CACHE/ready"
}

# 0 when the initramfs has every module of VM_MODULES (file names use
# "-" or "_" as they like, module names "_"). A superset is fine: only a
# missing module rebuilds, so checkouts with shorter lists never undo a
# longer one.
initramfs_has_modules() {
	local m
	for m in $VM_MODULES; do
		tr '-' '_' < "$CACHE/kernel/modules" | grep -qx "${m//-/_}.ko" || return 1
	done
}

# A changed vm-init.sh or a module list with a new module only needs a
# new initramfs, not a new kernel.
initramfs_current() {
	cmp -s "$(dirname "$0")/vm-init.sh" "$CACHE/kernel/init.sh" && initramfs_has_modules
}

refresh_initramfs() {
	local k=$CACHE/kernel
	initramfs_current && return 0
	exec 9>"$CACHE/.lock"
	flock 9
	initramfs_current && return 0
	build_initramfs "$k/root" "$(cat "$k/version")" "$k/initrd.gz.new" &&
		mv "$k/initrd.gz.new.modules" "$k/modules" &&
		mv "$k/initrd.gz.new" "$k/initrd.gz"
	exec 9>&-
}

# nic_args SPEC INDEX: QEMU's arguments for --nic SPEC in NIC_ARGS.
# SPEC is tap:NAME[,mac=MAC]; the tap exists already (script=no: QEMU
# configures nothing on the host side), vhost off (TCG).
nic_args() {
	local spec=$1 i=$2 name mac="" opt
	local -a opts
	case $spec in
	tap:*) spec=${spec#tap:} ;;
	*) echo "vm.sh: --nic: tap:NAME[,mac=MAC], not \"$spec\"" >&2; return 1 ;;
	esac
	name=${spec%%,*}
	[[ $name =~ ^[A-Za-z0-9_.-]{1,15}$ ]] ||
		{ echo "vm.sh: --nic: \"$name\" is no interface name" >&2; return 1; }
	IFS=, read -r -a opts <<< "${spec#"$name"}"
	for opt in "${opts[@]}"; do
		case $opt in
		'') ;;
		mac=*) mac=${opt#mac=}
			[[ $mac =~ ^([0-9a-fA-F]{2}:){5}[0-9a-fA-F]{2}$ ]] ||
				{ echo "vm.sh: --nic: bad MAC \"$mac\"" >&2; return 1; } ;;
		*) echo "vm.sh: --nic: what is \"$opt\"? (mac=MAC)" >&2; return 1 ;;
		esac
	done
	NIC_ARGS=(-netdev "tap,id=nic$i,ifname=$name,script=no,downscript=no"
		-device "virtio-net-pci,netdev=nic$i${mac:+,mac=$mac}")
}

# Quote argv into one shell line for the guest.
quote_cmd() {
	local a out=
	for a in "$@"; do out+=" $(printf '%q' "$a")"; done
	echo "$out"
}

do_run() {
	local timeout=300 mem=1024 outdir='' keep=(TGR_PREFIX TAGGER V) io rc k
	local -a net=(-nic none)
	local nics=0
	while [ $# -gt 0 ]; do
		case $1 in
		--timeout) timeout=$2; shift 2 ;;
		--nic)
			[ $nics -eq 0 ] && net=()
			nic_args "$2" $nics || usage
			net+=("${NIC_ARGS[@]}")
			nics=$((nics + 1)); shift 2 ;;
		--mem) mem=$2; shift 2 ;;
		--out) outdir=$2; shift 2 ;;
		--keep-env) keep+=("$2"); shift 2 ;;
		--) shift; break ;;
		help|-h|--help) usage 0 ;;
		*) echo "What is \"$1\"?" >&2; usage ;;
		esac
	done
	[ $# -gt 0 ] || usage
	[ -f "$CACHE/ready" ] || do_setup
	refresh_initramfs
	io=$(mktemp -d /tmp/tagger-vm.XXXXXX)
	# A run killed from outside (a test's cleanup: SIGTERM to the process
	# group, QEMU included) leaves no directory behind.
	VM_IO=$io
	trap 'rm -rf "$VM_IO"' EXIT
	trap 'exit 143' TERM INT
	mkdir -p "$io/out"
	{
		echo "export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
		echo "export HOME=/tmp TMPDIR=/tmp TERM=dumb VM_OUT=/run/tagger-io/out TAGGER_IN_VM=1"
		for k in "${keep[@]}"; do
			[ -n "${!k+x}" ] && echo "export $k=$(printf '%q' "${!k}")"
		done
		echo "cd $(printf '%q' "$PWD") 2>/dev/null || cd /"
		quote_cmd "$@"
	} > "$io/cmd.sh"
	# The guest's /tmp, /run, /var/tmp and /dev/shm are fresh tmpfs; a
	# checkout or working directory below one of them (CI may clone into
	# /tmp) is bound back in from the host's read-only root.
	for d in "$TOP" "$PWD"; do
		case $d in /tmp/*|/run/*|/var/tmp/*|/dev/shm/*) echo "$d" ;; esac
	done > "$io/expose"
	# stdout through tr: the serial line turns \n into \r\n; line by
	# line, so that a caller can follow the guest (a scenario waits for
	# its VMs' "ready"), not in 4 KiB blocks. timeout in
	# the foreground: in a process group of its own a SIGTERM to vm.sh's
	# group (a lab's cleanup) would not reach QEMU, and vm.sh, waiting
	# for it, would be killed before its EXIT trap ran.
	timeout --foreground --kill-after=5 "$timeout" qemu-system-x86_64 \
		-machine pc,accel=tcg -cpu max -smp 1 -m "$mem" \
		-bios /usr/share/qemu/qboot.rom \
		-kernel "$CACHE/kernel/vmlinux" -initrd "$CACHE/kernel/initrd.gz" \
		-append "console=ttyS0 quiet loglevel=1 panic=-1 mitigations=off" \
		-fsdev local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap \
		-device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot \
		-fsdev local,id=io,path="$io",security_model=none,multidevs=remap \
		-device virtio-9p-pci,fsdev=io,mount_tag=tagger_io \
		"${net[@]}" -display none -monitor none -serial stdio -no-reboot \
		</dev/null | stdbuf -oL tr -d '\r'
	rc=${PIPESTATUS[0]}
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		echo "vm.sh: the VM hit the ${timeout}s timeout" >&2
		rc=124
	elif [ -f "$io/rc" ]; then
		rc=$(cat "$io/rc")
	else
		echo "vm.sh: the VM ended without an exit status (qemu status $rc)" >&2
		rc=125
	fi
	[ -n "$outdir" ] && mkdir -p "$outdir" && cp -a "$io/out/." "$outdir/"
	rm -rf "$io"
	return "$rc"
}

do_info() {
	[ -f "$CACHE/ready" ] || { echo "not set up (vmlab/vm.sh setup)"; return 1; }
	echo "cache   $CACHE/kernel"
	echo "kernel  $(cat "$CACHE/kernel/version")"
	echo "modules $(tr '\n' ' ' < "$CACHE/kernel/modules")"
}

case ${1:-} in
setup) do_setup ;;
run) shift; do_run "$@" ;;
info) do_info ;;
clean) rm -rf "$CACHE/kernel" "$CACHE/ready" ;;
help|-h|--help) usage 0 ;;
"") usage ;;
*) echo "What is \"$1\"?" >&2; usage ;;
esac
