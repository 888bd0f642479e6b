#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Lossless loss against the length of a freeze (SIGSTOP) of sw1's pause
# agent, its standby, or both, with sw1's gate toward sw2 closed, on the
# line h1 - sw1 - sw2 -20M- h2 at 60 Mbit/s: the full matrix of
# tests/shell/test_pfc_freeze.sh (0.5, 1, 3 and 10 s by default,
# BENCH_FREEZE_LENGTHS), one table per binary. BENCH_FREEZE_BASE=BINARY
# runs the same matrix on BINARY first (e.g. main's build), measuring only,
# for the before/after in Documentation/measurements.md.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
lengths=${BENCH_FREEZE_LENGTHS:-0.5 1 3 10}
out=$(mktemp -d /tmp/bench-freeze.XXXX)
trap 'rm -rf "$out"' EXIT

run() { # LABEL BINARY REPORT_ONLY
	echo "== $1 ($2)"
	TAGGER=$2 TAGGER_FREEZE_MATRIX=$lengths TAGGER_FREEZE_REPORT_ONLY=$3 \
		TAGGER_FREEZE_TABLE="$out/$1" \
		bash "$top/tests/shell/test_pfc_freeze.sh" >"$out/$1.log" 2>&1
	echo "exit $?"
	if [ -s "$out/$1" ]; then cat "$out/$1"; else tail -20 "$out/$1.log"; fi
}

[ -n "${BENCH_FREEZE_BASE:-}" ] && run before "$BENCH_FREEZE_BASE" 1
run after "${TAGGER:-$top/build/tagger}" 1
