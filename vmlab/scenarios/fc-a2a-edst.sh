#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034  # the SC_* settings are read by vmlab/scenario.sh
# Section 6.1's traffic (every host to every host under another switch) on
# the Flattened Clos testbed, routed by EDST: each destination host on one
# of the two edge-disjoint spanning trees; CBD-free (the paper's third run).
FC_ROUTING=edst
source "$(dirname "$0")/fc-a2a.inc"
