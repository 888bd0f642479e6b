#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The mqprio + plug backend, on Debian's stock kernel in the VM of
# vmlab/vm.sh (this machine's kernel has neither mqprio nor plug, where
# test_pfc_line/test_pfc_prio exercise htb-tbf): detected and used, a PFC
# frame closes priority 3's plug (and only that one), which then holds
# priority 3's packets while priority 4 keeps flowing, nothing is lost,
# and `pfc stop` removes the gates. See tests/shell/pfc_vm_guest.sh.
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd qemu-system-x86_64
bash "$TOP/vmlab/vm.sh" info >/dev/null 2>&1 || skip "no VM kernel (vmlab/vm.sh setup)"
cd "$TOP" || exit 1
out=$(bash "$TOP/vmlab/vm.sh" run --timeout 240 -- sh tests/shell/pfc_vm_guest.sh "$TOP" 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || fail "VM run failed (exit $rc)"
grep -q '^DONE$' <<<"$out" || fail "the guest script did not finish"
v() { awk -v k="$1" '$1 == k { $1 = ""; print substr($0, 2) }' <<<"$out"; }
check "the agent detected and chose mqprio-plug" [ "$(v backend)" = mqprio-plug ]
check "a plug gate per priority" [ "$(v qdiscs)" = "8 plug" ]
check "priority 3 paused" grep -Eq '^paused3 True held3 [0-9]+$' <<<"$out"
held=$(v paused3 | awk '{ print $3 }')
check "the closed plug held priority 3's packets ($held)" [ "${held:-0}" -gt 10 ]
check "priority 4 never paused" grep -q '^paused4 False pauses4 0$' <<<"$out"
read -r s3 g3 gap3 <<<"$(v prio3)"
read -r s4 g4 gap4 <<<"$(v prio4)"
check "priority 3: all $s3 packets arrived after the resume" [ "$s3" -gt 0 -a "$s3" = "$g3" ]
check "priority 4: all $s4 packets arrived" [ "$s4" -gt 0 -a "$s4" = "$g4" ]
echo "largest gaps between arrivals: prio3 ${gap3} ms, prio4 ${gap4} ms"
check "stop removed the gates" [ "$(v after-stop)" = "0 plug" ]
