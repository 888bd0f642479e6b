#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every pointer into a document that a script prints, written
# FILE, "## Heading" (FILE a path from the top of the tree, or README for
# README.md), names a heading that exists in that file, at that level:
# `make demo` once sent its readers to README's "### vmlab" long after that
# section had moved to vmlab/README.md.
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
