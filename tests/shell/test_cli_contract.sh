#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The machine interface of every command: under -j every help prints null,
# every error is one {"error": "..."} object on stdout, exit codes mean one
# thing (0 ok, 1 problem found, 2 bad input or usage, 3 runtime failure),
# options are exact (--name V, --name=V), deprecated words warn and work.
source "$(dirname "$0")/../lib.sh"
require_cmd jq
cd "$TGR_TMP" || exit 1
T=$TAGGER

OBJECTS="topo paths cbd compile verify stats maps export throughput switch fabric host pfc lab flow metrics"

# The objects `tagger help` lists are exactly these.
listed=$($T help 2>&1 | sed -n '/OBJECT :=/,/}/p' | tr -d '{}|' |
	 sed 's/.*:=//' | tr -s ' \n' '\n' | grep . | sort | tr '\n' ' ')
want=$(echo $OBJECTS | tr ' ' '\n' | sort | tr '\n' ' ')
[ "$listed" = "$want" ] || fail "tagger help lists \"$listed\", the test knows \"$want\""

verbs_of() {
	case $1 in
	topo) echo clos fattree leafspine bcube jellyfish xpander ring line fc ;;
	paths) echo updown bounce shortest ecmp ksp bcube fc edst stats ;;
	switch) echo attach update show detach ;;
	fabric) echo status plan ;;
	host) echo attach detach ;;
	pfc) echo agent show stop send headroom ;;
	lab) echo plan ;;
	flow) echo send recv ;;
	metrics) echo show serve ;;
	export) echo sonic ;;
	esac
}

# A JSON null on stdout, exit 0.
is_null() {
	local out rc
	out=$("$@" 2>/dev/null); rc=$?
	[ $rc = 0 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] &&
		printf '%s' "$out" | jq -e 'type == "null"' >/dev/null
}

# Exactly one {"error": string} on stdout, exit $1.
is_error() {
	local want=$1 out rc
	shift
	out=$("$@" 2>/dev/null); rc=$?
	[ $rc = "$want" ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] &&
		printf '%s' "$out" | jq -e '.error | type == "string"' >/dev/null
}

check "-j help prints null" is_null $T -j help
for o in $OBJECTS; do
	check "-j $o help prints null" is_null $T -j $o help
	for v in $(verbs_of $o); do
		check "-j $o $v help prints null" is_null $T -j $o $v help
	done
done

$T topo clos -o c.topo && $T paths bounce=1 c.topo -o c.elp &&
	$T compile c.topo c.elp --algorithm clos -o c.json 2>/dev/null || fail "fixtures"

# Bad invocations: one JSON error, exit 2.
bad() { check "-j $* -> error, exit 2" is_error 2 $T -j "$@"; }
bad nosuch
for o in $OBJECTS; do
	bad $o nosuchverb
done
bad topo clos --pods
bad topo clos --pods x
bad topo clos --pod 2
bad paths updown c.topo --nosuch
bad compile c.topo c.elp --no-ver
bad compile c.topo c.elp --classes
bad compile c.topo c.elp --classes=x
bad compile c.topo c.elp --algorithm nosuch
bad verify c.topo c.elp c.json --max-problems
bad verify c.topo c.elp c.json --max-problems=0
bad verify c.topo c.elp c.json --allow
bad stats c.json --top x
bad stats c.json --to 1
bad maps c.json --max-classes 0
bad maps c.json --max-class 4
bad export sonic c.json
bad export sonic c.json --switch nosuch
bad export sonic c.json --switch T1 --speed fast
bad lab plan c.topo --shortest --down
bad lab plan c.topo --shortest --down=nosuch:port
bad lab plan c.topo --short
bad pfc send lo 3 1 --count
bad pfc send lo 3 1 --count=0
bad pfc send nosuchdev 3 1
bad pfc show x --di /tmp
bad flow send 127.0.0.1 --rate
bad flow send 127.0.0.1 --rate=0
bad flow send 127.0.0.1 --rat 1
bad flow recv --interval x
bad cbd c.topo
bad pfc agent n p=lo --quanta=0
bad pfc agent n p=lo --sched=fifo
bad pfc agent n p=lo --weights=1,2
bad pfc agent n p=lo --watchdog-action
bad pfc agent n p=lo --keep-offloads=yes
bad pfc agent n p=lo --lossless-limit=lots
bad pfc headroom --mtu=10
bad pfc headroom --rate=fast
bad pfc headroom --buffer=1m
bad pfc headroom --t-pro=0
bad metrics show --switch='a b'
bad metrics show --switch
bad metrics show -o
bad metrics show --listen=127.0.0.1:0
bad metrics serve --listen=x:y
bad metrics serve -o=f
bad switch attach S1 c.json --mode=bogus
bad switch update S1 c.json --force=1
bad switch detach S1 --topo c.topo
bad host attach H1 lo c.json --class=x

# switch and host take --name=V as their help says: the option is read,
# and the command fails later, on the switch the rules do not have.
for form in "--mode=tc" "--mode tc"; do
	# shellcheck disable=SC2086 # the option's words
	out=$($T switch attach nosuch c.json $form --bpf-root="$TGR_TMP/bpf" 2>&1)
	echo "$out" | grep -q 'no switch "nosuch"' ||
		fail "switch attach ... $form: not read as an option: $out"
	echo "ok: switch attach takes $form"
done

# A runtime failure: no packet socket for an unprivileged user.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	check "-j pfc send as nobody: one JSON error, exit 3" is_error 3 \
		setpriv --reuid=65534 --regid=65534 --clear-groups $T -j pfc send lo 3 1
	check "-j flow recv on a privileged port as nobody: exit 3" is_error 3 \
		setpriv --reuid=65534 --regid=65534 --clear-groups \
		$T -j flow recv --port 80 --seconds 0.1
fi

# A runtime failure of the data plane: another tagger holds the lock (held
# by this test in a namespace of its own, on a bpffs of its own) -> exit 3.
if [ "$(id -u)" = 0 ] && command -v nsenter >/dev/null && command -v flock >/dev/null &&
	mkdir -p "$TGR_TMP/bpffs" && mount -t bpf bpf "$TGR_TMP/bpffs"; then
	ns_new lk
	lk_ino=$(stat -L -c %i "/run/netns/$(ns_name lk)")
	tgr_on_exit "umount $TGR_TMP/bpffs; rm -f /run/tagger/net-$lk_ino.lock"
	R=$TGR_TMP/bpffs/tagger
	mkdir -m 0700 "$R"
	sw=$(jq -r '.switches | keys[0]' c.json)
	held() {
		nsenter --net="/run/netns/$(ns_name lk)" sh -c \
			'exec 9<"$1"; flock 9; shift; TAGGER_BPF_ROOT=$0 TAGGER_LOCK_TIMEOUT=0.2 "$@"' \
			"$R" "$R" "$@"
	}
	check "-j switch update under a held lock: one JSON error, exit 3" is_error 3 \
		held $T -j switch update "$sw" c.json --force
	check "-j switch detach under a held lock: exit 3" is_error 3 held $T -j switch detach "$sw"
	check "-j host detach under a held lock: exit 3" is_error 3 held $T -j host detach h1 eth0
	check "-j switch update, lock free: not attached, exit 2" is_error 2 \
		nsenter --net="/run/netns/$(ns_name lk)" env TAGGER_BPF_ROOT="$R" $T -j switch update "$sw" c.json --force
fi

# --name=V on every ported command.
check "compile --algorithm=clos" sh -c "$T -j compile c.topo c.elp --algorithm=clos --exact-seconds=1 -o /dev/null | jq -e '.chosen == \"clos\"' >/dev/null"
check "verify --max-problems=2" sh -c "$T -j verify c.topo c.elp c.json --max-problems=2 | jq -e .deadlock_free"
check "stats --top=2" sh -c "$T stats c.json --top=2 >/dev/null"
check "lab plan --paths=ELP" sh -c "$T -j lab plan c.topo --paths=c.elp | jq -e '.routes | length > 0'"
check "flow send --seconds=0.1 -o=FILE" sh -c "$T flow send 127.0.0.1 --seconds=0.1 -o=tx.json && jq -e .flow tx.json"
check "pfc show --dir=DIR" sh -c "$T -j pfc show x --dir=$TGR_TMP | jq -e .error >/dev/null; test \$? = 0"

# flow's JSON lines: one object a line, the keys the lab scripts read, on
# loopback with a free UDP port and the largest flow id.
port=$((20000 + RANDOM % 20000))
$T flow recv --port $port --seconds 2 -o rx.json &
rx_pid=$!
for _ in $(seq 50); do
	ss -Hlun "sport = :$port" | grep -q . && break
	sleep 0.05
done
$T flow send 127.0.0.1 --port $port --id 4294967295 --rate 10 --seconds 0.3 -o tx.json
wait $rx_pid
check "flow send: one summary line" test "$(jq -c '[.flow, (.sent_pkts | type), (.seconds | type), (.end | type)]' tx.json)" = \
	'[4294967295,"number","number","number"]'
check "flow recv: every line one object, samples then a final line" \
	jq -se 'length >= 2 and all(type == "object") and (.[-1] | .final and .flow == 4294967295)
		and (.[:-1] | all(has("t") and has("mbps") and has("rx") and has("lost")))' rx.json
check "flow recv: the final count is what was sent (loopback)" \
	test "$(jq -s '.[-1].rx' rx.json)" = "$(jq .sent_pkts tx.json)"

# pfc agent: every option in both forms is taken (the run then stops at
# the missing interface, before touching anything), and the values land:
# an XON above the XOFF is refused after parsing.
agent_opts=(--rate 1gbit --lossless 0-7 --xoff 64k --xon 3:32k --headroom 16k
	--quanta 1000 --sched strict --weights "1,2,3,4,5,6,7,8" --watchdog-ms 50
	--watchdog-restore-ms 60 --watchdog-action drop --backend htb
	--dscp-map "0:1,8:2" --lossless-limit 1m --lossy-limit 2m --keep-offloads
	--slow-pause --rt-prio 0 --cpu-latency none --trace /dev/null
	--dir "$TGR_TMP" --cable 3 --t-pro 60q --t-resp 1)
eq_opts=()
for ((i = 0; i < ${#agent_opts[@]}; i++)); do
	o=${agent_opts[i]} v=${agent_opts[i + 1]:-}
	case $o in
	--keep-offloads|--slow-pause) eq_opts+=("$o") ;;
	*) eq_opts+=("$o=$v"); i=$((i + 1)) ;;
	esac
done
nodev="tgr-no-$$"
for form in spaced equals; do
	if [ $form = spaced ]; then set -- "${agent_opts[@]}"; else set -- "${eq_opts[@]}"; fi
	check "pfc agent, every option --opt V/--opt=V ($form): parsed" \
		sh -c '"$0" -j pfc agent n "p=$1" "$@" 2>/dev/null | jq -e ".error | test(\"$1: no such interface\")" >/dev/null' \
		"$T" "$nodev" "$@"
done
check "pfc agent --xoff=10k --xon=20k: the values are the ones given" \
	sh -c "$T -j pfc agent n p=lo --xoff=10k --xon=20k 2>/dev/null | jq -e '.error == \"XON must be below XOFF\"' >/dev/null"
check "pfc headroom --opt=V is --opt V" test \
	"$($T -j pfc headroom --rate=10gbit --mtu=9000 --cable=100 --t-pro=60q --t-resp=2 --lossless=0-3 --ports=4 --buffer=1m)" = \
	"$($T -j pfc headroom --rate 10gbit --mtu 9000 --cable 100 --t-pro 60q --t-resp 2 --lossless 0-3 --ports 4 --buffer 1m)"
check "metrics show --pfc=NAME --bpf-root=DIR: parsed, reads NAME" \
	sh -c "$T -j metrics show --pfc=tgr-none --bpf-root=$TGR_TMP 2>/dev/null | jq -e '.error | test(\"tgr-none: no pause agent state\")' >/dev/null"
check "metrics serve --listen=127.0.0.1:0: listens" \
	sh -c "timeout 2 $T -j metrics serve --listen=127.0.0.1:0 --pfc=tgr-none | head -1 | jq -e '.listen | test(\"^127.0.0.1:[0-9]+$\")' >/dev/null"

# Exact names only: a prefix of an option is refused.
for cmd in "pfc agent n p=lo --watchdog-m 5" "pfc agent n p=lo --rt 5" \
	"pfc agent n p=lo --lossless-lim 1m" "pfc headroom --cab 3" \
	"pfc headroom --port 2" "metrics show --sw x" "metrics serve --list 127.0.0.1:0"; do
	check "$cmd: a prefix, refused" is_error 2 $T -j $cmd
done
check "a flag given a value says so" \
	sh -c "$T pfc agent n p=lo --slow-pause=1 2>&1 | grep -q -- '--slow-pause takes no value'"

# Deprecated bare keywords: a warning on stderr, and they still work.
deprecated() {
	local word=$1
	shift
	"$@" >/dev/null 2>err; local rc=$?
	grep -q "\"$word\" is deprecated" err && echo $rc
}
check "flow send seconds S out FILE: warns, works" \
	sh -c "$(declare -f deprecated); test \"\$(deprecated seconds $T flow send 127.0.0.1 seconds 0.1 out tx2.json)\" = 0 && jq -e .flow tx2.json"
if [ "$(id -u)" = 0 ]; then
	check "pfc send ... count N: warns, works" \
		sh -c "$(declare -f deprecated); test \"\$(deprecated count $T pfc send lo 3 0 count 2)\" = 0"
fi
check "pfc show NAME dir DIR: warns, reads DIR" \
	sh -c "$T -j pfc show x dir /nonexistent 2>err | grep -q /nonexistent/x && grep -q '\"dir\" is deprecated' err"

check "pfc headroom rate R mtu N: warns, works" \
	sh -c "$T -j pfc headroom rate 1gbit mtu 9000 2>err | jq -e '.frame == 9018 and .rate_bps == 1000000000' >/dev/null &&
		grep -q '\"rate\" is deprecated, use --rate' err && grep -q '\"mtu\" is deprecated, use --mtu' err"

echo "all CLI contract checks passed"
