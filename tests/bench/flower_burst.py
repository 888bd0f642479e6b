#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A burst of one UDP/IPv4 frame, sent N times out of an interface with
AF_PACKET, as fast as one Python loop goes (tests/bench/bench_flower.sh).

flower_burst.py IFNAME DST_MAC TAG N

Prints the wall time a frame and the busy CPU time a frame (all CPUs'
non-idle time in /proc/stat over the burst), both in ns. Through a veth
pair the receive side runs in the softirq the send raises, on the same
CPU, so both include the switch namespace's data path: what differs
between data paths with the same sender is their cost.
"""
import socket
import struct
import sys
import time


def busy():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    # user nice system idle iowait irq softirq steal ...: all but idle, iowait
    return (sum(v) - v[3] - v[4]) * 1e9 / 100  # USER_HZ 100


def csum(b):
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    s = (s >> 16) + (s & 0xFFFF)
    s += s >> 16
    return ~s & 0xFFFF


def main():
    ifname, dst, tag, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((ifname, 0))
    src = s.getsockname()[4]
    payload = bytes(18)
    udp = struct.pack("!HHHH", 4791, 4791, 8 + len(payload), 0) + payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, tag << 2, 20 + len(udp), 0, 0x4000,
                     64, 17, 0, socket.inet_aton("10.9.0.1"),
                     socket.inet_aton("10.9.0.2"))
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    frame = bytes.fromhex(dst.replace(":", "")) + src + b"\x08\x00" + ip + udp
    send = s.send
    for _ in range(min(n, 200)):  # warm: caches, the fdb, the filters' first match
        send(frame)
    b0, t0 = busy(), time.perf_counter_ns()
    for _ in range(n):
        send(frame)
    t1, b1 = time.perf_counter_ns(), busy()
    print("%d %d" % ((t1 - t0) // n, (b1 - b0) // n))


main()
