#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every option of every command's option table has its one-line help and
# is listed in the command's help, and is in the OPTIONS of its man page,
# with an enum's values in its own entry, and every option a page's
# OPTIONS name is in a table of that object; the bash completion offers
# each command's options and enum values, no more (tools/check-man-options.py
# reads the tables through $TAGGER_OPTS_TABLE). Then the same check must
# fail on a copy of the pages with one option taken out, one made up and
# one enum value moved to another option's entry, on a copy of the
# completion with an option made up and a value left out, and on a tagger
# whose help drops an option and adds one, and whose table lacks a help.
source "$(dirname "$0")/../lib.sh"

python3 "$TOP/tools/check-man-options.py" "$TAGGER" ||
	fail "option tables and man pages disagree (see above)"

cp -r "$TOP/Documentation" "$TGR_TMP/docs"
sed -i -e '/^``--slow-pause``$/,+1d' \
	-e 's/^``--trace`` \*FILE\*$/``--trace`` *FILE*, ``--made-up``/' \
	-e 's/^``--backend`` auto|mqprio|htb|dcb$/``--backend`` auto|mqprio|dcb/' \
	-e 's/^    WRR weights of the 8 priorities\.$/    WRR weights (htb too)./' \
	"$TGR_TMP/docs/tagger-pfc.8.rst"
out=$(python3 "$TOP/tools/check-man-options.py" "$TAGGER" "$TGR_TMP/docs") &&
	fail "the check passes pages that lack --slow-pause"
grep -q 'takes --slow-pause but the OPTIONS' <<<"$out" ||
	fail "a missing --slow-pause is not named: $out"
grep -q 'document --made-up but no option table' <<<"$out" ||
	fail "a made-up --made-up is not named: $out"
grep -q -- '--backend takes htb but its entry' <<<"$out" ||
	fail "an enum value in another option's entry passes: $out"

cp "$TOP/bash-completion/tagger" "$TGR_TMP/completion"
sed -i -e 's/^\(\ttopo:clos)\techo "\)--pods /\1--pods --made-up /' \
	-e 's/^\(\tpfc:--sched) echo\) "wrr strict"/\1 "wrr"/' \
	"$TGR_TMP/completion"
out=$(python3 "$TOP/tools/check-man-options.py" "$TAGGER" \
	"$TOP/Documentation" "$TGR_TMP/completion") &&
	fail "the check passes a completion with a made-up option"
grep -q 'completes --made-up for `tagger topo clos`' <<<"$out" ||
	fail "a made-up completion is not named: $out"
grep -q -- '--sched takes strict but .* does not complete it' <<<"$out" ||
	fail "a value the completion lacks is not named: $out"
# A help that leaves out an option of its table or lists one no table
# has, and a table option without its help, fail: a tagger whose stats
# help lost --top and gained --made-up, and whose verify table says
# --max-problems has no help.
cat >"$TGR_TMP/tagger" <<EOF
#!/usr/bin/env bash
if [ "\$*" = "stats help" ]; then
	"$TAGGER" stats help 2>&1 | sed -e '/^  --top /d' >&2
	echo "  --made-up N  nothing" >&2
	exit 0
fi
if [ -n "\${TAGGER_OPTS_TABLE:-}" ] && [ "\$1" = verify ]; then
	"$TAGGER" "\$@" && echo "nohelp --max-problems"
	exit
fi
exec "$TAGGER" "\$@"
EOF
chmod +x "$TGR_TMP/tagger"
out=$(python3 "$TOP/tools/check-man-options.py" "$TGR_TMP/tagger") &&
	fail "the check passes a help without --top"
grep -q 'tagger stats help` does not list --top' <<<"$out" ||
	fail "a help that lacks --top is not named: $out"
grep -q 'tagger stats help` lists --made-up in its OPTIONS but no' <<<"$out" ||
	fail "a help option no table has is not named: $out"
grep -q -- '--max-problems has no help in its option table' <<<"$out" ||
	fail "a table option without help is not named: $out"
echo "ok: option tables, help OPTIONS, man page OPTIONS and completion agree; drift is caught"
