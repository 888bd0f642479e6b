#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the VM of tests/shell/slow_lab_flower_vm.sh: the modules of
# the flower data path from the unpacked Debian kernel, then the scenario
# with its switches on `--datapath flower`. $1: the repository, $2: the
# unpacked kernel, $3: the scenario, $4: its modes (plain, tagger, both);
# the SC_* settings come in the environment. Results go to $VM_OUT/$3;
# after each mode the tc filters and pause counters of one switch port
# are printed ("PROBE" lines) for the host's log.
set -u
cd "$1" || exit 1
kdir=$2
for m in cls_flower act_pedit act_skbedit act_csum act_gact; do
	modprobe -d "$kdir" "$m" || { echo "modprobe $m failed"; exit 1; }
done
echo "kernel $(uname -r), datapath ${SC_DATAPATH:-bpf}"
sc_stop_extra() {
	local n
	for n in $(jq -r '.switches | keys[]' "$SC_DIR/rules.json"); do
		lab_exec "$n" "$TAGGER" -j switch show "$n" > "$SC_DIR/show-$n.json"
	done
}
export -f sc_stop_extra
echo "began $(date +%s.%N | cut -c1-14)"
bash "vmlab/scenarios/$3.sh" "$4" --out "$VM_OUT/$3" --lab vm
rc=$?
echo "ended $(date +%s.%N | cut -c1-14)"
exit $rc
