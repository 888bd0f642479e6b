#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The Debian package of `make deb`: installed with dpkg -i, the installed
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

check "dpkg -i installs $(basename "$deb")" dpkg -i "$deb"
dpkg -L tagger > "$TGR_TMP/files"
check "dpkg -L lists the binary" grep -qx /usr/sbin/tagger "$TGR_TMP/files"
check "dpkg -L lists the completion" \
	grep -qx /usr/share/bash-completion/completions/tagger "$TGR_TMP/files"

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
