#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034  # the SC_* settings are read by vmlab/scenario.sh
# The Flattened Clos testbed with ECMP routes, hashed onto the v1p1 links:
# CBD S1->S2->S3->S4->S1, so without Tagger a deadlock (fc-testbed.inc).
FC_ROUTING=ecmp
source "$(dirname "$0")/fc-testbed.inc"
