#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# vmlab takes names from the user and turns them into paths it runs or
# enters as root: a scenario name must be one of vmlab/scenarios/*.sh
# ([A-Za-z0-9_-]), a node name one of the lab's nodes. Anything else
# (a relative path out of the directory, an absolute one, a name with a
# slash or a dot, an empty name) is refused with exit 2 and the list of
# valid names, and nothing runs.
source "$(dirname "$0")/../lib.sh"
require_root
VMLAB=$TOP/vmlab/vmlab
S=$TOP/vmlab/scenarios
L=${TGR_PREFIX}v
tgr_on_exit '$VMLAB -n $L down >/dev/null 2>&1'

# A script that says it ran, placed where a path can reach it.
mark=$TGR_TMP/ran
printf '#!/bin/bash\ntouch %q\n' "$mark" > "$TGR_TMP/evil.sh"
rel=$(realpath --relative-to="$S" "$TGR_TMP/evil")
for name in "$rel" "../../../../../../..$TGR_TMP/evil" "$TGR_TMP/evil" \
	"ring/../reuse" "./reuse" "reuse.sh" "fc-testbed" "" "-x" "re use" "reuse
x"; do
	rm -f "$mark"
	$VMLAB -n "$L" scenario "$name" help > "$TGR_TMP/out" 2> "$TGR_TMP/err"
	rc=$?
	[ ! -e "$mark" ] || fail "scenario \"$name\": the script outside vmlab/scenarios ran"
	[ $rc -eq 2 ] || fail "scenario \"$name\": exit $rc, not 2: $(cat "$TGR_TMP/err")"
	grep -q 'not a scenario' "$TGR_TMP/err" && grep -qw 'reuse' "$TGR_TMP/err" ||
		fail "scenario \"$name\": no message with the scenarios: $(cat "$TGR_TMP/err")"
	echo "ok: scenario \"$(printf %q "$name")\" refused (exit 2)"
done
check "a valid scenario name still works (three-flows help)" $VMLAB -n "$L" scenario three-flows help
check "scenario help lists the scenarios" sh -c "$VMLAB scenario help | grep -qx reuse"
check "no lab was brought up" [ ! -e "/run/tagger-lab/$L" ]

# exec NODE: only the lab's own nodes; "A/../../x" and the like are not
# names of its namespaces.
$VMLAB -n "$L" up "$S/ring.topo" --shortest > "$TGR_TMP/up.log" 2>&1 || fail "up: $(cat "$TGR_TMP/up.log")"
check "exec A works" $VMLAB -n "$L" exec A true
for node in "A/../../../proc/1/ns/net" "../$L-A" "" "Z" "A B"; do
	$VMLAB -n "$L" exec "$node" touch "$mark" 2> "$TGR_TMP/err"
	rc=$?
	[ ! -e "$mark" ] || fail "exec \"$node\": the command ran"
	[ $rc -eq 2 ] && grep -q 'not a node of lab' "$TGR_TMP/err" ||
		fail "exec \"$node\": exit $rc: $(cat "$TGR_TMP/err")"
	echo "ok: exec \"$node\" refused (exit 2)"
done
check "down" $VMLAB -n "$L" down
echo "PASS"
