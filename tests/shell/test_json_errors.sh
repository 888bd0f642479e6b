#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Under -j every failure is one JSON document {"error": ...} on stdout, the
# same text as the "file:line: message" on stderr: usage errors, and bad
# topology, ELP and rules input; invalid UTF-8 in the message still makes
# valid JSON.
source "$(dirname "$0")/../lib.sh"
require_cmd jq
cd "$TGR_TMP" || exit 1
T=$TAGGER

$T topo clos -o clos.topo
$T paths updown clos.topo -o up.elp
$T compile clos.topo up.elp -o up.json 2>/dev/null
printf 'switch a\nswitch b\0\n' >nul.topo
printf 'h1 T1\0 L1\n' >nul.elp
printf '{"format": "tagger-rules/2"}\n' >bad.json

# cmd, then the error text expected on stdout (a prefix), exit 2 always
one_error() {
	local want=$1; shift
	"$T" -j "$@" >out.json 2>err.txt
	local rc=$?
	test $rc = 2 || { echo "exit $rc, want 2: $*" >&2; return 1; }
	test "$(wc -l <out.json)" = 1 || { echo "not one line: $*" >&2; cat out.json >&2; return 1; }
	jq -e --arg w "$want" '.error | startswith($w)' out.json >/dev/null || {
		echo "got $(cat out.json), want $want: $*" >&2; return 1; }
	grep -qF "$want" err.txt
}

check "missing rules file" one_error "/nonexistent: cannot open" stats /nonexistent
check "missing topology" one_error "/nonexistent: cannot open" paths shortest /nonexistent
check "topology NUL byte" one_error "nul.topo:2: NUL byte" paths shortest nul.topo
check "ELP NUL byte" one_error "nul.elp:1: NUL byte" compile clos.topo nul.elp
printf 'h1 X\n' >unk.elp
check "ELP unknown node" one_error 'unk.elp:1: unknown node "X"' cbd clos.topo unk.elp
check "rules semantic error" one_error "bad.json: format: must be" stats bad.json
$T topo ring 4 -o ring.topo; $T paths ecmp ring.topo -o ring.elp
check "rules that do not fit the topology" \
	one_error 'up.json: switches.S1: no node' verify ring.topo ring.elp up.json
$T -j $'bo\xffgus' >out.json 2>/dev/null
check "invalid UTF-8 in an error: valid JSON" \
	test "$(jq -r .error out.json)" = 'What is "bo?gus"?'
exit 0
