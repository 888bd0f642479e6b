#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The CPU cost per packet of ECN marking in the pause programs' ingress
# (tagger-pfc(8), On each port: ECN), as a ratio to the same program without ECN,
# measured in one run: build/bench/pfc_ecn_bench, in a network namespace
# of its own (root; skips otherwise). CALLS (default 200000) test runs per
# program and round, ROUNDS (default 5).
set -u
cd "$(dirname "$0")/../.." || exit 1
[ "$(id -u)" -eq 0 ] || { echo "bench_pfc_ecn: needs root, skipped"; exit 0; }
[ -x build/bench/pfc_ecn_bench ] || make -s build/bench/pfc_ecn_bench >/dev/null || exit 1
echo "-- ECN marking per packet (BPF_PROG_TEST_RUN, one run a call)"
build/bench/pfc_ecn_bench "${CALLS:-200000}" "${ROUNDS:-5}"
