#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# vmlab routing by a real protocol: FRR's zebra + bgpd in every switch
# namespace (sourced by lib.sh; used by `vmlab up TOPO --bgp`).
#
# eBGP as in RFC 7938 data centers, one private AS per switch, sessions on
# the /31 of every switch-to-switch link, connected subnets (the hosts'
# links) redistributed, ECMP over equal AS-path lengths. With one AS per
# switch nothing forbids valley paths, so when a leaf loses its link to a
# ToR, BGP itself gives it the route through another spine: the bounce of
# the Tagger paper, from the protocol. Hosts use their ToR as default.
#
#   frr_up            config + daemons for every switch, wait for routes
#   frr_converged     every switch routes every host (0) or not (1)
FRR_BIN=${FRR_BIN:-/usr/lib/frr}

_frr_asn() { awk -v n="$1" '$1 == "switch" { i++; if ($2 == n) print 65000 + i }' "$LAB_STATE/topo"; }

_frr_conf() {
	local n=$1 node port peer pnode kind
	echo "frr defaults datacenter"
	echo "hostname $n"
	echo "log file $LAB_STATE/frr/$n/frr.log"
	echo "router bgp $(_frr_asn "$n")"
	echo " bgp router-id $(awk -v n="$n" '$1 == "addr" && $2 == n { sub("/31", "", $4); print $4; exit }' "$LAB_STATE/plan")"
	echo " no bgp ebgp-requires-policy"
	echo " no bgp network import-check"
	echo " bgp bestpath as-path multipath-relax"
	echo " timers bgp 1 3"
	while read -r _ node port _ peer pnode _; do
		[ "$node" = "$n" ] || continue
		kind=$(awk -v p="$pnode" '($1 == "switch" || $1 == "host") && $2 == p { print $1 }' "$LAB_STATE/topo")
		[ "$kind" = switch ] || continue
		echo " neighbor $peer remote-as $(_frr_asn "$pnode")"
		echo " neighbor $peer timers connect 1"
		echo " neighbor $peer advertisement-interval 0"
	done < <(awk '$1 == "addr"' "$LAB_STATE/plan")
	echo " address-family ipv4 unicast"
	echo "  redistribute connected"
	echo "  maximum-paths 16"
	echo " exit-address-family"
}

frr_converged() {
	local n h a
	for n in $(lab_nodes switch); do
		for h in $(lab_nodes host); do
			a=$(lab_host_addr "$h")
			ip -n "$(lab_ns "$n")" route get "$a" 2>/dev/null | grep -q " via \| dev " || return 1
			ip -n "$(lab_ns "$n")" route show match "$a" | grep -q . || return 1
		done
	done
}

frr_up() {
	local n d i
	[ -x "$FRR_BIN/bgpd" ] || { lab_die "needs FRR ($FRR_BIN/bgpd; Debian package frr)"; return 1; }
	for n in $(lab_nodes switch); do
		d=$LAB_STATE/frr/$n
		mkdir -p "$d"
		: > "$d/zebra.conf"
		_frr_conf "$n" > "$d/bgpd.conf"
		# The daemons drop to user frr (root is not in frrvty).
		chown -R frr:frr "$d"
		lab_spawn "zebra-$n" "$n" "$d/zebra.out" "$FRR_BIN/zebra" -u frr -g frr \
			-f "$d/zebra.conf" -i "$d/zebra.pid" -z "$d/zserv.api" --vty_socket "$d" \
			--log "file:$d/zebra.log"
	done
	for n in $(lab_nodes switch); do
		d=$LAB_STATE/frr/$n
		for i in $(seq 50); do [ -S "$d/zserv.api" ] && break; sleep 0.1; done
		lab_spawn "bgpd-$n" "$n" "$d/bgpd.out" "$FRR_BIN/bgpd" -u frr -g frr \
			-f "$d/bgpd.conf" -i "$d/bgpd.pid" -z "$d/zserv.api" --vty_socket "$d" \
			--log "file:$d/bgpd.log"
	done
	# Hosts: everything through the ToR.
	while read -r _ node port _ peer pnode _; do
		grep -qx "host $node" "$LAB_STATE/topo" &&
			ip -n "$(lab_ns "$node")" route replace default via "$peer" dev "$port"
	done < <(awk '$1 == "addr"' "$LAB_STATE/plan")
	for i in $(seq 60); do
		frr_converged && { lab_log "BGP converged in $((i / 2)) s"; return 0; }
		sleep 0.5
	done
	lab_die "BGP did not converge in 30 s (logs in $LAB_STATE/frr)"
}
