#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every pointer into a document that a script prints, written
# FILE, "## Heading" (FILE a path from the top of the tree, or README for
# README.md), names a heading that exists in that file, at that level:
# `make demo` once sent its readers to README's "### vmlab" long after that
# section had moved to vmlab/README.md. And every pointer into a man page
# section, tagger-OBJ(8), SECTION, in the scripts and the Markdown
# documents, names a section of Documentation/tagger-OBJ.8.rst.
source "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 2

# The scripts: whatever the tree tracks that runs and prints.
mapfile -t files < <(git ls-files '*.sh' '*.inc' '*.py' '*.c' Makefile vmlab/vmlab 2>/dev/null)
[ ${#files[@]} -gt 0 ] || skip "not a git checkout: no list of tracked files"
grep -noE '([A-Za-z0-9_./-]+\.md|README), "#+ [^"]+"' "${files[@]}" > "$TGR_TMP/pointers"
cat "$TGR_TMP/pointers"
check "the demo's pointer is among those found" grep -q '^vmlab/demo.sh:' "$TGR_TMP/pointers"

bad=0
while IFS= read -r line; do
	where=${line%%:*}:$(cut -d: -f2 <<< "$line")
	ptr=${line#*:*:}
	doc=${ptr%%, \"*}
	heading=${ptr#*, \"}
	heading=${heading%\"}
	[ "$doc" = README ] && doc=README.md
	if [ ! -f "$doc" ]; then
		echo "FAIL: $where points to $doc, which does not exist"
		bad=$((bad + 1))
	elif ! grep -qxF -- "$heading" "$doc"; then
		echo "FAIL: $where points to \"$heading\" in $doc, which has no such heading"
		bad=$((bad + 1))
	fi
done < "$TGR_TMP/pointers"
check "every printed pointer names an existing heading ($(wc -l < "$TGR_TMP/pointers") found)" [ "$bad" = 0 ]

# Man page sections: a line of capitals underlined with = in the page.
mapfile -t docs < <(git ls-files '*.md' 2>/dev/null)
grep -noE 'tagger-[a-z]+\(8\), [A-Z][A-Z -]*[A-Z]\b' "${files[@]}" "${docs[@]}" |
	grep -v "^tests/shell/test_lab_pointers.sh:" > "$TGR_TMP/sections"
cat "$TGR_TMP/sections"
check "the demo's man page pointer is among those found" grep -q '^vmlab/demo.sh:.*tagger-lab(8), VERDICTS' "$TGR_TMP/sections"
bad=0
while IFS= read -r line; do
	ptr=${line#*:*:}
	page=Documentation/${ptr%%(*}.8.rst
	section=${ptr#*, }
	if ! awk -v s="$section" 'prev == s && /^=+$/ { f = 1 } { prev = $0 } END { exit !f }' "$page" 2>/dev/null; then
		echo "FAIL: ${line%:*}: no section \"$section\" in $page"
		bad=$((bad + 1))
	fi
done < "$TGR_TMP/sections"
check "every man page section pointed at exists ($(wc -l < "$TGR_TMP/sections") found)" [ "$bad" = 0 ]
