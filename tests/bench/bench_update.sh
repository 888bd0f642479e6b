#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# switch update of one rule of a 100,800-rule table (40 ports, 63 tags,
# compiled rules) and of the whole table: the tagger of BENCH_UPD_REV
# (A, default: where this branch left main) against this tree (B),
# alternating A and B, RUNS of each (default 30), on a fresh instance:
# port names and the changed rule come from BENCH_SEED (default: the
# time), so no run measures what was tuned on. Each side updates its own
# switch, in its own namespace, back and forth between the table and the
# changed one; timed inside the namespace (python, perf_counter; CPU from
# getrusage of the child), 30 ms apart, /bin/true and tagger --version as
# the floor, the load average before and after. Root; skips otherwise.
#   BENCH_UPD_REV=<commit> RUNS=30 BENCH_SEED=7 bash tests/bench/bench_update.sh
set -u
cd "$(dirname "$0")/../.." || exit 1
[ "$(id -u)" -eq 0 ] || { echo "bench_update: needs root, skipped"; exit 0; }
TGR_PREFIX=tgru$(printf "%04x" $((RANDOM)))
export TGR_PREFIX
source tests/lib.sh
B=$TOP/build/tagger
rev=${BENCH_UPD_REV:-$(git merge-base HEAD main 2>/dev/null || git rev-parse HEAD~1)}
A=$(bash tools/bench-ab.sh --binary "$rev" 2>/dev/null) || { echo "bench_update: no tagger of $rev"; exit 1; }
seed=${BENCH_SEED:-$(date +%s)}
BPFFS=$TGR_TMP/bpffs
mkdir -p "$BPFFS" && mount -t bpf bpf "$BPFFS" || { echo "no bpffs"; exit 1; }
tgr_on_exit "rm -rf $BPFFS/A $BPFFS/B; umount $BPFFS"
prefixes=(eth swp port xe et te ge sw)
pfx=${prefixes[$((seed % ${#prefixes[@]}))]}
python3 - "$TGR_TMP" "$pfx" "$seed" <<'PY' || exit 1
import json, random, sys
out, pfx, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
rnd = random.Random(seed)
ports = ["%s%d" % (pfx, i + rnd.randrange(3)) for i in range(0, 120, 3)]
links = [["big:%s" % p, "n%d:x" % i] for i, p in enumerate(ports)]
prio = {t: 1 + rnd.randrange(7) for t in range(1, 64)}
def doc(bump):
    return {"format": "tagger-rules/1", "lossy": {"tag": 0, "priority": 0},
            "tags": [{"tag": t, "priority": prio[t]} for t in range(1, 64)],
            "switches": {"big": {"ports": ports,
                "classify": [{"in": p, "tag": t, "priority": prio[t]}
                             for p in ports for t in range(1, 64)],
                "rewrite": [{"tag": t, "in": i, "out": o, "new_tag": min(63, t + bump)}
                            for t in range(1, 64) for i in ports for o in ports if i != o]}},
            "links": links}
json.dump(doc(0), open(out + "/a.json", "w"))
json.dump(doc(1), open(out + "/all.json", "w"))
d = doc(0)
rw = d["switches"]["big"]["rewrite"]
k = rnd.randrange(len(rw))
rw[k]["new_tag"] = min(63, rw[k]["tag"] + 2 + rnd.randrange(4))
json.dump(d, open(out + "/one.json", "w"))
print("   instance: seed %d, ports %s..%s, rewrite[%d] changed (tag %d %s -> %s: new tag %d)" % (
    seed, ports[0], ports[-1], k, rw[k]["tag"], rw[k]["in"], rw[k]["out"], rw[k]["new_tag"]))
PY
for f in a all one; do "$B" switch pack "$TGR_TMP/$f.json" -o "$TGR_TMP/$f.trb" || exit 1; done
for s in A B; do
	ns_new "upd$s"
	tgr_on_exit "rm -f /run/tagger/net-$(stat -L -c %i "/run/netns/$(ns_name "upd$s")").lock"
	for i in $(seq 0 2 38); do
		ip -n "$(ns_name "upd$s")" link add "v$i" type veth peer name "v$((i + 1))"
	done
done
# The rules' port names on the switch's interfaces (ifname given per port).
python3 - "$TGR_TMP/a.json" >"$TGR_TMP/map" <<'PY'
import json, sys
ports = json.load(open(sys.argv[1]))["switches"]["big"]["ports"]
print(" ".join("%s=v%d" % (p, i) for i, p in enumerate(ports)))
PY
echo "-- switch update, one rule of 100,800 and the whole table, compiled rules"
echo "   A = $rev ($A), B = this tree; ${RUNS:=30} updates of each, alternating"
for s in A B; do
	bin=$([ $s = A ] && echo "$A" || echo "$B")
	# shellcheck disable=SC2046 # one word per option
	TAGGER_BPF_ROOT=$BPFFS/$s/tagger nsenter --net="/run/netns/$(ns_name "upd$s")" \
		"$bin" switch attach big "$TGR_TMP/a.trb" $(cat "$TGR_TMP/map") >/dev/null ||
		{ echo "attach $s failed"; exit 1; }
done
python3 - "$A" "$B" "$TGR_TMP" "$RUNS" "$BPFFS" "$(ns_name updA)" "$(ns_name updB)" <<'PY' || exit 1
import ctypes, json, os, resource, statistics, subprocess, sys, time
A, B, tmp, runs, bpffs, nsa, nsb = sys.argv[1:8]
libc = ctypes.CDLL(None, use_errno=True)
def setns(fd):  # os.setns is python 3.12's
    if libc.setns(fd, 0x40000000):  # CLONE_NEWNET
        sys.exit("setns: %s" % os.strerror(ctypes.get_errno()))
runs = int(runs)
bins = {"A": A, "B": B}
ns = {"A": os.open("/run/netns/" + nsa, os.O_RDONLY), "B": os.open("/run/netns/" + nsb, os.O_RDONLY)}
res = {}
def timed(label, argv, env=None, gap=0.03):
    time.sleep(gap)
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(argv, stdout=subprocess.PIPE, env=env)
    w = (time.perf_counter() - t0) * 1e3
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode:
        sys.exit("%s: exit %d" % (" ".join(argv), p.returncode))
    c = (r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime) * 1e3
    res.setdefault(label, []).append((w, c))
    return p.stdout
def upd(side, kind, f):
    setns(ns[side])
    env = dict(os.environ, TAGGER_BPF_ROOT=bpffs + "/" + side + "/tagger")
    out = timed(side + " " + kind, [bins[side], "-j", "switch", "update", "big", tmp + "/" + f], env)
    if not json.loads(out).get("in_place"):
        res.setdefault(side + " " + kind + " not in place", []).append((0, 0))
for side in "AB":  # the first update replaces the table; then in place
    upd(side, "warm", "one.trb"); upd(side, "warm", "a.trb")
print("   load average before: %s" % " ".join(open("/proc/loadavg").read().split()[:3]))
for k in range(runs):
    for side in ("AB" if k % 2 else "BA"):
        upd(side, "one rule", "one.trb" if k % 2 == 0 else "a.trb")
    timed("/bin/true", ["/bin/true"])
    timed("tagger --version (B)", [B, "--version"])
for k in range(runs // 2):
    for side in ("AB" if k % 2 else "BA"):
        upd(side, "whole table", "all.trb" if k % 2 == 0 else "a.trb")
print("   load average after: %s" % " ".join(open("/proc/loadavg").read().split()[:3]))
print("   %-26s %5s %9s %9s %9s" % ("ms", "runs", "wall med", "fastest", "CPU med"))
med = {}
for label, v in res.items():
    if "warm" in label:
        continue
    w, c = [x[0] for x in v], [x[1] for x in v]
    med[label] = (statistics.median(w), min(w), statistics.median(c))
    print("   %-26s %5d %9.2f %9.2f %9.2f" % (label, len(v), *med[label]))
for kind in ("one rule", "whole table"):
    a, b = med["A " + kind], med["B " + kind]
    print("   B/A %-22s %15.2f %9.2f %9.2f" % (kind, b[0] / a[0], b[1] / a[1], b[2] / a[2]))
t = med["/bin/true"]
b = med["B one rule"]
print("   B one rule less /bin/true: wall median %.2f, fastest %.2f; CPU %.2f" % (
    b[0] - t[0], b[1] - t[1], b[2] - t[2]))
PY
for s in A B; do
	bin=$([ $s = A ] && echo "$A" || echo "$B")
	TAGGER_BPF_ROOT=$BPFFS/$s/tagger nsenter --net="/run/netns/$(ns_name "upd$s")" \
		"$bin" switch detach big >/dev/null
done
# Where each side's time goes: -v of the last of three updates, one rule.
for s in A B; do
	bin=$([ $s = A ] && echo "$A" || echo "$B")
	echo "   where $s's time goes (-v, one rule; wall and CPU ms):"
	# shellcheck disable=SC2046 # one word per option
	TAGGER_BPF_ROOT=$BPFFS/$s/tagger nsenter --net="/run/netns/$(ns_name "upd$s")" \
		"$bin" switch attach big "$TGR_TMP/a.trb" $(cat "$TGR_TMP/map") >/dev/null
	for f in one a one; do
		TAGGER_BPF_ROOT=$BPFFS/$s/tagger nsenter --net="/run/netns/$(ns_name "upd$s")" \
			"$bin" -v switch update big "$TGR_TMP/$f.trb" 2>"$TGR_TMP/phases" >/dev/null
		sleep 0.05
	done
	grep phase "$TGR_TMP/phases" | sed 's/^/   /'
	awk '/^phase/ { c += $(NF - 2) } END { printf "   phases in all: %.2f ms CPU\n", c }' "$TGR_TMP/phases"
	TAGGER_BPF_ROOT=$BPFFS/$s/tagger nsenter --net="/run/netns/$(ns_name "upd$s")" \
		"$bin" switch detach big >/dev/null
done
