#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make soak: SOAK_SECONDS (default 1800) of lossless traffic through the
# line lab of soak_lab.sh (data plane attached, a pause agent on every
# node, a congested last hop) while the agents are frozen, killed and
# restarted and the rules updated at random (SOAK_SEED), then an
# accounting: every lossless datagram sent was received or is counted by
# a named drop counter of a pause agent or of the data plane. Anything
# else is an unexplained loss: exit 1, with the events around it.
#
#   SOAK_SECONDS=300 SOAK_SEED=7 bash tests/soak/soak.sh
#   SOAK_OUT=DIR keeps the logs (default: a fresh directory under /tmp)
#   SOAK_ZERO_LOSS=1 fails on counted lossless drops too
#
# Not part of `make test`: it runs for half an hour.
source "$(dirname "$0")/../lib.sh"
source "$TOP/tests/shell/pfc_lib.sh"
source "$TOP/tests/soak/soak_lab.sh"
source "$TOP/tests/soak/soak_events.sh"
require_root
require_cmd python3

SOAK_SECONDS=${SOAK_SECONDS:-1800}
SOAK_SEED=${SOAK_SEED:-$(( $(date +%s) % 100000 ))}
SOAK_FLOWS=${SOAK_FLOWS:-3}
SOAK_RATE=${SOAK_RATE:-20}	# Mbit/s each: 3 x 20 into the 20 Mbit/s hop
SOAK_DRAIN=${SOAK_DRAIN:-10}
case $SOAK_SECONDS$SOAK_SEED$SOAK_FLOWS$SOAK_RATE$SOAK_DRAIN in
*[!0-9]*) echo "SOAK_SECONDS, SOAK_SEED, SOAK_FLOWS, SOAK_RATE and SOAK_DRAIN take whole numbers" >&2
	exit 2 ;;
esac
[ "$SOAK_SECONDS" -ge 10 ] && [ "$SOAK_FLOWS" -ge 1 ] && [ "$SOAK_FLOWS" -le 16 ] ||
	{ echo "SOAK_SECONDS wants at least 10, SOAK_FLOWS 1 to 16" >&2; exit 2; }
SOAK_DIR=${SOAK_OUT:-$(mktemp -d /tmp/soak.XXXX)}
mkdir -p "$SOAK_DIR" || exit 2
RANDOM=$SOAK_SEED
echo "soak: ${SOAK_SECONDS} s, seed $SOAK_SEED, $SOAK_FLOWS flows of $SOAK_RATE Mbit/s, logs in $SOAK_DIR"

soak_bpffs_up
soak_rules "$SOAK_DIR"
pfc_line
soak_dataplane_up
for n in h1 sw1 sw2 h2; do soak_agent "$n" || fail "agent $n did not start"; done
# Whatever the run left frozen must not outlive it (cleanup kills by
# namespace; a stopped process dies of SIGKILL too).
tgr_on_exit "soak_thaw_all"

T0=$EPOCHREALTIME
echo "$T0" >"$SOAK_DIR/t0"
soak_log start "seed $SOAK_SEED"
soak_sample_all
soak_udp_counters >"$SOAK_DIR/udp-start.txt"
ns_exec h2 "$TAGGER" flow recv --port "$SOAK_PORT" --interval 1000 \
	--seconds $((SOAK_SECONDS + SOAK_DRAIN)) -o "$SOAK_DIR/recv.jsonl" \
	2>"$SOAK_DIR/recv.err" &
rpid=$!
bg_track $rpid
# The senders start once the receiver's socket is bound: datagrams sent
# before would die as "port unreachable" at h2 (Udp NoPorts), lost with
# every drop counter of the lab at 0.
for _ in $(seq 100); do
	ns_exec h2 ss -Hlun "sport = :$SOAK_PORT" | grep -q . && break
	sleep 0.1
done
spids=()
for k in $(seq "$SOAK_FLOWS"); do
	ns_exec h1 "$TAGGER" flow send 10.61.3.2 --port "$SOAK_PORT" --id "$k" \
		--rate "$SOAK_RATE" --size 1000 --seconds "$SOAK_SECONDS" \
		-o "$SOAK_DIR/send-$k.json" 2>"$SOAK_DIR/send-$k.err" &
	spids+=($!)
	bg_track $!
done
soak_log flows "$SOAK_FLOWS x $SOAK_RATE Mbit/s to h2:$SOAK_PORT"

soak_chaos "$SOAK_SECONDS"

soak_log chaos_end "restoring every agent; draining"
for n in h1 sw1 sw2 h2; do soak_ensure "$n"; done
for p in "${spids[@]}"; do wait "$p"; done
soak_log flows_end ""
wait $rpid
soak_log drained ""
soak_sample_all
soak_udp_counters >"$SOAK_DIR/udp-end.txt"
for n in h1 sw1 sw2 h2; do ns_exec "$n" "$TAGGER" pfc show "$n" >"$SOAK_DIR/show-$n.txt" 2>&1; done
python3 "$TOP/tests/soak/soak_account.py" "$SOAK_DIR" "$SOAK_FLOWS" "${SOAK_ZERO_LOSS:-0}"
