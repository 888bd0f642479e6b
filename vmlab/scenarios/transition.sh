#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034  # the SC_* settings are read by vmlab/scenario.sh
# Scenario 4 (Tagger draft 7.1, figure 4a): lossless transition between
# priorities. Flow 1 h1->h3 stays in priority 1; flow 2 h2->h3 enters A in
# priority 1 and leaves it in priority 2 (A rewrites its tag 1 -> 2, the
# rules in transition.rules.json). From second 2 to 5, h3 pauses priority 2:
# flow 2 must stop without losing a datagram (B pauses A's priority 2, A's
# priority-2 egress backs up into its priority-1 ingress from h2, A pauses
# h2's priority 1), and flow 1 must keep its rate. Tagger mode only: the
# point is the transition, which only rules with two priorities make.
D=$(dirname "$0")
SC_NAME=${SC_NAME:-transition}
SC_TOPO=$D/transition.topo
SC_ROUTES=$D/transition-flows.elp
SC_RULES=$D/transition.rules.json
SC_FLOWS="1 h1 h3 ${SC_MBIT:-30}
2 h2 h3 ${SC_MBIT:-30}"
SC_EVENTS="2 pause h3 2 3"
SC_WINDOW=${SC_WINDOW:-5}
source "$D/../scenario.sh"
sc_main tagger "$@"
