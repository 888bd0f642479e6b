#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The k = 4 fat-tree of slow_fabric_k4.sh, sourced after tests/lib.sh: a
# vmlab lab (20 switches, 16 hosts) with its management network (the
# controller's namespace K4_MGMT, a /31 to every switch's mgmt0), an sshd
# in every switch namespace, the controller's ssh identity, and the pause
# agents, hosts and traffic of vmlab's scenarios.
#
#   k4_lab_up              lab, management network, data plane v1, agents
#   k4_sshd_up SW...       an sshd in each switch's namespace (K4_SSH)
#   k4_sshd_down SW...     stopped
#   ctl CMD...             CMD as the controller: in K4_MGMT, in a mount
#                          namespace where root's home is K4_HOME (its
#                          ~/.ssh: the run's key, known hosts and config)
#   k4_inventory [KEY=VALUE...] > FILE
#                          the ssh inventory: every switch at its mgmt0
#                          address, its pause agent named, KEY=VALUE on
#                          every host line
#
# The sshds are this run's: host keys and the client key are made in
# $TGR_TMP/ssh, each listens only on its switch's management address in
# the switch's namespace, and they go with the lab (lab_down kills every
# process in its namespaces). Nothing is written to this machine's ssh
# configuration or root's ~/.ssh.
source "$TOP/vmlab/lib.sh"
source "$TOP/vmlab/scenario-nodes.sh"

SSHD=${SSHD:-/usr/sbin/sshd}
K4_SSH=$TGR_TMP/ssh
K4_HOME=$TGR_TMP/home
K4_ROOT_HOME=$(getent passwd root | cut -d: -f6)

k4_lab_up() {
	lab_init "${TGR_PREFIX}k" || fail "lab name"
	tgr_on_exit 'lab_down'
	"$TAGGER" topo fattree 4 -o "$TGR_TMP/ft4.topo" || fail "topo fattree 4"
	"$TAGGER" paths updown "$TGR_TMP/ft4.topo" -o "$TGR_TMP/up.elp" || fail "paths updown"
	LAB_QUIET=1 lab_up "$TGR_TMP/ft4.topo" --paths "$TGR_TMP/up.elp" || fail "lab up"
	LAB_QUIET=1 lab_mgmt_up || fail "the management network"
	K4_MGMT=$(lab_mgmt_ns)
	K4_SW=$(lab_nodes switch | tr '\n' ' ')
}

# k4_dataplane RULES LOSSLESS: RULES on every switch and host (vmlab's
# sc_dataplane), a pause agent on every node for the priorities LOSSLESS.
k4_dataplane() {
	SC_DIR=$TGR_TMP/sc SC_RULES=$1 SC_RATE=${SC_RATE:-100mbit}
	mkdir -p "$SC_DIR"
	sc_dataplane tagger || fail "the data plane: $(tail -3 "$SC_DIR/attach.log")"
	SC_LOSSLESS=$2
	sc_pause_start || fail "the pause agents"
}

k4_keys() {
	mkdir -p "$K4_SSH" "$K4_HOME/.ssh" || fail "mkdir"
	chmod 700 "$K4_HOME/.ssh"
	ssh-keygen -q -t ed25519 -N '' -C "tagger test $TGR_PREFIX" \
		-f "$K4_HOME/.ssh/id_ed25519" || fail "ssh-keygen (client)"
	cp "$K4_HOME/.ssh/id_ed25519.pub" "$K4_SSH/authorized_keys"
	cat >"$K4_HOME/.ssh/config" <<-EOF
	Host *
	  User root
	  IdentityFile ~/.ssh/id_ed25519
	  IdentitiesOnly yes
	  UserKnownHostsFile ~/.ssh/known_hosts
	  StrictHostKeyChecking yes
	  ControlMaster auto
	  ControlPath ~/.ssh/cm-%C
	  ControlPersist 120
	EOF
	chmod 600 "$K4_HOME/.ssh/config"
	: >"$K4_HOME/.ssh/known_hosts"
}

k4_addr() { awk -v n="$1" '$1 == n { print $2 }' "$LAB_STATE/mgmt"; }

# The sshd of switch $1: its own host key, its address only.
k4_sshd_conf() {
	local n=$1 d=$K4_SSH/$1 a
	a=$(k4_addr "$n")
	mkdir -p "$d"
	[ -e "$d/host_key" ] || {
		ssh-keygen -q -t ed25519 -N '' -C "$n" -f "$d/host_key" || fail "ssh-keygen $n"
		echo "$a $(cut -d' ' -f1,2 "$d/host_key.pub")" >>"$K4_HOME/.ssh/known_hosts"
	}
	cat >"$d/sshd_config" <<-EOF
	ListenAddress $a:22
	HostKey $d/host_key
	PidFile none
	AuthorizedKeysFile $K4_SSH/authorized_keys
	PermitRootLogin prohibit-password
	PasswordAuthentication no
	KbdInteractiveAuthentication no
	UsePAM no
	StrictModes no
	MaxStartups 64
	Subsystem sftp internal-sftp
	SetEnv TAGGER_BPF_ROOT=$TAGGER_BPF_ROOT TAGGER_PFC_DIR=$TAGGER_PFC_DIR
	EOF
}

k4_sshd_up() {
	local n a
	# sshd's privilege separation directory (Debian's service makes it).
	[ -d /run/sshd ] || { mkdir -m 0755 /run/sshd && tgr_on_exit 'rmdir /run/sshd 2>/dev/null'; }
	[ -s "$K4_SSH/authorized_keys" ] || k4_keys
	for n in "$@"; do
		k4_sshd_conf "$n"
		lab_spawn "sshd-$n" "$n" "$K4_SSH/$n/log" "$SSHD" -D -e -f "$K4_SSH/$n/sshd_config"
	done
	for n in "$@"; do
		a=$(k4_addr "$n")
		for _ in $(seq 100); do
			[ -n "$(lab_exec "$n" ss -Hltn "src $a and sport = :22")" ] && continue 2
			kill -0 "$(lab_pid "sshd-$n")" 2>/dev/null ||
				fail "the sshd of $n died: $(tail -3 "$K4_SSH/$n/log")"
			sleep 0.05
		done
		fail "the sshd of $n does not listen on $a:22"
	done
}

# The listener and its sessions (ssh's shared connections outlive the
# listener: status ran on through them).
k4_sshd_down() {
	local n p
	for n in "$@"; do
		lab_stop "sshd-$n"
		for p in $(ip netns pids "$(lab_ns "$n")"); do
			[ "$(cat "/proc/$p/comm" 2>/dev/null)" = sshd ] && kill "$p"
		done
	done
	sleep 0.5
}

ctl() {
	nsenter --net="/run/netns/$K4_MGMT" unshare -m --propagation private \
		sh -c 'mount --bind "$0" "$1" && shift && exec "$@"' "$K4_HOME" "$K4_ROOT_HOME" "$@"
}

k4_inventory() {
	local n
	echo "# the k = 4 fat-tree, by ssh to every switch's mgmt0"
	echo "[fabric]"
	for n in $K4_SW; do
		echo "$n ansible_host=$(k4_addr "$n") tagger_pfc=$n $*"
	done
	echo "[all:vars]"
	echo "ansible_user=root"
	echo "tagger_bpf_root=$TAGGER_BPF_ROOT"
	echo "tagger_path=$TAGGER"
	echo "tagger_timeout=30"
}
