#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Subsets of an ELP for a lower bound at 2 priorities (measurements.md,
"Exact priorities: a lower bound for Jellyfish-1000").

Feasibility at K priorities is monotone in the paths: a subset that
`tagger compile TOPO SUBSET --exact` proves UNSAT at 2 proves the whole
ELP needs 3. These helpers pick subsets deterministically from the files
that `tagger compile --exact` writes when TAGGER_TWO_ORDERS_UNFIT and
TAGGER_TWO_ORDERS_ORDERS name them (the two-order search's paths left
unfit and its best orders). Paths are the ELP's lines of switch names
(no comments); indices count them from 0.

  exact-subset.py near ELP INDICES MODE   the paths at INDICES and, with
                                          MODE triple (link), every path
                                          sharing three consecutive
                                          switches (a directed link) with
                                          one of them; MODE none: alone
  exact-subset.py unfit ELP ORDERS        indices of the paths that do not
                                          fit the two orders
  exact-subset.py add ELP SUBSET INDICES  SUBSET's paths and those at
                                          INDICES, in ELP order
Each writes to standard output.
"""
import sys


def usage():
    sys.stderr.write(__doc__)
    sys.exit(2)


def read_paths(elp):
    with open(elp) as f:
        return [line.split() for line in f if line.strip()]


def read_indices(file):
    with open(file) as f:
        return [int(x) for x in f]


def near(elp, indices, mode):
    paths = read_paths(elp)
    chosen = read_indices(indices)
    width = {'triple': 3, 'link': 2, 'none': 0}.get(mode)
    if width is None:
        usage()
    sel = set(chosen)
    if width:
        def keys(p):
            return [tuple(p[i:i + width]) for i in range(len(p) - width + 1)]
        near_keys = set()
        for i in chosen:
            near_keys.update(keys(paths[i]))
        sel.update(i for i, p in enumerate(paths)
                   if any(k in near_keys for k in keys(p)))
    for i in sorted(sel):
        print(' '.join(paths[i]))


def fits(p, pos0, pos1):
    """Some edge (the switch to tag 1) has every edge before it forward in
    pi0 and every edge after it forward in pi1 (two_orders.h); the
    in-ports are the links into each switch after the first."""
    v = [(p[k - 1], p[k]) for k in range(1, len(p))]
    f0 = [pos0[v[k]] < pos0[v[k + 1]] for k in range(len(v) - 1)]
    f1 = [pos1[v[k]] < pos1[v[k + 1]] for k in range(len(v) - 1)]
    return all(f0) or any(all(f0[:j]) and all(f1[j + 1:])
                          for j in range(len(f0)))


def unfit(elp, orders):
    pos0, pos1 = {}, {}
    with open(orders) as f:
        for line in f:
            node, peer, a, b = line.split()
            pos0[(peer, node)] = int(a)
            pos1[(peer, node)] = int(b)
    for i, p in enumerate(read_paths(elp)):
        if not fits(p, pos0, pos1):
            print(i)


def add(elp, subset, indices):
    paths = [' '.join(p) for p in read_paths(elp)]
    sel = set(' '.join(p) for p in read_paths(subset))
    sel.update(paths[i] for i in read_indices(indices))
    for p in paths:
        if p in sel:
            print(p)


def main():
    a = sys.argv[1:]
    if len(a) == 4 and a[0] == 'near':
        near(*a[1:])
    elif len(a) == 3 and a[0] == 'unfit':
        unfit(*a[1:])
    elif len(a) == 4 and a[0] == 'add':
        add(*a[1:])
    else:
        usage()


if __name__ == '__main__':
    main()
