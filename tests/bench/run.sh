#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bench: run every tests/bench/bench_*.sh (or those named in BENCH="a b").
# Each prints its own table; numbers are ratios measured within one run.
set -u
cd "$(dirname "$0")/../.." || exit 1
rc=0
for b in tests/bench/bench_*.sh; do
	name=$(basename "$b" .sh); name=${name#bench_}
	if [ -n "${BENCH:-}" ] && ! [[ " $BENCH " == *" $name "* ]]; then
		continue
	fi
	echo "== bench $name"
	bash "$b" || { echo "bench $name failed"; rc=1; }
done
exit $rc
