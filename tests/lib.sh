#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Shared by tests/shell/test_*.sh: a per-run name prefix, namespaces that
# are always removed (on success, failure or signal), skips and checks.
#
#   source "$(dirname "$0")/../lib.sh"
#   require_root; ns_new sw1; ns_exec sw1 ip link ...; check "what" cmd ...
#
# Exit 249 means SKIPPED (xdp-tools convention); tests/run.sh counts it.
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TAGGER=${TAGGER:-$TOP/build/tagger}
# A text renderer that reads a field its JSON lacks aborts (lib/json_get.h).
export TAGGER_STRICT_FIELDS=1
# Namespace names: tgr<4 hex>-<name>; two runs never collide.
TGR_PREFIX=${TGR_PREFIX:-tgr$(printf '%04x' $(( (RANDOM << 1 ^ $$) & 0xffff )))}
TGR_TMP=$(mktemp -d /tmp/"$TGR_PREFIX".XXXX)
_tgr_ns=()
_tgr_pids=()
_tgr_on_exit=()

skip() { echo "SKIP: $*"; exit 249; }
fail() { echo "FAIL: $*" >&2; exit 1; }
require_root() { [ "$(id -u)" -eq 0 ] || skip "needs root"; }
require_cmd() { command -v "$1" >/dev/null 2>&1 || skip "needs $1"; }
# vm_kernel_dir: the unpacked Debian kernel of the VM mode (vmlab/vm.sh),
# whose modules a guest loads; else why not, and 1:
#   kdir=$(vm_kernel_dir) || skip "$kdir"
vm_kernel_dir() {
	local info d
	info=$(bash "$TOP/vmlab/vm.sh" info 2>&1) || { echo "no VM kernel: $info"; return 1; }
	d=$(awk '/^cache/ { print $2 }' <<<"$info")/root
	[ -d "$d/lib/modules" ] || { echo "no unpacked VM kernel modules in $d"; return 1; }
	echo "$d"
}

ns_name() { echo "$TGR_PREFIX-$1"; }
ns_new() {
	ip netns add "$(ns_name "$1")" || fail "ip netns add $1"
	_tgr_ns+=("$(ns_name "$1")")
	ip -n "$(ns_name "$1")" link set lo up
}
ns_exec() { local n=$1; shift; ip netns exec "$(ns_name "$n")" "$@"; }
bg_track() { _tgr_pids+=("$1"); }

check() {
	local what=$1; shift
	if "$@"; then echo "ok: $what"; else fail "$what"; fi
}

# tgr_on_exit CMD: run CMD (a shell string) when the test ends, however it
# ends, before the namespaces go; the last registered runs first. One EXIT
# trap for everything, so no helper can replace another's cleanup.
tgr_on_exit() { _tgr_on_exit+=("$1"); }

tgr_cleanup() {
	local p n i
	for ((i = ${#_tgr_on_exit[@]} - 1; i >= 0; i--)); do
		eval "${_tgr_on_exit[i]}"
	done
	for p in "${_tgr_pids[@]}"; do kill -- "-$p" 2>/dev/null || kill "$p" 2>/dev/null; done
	for n in "${_tgr_ns[@]}"; do ip netns pids "$n" 2>/dev/null | xargs -r kill -9 2>/dev/null; done
	for n in "${_tgr_ns[@]}"; do ip netns del "$n" 2>/dev/null; done
	rm -rf "$TGR_TMP"
}
trap tgr_cleanup EXIT
trap 'exit 130' INT TERM
