#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The fabric tests' lab, sourced after tests/lib.sh and dp_lab.sh: the
# 4-switch ring of "tagger topo ring 4", each switch a namespace with its
# ports eth1 and eth2 (veth pairs: attach needs interfaces, not links),
# and rule sets compiled for it in $TGR_TMP:
#   v1.json   compiled from ring.topo
#   v2.json   the same paths, other DSCP codepoints: its union with v1 is
#             deadlock-free (no tag of one is lossless in the other)
#   v3.json   compiled from the ring listed in another order: the tag
#             bumps at other switches, and its union with v1 is cyclic
#   off.json  v3 without any lossless classification: an intermediate
#             whose unions with v1 and with v3 are both deadlock-free
#   inv       the inventory (tagger_netns), inventory order sw1..sw4
FAB_SW="sw1 sw2 sw3 sw4"

fab_lab_up() {
	local s
	dp_bpffs_up
	for s in $FAB_SW; do dp_dummies "$s" eth1 eth2; done
	"$TAGGER" topo ring 4 -o "$TGR_TMP/ring.topo" || fail "topo"
	"$TAGGER" paths ecmp "$TGR_TMP/ring.topo" -o "$TGR_TMP/ring.elp" || fail "paths"
	"$TAGGER" compile "$TGR_TMP/ring.topo" "$TGR_TMP/ring.elp" \
		-o "$TGR_TMP/v1.json" 2>/dev/null || fail "compile v1"
	"$TAGGER" compile "$TGR_TMP/ring.topo" "$TGR_TMP/ring.elp" --dscp 10,11,12 \
		-o "$TGR_TMP/v2.json" 2>/dev/null || fail "compile v2"
	printf '%s\n' 'switch sw3' 'switch sw4' 'switch sw1' 'switch sw2' \
		'link sw3:eth2 sw4:eth1' 'link sw4:eth2 sw1:eth2' \
		'link sw1:eth1 sw2:eth1' 'link sw2:eth2 sw3:eth1' >"$TGR_TMP/ring3.topo"
	"$TAGGER" compile "$TGR_TMP/ring3.topo" "$TGR_TMP/ring.elp" \
		-o "$TGR_TMP/v3.json" 2>/dev/null || fail "compile v3"
	# The links in v1's order: v3 is rules of the same topology.
	python3 - "$TGR_TMP" <<'PY' || fail "making v3 and off"
import json, sys
d = sys.argv[1]
v1 = json.load(open(d + "/v1.json"))
v3 = json.load(open(d + "/v3.json"))
v3["links"] = v1["links"]
for n, s in v3["switches"].items():
    s["ports"] = v1["switches"][n]["ports"]
json.dump(v3, open(d + "/v3.json", "w"))
for s in v3["switches"].values():
    s["classify"] = []
json.dump(v3, open(d + "/off.json", "w"))
PY
	{
		echo "# the ring, a namespace a switch"
		echo "[ring]"
		for s in $FAB_SW; do
			echo "$s tagger_netns=$(ns_name "$s") tagger_bpf_root=$TAGGER_BPF_ROOT"
		done
	} >"$TGR_TMP/inv"
}

# fab_attach RULES SWITCH...: attach (or update, if attached) there.
fab_set() {
	local r=$1 s
	shift
	for s in "$@"; do
		if tgr "$s" switch show "$s" >/dev/null 2>&1; then
			tgr "$s" switch update "$s" "$r" >/dev/null || return 1
		else
			tgr "$s" switch attach "$s" "$r" >/dev/null || return 1
		fi
	done
}
