#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tagger maps and tagger export sonic from the command line: the Clos of
# the clos-bounce scenario compiled with bounces, its maps written and
# checked, refusals (exit 1) naming the switch and a witness, bad input
# (exit 2) with its location, and the SONiC entries: every port's maps
# present and resolving, pfc_enable the port's lossless priorities,
# BUFFER_PG per lossless ingress priority, the profile's sizes those of
# `tagger pfc headroom`, every value of the YANG models' patterns.
source "$(dirname "$0")/../lib.sh"
require_cmd jq
cd "$TGR_TMP" || exit 1

expect() {
	local want=$1; shift
	"$TAGGER" "$@" >out 2>err
	local rc=$?
	[ "$rc" -eq "$want" ] || { cat out err >&2; fail "tagger $* exited $rc, want $want"; }
	echo "ok: tagger $* -> $rc"
}
jcheck() {	# $1: jq filter, $2: file (default out)
	local f=${2:-out}
	[ -s "$f" ] && jq -e "$1" "$f" >/dev/null || { cat "$f" >&2; fail "jq '$1' on $f"; }
	echo "ok: $1"
}
grep_err() { grep -qF -- "$1" err || { cat err >&2; fail "stderr lacks: $1"; }; }

"$TAGGER" paths bounce=1 "$TOP/vmlab/scenarios/clos.topo" -o cb.elp ||
	fail "paths"
"$TAGGER" compile "$TOP/vmlab/scenarios/clos.topo" cb.elp --algorithm clos \
	-o cb.json 2>/dev/null || fail "compile"

# The maps: written, exact, the buffer dependency graph acyclic.
expect 0 maps cb.json -o cb.maps.json
grep_err "exact on"
grep_err "buffer dependency graph acyclic"
jcheck '.format == "tagger-maps/1" and (.switches | length) == 10' cb.maps.json
jcheck '[.switches[] | .classes[0] == {"class": 0, "priority": 0}] | all' cb.maps.json
jcheck '[.switches[].classify[] | .class > 0] | all' cb.maps.json
expect 0 -j maps cb.json
jcheck '.check.ok and .check.cbd.acyclic and .check.problems == []'
jcheck '.max_classes_used == 5 and .refused == []'
jcheck '[.switches[] | .classes <= 5 and .lossless_priorities == 2] | all'
# stdout without -o is the document itself
expect 0 maps cb.json
jcheck '.format == "tagger-maps/1"'

# Too few classes: refused, naming each switch and a witness.
expect 1 maps cb.json --max-classes 4 -o never.json
[ ! -e never.json ] || fail "a refused run wrote its output"
grep_err "switch L1 needs 5 traffic classes, at most 4 are allowed"
expect 1 -j maps cb.json --max-classes 4
jcheck '[.refused[] | .switch] == ["L1", "L2", "L3", "L4"]'
jcheck '[.refused[] | (.witness | length) == 5 and .classes == 5] | all'
expect 1 maps cb.json --max-priorities 1
grep_err "uses 2 lossless priorities, at most 1"

# Bad input and usage: exit 2 with the location.
expect 2 maps
expect 2 maps cb.json --max-classes 17
expect 2 maps missing.json
printf '{"format": "tagger-rules/1",\n  "lossy": ' >bad.json
expect 2 maps bad.json
grep_err "bad.json:2:"
expect 2 -j maps bad.json
jcheck '.error | test("bad.json:2:")'
jq '.switches.T1.rewrite[0].new_tag = 99' cb.json >bad2.json
expect 2 maps bad2.json
grep_err "switches.T1.rewrite[0].new_tag"

# The maps run as rules: from the rules and from the maps document, the
# same rules, which verify deadlock-free with every ELP path lossless.
expect 0 maps cb.json --rules -o cb.run.json
grep_err "written as 284 rules"
jcheck '.format == "tagger-rules/1" and (.switches | length) == 10 and (.links | length) > 0' cb.run.json
jcheck '.hosts == {"h1": {"tag": 1, "classes": [1]}, "h2": {"tag": 1, "classes": [1]},
	"h3": {"tag": 1, "classes": [1]}, "h4": {"tag": 1, "classes": [1]}}' cb.run.json
expect 0 maps cb.maps.json --rules -o cb.run2.json
cmp cb.run.json cb.run2.json || fail "the rules of the maps differ by where they came from"
expect 0 verify "$TOP/vmlab/scenarios/clos.topo" cb.elp cb.run.json
expect 0 -j verify "$TOP/vmlab/scenarios/clos.topo" cb.elp cb.run.json
jcheck '.deadlock_free and .monotonic and .lossless_paths == 888'
expect 0 -j maps cb.maps.json --rules
jcheck '.input == "maps" and .rules == 284 and .check.ok and .check.cbd.acyclic'
# a maps document read and written again is the same document
expect 0 maps cb.maps.json -o cb.maps2.json
cmp cb.maps.json cb.maps2.json || fail "maps -> maps changed the document"
# SONiC from the maps document: the same entries as from the rules
expect 0 export sonic cb.json --switch L2 -o L2.rules.json
expect 0 export sonic cb.maps.json --switch L2 -o L2.maps.json
cmp L2.rules.json L2.maps.json || fail "export sonic differs from the maps"

# Coarser maps from elsewhere: T1 puts DSCP 1 from L1 into the class of
# DSCP 2 from L1, so it runs as that class: its priority, and toward h1
# that class's DSCP, elsewhere lossy, where a path bounced at T1 needed
# it lossless: the verifier finds the paths the coarse maps lose.
c=$(jq '.switches.T1.classify[] | select(.in == "L1" and .tag == 2) | .class' cb.maps.json)
jq ".switches.T1.classify |= map(if .in == \"L1\" and .tag == 1 then .class = $c else . end)" \
	cb.maps.json >coarse.maps.json
expect 0 maps coarse.maps.json --rules -o coarse.run.json
jcheck '[.switches.T1.classify[] | select(.in == "L1") | .priority] == [2, 2]' coarse.run.json
jcheck '[.switches.T1.rewrite[] | select(.in == "L1") | [.tag, .out, .new_tag]] ==
	[[1, "h1", 2], [2, "h1", 2]]' coarse.run.json
expect 1 -j verify "$TOP/vmlab/scenarios/clos.topo" cb.elp coarse.run.json
jcheck '.deadlock_free and .lossless_paths < 888'
# ...and a maps file needing more classes than allowed is refused by name.
expect 1 maps cb.maps.json --max-classes 4 --rules -o never.json
[ ! -e never.json ] || fail "a refused run wrote its output"
grep_err "switch L1 needs 5 traffic classes, at most 4 are allowed"
jq '.max_classes = 4' cb.maps.json >four.maps.json
expect 1 -j maps four.maps.json --rules
jcheck '[.refused[] | .switch] == ["L1", "L2", "L3", "L4"] and .input == "maps"'

# Bad maps: exit 2 with the JSON path.
jq '.switches.L2.rewrite[0].new_tag = 1 | .switches.L2.rewrite[0].class = 0' cb.maps.json >bad3.json
expect 2 maps bad3.json --rules
grep_err "bad3.json: switches.L2.rewrite[0].new_tag: class 0 has the lossy priority 0"
jq '.switches.L2.classify[0].in = "eth9"' cb.maps.json >bad4.json
expect 2 maps bad4.json
grep_err 'bad4.json: switches.L2.classify[0].in: port "eth9" is not in switches.L2.ports'
jq '.format = "tagger-rulez/1"' cb.maps.json >bad5.json
expect 2 maps bad5.json
grep_err 'bad5.json: format: must be "tagger-rules/1" or "tagger-maps/1"'
printf '{"format": "tagger-maps/1",\n "lossy": }' >bad6.json
expect 2 maps bad6.json --rules
grep_err "bad6.json:2:"

# SONiC: one switch's entries.
expect 0 export sonic cb.json --switch L2 --cable-length 5 -o L2.json
jcheck 'keys == ["BUFFER_PG", "BUFFER_PROFILE", "CABLE_LENGTH", "DSCP_TO_TC_MAP",
	"PFC_WD", "PORT_QOS_MAP", "TC_TO_DSCP_MAP", "TC_TO_PRIORITY_GROUP_MAP",
	"TC_TO_QUEUE_MAP"]' L2.json
ports=$(jq -c '.switches.L2.ports | sort' cb.json)
jcheck "(.PORT_QOS_MAP | keys) == $ports" L2.json
jcheck "(.CABLE_LENGTH.AZURE | keys) == $ports" L2.json
# every map a port names exists; DSCP maps cover 0..63
jcheck '. as $d | [.PORT_QOS_MAP[] | ($d.DSCP_TO_TC_MAP[.dscp_to_tc_map] != null)
	and ($d.TC_TO_DSCP_MAP[.tc_to_dscp_map] != null)
	and ($d.TC_TO_QUEUE_MAP[.tc_to_queue_map] != null)
	and ($d.TC_TO_PRIORITY_GROUP_MAP[.tc_to_pg_map] != null)] | all' L2.json
jcheck '[.DSCP_TO_TC_MAP[] | keys | length == 64] | all' L2.json
# the patterns of sonic-*-map.yang, sonic-port-qos-map.yang, sonic-buffer-pg.yang
jcheck '[.DSCP_TO_TC_MAP, .TC_TO_DSCP_MAP, .TC_TO_QUEUE_MAP, .TC_TO_PRIORITY_GROUP_MAP
	| keys[] | test("^[a-zA-Z0-9][-a-zA-Z0-9_]{0,31}$")] | all' L2.json
jcheck '[.DSCP_TO_TC_MAP[] | to_entries[] | (.key | test("^(6[0-3]|[1-5][0-9]?|[0-9])$"))
	and (.value | test("^([0-9]|1[0-5])$"))] | all' L2.json
jcheck '[.TC_TO_DSCP_MAP[] | to_entries[] | (.key | test("^([0-9]|1[0-5])$"))
	and (.value | test("^(6[0-3]|[1-5][0-9]?|[0-9])$"))] | all' L2.json
jcheck '[.TC_TO_QUEUE_MAP[][] | test("^[0-9]$")] | all' L2.json
jcheck '[.TC_TO_PRIORITY_GROUP_MAP[][] | test("^[0-7]$")] | all' L2.json
jcheck '[.PORT_QOS_MAP[] | .pfc_enable == "1,2" and .pfcwd_sw_enable == "1,2"] | all' L2.json
jcheck '[.BUFFER_PG | keys[] | test("^[^|]+\\|[0-7](-[0-7])?$")] | all' L2.json
jcheck '(.BUFFER_PG | length) == 8 and ([.BUFFER_PG[].profile] | unique) == ["tagger_pg_lossless_100000_5m"]' L2.json
jcheck '[.CABLE_LENGTH.AZURE[] | test("^[0-9]+m$")] | all' L2.json
jcheck '[.PFC_WD | to_entries[] | select(.key != "GLOBAL") | .value
	| .action == "drop" and (.detection_time | tonumber) >= 100] | all' L2.json
jcheck '.PFC_WD.GLOBAL == {"POLL_INTERVAL": "200"}' L2.json
# the profile from the headroom model
"$TAGGER" -j pfc headroom --rate 100gbit --frame 9118 --cable 5 --t-pro 60q >hr.json ||
	fail "pfc headroom"
hr=$(jq .headroom hr.json)
xon=$(jq .xon hr.json)
jcheck ".BUFFER_PROFILE.tagger_pg_lossless_100000_5m == {\"pool\": \"ingress_lossless_pool\",
	\"size\": \"$((hr + xon))\", \"xon\": \"$xon\", \"xoff\": \"$hr\", \"dynamic_th\": \"0\"}" L2.json
# the classes of the export are those of the maps
jcheck "([.TC_TO_PRIORITY_GROUP_MAP.TAGGER_TC_PG | keys[]] | length) == \
	$(jq '.switches.L2.classes | length' cb.maps.json)" L2.json
expect 0 -j export sonic cb.json --switch L2 --speed 40gbit --cable-length 300 \
	--pfcwd-detection-ms 150
jcheck ".switch == \"L2\" and .classes == 5 and .lossless_priorities == 2"
"$TAGGER" -j pfc headroom --rate 40gbit --frame 9118 --cable 300 --t-pro 60q >hr.json
jcheck ".headroom == $(jq .headroom hr.json)"

# Refusals and bad input.
expect 1 export sonic cb.json --switch L2 --max-classes 4
grep_err "switch L2 needs 5 traffic classes, SONiC is given at most 4"
grep_err "(T1, 0), (T1, 1), (T1, 2), (S1, 1), (S1, 2)"
expect 1 -j export sonic cb.json --switch L2 --max-classes 4
jcheck '.error | test("switch L2 needs 5")'
expect 2 export sonic cb.json
grep_err "needs --switch NAME"
expect 2 export sonic cb.json --switch X9
grep_err 'switch "X9" is not in the rules'
expect 2 export sonic cb.json --switch L2 --pfcwd-action reboot
expect 2 export sonic cb.json --switch L2 --pfcwd-detection-ms 50
expect 2 export sonic bad.json --switch L2
grep_err "bad.json:2:"
expect 2 export yaml cb.json
expect 0 export help
echo "PASS"
