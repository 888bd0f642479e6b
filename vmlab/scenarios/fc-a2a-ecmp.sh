#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034  # the SC_* settings are read by vmlab/scenario.sh
# Section 6.1's traffic (every host to every host under another switch) on
# the Flattened Clos testbed, routed by ECMP: every shortest path, the
# kernel hashing each flow onto one; not CBD-free (S1->S2->S3->S4->S1 over
# the v1p1 links), so without Tagger a deadlock may form (the paper's first
# run).
FC_ROUTING=ecmp
source "$(dirname "$0")/fc-a2a.inc"
