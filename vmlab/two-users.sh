#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The rules of the priority-reuse experiment (scenario reuse): two users
# (two application classes) on one topology, every pair of hosts routed
# over the up-down and 1-bounce paths, in three schemes:
#
#   reuse    the M+N scheme of the draft's section on several application
#            classes: class n enters with tag n and goes up one tag per
#            bounce. tagger compile --classes 2 makes them: user 1 on
#            tags 1 -> 2, user 2 on 2 -> 3, three lossless priorities;
#            user 2's shortest paths share priority 2 with user 1's
#            bounced packets.
#   draft    the draft's 7.4 taken literally: user 1 on priorities 1 -> 2,
#            user 2 the reverse, 2 -> 1 on a bounce (two priorities).
#            Tags that may only grow cannot express it: a cyclic buffer
#            dependency through both users' priorities, which tagger
#            verify finds (exit 1).
#   noreuse  user 2 on priorities 3 -> 4 of its own (four priorities).
#
# draft and noreuse are user 1's compiled rules plus a copy with user 2's
# tags (two-users.jq).
#
#   two-users.sh TOPO OUTDIR HOST...
#
# HOST...: user 2's hosts (they send user 2's first tag); the others are
# user 1's. Writes OUTDIR/bounce1.elp, user1.json, and per scheme S
# S.json and S.verify.json (tagger -j verify; its exit status is not an
# error here: the verdict is the point). Exit 0, or 1 when a step failed.
set -u
[ $# -ge 3 ] || { echo "usage: two-users.sh TOPO OUTDIR HOST..." >&2; exit 2; }
D=$(cd "$(dirname "$0")" && pwd)
TAGGER=${TAGGER:-$D/../build/tagger}
topo=$1 out=$2
shift 2
users2=$(printf '%s\n' "$@" | jq -R . | jq -sc .)
mkdir -p "$out" || exit 1
"$TAGGER" paths bounce=1 "$topo" -o "$out/bounce1.elp" || exit 1
"$TAGGER" -j compile "$topo" "$out/bounce1.elp" --algorithm clos \
	--classes 2 -o "$out/reuse.json" > /dev/null || exit 1
# Class 1 is user 2's: its hosts send class 1's first tag.
jq --argjson users2 "$users2" '.classes[1].tag as $t2 |
	.hosts |= with_entries(if (.key | IN($users2[])) then .value.tag = $t2 else . end)' \
	"$out/reuse.json" > "$out/reuse.json.new" && mv "$out/reuse.json.new" "$out/reuse.json" || exit 1
"$TAGGER" -j compile "$topo" "$out/bounce1.elp" --algorithm clos \
	-o "$out/user1.json" > /dev/null || exit 1
two() {
	jq --argjson off 2 --argjson prio "$1" --argjson users2 "$users2" \
		-f "$D/two-users.jq" "$out/user1.json"
}
two '{"1": 2, "2": 1}' > "$out/draft.json" || exit 1
two '{"1": 3, "2": 4}' > "$out/noreuse.json" || exit 1
for s in reuse draft noreuse; do
	"$TAGGER" -j verify "$topo" "$out/bounce1.elp" "$out/$s.json" > "$out/$s.verify.json"
	[ $? -le 1 ] || exit 1
done
exit 0
