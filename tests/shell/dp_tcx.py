#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The programs the kernel runs on an interface's tcx hooks, by
BPF_PROG_QUERY (the Debian bpftool predates tcx and does not list them).

  dp_tcx.py IFNAME...   one line per hook: "IFNAME ingress|egress ID ..."
"""
import ctypes
import os
import socket
import sys

BPF_PROG_QUERY = 16
TCX = {"ingress": 46, "egress": 47}
NR_BPF = {"x86_64": 321, "aarch64": 280}


class QueryAttr(ctypes.Structure):
    _fields_ = [("target_ifindex", ctypes.c_uint32),
                ("attach_type", ctypes.c_uint32),
                ("query_flags", ctypes.c_uint32),
                ("attach_flags", ctypes.c_uint32),
                ("prog_ids", ctypes.c_uint64),
                ("prog_cnt", ctypes.c_uint32),
                ("pad", ctypes.c_uint32),
                ("prog_attach_flags", ctypes.c_uint64),
                ("link_ids", ctypes.c_uint64),
                ("link_attach_flags", ctypes.c_uint64),
                ("revision", ctypes.c_uint64)]


def query(libc, ifindex, hook):
    ids = (ctypes.c_uint32 * 64)()
    attr = QueryAttr(target_ifindex=ifindex, attach_type=TCX[hook],
                     prog_ids=ctypes.addressof(ids), prog_cnt=64)
    nr = NR_BPF[os.uname().machine]
    if libc.syscall(nr, BPF_PROG_QUERY, ctypes.byref(attr), ctypes.sizeof(attr)):
        err = ctypes.get_errno()
        sys.exit(f"BPF_PROG_QUERY {hook}: {os.strerror(err)}")
    return [ids[i] for i in range(attr.prog_cnt)]


def main():
    libc = ctypes.CDLL(None, use_errno=True)
    for ifname in sys.argv[1:]:
        ifindex = socket.if_nametoindex(ifname)
        for hook in ("ingress", "egress"):
            print(ifname, hook, *query(libc, ifindex, hook))


if __name__ == "__main__":
    main()
