#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034  # the SC_* settings are read by vmlab/scenario.sh
# Scenario 5: randomized failures. Routes follow every up-down path of the
# Clos (ECMP); each trial starts FLOWS random host-to-host flows at 60% of
# the link rate, fails K random switch-to-switch links 1.5 s after every
# flow arrives, one after the other (the switches in front of them reroute
# locally, which makes bounces), lets the senders run for the observation
# window (SC_WINDOW) and asks whether the network deadlocked. The
# same trials (same seed) run without and with Tagger (rules from the
# up-down + 1-bounce ELP); the table counts deadlocks and lossless drops.
#
#   vmlab scenario random-failures [plain|tagger|both] [--trials N] [--links K]
#                                  [--flows F] [--seed S] [--out DIR]
D=$(cd "$(dirname "$0")" && pwd)
SC_NAME=${SC_NAME:-random-failures}
SC_TOPO=${SC_TOPO:-$D/clos.topo}
SC_ELP_KIND=bounce=1
SC_ALGO=clos
SC_AFTER=${SC_AFTER:-2}
SC_READY=${SC_READY:-flowing}
source "$D/../scenario.sh"

trials=10 links=3 nflows=8 seed=1 modes=both
args=()
while [ $# -gt 0 ]; do
	case $1 in
	--trials) trials=$2; shift ;;
	--links) links=$2; shift ;;
	--flows) nflows=$2; shift ;;
	--seed) seed=$2; shift ;;
	plain|tagger|both) modes=$1 ;;
	--out) SC_OUT=$2; shift ;;
	--lab) LAB_NAME=$2; shift ;;
	help|-h|--help)
		sed -n '/^#   vmlab scenario/,/^$/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 0 ;;
	*) echo "What is \"$1\"?" >&2; exit 2 ;;
	esac
	shift
done
[ "$(id -u)" -eq 0 ] || { echo "vmlab: scenarios need root" >&2; exit 2; }
[ "$modes" = both ] && modes="plain tagger"
SC_OUT=${SC_OUT:-$TOP/vmlab/out/$SC_NAME}
lab_init "${LAB_NAME:-rf}" || exit 2
trap 'lab_down_mine' EXIT
trap 'exit 130' INT TERM
mkdir -p "$SC_OUT"
"$TAGGER" paths updown "$SC_TOPO" -o "$SC_OUT/routes.elp" || exit 1
SC_ROUTES=$SC_OUT/routes.elp
mapfile -t hosts < <(awk '$1 == "host" { print $2 }' "$SC_TOPO")
# Switch-to-switch links, by one end's NODE:PORT.
mapfile -t fabric < <(awk '$1 == "switch" { sw[$2] } $1 == "link" {
	split($2, a, ":"); split($3, b, ":"); if ((a[1] in sw) && (b[1] in sw)) print $2 }' "$SC_TOPO")

RANDOM=$seed
for t in $(seq "$trials"); do
	flows='' events=''
	for i in $(seq "$nflows"); do
		s=${hosts[RANDOM % ${#hosts[@]}]}
		while d=${hosts[RANDOM % ${#hosts[@]}]}; [ "$d" = "$s" ]; do :; done
		flows+="$i $s $d ${SC_MBIT:-60}"$'\n'
	done
	picked=()
	while [ ${#picked[@]} -lt "$links" ]; do
		l=${fabric[RANDOM % ${#fabric[@]}]}
		[[ " ${picked[*]} " == *" $l "* ]] || picked+=("$l")
	done
	for l in "${picked[@]}"; do events+="1.5 fail $l"$'\n'; done
	SC_FLOWS=$flows SC_EVENTS=$events
	for m in $modes; do
		SC_OUT_BASE=$SC_OUT/trial-$t
		# The trial's lab is the subshell's: it takes it down, even on
		# failure, and never one it did not bring up.
		( trap 'lab_down_mine' EXIT; SC_OUT=$SC_OUT_BASE; LAB_QUIET=1; sc_run_mode "$m" ) >/dev/null 2>&1 ||
			echo "trial $t $m: run failed" >&2
		[ "$m" = tagger ] && [ -z "${SC_RULES:-}" ] && [ -f "$SC_OUT_BASE/tagger/rules.json" ] &&
			{ cp "$SC_OUT_BASE/tagger/rules.json" "$SC_OUT/rules.json"; SC_RULES=$SC_OUT/rules.json; }
		lab_init "${LAB_NAME:-rf}"
	done
	printf 'trial %2d: fail %-22s flows %-40s' "$t" "${picked[*]}" "$(echo "$flows" | awk 'NF { printf "%s->%s ", $2, $3 }')"
	for m in $modes; do
		v=$SC_OUT/trial-$t/$m/verdict.json
		[ -f "$v" ] && printf ' %s:%s' "$m" "$(jq -r 'if .deadlock == null then "NO-VERDICT" elif .deadlock then "DEADLOCK" else "ok" end' "$v")"
	done
	echo
	# Both modes of a trial as summary.json, table and plot of their own.
	bash "$VMLAB_DIR/report.sh" "$SC_OUT/trial-$t" > "$SC_OUT/trial-$t/table.txt" 2>/dev/null
done

# Per-mode totals.
for m in $modes; do
	for t in $(seq "$trials"); do
		d=$SC_OUT/trial-$t/$m
		[ -f "$d/verdict.json" ] || continue
		jq -c --arg m "$m" --argjson t "$t" --slurpfile p "$d/pfc.json" \
			'{mode: $m, trial: $t, deadlock, no_verdict_because, cycle,
			  lossless_drops: ($p[0].lossless_drops // null),
			  failed_link_losses: ($p[0].failed_link_losses // null)}' "$d/verdict.json"
	done
done | jq -s '{trials: (map(.trial) | max), seed: '"$seed"', links: '"$links"', flows: '"$nflows"',
	by_mode: (group_by(.mode) | map({key: .[0].mode, value: {
		runs: length, deadlocks: (map(select(.deadlock == true)) | length),
		no_verdict: (map(select(.deadlock == null)) | length),
		lossless_drops: (map(.lossless_drops // 0) | add),
		failed_link_losses: (map(.failed_link_losses // 0) | add)}}) | from_entries),
	runs: .}' > "$SC_OUT/summary.json"
echo
jq -r '.by_mode | to_entries[] | "\(if .key == "plain" then "without Tagger" else "with Tagger   " end): \(.value.deadlocks) of \(.value.runs) trials deadlocked (\(.value.no_verdict) without a verdict), \(.value.lossless_drops) lossless drops, \(.value.failed_link_losses) packets lost with failed links"' "$SC_OUT/summary.json"
echo "per trial: $SC_OUT/trial-N/ (table.txt, summary.json, throughput.png); totals: $SC_OUT/summary.json"
