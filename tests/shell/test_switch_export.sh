#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tagger switch export without a kernel: the batch's shape (one line per
# filter -j counts, software against offload form, the update's order),
# and its refusals: a switch or port the rules lack, interface names that
# would inject words into a tc batch, two ports on one interface, a chain
# larger than tc's prefs, an output it cannot write. What the filters do
# to packets is tests/shell/test_flower_vm.sh's (a kernel with cls_flower).
source "$(dirname "$0")/../lib.sh"
F=$TOP/tests/bpf/fixtures
T=$TGR_TMP
export_rc() { "$TAGGER" "$@" >"$T/out" 2>"$T/err"; echo $?; }

"$TAGGER" switch export S "$F/wildcards.rules.json" a=pa b=pb c=pc -o "$T/s.tc" ||
	fail "export exits $?"
"$TAGGER" -j switch export S "$F/wildcards.rules.json" a=pa b=pb c=pc >"$T/s.json" ||
	fail "export -j exits $?"
n=$(jq '[.ports[] | .ingress_filters + .egress_filters] | add' "$T/s.json")
check "one filter line per filter -j counts ($n), two entry filters a port" \
	test "$(grep -c '^filter add' "$T/s.tc")" -eq $((n + 6))
check "a clsact per port, kept if there" test "$(grep -c '^qdisc replace dev p[abc] clsact$' "$T/s.tc")" -eq 3
check "each port's filters name its interface" \
	test "$(grep -c '^filter add dev pa ' "$T/s.tc")" -eq "$(jq '.ports[0] | .ingress_filters + .egress_filters + 2' "$T/s.json")"
check "rewrites match the in-port by interface" grep -q '^filter add dev pb egress .* indev pa ip_tos 0x28/0xfc action pedit ex munge ip dsfield set 0x78 retain 0xfc pipe action csum ip4h pipe action skbedit priority 5 goto chain 29799$' "$T/s.tc"
check "software chains end with a hand-on to the pause agent's chain" \
	test "$(grep -c '^filter add dev p[abc] .* pref 65535 protocol all flower skip_hw action goto chain 29799$' "$T/s.tc")" -eq 12
check "software form: skip_hw everywhere" test "$(grep -c skip_sw "$T/s.tc")" -eq 0

"$TAGGER" switch pack "$F/wildcards.rules.json" -o "$T/s.trb" || fail "pack"
"$TAGGER" switch export S "$T/s.trb" a=pa b=pb c=pc -o "$T/packed.tc"
check "a packed rules file writes the same batch" cmp -s "$T/s.tc" "$T/packed.tc"
"$TAGGER" switch export S "$F/wildcards.rules.json" a=pa b=pb c=pc --offload -o "$T/hw.tc"
# (n counts the software form's 12 hand-on filters, which hardware has not)
check "offload form: skip_sw, no csum, no mark, no hand-on" \
	test "$(grep -c skip_sw "$T/hw.tc")" -eq "$((n - 12))" -a "$(grep -c -e csum -e ' mark ' -e 'goto chain 29799' "$T/hw.tc")" -eq 0

"$TAGGER" switch export S "$F/wildcards.rules.json" a=pa b=pb c=pc --generation 1 --update -o "$T/up.tc"
check "an update adds no clsact" test "$(grep -c '^qdisc' "$T/up.tc")" -eq 0
check "an update writes generation 1's chains (4-6)" \
	test "$(grep -c '^filter add .* chain [456] ' "$T/up.tc")" -eq "$n"
last_add=$(grep -n '^filter add' "$T/up.tc" | tail -1 | cut -d: -f1)
first_repl=$(grep -n '^filter replace' "$T/up.tc" | head -1 | cut -d: -f1)
first_del=$(grep -n '^chain del' "$T/up.tc" | head -1 | cut -d: -f1)
check "then replaces the entry filters, then deletes generation 0's chains" \
	test "$last_add" -lt "$first_repl" -a "$first_repl" -lt "$first_del"
check "the entry filter goes to chain 4 by handle 1" \
	grep -qx 'filter replace dev pc egress chain 0 pref 1 handle 1 protocol all flower action goto chain 4' "$T/up.tc"
check "generation 0's chains deleted, those each direction has" \
	test "$(grep -c '^chain del dev p[abc] \(ingress chain [12]\|egress chain [13]\)$' "$T/up.tc")" -eq 12 \
	-a "$(grep -c '^chain del' "$T/up.tc")" -eq 12

check "no such switch: exit 2" test "$(export_rc switch export X "$F/wildcards.rules.json")" = 2
check "  and says so" grep -q 'no switch "X"' "$T/err"
check "no such port: exit 2" test "$(export_rc switch export S "$F/wildcards.rules.json" z=pz)" = 2
check "  and says so" grep -q 'switch S has no port "z"' "$T/err"
for bad in 'a b' 'x/y' '..' 'abcdefghijklmnop' "$(printf 'p\nfilter del')"; do
	check "interface name '${bad//$'\n'/\\n}' refused (exit 2)" \
		test "$(export_rc switch export S "$F/wildcards.rules.json" "a=$bad")" = 2
done
check "two ports on one interface: exit 2" \
	test "$(export_rc switch export S "$F/wildcards.rules.json" a=pa b=pa c=pc)" = 2
check "  naming both" grep -q 'ports "a" and "b" are both on pa' "$T/err"
check "rules that are not rules: exit 2" test "$(export_rc switch export S /dev/null)" = 2
check "an output it cannot write: exit 3" \
	test "$(export_rc switch export S "$F/wildcards.rules.json" a=pa b=pb c=pc -o /nonexistent/x.tc)" = 3
check "bad generation: exit 2" \
	test "$(export_rc switch export S "$F/wildcards.rules.json" --generation 2)" = 2

# A switch whose egress chain needs more tc prefs than there are: 300
# ports, 60 tags, every in-port rewriting differently (no wildcard fits).
python3 - "$T/big.json" <<'EOF'
import json, sys
ports = ["p%d" % i for i in range(300)]
tags = [{"tag": t, "priority": 1 + t % 7} for t in range(1, 61)]
rw = [{"tag": t, "in": p, "out": "p0", "new_tag": t if i % 2 else min(t + 1, 60)}
      for i, p in enumerate(ports) for t in range(1, 61)]
json.dump({"format": "tagger-rules/1", "lossy": {"tag": 0, "priority": 0},
           "tags": tags, "switches": {"S": {"ports": ports,
           "classify": [{"in": "*", "tag": t, "priority": 1 + t % 7}
                        for t in range(1, 61)], "rewrite": rw}}},
          open(sys.argv[1], "w"))
EOF
check "a chain beyond tc's 65535 prefs: exit 2" \
	test "$(export_rc switch export S "$T/big.json" -o "$T/big.tc")" = 2
check "  saying so, and nothing written" \
	test "$(grep -c 'needs more than 65534 tc filters' "$T/err")" = 1 -a ! -e "$T/big.tc"
echo PASS
