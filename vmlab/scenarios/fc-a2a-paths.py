#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Routes for section 6.1's traffic on the Flattened Clos testbed.

Usage: fc-a2a-paths.py ecmp|updown|edst TOR_PATHS > ELP

TOR_PATHS is `tagger paths ecmp|fc|edst fc-testbed4.topo --between tors`.
Every host sends to every host under another ToR (16 x 12 = 192 flows);
this prints, per flow, the host-level paths the lab routes it on.

The lab routes by destination host (each switch has one route, maybe
ECMP, per host), so the paths toward one host must agree at every switch
they share, or the switches would combine pieces of them into paths that
are not in the set. ecmp: every shortest path (their pieces are shortest
paths again, so the set is closed; the kernel's hash picks per flow).
updown, edst: per destination host one path from every other ToR, chosen
so that they agree (a path through switch X continues as X's own path);
of the choices that agree, each destination host takes the one that
keeps the most loaded link lowest so far (deterministic), so the four
hosts under a ToR spread over the edge-disjoint paths. A subset of a
CBD-free set is CBD-free.
"""
import itertools
import sys

HOSTS = 4


def tor_of(hop):
    return hop.split(":")[0]


def links(path):
    """Directed links of a ToR-level path: its NODE:EGRESS hops."""
    return [h for h in path.split() if ":" in h]


def agrees(choice):
    """choice: src ToR -> path (str). Paths through X continue as X's."""
    for path in choice.values():
        hops = path.split()
        for i in range(1, len(hops) - 1):
            x = tor_of(hops[i])
            if choice.get(x) != " ".join(hops[i:]):
                return False
    return True


def main():
    kind, tor_paths = sys.argv[1], sys.argv[2]
    cand = {}
    for line in open(tor_paths):
        if line.strip() and not line.startswith("#"):
            hops = line.split()
            cand.setdefault((tor_of(hops[0]), hops[-1]), []).append(line.strip())
    tors = sorted({s for s, _ in cand} | {d for _, d in cand})
    out = []
    load = {}
    for d in tors:
        srcs = [s for s in tors if s != d]
        if kind == "ecmp":
            combos = None
        else:
            combos = [dict(zip(srcs, c))
                      for c in itertools.product(*(cand[(s, d)] for s in srcs))]
            combos = [c for c in combos if agrees(c)]
            if not combos:
                sys.exit(f"fc-a2a-paths: no agreeing paths toward {d}")
        for j in range(1, HOSTS + 1):
            dh = f"h{d[1:]}-{j}"
            if combos is None:
                chosen = {s: cand[(s, d)] for s in srcs}
            else:
                def worst(c):
                    n = dict(load)
                    for p in c.values():
                        for link in links(p):
                            n[link] = n.get(link, 0) + HOSTS
                    return (max(n.values()), sorted(n.values(), reverse=True))
                best = min(combos, key=worst)
                for p in best.values():
                    for link in links(p):
                        load[link] = load.get(link, 0) + HOSTS
                chosen = {s: [p] for s, p in best.items()}
            for s in srcs:
                for i in range(1, HOSTS + 1):
                    sh = f"h{s[1:]}-{i}"
                    for p in chosen[s]:
                        out.append(f"{sh} {p} {dh}")
    print(f"# tagger paths {kind}: section 6.1's all-to-all between ToRs, "
          f"{len(out)} paths (vmlab/scenarios/fc-a2a-paths.py)")
    print("\n".join(out))


if __name__ == "__main__":
    main()
