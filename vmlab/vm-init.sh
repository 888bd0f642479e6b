#!/bin/busybox sh
# shellcheck shell=dash
# SPDX-License-Identifier: GPL-2.0
# /init of the vmlab VM (copied into the initramfs by vm.sh): insert the
# modules, mount the host's / (read-only, virtio-9p) with writable tmpfs
# on /tmp, /run, /var/tmp, run /run/tagger-io/cmd.sh in a chroot, write
# its exit status to /run/tagger-io/rc and power off.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for m in $(cat /lib/mod/order); do
	insmod /lib/mod/"$m" 2>/dev/null || echo "vm-init: insmod $m failed"
done
R=/newroot
opts=trans=virtio,version=9p2000.L,msize=262144
if ! mount -t 9p -o "$opts,ro,cache=loose" hostroot $R; then
	echo "vm-init: cannot mount the host root"
	poweroff -f
fi
# Keep a view of the host root: tmpfs on /tmp etc. would hide paths below.
mkdir -p /host && mount -o bind $R /host
for d in tmp run var/tmp dev/shm; do mount -t tmpfs tmpfs $R/$d; done
mount -t proc proc $R/proc
mount -t sysfs sys $R/sys
mount -t devtmpfs dev $R/dev
mkdir -p $R/dev/pts $R/dev/shm $R/run/tagger-io
# What udev would add: bash's <(...) needs /dev/fd.
ln -sf /proc/self/fd $R/dev/fd
ln -sf /proc/self/fd/0 $R/dev/stdin
ln -sf /proc/self/fd/1 $R/dev/stdout
ln -sf /proc/self/fd/2 $R/dev/stderr
mount -t devpts devpts $R/dev/pts
mount -t tmpfs tmpfs $R/dev/shm
mount -t bpf bpf $R/sys/fs/bpf
mount -t 9p -o "$opts" tagger_io $R/run/tagger-io
# Host directories under those tmpfs mounts that the command needs (vm.sh)
while read -r d; do
	[ -n "$d" ] && mkdir -p "$R$d" && mount -o bind "/host$d" "$R$d"
done < $R/run/tagger-io/expose 2>/dev/null
ip link set lo up 2>/dev/null
chroot $R /bin/sh /run/tagger-io/cmd.sh </dev/null >/dev/console 2>&1
echo $? > $R/run/tagger-io/rc
sync
echo 0 > /proc/sys/kernel/printk
poweroff -f
