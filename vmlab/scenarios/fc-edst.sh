#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034  # the SC_* settings are read by vmlab/scenario.sh
# The Flattened Clos testbed with EDST routes (the paper's third run of
# section 6.1): every destination routed on one of the two edge-disjoint
# spanning trees; CBD-free, so no deadlock without Tagger (fc-testbed.inc).
FC_ROUTING=edst
source "$(dirname "$0")/fc-testbed.inc"
