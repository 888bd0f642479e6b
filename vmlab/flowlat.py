#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""flowlat.py: one-way latency and message completion times of test flows.

flowlat.py recv [--port N] [--seconds S] [--msg N] [-o FILE]
flowlat.py send DST [--port N] [--id N] [--msg-bytes B] [--size B]
                [--interval MS] [--dscp D] [--seconds S]

recv receives the datagrams of `tagger flow send` (UDP, port 4791 by default)
for --seconds, or until SIGTERM/SIGINT, and prints one JSON line per flow
id: packets, bytes, goodput, lost (sequence gaps never filled), and the
one-way latency percentiles in microseconds. The latency is the kernel's
receive time stamp (SO_TIMESTAMPNS, taken when the datagram reaches the
socket, so this program's own scheduling delay on a busy machine is not
in it) minus the send time the sender wrote into the datagram
(CLOCK_MONOTONIC, struct flow_hdr: magic, flow, seq, send_ns, big
endian). Sender and receiver are namespaces of one machine, so they share
the clock; the receive stamp is CLOCK_REALTIME and is moved onto the
monotonic clock by their offset, read at the start.

With --msg N every N consecutive sequence numbers of a flow are one
message (sequence k*N .. k*N+N-1); a message completes when all of its
datagrams arrived, and its completion time is the arrival of its last
datagram minus the send time of its first. The flow's line then gives
the completion-time percentiles and how many messages never completed.

send is the latency-sensitive application: every --interval ms one
message of --msg-bytes, as datagrams of --size payload bytes sent back to
back (sequence numbers go on across messages, so recv --msg N with N =
the datagrams per message finds them), with the struct flow_hdr of
`tagger flow send`. On a paused host it blocks like any sender; a message
that is late starts at once after the previous one. It ends after
--seconds or on SIGTERM with one JSON summary line.

The vmlab experiments (scenarios hops and hierarchy) run it in a lab
host's namespace, beside `tagger flow recv` on another port or instead
of it.
"""
import argparse
import json
import signal
import socket
import struct
import sys
import time

HDR = struct.Struct("!IIQQ")
MAGIC = 0x54474657
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)


def percentiles(values, ps):
    if not values:
        return {f"p{p}": None for p in ps}
    values.sort()
    out = {}
    for p in ps:
        i = min(len(values) - 1, max(0, int(round(p / 100.0 * len(values) + 0.5)) - 1))
        out[f"p{p}".replace(".", "_")] = round(values[i], 1)
    return out


class Flow:
    def __init__(self, msg):
        self.msg = msg
        self.pkts = self.bytes = 0
        self.first = self.last = None
        self.next_seq = 0
        self.holes = set()
        self.lat = []
        self.msgs = {}  # k -> [first_send_ns, arrived, last_arrival_ns]
        self.fct = []
        self.done = []  # (first send, realtime s; fct us) per message

    def add(self, seq, send_ns, arrival_ns, size):
        self.pkts += 1
        self.bytes += size
        self.first = arrival_ns if self.first is None else self.first
        self.last = arrival_ns
        self.lat.append((arrival_ns - send_ns) / 1e3)
        if seq >= self.next_seq:
            self.holes.update(range(self.next_seq, seq))
            self.next_seq = seq + 1
        else:
            self.holes.discard(seq)
        if self.msg:
            k, i = divmod(seq, self.msg)
            m = self.msgs.setdefault(k, [None, 0, 0])
            if i == 0:
                m[0] = send_ns
            m[1] += 1
            m[2] = max(m[2], arrival_ns)
            if m[1] == self.msg and m[0] is not None:
                self.fct.append((m[2] - m[0]) / 1e3)
                self.done.append((round((m[0] + OFFSET[0]) / 1e9, 4), round((m[2] - m[0]) / 1e3, 1)))
                del self.msgs[k]

    def report(self, fid):
        secs = (self.last - self.first) / 1e9 if self.pkts > 1 else 0
        r = {"flow": fid, "pkts": self.pkts, "bytes": self.bytes,
             "mbps": round(self.bytes * 8 / secs / 1e6, 3) if secs > 0 else None,
             "lost": len(self.holes), "latency_us": percentiles(self.lat, (50, 90, 99, 99.9))}
        r["latency_us"]["max"] = round(max(self.lat), 1) if self.lat else None
        if self.msg:
            # Messages begun but not complete at the end: lost datagrams
            # (the last message may still be in flight: not counted).
            started = [k for k in self.msgs if k < (self.next_seq - 1) // self.msg]
            r["messages"] = {"size_pkts": self.msg, "completed": len(self.fct),
                             "incomplete": len(started),
                             "incomplete_at": sorted(round((self.msgs[k][0] + OFFSET[0]) / 1e9, 4)
                                                     for k in started if self.msgs[k][0]),
                             "fct_us": percentiles(self.fct, (50, 90, 99)),
                             "each": self.done}
        return r


OFFSET = [0]  # CLOCK_REALTIME - CLOCK_MONOTONIC, ns


def send(a, stop):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, a.dscp << 2)
    s.connect((a.dst, a.port))
    n = max(1, -(-a.msg_bytes // a.size))
    pad = bytes(max(0, a.size - HDR.size))
    seq = sent = errors = 0
    t0 = nxt = time.monotonic()
    while not stop and (a.seconds <= 0 or time.monotonic() - t0 < a.seconds):
        for _ in range(n):
            try:
                s.send(HDR.pack(MAGIC, a.id, seq, time.monotonic_ns()) + pad)
            except OSError:
                errors += 1
            seq += 1
        sent += 1
        nxt = max(nxt + a.interval / 1e3, time.monotonic())
        time.sleep(max(0, nxt - time.monotonic()))
    print(json.dumps({"flow": a.id, "messages": sent, "pkts_per_message": n,
                      "send_errors": errors, "seconds": round(time.monotonic() - t0, 3)}), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("recv")
    r.add_argument("--port", type=int, default=4791)
    r.add_argument("--seconds", type=float, default=0)
    r.add_argument("--msg", type=int, default=0)
    r.add_argument("-o", dest="out", default="-")
    w = sub.add_parser("send")
    w.add_argument("dst")
    w.add_argument("--port", type=int, default=4791)
    w.add_argument("--id", type=int, default=1)
    w.add_argument("--msg-bytes", type=int, default=16000)
    w.add_argument("--size", type=int, default=1000)
    w.add_argument("--interval", type=float, default=20)
    w.add_argument("--dscp", type=int, default=0)
    w.add_argument("--seconds", type=float, default=0)
    a = ap.parse_args()
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    if a.cmd == "send":
        send(a, stop)
        return
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    try:
        s.setsockopt(socket.SOL_SOCKET, 33, 8 << 20)  # SO_RCVBUFFORCE
    except OSError:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    s.bind(("0.0.0.0", a.port))
    s.settimeout(0.2)
    OFFSET[0] = offset = time.clock_gettime_ns(time.CLOCK_REALTIME) - time.monotonic_ns()
    flows = {}
    end = time.monotonic() + a.seconds if a.seconds > 0 else None
    while not stop and (end is None or time.monotonic() < end):
        try:
            data, anc, _, _ = s.recvmsg(65536, 64)
        except socket.timeout:
            continue
        except InterruptedError:
            continue
        if len(data) < HDR.size:
            continue
        magic, fid, seq, send_ns = HDR.unpack_from(data)
        if magic != MAGIC:
            continue
        arrival = None
        for level, kind, val in anc:
            if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
                sec, nsec = struct.unpack("qq", val[:16])
                arrival = sec * 1000000000 + nsec - offset
        if arrival is None:
            arrival = time.monotonic_ns()
        flows.setdefault(fid, Flow(a.msg)).add(seq, send_ns, arrival, len(data))
    out = sys.stdout if a.out == "-" else open(a.out, "w")
    for fid in sorted(flows):
        out.write(json.dumps(flows[fid].report(fid)) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
