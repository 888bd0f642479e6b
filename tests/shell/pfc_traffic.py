#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""UDP traffic with sequence numbers, for the pause tests.

  pfc_traffic.py send DST PORT DSCP RATE_MBIT SECONDS [SIZE]
      paced, blocking sends (a paused host blocks instead of dropping);
      prints {"sent": N, "mbit": achieved rate}
  pfc_traffic.py recv PORT[,PORT...] IDLE_SECONDS
      counts datagrams per port until IDLE_SECONDS without any;
      prints {"PORT": {"received": N, "max_seq": S, "mbit": R,
                       "max_gap_ms": longest silence between two datagrams}}
  pfc_traffic.py pause IFNAME PRIO EVERY_MS SECONDS
      a PFC storm: an 802.1Qbb PAUSE (65535 quanta) for PRIO out of IFNAME
      every EVERY_MS for SECONDS; prints {"frames": N, "last": the
      CLOCK_REALTIME of the last one}
"""
import json
import select
import socket
import struct
import sys
import time


def send(dst, port, dscp, mbit, seconds, size=1400):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, dscp << 2)
    payload = bytearray(size)
    gap = size * 8 / (mbit * 1e6)
    start = time.monotonic()
    end = start + seconds
    n = 0
    while True:
        now = time.monotonic()
        if now >= end:
            break
        due = start + n * gap
        if due > now:
            time.sleep(due - now)
        struct.pack_into("!Q", payload, 0, n)
        s.sendto(payload, (dst, port))
        n += 1
    el = time.monotonic() - start
    print(json.dumps({"sent": n, "mbit": round(n * size * 8 / el / 1e6, 2)}))


def recv(ports, idle):
    socks = {}
    for p in ports:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
        s.bind(("0.0.0.0", p))
        s.setblocking(False)
        socks[s] = p
    st = {p: {"received": 0, "max_seq": -1, "first": None, "last": None,
              "bytes": 0, "gap": 0.0} for p in ports}
    # Ready for traffic.
    print("ready", file=sys.stderr, flush=True)
    last = time.monotonic()
    started = False
    while True:
        r, _, _ = select.select(list(socks), [], [], 0.2)
        now = time.monotonic()
        if not r:
            if started and now - last > idle:
                break
            if not started and now - last > 120:
                break
            continue
        for s in r:
            while True:
                try:
                    d = s.recv(65536)
                except BlockingIOError:
                    break
                p = socks[s]
                e = st[p]
                e["received"] += 1
                e["bytes"] += len(d)
                if e["first"] is None:
                    e["first"] = now
                elif now - e["last"] > e["gap"]:
                    e["gap"] = now - e["last"]
                e["last"] = now
                seq = struct.unpack_from("!Q", d, 0)[0]
                e["max_seq"] = max(e["max_seq"], seq)
        last = now
        started = True
    out = {}
    for p, e in st.items():
        dur = (e["last"] - e["first"]) if e["first"] else 0
        out[str(p)] = {"received": e["received"], "max_seq": e["max_seq"],
                       "mbit": round(e["bytes"] * 8 / dur / 1e6, 2) if dur else 0,
                       "max_gap_ms": round(e["gap"] * 1000, 1)}
    print(json.dumps(out))


def pause(ifname, prio, every_ms, seconds):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((ifname, 0))
    src = open(f"/sys/class/net/{ifname}/address").read().strip()
    quanta = [0] * 8
    quanta[prio] = 65535
    frame = (bytes.fromhex("0180c2000001") + bytes.fromhex(src.replace(":", ""))
             + struct.pack("!HHH8H", 0x8808, 0x0101, 1 << prio, *quanta))
    frame += bytes(60 - len(frame))
    end = time.monotonic() + seconds
    n, last = 0, 0.0
    while time.monotonic() < end:
        s.send(frame)
        last = time.time()
        n += 1
        time.sleep(every_ms / 1000)
    print(json.dumps({"frames": n, "last": last}))


if __name__ == "__main__":
    a = sys.argv[1:]
    if a and a[0] == "send" and len(a) in (6, 7):
        send(a[1], int(a[2]), int(a[3]), float(a[4]), float(a[5]),
             int(a[6]) if len(a) == 7 else 1400)
    elif a and a[0] == "pause" and len(a) == 5:
        pause(a[1], int(a[2]), float(a[3]), float(a[4]))
    elif a and a[0] == "recv" and len(a) == 3:
        recv([int(p) for p in a[1].split(",")], float(a[2]))
    else:
        sys.exit(__doc__)
