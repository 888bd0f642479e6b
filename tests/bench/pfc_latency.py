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
lower case x, n, c, o: the agent woke up for that step (DONE_NS); W - 0
BEGAN ENDED: the agent polled instead of sleeping (--busy-poll); M - CPU
T T: it moved off CPU, which drains a paused buffer; P - SAME EVENT_NS
DONE_NS: an XON crossing at EVENT_NS, seen on the agent's own CPU (SAME
1) or another (0), read at DONE_NS. For every C on the upstream port whose latest
preceding crossing on the downstream port (same priority) is an X, the
latency is C.done - X.event: from the buffer crossing XOFF to the
upstream gate being closed. Likewise O after N: XON to flowing again.
Prints JSON: {"xoff": {...}, "xon": {...}, "xoff_send": crossing -> PAUSE
sent, "xoff_apply": PAUSE received -> gate closed, "xon_send": XON
crossing -> resume sent, "xon_apply": resume received -> gate open,
"xon_kick_returned": XON crossing -> the kick's send returned,
"xon_out": XON crossing -> the upstream's first packet out (S),
"reopen_out": the gate opened -> that first packet out, "xon_stages":
{step: ...} XON -> upstream sends again step by step (stages()),
"xon_cpu": {"moves", "own", "other"} where the XON crossings were seen
(placed()), "xon_flow":
XON crossing -> first packet back (R lines of the downstream trace)} with
n, median_us, p99_us, max_us; "wake": {kind: ...} how long the agents
took to wake up, per lower-case kind; "poll": {"ms": time spent polling,
summed over the traces, "caught": {kind: [handled while polling, all]},
"wake_polling"/"wake_asleep": {kind: ...} the wake-ups of those and of
the others, "xon_out_by": {"down polling, up asleep": ...} XON -> upstream
sends again by which agents were polling} for the steps n and o (polling: a span covered the event and
the step).
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


def polls(path):
    """The W spans of a trace, sorted."""
    out = []
    for line in open(path):
        f = line.split()
        if len(f) == 5 and f[0] == "W":
            out.append((int(f[3]), int(f[4])))
    return sorted(out)


def caught(trace, spans, kinds, out, woke):
    """How many steps of kinds the agent took while polling, of how many;
    woke[kind][polled]: their wake-ups, polling (True) or asleep."""
    began = [b for b, _ in spans]
    for evs in trace.values():
        for kind, ev, fin in evs:
            if kind not in kinds:
                continue
            c = out.setdefault(kind, [0, 0])
            i = bisect.bisect_right(began, fin) - 1
            polled = i >= 0 and spans[i][1] >= fin and spans[i][0] <= ev
            c[0] += polled
            c[1] += 1
            woke.setdefault(kind, {True: [], False: []})[polled].append(
                (fin - ev) / 1000.0)


def inside(spans, ev, fin):
    """Was the agent polling from ev to fin (one span covers both)?"""
    i = bisect.bisect_right([b for b, _ in spans], ev) - 1
    return i >= 0 and spans[i][1] >= fin


def by_polling(down, up, dspans, uspans, out):
    """XON -> upstream sends again, filed by which of the two agents were
    polling when their step came: out[(down polled, up polled)]."""
    for prio, ups in up.items():
        downs = sorted((d for d in down.get(prio, []) if d[0] in "XN"),
                       key=lambda d: d[1])
        done = [d[1] for d in downs]
        woke = {d[1]: d[2] for d in down.get(prio, []) if d[0] == "n"}
        sent = sorted((ev, fin) for k, ev, fin in ups if k == "S")
        starts = [ev for ev, _ in sent]
        for kind, ev, fin in ups:
            if kind != "o":
                continue
            i = bisect.bisect_right(done, ev) - 1
            if i < 0 or downs[i][0] != "N" or downs[i][1] not in woke:
                continue
            x = downs[i][1]
            j = bisect.bisect_left(starts, fin)
            if j >= len(sent) or sent[j][0] - fin > 1000000:
                continue  # no packet out of that opening
            key = ("down " + ("polling" if inside(dspans, x, woke[x]) else "asleep") +
                   ", up " + ("polling" if inside(uspans, ev, fin) else "asleep"))
            out.setdefault(key, []).append((sent[j][1] - x) / 1000.0)


def stages(down, up, out):
    """XON -> upstream sends again, step by step, for the resumes whose
    every step is traced: out[step] gets the step's time (us). detect: the
    crossing -> the downstream agent acts (n); send: it began the send ->
    the frame at the upstream's ingress (o's EVENT); wake: -> the upstream
    agent acts (o); gate: -> the netlink change returned (O); first: -> the
    reopened queue's first packet left (S); send_call: the downstream's
    whole send (n -> N)."""
    for prio, ups in up.items():
        downs = sorted((d for d in down.get(prio, []) if d[0] in "XN"),
                       key=lambda d: d[1])
        done = [d[1] for d in downs]
        acted = {d[1]: d[2] for d in down.get(prio, []) if d[0] == "n"}
        opened = {ev: fin for k, ev, fin in ups if k == "O"}
        sent = sorted((ev, fin) for k, ev, fin in ups if k == "S")
        starts = [ev for ev, _ in sent]
        for kind, ev, fin in ups:
            if kind != "o" or ev not in opened:
                continue
            i = bisect.bisect_right(done, ev) - 1
            if i < 0 or downs[i][0] != "N" or downs[i][1] not in acted:
                continue
            x, n_at, o_at = downs[i][1], acted[downs[i][1]], opened[ev]
            j = bisect.bisect_left(starts, o_at)
            if j >= len(sent) or sent[j][0] != o_at or sent[j][1] - x > 1e6:
                continue
            for k, v in (("detect", n_at - x), ("send", ev - n_at),
                         ("wake", fin - ev), ("gate", o_at - fin),
                         ("first", sent[j][1] - o_at),
                         ("send_call", downs[i][2] - n_at)):
                out.setdefault(k, []).append(v / 1000.0)


def placed(path, out):
    """P lines: XON crossings seen on the agent's own CPU or another, and
    how long the agent took to read them; M lines: its moves."""
    for line in open(path):
        f = line.split()
        if len(f) == 5 and f[0] == "P":
            out.setdefault("own" if f[2] == "1" else "other", []).append(
                (int(f[4]) - int(f[3])) / 1000.0)
        elif len(f) == 5 and f[0] == "M":
            out["moves"] = out.get("moves", 0) + 1


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
    polled, seen = {}, set()
    for path in a[0::2]:
        if path not in seen:
            seen.add(path)
            polled[path] = polls(path)
    poll = {"ms": round(sum(e - b for v in polled.values() for b, e in v)
                        / 1e6, 1), "caught": {}}
    woke, split, steps, cpu = {}, {}, {}, {}
    for path in seen:
        placed(path, cpu)
    for i in range(0, len(a), 4):
        down, up = load(a[i], a[i + 1]), load(a[i + 2], a[i + 3])
        caught(down, polled[a[i]], "n", poll["caught"], woke)
        caught(up, polled[a[i + 2]], "o", poll["caught"], woke)
        by_polling(down, up, polled[a[i]], polled[a[i + 2]], split)
        stages(down, up, steps)
        pair(down, up, "X", "C", xoff, parts)
        pair(down, up, "N", "O", xon, xparts)
        pair(down, up, "N", "K", kicked)
        pair(down, up, "N", "S", out)
        spans(down, "R", flow)
        spans(down, "xn", wake)
        spans(up, "co", wake)
        spans(up, "S", flow)
    poll["wake_polling"] = {k: stats(v[True]) for k, v in woke.items()}
    poll["wake_asleep"] = {k: stats(v[False]) for k, v in woke.items()}
    poll["xon_out_by"] = {k: stats(v) for k, v in sorted(split.items())}
    print(json.dumps({"xoff": stats(xoff), "xon": stats(xon),
                      "xon_out": stats(out),
                      "xon_flow": stats(flow.get("R", [])),
                      "wake": {k: stats(v) for k, v in sorted(wake.items())},
                      "xon_kick_returned": stats(kicked),
                      "poll": poll,
                      "reopen_out": stats(flow.get("S", [])),
                      "xoff_send": stats(parts[0]),
                      "xoff_apply": stats(parts[1]),
                      "xon_stages": {k: stats(v) for k, v in steps.items()},
                      "xon_cpu": {"moves": cpu.get("moves", 0),
                                  "own": stats(cpu.get("own", [])),
                                  "other": stats(cpu.get("other", []))},
                      "xon_send": stats(xparts[0]),
                      "xon_apply": stats(xparts[1])}))


main(sys.argv[1:])
