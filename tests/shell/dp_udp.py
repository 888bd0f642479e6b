#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""UDP with a given DSCP, and a packet-socket sniffer that reports the
traffic class of every UDP packet it sees arrive (tests/shell/test_dataplane_*).

  dp_udp.py send DST PORT TOS COUNT [RATE_PPS [SENTFILE]]   (IPv4 or IPv6
        by DST); on SIGTERM it stops and SENTFILE gets the number sent;
        with DP_UDP_BTH=OP in the environment the payload's first byte (a
        RoCEv2 BTH's opcode: 0x81 is a CNP) is OP, the sequence number
        its other three
  dp_udp.py sniff IFNAME PORT READYFILE OUTFILE  until SIGTERM/SIGINT; OUTFILE
        gets one line per packet: "<seq> <tos>" (seq from the payload)
  dp_udp.py predict RULES TAG SW:IN:OUT ...  the tag on the wire after each
        hop, by the meaning of the rules (Documentation/tagger-formats.7.rst), written
        independently of the C code: most specific rule wins, a miss is lossy
"""
import os
import signal
import socket
import struct
import sys
import time


def send(dst, port, tos, count, rate=0, sentfile=None):
    stop = []
    signal.signal(signal.SIGTERM, lambda *a: stop.append(1))
    fam = socket.AF_INET6 if ":" in dst else socket.AF_INET
    s = socket.socket(fam, socket.SOCK_DGRAM)
    if fam == socket.AF_INET:
        s.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, tos)
    else:
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_TCLASS, tos)
    gap = 1.0 / rate if rate else 0
    op = int(os.environ.get("DP_UDP_BTH", "0"), 0) << 24
    t0 = time.monotonic()
    seq = 0
    while seq < count and not stop:
        s.sendto(struct.pack("!I", op | seq) + b"x" * 60, (dst, port))
        seq += 1
        if gap:
            delay = t0 + seq * gap - time.monotonic()
            if delay > 0:
                time.sleep(delay)
    if sentfile:
        with open(sentfile + ".tmp", "w") as f:
            f.write("%d\n" % seq)
        os.rename(sentfile + ".tmp", sentfile)


def parse(data):
    """(seq, tos) of a UDP packet to any port, with its port, or None."""
    off, et = 14, struct.unpack("!H", data[12:14])[0]
    if et == 0x8100:
        off, et = 18, struct.unpack("!H", data[16:18])[0]
    if et == 0x0800:
        ihl = (data[off] & 15) * 4
        tos, proto, l4 = data[off + 1], data[off + 9], off + ihl
    elif et == 0x86DD:
        tos = ((data[off] & 15) << 4) | (data[off + 1] >> 4)
        proto, l4 = data[off + 6], off + 40
    else:
        return None
    if proto != 17 or len(data) < l4 + 12:
        return None
    port = struct.unpack("!H", data[l4 + 2:l4 + 4])[0]
    seq = struct.unpack("!I", data[l4 + 8:l4 + 12])[0] & 0xFFFFFF
    return port, seq, tos


def sniff(ifname, port, ready, out):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
    s.bind((ifname, 0))
    s.settimeout(0.2)
    stop = []
    signal.signal(signal.SIGTERM, lambda *a: stop.append(1))
    signal.signal(signal.SIGINT, lambda *a: stop.append(1))
    with open(ready, "w") as f:
        f.write("ready\n")
    lines = []
    # After the signal, drain what the socket still holds, then stop.
    while True:
        if stop:
            s.setblocking(False)
        try:
            data, addr = s.recvfrom(65535)
        except (socket.timeout, InterruptedError):
            continue
        except BlockingIOError:
            break
        if addr[2] == socket.PACKET_OUTGOING:
            continue
        p = parse(data)
        if p and p[0] == port:
            lines.append("%d %d\n" % (p[1], p[2]))
    with open(out + ".tmp", "w") as f:
        f.writelines(lines)
    os.rename(out + ".tmp", out)


def predict(rules_file, tag, hops):
    import json
    with open(rules_file) as f:
        r = json.load(f)
    lossy = r["lossy"]["tag"]
    out = []
    for hop in hops:
        sw, pin, pout = hop.split(":")
        s = r["switches"][sw]
        cls = {(c["in"], c["tag"]): c["priority"] for c in s.get("classify", [])}
        prio = cls.get((pin, tag), cls.get(("*", tag)))
        if prio is None or prio == r["lossy"]["priority"]:
            tag = lossy
        else:
            rw = {(w["tag"], w["in"], w["out"]): w["new_tag"] for w in s.get("rewrite", [])}
            for key in ((tag, pin, pout), (tag, pin, "*"), (tag, "*", pout), (tag, "*", "*")):
                if key in rw:
                    tag = rw[key]
                    break
            else:
                tag = lossy
        out.append(str(tag))
    print(" ".join(out))


if __name__ == "__main__":
    a = sys.argv
    if len(a) >= 6 and a[1] == "send":
        send(a[2], int(a[3]), int(a[4], 0), int(a[5]), float(a[6]) if len(a) > 6 else 0,
             a[7] if len(a) > 7 else None)
    elif len(a) == 6 and a[1] == "sniff":
        sniff(a[2], int(a[3]), a[4], a[5])
    elif len(a) >= 5 and a[1] == "predict":
        predict(a[2], int(a[3]), a[4:])
    else:
        sys.exit(__doc__)
