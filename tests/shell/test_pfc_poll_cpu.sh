#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A polling agent moves off the CPU whose softirq drains its paused buffer
# (userspace/pfc/pfc_cpu.h), and gives its CPU set back. Line h1 - sw1 -
# sw2 -20M- h2 with a 60 Mbit/s lossless flow, so that sw2 pauses sw1 and
# sw1 pauses h1, again and again:
#   - sw1's agent traces where it saw its XON crossings (P lines) and that
#     it moved off the draining CPU while polling (M lines);
#   - once the flow is over its CPU set is the one it started with;
#   - an agent the user confined to one CPU (taskset) stays on it: no move,
#     the set unchanged;
#   - no lossless packet is lost either way.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/pfc_lib.sh"
require_root
require_cmd python3
require_cmd taskset
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"

# The CPU set of a process's main thread (the one that polls).
cpus() { awk '/^Cpus_allowed_list/ { print $2 }' "/proc/$1/task/$1/status"; }
kinds() { awk -v k="$2" '$1 == k { n++ } END { print n + 0 }' "$1"; }
# Lossless drops of the switches: where lost packets went, if any.
drops() { echo "switch drops $(pfc_json sw1 "d['totals']['lossless_drops']")" \
	"+ $(pfc_json sw2 "d['totals']['lossless_drops']")"; }

pfc_line
pfc_agent h1 p=h1-sw1
pfc_agent sw1 p1=sw1-h1 p2=sw1-sw2 --trace "$TGR_TMP/sw1.trace"
pfc_agent sw2 p1=sw2-sw1 p2=sw2-h2@20mbit
pfc_agent h2 p=h2-sw2
pid=$(cat "$PFC_DIR/sw1/pid")
before=$(cpus "$pid")

pfc_flow 3 60
pfc_show sw1 >/dev/null	# its tick flushes the trace
echo "lossless sent $(pfc_sent) got $(pfc_got) ($(drops)); sw1: $(kinds "$TGR_TMP/sw1.trace" P) XON" \
	"crossings seen, $(kinds "$TGR_TMP/sw1.trace" M) moves"
check "every lossless packet arrived" [ "$(pfc_sent)" -gt 1000 -a "$(pfc_got)" = "$(pfc_sent)" ]
check "sw1 said where it saw its XON crossings (P lines)" \
	[ "$(kinds "$TGR_TMP/sw1.trace" P)" -gt 0 ]
check "sw1's agent moved off the draining CPU while polling (M lines)" \
	[ "$(kinds "$TGR_TMP/sw1.trace" M)" -gt 0 ]
sleep 0.5	# past the polling windows
check "... and its CPU set is again the one it started with ($before)" \
	[ "$(cpus "$pid")" = "$before" ]

# Confined by the user to one CPU: it stays there.
taskset -p -c 0 "$pid" >/dev/null
moves=$(kinds "$TGR_TMP/sw1.trace" M)
pfc_flow 3 60
pfc_show sw1 >/dev/null
echo "confined: lossless sent $(pfc_sent) got $(pfc_got) ($(drops));" \
	"moves $(($(kinds "$TGR_TMP/sw1.trace" M) - moves))"
check "every lossless packet arrived" [ "$(pfc_sent)" -gt 1000 -a "$(pfc_got)" = "$(pfc_sent)" ]
check "an agent confined to CPU 0 makes no move" \
	[ "$(kinds "$TGR_TMP/sw1.trace" M)" = "$moves" ]
check "... and keeps the set it was given" [ "$(cpus "$pid")" = 0 ]
