#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Sample a pause agent's buffered bytes straight from its BPF map.

    ecn_queue_sample.py MAP PRIO INTERVAL_MS SECONDS GO SLOT...
    ecn_queue_sample.py MAP --id

Reads the "bytes" field of struct pfc_pp (bpf/pfc_maps.h: the first
__u64 of each entry, index PFC_SLOT(slot, prio)) of the agent's "pp"
array map every INTERVAL_MS for SECONDS, for each SLOT (an in-port of the node, in
the agent's port order), with the bpf(2) system call: no process per
sample and no wake-up of the agent, where `tagger -j pfc show` would
spawn a process, signal the agent and wait for its tick. It opens the
map, says "ready" on standard error, and starts once the file GO exists
(so that a slow start, as in an emulated VM, does not shift the window
the caller measures; it gives up after 120 s). MAP is the map's id, or
pid=PID: the "pp" map that process (the agent) holds open, found from
its file descriptors, so that neither an earlier agent's map nor another
node's is read. A map whose value is not struct pfc_pp's size is
refused. --id prints the map's id and exits. Prints JSON:
the samples, the mean interval, and per slot and for their sum (the
node's buffer of the priority) the mean, p99 and largest bytes. Root.
"""
import ctypes
import json
import os
import sys
import time

SYS_BPF = {"x86_64": 321, "aarch64": 280}[os.uname().machine]
BPF_MAP_LOOKUP_ELEM = 1
BPF_MAP_GET_FD_BY_ID = 14
BPF_OBJ_GET_INFO_BY_FD = 15
PFC_PRIOS = 8
PP_SIZE = 168  # _Static_assert in bpf/pfc_maps.h

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


def bpf(cmd, attr):
    r = libc.syscall(SYS_BPF, cmd, ctypes.byref(attr), ctypes.sizeof(attr))
    if r < 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
    return r


class Attr(ctypes.Structure):
    # The first 32 bytes of union bpf_attr, for both commands used here.
    _fields_ = [("u32a", ctypes.c_uint32), ("u32b", ctypes.c_uint32),
                ("key", ctypes.c_uint64), ("value", ctypes.c_uint64),
                ("flags", ctypes.c_uint64), ("pad", ctypes.c_uint8 * 96)]


def map_fd(map_id):
    a = Attr()
    a.u32a = map_id  # map_id; next_id 0; open_flags (offset 8) 0
    return bpf(BPF_MAP_GET_FD_BY_ID, a)


def map_info(fd):
    """(value_size, name) of struct bpf_map_info: type, id, key_size,
    value_size, max_entries, map_flags (u32 each), name[16]."""
    info = ctypes.create_string_buffer(40)
    a = Attr()
    a.u32a, a.u32b = fd, len(info)  # bpf_fd, info_len
    a.key = ctypes.addressof(info)  # info, at offset 8
    bpf(BPF_OBJ_GET_INFO_BY_FD, a)
    return (int.from_bytes(info.raw[12:16], "little"),
            info.raw[24:40].split(b"\0")[0].decode())


def open_pp(spec):
    """The fd and id of MAP (an id, or pid=PID: its "pp" map)."""
    if not spec.startswith("pid="):
        ids = [int(spec)]
    else:
        d = f"/proc/{spec[4:]}/fdinfo"
        ids = set()
        for f in os.listdir(d):
            try:
                for line in open(f"{d}/{f}"):
                    if line.startswith("map_id:"):
                        ids.add(int(line.split()[1]))
            except OSError:
                pass  # closed meanwhile
        ids = sorted(ids)
    for i in ids:
        fd = map_fd(i)
        size, name = map_info(fd)
        if name == "pp" or not spec.startswith("pid="):
            if size != PP_SIZE:
                sys.exit(f"map {i} ({name}): values of {size} B, not struct pfc_pp's {PP_SIZE}")
            return fd, i
        os.close(fd)
    sys.exit(f"{spec}: no pp map")


def pct(xs, q):
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] if s else 0


def main():
    if len(sys.argv) == 3 and sys.argv[2] == "--id":
        print(open_pp(sys.argv[1])[1])
        return
    if len(sys.argv) < 7:
        sys.exit("usage: ecn_queue_sample.py MAP PRIO INTERVAL_MS SECONDS GO SLOT...")
    prio = int(sys.argv[2])
    step, secs, go = float(sys.argv[3]) / 1000, float(sys.argv[4]), sys.argv[5]
    slots = [int(x) for x in sys.argv[6:]]
    fd = open_pp(sys.argv[1])[0]
    keys = [ctypes.c_uint32(s * PFC_PRIOS + prio) for s in slots]
    val = ctypes.create_string_buffer(PP_SIZE)
    a = Attr()
    a.u32a = fd
    a.value = ctypes.addressof(val)
    def pkts():
        n = 0
        for k in keys:
            a.key = ctypes.addressof(k)
            bpf(BPF_MAP_LOOKUP_ELEM, a)
            n += int.from_bytes(val.raw[16:24], "little")
        return n

    print("ready", file=sys.stderr, flush=True)
    until = time.monotonic() + 120  # never outlive a caller that died
    while not os.path.exists(go):
        if time.monotonic() > until:
            sys.exit(f"no {go} within 120 s")
        time.sleep(0.005)
    pkts0 = pkts()
    per = [[] for _ in slots]
    total = []
    t0 = time.monotonic()
    nxt = t0
    while True:
        now = time.monotonic()
        if now - t0 >= secs:
            break
        s = 0
        for i, k in enumerate(keys):
            a.key = ctypes.addressof(k)
            bpf(BPF_MAP_LOOKUP_ELEM, a)
            b = int.from_bytes(val.raw[:8], "little")
            per[i].append(b)
            s += b
        total.append(s)
        nxt += step
        time.sleep(max(0.0, nxt - time.monotonic()))
    el = time.monotonic() - t0
    counted = pkts() - pkts0

    def stats(xs):
        return {"mean": round(sum(xs) / len(xs)) if xs else 0,
                "p99": pct(xs, 0.99), "max": max(xs) if xs else 0}

    json.dump({"samples": len(total),
               "interval_ms": round(1000 * el / max(1, len(total)), 2),
               "slots": {str(s): stats(per[i]) for i, s in enumerate(slots)},
               "sum": stats(total), "counted": counted}, sys.stdout)
    print()


if __name__ == "__main__":
    main()
