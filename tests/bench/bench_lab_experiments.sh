#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The Tagger draft's evaluation experiments in the namespace lab (root;
# skips otherwise), short versions, each printing its table (medians over
# its trials, with the load average it ran under):
#   reuse      M+N priority reuse between two users (3 priorities) vs four (7.4)
#   hops       a flow through 1..3 tagging hops, with and without Tagger (7.3.2)
#   hierarchy  1-bounce lossless / lossy / shortest only, random failures (7.5)
# About 6-10 minutes on 2 shared cores. The full runs whose numbers are in
# Documentation/measurements.md: vmlab/vmlab scenario NAME (defaults).
# BENCH_TRIALS=N repeats more.
set -u
cd "$(dirname "$0")/../.." || exit 1
[ "$(id -u)" -eq 0 ] || { echo "bench_lab_experiments: needs root, skipped"; exit 0; }
TGR_PREFIX=tgrx$(printf "%04x" $((RANDOM)))
export TGR_PREFIX
source tests/lib.sh
n=${BENCH_TRIALS:-2}
lab=${TGR_PREFIX}e
tgr_on_exit '"$TOP/vmlab/vmlab" -n "$lab" down'
rc=0
run() {
	echo "-- $*"
	bash "$TOP/vmlab/vmlab" scenario "$@" --lab "$lab" --out "$TGR_TMP/$1" | grep -v '^trial ' || rc=1
	echo
}
run reuse --trials "$n"
run hops --trials "$n" --max 3
run hierarchy --trials "$n"
exit $rc
