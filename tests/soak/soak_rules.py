#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""soak_rules.py DIR: rule sets A and B of the soak from DIR/base.json.

A adds tag 2 (priority 2), classified at sw2 from sw1 and kept to h2; B is
A with sw1 rewriting h1's tag 1 to 2. Both are deadlock-free on the line,
and so is their union, so `switch update` takes either over the other.
"""
import json
import sys

d = sys.argv[1]
r = json.load(open(d + "/base.json"))
r["tags"].append({"tag": 2, "priority": 2})
sw2 = r["switches"]["sw2"]
sw2["classify"].append({"in": "eth2", "tag": 2, "priority": 2})
sw2["rewrite"].append({"tag": 2, "in": "eth2", "out": "eth1", "new_tag": 2})
json.dump(r, open(d + "/A.json", "w"), indent=1)
for rw in r["switches"]["sw1"]["rewrite"]:
    if (rw["in"], rw["out"]) == ("eth1", "eth2"):
        rw["new_tag"] = 2
json.dump(r, open(d + "/B.json", "w"), indent=1)
