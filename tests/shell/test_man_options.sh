#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every option of every command's option table is in the OPTIONS of its man
# page, with an enum's values, and every option a page's OPTIONS name is in
# a table of that object (tools/check-man-options.py reads the tables
# through $TAGGER_OPTS_TABLE). Then the same check must fail on a copy of
# the pages with one option taken out and one made up.
source "$(dirname "$0")/../lib.sh"

python3 "$TOP/tools/check-man-options.py" "$TAGGER" ||
	fail "option tables and man pages disagree (see above)"

cp -r "$TOP/Documentation" "$TGR_TMP/docs"
sed -i -e '/^``--slow-pause``$/,+1d' \
	-e 's/^``--trace`` \*FILE\*$/``--trace`` *FILE*, ``--made-up``/' \
	"$TGR_TMP/docs/tagger-pfc.8.rst"
out=$(python3 "$TOP/tools/check-man-options.py" "$TAGGER" "$TGR_TMP/docs") &&
	fail "the check passes pages that lack --slow-pause"
grep -q 'takes --slow-pause but the OPTIONS' <<<"$out" ||
	fail "a missing --slow-pause is not named: $out"
grep -q 'document --made-up but no option table' <<<"$out" ||
	fail "a made-up --made-up is not named: $out"
echo "ok: option tables and man page OPTIONS agree; drift is caught"
