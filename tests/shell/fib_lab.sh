#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Sourced by the tests of the routing's paths (test_paths_fib.sh,
# test_paths_watch.sh): vmlab's Clos of namespaces and an inventory of its
# switches. Sets VMLAB (the lab tool) and S (its scenarios: clos.topo).
# shellcheck disable=SC2034
VMLAB=$TOP/vmlab/vmlab
S=$TOP/vmlab/scenarios

# inventory LAB [KEY=VALUE...]: every switch of the Clos in LAB's namespaces.
inventory() {
	local lab=$1 s; shift
	echo "[clos]"
	for s in $(awk '$1 == "switch" { print $2 }' "$S/clos.topo"); do
		echo "$s tagger_netns=$lab-$s $*" | sed "s/@SW@/$s/g"
	done
	echo "[clos:vars]"
	echo "tagger_timeout=10"
}
