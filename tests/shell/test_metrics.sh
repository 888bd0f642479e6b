#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tagger metrics: the counters of `switch show` and `pfc show` for
# Prometheus. On the pause line h1 - sw1 - sw2 - h2 (pfc_lib.sh), sw1 also
# runs switch S1's tagging rules (dp_lab.sh's bpffs and fixture) on the
# same ports. After some traffic:
#  - the command line: help at every level, -j, exit 2 on bad usage
#  - `metrics show` (stdout, -o FILE, -j) passes `promtool check metrics`
#  - `metrics serve` answers /metrics (404, 405 otherwise) in sw1's
#    namespace; a Prometheus server there scrapes it every second, and its
#    query API answers a switch and a pause counter with the very values
#    `switch show` and `pfc show` report; SIGTERM stops the server (exit 0)
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd python3
require_cmd nsenter
require_cmd curl
require_cmd promtool
require_cmd prometheus
source "$TOP/tests/shell/pfc_lib.sh"
source "$TOP/tests/shell/dp_lab.sh"

# The command line first: nothing to set up for it.
check "metrics help" "$TAGGER" metrics help 2>/dev/null
check "-j metrics help prints null" [ "$("$TAGGER" -j metrics help)" = null ]
check "-j metrics show help prints null" [ "$("$TAGGER" -j metrics show help)" = null ]
"$TAGGER" metrics serve help 2>&1 | grep -q -- "--listen" || fail "serve help"
usage() {
	local what=$1 out rc; shift
	out=$("$TAGGER" "$@" 2>&1); rc=$?
	[ $rc -eq 2 ] && echo "$out" | grep -q "^Error: " ||
		fail "$what: exit $rc, $out"
	echo "ok: $what: exit 2 with a message"
}
"$TAGGER" metrics 2>/dev/null
check "no verb: the help, exit 2" [ $? -eq 2 ]
usage "unknown verb" metrics scrape
usage "unknown option" metrics show --bogus
usage "option without value" metrics show --switch
usage "bad node name" metrics show --pfc ../x
usage "-o on serve" metrics serve -o x
for a in 1.2.3.4:65536 1.2.3.4:x localhost:80 ::1:80 '[::1' 10.0.0.256:1 ''; do
	usage "bad --listen '$a'" metrics serve --listen "$a"
done

dp_bpffs_up
pfc_line
pfc_agent sw1 p1=sw1-h1 p2=sw1-sw2
pfc_agent sw2 p1=sw2-sw1 p2=sw2-h2
cp "$FIX/dp_line.rules.json" "$TGR_TMP/rules.json"
tgr sw1 switch attach S1 "$TGR_TMP/rules.json" hp=sw1-h1 r=sw1-sw2 >/dev/null ||
	fail "attach S1 on sw1"

out=$TGR_TMP/m.prom
rm -f "$out"
tgr sw1 metrics show --switch nosuch -o "$out" 2>/dev/null &&
	fail "metrics show of a switch that is not there succeeded"
check "... and left no file" [ ! -e "$out" ]

# Tag 10 (lossless on S1) and tag 24 (no rule: demoted, by reason).
nsx h1 python3 "$TRAFFIC" send 10.61.3.2 5001 10 20 1 >/dev/null &
spid=$!
nsx h1 python3 "$TRAFFIC" send 10.61.3.2 5002 24 5 1 >/dev/null
wait $spid
sleep 0.5	# what sw1 and sw2 still hold leaves

# (a) once, for the textfile collector.
tgr sw1 metrics show >"$out" || fail "metrics show"
check "metrics show passes promtool check metrics" promtool check metrics <"$out"
[ -n "${METRICS_KEEP:-}" ] && cp "$out" "$METRICS_KEEP"
fams=$(grep -c '^# TYPE' "$out")
check "HELP and TYPE once per family ($fams)" \
	[ "$(grep '^# TYPE' "$out" | sort -u | wc -l)" = "$fams" -a \
	  "$(grep -c '^# HELP' "$out")" = "$fams" ]
for m in 'tagger_switch_packets_total{node="S1",port="hp",direction="in",tag="10",class="lossless"}' \
	 'tagger_switch_lossy_total{node="S1",port="hp",reason=' \
	 'tagger_switch_cnp_packets_total{node="S1",port="hp"} 0' \
	 'tagger_pfc_agent_up{node="sw1"} 1' 'tagger_pfc_paused_seconds_total{' \
	 'tagger_pfc_frames_sent_total{' 'tagger_pfc_buffered_bytes{' \
	 'tagger_metrics_collect_success{kind="pfc",node="sw1"} 1'; do
	grep -qF "$m" "$out" || fail "no $m in metrics show"
done
echo "ok: switch and pause families found in this namespace"
grep -q 'node="sw2"' "$out" && fail "sw2's agent (another namespace) was reported"
check "-o FILE passes promtool too" \
	sh -c "nsenter --net=/run/netns/$(ns_name sw1) $TAGGER metrics show --switch S1 \
		--pfc sw1 -o $TGR_TMP/f.prom && promtool check metrics <$TGR_TMP/f.prom"
check "-j metrics show is the families as JSON" [ "$(tgr sw1 -j metrics show --pfc sw1 |
	dp_json "[f['type'] for f in d if f['name'] == 'tagger_pfc_agent_up'][0]")" = gauge ]

# (b) the endpoint, scraped by Prometheus, both in sw1's namespace.
nsenter --net="/run/netns/$(ns_name sw1)" setsid "$TAGGER" -j metrics serve \
	--listen 127.0.0.1:0 >"$TGR_TMP/serve.out" 2>"$TGR_TMP/serve.err" &
serve=$!
bg_track $serve
for _ in $(seq 50); do [ -s "$TGR_TMP/serve.out" ] && break; sleep 0.1; done
addr=$(dp_json 'd["listen"]' <"$TGR_TMP/serve.out") || fail "serve printed no address"
echo "serving on $addr"
code() { nsx sw1 curl -s -o /dev/null -w '%{http_code} %{content_type}' "$@"; }
check "GET /metrics: 200, text format 0.0.4" \
	[ "$(code "http://$addr/metrics")" = "200 text/plain; version=0.0.4; charset=utf-8" ]
check "another path: 404" [ "$(code "http://$addr/")" = "404 text/plain; charset=utf-8" ]
check "POST: 405" [ "$(code -X POST "http://$addr/metrics")" = "405 text/plain; charset=utf-8" ]
# http_raw WHAT: send WHAT (python bytes) to the endpoint, print the status
# line of the answer (the connection closed on both sides).
http_raw() {
	nsx sw1 python3 -c "
import socket, sys
s = socket.create_connection(('${addr%:*}', ${addr##*:}), timeout=10)
try:
    s.sendall($1)
except OSError:
    pass
print(s.makefile('rb').readline().decode().strip())"
}
check "a request head over 8 KiB: 431" \
	[ "$(http_raw "b'GET /metrics HTTP/1.1\\r\\nX: ' + b'a' * 9000")" = \
	  "HTTP/1.1 431 Request Header Fields Too Large" ]
check "not HTTP: 400" [ "$(http_raw "b'hello\\r\\n\\r\\n'")" = "HTTP/1.1 400 Bad Request" ]
check "HTTP/1.0 GET: 200" [ "$(http_raw "b'GET /metrics?x=1 HTTP/1.0\\r\\n\\r\\n'")" = "HTTP/1.1 200 OK" ]
# A client that connects and says nothing holds no scrape up (5 s, the
# budget of its request, before; test_metrics_serve.sh has 500 of them).
nsx sw1 python3 -c "
import socket, time
s = socket.create_connection(('${addr%:*}', ${addr##*:})); time.sleep(8)" &
idle=$!
sleep 0.3
t0=$(date +%s%N)
check "a scrape behind a silent client is answered" \
	nsx sw1 curl -sf --max-time 3 -o /dev/null "http://$addr/metrics"
echo "... after $(( ($(date +%s%N) - t0) / 1000000 )) ms"
kill $idle 2>/dev/null; wait $idle 2>/dev/null
nsx sw1 curl -s "http://$addr/metrics" >"$TGR_TMP/scraped.prom"
check "what it serves passes promtool" promtool check metrics <"$TGR_TMP/scraped.prom"

cat >"$TGR_TMP/prometheus.yml" <<EOC
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: tagger
    static_configs:
      - targets: ['$addr']
EOC
nsenter --net="/run/netns/$(ns_name sw1)" setsid prometheus \
	--config.file="$TGR_TMP/prometheus.yml" --storage.tsdb.path="$TGR_TMP/tsdb" \
	--web.listen-address=127.0.0.1:9090 >"$TGR_TMP/prometheus.log" 2>&1 &
prom=$!
bg_track $prom

# promql QUERY: the value of its one sample, once Prometheus has it.
promql() {
	local _ v
	for _ in $(seq 60); do
		v=$(nsx sw1 curl -s -G http://127.0.0.1:9090/api/v1/query \
			--data-urlencode "query=$1" 2>/dev/null | python3 -c '
import json, sys
r = json.load(sys.stdin)["data"]["result"]
print(r[0]["value"][1] if len(r) == 1 else "")' 2>/dev/null)
		[ -n "$v" ] && { echo "$v"; return 0; }
		sleep 0.5
	done
	tail -5 "$TGR_TMP/prometheus.log" >&2
	fail "Prometheus has no value for $1"
}

# The busiest lossless priority of sw1's ports (the tag 10 traffic).
read -r port prio < <(tgr sw1 -j pfc show sw1 | dp_json '" ".join(max(
	((x["name"], str(p["prio"]), p["packets"]) for x in d["ports"] for p in x["prios"]),
	key=lambda t: t[2])[:2])')
q="tagger_pfc_packets_total{node=\"sw1\",port=\"$port\",priority=\"$prio\"}"
got=$(promql "$q")
want=$(tgr sw1 -j pfc show sw1 | dp_json "[p['packets'] for x in d['ports'] if x['name'] == '$port' for p in x['prios'] if p['prio'] == $prio][0]")
echo "$q: Prometheus $got, pfc show $want"
check "Prometheus answers pfc show's packet count" [ "$got" = "$want" -a "$want" -gt 0 ]

q='tagger_switch_bytes_total{node="S1",port="hp",direction="in",tag="10",class="lossless"}'
got=$(promql "$q")
want=$(tgr sw1 -j switch show S1 | dp_json "[c['bytes'] for x in d['ports'] if x['port'] == 'hp' for c in x['in'] if c['tag'] == 10 and c['lossless']][0]")
echo "$q: Prometheus $got, switch show $want"
check "Prometheus answers switch show's byte count" [ "$got" = "$want" -a "$want" -gt 0 ]
check "Prometheus sees sw1's agent up" [ "$(promql 'tagger_pfc_agent_up{node="sw1"}')" = 1 ]

kill -TERM $prom
kill -TERM $serve
wait $serve
check "SIGTERM stops metrics serve, exit 0" [ $? -eq 0 ]
wait $prom
tgr sw1 switch detach S1 >/dev/null || fail "detach S1"
