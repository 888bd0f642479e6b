#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tagger pfc agent's ECN settings (tagger-pfc(8), On each port: ECN): every bad one is
# refused before anything is set up, exit 2, with the option named. (The
# marking itself: the "ecn" case of the pfc_bpf suite.)
source "$(dirname "$0")/../lib.sh"
cd "$TGR_TMP" || exit 1
T=$TAGGER

# refused WHAT EXPECT ARGS...: exit 2 and EXPECT on standard error.
refused() {
	local what=$1 expect=$2 rc=0
	shift 2
	$T pfc agent n p=lo "$@" >out 2>err || rc=$?
	[ "$rc" = 2 ] || fail "$what: exit $rc, not 2"
	grep -qF -- "$expect" err || fail "$what: no \"$expect\" in: $(head -1 err)"
	echo "ok: $what: exit 2, $(head -1 err)"
}

refused "Kmin above Kmax" "--ecn-kmin: 30720 B is above --ecn-kmax 20480 B (priority 3)" \
	--ecn-kmin 30k --ecn-kmax 20k
refused "Kmin above Kmax of one priority" "(priority 4)" \
	--ecn-kmin 4:30k --ecn-kmax 20k
refused "Kmax at XOFF" "--ecn-kmax: 30720 B is not below XOFF 30720 B (priority 3)" \
	--xoff 30k --ecn-kmax 30k
refused "Kmax above the default XOFF" "--ecn-kmax: 1048576 B is not below XOFF" \
	--ecn-kmax 1m
refused "Pmax above 100" '--ecn-pmax: bad value "101"' --ecn-pmax 101
refused "Pmax of one priority above 100" '--ecn-pmax: bad value "3:50,4:101"' \
	--ecn-kmax 5k --ecn-pmax 3:50,4:101
refused "Pmax not a number" '--ecn-pmax: bad value "x"' --ecn-pmax x
refused "Kmin without Kmax" "--ecn-kmin: priority 3 has no --ecn-kmax" --ecn-kmin 10k
refused "Kmax not a size" '--ecn-kmax: bad value "lots"' --ecn-kmax lots
