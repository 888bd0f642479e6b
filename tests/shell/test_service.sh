#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The systemd units (systemd/*.service.in), as installed by make install
# into a temporary root: systemd-analyze verify accepts them, and their
# command lines, run as systemd would run them (%i, Environment=,
# EnvironmentFile=, ${VAR} and $VAR; in the node's namespace as
# NetworkNamespacePath= would), tag and pause on the line
#   h1 --100M-- sw1 --100M-- sw2 --20M-- h2
# through start, a safe reload (applied), an unsafe one (refused with the
# reason, the old rules stay), a killed agent (its standby names itself in
# the PIDFile=), agent and standby killed (the restart adopts), a stop,
# and a simulated reboot (every program, pin, qdisc and state gone; the
# same start gives the same tagging and pausing).
# Every command runs within its unit's capability bounding set,
# no_new_privs, system call filter, ProtectSystem=strict and ProtectHome=
# (emulated: setpriv, seccomp, read-only remounts in a mount namespace).
# systemd is not PID 1 in the test containers: nothing is started for real.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/pfc_lib.sh"
require_root
require_cmd python3
require_cmd nsenter
require_cmd systemd-analyze
source "$TOP/tests/shell/dp_lab.sh"

J() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

# (1) Install into a temporary root (binary, units, examples) and verify.
ROOT=$TGR_TMP/root
UNITS=$ROOT/usr/lib/systemd/system
ETC=$ROOT/etc/tagger
make -s -C "$TOP" install PREFIX="$ROOT/usr" SYSCONFDIR="$ROOT/etc" >"$TGR_TMP/install.log" 2>&1 ||
	{ cat "$TGR_TMP/install.log"; fail "make install"; }
for u in switch pfc host; do
	[ -f "$UNITS/tagger-$u@.service" ] || fail "tagger-$u@.service not installed"
	[ -f "$ETC/$u/$(ls "$TOP/etc/tagger/$u")" ] || fail "no example in $ETC/$u"
done
out=$(systemd-analyze verify --man=no "$UNITS"/tagger-*.service 2>&1)
rc=$?
if [ $rc -ne 0 ] || [ -n "$out" ]; then echo "$out"; fail "systemd-analyze verify: exit $rc"; fi
echo "ok: systemd-analyze verify: the three units, no warnings"
grep -q "^ExecStart=$ROOT/usr/sbin/tagger pfc agent %i" "$UNITS/tagger-pfc@.service" ||
	fail "the installed unit does not name the installed binary"
echo "# mine" >>"$ETC/pfc/sw1.conf.example"
make -s -C "$TOP" install PREFIX="$ROOT/usr" SYSCONFDIR="$ROOT/etc" >/dev/null 2>&1 || fail "second install"
[ "$(tail -1 "$ETC/pfc/sw1.conf.example")" = "# mine" ] || fail "make install overwrote a file in /etc/tagger"
echo "ok: a second make install keeps what is in /etc/tagger"

# (1b) Least privilege: every unit bounds its capabilities, forbids new
# privileges and filters system calls, and systemd-analyze rates it
# (9.6 UNSAFE without). Its commands below run under the same bounds:
# the capability bounding set (setpriv), no_new_privs, and the system call
# filter with its error number and the address families, as a seccomp
# filter built from the unit's lines (libseccomp, as systemd does).
MAX_EXPOSURE=${MAX_EXPOSURE:-3.5}
for u in switch pfc host; do
	for key in CapabilityBoundingSet NoNewPrivileges=yes SystemCallFilter ProtectSystem=strict \
		RestrictAddressFamilies SystemCallArchitectures=native; do
		grep -q "^$key" "$UNITS/tagger-$u@.service" || fail "tagger-$u@.service has no $key"
	done
	score=$(systemd-analyze security --offline=true "$UNITS/tagger-$u@.service" 2>/dev/null |
		sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
	[ -n "$score" ] || fail "systemd-analyze security rated no tagger-$u@.service"
	echo "tagger-$u@.service: exposure $score (systemd-analyze security --offline=true)"
	awk -v s="$score" -v m="$MAX_EXPOSURE" 'BEGIN { exit !(s <= m) }' ||
		fail "tagger-$u@.service: exposure $score, more than $MAX_EXPOSURE"
done
echo "ok: the three units are hardened (exposure at most $MAX_EXPOSURE)"
require_cmd setpriv
python3 -c 'import ctypes; ctypes.CDLL("libseccomp.so.2")' 2>/dev/null || skip "needs libseccomp2"
cat >"$TGR_TMP/sandbox.py" <<'PY'
import ctypes, errno, os, re, socket, subprocess, sys

unit, argv = sys.argv[1], sys.argv[3:]
keys = {}
for line in open(unit):
    m = re.match(r'^(\w+)=(.*)$', line.strip())
    if m:
        keys.setdefault(m.group(1), []).append(m.group(2))

def expand(names, seen):
    out = set()
    for n in names:
        if not n.startswith('@'):
            out.add(n)
            continue
        if n in seen:
            continue
        seen.add(n)
        txt = subprocess.run(['systemd-analyze', 'syscall-filter', n], capture_output=True,
                             text=True, check=True).stdout
        words = [w for l in txt.splitlines()[1:] for w in l.split() if not l.strip().startswith('#')]
        out |= expand(words, seen)
    return out

allow = set(['execve', 'exit', 'exit_group', 'getrlimit', 'rt_sigreturn', 'sigreturn'])
for v in keys.get('SystemCallFilter', []):
    assert not v.startswith('~'), 'deny lists: not emulated'
    allow |= expand(v.split(), set())
errnum = errno.EPERM if keys.get('SystemCallErrorNumber') else None
fams = [f for v in keys.get('RestrictAddressFamilies', []) for f in v.split()]

lib = ctypes.CDLL('libseccomp.so.2', use_errno=True)
class Cmp(ctypes.Structure):
    _fields_ = [('arg', ctypes.c_uint), ('op', ctypes.c_int),
                ('a', ctypes.c_uint64), ('b', ctypes.c_uint64)]
lib.seccomp_init.restype = ctypes.c_void_p
lib.seccomp_rule_add_array.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int,
                                       ctypes.c_uint, ctypes.POINTER(Cmp)]
lib.seccomp_load.argtypes = [ctypes.c_void_p]
lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
ALLOW = 0x7fff0000
default = (0x00050000 | errnum) if errnum else 0x80000000  # ERRNO or KILL_PROCESS
ctx = lib.seccomp_init(default)
nsock = lib.seccomp_syscall_resolve_name(b'socket')
for name in sorted(allow):
    nr = lib.seccomp_syscall_resolve_name(name.encode())
    if nr < 0 or (fams and nr == nsock):
        continue
    if lib.seccomp_rule_add_array(ctx, ALLOW, nr, 0, None):
        sys.exit('seccomp_rule_add %s' % name)
if fams and 'socket' in allow:
    for f in fams:
        c = Cmp(0, 4, getattr(socket, f), 0)  # SCMP_CMP_EQ
        if lib.seccomp_rule_add_array(ctx, ALLOW, nsock, 1, ctypes.byref(c)):
            sys.exit('seccomp_rule_add socket %s' % f)
if lib.seccomp_load(ctx):
    sys.exit('seccomp_load failed')
os.execvp(argv[0], argv)
PY
# ProtectSystem=strict and ProtectHome=yes, emulated: in a mount namespace
# of its own, every mount but the API file systems (/proc, /sys, /dev)
# read-only, then the unit's RuntimeDirectory= and ReadWritePaths= (and
# $PROTECT_RW: this test's stand-ins for /run/tagger/pfc and /sys/fs/bpf)
# writable again; /home, /root and /run/user empty and closed.
cat >"$TGR_TMP/protect.sh" <<'SH'
unit=$1
shift 2
rw=($PROTECT_RW)
for d in $(sed -n 's/^RuntimeDirectory=//p' "$unit"); do mkdir -p -m 0700 "/run/$d"; rw+=("/run/$d"); done
for d in $(sed -n 's/^ReadWritePaths=-\{0,1\}//p' "$unit"); do [ -e "$d" ] && rw+=("$d"); done
under() { local p; for p in "${@:2}"; do case $1/ in "$p"/*) return 0 ;; esac; done; return 1; }
if grep -qx 'ProtectSystem=strict' "$unit"; then
	while read -r _ _ _ _ mp _; do
		mp=$(printf '%b' "$mp")
		under "$mp" /proc /sys /dev "${rw[@]}" || mount -o remount,bind,ro "$mp" 2>/dev/null
	done </proc/self/mountinfo
	for d in "${rw[@]}"; do
		under "$d" /proc /sys /dev && continue
		mount --rbind "$d" "$d" && mount -o remount,bind,rw "$d" || exit 99
	done
fi
if grep -qx 'ProtectHome=yes' "$unit"; then
	for d in /home /root /run/user; do
		[ -d "$d" ] && mount -t tmpfs -o ro,mode=0000 tmpfs "$d"
	done
fi
exec "$@"
SH
export PROTECT_RW="$TGR_TMP"
# sandboxed KIND: the words that run a command under tagger-KIND@'s bounds.
sandboxed() {
	local caps c set=-all
	read -ra caps < <(sed -n 's/^CapabilityBoundingSet=//p' "$UNITS/tagger-$1@.service")
	for c in "${caps[@]}"; do
		c=${c#CAP_}
		set+=",+${c,,}"
	done
	printf '%s\n' unshare -m --propagation private \
		bash "$TGR_TMP/protect.sh" "$UNITS/tagger-$1@.service" -- \
		setpriv "--bounding-set=$set" --inh-caps=-all --no-new-privs \
		python3 "$TGR_TMP/sandbox.py" "$UNITS/tagger-$1@.service" --
}
# The emulation holds: within it, the root file system is read-only, the
# state directories are not.
mapfile -t sb < <(sandboxed pfc)
if "${sb[@]}" touch /var/tmp/"$TGR_PREFIX".rw 2>/dev/null; then
	rm -f /var/tmp/"$TGR_PREFIX".rw
	fail "ProtectSystem=strict: a sandboxed command wrote /var/tmp"
fi
check "ProtectSystem=strict: /run/tagger stays writable" "${sb[@]}" touch /run/tagger/"$TGR_PREFIX".rw
rm -f /run/tagger/"$TGR_PREFIX".rw
check "ProtectHome=yes: /root is empty and closed" "${sb[@]}" sh -c '! ls /root/ >/dev/null 2>&1'

# unit_argv KIND NODE KEY: the words of KEY= (ExecStart, ExecReload,
# ExecStop) of tagger-KIND@.service for instance NODE, one per line, as
# systemd expands them from the environment of the caller: ${VAR} is one
# word, $VAR splits at whitespace. (The units quote nothing.)
unit_argv() {
	local line w v words more
	line=$(sed -n "s/^$3=//p" "$UNITS/tagger-$1@.service")
	[ -n "$line" ] || fail "tagger-$1@.service has no $3="
	read -ra words <<<"${line//%i/$2}"
	for w in "${words[@]}"; do
		case $w in
		\$\{*\}) v=${w:2:-1}; printf '%s\n' "${!v-}" ;;
		\$*) v=${w:1}; read -ra more <<<"${!v-}"; [ ${#more[@]} -eq 0 ] || printf '%s\n' "${more[@]}" ;;
		*) printf '%s\n' "$w" ;;
		esac
	done
}

# unit_run KIND NODE KEY [&]: run it in NODE's namespace with the unit's
# Environment= and EnvironmentFile=; its output goes to $TGR_TMP/journal
# (and, for the agent, stays in the foreground unless started with unit_start).
unit_env() {
	local kv
	# One Environment= line of VAR=VALUE words without quotes or spaces.
	read -ra kv < <(sed -n 's/^Environment=//p' "$UNITS/tagger-$1@.service")
	for kv in "${kv[@]}"; do export "${kv//%i/$2}"; done
	set -a
	# shellcheck disable=SC1090
	. "$(sed -n 's/^EnvironmentFile=//p' "$UNITS/tagger-$1@.service" | sed "s/%i/$2/g")"
	set +a
}
unit_run() {
	(
		unit_env "$1" "$2"
		mapfile -t argv < <(unit_argv "$@")
		mapfile -t sb < <(sandboxed "$1")
		echo "== tagger-$1@$2 $3: ${argv[*]}"
		nsx "$2" "${sb[@]}" "${argv[@]}"
	) >>"$TGR_TMP/journal-$2" 2>&1
}
# The agent (Type=simple): in a process group of its own, as in a cgroup of
# its own; started when the pid file names a live process (the one before,
# if any, was killed). The pid file is the PIDFile= of the unit, under
# this run's TAGGER_PFC_DIR instead of /run/tagger/pfc. Its exit status lands in exit-NODE, and
# "Killed" in the journal stand-in, as systemd logs a main process killed.
unit_start_agent() {
	local pid _
	rm -f "$TGR_TMP/exit-$1"
	(
		unit_env pfc "$1"
		mapfile -t argv < <(unit_argv pfc "$1" ExecStart)
		mapfile -t sb < <(sandboxed pfc)
		echo "== tagger-pfc@$1 ExecStart: ${argv[*]}"
		setsid nsenter --net="/run/netns/$(ns_name "$1")" "${sb[@]}" "${argv[@]}"
		echo $? >"$TGR_TMP/exit-$1"
	) >>"$TGR_TMP/journal-$1" 2>&1 &
	for _ in $(seq 100); do
		pid=$(cat "$PFC_DIR/$1/pid" 2>/dev/null)
		if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
			bg_track "$pid"
			return 0
		fi
		sleep 0.1
	done
	cat "$TGR_TMP/journal-$1" >&2
	fail "tagger-pfc@$1 did not start"
}
agent_pid() { cat "$PFC_DIR/$1/pid" 2>/dev/null; }
# kill_group NODE: kill -9 NODE's agent and its standby (their process
# group, as systemd SIGKILLs a cgroup).
kill_group() {
	local pg
	pg=$(ps -o pgid= -p "$(agent_pid "$1")" | tr -d ' ')
	kill -9 -- "-$pg"
	while pgrep -g "$pg" >/dev/null; do sleep 0.05; done
}
# The interfaces of a node (/sys/class/net is the host's under nsenter).
ifaces() { ip -n "$(ns_name "$1")" -o link show | awk -F': ' '$2 != "lo" {sub(/@.*/, "", $2); print $2}'; }
pshow() { nsx "$1" "$TAGGER" -j pfc show "$1"; }

# (2) The lab and /etc/tagger: the network's rules in rules.json, one
# configuration file per unit, as the examples show.
pfc_line
dp_bpffs_up
printf '%s\n' "switch sw1" "switch sw2" "host h1" "host h2" "link h1:eth0 sw1:p1" \
	"link sw1:p2 sw2:p1" "link sw2:p2 h2:eth0" >"$TGR_TMP/line.topo"
printf '%s\n' "h1 sw1 sw2 h2" "h2 sw2 sw1 h1" >"$TGR_TMP/line.elp"
"$TAGGER" compile "$TGR_TMP/line.topo" "$TGR_TMP/line.elp" -o "$TGR_TMP/compiled.json" \
	>"$TGR_TMP/compile.log" 2>&1 || { cat "$TGR_TMP/compile.log"; fail "tagger compile"; }
# A: the compiled rules and a tag U that sw2 knows; B: sw1 rewrites h1's
# tag T to U toward sw2 (a safe update); C: tag T both ways between sw1
# and sw2 (a cyclic union: refused).
python3 - "$TGR_TMP/compiled.json" "$TGR_TMP" <<'PY' || fail "making rule sets A, B, C"
import copy, json, sys
r = json.load(open(sys.argv[1]))
d = sys.argv[2]
t = r["hosts"]["h1"]["tag"]
p = {x["tag"]: x["priority"] for x in r["tags"]}[t]
used = {x["tag"] for x in r["tags"]} | {r["lossy"]["tag"]}
u = next(x for x in range(1, 64) if x not in used)
q = next(x for x in range(1, 8) if x not in (p, r["lossy"]["priority"]))
r["tags"].append({"tag": u, "priority": q})
sw2 = r["switches"]["sw2"]
sw2["classify"].append({"in": "p1", "tag": u, "priority": q})
sw2["rewrite"].append({"tag": u, "in": "p1", "out": "p2", "new_tag": u})
json.dump(r, open(d + "/a.json", "w"))
b = copy.deepcopy(r)
sw1 = b["switches"]["sw1"]
sw1["rewrite"] = [w for w in sw1["rewrite"] if (w["tag"], w["in"], w["out"]) != (t, "p1", "p2")]
sw1["rewrite"].append({"tag": t, "in": "p1", "out": "p2", "new_tag": u})
json.dump(b, open(d + "/b.json", "w"))
for s in r["switches"].values():
    s["classify"] = [{"in": "*", "tag": t, "priority": p}]
    s["rewrite"] = [{"tag": t, "in": "*", "out": "*", "new_tag": t}]
json.dump(r, open(d + "/c.json", "w"))
print(t, p, u, q, file=open(d + "/tags", "w"))
PY
read -r T P U Q <"$TGR_TMP/tags"
echo "rules: h1's tag $T (priority $P); update B rewrites it to $U (priority $Q) at sw1"
# Replaced by renaming over it, as the examples say.
rules_install() { cp "$TGR_TMP/$1.json" "$ETC/rules.json.new" && mv "$ETC/rules.json.new" "$ETC/rules.json"; }
rules_install a
printf '%s\n' 'PORTS="p1=sw1-h1 p2=sw1-sw2"' 'OPTIONS=' 'UPDATE_OPTIONS=' >"$ETC/switch/sw1.conf"
printf '%s\n' 'PORTS="p1=sw2-sw1 p2=sw2-h2"' >"$ETC/switch/sw2.conf"
printf '%s\n' 'IFNAME=h1-sw1' 'OPTIONS="--udp-dport 5000-5001"' >"$ETC/host/h1.conf"
# Lossless: the rules' priorities; h1 queues its own packets by DSCP (the
# tag) like a NIC; no PM QoS request on a shared test machine.
OPTS="--lossless $P,$Q --dscp-map $T:$P,$U:$Q --cpu-latency none"
printf '%s\n' 'PORTS="p=h1-sw1"' "OPTIONS=\"$OPTS\"" >"$ETC/pfc/h1.conf"
printf '%s\n' 'PORTS="p1=sw1-h1 p2=sw1-sw2"' "OPTIONS=\"$OPTS\"" >"$ETC/pfc/sw1.conf"
printf '%s\n' 'PORTS="p1=sw2-sw1 p2=sw2-h2@20mbit"' "OPTIONS=\"$OPTS\"" >"$ETC/pfc/sw2.conf"
TAGGER=$ROOT/usr/sbin/tagger	# the installed copy, for show and send too

# boot: what systemd starts, in the units' order (After=: the data plane,
# then the agents).
boot() {
	unit_run switch sw1 ExecStart || { cat "$TGR_TMP/journal-sw1"; fail "tagger-switch@sw1 start"; }
	unit_run switch sw2 ExecStart || { cat "$TGR_TMP/journal-sw2"; fail "tagger-switch@sw2 start"; }
	unit_run host h1 ExecStart || { cat "$TGR_TMP/journal-h1"; fail "tagger-host@h1 start"; }
	unit_start_agent h1
	unit_start_agent sw1
	unit_start_agent sw2
	echo "ok: $1: every unit started"
}

# tagging NAME TAG: h1's packets to h2 reach sw2 with TAG (from sw1's
# rewrite) and h2 with TAG (sw2 keeps it); ECN 1 kept.
tagging() {
	dp_sniff sw2 sw2-sw1 5000 "$1-sw2"
	dp_sniff h2 h2-sw2 5000 "$1-h2"
	nsx h1 python3 "$DP_UDP" send 10.61.3.2 5000 1 40 2000
	sleep 0.3
	dp_sniff_stop
	dp_expect "$1-sw2" 40 $(($2 << 2 | 1))
	dp_expect "$1-h2" 40 $(($2 << 2 | 1))
}

# pausing NAME PRIO: a flow at 60 Mbit/s through sw2's 20 Mbit/s port to
# h2 arrives whole, because sw2 paused sw1 (and sw1 h1) on PRIO.
pausing() {
	local rpid sent got tx0 tx1
	tx0=$(pshow sw2 | J "d['ports'][0]['prios'][$2]['pfc_tx']")
	nsx h2 python3 "$TRAFFIC" recv 5001 2 >"$TGR_TMP/$1.recv" 2>"$TGR_TMP/$1.err" &
	rpid=$!
	bg_track $rpid
	for _ in $(seq 50); do grep -q ready "$TGR_TMP/$1.err" && break; sleep 0.1; done
	sent=$(nsx h1 python3 "$TRAFFIC" send 10.61.3.2 5001 0 60 2 | J "d['sent']")
	wait $rpid
	got=$(J "d['5001']['received']" <"$TGR_TMP/$1.recv")
	tx1=$(pshow sw2 | J "d['ports'][0]['prios'][$2]['pfc_tx']")
	echo "$1: lossless sent $sent got $got; sw2 sent $((tx1 - tx0)) PAUSEs on priority $2"
	if [ "$sent" -le 500 ] || [ "$got" != "$sent" ]; then fail "$1: $got of $sent lossless packets arrived"; fi
	[ "$tx1" -gt "$tx0" ] || fail "$1: sw2 did not pause sw1"
	[ "$(pshow sw2 | J "d['totals']['lossless_drops']")" = 0 ] || fail "$1: lossless drops on sw2"
	echo "ok: $1: lossless through the slow hop, sw2 paused sw1"
}

boot start
# The bounds leave the agent what it runs with: SCHED_FIFO and locked
# memory (it falls back silently without CAP_SYS_NICE or CAP_IPC_LOCK).
for n in h1 sw1 sw2; do
	a=$(agent_pid "$n")
	chrt -p "$a" | grep -q SCHED_FIFO || fail "$n's agent under the unit's bounds: $(chrt -p "$a")"
	[ "$(awk '/^VmLck:/ { print $2 }' "/proc/$a/status")" -gt 0 ] || fail "$n's agent has no locked memory"
	grep -q '^NoNewPrivs:[[:space:]]*1' "/proc/$a/status" || fail "$n's agent may gain privileges"
done
echo "ok: the agents run SCHED_FIFO with locked memory, within the unit's capabilities"
# And the bounds are real: show fails without bpf() in the filter, and
# an update (of the running rules) without CAP_BPF and CAP_SYS_ADMIN.
sed 's/^SystemCallFilter=@system-service bpf$/SystemCallFilter=@system-service/' \
	"$UNITS/tagger-switch@.service" >"$TGR_TMP/nobpf.service"
grep -q '^SystemCallFilter=@system-service$' "$TGR_TMP/nobpf.service" || fail "no filter line to change"
mapfile -t sb < <(sandboxed switch)
check "switch show sw1 within tagger-switch@'s bounds" nsx sw1 "${sb[@]}" "$TAGGER" switch show sw1
if nsx sw1 "${sb[@]:0:13}" "$TGR_TMP/sandbox.py" "$TGR_TMP/nobpf.service" -- "$TAGGER" switch show sw1 \
	>/dev/null 2>&1; then
	fail "switch show ran without bpf() in its filter: the filter is not applied"
fi
if nsx sw1 setpriv --bounding-set=-all,+net_admin --inh-caps=-all --no-new-privs \
	"$TAGGER" switch update sw1 "$ETC/rules.json" >/dev/null 2>&1; then
	fail "switch update ran with CAP_NET_ADMIN only: the bounding set is not applied"
fi
echo "ok: show fails without bpf() in the filter, update without CAP_BPF and CAP_SYS_ADMIN"
tagging start "$T"
pausing start "$P"

# Reload with a safe change: applied live.
rules_install b
unit_run switch sw1 ExecReload || { cat "$TGR_TMP/journal-sw1"; fail "safe reload refused"; }
gen=$(nsx sw1 "$TAGGER" -j switch show sw1 | J "d['generation']")
echo "ok: reload with a safe change applied (generation $gen)"
tagging reload-b "$U"
pausing reload-b "$Q"

# Reload with an unsafe change: refused (exit 1), the reason in the
# journal, the running rules stay. The operator puts the file back.
rules_install c
rc=0
unit_run switch sw1 ExecReload || rc=$?
[ $rc -eq 1 ] || { cat "$TGR_TMP/journal-sw1"; fail "unsafe reload: exit $rc, not 1"; }
grep -q "cyclic buffer dependency" "$TGR_TMP/journal-sw1" || fail "no reason in the journal"
[ "$(nsx sw1 "$TAGGER" -j switch show sw1 | J "d['generation']")" = "$gen" ] ||
	fail "a refused reload changed the rules"
echo "ok: reload with an unsafe change refused (exit 1), saying why:"
grep -A2 "^Error: the union" "$TGR_TMP/journal-sw1" | sed 's/^/    /'
tagging refused "$U"
rules_install b

# kill -9 of the agent alone: its standby takes over and names itself in
# the pid file, where systemd (PIDFile=) looks for the new main PID when
# it reaps the old one.
old=$(agent_pid sw2)
start=$(date +%s%N)
kill -9 "$old"
for _ in $(seq 200); do
	new=$(agent_pid sw2)
	[ -n "$new" ] && [ "$new" != "$old" ] && kill -0 "$new" 2>/dev/null && break
	sleep 0.005
done
ms=$((($(date +%s%N) - start) / 1000000))
if [ -z "$new" ] || [ "$new" = "$old" ]; then fail "the pid file still names the dead agent"; fi
[ "$(ps -o comm= -p "$new")" = tagger-standby ] || fail "pid $new is not sw2's standby"
[ "$(pshow sw2 | J "d['status'], d['pid'], d['takeovers']")" = "running $new 1" ] ||
	fail "sw2's standby did not take over"
echo "ok: kill -9 of sw2's agent: the pid file names its standby ($new) after ${ms} ms"
pausing takeover "$Q"

# kill -9 of agent and standby (the process group, as KillMode=mixed does
# when systemd missed the takeover); ExecStart again, as Restart= does.
kill_group sw2
unit_start_agent sw2
grep -q "adopting its queues" "$TGR_TMP/journal-sw2" || fail "the restarted agent did not adopt sw2's queues"
[ "$(pshow sw2 | J "d['status'], d['adoptions']")" = "running 1" ] || fail "sw2: not running with one adoption"
echo "ok: agent and standby killed, ExecStart again: it adopted sw2's queues"
pausing restart "$Q"
tagging restart "$U"

# Stop (KillMode=mixed: SIGTERM to the main PID only) and ExecStop: the
# agent removes its queues, its standby follows, the programs go.
pg=$(ps -o pgid= -p "$(agent_pid sw1)" | tr -d ' ')
kill -TERM "$(agent_pid sw1)"
for _ in $(seq 100); do pgrep -g "$pg" >/dev/null || break; sleep 0.05; done
pgrep -g "$pg" >/dev/null && fail "sw1's agent or standby still runs after SIGTERM"
for _ in $(seq 50); do [ -s "$TGR_TMP/exit-sw1" ] && break; sleep 0.1; done
rc=$(cat "$TGR_TMP/exit-sw1")
[ "$rc" = 0 ] || fail "sw1's agent exited $rc on SIGTERM: systemd would call that a failure"
nsx sw1 tc qdisc show dev sw1-sw2 | grep -q '^qdisc htb' && fail "sw1's queues are left after stop"
unit_run switch sw1 ExecStop || fail "tagger-switch@sw1 stop"
[ ! -e "$TAGGER_BPF_ROOT/sw1" ] || fail "sw1's pins are left after stop"
echo "ok: stop: sw1's agent and standby gone, queues and pins removed"
unit_run switch sw1 ExecStart || fail "tagger-switch@sw1 start after stop"
unit_start_agent sw1

# A reboot: processes die, and interfaces, qdiscs, programs (held by the
# kernel since tagger attaches without links), pins, /run and sysctls go:
# the namespaces are made anew, as the machine would come up again.
for n in h1 sw1 sw2; do kill_group "$n"; done
for n in h1 sw1 sw2 h2; do
	ip netns pids "$(ns_name "$n")" | xargs -r kill -9
	ip netns del "$(ns_name "$n")"
done
rm -rf "$TAGGER_BPF_ROOT" "$PFC_DIR"
umount "$DP_BPFFS"
pfc_line
dp_bpffs_up
for n in h1 sw1 sw2; do
	for i in $(ifaces "$n"); do
		[ -z "$(nsx "$n" tc filter show dev "$i" ingress)$(nsx "$n" tc filter show dev "$i" egress)" ] ||
			fail "$n:$i: filters left by the reboot"
		[ -z "$(nsx "$n" python3 "$TOP/tests/shell/dp_tcx.py" "$i" 2>/dev/null | awk 'NF > 2')" ] ||
			fail "$n:$i: tcx programs left by the reboot"
	done
done
echo "ok: reboot: no process, program, pin, qdisc or state left"
boot reboot
tagging reboot "$U"
pausing reboot "$Q"
for n in h1 sw1 sw2; do
	[ "$(pshow "$n" | J "d['adoptions']")" = 0 ] || fail "$n adopted something after the reboot"
done
echo "ok: after the reboot, the same tagging and pausing (nothing adopted)"

# Shutdown: every agent stopped by SIGTERM, every oneshot's ExecStop.
for n in h1 sw1 sw2; do kill -TERM "$(agent_pid "$n")"; done
for n in h1 sw1 sw2; do
	for _ in $(seq 50); do [ -s "$TGR_TMP/exit-$n" ] && break; sleep 0.1; done
	[ "$(cat "$TGR_TMP/exit-$n" 2>/dev/null)" = 0 ] || fail "$n's agent did not stop cleanly"
done
unit_run host h1 ExecStop || fail "tagger-host@h1 stop"
unit_run switch sw1 ExecStop || fail "tagger-switch@sw1 stop"
unit_run switch sw2 ExecStop || fail "tagger-switch@sw2 stop"
[ -z "$(ls -A "$TAGGER_BPF_ROOT")" ] || fail "pins left after every unit stopped: $(ls "$TAGGER_BPF_ROOT")"
for n in h1 sw1 sw2; do
	for i in $(ifaces "$n"); do
		nsx "$n" tc qdisc show dev "$i" | grep -q '^qdisc htb' && fail "$n:$i: queues left"
	done
done
echo "ok: every unit stopped: no pin, no queue left"
echo "PASS"
