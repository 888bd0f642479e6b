#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What the DCB data path must leave on a switch's ports, computed from the
rules document here, apart from tagger's own code (model/dcb_map.c), and
the comparison with what a port holds (tests/shell/test_dcb_path.sh).

  dcb_expect.py expect RULES.json SWITCH
      {"IFNAME": {"app": [64 priorities], "rewr": {"PRIO": DSCP},
                  "pfc": MASK}} on stdout. app: each DSCP's priority at
      that in-port (a lossy or unknown tag: the lossy priority, the CNP's
      tag the CNP's). rewr: for each priority some pair of the switch is
      classified into, the tag its pairs keep leaving that out-port (the
      lossy tag where none keeps one), and the lossy priority's lossy tag.
      pfc: the priorities classified lossless at the port, and those that
      leave it lossless.
  dcb_expect.py device STATE BEFORE EXPECT [IFNAME=MODEL.json ...]
      STATE, BEFORE: dcb_fake.so's state files (now, before attach). Each
      port of EXPECT: its DSCP app entries exactly app; its rewr entries
      those of rewr, and BEFORE's for the other priorities; PFC on pfc;
      everything else as in BEFORE. Exit 1 naming every difference.
  dcb_expect.py show SHOW EXPECT
      tagger -j switch show's "dcb" of each port against EXPECT.
"""
import json
import sys

DSCP_SEL = 5


def lookup_classify(sw, port, tag):
    exact = [c for c in sw["classify"] if c["tag"] == tag and c["in"] == port]
    wild = [c for c in sw["classify"] if c["tag"] == tag and c["in"] == "*"]
    hit = exact or wild
    return hit[0]["priority"] if hit else None


def lookup_rewrite(sw, tag, inp, out):
    for i, o in ((inp, out), (inp, "*"), ("*", out), ("*", "*")):
        hit = [w for w in sw["rewrite"]
               if w["tag"] == tag and w["in"] == i and w["out"] == o]
        if hit:
            return hit[0]["new_tag"]
    return None


def expect(rules, name):
    sw = rules["switches"][name]
    lossy_prio, lossy_tag = rules["lossy"]["priority"], rules["lossy"]["tag"]
    cnp = rules.get("cnp")
    tag_prio = {t["tag"]: t["priority"] for t in rules["tags"]}
    peer = {}
    for a, b in rules.get("links", []):
        for x, y in ((a, b), (b, a)):
            n, p = x.split(":")
            if n == name and y.split(":")[0] in rules["switches"]:
                peer[p] = y.split(":")

    def lossless(p):
        return p is not None and p != lossy_prio

    def next_prio(out, tag):
        if out not in peer:
            p = tag_prio.get(tag)
        else:
            n, p_ = peer[out]
            p = lookup_classify(rules["switches"][n], p_, tag)
        return p if lossless(p) else None

    res, pairs = {}, {}
    for port in sw["ports"]:
        r = res[port] = {"app": [], "rewr": {}, "pfc": 0}
        for d in range(64):
            p = lookup_classify(sw, port, d)
            if lossless(p):
                pairs.setdefault(p, []).append((port, d))
                r["app"].append(p)
                r["pfc"] |= 1 << p
            else:
                r["app"].append(cnp["priority"] if cnp and d == cnp["tag"]
                                else lossy_prio)
    for out in sw["ports"]:
        r = res[out]
        if not cnp or cnp["priority"] != lossy_prio:
            r["rewr"][str(lossy_prio)] = lossy_tag
        for p, ps in sorted(pairs.items()):
            kept = set()
            for inp, d in ps:
                nt = lookup_rewrite(sw, d, inp, out)
                if nt is not None and nt != lossy_tag and \
                        next_prio(out, nt) == p:
                    kept.add(nt)
            assert len(kept) <= 1, f"{name}: rules that do not fit DCB"
            r["rewr"][str(p)] = kept.pop() if kept else lossy_tag
            if r["rewr"][str(p)] != lossy_tag:
                r["pfc"] |= 1 << p
    return res


def entries(port, table, dscp=None):
    """A table's entries: all, the DSCP ones (dscp True), or the others."""
    return sorted(tuple(e) for e in port[table]
                  if dscp is None or (e[0] == DSCP_SEL) == dscp)


def device(state, before, exp, models):
    bad = []
    for ifname, want in exp.items():
        now, was = state.get(ifname), before.get(ifname)
        if not now or not was:
            bad.append(f"{ifname}: not in the state files")
            continue
        app = sorted((DSCP_SEL, d, p) for d, p in enumerate(want["app"]))
        if entries(now, "app", True) != app:
            bad.append(f"{ifname}: app {entries(now, 'app', True)}")
        if entries(now, "app", False) != entries(was, "app", False):
            bad.append(f"{ifname}: other selectors' app entries changed")
        rewr = sorted(e for e in entries(was, "rewr")
                      if e[0] != DSCP_SEL or str(e[2]) not in want["rewr"])
        rewr += [(DSCP_SEL, d, int(p)) for p, d in want["rewr"].items()]
        if entries(now, "rewr") != sorted(rewr):
            bad.append(f"{ifname}: rewr {entries(now, 'rewr')}, "
                       f"expected {sorted(rewr)}")
        pfc = dict(was["pfc"], en=want["pfc"])
        buf = was["buffer"]
        m = models.get(ifname)
        if m:
            pfc["delay"] = m["delay_bits"]
            buf = m["buffer"]
        if now["pfc"] != pfc:
            bad.append(f"{ifname}: pfc {now['pfc']}, expected {pfc}")
        if now["buffer"] != buf:
            bad.append(f"{ifname}: buffer {now['buffer']}, expected {buf}")
        if now["ets"] != was["ets"]:
            bad.append(f"{ifname}: ETS changed")
    return bad


def show(doc, exp):
    bad = []
    ports = {p["ifname"]: p.get("dcb") for p in doc["ports"]}
    for ifname, want in exp.items():
        got = ports.get(ifname)
        if not got:
            bad.append(f"{ifname}: show has no DCB state")
            continue
        if sorted(map(tuple, got["dscp_prio"])) != \
                [(d, p) for d, p in enumerate(want["app"])]:
            bad.append(f"{ifname}: show's dscp_prio {got['dscp_prio']}")
        have = {}
        for p, d in got.get("prio_dscp", []):
            have.setdefault(str(p), []).append(d)
        for p, d in want["rewr"].items():
            if have.get(p) != [d]:
                bad.append(f"{ifname}: show's prio_dscp {p}: {have.get(p)}")
        en = sum(1 << p for p in got["pfc"]["enabled"])
        if en != want["pfc"]:
            bad.append(f"{ifname}: show's PFC {got['pfc']['enabled']}")
    return bad


def load(f):
    with open(f) as fh:
        return json.load(fh)


def main():
    cmd = sys.argv[1]
    if cmd == "expect":
        json.dump(expect(load(sys.argv[2]), sys.argv[3]), sys.stdout,
                  sort_keys=True)
        print()
        return 0
    if cmd == "device":
        models = {}
        for a in sys.argv[5:]:
            ifname, f = a.split("=", 1)
            models[ifname] = load(f)
        bad = device(load(sys.argv[2]), load(sys.argv[3]), load(sys.argv[4]),
                     models)
    else:
        bad = show(load(sys.argv[2]), load(sys.argv[3]))
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
