#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Shared by the lab scenario tests: skip unless every piece a scenario runs
# on is in the build, run a scenario in a per-run lab, read its summary.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
require_root
require_cmd jq
require_cmd bc
for sub in "pfc help" "switch help" "host help" "compile help" "flow help" "lab help"; do
	# shellcheck disable=SC2086
	"$TAGGER" $sub >/dev/null 2>&1 || skip "this build has no \`tagger ${sub% help}\`"
done
LAB_NAME=${TGR_PREFIX}s
OUT=$TGR_TMP/out
trap '"$TOP/vmlab/vmlab" -n "$LAB_NAME" down; tgr_cleanup' EXIT

# run_scenario NAME [MODE] [VAR=VALUE...]: the scenario script with a lab
# of this run; its table goes to the log.
run_scenario() {
	local name=$1 mode=${2:-both}; shift 2
	env "$@" LAB_NAME="$LAB_NAME" bash "$TOP/vmlab/scenarios/$name.sh" "$mode" \
		--out "$OUT/$name" --lab "$LAB_NAME" || fail "scenario $name failed to run"
}

# q NAME FILTER: jq over the scenario's summary.json.
q() { jq -r "$2" "$OUT/$1/summary.json"; }

# Mean throughput of flow ID in MODE over [FROM, TO) seconds.
mean_mbps() {
	q "$1" ".modes.$2.flows[] | select(.id == $3) | [.samples[] | select(.[0] >= $4 and .[0] < $5) | .[1]] |
		if length == 0 then 0 else add / length end"
}
ge() { [ "$(echo "$1 >= $2" | bc)" = 1 ]; }
