#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034  # the SC_* settings are read by vmlab/scenario.sh
# Scenario 2 (Tagger draft 7.2, scenario 1): a misconfigured route loops
# flow 1. Flow 1 h1->h3 and flow 2 h2->h4 both cross L1->S1; at second 3,
# S1's route to h3 is misconfigured to point back to L1, so flow 1's
# packets bounce between L1 and S1 until their TTL runs out. Without
# Tagger the loop is lossless: L1->S1 and S1->L1 fill and pause each
# other, a deadlock that also stops the unrelated flow 2. With Tagger
# (up-down + 1-bounce ELP) the looping packets leave the ELP, become lossy
# and are dropped instead of pausing: flow 2 keeps flowing.
D=$(dirname "$0")
SC_NAME=${SC_NAME:-routing-loop}
SC_TOPO=$D/clos.topo
SC_ROUTES=$D/loop-flows.elp
SC_ELP_KIND=bounce=1
SC_ALGO=clos
SC_FLOWS="1 h1 h3 ${SC_MBIT1:-20}
2 h2 h4 ${SC_MBIT2:-40}"
SC_CYCLE=${SC_CYCLE-L1 S1}
SC_EVENTS="${SC_LOOP_AT:-3} route S1 h3 L1"
source "$D/../scenario.sh"
sc_main "$@"
