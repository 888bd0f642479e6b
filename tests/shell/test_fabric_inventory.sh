#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tagger fabric's inputs, without a switch: inventories (Ansible INI) that
# are bad, hostile or huge get "file:line: message" and exit 2 before any
# command runs (-j: one {"error"} document); plans that are not plans,
# rules that miss a switch; an unreachable ssh host and a namespace that
# does not exist are exit 3 with the host named.
source "$(dirname "$0")/../lib.sh"
require_cmd jq
cd "$TGR_TMP" || exit 1
T=$TAGGER

# bad_inv WANT LINES...: an inventory of LINES; status says WANT, exit 2.
bad_inv() {
	local want=$1 rc
	shift
	printf '%s\n' "$@" >bad.ini
	"$T" fabric status bad.ini >out.txt 2>err.txt
	rc=$?
	[ $rc = 2 ] || { echo "exit $rc, want 2: $*" >&2; cat err.txt >&2; return 1; }
	grep -qF -- "$want" err.txt || { echo "want \"$want\", got: $(cat err.txt)" >&2; return 1; }
	[ ! -s out.txt ] || { echo "output on stdout: $(cat out.txt)" >&2; return 1; }
	"$T" -j fabric status bad.ini >out.json 2>/dev/null
	[ "$(wc -l <out.json)" = 1 ] && jq -e --arg w "$want" '.error | contains($w)' out.json >/dev/null ||
		{ echo "-j: $(cat out.json)" >&2; return 1; }
}

check "no hosts" bad_inv "bad.ini:2: no hosts" "# nothing" "[g]"
check "a host with a shell word" bad_inv 'bad.ini:2: bad host name "a;reboot"' "[g]" "a;reboot tagger_netns=x"
check "a host like an option" bad_inv 'bad.ini:1: bad host name "-oProxyCommand=x"' "-oProxyCommand=x"
check "a namespace like an option" bad_inv 'bad.ini:1: tagger_netns=-x: not a namespace name' "s1 tagger_netns=-x"
check "a namespace with a slash" bad_inv 'bad.ini:1: tagger_netns=../../etc: not a namespace name' "s1 tagger_netns=../../etc"
check "an ssh host like an option" bad_inv 'bad.ini:1: ansible_host=-oProxyCommand=sh: not a host name' "s1 ansible_host=-oProxyCommand=sh"
check "an ssh host with a command" bad_inv 'bad.ini:1: ansible_host=h$(reboot): not a host name' 's1 ansible_host=h$(reboot)'
check "a user with a command" bad_inv 'bad.ini:1: ansible_user=root;id: not a user name' "s1 ansible_user=root;id"
check "a quoted value with a blank" bad_inv "bad.ini:1: \"b'\": expected key=value" "s1 ansible_user='a b'"
check "a relative bpf root" bad_inv "bad.ini:1: tagger_bpf_root=sys/fs/bpf: expected an absolute path" "s1 tagger_netns=n tagger_bpf_root=sys/fs/bpf"
check "a bpf root going up" bad_inv "bad.ini:1: tagger_bpf_root=/sys/../etc: expected an absolute path" "s1 tagger_netns=n tagger_bpf_root=/sys/../etc"
check "a port out of range" bad_inv "bad.ini:1: ansible_port=70000: expected 1 to 65535" "s1 ansible_port=70000"
check "a timeout of 0" bad_inv "bad.ini:3: tagger_timeout=0: expected 1 to 3600" "s1 tagger_netns=n" "[all:vars]" "tagger_timeout=0"
check "an unknown tagger key" bad_inv 'bad.ini:1: unknown key "tagger_netsn"' "s1 tagger_netsn=n"
check "an unknown key in vars" bad_inv 'bad.ini:3: unknown key "tagger_bpfroot"' "[g]" "[g:vars]" "tagger_bpfroot=/x"
check "not key=value" bad_inv 'bad.ini:1: "netns": expected key=value' "s1 netns"
check "two values for one key" bad_inv "bad.ini:3: tagger_netns=b, but line 2 says a" "[g]" "s1 tagger_netns=a" "s1 tagger_netns=b"
check "group children" bad_inv "bad.ini:1: [g:children]: groups of groups are not supported" "[g:children]"
check "host ranges" bad_inv 'bad.ini:2: "leaf[1:4]": host ranges are not supported' "[g]" "leaf[1:4]"
check "a broken header" bad_inv 'bad.ini:1: expected a header' "[g"
check "another connection" bad_inv "bad.ini:1: ansible_connection=local: tagger fabric reaches" "s1 ansible_connection=local"
check "netns and ssh at once" bad_inv "bad.ini:1: host s1: both tagger_netns and ansible_host" "s1 tagger_netns=n ansible_host=h"
check "two hosts, one switch" bad_inv "bad.ini:2: switch x is host a too (line 1)" "a tagger_netns=n tagger_switch=x" "b tagger_netns=m tagger_switch=x"
check "a vars line of two words" bad_inv "bad.ini:2: expected one key=value a line in [g:vars]" "[g:vars]" "a=1 b=2"
printf 's1 tagger_netns=n\0\n' >nul.ini
"$T" fabric status nul.ini 2>err.txt
rc=$?
[ $rc = 2 ] && grep -q "nul.ini:1: NUL byte" err.txt || fail "NUL byte: exit $rc: $(cat err.txt)"
echo "ok: a NUL byte: file:line, exit 2"
head -c $((17 << 20)) /dev/zero | tr '\0' '#' >huge.ini
"$T" fabric status huge.ini 2>err.txt
rc=$?
[ $rc = 2 ] && grep -q "huge.ini" err.txt || fail "a 17 MiB inventory: exit $rc: $(cat err.txt)"
echo "ok: a 17 MiB inventory is refused: $(cat err.txt)"
"$T" fabric status /nonexistent.ini 2>err.txt
[ $? = 2 ] && grep -q "/nonexistent.ini" err.txt || fail "a missing inventory: $(cat err.txt)"
echo "ok: a missing inventory: exit 2"

# Usage.
"$T" fabric plan only.ini 2>err.txt
[ $? = 2 ] && grep -q "plan takes INVENTORY and NEW_RULES" err.txt || fail "plan without rules"
"$T" fabric plan --check p.json inv.ini extra 2>err.txt
[ $? = 2 ] || fail "--check with two more words"
"$T" fabric plan inv.ini r.json --batch-size 0 2>err.txt
[ $? = 2 ] || fail "--batch-size 0"
echo "ok: usage errors exit 2"

# Rules and plans that are not what they should be (before any switch).
"$T" topo ring 4 -o ring.topo && "$T" paths ecmp ring.topo -o ring.elp &&
	"$T" compile ring.topo ring.elp -o v1.json 2>/dev/null || fail "compile"
printf '[ring]\nsw1 tagger_netns=%s-none\nsw9 tagger_netns=%s-none\n' "$TGR_PREFIX" "$TGR_PREFIX" >ring.ini
"$T" fabric plan ring.ini v1.json 2>err.txt
rc=$?
[ $rc = 2 ] && grep -q 'v1.json: no switch "sw9" (ring.ini:3)' err.txt ||
	fail "rules without an inventory switch: exit $rc: $(cat err.txt)"
echo "ok: rules that miss a switch of the inventory: exit 2, both named"
echo '{"format": "tagger-fabric-plan/2"}' >p2.json
"$T" fabric plan --check p2.json ring.ini 2>err.txt
[ $? = 2 ] && grep -q 'p2.json: format: must be "tagger-fabric-plan/1"' err.txt || fail "plan format: $(cat err.txt)"
echo '{"format": "tagger-fabric-plan/1", "state_digest": "x", "switches": [], "stages": [{"rules": 1}]}' >p3.json
"$T" fabric plan --check p3.json ring.ini 2>err.txt
[ $? = 2 ] && grep -q 'stages\[0\]: expected "rules", "digest", "batches"' err.txt || fail "plan stages: $(cat err.txt)"
printf '{"format": "tagger-fabric-plan/1",\n' >p4.json
"$T" fabric plan --check p4.json ring.ini 2>err.txt
[ $? = 2 ] && grep -q 'p4.json:2:' err.txt || fail "a cut plan: $(cat err.txt)"
echo "ok: plans of another format, shape or cut: file:line, exit 2"

# Unreachable: ssh that cannot connect, a namespace that is not there.
printf 'sw1 ansible_host=127.0.0.1 ansible_port=1 tagger_timeout=5\n' >ssh.ini
"$T" -j fabric status ssh.ini >st.json 2>/dev/null
rc=$?
[ $rc = 3 ] || fail "an unreachable ssh host: exit $rc, not 3"
jq -e '.switches[0] | .status == "unreachable" and .transport == "ssh:127.0.0.1" and
	(.error | length > 0)' st.json >/dev/null || fail "ssh: $(cat st.json)"
echo "ok: ssh to a closed port: unreachable ($(jq -r '.switches[0].error' st.json)), exit 3"
"$T" -j fabric status ring.ini >st.json 2>/dev/null
rc=$?
[ $rc = 3 ] || fail "no namespace: exit $rc, not 3"
jq -e '[.switches[].status] == ["unreachable", "unreachable"] and .union == null and
	(.versions | length) == 0' st.json >/dev/null || fail "no namespace: $(cat st.json)"
echo "ok: namespaces that do not exist: unreachable, exit 3, no union claimed"
