#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The Clos that compares with a Flattened Clos (appendix A.3 of the paper).

Given N p-port switches and H hosts, the Clos of 2 or 3 layers that serves
at least H hosts with at most N switches and the highest throughput
estimate; prints the `tagger topo` arguments and the shape.

Shapes searched (they are what `tagger topo leafspine|clos` builds):
  2 layers: T ToRs of h hosts, S spines, every ToR to every spine:
            h + S <= p, T <= p, T + S <= N, T h >= H.
  3 layers: P pods of t ToRs and l leaves (ToR to every leaf of its pod),
            h + l <= p,
            P t + P l + S <= N, P t h >= H; the S spines in g planes
            (g divides l), leaf j of every pod to every spine of plane
            j mod g: q = S/g leaf uplinks, t + q <= p, P l / g <= p.
Estimate (all-to-all, traffic spread evenly): min(1, S/h) for 2 layers;
min(1, l/h, q l P / (t h (P - 1))) for 3 (ToR uplinks, then the leaves'
uplinks carrying the inter-pod share). A.3 fixes l = p - h with a
non-blocking core and keeps the smallest h; searching all shapes includes
that one, so the choice is at least as good. Ties: fewer switches, then
fewer surplus hosts. The throughput itself is then measured with the LP.
"""
import math
import sys


def best(n, hosts, p):
    cands = []
    for h in range(1, p):
        t_need = math.ceil(hosts / h)
        for s in range(1, p - h + 1):
            if t_need <= p and t_need + s <= n:
                est = min(1.0, s / h)
                cands.append((est, -(t_need + s), -(t_need * h),
                              ("leafspine", t_need, s, h)))
        for l in range(1, p - h + 1):
            for t in range(1, p):
                pods = math.ceil(hosts / (t * h))
                if pods < 2:
                    continue
                for g in (g for g in range(1, l + 1) if l % g == 0):
                    if pods * (l // g) > p:
                        continue
                    for q in range(1, p - t + 1):
                        sw = pods * t + pods * l + g * q
                        if sw > n:
                            break
                        est = min(1.0, l / h,
                                  q * l * pods / (t * h * (pods - 1)))
                        cands.append((est, -sw, -(pods * t * h),
                                      ("clos", pods, t, l, g, q, h)))
    return max(cands) if cands else None


def main():
    n, hosts, p = (int(x) for x in sys.argv[1:4])
    b = best(n, hosts, p)
    if not b:
        print("none")
        return 1
    est, sw, h_tot, shape = b
    if shape[0] == "leafspine":
        _, tors, s, h = shape
        args = f"leafspine --leaves {tors} --spines {s} --hosts {h}"
        desc = f"2-layer:{tors}x{h}h+{s}sp"
    else:
        _, pods, t, l, g, q, h = shape
        args = (f"clos --pods {pods} --tors {t} --leaves {l} "
                f"--spines {g * q} --planes {g} --hosts {h}")
        desc = f"3-layer:{pods}pods({t}T{h}h+{l}L)+{g * q}sp/{g}pl"
    print(f"{-sw}\t{-h_tot}\t{est:.3f}\t{desc}\t{args}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
