#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The Debian package of `make deb`: its maintainer scripts reload systemd
# and stop the running units on removal (tried in a mount namespace that
# looks like systemd as PID 1); installed with dpkg -i, the installed
# tagger works (-j topo clos parses, --version is VERSION), its man pages
# are found, its completion loads; then dpkg --purge leaves none of the
# files dpkg -L listed. Changes the machine (root); builds the .deb of this
# tree first (make deb; or takes TAGGER_DEB); skipped when a tagger package
# is installed already.
source "$(dirname "$0")/../lib.sh"
require_root
require_cmd dpkg
require_cmd jq
require_cmd man

version=$(cat "$TOP/VERSION")
arch=$(dpkg --print-architecture)
deb=${TAGGER_DEB:-$TOP/build/deb/tagger_${version}_${arch}.deb}
if [ -z "${TAGGER_DEB:-}" ]; then
	require_cmd dpkg-buildpackage
	make -s -C "$TOP" deb >"$TGR_TMP/deb.log" 2>&1 || { tail -20 "$TGR_TMP/deb.log"; fail "make deb"; }
fi
[ -f "$deb" ] || fail "make deb made no $deb"
if dpkg-query -W -f='${Status}' tagger 2>/dev/null | grep -q 'installed'; then
	skip "a tagger package is installed already; not touching it"
fi

purge() { dpkg --purge tagger >/dev/null 2>&1 || true; }
tgr_on_exit purge

# The maintainer scripts: systemd learns of the templates on install and
# forgets them on removal; removal stops the running instances first, and
# purge removes instances an operator enabled. Each is run as dpkg would,
# in a mount namespace of its own that looks like a machine with systemd
# as PID 1 (/run/systemd/system), with a systemctl that only logs.
ctl=$TGR_TMP/ctl
dpkg-deb -e "$deb" "$ctl" || fail "dpkg-deb -e"
for s in postinst prerm postrm; do
	check "the .deb has a $s" [ -x "$ctl/$s" ]
done
mkdir -p "$TGR_TMP/fakebin"
printf '#!/bin/sh\necho "$*" >> %q\n' "$TGR_TMP/systemctl.log" >"$TGR_TMP/fakebin/systemctl"
chmod +x "$TGR_TMP/fakebin/systemctl"
# as_systemd SCRIPT ARGS...: what the script asked systemctl, one line a call.
as_systemd() {
	: >"$TGR_TMP/systemctl.log"
	unshare -m --propagation private bash -c '
		set -e
		mount -t tmpfs tmpfs /run/systemd && mkdir /run/systemd/system
		# A policy-rc.d that forbids actions (as in containers) would
		# hide the stop: allow them here.
		if [ -e /usr/sbin/policy-rc.d ]; then
			printf "#!/bin/sh\nexit 0\n" >/run/systemd/policy-rc.d
			chmod +x /run/systemd/policy-rc.d
			mount --bind /run/systemd/policy-rc.d /usr/sbin/policy-rc.d
		fi
		mkdir -p /etc/systemd/system
		mount -t tmpfs tmpfs /etc/systemd/system
		w=/etc/systemd/system/multi-user.target.wants
		mkdir "$w"
		ln -s /usr/lib/systemd/system/tagger-switch@.service "$w/tagger-switch@sw1.service"
		ln -s /usr/lib/systemd/system/tagger-pfc@.service "$w/tagger-pfc@sw1.service"
		ln -s /usr/lib/systemd/system/other@.service "$w/other@sw1.service"
		PATH=$FAKEBIN:$PATH "$@"
		ls "$w" >"$TGR_TMP/wants"' as_systemd "$@"
}
export FAKEBIN=$TGR_TMP/fakebin TGR_TMP
check "postinst configure runs" as_systemd "$ctl/postinst" configure
check "postinst configure: systemd reloads" grep -qx -- '--system daemon-reload' "$TGR_TMP/systemctl.log"
check "prerm upgrade runs" as_systemd "$ctl/prerm" upgrade "$version"
check "prerm upgrade: nothing stopped" [ ! -s "$TGR_TMP/systemctl.log" ]
check "prerm remove runs" as_systemd "$ctl/prerm" remove
check "prerm remove: the running instances stop, agents and rules in one transaction" \
	grep -qx -- 'stop tagger-pfc@\*.service tagger-host@\*.service tagger-switch@\*.service' \
	"$TGR_TMP/systemctl.log"
check "postrm remove runs" as_systemd "$ctl/postrm" remove
check "postrm remove: systemd reloads" grep -qx -- '--system daemon-reload' "$TGR_TMP/systemctl.log"
check "postrm remove: enabled instances stay (a reinstall keeps them)" \
	grep -qx 'tagger-switch@sw1.service' "$TGR_TMP/wants"
check "postrm purge runs" as_systemd "$ctl/postrm" purge
check "postrm purge: the enabled instances' links go, another package's stay" \
	[ "$(cat "$TGR_TMP/wants")" = "other@sw1.service" ]

check "dpkg -i installs $(basename "$deb")" dpkg -i "$deb"
dpkg -L tagger > "$TGR_TMP/files"
check "dpkg -L lists the binary" grep -qx /usr/sbin/tagger "$TGR_TMP/files"
check "dpkg -L lists the completion" \
	grep -qx /usr/share/bash-completion/completions/tagger "$TGR_TMP/files"
ACOLL=/usr/share/ansible/collections/ansible_collections/tagger/fabric
check "dpkg -L lists the Ansible collection's module" \
	grep -qx "$ACOLL/plugins/modules/tagger_switch.py" "$TGR_TMP/files"
if command -v ansible-doc >/dev/null; then
	check "ansible-core finds the installed collection (its default path)" \
		bash -c 'cd / && env -u ANSIBLE_COLLECTIONS_PATH -u ANSIBLE_COLLECTIONS_PATHS \
			ansible-doc tagger.fabric.tagger_switch | grep -q backup_dir'
fi

/usr/sbin/tagger -j topo clos > "$TGR_TMP/clos.json"
check "tagger -j topo clos prints JSON (the paper's Clos: 14 nodes)" \
	test "$(jq .nodes "$TGR_TMP/clos.json")" = 14
check "tagger --version prints VERSION ($version)" \
	test "$(/usr/sbin/tagger --version)" = "tagger $version"
check "tagger -j version agrees" \
	test "$(/usr/sbin/tagger -j version | jq -r .version)" = "$version"

page=$(man -w tagger-compile 2>&1)
check "man -w tagger-compile finds the installed page ($page)" \
	test "$page" = /usr/share/man/man8/tagger-compile.8.gz
for p in tagger tagger-pfc tagger-formats; do
	check "man -w $p" bash -c "man -w $p >/dev/null"
done
check "the installed page renders" \
	bash -c 'MANWIDTH=80 man tagger-compile 2>&1 | grep -q "^SYNOPSIS"'

comp=$(bash --norc --noprofile -c \
	'source /usr/share/bash-completion/completions/tagger && complete -p tagger')
check "the completion registers for tagger ($comp)" \
	test "$comp" = "complete -F _tagger tagger"
comp=$(bash --norc --noprofile -c \
	'source /usr/share/bash-completion/completions/tagger
	 COMP_WORDS=(tagger compile a b --algorithm ""); COMP_CWORD=5; _tagger
	 echo "${COMPREPLY[*]}"' 2>/dev/null)
check "the completion completes --algorithm" test "$comp" = "best order greedy brute clos"

check "dpkg --purge tagger" dpkg --purge tagger
check "dpkg no longer knows tagger" \
	bash -c '! dpkg-query -W -f="\${Status}" tagger 2>/dev/null | grep -q installed'
left=()
while read -r f; do
	# directories shared with other packages (/usr/share/man/man8) stay
	if [ -d "$f" ] && [ ! -L "$f" ]; then
		[[ $f == *tagger* ]] && left+=("$f")
		continue
	fi
	[ -e "$f" ] || [ -L "$f" ] && left+=("$f")
done < "$TGR_TMP/files"
[ ${#left[@]} -eq 0 ] || fail "left after purge: ${left[*]}"
echo "ok: nothing of the package is left ($(wc -l < "$TGR_TMP/files") paths checked)"
