#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The netlink requests a process sent, from `strace -xx -e trace=sendmsg,sendto
-e write=all -o FILE`: one message a line, in hex, with the sequence
number and port id zeroed (they differ between any two senders) and the
requests that change nothing left out (RTM_GETLINK, RTM_GETTFILTER), so
that two programs' changes compare with cmp.

  strace_nl.py FILE
"""
import re
import sys

GETS = (18, 46)  # RTM_GETLINK, RTM_GETTFILTER
ROW = re.compile(r' \| [0-9a-f]{5}  ((?:[0-9a-f]{2} ){1,8}) ?((?:[0-9a-f]{2} ){0,8})')


def main():
    msgs, cur = [], None
    with open(sys.argv[1]) as f:
        for line in f:
            if line.startswith(("sendmsg(", "sendto(")):
                cur = bytearray()
                msgs.append(cur)
                continue
            m = ROW.match(line)
            if m and cur is not None:
                cur += bytes.fromhex((m.group(1) + m.group(2)).replace(" ", ""))
    for b in msgs:
        if len(b) < 16 or int.from_bytes(b[4:6], "little") in GETS:
            continue
        b[8:16] = bytes(8)
        print(b.hex())


if __name__ == "__main__":
    main()
