#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Clients of `tagger metrics serve` for tests/shell/test_metrics_serve.sh,
hostile and honest, each printing what it measured:

  scrapes HOST PORT IDLE N [S]  IDLE connections that send nothing (replaced
                             when the server closes one), and N scrapes one
                             after another beside them: each scrape's
                             status and milliseconds, then
                             "scrapes N answered K max MS median MS
                             connected C least_open M" (C: the silent ones
                             connected before the first scrape; M: the
                             fewest still open after a scrape: the server
                             closes them after their budget of 5 s)
                             (S: seconds a scrape may take, default 5;
                             after 3 that did not succeed it stops)
  hold HOST PORT IDLE FILE   IDLE silent connections, "ready" in FILE once
                             all are connected; held until killed
  raw HOST PORT HEX [N]      the bytes HEX and N more "a" sent (as many
                             as it takes), the connection left open:
                             "STATUS MS END" of the answer ("none" if the
                             server closed without one), END how the
                             connection ended: eof, reset or error
  cap HOST PORT N            N silent connections opened in turn, then
                             two more, then a scrape: after each, which of
                             the silent ones are closed ("silent 4: closed
                             0", ..., "scrape: 200 in 1.0 ms, closed 0 1 2")
"""
import select
import selectors
import socket
import statistics
import sys
import time

GET = b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"


def now_ms():
    return time.monotonic() * 1000.0


def connect_many(host, port, n, timeout=10.0):
    """n non-blocking connects, waited for together (a sequential server's
    full backlog makes some wait for SYN retransmissions)."""
    socks = []
    for _ in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        s.connect_ex((host, port))
        socks.append(s)
    sel = selectors.DefaultSelector()
    for s in socks:
        sel.register(s, selectors.EVENT_WRITE)
    left, end = len(socks), time.monotonic() + timeout
    connect_many.connected = 0
    while left and time.monotonic() < end:
        for key, _ in sel.select(0.5):
            sel.unregister(key.fileobj)
            left -= 1
            if not key.fileobj.getsockopt(socket.SOL_SOCKET,
                                          socket.SO_ERROR):
                connect_many.connected += 1
    sel.close()
    return socks


def closed(s):
    """True if the server closed s (EOF or reset), without waiting (a
    socket with a timeout would wait for it in recv)."""
    if not select.select([s], [], [], 0)[0]:
        return False
    try:
        return s.recv(1, socket.MSG_PEEK) == b""
    except OSError:
        return True


def scrape(host, port, timeout):
    """One GET /metrics: (status or 'timeout', ms)."""
    t0 = now_ms()
    try:
        c = socket.create_connection((host, port), timeout=timeout)
        c.settimeout(max(0.1, timeout - (now_ms() - t0) / 1000.0))
        c.sendall(GET)
        data = b""
        while True:
            b = c.recv(65536)
            if not b:
                break
            data += b
        c.close()
        status = data.split(b"\r\n", 1)[0].decode(errors="replace")
        return (status.split(" ")[1] if status.count(" ") else "none",
                now_ms() - t0)
    except OSError:
        return ("timeout", now_ms() - t0)


def cmd_scrapes(host, port, idle, n, timeout):
    socks = connect_many(host, port, idle)
    connected = connect_many.connected
    lat, answered, fails, least = [], 0, 0, idle
    for i in range(n):
        # Keep IDLE of them open: the server may close old ones (budget).
        for j, s in enumerate(socks):
            if closed(s):
                s.close()
                socks[j] = connect_many(host, port, 1, 0)[0]
        status, ms = scrape(host, port, timeout)
        lat.append(ms)
        still = sum(1 for s in socks if not closed(s))
        least = min(least, still)
        print("scrape %d: %s in %.1f ms, %d silent ones open" %
              (i + 1, status, ms, still), flush=True)
        if status == "200":
            answered += 1
        else:
            fails += 1
            if fails >= 3:
                break   # a sequential server: no need to wait for all
        time.sleep(0.05)
    print("scrapes %d answered %d max %.1f median %.1f connected %d "
          "least_open %d" % (len(lat), answered, max(lat),
                             statistics.median(lat), connected, least))


def cmd_hold(host, port, idle, path):
    socks = connect_many(host, port, idle)
    with open(path, "w") as f:
        f.write("ready %d\n" % len(socks))
    time.sleep(600)


def cmd_raw(host, port, hexbytes, pad):
    c = socket.create_connection((host, port), timeout=10)
    t0 = now_ms()
    try:
        c.sendall(bytes.fromhex(hexbytes) + b"a" * pad)
    except OSError:
        pass    # answered and closed before all was sent: read it
    f = c.makefile("rb")
    try:
        line = f.readline().decode(errors="replace")
    except OSError:
        line = ""
    ms = now_ms() - t0
    try:
        while f.read(65536):
            pass
        end = "eof"
    except OSError as e:
        end = "reset" if isinstance(e, ConnectionResetError) else "error"
    parts = line.split(" ")
    print("%s %.1f %s" % (parts[1] if len(parts) > 1 else "none", ms, end))


def cmd_cap(host, port, n):
    socks = []
    for _ in range(n):   # one after another: the server accepts in order
        socks.append(socket.create_connection((host, port), timeout=10))
    for k in (n, n + 1):
        old = [s for s in socks if not closed(s)]
        socks.append(socket.create_connection((host, port), timeout=10))
        select.select(old, [], [], 3.0)   # one of them closes
        gone = [j for j, s in enumerate(socks) if closed(s)]
        print("silent %d: closed %s" % (k, " ".join(map(str, gone))))
    status, ms = scrape(host, port, 5.0)
    # The one closed for it was closed before it was answered.
    gone = [j for j, s in enumerate(socks) if closed(s)]
    print("scrape: %s in %.1f ms, closed %s" %
          (status, ms, " ".join(map(str, gone))))


def main():
    cmd, host, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if cmd == "scrapes":
        cmd_scrapes(host, port, int(sys.argv[4]), int(sys.argv[5]),
                    float(sys.argv[6]) if len(sys.argv) > 6 else 5.0)
    elif cmd == "hold":
        cmd_hold(host, port, int(sys.argv[4]), sys.argv[5])
    elif cmd == "raw":
        cmd_raw(host, port, sys.argv[4],
                int(sys.argv[5]) if len(sys.argv) > 5 else 0)
    elif cmd == "cap":
        cmd_cap(host, port, int(sys.argv[4]))
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main()
