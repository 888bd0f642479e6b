#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The Flattened Clos testbed (figure 4a) under section 6.2's imbalanced
# allocation: every switch sends to the switch two hops clockwise and to its
# clockwise neighbour, 60 Mbit/s each, so the clockwise links congest.
# Routes: ECMP, hashed onto the v1p1 links: CBD S1->S2->S3->S4->S1; without Tagger a deadlock.
D=$(dirname "$0")
SC_NAME=${SC_NAME:-fc-ecmp}
SC_TOPO=$D/fc-testbed.topo
SC_ROUTES=$D/fc-ecmp-flows.elp
SC_ELP=$D/fc-ecmp-flows.elp
SC_ALGO=${SC_ALGO:-greedy}
SC_FLOWS="1 h1-1 h3-1 ${SC_MBIT:-60}
2 h2-1 h4-1 ${SC_MBIT:-60}
3 h3-1 h1-1 ${SC_MBIT:-60}
4 h4-1 h2-1 ${SC_MBIT:-60}
5 h1-1 h2-1 ${SC_MBIT:-60}
6 h2-1 h3-1 ${SC_MBIT:-60}
7 h3-1 h4-1 ${SC_MBIT:-60}
8 h4-1 h1-1 ${SC_MBIT:-60}"
SC_EVENTS=""
SC_STOP=${SC_STOP:-6}
source "$D/../scenario.sh"
sc_main "$@"
