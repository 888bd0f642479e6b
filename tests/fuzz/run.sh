#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run each libFuzzer target for FUZZ_SECONDS, seeded from
# tests/fuzz/corpus/<target>/ (copied, so the tree is never written).
set -u
secs=${FUZZ_SECONDS:-10}
rc=0
for bin in "$@"; do
	name=$(basename "$bin")
	work=$(mktemp -d)
	seeds=tests/fuzz/corpus/${name#fuzz_}
	[ -d "$seeds" ] && cp -r "$seeds"/. "$work"/
	if "$bin" -max_total_time="$secs" -max_len=4096 -timeout=10 \
		-rss_limit_mb=2048 -artifact_prefix="$work/" "$work" \
		>"$work.log" 2>&1; then
		printf '  PASS  %-28s %s\n' "$name" "$(grep -o 'Done [0-9]* runs' "$work.log" | tail -1)"
	else
		printf '  FAIL  %-28s\n' "$name"
		tail -30 "$work.log" | sed 's/^/    /'
		ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* 2>/dev/null | sed 's/^/    artifact: /'
		rc=1
	fi
	rm -rf "$work" "$work.log"
done
exit $rc
