#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check-layers: userspace/ is layered, and a file may include only its
# own folder and the folders below it:
#
#   lib < model < graph < gen, compile, analyze < fc
#       < dataplane, pfc, lab < metrics, fabric < cli
#
# (folders on one line of the order are beside each other: neither includes
# the other). Prints every include that goes up or sideways; exit 1 if any.
#
# Inside a folder, the files include each other without a circle: a file
# and its header are one module (dp_state.c and dp_state.h), and an
# include is an edge from the including module to the included one; tsort
# finds any circle, and any circle fails.
set -u
cd "$(dirname "$0")/.." || exit 2

rank() {
	case $1 in
	lib) echo 0 ;; model) echo 1 ;; graph) echo 2 ;;
	gen | compile | analyze) echo 3 ;; fc) echo 4 ;;
	dataplane | pfc | lab) echo 5 ;; metrics | fabric) echo 6 ;; cli) echo 7 ;;
	*) echo -1 ;;
	esac
}

bad=0
for f in userspace/*/*.[ch]; do
	from=${f#userspace/}
	from=${from%%/*}
	rf=$(rank "$from")
	if [ "$rf" -lt 0 ]; then
		echo "$f: folder \"$from\" has no place in the layer order (tools/check-layers.sh)"
		bad=1
		continue
	fi
	while IFS= read -r line; do
		to=${line#*\"}
		to=${to%%/*}
		[ "$to" = "$from" ] && continue
		rt=$(rank "$to")
		if [ "$rt" -lt 0 ] || [ "$rt" -ge "$rf" ]; then
			echo "$f: includes $to/ (${line#*\"}: not below $from/)"
			bad=1
		fi
	done < <(grep -o '^#include "[a-z_]*/[^"]*"' "$f")
done

# "module included-module" for every include inside folder $1.
folder_edges() {
	local f m t
	for f in userspace/"$1"/*.[ch]; do
		m=${f#userspace/}
		m=${m%.[ch]}
		grep -o '^#include "'"$1"'/[^"]*\.h"' "$f" |
			sed -e 's/^#include "//' -e 's/\.h"$//' |
			while IFS= read -r t; do
				[ "$t" != "$m" ] && echo "$m $t"
			done
	done | sort -u
}

for d in userspace/*/; do
	d=${d#userspace/}
	d=${d%/}
	if ! loops=$(folder_edges "$d" | tsort 2>&1 >/dev/null) ||
		[ -n "$loops" ]; then
		echo "userspace/$d/: files include each other in a circle:"
		echo "$loops" | sed -n 's/^tsort: \([a-z]*\/[a-z_0-9]*\)$/  \1/p'
		bad=1
	fi
done

[ $bad -eq 0 ] && echo "layers: ok ($(ls userspace/*/*.[ch] | wc -l) files)"
exit $bad
