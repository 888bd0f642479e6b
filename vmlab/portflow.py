#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""portflow.py: a flow's receive samples from a switch port's counters.

portflow.py PORT ID [--interval MS] [--min-bytes B]

Where the receiver of a flow is a VM (RDMA over soft RoCE, whose packets
no `tagger flow recv` sees), the flow is what the switch port toward that
receiver transmits: this program reads PORT's tx counters in
/proc/net/dev (the network namespace it runs in) every --interval
milliseconds (default 100) until SIGTERM/SIGINT and prints one JSON line
per sample as `tagger flow recv --interval` does: t (epoch seconds),
flow, pkts, bytes, mbps, rx (packets so far), lost (always 0: a port
cannot tell). An interval with fewer than --min-bytes bytes (default
200) counts as empty: the port's own frames (a PAUSE the agent sends is
64 bytes) are no flow. The last line has "final": true.
"""
import json
import signal
import sys
import time


def counters(port):
    with open("/proc/net/dev") as f:
        for line in f:
            name, sep, rest = line.partition(":")
            if sep and name.strip() == port:
                v = rest.split()
                return int(v[8]), int(v[9])  # tx bytes, tx packets
    return None


def main(argv):
    if len(argv) < 2:
        print("usage: portflow.py PORT ID [--interval MS] [--min-bytes B]",
              file=sys.stderr)
        return 2
    port, fid = argv[0], argv[1]
    opts = dict(zip(argv[2::2], argv[3::2]))
    try:
        fid = int(fid)
        interval = int(opts.pop("--interval", "100")) / 1000
        min_bytes = int(opts.pop("--min-bytes", "200"))
    except ValueError as e:
        print(f"portflow.py: {e}", file=sys.stderr)
        return 2
    if opts or interval <= 0:
        print(f"portflow.py: what is {' '.join(opts) or 'the interval'}?",
              file=sys.stderr)
        return 2
    if counters(port) is None:
        print(f"portflow.py: no port {port} here", file=sys.stderr)
        return 2
    stop = []
    for s in (signal.SIGTERM, signal.SIGINT):
        signal.signal(s, lambda *_: stop.append(1))
    b0, p0 = counters(port)
    rx = 0
    last = time.time()
    nxt = last + interval
    while True:
        time.sleep(max(0.0, nxt - time.time()))
        nxt += interval
        now = time.time()
        c = counters(port)
        if c is None:
            break
        b, p = c[0] - b0, c[1] - p0
        b0, p0 = c
        if b < min_bytes:
            b = p = 0
        rx += p
        out = {"t": round(now, 3), "flow": fid, "pkts": p, "bytes": b,
               "mbps": round(b * 8 / (now - last) / 1e6, 3), "rx": rx,
               "lost": 0}
        last = now
        if stop:
            out["final"] = True
        print(json.dumps(out), flush=True)
        if stop:
            break
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
