#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# clos-bounce on a busy machine: three runs while two CPU-bound loops
# compete with the lab for the CPUs, each held to the same claims as
# test_lab_clos_bounce (the scenario clock waits for the flows and the
# failures, so a slower machine stretches the run, not the window).
# About 4 minutes, so not part of make test: CI runs it (.ci/run) after
# make test, as does `bash tests/shell/slow_lab_clos_bounce_load.sh`.
source "$(dirname "$0")/../lab_lib.sh"
for _ in 1 2; do
	sh -c 'while :; do :; done' &
	bg_track $!
done
for run in 1 2 3; do
	echo "== run $run (two busy loops)"
	run_scenario clos-bounce both
	# run_scenario writes to $OUT/clos-bounce: keep each run's results.
	mv "$OUT/clos-bounce" "$OUT/run-$run"
	check_clos_bounce "run-$run"
done
lab_end
