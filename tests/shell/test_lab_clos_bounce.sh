#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Scenario 1 (Tagger paper's Clos, two bounced flows), as make demo runs
# it: without Tagger the two link failures deadlock the cycle L2->S1->L3->S2
# and both flows stop for good while their senders still send; with Tagger
# neither stops, no lossless packet is dropped (check_clos_bounce). A run
# whose cycle never congested (busy machine) gives no verdict: a skip.
source "$(dirname "$0")/../lab_lib.sh"
run_scenario clos-bounce both
check_clos_bounce clos-bounce
lab_end
