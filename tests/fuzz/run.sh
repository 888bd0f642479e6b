#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run each libFuzzer target for FUZZ_SECONDS, seeded from
# tests/fuzz/corpus/<target>/ (copied, so the tree is never written), with
# the words of tests/fuzz/tagger.dict. A failing target's crash, leak,
# timeout or oom inputs and its log are kept in build/fuzz/artifacts/ (the
# work directory is removed), so a CI failure leaves a reproducer:
#	build/fuzz/fuzz_topo build/fuzz/artifacts/fuzz_topo-crash-...
set -u
secs=${FUZZ_SECONDS:-10}
dict=tests/fuzz/tagger.dict
keep=build/fuzz/artifacts
rc=0
for bin in "$@"; do
	name=$(basename "$bin")
	work=$(mktemp -d)
	seeds=tests/fuzz/corpus/${name#fuzz_}
	[ -d "$seeds" ] && cp -r "$seeds"/. "$work"/
	if "$bin" -max_total_time="$secs" -max_len=4096 -timeout=10 \
		-rss_limit_mb=2048 -dict="$dict" -artifact_prefix="$work/" "$work" \
		>"$work.log" 2>&1; then
		printf '  PASS  %-28s %s\n' "$name" "$(grep -o 'Done [0-9]* runs' "$work.log" | tail -1)"
	else
		printf '  FAIL  %-28s\n' "$name"
		tail -30 "$work.log" | sed 's/^/    /'
		mkdir -p "$keep"
		cp "$work.log" "$keep/$name.log"
		for a in "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-*; do
			[ -e "$a" ] || continue
			cp "$a" "$keep/$name-$(basename "$a")"
			echo "    artifact: $keep/$name-$(basename "$a")"
		done
		rc=1
	fi
	rm -rf "$work" "$work.log"
done
exit $rc
