#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Pair the agents' traces into pause latencies.

  pfc_latency.py DOWN_TRACE DOWN_PORT UP_TRACE UP_PORT [...]  (groups of 4)

A trace line is "KIND PORT PRIO EVENT_NS DONE_NS" (tagger pfc agent
--trace): X = XOFF crossing -> PAUSE sent, N = XON crossing -> resume
sent, C = PAUSE received -> gate closed, O = resume received -> gate open
(the gate's change took effect; the kick restarting the queue follows at
once), K = the kick's send returned (it runs the qdisc first, sending
queued packets), S = the gate opened -> the first packet left that
queue, R = XON crossing -> the first packet from the upstream
arrived (the resumed flow, seen by the switch that sent the resume);
lower case x, n, c, o: the agent woke up for that step (DONE_NS). For every C on the upstream port whose latest
preceding crossing on the downstream port (same priority) is an X, the
latency is C.done - X.event: from the buffer crossing XOFF to the
upstream gate being closed. Likewise O after N: XON to flowing again.
Prints JSON: {"xoff": {...}, "xon": {...}, "xoff_send": crossing -> PAUSE
sent, "xoff_apply": PAUSE received -> gate closed, "xon_send": XON
crossing -> resume sent, "xon_apply": resume received -> gate open,
"xon_kick_returned": XON crossing -> the kick's send returned,
"xon_out": XON crossing -> the upstream's first packet out (S), "xon_flow":
XON crossing -> first packet back (R lines of the downstream trace)} with
n, median_us, p99_us, max_us; "wake": {kind: ...} how long the agents
took to wake up, per lower-case kind.
"""
import bisect
import json
import sys


def load(path, port):
    ev = {}
    for line in open(path):
        f = line.split()
        if len(f) != 5 or f[1] != port:
            continue
        ev.setdefault(int(f[2]), []).append((f[0], int(f[3]), int(f[4])))
    return ev


def pair(down, up, want_down, want_up, out, parts=None):
    for prio, ups in up.items():
        # Ordered by the crossing time: the frame it sent can arrive
        # before the sender's sendto() returns.
        downs = sorted((d for d in down.get(prio, []) if d[0] in "XN"),
                       key=lambda d: d[1])
        done = [d[1] for d in downs]
        for kind, ev, fin in ups:
            if kind != want_up:
                continue
            i = bisect.bisect_right(done, ev) - 1
            if i >= 0 and downs[i][0] == want_down:
                out.append((fin - downs[i][1]) / 1000.0)
                if parts is not None:
                    parts[0].append((downs[i][2] - downs[i][1]) / 1000.0)
                    parts[1].append((fin - ev) / 1000.0)


def stats(v):
    if not v:
        return {"n": 0}
    v = sorted(v)
    q = lambda p: v[min(len(v) - 1, int(p * len(v)))]
    return {"n": len(v), "median_us": round(q(0.5), 1),
            "p99_us": round(q(0.99), 1), "max_us": round(v[-1], 1)}


def spans(trace, kinds, out):
    """DONE - EVENT of the lines of trace whose kind is in kinds."""
    for evs in trace.values():
        for kind, ev, fin in evs:
            if kind in kinds:
                out.setdefault(kind, []).append((fin - ev) / 1000.0)


def main(a):
    if not a or len(a) % 4:
        sys.exit(__doc__)
    xoff, xon, kicked, out, flow, wake = [], [], [], [], {}, {}
    parts, xparts = ([], []), ([], [])
    for i in range(0, len(a), 4):
        down, up = load(a[i], a[i + 1]), load(a[i + 2], a[i + 3])
        pair(down, up, "X", "C", xoff, parts)
        pair(down, up, "N", "O", xon, xparts)
        pair(down, up, "N", "K", kicked)
        pair(down, up, "N", "S", out)
        spans(down, "R", flow)
        spans(down, "xn", wake)
        spans(up, "co", wake)
    print(json.dumps({"xoff": stats(xoff), "xon": stats(xon),
                      "xon_out": stats(out),
                      "xon_flow": stats(flow.get("R", [])),
                      "wake": {k: stats(v) for k, v in sorted(wake.items())},
                      "xon_kick_returned": stats(kicked),
                      "xoff_send": stats(parts[0]),
                      "xoff_apply": stats(parts[1]),
                      "xon_send": stats(xparts[0]),
                      "xon_apply": stats(xparts[1])}))


main(sys.argv[1:])
