#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034  # the SC_* settings are read by vmlab/scenario.sh
# Scenario 3 (Tagger draft 7.2, scenario 2): three flows on three paths
# that close a cyclic buffer dependency around the ring A->B->C->A. Each
# ring link carries two flows at 60% of the link rate each, so every link
# congests. Without Tagger: deadlock, all three flows stop. With Tagger
# (rules compiled from exactly these paths): all three keep flowing.
D=$(dirname "$0")
SC_NAME=${SC_NAME:-three-flows}
SC_TOPO=$D/ring.topo
SC_ROUTES=$D/ring-flows.elp
SC_ELP=$D/ring-flows.elp
SC_ALGO=${SC_ALGO:-greedy}
SC_FLOWS="1 ha hc ${SC_MBIT:-60}
2 hb ha ${SC_MBIT:-60}
3 hc hb ${SC_MBIT:-60}"
SC_CYCLE=${SC_CYCLE-A B C}
SC_EVENTS=""
# Starting the flows is the event: they share congested links from the
# start (none reaches its rate), and a deadlock may form before the last
# one's first packet arrives. The window starts when every sender runs.
SC_READY=${SC_READY:-started}
source "$D/../scenario.sh"
sc_main "$@"
