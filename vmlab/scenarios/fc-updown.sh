#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034  # the SC_* settings are read by vmlab/scenario.sh
# The Flattened Clos testbed with its own up-down routes: CBD-free, no
# deadlock without Tagger either (fc-testbed.inc).
FC_ROUTING=updown
source "$(dirname "$0")/fc-testbed.inc"
