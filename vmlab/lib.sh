#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# vmlab library: a topology file brought up as network namespaces, shared by
# vmlab/vmlab (the command) and the scenario scripts.
#
# A lab has a name (LAB, default "lab"): node N lives in namespace LAB-N,
# a port is a veth named after the port, and everything the lab makes is
# recorded under $LAB_STATE before it is made, so lab_down cleans up after
# a crash too. Two labs with different names run side by side.
#
#   lab_init NAME                 select a lab (sets LAB, LAB_STATE)
#   lab_up TOPO ROUTING           ROUTING: "--paths ELP", "--shortest" or
#                                 "--bgp" (FRR, vmlab/frr.sh)
#   lab_down                      idempotent
#   lab_fail NODE:PORT / lab_restore NODE:PORT
#   lab_route NODE HOST PORT      override NODE's route to HOST
#   lab_exec NODE CMD...          run in the node's namespace
#   lab_spawn NAME NODE LOG CMD...  background process, killed by lab_down
#   lab_stop NAME                 SIGTERM a spawned process and wait for it
#   lab_nodes [switch|host]       node names
#   lab_host_addr HOST            a host's address
#   lab_mgmt_up                   an out-of-band management network
#                                 (LAB_mgmt, a /31 to every switch)
#   lab_host_tap HOST [NODE]      HOST's link becomes a tap on its switch's
#                                 port, for a VM to be that host (vm.sh
#                                 --nic); prints "SWITCH PORT ADDR GW".
#                                 With NODE: made in NODE's namespace,
#                                 for a VM there with NICs on two switches
#   lab_tap_home HOST NODE        moves that tap to its switch once the
#                                 VM opened it, configured as the port
#
# up writes the lab's inventory, $LAB_STATE/inventory (Ansible INI, as
# tagger fabric reads it): a host per switch, reached in its namespace.
set -u

VMLAB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=${TOP:-$(cd "$VMLAB_DIR/.." && pwd)}
TAGGER=${TAGGER:-$TOP/build/tagger}
LAB_RUN=${LAB_RUN:-/run/tagger-lab}
# One tx queue per priority where an mqprio pause backend may run (the VM's
# stock kernel); this host's kernel has no mqprio, one queue does.
if [ "${TAGGER_IN_VM:-0}" = 1 ]; then LAB_TXQUEUES=${LAB_TXQUEUES:-8}; fi
LAB_TXQUEUES=${LAB_TXQUEUES:-1}

source "$VMLAB_DIR/frr.sh"

# Bring-up and teardown phases, "PHASE SECONDS TICKS" in $LAB_PHASES when
# set (tests/bench/bench_lab_scale.sh): the wall clock since the epoch and
# the CPU time (clock ticks) of this shell and its waited-for children,
# which on a busy machine says more than the wall. No process spawned.
lab_mark() {
	local -a st
	[ -n "${LAB_PHASES:-}" ] || return 0
	read -r -a st < "/proc/$BASHPID/stat"
	# utime, stime, cutime, cstime (fields 14-17; comm is "bash")
	echo "$1 $EPOCHREALTIME $((st[13] + st[14] + st[15] + st[16]))" >> "$LAB_PHASES"
}

lab_log() { [ "${LAB_QUIET:-0}" = 1 ] || echo "vmlab: $*" >&2; }
lab_die() { echo "vmlab: $*" >&2; return 1; }

lab_init() {
	LAB=${1:-lab}
	# "." and ".." pass the character class but are path components:
	# LAB_STATE would be $LAB_RUN itself or its parent (/run).
	if ! [[ $LAB =~ ^[A-Za-z0-9_.]{1,24}$ ]] || [ "$LAB" = . ] || [ "$LAB" = .. ]; then
		lab_die "bad lab name \"$LAB\" ([A-Za-z0-9_.], at most 24, not . or ..)"
		return 1
	fi
	LAB_STATE=$LAB_RUN/$LAB
	# The data plane's pins (in a bpffs of the lab's own, mounted by
	# lab_up) and the pause agents' state.
	export TAGGER_BPF_ROOT=$LAB_STATE/bpffs/tagger
	export TAGGER_PFC_DIR=$LAB_STATE/pfc
}

lab_ns() { echo "$LAB-$1"; }

lab_exec() {
	local n=$1; shift
	nsenter --net="/run/netns/$(lab_ns "$n")" "$@"
}

lab_nodes() {
	case ${1:-all} in
	switch) awk '$1 == "switch" { print $2 }' "$LAB_STATE/topo" ;;
	host) awk '$1 == "host" { print $2 }' "$LAB_STATE/topo" ;;
	*) awk '$1 == "switch" || $1 == "host" { print $2 }' "$LAB_STATE/topo" ;;
	esac
}

lab_host_addr() { awk -v h="$1" '$1 == "host" && $2 == h { print $3 }' "$LAB_STATE/plan"; }


_plan() {
	local args=() p
	read -r -a args < "$LAB_STATE/routing"
	# With BGP the protocol routes: the plan only gives the addresses.
	if [ "${args[0]}" = --bgp ]; then
		"$TAGGER" lab plan "$LAB_STATE/topo" --shortest | grep -v '^route '
		return "${PIPESTATUS[0]}"
	fi
	while read -r p; do [ -n "$p" ] && args+=(--down "$p"); done < "$LAB_STATE/down"
	"$TAGGER" lab plan "$LAB_STATE/topo" "${args[@]}"
}


# Per node, in one process (every exec costs ~70 ms in the VM): sysctls,
# and for veth bursts GRO on at the receiver and TSO/GSO off at the sender,
# so they wait in the sender's qdisc, not the receiver's backlog
# (Documentation/kernel-notes.md).
_node_setup() {
	local ns=$1 kind=$2; shift 2
	local s="net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1"
	[ "$kind" = switch ] && s+=" net.ipv4.ip_forward=1 net.ipv4.ip_forward_update_priority=0
		net.ipv4.fib_multipath_hash_policy=1 net.ipv4.conf.all.rp_filter=0
		net.ipv4.conf.default.rp_filter=0 net.ipv4.conf.all.send_redirects=0
		net.ipv4.conf.default.send_redirects=0 net.ipv4.conf.all.accept_redirects=0"
	# Written to /proc/sys by the shell itself: no sysctl process (at
	# k = 8 each process per node is 208 more).
	s=${s//./\/}
	# shellcheck disable=SC2016
	nsenter --net="/run/netns/$ns" sh -c '
		for kv in $1; do echo "${kv#*=}" > "/proc/sys/${kv%%=*}"; done 2>/dev/null
		shift
		for p in "$@"; do ethtool -K "$p" tso off gso off gro ${LAB_GRO:-on} 2>/dev/null; done
		true' sh "$s" "$@"
}

# "ip route" batch lines for the route lines of a plan (stdin).
_route_cmds() {
	awk -v verb="$1" '{
		if (verb == "del") { print $2, "route del " $3 "/32"; next }
		line = "route replace " $3 "/32"
		if (NF == 4) {
			split($4, h, ","); line = line " via " h[2] " dev " h[1]
		} else for (i = 4; i <= NF; i++) {
			split($i, h, ","); line = line " nexthop via " h[2] " dev " h[1]
		}
		print $2, line
	}'
}

# Move the routes from plan $1 to plan $2, make before break: first the
# routes that are new (nobody uses them yet), then the changed ones, then
# the removals; and only on the nodes where something changed. "replace"
# never leaves a window without a route. Of the changed routes, those that
# only drop next hops go first (a spine's ECMP member towards the leaf
# that will bounce): a route that drops members cannot close a loop, and
# the detours put in after them find them gone.
_apply_routes() {
	local old=$1 new=$2 n c
	grep '^route ' "$new" | sort > "$new.r"
	grep '^route ' "$old" | sort > "$old.r"
	# new (node, dst) pairs
	join -v 1 <(awk '{ print $2 "|" $3, $0 }' "$new.r" | sort) \
		  <(awk '{ print $2 "|" $3 }' "$old.r" | sort) | cut -d' ' -f2- |
		_route_cmds replace > "$new.c1"
	# changed routes of pairs that existed: those that only shrink, then
	# the others
	: > "$new.s"
	comm -13 "$old.r" "$new.r" | awk '{ print $2 "|" $3, $0 }' | sort |
		join - <(awk '{ print $2 "|" $3 }' "$old.r" | sort) | cut -d' ' -f2- |
		awk -v s="$new.s" 'FNR == NR { for (i = 4; i <= NF; i++) had[$2 "|" $3 "|" $i]; next }
			{ f = s; for (i = 4; i <= NF; i++) if (!(($2 "|" $3 "|" $i) in had)) f = "/dev/stdout"
			  print > f }' "$old.r" - > "$new.g"
	_route_cmds replace < "$new.s" > "$new.c2"
	_route_cmds replace < "$new.g" > "$new.c2b"
	# pairs that are gone
	join -v 1 <(awk '{ print $2 "|" $3, $0 }' "$old.r" | sort) \
		  <(awk '{ print $2 "|" $3 }' "$new.r" | sort) | cut -d' ' -f2- |
		_route_cmds del > "$new.c3"
	# Each step on all its nodes before the next; within a step the
	# nodes in parallel, their batches split in one pass.
	for c in "$new.c1" "$new.c2" "$new.c2b" "$new.c3"; do
		rm -rf "$new.d" && mkdir "$new.d" || return 1
		awk -v d="$new.d" '{ f = d "/" $1; $1 = ""; print substr($0, 2) > f }' "$c"
		# shellcheck disable=SC2016
		ls "$new.d" | D=$new.d _lab_parallel 'ip -n "$LAB-$1" -force -batch "$D/$1" 2>/dev/null'
	done
	rm -rf "$new.r" "$old.r" "$new.c1" "$new.c2" "$new.c2b" "$new.c3" "$new.d" "$new.s" "$new.g"
}

_routes_batch() {
	grep "^route $1 " "$2" | _route_cmds replace | cut -d' ' -f2-
}

# Neighbours of a node's ports, permanent (a paused link must not lose its
# ARP entry) and re-added after a link comes back.
_neigh_batch() {
	awk -v n="$1" '$1 == "addr" && $2 == n {
		split($5, o, ".")
		printf "neigh replace %s lladdr 02:00:%02x:%02x:%02x:%02x dev %s nud permanent\n",
			$5, o[1], o[2], o[3], o[4], $3
	}' "$LAB_STATE/plan"
}

# Per node, the "ip -batch" file DIR/NODE: loopback up, addresses and
# links up, permanent neighbours, then the routes (their next hops need
# the addresses). One pass over the plan for all the nodes: a pass per
# node is quadratic (at k = 8, 208 nodes x a 27,000-line plan).
_config_batches() {
	local d=$1
	rm -rf "$d" && mkdir -p "$d" || return 1
	{
		awk '$1 == "switch" || $1 == "host" { print $2, "link set lo up" }' "$LAB_STATE/topo"
		awk '$1 == "addr" {
			split($5, o, ".")
			print $2, "addr add " $4 " dev " $3
			print $2, "link set " $3 " up"
			printf "%s neigh replace %s lladdr 02:00:%02x:%02x:%02x:%02x dev %s nud permanent\n",
				$2, $5, o[1], o[2], o[3], o[4], $3
		}' "$LAB_STATE/plan"
		grep '^route ' "$LAB_STATE/plan" | _route_cmds replace
	} | awk -v d="$d" '{ f = d "/" $1; $1 = ""; print substr($0, 2) > f }'
}

# _lab_parallel CMD: CMD (a shell string; "$1".. are the words of a line)
# for every line of stdin, LAB_JOBS at a time (default 4: most of the
# work is the kernel's, under the RTNL lock, but every command also
# spends time starting and in user space, which overlaps). Fails when
# any one failed. The jobs share this shell's functions and variables;
# it waits only for its own jobs, never for processes lab_spawn started.
_lab_parallel() {
	local cmd=$1 line bad=0 jobs=${LAB_JOBS:-4}
	local -a run=()
	while read -r line; do
		while [ ${#run[@]} -ge "$jobs" ]; do _lab_reap || bad=1; done
		# shellcheck disable=SC2086 # the line's words are the arguments
		(set -- $line; eval "$cmd") &
		run+=($!)
	done
	while [ ${#run[@]} -gt 0 ]; do _lab_reap || bad=1; done
	return $bad
}

# Collect the finished jobs of the caller's run[], or wait a moment if
# none has. By pid: "wait -n PID..." (bash 5.2) fails on a job that
# ended before it was called, and a bare "wait -n" also returns for jobs
# that are not the runner's.
_lab_reap() {
	local p rc=0
	local -a left=()
	for p in "${run[@]}"; do
		if kill -0 "$p" 2>/dev/null; then left+=("$p"); else wait "$p" || rc=1; fi
	done
	[ ${#left[@]} -eq ${#run[@]} ] && sleep 0.02
	run=("${left[@]}")
	return $rc
}

# up and down of one lab name exclude each other: without a lock two ups
# started at once both pass the "is it up" check, then each one's failure
# path tears down the other's namespaces. The lock file lives beside the
# lab's directory (down removes the directory). An up that finds the lock
# taken is refused at once; a down waits for the up or down holding it.
# Processes spawned meanwhile (FRR's daemons) do not inherit the lock.
# A down that leaves no lab removes the lock file, holding it (else one
# file per lab name ever used piles up in $LAB_RUN). A waiter that opened
# the file before it went would then hold the lock of a file no path
# names, beside a newcomer holding a new one: so the lock counts only
# if, once taken, the file is still the one at the path; else again.
# _lab_lock FLOCK_OPTS...: returns 0 with the lock taken by this call, 3
# when this process holds it already (then only the taker unlocks).
_lab_lock() {
	local f=$LAB_RUN/$LAB.lock
	[ -n "${_LAB_LOCK_FD:-}" ] && return 3
	mkdir -p "$LAB_RUN" || return 1
	while :; do
		exec {_LAB_LOCK_FD}>>"$f" || { _LAB_LOCK_FD=; return 1; }
		if ! flock "$@" "$_LAB_LOCK_FD"; then
			_lab_unlock
			return 1
		fi
		[ "$(stat -L -c %d:%i "/proc/self/fd/$_LAB_LOCK_FD")" = \
			"$(stat -c %d:%i "$f" 2>/dev/null)" ] && return 0
		_lab_unlock
	done
}

_lab_unlock() {
	[ -n "${_LAB_LOCK_FD:-}" ] || return 0
	exec {_LAB_LOCK_FD}>&-
	_LAB_LOCK_FD=
}

lab_up() {
	local rc
	[ -n "${LAB:-}" ] || lab_init lab
	_lab_lock -n
	case $? in
	0) _lab_up "$@"; rc=$?; _lab_unlock; return $rc ;;
	3) _lab_up "$@" ;;
	*) lab_die "lab \"$LAB\" is being brought up or down by another vmlab"; return 1 ;;
	esac
}

_lab_up() {
	local topo=$1; shift
	local n kind
	[ -s "$LAB_STATE/netns" ] && { lab_die "lab \"$LAB\" is up (vmlab -n $LAB down)"; return 1; }
	# From here on the lab is this process's: its failure paths and a
	# scenario's exit trap may take it down (lab_down_mine).
	LAB_MINE=1
	lab_mark up-begin
	mkdir -p "$LAB_STATE/bpffs" || return 1
	: > "$LAB_STATE/netns"; : > "$LAB_STATE/pids"; : > "$LAB_STATE/down"
	mount -t bpf bpf "$LAB_STATE/bpffs" || { lab_die "cannot mount bpffs"; lab_down; return 1; }
	cp "$topo" "$LAB_STATE/topo" || return 1
	case ${1:-} in
	--paths) cp "$2" "$LAB_STATE/paths.elp" && echo "--paths $LAB_STATE/paths.elp" > "$LAB_STATE/routing" ;;
	--shortest|"") echo "--shortest" > "$LAB_STATE/routing" ;;
	--bgp) echo "--bgp" > "$LAB_STATE/routing" ;;
	*) lab_die "What is \"$1\"?"; return 1 ;;
	esac
	_plan > "$LAB_STATE/plan" || { lab_down; return 1; }
	if awk '$1 == "addr" && (length($3) > 15 || length($7) > 15) { bad = 1 } END { exit !bad }' "$LAB_STATE/plan"; then
		lab_die "port names must be interface names (at most 15 characters)"
		lab_down; return 1
	fi
	# Namespaces are recorded before they are made, so a crash in between
	# leaves a record lab_down acts on.
	lab_mark plan
	for n in $(lab_nodes); do lab_ns "$n"; done >> "$LAB_STATE/netns"
	sed 's/^/netns add /' "$LAB_STATE/netns" | ip -batch - ||
		{ lab_die "cannot make the namespaces"; lab_down; return 1; }
	lab_mark netns
	# One veth per link (addr lines come in port-id pairs 2k, 2k+1), made
	# by one ip -batch: every process costs ~70 ms in the VM.
	awk -v lab="$LAB" -v q="$LAB_TXQUEUES" '
	function mac(a,  o) { sub("/31", "", a); split(a, o, "."); return sprintf("02:00:%02x:%02x:%02x:%02x", o[1], o[2], o[3], o[4]) }
	$1 == "addr" { if (++k % 2) { a = $2; pa = $3; ma = mac($4) } else
		printf "link add %s address %s netns %s-%s numtxqueues %s type veth peer name %s address %s netns %s-%s numtxqueues %s\n",
			pa, ma, lab, a, q, $3, mac($4), lab, $2, q }' "$LAB_STATE/plan" |
		ip -batch - || { lab_die "cannot make the links"; lab_down; return 1; }
	lab_mark veths
	_config_batches "$LAB_STATE/cfg" ||
		{ lab_die "cannot write the nodes' configuration"; lab_down; return 1; }
	# shellcheck disable=SC2016
	lab_nodes | _lab_parallel 'ip -n "$LAB-$1" -batch "$LAB_STATE/cfg/$1"' ||
		{ lab_die "configuring the nodes failed"; lab_down; return 1; }
	rm -rf "$LAB_STATE/cfg"
	lab_mark addr
	# "NODE KIND PORT..." in one pass over the plan.
	awk '$1 == "switch" || $1 == "host" { kind[$2] = $1; order[++n] = $2; next }
	     $1 == "addr" { ports[$2] = ports[$2] " " $3 }
	     END { for (i = 1; i <= n; i++) print order[i], kind[order[i]] ports[order[i]] }' \
		"$LAB_STATE/topo" "$LAB_STATE/plan" |
		_lab_parallel 'n=$1; shift; _node_setup "$LAB-$n" "$@"'
	lab_mark config
	if grep -qx -- --bgp "$LAB_STATE/routing"; then
		frr_up || { lab_down; return 1; }
	fi
	_lab_inventory > "$LAB_STATE/inventory" || { lab_down; return 1; }
	lab_log "lab \"$LAB\" up: $(lab_nodes switch | wc -l) switches, $(lab_nodes host | wc -l) hosts, $(awk '$1 == "addr"' "$LAB_STATE/plan" | wc -l | awk '{ print $1 / 2 }') links"
}

# The inventory of the lab's switches (tagger-fabric(8), INVENTORY): each
# reached by entering its namespace (tagger_netns), with the lab's bpffs;
# with --bgp, the directory of its FRR daemons' vty sockets too (tagger
# paths from-fib --source frr). No tagger_pfc: the pause agents are the
# scenarios', and status would call a switch without one unhealthy.
_lab_inventory() {
	local n vty=
	grep -qx -- --bgp "$LAB_STATE/routing" && vty=1
	echo "# lab $LAB, written by vmlab up: tagger fabric status $LAB_STATE/inventory"
	echo "[switches]"
	for n in $(lab_nodes switch); do
		echo "$n tagger_netns=$(lab_ns "$n")${vty:+ tagger_vty_socket=$LAB_STATE/frr/$n}"
	done
	echo "[switches:vars]"
	echo "tagger_bpf_root=$TAGGER_BPF_ROOT"
}

# An out-of-band management network, as a fabric's switches have beside
# their data ports: a namespace LAB_mgmt (the controller's: ssh, Ansible)
# with a /31 to every switch, whose end is the switch's port "mgmt0"
# (172.30.0.0/16, switch i at 172.30.0.0 + 2i + 1). Nothing routes it
# into the fabric or to this machine. Recorded before it is made, so down
# removes it. Writes "SWITCH ADDRESS" lines to $LAB_STATE/mgmt.
lab_mgmt_ns() { echo "${LAB}_mgmt"; }

lab_mgmt_up() {
	local ns i=0 n a b p
	ns=$(lab_mgmt_ns)
	[ -s "$LAB_STATE/netns" ] || { lab_die "lab \"$LAB\" is not up"; return 1; }
	[ -e "$LAB_STATE/mgmt" ] && { lab_die "lab \"$LAB\" has its management network"; return 1; }
	echo "$ns" >> "$LAB_STATE/netns"
	ip netns add "$ns" && ip -n "$ns" link set lo up || { lab_die "cannot make $ns"; return 1; }
	: > "$LAB_STATE/mgmt"
	for n in $(lab_nodes switch); do
		a=$((2 * i)) b=$((2 * i + 1)) i=$((i + 1))
		[ $b -lt 65536 ] || { lab_die "more than 32768 switches"; return 1; }
		a=172.30.$((a >> 8)).$((a & 255)) b=172.30.$((b >> 8)).$((b & 255))
		echo "link add m$i netns $ns type veth peer name mgmt0 netns $(lab_ns "$n")"
		echo "$n $b $a m$i" >> "$LAB_STATE/mgmt"
	done | ip -batch - || { lab_die "cannot make the management links"; return 1; }
	while read -r n b a p; do
		echo "$n addr add $b/31 dev mgmt0"
		echo "$n link set mgmt0 up"
		echo "@ addr add $a/31 dev $p"
		echo "@ link set $p up"
	done < "$LAB_STATE/mgmt" | awk -v d="$LAB_STATE" '{ f = d "/mgmt." $1; $1 = ""; print substr($0, 2) > f }'
	# shellcheck disable=SC2016
	lab_nodes switch | _lab_parallel 'ip -n "$LAB-$1" -batch "$LAB_STATE/mgmt.$1"' &&
		ip -n "$ns" -batch "$LAB_STATE/mgmt.@" || { lab_die "cannot address the management links"; return 1; }
	rm -f "$LAB_STATE"/mgmt.?*
	awk '{ print $1, $2 }' "$LAB_STATE/mgmt" > "$LAB_STATE/mgmt.new" && mv "$LAB_STATE/mgmt.new" "$LAB_STATE/mgmt"
	lab_log "lab \"$LAB\": management network in $ns, $(wc -l < "$LAB_STATE/mgmt") switches"
}

# lab_host_tap HOST [NODE]: the host's link (its first) is replaced by a
# tap of the same name on the switch's side, with the port's address, MAC,
# neighbour and routes: a VM started in the switch's namespace with
# `vm.sh run --nic tap:PORT,mac=MAC` (MAC the lab's for ADDR) is then the
# host, and the switch's data plane and pause agent run on the tap as on
# any port. The host's namespace stays, empty. Prints "SWITCH PORT ADDR
# GW" (ADDR the host's /31 address, GW the switch's end). The tap goes
# with the switch's namespace (lab_down), like a veth.
# QEMU opens its taps in the namespace it runs in, so a VM that is two
# hosts under two switches needs one tap made elsewhere: with NODE the tap
# is made, unconfigured, in NODE's namespace (where the VM will run), and
# lab_tap_home moves it to the switch once QEMU holds it (the tap keeps
# its open file across namespaces).
lab_host_tap() {
	local sw port addr gw ns
	read -r sw port addr gw < <(awk -v h="$1" '$1 == "addr" && $2 == h {
		sub("/31", "", $4); print $6, $7, $4, $5; exit }' "$LAB_STATE/plan")
	[ -n "$sw" ] || { lab_die "no host \"$1\" with a link in lab \"$LAB\""; return 1; }
	ns=$(lab_ns "${2:-$sw}")
	ip -n "$(lab_ns "$sw")" link del "$port" && ip -n "$ns" tuntap add dev "$port" mode tap ||
		{ lab_die "cannot make tap $sw:$port"; return 1; }
	if [ "${2:-$sw}" = "$sw" ]; then
		_tap_config "$sw" "$port" "$gw" || return 1
	fi
	echo "$sw $port $addr $gw"
}

# lab_tap_home HOST NODE: HOST's tap, made in NODE's namespace by
# lab_host_tap HOST NODE and opened there by a VM, moves to its switch and
# is configured as lab_host_tap configures it (a move clears addresses).
lab_tap_home() {
	local sw port gw
	read -r sw port gw < <(awk -v h="$1" '$1 == "addr" && $2 == h {
		print $6, $7, $5; exit }' "$LAB_STATE/plan")
	[ -n "$sw" ] || { lab_die "no host \"$1\" with a link in lab \"$LAB\""; return 1; }
	ip -n "$(lab_ns "$2")" link set "$port" netns "$(lab_ns "$sw")" ||
		{ lab_die "cannot move tap $port from $2 to $sw"; return 1; }
	_tap_config "$sw" "$port" "$gw"
}

# _tap_config SWITCH PORT GW: a tap as the port it replaces.
_tap_config() {
	local sw=$1 port=$2 gw=$3 ns
	ns=$(lab_ns "$sw")
	{
		awk -v n="$sw" -v p="$port" '$1 == "addr" && $2 == n && $3 == p {
			a = $4; sub("/31", "", a); split(a, o, ".")
			printf "link set %s address 02:00:%02x:%02x:%02x:%02x\n", p, o[1], o[2], o[3], o[4]
			print "addr add " $4 " dev " p
			print "link set " p " up" }' "$LAB_STATE/plan"
		_neigh_batch "$sw"
		_routes_batch "$sw" "$LAB_STATE/plan"
	} | ip -n "$ns" -force -batch - 2>/dev/null
	ip -n "$ns" -br addr show dev "$port" | grep -q "$gw/31" ||
		{ lab_die "tap $sw:$port has no address"; return 1; }
	nsenter --net="/run/netns/$ns" ethtool -K "$port" tso off gso off 2>/dev/null
	return 0
}

_port_ends() {
	# NODE:PORT -> "NODE PORT PEER_NODE PEER_PORT"
	awk -v n="${1%%:*}" -v p="${1#*:}" '$1 == "addr" && $2 == n && $3 == p { print $2, $3, $6, $7 }' "$LAB_STATE/plan"
}

_set_link() {
	local spec=$1 state=$2 ends
	ends=$(_port_ends "$spec")
	[ -n "$ends" ] || { lab_die "no port \"$spec\" in lab \"$LAB\""; return 1; }
	set -- $ends
	ip -n "$(lab_ns "$1")" link set "$2" "$state" &&
		ip -n "$(lab_ns "$3")" link set "$4" "$state"
}

_drain_link() {
	local q
	# shellcheck disable=SC2046 # four words: NODE PORT PEER PEER_PORT
	set -- $(_port_ends "$1")
	for _ in $(seq 25); do
		q=$( { tc -n "$(lab_ns "$1")" -s -j qdisc show dev "$2" root
		       tc -n "$(lab_ns "$3")" -s -j qdisc show dev "$4" root; } 2>/dev/null |
		     jq -s '[.[][] | .qlen // 0] | add // 0')
		[ "${q:-0}" -eq 0 ] && return 0
		sleep 0.02
	done
}

lab_fail() {
	local old
	[ -s "$LAB_STATE/netns" ] || { lab_die "lab \"$LAB\" is not up"; return 1; }
	[ -n "$(_port_ends "$1")" ] || { lab_die "no port \"$1\" in lab \"$LAB\""; return 1; }
	grep -qxF "$1" "$LAB_STATE/down" || echo "$1" >> "$LAB_STATE/down"
	old=$(mktemp); cp "$LAB_STATE/plan" "$old"
	_plan > "$LAB_STATE/plan.new" && mv "$LAB_STATE/plan.new" "$LAB_STATE/plan"
	# The reroute goes in first, then the link goes down: a fast reroute
	# without a window in which packets have no route. In between, up to
	# half a second for what is queued on the link to leave, so the
	# failure itself drops nothing a pause could still hold (a paused
	# queue does not drain: it is dropped, as in a real failure).
	_apply_routes "$old" "$LAB_STATE/plan"
	rm -f "$old"
	_drain_link "$1"
	_set_link "$1" down || return 1
	lab_log "link $1 failed; routes updated"
}

lab_restore() {
	local old n ends
	[ -s "$LAB_STATE/netns" ] || { lab_die "lab \"$LAB\" is not up"; return 1; }
	ends=$(_port_ends "$1")
	[ -n "$ends" ] || { lab_die "no port \"$1\" in lab \"$LAB\""; return 1; }
	_set_link "$1" up || return 1
	grep -vxF "$1" "$LAB_STATE/down" > "$LAB_STATE/down.new"
	mv "$LAB_STATE/down.new" "$LAB_STATE/down"
	old=$(mktemp); cp "$LAB_STATE/plan" "$old"
	_plan > "$LAB_STATE/plan.new" && mv "$LAB_STATE/plan.new" "$LAB_STATE/plan"
	# The link's two ends lost their neighbour entries and the routes over
	# it when it went down: give them back first, then move the others.
	set -- $ends
	for n in "$1" "$3"; do
		{ _neigh_batch "$n"; _routes_batch "$n" "$LAB_STATE/plan"; } |
			ip -n "$(lab_ns "$n")" -force -batch - 2>/dev/null
	done
	_apply_routes "$old" "$LAB_STATE/plan"
	rm -f "$old"
	lab_log "link $1:$2 restored; routes updated"
}

# A static route by hand (scenarios use it to misconfigure one).
lab_route() {
	local n=$1 dst=$2 port=$3 via
	via=$(awk -v n="$n" -v p="$port" '$1 == "addr" && $2 == n && $3 == p { print $5 }' "$LAB_STATE/plan")
	[ -n "$via" ] || { lab_die "no port $n:$port"; return 1; }
	ip -n "$(lab_ns "$n")" route replace "$(lab_host_addr "$dst")/32" via "$via" dev "$port"
}

lab_spawn() {
	local name=$1 node=$2 log=$3; shift 3
	if [ -n "${_LAB_LOCK_FD:-}" ]; then
		setsid nsenter --net="/run/netns/$(lab_ns "$node")" "$@" > "$log" 2>&1 < /dev/null {_LAB_LOCK_FD}>&- &
	else
		setsid nsenter --net="/run/netns/$(lab_ns "$node")" "$@" > "$log" 2>&1 < /dev/null &
	fi
	echo "$! $name" >> "$LAB_STATE/pids"
}

lab_pid() { awk -v n="$1" '$2 == n { print $1 }' "$LAB_STATE/pids" | tail -1; }

# lab_wait_udp NODE PORT: until a UDP socket of NODE is bound to PORT (at
# most 5 s; 1 if it never is). A sender started before its receiver binds
# loses its first datagrams at the host (UDP NoPorts), which no lab counter
# names: a fixed sleep did that on a busy machine.
lab_wait_udp() {
	for _ in $(seq 100); do
		[ -n "$(lab_exec "$1" ss -Hlun "sport = :$2" 2>/dev/null)" ] && return 0
		sleep 0.05
	done
	echo "vmlab: $1: nothing bound to UDP port $2 after 5 s" >&2
	return 1
}

lab_stop() {
	local pid
	pid=$(lab_pid "$1")
	[ -n "$pid" ] || return 0
	kill -TERM -- "-$pid" 2>/dev/null
	for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	kill -KILL -- "-$pid" 2>/dev/null
	awk -v n="$1" '$2 != n' "$LAB_STATE/pids" > "$LAB_STATE/pids.new"
	mv "$LAB_STATE/pids.new" "$LAB_STATE/pids"
}

lab_down() {
	local rc
	[ -n "${LAB_STATE:-}" ] || return 0
	_lab_lock -w 120
	case $? in
	0) _lab_down; rc=$?
	   [ -d "$LAB_STATE" ] || rm -f "$LAB_RUN/$LAB.lock"
	   _lab_unlock ;;
	3) _lab_down; rc=$? ;;
	*) lab_die "lab \"$LAB\" stays locked by another vmlab"; return 1 ;;
	esac
	LAB_MINE=0
	return $rc
}

# Exit traps: down only a lab this process brought up, never the one a
# refused up found running.
lab_down_mine() { [ "${LAB_MINE:-0}" = 1 ] && lab_down; return 0; }

_lab_down() {
	local pid alive
	[ -d "$LAB_STATE" ] || return 0
	lab_mark down-begin
	if [ -f "$LAB_STATE/pids" ]; then
		while read -r pid _; do kill -TERM -- "-$pid" 2>/dev/null; done < "$LAB_STATE/pids"
		for _ in $(seq 30); do
			alive=0
			while read -r pid _; do kill -0 "$pid" 2>/dev/null && alive=1; done < "$LAB_STATE/pids"
			[ $alive = 1 ] || break
			sleep 0.1
		done
		while read -r pid _; do kill -KILL -- "-$pid" 2>/dev/null; done < "$LAB_STATE/pids"
	fi
	lab_mark down-processes
	if [ -f "$LAB_STATE/netns" ]; then
		# Stray processes (started with vmlab exec ... &) die with the
		# lab: every process whose network namespace is one of the lab's,
		# found in one pass over /proc (not one "ip netns pids" each).
		_lab_strays | xargs -r kill -KILL 2>/dev/null
		# One process deletes them all (the kernel frees them later, in
		# batches, off this path).
		sed 's/^/netns del /' "$LAB_STATE/netns" | ip -force -batch - 2>/dev/null
	fi
	lab_mark down-netns
	# Pins outlive namespaces; they go with the lab's bpffs.
	mountpoint -q "$LAB_STATE/bpffs" && umount "$LAB_STATE/bpffs"
	rm -rf "$LAB_STATE"
}

# Pids of the processes in the lab's namespaces (by namespace inode).
_lab_strays() {
	local -a ns=()
	mapfile -t ns < <(sed 's|^|/run/netns/|' "$LAB_STATE/netns")
	[ ${#ns[@]} -gt 0 ] || return 0
	{
		stat -L -c 'ns %i' "${ns[@]}" 2>/dev/null
		stat -L -c 'pid %i %n' /proc/[0-9]*/ns/net 2>/dev/null
	} | awk '$1 == "ns" { lab[$2]; next }
		$1 == "pid" && ($2 in lab) { split($3, p, "/"); print p[3] }'
}
