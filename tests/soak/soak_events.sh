#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The soak's events: freezes (SIGSTOP/SIGCONT), kills and restarts of the
# pause agents and their standbys, live rule updates; each logged with its
# time since the start (events.log: "SECONDS EVENT DETAILS"). Counters are
# sampled after every event (samples.jsonl), so that the counts of an agent
# that a restart replaces are kept. Source after soak_lab.sh.

SOAK_FROZEN=()
SOAK_RULES_NOW=A

soak_now() { awk -v a="$T0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }'; }
soak_log() { echo "$(soak_now) $*" | tee -a "$SOAK_DIR/events.log"; }

# One JSON line per node: {"t", "node", "pfc": show -j, "dp": switch show -j}.
# Not while a node's agent is frozen: show would wait for its tick.
soak_sample() {
	local n=$1 pfc dp=null
	pfc=$(ns_exec "$n" timeout 5 "$TAGGER" -j pfc show "$n" 2>/dev/null) || pfc=null
	[ -n "$pfc" ] || pfc=null
	case $n in sw*)
		dp=$(ns_exec "$n" "$TAGGER" -j switch show "$n" 2>/dev/null) || dp=null
		[ -n "$dp" ] || dp=null ;;
	esac
	printf '{"t": %s, "node": "%s", "pfc": %s, "dp": %s}\n' "$(soak_now)" "$n" \
		"$pfc" "$dp" >>"$SOAK_DIR/samples.jsonl"
}
# The end hosts' UDP losses (kernel counters, /proc/net/snmp of their
# namespace): "NODE NAME VALUE" lines.
soak_udp_counters() {
	local n
	for n in h1 h2; do
		ns_exec "$n" awk -v n="$n" '/^Udp:/ {
			if (!h) { split($0, k); h = 1; next }
			for (i = 2; i <= NF; i++) print n, k[i], $i }' /proc/net/snmp
	done
}
soak_sample_all() { for n in h1 sw1 sw2 h2; do soak_sample "$n"; done; }

soak_thaw_all() {
	local p
	for p in "${SOAK_FROZEN[@]}"; do kill -CONT "$p" 2>/dev/null; done
	SOAK_FROZEN=()
}

# soak_rand LO HI: a whole number in [LO, HI] from the seeded RANDOM.
soak_rand() { echo $(($1 + RANDOM % ($2 - $1 + 1))); }
soak_pick() { shift $((RANDOM % $#)); echo "$1"; }

# soak_ensure NODE: an agent runs on NODE (restarted with the same
# arguments, adopting, if agent and standby are both gone).
soak_ensure() {
	local n=$1
	[ -n "$(soak_pid "$n" agent)" ] && return 0
	sleep 0.3	# a standby may be taking over
	[ -n "$(soak_pid "$n" agent)" ] && return 0
	soak_sample "$n"
	soak_agent "$n" same && soak_log restart "$n same (no agent was running)" ||
		soak_log error "$n: the agent does not start again"
}

# soak_pids NODE agent|standby|both: the pids, one a line.
soak_pids() {
	case $2 in
	agent | standby) soak_pid "$1" "$2" ;;
	both) soak_agent_procs "$1" ;;
	esac
}

# Every process of NODE's pause agent (agent, standby, one taking over):
# those whose command line is the agent's, in NODE's namespace.
soak_agent_procs() {
	local p
	for p in $(ip netns pids "$(ns_name "$1")" 2>/dev/null); do
		tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -q " pfc agent $1 " &&
			echo "$p"
	done
}

# soak_kill_group PID...: SIGKILL the process groups of PIDs (the agent's
# setsid group holds the agent and its standbys), then any PID left.
soak_kill_group() {
	local p g me
	me=$(awk '{ print $5 }' "/proc/$$/stat")
	for p in "$@"; do
		g=$(awk '{ print $5 }' "/proc/$p/stat" 2>/dev/null)
		[ -n "$g" ] && [ "$g" -gt 1 ] && [ "$g" != "$me" ] &&
			kill -KILL -- "-$g" 2>/dev/null
	done
	kill -KILL "$@" 2>/dev/null
}

soak_freeze() {
	local n=$1 who=$2 ms=$3 pids=() p
	mapfile -t pids < <(soak_pids "$n" "$who")
	[ ${#pids[@]} -gt 0 ] || { soak_log skip "freeze $n $who: no such process"; return; }
	SOAK_FROZEN=("${pids[@]}")
	soak_log freeze "$n $who ${ms}ms pids ${pids[*]}"
	kill -STOP "${pids[@]}" 2>/dev/null
	sleep "$(awk -v m="$ms" 'BEGIN { printf "%.3f", m / 1000 }')"
	for p in "${pids[@]}"; do kill -CONT "$p" 2>/dev/null; done
	SOAK_FROZEN=()
	soak_log thaw "$n $who"
}

soak_kill() {
	local n=$1 who=$2 how=$3 pids=()
	mapfile -t pids < <(soak_pids "$n" "$who")
	[ ${#pids[@]} -gt 0 ] || { soak_log skip "kill $n $who: no such process"; return; }
	if [ "$who" = both ]; then
		# One kill(2) for the whole process group: killed one by one, a
		# standby may take over between the two and fork a new standby.
		soak_kill_group "${pids[@]}"
	else
		kill -KILL "${pids[@]}" 2>/dev/null
	fi
	soak_log kill "$n $who pids ${pids[*]}"
	[ "$who" = both ] || return 0
	sleep "$(awk -v m="$(soak_rand 50 1000)" 'BEGIN { printf "%.3f", m / 1000 }')"
	soak_sample "$n"	# the dead agent's last counts
	if soak_agent "$n" "$how"; then
		soak_log restart "$n $how $(grep -c 'not adopting' "$SOAK_DIR/agent-$n.log") non-adopting so far"
	else
		soak_log error "$n: restart ($how) failed"
	fi
}

soak_update() {
	local n=$1 form=$2 to rc
	to=$([ "$SOAK_RULES_NOW" = A ] && echo B || echo A)
	ns_exec "$n" "$TAGGER" -q switch update "$n" "$SOAK_DIR/$to.$form" \
		>>"$SOAK_DIR/update.log" 2>&1
	rc=$?
	soak_log update "$n -> $to ($form) rc $rc"
	# Both switches carry the same set most of the time; an update of one
	# only is a valid mixed state too (each set is deadlock-free alone and
	# the union check passed).
	[ "$n" = sw2 ] && SOAK_RULES_NOW=$to
}

# soak_chaos SECONDS: one random event every 1-4 s until SECONDS are up.
soak_chaos() {
	local end=$1 n r
	while awk -v a="$(soak_now)" -v e="$end" 'BEGIN { exit !(a < e - 1) }'; do
		sleep "$(awk -v m="$(soak_rand 1000 4000)" 'BEGIN { printf "%.3f", m / 1000 }')"
		n=$(soak_pick sw1 sw1 sw2 sw2 h1 h2)
		r=$(soak_rand 1 100)
		if [ "$r" -le 45 ]; then
			soak_freeze "$n" "$(soak_pick agent agent standby both)" "$(soak_rand 200 5000)"
		elif [ "$r" -le 70 ]; then
			soak_kill "$n" "$(soak_pick agent standby both both)" "$(soak_pick same same other)"
		else
			n=$(soak_pick sw1 sw2)
			soak_update sw1 "$(soak_pick json trb)"
			soak_update sw2 "$(soak_pick json trb)"
		fi
		soak_sample "$n"
		soak_ensure "$n"
	done
}
