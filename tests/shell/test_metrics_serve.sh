#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tagger metrics serve against clients that do not play along, in a
# namespace of its own (loopback only; no switch or agent, so a collection
# is quick and what is measured is the server):
#  - 500 connections that send nothing: every scrape beside them is
#    answered (the latencies printed, the bound generous for a busy
#    machine; a server taking one connection at a time misses it)
#  - SIGTERM with silent clients connected: exit 0 within the bound (and
#    SIGINT)
#  - a NUL byte, a bare CR: 400 at once, not after the request budget;
#    a head of 1 MB: 431; bare LF line ends: 200
#  - --max-connections N: connection N+1 closes the oldest silent one
#  - an open file limit of 64: the cap lowered to fit (a warning), and
#    scrapes beside 200 silent connections still answered
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd python3
require_cmd prlimit
CLIENTS=$TOP/tests/shell/metrics_clients.py
BOUND_MS=3000	# the requirement is 1 s; the rest is for a loaded machine

ns_new m
mkdir -p "$TGR_TMP/bpf" "$TGR_TMP/pfc"
export TAGGER_PFC_DIR=$TGR_TMP/pfc

# serve_start [OPTIONS]: a server on a free port; $serve, $host, $port.
# $NOFILE: its open file limit.
serve_start() {
	rm -f "$TGR_TMP/serve.out"
	# ip netns exec and prlimit exec: $! is the server, for kill and wait.
	ip netns exec "$(ns_name m)" prlimit --nofile="${NOFILE:-4096}" \
		"$TAGGER" metrics serve --listen 127.0.0.1:0 \
		--bpf-root "$TGR_TMP/bpf" "$@" >"$TGR_TMP/serve.out" \
		2>"$TGR_TMP/serve.err" &
	serve=$!
	bg_track $serve
	for _ in $(seq 100); do
		[ -s "$TGR_TMP/serve.out" ] && break
		sleep 0.05
	done
	local a
	a=$(sed -n 's|^listening on http://\(.*\)/metrics$|\1|p' "$TGR_TMP/serve.out")
	[ -n "$a" ] || fail "serve printed no address: $(cat "$TGR_TMP/serve.err")"
	host=${a%:*}
	port=${a##*:}
}

# serve_stop [SIG]: SIGTERM (or SIG); the milliseconds until it exited in
# $stop_ms, its exit status in $stop_rc.
serve_stop() {
	local t0
	t0=$(date +%s%N)
	kill -"${1:-TERM}" "$serve"
	wait "$serve"
	stop_rc=$?
	stop_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
}

clients() { ns_exec m python3 "$CLIENTS" "$@"; }

serve_start

# (1) 500 silent connections beside 20 scrapes.
out=$(clients scrapes "$host" "$port" 500 20)
echo "$out"
read -r _ n _ answered _ max _ median _ connected _ least < <(echo "$out" | tail -1)
echo "beside 500 silent connections ($connected connected; after a scrape, at least $least open): $answered of $n scrapes answered, max ${max} ms, median ${median} ms"
check "every scrape answered beside them" \
	[ "$n" -eq 20 -a "$answered" -eq 20 ]
check "... each within ${BOUND_MS} ms (max ${max} ms)" \
	[ "${max%.*}" -lt $BOUND_MS ]
check "the 500 silent connections connected" [ "$connected" -eq 500 ]

# (2) Malformed requests: 400 at once (the budget for a request is 5 s).
hex() { printf "$1" | od -An -tx1 | tr -d ' \n'; }
for c in 'NUL in a header:GET /metrics HTTP/1.1\r\nX: \0\r\n\r\n' \
	 'NUL in the request line:GET /metr\0ics HTTP/1.1\r\n\r\n' \
	 'bare CR line ends:GET /metrics HTTP/1.1\rX: y\r\r' \
	 'bare CR in a header:GET /metrics HTTP/1.1\r\nX:\ry\r\n\r\n'; do
	what=${c%%:*}
	read -r status ms _ < <(clients raw "$host" "$port" "$(hex "${c#*:}")")
	echo "$what: $status after $ms ms"
	check "$what: 400" [ "$status" = 400 ]
	check "... at once (${ms} ms)" [ "${ms%.*}" -lt $BOUND_MS ]
done
# A head of 1 MB: 431 once the first 8 KiB are in (as before).
read -r status ms end < <(clients raw "$host" "$port" \
	"$(hex 'GET /metrics HTTP/1.1\r\nX: ')" 1048576)
echo "a head of 1 MB: $status after $ms ms, then $end"
check "a head of 1 MB: 431" [ "$status" = 431 ]
read -r status _ < <(clients raw "$host" "$port" "$(hex 'GET /metrics HTTP/1.1\n\n')")
check "LF-only line ends still work ($status)" [ "$status" = 200 ]

# (3) SIGTERM with 50 silent clients connected.
rm -f "$TGR_TMP/hold"
ip netns exec "$(ns_name m)" python3 "$CLIENTS" hold "$host" "$port" 50 \
	"$TGR_TMP/hold" &
hold=$!
bg_track $hold
for _ in $(seq 200); do [ -s "$TGR_TMP/hold" ] && break; sleep 0.05; done
check "50 silent clients connected" grep -q '^ready 50$' "$TGR_TMP/hold"
serve_stop
echo "SIGTERM with 50 silent clients: exit $stop_rc after $stop_ms ms"
check "SIGTERM with silent clients: exit 0" [ "$stop_rc" -eq 0 ]
check "... within ${BOUND_MS} ms ($stop_ms ms)" [ "$stop_ms" -lt $BOUND_MS ]
kill "$hold" 2>/dev/null
wait "$hold" 2>/dev/null

# (4) The cap: with 4 connections open, one more closes the oldest silent
# one, whether it is silent too or a scrape.
"$TAGGER" metrics serve --max-connections 0 2>/dev/null
check "--max-connections 0: exit 2" [ $? -eq 2 ]
serve_start --max-connections 4
out=$(clients cap "$host" "$port" 4)
echo "$out"
check "a fifth connection closes the oldest silent one" \
	grep -qx 'silent 4: closed 0' <<<"$out"
check "a sixth, the next oldest" grep -qx 'silent 5: closed 0 1' <<<"$out"
check "a scrape is answered, and the next oldest silent one closed" \
	grep -q '^scrape: 200 in .* ms, closed 0 1 2$' <<<"$out"
serve_stop INT
check "SIGINT: exit 0 (${stop_ms} ms)" [ "$stop_rc" -eq 0 -a "$stop_ms" -lt $BOUND_MS ]

# (5) Fewer files than connections: the cap fits the limit, and there is
# still room for the collection.
NOFILE=64 serve_start
echo "an open file limit of 64: $(cat "$TGR_TMP/serve.err")"
out=$(clients scrapes "$host" "$port" 200 10)
read -r _ n _ answered _ max _ < <(echo "$out" | tail -1)
echo "beside 200 silent connections with 64 files: $answered of $n scrapes answered, max $max ms"
check "every scrape answered" [ "$n" -eq 10 -a "$answered" -eq 10 ]
check "... and a warning said the cap was lowered" \
	grep -q 'at most 32 connections, not 512' "$TGR_TMP/serve.err"
serve_stop
check "SIGTERM: exit 0" [ "$stop_rc" -eq 0 ]
