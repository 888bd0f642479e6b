#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034  # the SC_* settings are read by vmlab/scenario.sh
# Section 6.1's traffic (every host to every host under another switch) on
# the Flattened Clos testbed, routed on its edge-disjoint virtual up-down
# paths, per destination host one of each ToR pair's paths; CBD-free (the
# paper's second run).
FC_ROUTING=updown
source "$(dirname "$0")/fc-a2a.inc"
