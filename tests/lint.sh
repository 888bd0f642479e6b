#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make lint: shellcheck at warning level over every shell script the
# repository tracks, every tracked C file formatted as .clang-format says
# (kernel style), the layer order of userspace/ (tools/check-layers.sh), and
# the headers' API blocks against their prototypes (tools/check-api-docs.py).
# Exit 1 on any finding.
set -u
cd "$(dirname "$0")/.." || exit 2

rc=0
if command -v shellcheck >/dev/null; then
	mapfile -t scripts < <(git ls-files '*.sh' vmlab/vmlab .ci/run 2>/dev/null)
	if shellcheck -x -S warning "${scripts[@]}"; then
		echo "shellcheck: ${#scripts[@]} scripts, no warnings"
	else
		rc=1
	fi
else
	echo "lint: shellcheck is not installed (apt-get install shellcheck)" >&2
	rc=1
fi
# One EXIT trap, lib.sh's: a test's own would drop everyone's cleanup
# (register with tgr_on_exit instead).
traps=$(grep -ln 'trap .*EXIT' tests/shell/*.sh tests/lab_lib.sh 2>/dev/null)
if [ -n "$traps" ]; then
	echo "lint: EXIT traps replace lib.sh's cleanup (use tgr_on_exit): $traps"
	rc=1
fi
if command -v clang-format >/dev/null; then
	mapfile -t csrc < <(git ls-files '*.c' '*.h' 2>/dev/null)
	if clang-format --dry-run -Werror "${csrc[@]}" 2>/tmp/lint-cf.$$; then
		echo "clang-format: ${#csrc[@]} C files, formatted"
	else
		grep -o '^[^:]*:[0-9]*' /tmp/lint-cf.$$ | sort -u -t: -k1,1 | head -20
		echo "lint: files not formatted as .clang-format says (clang-format -i FILE)"
		rc=1
	fi
	rm -f /tmp/lint-cf.$$
else
	echo "lint: clang-format is not installed (apt-get install clang-format)" >&2
	rc=1
fi
if [ -x tools/check-layers.sh ] || [ -f tools/check-layers.sh ]; then
	bash tools/check-layers.sh || rc=1
fi
# Each header's API block names the parameters its prototypes have.
python3 tools/check-api-docs.py || rc=1
# The Ansible collection's Python compiles (without writing __pycache__).
mapfile -t pysrc < <(git ls-files 'ansible/*.py' 2>/dev/null)
if [ ${#pysrc[@]} -gt 0 ]; then
	python3 -c 'import sys
for f in sys.argv[1:]:
    compile(open(f).read(), f, "exec")' "${pysrc[@]}" && echo "python: ${#pysrc[@]} collection files compile" || rc=1
fi
exit $rc
