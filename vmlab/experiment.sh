#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Shared by the experiments that compare schemes over repeated trials
# (scenarios reuse, hierarchy, hops): the options, one run of a scheme in
# a lab of its own, medians. Sourced after scenario.sh.
#
#   ex_args "$@"          --trials N, --out DIR, --lab NAME, help; sets
#                         EX_TRIALS, SC_OUT; the rest is left in EX_REST
#   ex_setup              root check, lab name, output dir, exit traps
#   ex_run DIR            sc_run_mode tagger with SC_OUT=DIR (so the run
#                         is in DIR/tagger) in a subshell that takes its
#                         lab down, even on failure; returns its status
#   ex_median             stdin: a JSON array of numbers (nulls ignored);
#                         prints the median or null (a jq function too:
#                         def median, in EX_JQ)
set -u

EX_JQ='def median: map(select(. != null)) | sort |
	if length == 0 then null elif length % 2 == 1 then .[length / 2 | floor]
	else (.[length / 2 - 1] + .[length / 2]) / 2 end;
	def r1: if . == null then null else . * 10 | round / 10 end;
	def r2: if . == null then null else . * 100 | round / 100 end;'

ex_args() {
	EX_TRIALS=${EX_TRIALS:-3}
	EX_REST=()
	while [ $# -gt 0 ]; do
		case $1 in
		--trials) EX_TRIALS=$2; shift ;;
		--out) SC_OUT=$2; shift ;;
		--lab) LAB_NAME=$2; shift ;;
		help|-h|--help)
			sed -n '/^#   vmlab scenario/,/^$/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 0 ;;
		*) EX_REST+=("$1") ;;
		esac
		shift
	done
	[[ $EX_TRIALS =~ ^[1-9][0-9]{0,2}$ ]] || { echo "--trials: 1 to 999, not \"$EX_TRIALS\"" >&2; exit 2; }
}

ex_setup() {
	[ "$(id -u)" -eq 0 ] || { echo "vmlab: scenarios need root" >&2; exit 2; }
	SC_OUT=${SC_OUT:-$TOP/vmlab/out/$SC_NAME}
	lab_init "${LAB_NAME:-$SC_NAME}" || exit 2
	trap 'lab_down_mine' EXIT
	trap 'exit 130' INT TERM
	mkdir -p "$SC_OUT"
	# The machine's load while the experiment ran goes with its numbers
	# (kept when only the report is made again: EX_REPORT=1).
	[ "${EX_REPORT:-0}" = 1 ] || cut -d' ' -f1-3 /proc/loadavg > "$SC_OUT/load-before"
}

ex_run() {
	local dir=$1
	rm -rf "$dir"
	( trap 'lab_down_mine' EXIT; SC_OUT=$dir; export LAB_QUIET=1; sc_run_mode tagger ) >/dev/null 2>&1
	local rc=$?
	lab_init "${LAB_NAME:-$SC_NAME}"
	return $rc
}

ex_median() { jq "$EX_JQ"' median'; }

# The load average at the start and end, for the table's footer.
ex_load() {
	[ "${EX_REPORT:-0}" = 1 ] || cut -d' ' -f1-3 /proc/loadavg > "$SC_OUT/load-after"
	echo "load average (1, 5, 15 min) before: $(cat "$SC_OUT/load-before"), after: $(cat "$SC_OUT/load-after"); $(nproc) cores"
}
