#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034  # the SC_* settings are read by vmlab/scenario.sh
# Scenario 1, the Tagger paper's Clos example (figures 1-3, slides 5-8):
# flow 1 h3->h1 and flow 2 h2->h4 take up-down paths; then the links L2-T1
# and L3-T4 fail and L2 and L3 reroute locally, bouncing the flows up to S1
# and S2: the CBD L2->S1->L3->S2->L2. Each flow sends 60% of the link
# rate (60 of 100 Mbit/s), so the links L2->S1 and L3->S2, which now carry both, congest.
# Without Tagger the buffers of the cycle fill and pause each other for
# good: both flows stop and stay stopped after the senders give up. With
# Tagger (rules from the up-down + 1-bounce ELP) the bounced packets move
# to the second lossless priority at S1/S2: no cycle, both flows keep
# flowing, no lossless drops.
D=$(dirname "$0")
SC_NAME=${SC_NAME:-clos-bounce}
SC_TOPO=$D/clos.topo
SC_ROUTES=${SC_ROUTES:-$D/clos-flows.elp}
SC_ELP_KIND=bounce=1
SC_ALGO=clos
SC_FLOWS="1 h3 h1 ${SC_MBIT:-60}
2 h2 h4 ${SC_MBIT:-60}"
SC_CYCLE=${SC_CYCLE-L2 S1 L3 S2}
# SC_EVENTS set (empty too) replaces the failures: routes that bounce
# from the start (SC_ROUTES) close the same cycle without them.
SC_EVENTS=${SC_EVENTS-"${SC_FAIL_AT:-2} fail L2:T1
${SC_FAIL_AT:-2} fail L3:T4"}
source "$D/../scenario.sh"
sc_main "$@"
