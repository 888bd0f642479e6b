#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Scenario 1 (clos-bounce) on per-port maps: the rules of the up-down +
# 1-bounce ELP turned into maps (tagger maps), the maps run as rules
# (tagger maps --rules) by the eBPF data plane of every switch. After the
# two link failures bounce both flows: no deadlock, no queue left paused,
# zero lossless drops, both flows keep at least half their rate and lose
# nothing -- what the rules themselves give (test_lab_clos_bounce.sh).
source "$(dirname "$0")/../lab_lib.sh"
topo=$TOP/vmlab/scenarios/clos.topo
cd "$TGR_TMP" || exit 1
"$TAGGER" paths bounce=1 "$topo" -o cb.elp || fail "paths"
"$TAGGER" compile "$topo" cb.elp --algorithm clos -o cb.json 2>/dev/null || fail "compile"
"$TAGGER" maps cb.json -o cb.maps.json || fail "maps"
"$TAGGER" maps cb.maps.json --rules -o maps.rules.json || fail "maps --rules"
"$TAGGER" verify "$topo" cb.elp maps.rules.json || fail "the rules of the maps do not verify"
run_scenario clos-bounce tagger SC_RULES="$TGR_TMP/maps.rules.json"
cmp -s maps.rules.json "$OUT/clos-bounce/tagger/rules.json" ||
	fail "the lab did not run the rules of the maps"
echo "ok: the lab ran the rules of the maps"
summary_lines clos-bounce
have_verdict clos-bounce tagger
check_clos_bounce_tagger clos-bounce
lab_end
