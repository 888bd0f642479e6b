#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Packets through a switch under test, one case at a time, for the data
path differential of tests/shell/flower_vm_guest.sh.

  flower_pkts.py run CASES.json OUT.json [--no-qinq]
                                           send every case (but those
                                           behind QinQ), record what left
  flower_pkts.py flow CASES.json IN OUT TAG SECONDS
                                           a steady flow of one case at
                                           1,000 packets/s; prints how many
                                           left with each TOS (JSON)
  flower_pkts.py counters A.show.json B.show.json
                                           compare two `switch show -j`
                                           documents' counters: lossless
                                           in and out per port and tag,
                                           lossy reasons per port; exit 1
                                           if any differs
  flower_pkts.py counters-switch A.show.json B.show.json
                                           the same summed over the switch,
                                           shared tc blocks' counters too
  flower_pkts.py diff CASES.json A.json B.json
                                           compare two runs; exit 1 if any
                                           case differs (behind QinQ: B
                                           must leave the packet lossy with
                                           its DSCP)

CASES.json: {"ports": {PORT: [host_ifname, host_mac, sw_netns, sw_ifname]},
"tags": [...], "lossy_tag": N, "lossy_prio": P}. Every case is sent from the host interface
of its in-port with ECN 01; each out-port's host interface records the
frames that arrive (their DSCP, ECN and IPv4 header checksum), and each
switch port's prio qdisc (8 bands, band = skb priority + 1) tells the
queue the switch put it in. The switch forwards as a plain bridge.
"""
import ctypes
import json
import os
import select
import socket
import struct
import sys
import time

MAGIC = b"TGRF"
ETH_P_ALL = 3
PACKET_OUTGOING = 4
KINDS = ("v4", "v6", "vlan_v4", "vlan_v6", "frag_v4", "qinq_v4")
GROUPS = ("bcast", "ip_mcast")


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def mac(s):
    return bytes(int(x, 16) for x in s.split(":"))


def ip4(tos, dst, payload, frag=False):
    flags = 0x2000 if frag else 0  # MF, offset 0: a first fragment
    h = struct.pack("!BBHHHBBH4s4s", 0x45, tos, 20 + len(payload), 1, flags,
                    64, 17, 0, bytes([10, 0, 0, 1]), dst)
    h = h[:10] + struct.pack("!H", csum(h)) + h[12:]
    return h + payload


def ip6(tos, dst, payload):
    first = (6 << 28) | (tos << 20) | 0xABCDE
    src = bytes([0xFD] + [0] * 14 + [1])
    return struct.pack("!IHBB16s16s", first, len(payload), 17, 64, src,
                       dst) + payload


def frame(case, ports):
    """The Ethernet frame of one case."""
    src = mac(ports[case["in"]][1])
    tos = case["tag"] << 2 | 1
    payload = struct.pack("!HH", 4791, 4791) + b"\0\0\0\0" + MAGIC + \
        struct.pack("!I", case["id"])
    kind, group = case["kind"], case.get("group")
    v6 = kind.endswith("v6")
    if group == "bcast":
        dst = b"\xff" * 6
    elif group == "ip_mcast":
        # the IP destination is a group; the MAC is the out-host's, so only
        # an IP-level check can tell
        dst = mac(ports[case["out"]][1])
    else:
        dst = mac(ports[case["out"]][1])
    if v6:
        ipdst = bytes([0xFF, 2] + [0] * 13 + [1]) if group == "ip_mcast" \
            else bytes([0xFD] + [0] * 14 + [2])
        l3 = ip6(tos, ipdst, payload)
        etype = 0x86DD
    else:
        ipdst = bytes([239, 1, 1, 1]) if group == "ip_mcast" \
            else bytes([10, 0, 0, 2])
        l3 = ip4(tos, ipdst, payload, frag=kind == "frag_v4")
        etype = 0x0800
    tags = b""
    if kind.startswith("vlan"):
        tags = struct.pack("!HH", 0x8100, 5)
    elif kind.startswith("qinq"):
        tags = struct.pack("!HHHH", 0x88A8, 7, 0x8100, 5)
    return dst + src + tags + struct.pack("!H", etype) + l3


def parse(buf):
    """(case id, tos, csum ok) of one of our frames, or None."""
    off = 12
    etype = struct.unpack("!H", buf[off:off + 2])[0]
    while etype in (0x8100, 0x88A8):
        off += 4
        etype = struct.unpack("!H", buf[off:off + 2])[0]
    l3 = off + 2
    i = buf.find(MAGIC, l3)
    if i < 0:
        return None
    cid = struct.unpack("!I", buf[i + 4:i + 8])[0]
    if etype == 0x0800:
        tos = buf[l3 + 1]
        ok = csum(bytes(buf[l3:l3 + 20])) == 0
    elif etype == 0x86DD:
        tos = (struct.unpack("!I", buf[l3:l3 + 4])[0] >> 20) & 0xFF
        ok = True
    else:
        return None
    return cid, tos, ok


RTM_NEWTCLASS, RTM_GETTCLASS = 40, 42
NLM_F_REQUEST, NLM_F_DUMP, NLMSG_DONE, NLMSG_ERROR = 1, 0x300, 3, 2
TCA_STATS = 3
CLONE_NEWNET = 0x40000000


def netlink_in(ns, dev):
    """A NETLINK_ROUTE socket of network namespace ns, and dev's ifindex
    there (sysfs shows the VM's own namespace, so ask a socket)."""
    libc = ctypes.CDLL(None, use_errno=True)
    here = os.open("/proc/self/ns/net", os.O_RDONLY)
    there = os.open("/run/netns/" + ns, os.O_RDONLY)
    if libc.setns(there, CLONE_NEWNET):
        raise OSError(ctypes.get_errno(), "setns " + ns)
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)
    ifindex = socket.if_nametoindex(dev)
    libc.setns(here, CLONE_NEWNET)
    os.close(here)
    os.close(there)
    return s, ifindex


def class_packets(nl, ifindex):
    """Packets sent per class minor of one device: {minor: packets}."""
    tcm = struct.pack("=BxxxiIII", socket.AF_UNSPEC, ifindex, 0, 0, 0)
    nl.send(struct.pack("=IHHII", 16 + len(tcm), RTM_GETTCLASS,
                        NLM_F_REQUEST | NLM_F_DUMP, 1, 0) + tcm)
    out = {}
    while True:
        buf = nl.recv(65536)
        off = 0
        while off < len(buf):
            ln, typ = struct.unpack_from("=IH", buf, off)
            if typ == NLMSG_DONE:
                return out
            if typ == NLMSG_ERROR:
                raise OSError("class dump refused")
            if typ == RTM_NEWTCLASS:
                handle = struct.unpack_from("=I", buf, off + 24)[0]
                a = off + 16 + 20
                while a < off + ln:
                    alen, atype = struct.unpack_from("=HH", buf, a)
                    if atype == TCA_STATS:
                        out[handle & 0xFFFF] = struct.unpack_from(
                            "=I", buf, a + 4 + 8)[0]
                    a += (alen + 3) & ~3
            off += (ln + 3) & ~3


def bands(sw, which):
    """Packets per prio band of switch ports which: {port: [n0..n7]}."""
    out = {}
    for port in which:
        nl, ifindex = sw[port]
        c = class_packets(nl, ifindex)
        out[port] = [c.get(minor, 0) for minor in range(1, 9)]
    return out


def cases_of(spec, kinds=KINDS):
    ports = sorted(spec["ports"])
    tags = sorted(set(spec["tags"]) | {spec["lossy_tag"], 62})
    cid = 0
    for a in ports:
        for t in tags:
            for b in ports:
                if a == b:
                    continue
                for k in KINDS:
                    cid += 1
                    if k in kinds:
                        yield {"id": cid, "in": a, "out": b, "tag": t,
                               "kind": k}
            for g in GROUPS:
                for k in ("v4", "v6"):
                    cid += 1
                    b = next(p for p in ports if p != a)
                    yield {"id": cid, "in": a, "out": b, "tag": t, "kind": k,
                           "group": g}


def run(spec_file, out_file, kinds=KINDS):
    spec = json.load(open(spec_file))
    ports = spec["ports"]
    socks = {}
    for p, (ifname, _, _, _) in ports.items():
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                          socket.htons(ETH_P_ALL))
        s.bind((ifname, 0))
        s.setblocking(False)
        socks[p] = s
    sw = {}
    for p, v in ports.items():
        sw[p] = netlink_in(v[2], v[3])
    results = []
    for case in cases_of(spec, kinds):
        which = [p for p in ports if p != case["in"]] \
            if case.get("group") == "bcast" else [case["out"]]
        before = bands(sw, which)
        socks[case["in"]].send(frame(case, ports))
        got = {}
        deadline = time.time() + 1.0
        want = len(ports) - 1 if case.get("group") == "bcast" else 1
        while time.time() < deadline and len(got) < want:
            r, _, _ = select.select(list(socks.values()), [], [], 0.05)
            for s in r:
                data, addr = s.recvfrom(4096)
                if addr[2] == PACKET_OUTGOING:
                    continue
                m = parse(data)
                if m and m[0] == case["id"]:
                    port = next(p for p, x in socks.items() if x is s)
                    got[port] = {"tos": m[1], "csum_ok": m[2]}
        time.sleep(0.005)
        after = bands(sw, which)
        queue = {}
        for p in which:
            d = [x - y for x, y in zip(after[p], before[p])]
            if any(d):
                queue[p] = [i for i, x in enumerate(d) for _ in range(x)]
        results.append(dict(case, rx=got, prio=queue))
    json.dump(results, open(out_file, "w"), indent=0)
    lost = sum(1 for r in results if not r["rx"])
    print("sent %d cases, %d arrived nowhere" % (len(results), lost))


def qinq_kept(spec, r):
    """The flower path's promise behind two VLAN tags: lossy, DSCP kept."""
    want = {"tos": r["tag"] << 2 | 1, "csum_ok": True}
    return r["rx"] == {r["out"]: want} and \
        r["prio"] == {r["out"]: [spec["lossy_prio"]]}


def diff(spec_file, a_file, b_file):
    spec = json.load(open(spec_file))
    a = json.load(open(a_file))
    b = {r["id"]: r for r in json.load(open(b_file))}
    bad = qinq = 0
    for r in a:
        o = b.get(r["id"])
        if r["kind"].startswith("qinq"):
            qinq += 1
            same = o is not None and qinq_kept(spec, o)
        else:
            same = o is not None and o["rx"] == r["rx"] and \
                o["prio"] == r["prio"]
        if not same:
            bad += 1
            if bad <= 20:
                print("DIFF %s\n  A rx %s prio %s\n  B rx %s prio %s" % (
                    {k: r[k] for k in ("in", "out", "tag", "kind", "group")
                     if k in r}, r["rx"], r["prio"],
                    o and o["rx"], o and o["prio"]))
    print("%d cases, %d differ (%d behind QinQ, checked lossy with their "
          "DSCP on B)" % (len(a), bad, qinq))
    return 1 if bad else 0


def flow(spec_file, a, b, tag, seconds):
    spec = json.load(open(spec_file))
    ports = spec["ports"]
    tx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    tx.bind((ports[a][0], 0))
    rx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                       socket.htons(ETH_P_ALL))
    rx.bind((ports[b][0], 0))
    rx.setblocking(False)
    case = {"id": 1, "in": a, "out": b, "tag": tag, "kind": "v4"}
    pkt = frame(case, ports)
    seen, sent = {}, 0
    start = time.time()
    end = start + seconds
    while True:
        now = time.time()
        if now < end and sent < (now - start) * 1000:
            tx.send(pkt)
            sent += 1
        if now > end + 0.5:
            break
        r, _, _ = select.select([rx], [], [], 0.0005)
        while r:
            try:
                data, addr = rx.recvfrom(4096)
            except BlockingIOError:
                break
            m = parse(data) if addr[2] != PACKET_OUTGOING else None
            if m and m[0] == 1:
                seen[m[1]] = seen.get(m[1], 0) + 1
    print(json.dumps({"sent": sent, "tos": {str(k): v for k, v in
                                             sorted(seen.items())}}))


def counted(show):
    """What both data paths count alike (dp_flower_show.c says why the
    lossy packets' per-tag counts are not among them), after a run
    without QinQ (flower leaves those lossy as bad headers, BPF reads
    through both tags)."""
    out = {}
    for p in show["ports"]:
        for d in ("in", "out"):
            for c in p[d]:
                if c["lossless"]:
                    out["%s %s tag %d" % (p["port"], d, c["tag"])] = \
                        c["packets"]
        for reason, n in p["lossy"].items():
            if n:
                out["%s lossy %s" % (p["port"], reason)] = n
    return out


def counted_switch(show):
    """counted()'s counters summed over the switch: its ports and its
    shared tc blocks (whose counters are their ports' together)."""
    out = {}
    for p in show["ports"] + show.get("blocks", []):
        p = dict(p, port="switch")
        for k, n in counted({"ports": [p]}).items():
            out[k] = out.get(k, 0) + n
    return out


def counters(a_file, b_file, count=counted):
    a = count(json.load(open(a_file)))
    b = count(json.load(open(b_file)))
    bad = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
    for k in bad[:20]:
        print("COUNTER %s: A %s B %s" % (k, a.get(k), b.get(k)))
    print("%d counters, %d differ, %d packets counted" % (
        len(set(a) | set(b)), len(bad), sum(a.values())))
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "run":
        run(sys.argv[2], sys.argv[3])
    elif sys.argv[1:2] == ["run"] and sys.argv[4:] == ["--no-qinq"]:
        run(sys.argv[2], sys.argv[3], [k for k in KINDS if "qinq" not in k])
    elif len(sys.argv) == 7 and sys.argv[1] == "flow":
        flow(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]),
             float(sys.argv[6]))
    elif len(sys.argv) == 4 and sys.argv[1] == "counters":
        sys.exit(counters(sys.argv[2], sys.argv[3]))
    elif len(sys.argv) == 4 and sys.argv[1] == "counters-switch":
        sys.exit(counters(sys.argv[2], sys.argv[3], counted_switch))
    elif len(sys.argv) == 5 and sys.argv[1] == "diff":
        sys.exit(diff(sys.argv[2], sys.argv[3], sys.argv[4]))
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
